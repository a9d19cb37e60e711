/**
 * Summaries of human annotations on ARB rows: the error-type table (the paper's Table 3,
 * multi-label: a response can be both a wrong approach and an arithmetic mistake) and the rubric
 * quality summary (Table 4: Likert means and failure-case rates).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arbErrorTypes, arbRubricQuality } from "@runlens/benchmarks/arb/annotations.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { benchmarkRows } from "@runlens/pipeline/benchmark_rows.ts";
 * // 8 hand-made rows of model "m1": 4 law multiple-choice, 2 numerical, 2 symbolic (physics)
 * const loaded = await loadRuns(["tests/fixtures/arb/analyses.jsonl"], "", { benchmarks: ["arb"] });
 * const rows = benchmarkRows(loaded, "arb");
 * arbErrorTypes(rows); // model, subject, answer_type, n, misread, wrong_approach, … (percent)
 * arbRubricQuality(rows); // model, subject, answer_type, n, rubric_coverage, …
 * assert.equal(arbErrorTypes(rows).height, 2); // the 4 annotated rows: numerical and symbolic
 * assert.equal(arbRubricQuality(rows).getColumn("rubric_coverage").get(0), 3.5);
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
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { benchmarkRows } from "@runlens/pipeline/benchmark_rows.ts";
 * // 8 hand-made rows of model "m1": 4 law multiple-choice, 2 numerical, 2 symbolic (physics)
 * const loaded = await loadRuns(["tests/fixtures/arb/analyses.jsonl"], "", { benchmarks: ["arb"] });
 * const rows = benchmarkRows(loaded, "arb");
 * const t = arbErrorTypes(rows);
 * assert.deepEqual(t.columns, [
 *   "model",
 *   "subject",
 *   "answer_type",
 *   "n",
 *   "misread",
 *   "wrong_approach",
 *   "logical_error",
 *   "arithmetic",
 *   "correct_answer",
 *   "correct_reasoning",
 * ]);
 * // both numerical rows are flagged "arithmetic", one of them also "wrong_approach"
 * assert.deepEqual(t.select("n", "wrong_approach", "arithmetic").row(0), [2, 50, 100]);
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
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { benchmarkRows } from "@runlens/pipeline/benchmark_rows.ts";
 * // 8 hand-made rows of model "m1": 4 law multiple-choice, 2 numerical, 2 symbolic (physics)
 * const loaded = await loadRuns(["tests/fixtures/arb/analyses.jsonl"], "", { benchmarks: ["arb"] });
 * const rows = benchmarkRows(loaded, "arb");
 * assert.deepEqual(arbRubricQuality(rows, ["subject", "answer_type"]).toRecords(), [{
 *   subject: "physics",
 *   answer_type: "symbolic",
 *   n: 2,
 *   rubric_coverage: 3.5, // Likert means
 *   rubric_point_spread: 4.5,
 *   alternative_solution: null, // not annotated
 *   extra_credit: 50, // percent of the rows where the flag is known
 *   reduced_credit: null,
 *   hallucinated_rubric: 50,
 * }]);
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
