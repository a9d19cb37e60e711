/**
 * Apply one scoring rule to a whole frame of responses in polars ({@link scoreFrame}): the
 * rule's expressions for `extracted` and `correct`, and its scalar form for the rows it flags
 * as slow. Which rule is chosen by name is the registry's business (`benchmarks/registry.ts`).
 * @module
 */
import pl from "nodejs-polars";
import type { Scorer, ScorerColumns } from "./types.ts";

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
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { lastLine } from "@runlens/benchmarks/bbh/scorers/last_line.ts";
 * const df = pl.DataFrame({ response: ["thinking\n(A)", "(B)"], target: ["(A)", "(A)"] });
 * const scored = scoreFrame(df.lazy(), lastLine);
 * assert.deepEqual(scored.columns, ["response", "target", "extracted", "correct", "scorer"]);
 * assert.deepEqual(scored.getColumn("correct").toArray(), [true, false]);
 * ```
 */
export function scoreFrame(
  lf: pl.LazyDataFrame,
  s: Scorer,
  columns: Partial<ScorerColumns> = {},
): pl.DataFrame {
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
