/**
 * Summaries of human annotations on ARB rows: the error-type table (the paper's Table 3,
 * multi-label: a response can be both a wrong approach and an arithmetic mistake) and the rubric
 * quality summary (Table 4: Likert means and failure-case rates).
 *
 * @example
 * ```ts
 * import { arbErrorTypes, arbRubricQuality } from "@runlens/benchmarks/arb/annotations.ts";
 * arbErrorTypes(rows); // model, subject, answer_type, n, misread, wrong_approach, … (percent)
 * arbRubricQuality(rows); // model, subject, answer_type, n, rubric_coverage, …
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { ARB_ERROR_FLAGS, ARB_RUBRIC_FLAGS, ARB_RUBRIC_LIKERT } from "./fields.ts";
import { groupRows, keySchema, percentTrue, typedFrame } from "./group.ts";
import { mean } from "simple-statistics";

/** Default grouping of the annotation tables. */
export const ANNOTATION_BY = ["model", "subject", "answer_type"];

const annotated = (flags: readonly string[]) =>
  flags.map((f) => pl.col(f).isNotNull()).reduce((a, b) => a.or(b));

/**
 * Error types per group, over the rows with at least one error flag set (true or false).
 * Each flag column is the percent of rows flagged true among the rows where that flag is known
 * (null: unknown everywhere, e.g. "correct answer" for proofs, the paper's "n/a"). Labels are
 * not exclusive, so a row's flags need not sum to 100%.
 *
 * @example
 * ```ts
 * arbErrorTypes(rows).columns;
 * // ["model", "subject", "answer_type", "n", "misread", "wrong_approach", "logical_error",
 * //  "arithmetic", "correct_answer", "correct_reasoning"]
 * ```
 */
export function arbErrorTypes(
  rows: pl.DataFrame,
  by: readonly string[] = ANNOTATION_BY,
): pl.DataFrame {
  const out = groupRows(rows.filter(annotated(ARB_ERROR_FLAGS)), by).map(({ key, rows: g }) => ({
    ...key,
    n: g.length,
    ...Object.fromEntries(ARB_ERROR_FLAGS.map((f) => [f, percentTrue(g.map((r) => r[f]))])),
  }));
  return typedFrame(out, {
    ...keySchema(rows, by),
    n: pl.Int32,
    ...Object.fromEntries(ARB_ERROR_FLAGS.map((f) => [f, pl.Float64])),
  });
}

/**
 * Rubric quality per group, over the rows with any rubric annotation: the means of the 1–5
 * Likert scores `rubric_coverage` and `rubric_point_spread`, and the percent of rows with an
 * alternative (correct, uncovered) solution, extra credit, reduced credit and hallucinated
 * rubric items (each among the rows where that flag is known).
 *
 * @example
 * ```ts
 * arbRubricQuality(rows, ["subject", "answer_type"]);
 * ```
 */
export function arbRubricQuality(
  rows: pl.DataFrame,
  by: readonly string[] = ANNOTATION_BY,
): pl.DataFrame {
  const cols = [...ARB_RUBRIC_LIKERT, ...ARB_RUBRIC_FLAGS];
  const out = groupRows(rows.filter(annotated(cols)), by).map(({ key, rows: g }) => {
    const likert = (f: string) => {
      const v = g.map((r) => r[f]).filter((x): x is number => typeof x === "number");
      return v.length === 0 ? null : mean(v);
    };
    return {
      ...key,
      n: g.length,
      ...Object.fromEntries(ARB_RUBRIC_LIKERT.map((f) => [f, likert(f)])),
      ...Object.fromEntries(ARB_RUBRIC_FLAGS.map((f) => [f, percentTrue(g.map((r) => r[f]))])),
    };
  });
  return typedFrame(out, {
    ...keySchema(rows, by),
    n: pl.Int32,
    ...Object.fromEntries(cols.map((f) => [f, pl.Float64])),
  });
}
