/**
 * The scorer registry: every scoring rule runlens knows, by name, and {@link scoreFrame}, which
 * applies one to a frame of responses in polars (re-scoring flagged rows with the scalar form).
 *
 * | name | benchmark | rule |
 * |---|---|---|
 * | `bbh-release-cot` | bbh | BBH release, after the last "So the answer is " |
 * | `bbh-release-direct` | bbh | BBH release, first line |
 * | `lm-eval-get-answer` | bbh | lm-evaluation-harness bbh_cot_fewshot |
 * | `lm-eval-strict` | bbh | lm-evaluation-harness bbh_cot_zeroshot strict-match |
 * | `lm-eval-flexible` | bbh | lm-evaluation-harness bbh_cot_zeroshot flexible-extract |
 * | `last-line` | bbh | mcpbr: last non-empty line, case-insensitive |
 * | `stored` | all | the verdict stored in the log |
 * | `bbeh-official` | bbeh | the official BBEH scorer |
 * | `lenient` | bbh, bbeh | runlens's forgiving extractor, for format-sensitivity analysis only |
 *
 * @example
 * ```ts
 * import { getScorer, scoreFrame } from "@runlens/scorers/registry.ts";
 * const rows = scoreFrame(df.lazy(), "bbh-release-cot"); // adds extracted, correct, scorer
 * console.assert(getScorer("last-line").benchmarks.includes("bbh"));
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { bbehOfficialScorer } from "../benchmarks/bbeh/official_scorer.ts";
import { bbhReleaseCot } from "../benchmarks/bbh/scorers/release_cot.ts";
import { bbhReleaseDirect } from "../benchmarks/bbh/scorers/release_direct.ts";
import { lastLine } from "./last_line.ts";
import { lenient } from "./lenient.ts";
import { lmEvalFlexible } from "../benchmarks/bbh/scorers/lm_eval/flexible.ts";
import { lmEvalGetAnswer } from "../benchmarks/bbh/scorers/lm_eval/get_answer.ts";
import { lmEvalStrict } from "../benchmarks/bbh/scorers/lm_eval/strict.ts";
import { stored } from "./stored.ts";
import type { Scorer, ScorerColumns } from "./types.ts";

/** All registered scorers, in the order of the table above. */
export const SCORERS: readonly Scorer[] = [
  bbhReleaseCot,
  bbhReleaseDirect,
  lmEvalGetAnswer,
  lmEvalStrict,
  lmEvalFlexible,
  lastLine,
  stored,
  bbehOfficialScorer,
  lenient,
];

/** Registered names, in registry order. */
export const SCORER_NAMES: readonly string[] = SCORERS.map((s) => s.name);

const byName = new Map(SCORERS.map((s) => [s.name, s]));

/**
 * The scorer with this name; throws listing the registered names otherwise.
 *
 * @example
 * ```ts
 * getScorer("lm-eval-strict").needs; // []
 * ```
 */
export function getScorer(name: string): Scorer {
  const s = byName.get(name);
  if (!s) throw new Error(`unknown scorer "${name}"; scorers are: ${SCORER_NAMES.join(", ")}`);
  return s;
}

/** The row-schema column names {@link scoreFrame} reads by default. */
export const DEFAULT_SCORER_COLUMNS: ScorerColumns = {
  response: "response",
  target: "target",
  task: "task",
  input: "input",
  stored: "stored_correct",
};

const SLOW = "__scorer_slow";

/**
 * Score every row of a frame with one rule, in polars: sets `extracted`, `correct` and
 * `scorer` (added at the end when absent, replaced in place otherwise); rows the rule flags
 * as slow are re-scored with its scalar form. Helper columns (`__…`) are dropped.
 *
 * @example
 * ```ts
 * const df = pl.DataFrame({ response: ["So the answer is (A)."], target: ["(A)"] });
 * scoreFrame(df.lazy(), "bbh-release-cot").getColumn("correct").get(0); // true
 * ```
 */
export function scoreFrame(
  lf: pl.LazyDataFrame,
  scorer: string | Scorer,
  columns: Partial<ScorerColumns> = {},
): pl.DataFrame {
  const s = typeof scorer === "string" ? getScorer(scorer) : scorer;
  const cols = { ...DEFAULT_SCORER_COLUMNS, ...columns };
  const original = lf.columns;
  for (const need of ["response", "target", ...s.needs] as const) {
    if (!original.includes(cols[need])) {
      throw new Error(
        `scorer ${s.name} needs column "${cols[need]}" (${need}); the frame has ` +
          original.join(", "),
      );
    }
  }
  const prepared = s.prepare ? s.prepare(lf, cols) : lf;
  const e = s.expr(cols.response, cols.target, {
    taskCol: cols.task,
    inputCol: cols.input,
    storedCol: cols.stored,
  });
  let df = prepared.withColumns(
    e.extracted.cast(pl.Utf8).alias("extracted"),
    e.correct.cast(pl.Bool).alias("correct"),
    (e.slow ?? pl.lit(false)).fillNull(false).alias(SLOW),
  ).collectSync();
  df = rescoreSlow(df, s, cols);
  const out = [...original];
  for (const c of ["extracted", "correct", "scorer"]) if (!out.includes(c)) out.push(c);
  return df.withColumns(pl.lit(s.name).alias("scorer")).select(...out);
}

/** Re-score the rows flagged in the slow column with the scalar form. */
function rescoreSlow(df: pl.DataFrame, s: Scorer, cols: ScorerColumns): pl.DataFrame {
  const slow = df.getColumn(SLOW).toArray() as boolean[];
  if (!slow.some((x) => x)) return df;
  const get = (c: string) =>
    df.columns.includes(c) ? df.getColumn(c).toArray() as unknown[] : slow.map(() => null);
  const [responses, targets, tasks, inputs, storedV] = [
    get(cols.response),
    get(cols.target),
    get(cols.task),
    get(cols.input),
    get(cols.stored),
  ];
  const extracted = df.getColumn("extracted").toArray() as (string | null)[];
  const correct = df.getColumn("correct").toArray() as (boolean | null)[];
  slow.forEach((isSlow, i) => {
    if (!isSlow) return;
    if (responses[i] == null || targets[i] == null) {
      extracted[i] = null;
      correct[i] = null;
      return;
    }
    const v = s.score(responses[i] as string, targets[i] as string, {
      task: tasks[i] as string | null,
      input: inputs[i] as string | null,
      stored: storedV[i] as boolean | null,
    });
    extracted[i] = v.extracted;
    correct[i] = v.correct;
  });
  return df.withColumns(
    pl.Series("extracted", extracted, pl.Utf8),
    pl.Series("correct", correct, pl.Bool),
  );
}
