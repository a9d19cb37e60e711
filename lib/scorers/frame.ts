/**
 * Apply one scoring rule to a whole frame of responses ({@link scoreFrame}): the rule's scalar
 * `score`, row by row, over the columns read out of polars once each. Which rule is chosen by
 * name is the registry's business (`benchmarks/registry.ts`). This module is a frame function
 * and imports polars; the scorers themselves do not (the streaming path's Workers load them).
 * @module
 */
import pl from "nodejs-polars";
import {
  type ScoreContext,
  type Scorer,
  type ScorerColumns,
  UnscorableRow,
  type Verdict,
} from "./types.ts";

/**
 * The row-schema column names {@link scoreFrame} reads by default.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(DEFAULT_SCORER_COLUMNS.stored, "stored_correct");
 * ```
 */
export const DEFAULT_SCORER_COLUMNS: ScorerColumns = {
  response: "response",
  target: "target",
  task: "task",
  input: "input",
  stored: "stored_correct",
  subset: "subset",
  fields: "extra",
};

/**
 * Score every row of a frame with one rule: sets `extracted`, `correct`, `answer_found` and
 * `scorer` (added at the end when absent, replaced in place otherwise; the other columns keep
 * their order). A row with a null response or target gets nulls; the others get the rule's
 * scalar verdict (`answer_found` is its `found`), `score(response, target, ctx)` with the task, input and stored
 * verdict in `ctx` when the rule needs them. Throws when a column the rule needs is missing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { lastLine } from "@runlens/benchmarks/bbh/scorers/last_line.ts";
 * const df = pl.DataFrame({ response: ["thinking\n(A)", "(B)", null], target: ["(A)", "(A)", "(A)"] });
 * const scored = scoreFrame(df.lazy(), lastLine);
 * assert.deepEqual(scored.columns, [
 *   "response",
 *   "target",
 *   "extracted",
 *   "correct",
 *   "answer_found",
 *   "scorer",
 * ]);
 * assert.deepEqual(scored.getColumn("correct").toArray(), [true, false, null]); // null: no response
 * assert.deepEqual(scored.getColumn("answer_found").toArray(), [true, true, null]);
 * ```
 */
export function scoreFrame(
  lf: pl.LazyDataFrame | pl.DataFrame,
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
  const df = "collectSync" in lf ? lf.collectSync() : lf;
  const read = (c: string) => df.getColumn(c).toArray() as unknown[];
  const responses = read(cols.response) as (string | null)[];
  const targets = read(cols.target) as (string | null)[];
  const tasks = s.needs.includes("task") ? read(cols.task) as (string | null)[] : null;
  const inputs = s.needs.includes("input") ? sharedTexts(df.getColumn(cols.input)) : null;
  const stored = s.needs.includes("stored") ? read(cols.stored) as (boolean | null)[] : null;
  const subsets = s.needs.includes("subset") ? read(cols.subset) as (string | null)[] : null;
  const fields = s.needs.includes("fields") ? read(cols.fields) as (string | null)[] : null;
  const n = responses.length;
  const extracted: (string | null)[] = new Array(n);
  const correct: (boolean | null)[] = new Array(n);
  const found: (boolean | null)[] = new Array(n);
  for (let i = 0; i < n; i++) {
    const response = responses[i], target = targets[i];
    if (response == null || target == null) {
      extracted[i] = correct[i] = found[i] = null;
      continue;
    }
    const v = scoreRow(s, response, target, {
      task: tasks?.[i] ?? null,
      input: inputs?.[i] ?? null,
      stored: stored?.[i] ?? null,
      ...subsets ? { subset: subsets[i] } : {},
      ...fields ? { fields: fields[i] == null ? null : JSON.parse(fields[i]!) } : {},
    });
    extracted[i] = v.extracted;
    correct[i] = v.correct;
    found[i] = v.found;
  }
  const out = [...original];
  for (const c of ["extracted", "correct", "answer_found", "scorer"]) {
    if (!out.includes(c)) out.push(c);
  }
  return df.withColumns(
    pl.Series("extracted", extracted, pl.Utf8),
    pl.Series("correct", correct, pl.Bool),
    pl.Series("answer_found", found, pl.Bool),
    pl.lit(s.name).alias("scorer"),
  ).select(...out);
}

/**
 * A text column as strings, each distinct value ONE string: inputs repeat for every response
 * to an example and run to kilobytes (BBEH's), so a string per row held ~80 MB for the 20,000
 * rows a load's advice scores. Read in slices, so the copies die young.
 */
function sharedTexts(column: pl.Series): (string | null)[] {
  const out: (string | null)[] = new Array(column.length);
  const seen = new Map<string, string>();
  for (let from = 0; from < column.length; from += SLICE_ROWS) {
    const part = column.slice(from, SLICE_ROWS).toArray() as (string | null)[];
    part.forEach((v, i) => {
      if (v !== null && !seen.has(v)) seen.set(v, v);
      out[from + i] = v === null ? null : seen.get(v)!;
    });
  }
  return out;
}

/** Rows per slice of {@link sharedTexts}. */
const SLICE_ROWS = 1024;

/** A row's verdict; a row the rule cannot score (`UnscorableRow`) gets none. */
function scoreRow(s: Scorer, response: string, target: string, ctx: ScoreContext): Verdict {
  try {
    return s.score(response, target, ctx);
  } catch (e) {
    if (e instanceof UnscorableRow) return { extracted: null, correct: null, found: null };
    throw e;
  }
}
