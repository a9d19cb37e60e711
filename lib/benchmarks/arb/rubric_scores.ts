/**
 * Human versus model rubric scores (the paper's Table 5): the mean score (out of 10) given by
 * human annotators and by the model grading with its rubric, and the Pearson correlation of the
 * two over the problems of a group. Computed with simple-statistics.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arbRubricScores, pearson } from "@runlens/benchmarks/arb/rubric_scores.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { benchmarkRows } from "@runlens/pipeline/benchmark_rows.ts";
 * // 8 hand-made rows of model "m1": 4 law multiple-choice, 2 numerical, 2 symbolic (physics)
 * const loaded = await loadRuns(["tests/fixtures/arb/analyses.jsonl"], "", { benchmarks: ["arb"] });
 * const rows = benchmarkRows(loaded, "arb");
 * arbRubricScores(rows); // model, subject, answer_type, n, human_mean, model_mean, pearson_r
 * assert.equal(pearson([1, 2, 3], [2, 4, 7])?.toFixed(4), "0.9934");
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { mean, sampleCorrelation, sampleStandardDeviation } from "simple-statistics";
import { ANNOTATION_BY } from "./annotations.ts";
import { groupRows, keySchema, typedFrame } from "./group.ts";

/**
 * Pearson's r of paired values; null with fewer than 2 pairs or when either side is constant.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(pearson([1, 2, 3], [3, 2, 1]), -1);
 * assert.equal(pearson([1, 1], [2, 3]), null); // x is constant
 * ```
 */
export function pearson(x: readonly number[], y: readonly number[]): number | null {
  if (x.length !== y.length) throw new Error(`pearson: ${x.length} x values, ${y.length} y values`);
  if (x.length < 2) return null;
  if (sampleStandardDeviation([...x]) === 0 || sampleStandardDeviation([...y]) === 0) return null;
  return sampleCorrelation([...x], [...y]);
}

/**
 * Per group, over the rows with both `human_score` and `model_score`: `n`, `human_mean`,
 * `model_mean`, `pearson_r` (null when undefined).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { benchmarkRows } from "@runlens/pipeline/benchmark_rows.ts";
 * // 8 hand-made rows of model "m1": 4 law multiple-choice, 2 numerical, 2 symbolic (physics)
 * const loaded = await loadRuns(["tests/fixtures/arb/analyses.jsonl"], "", { benchmarks: ["arb"] });
 * const rows = benchmarkRows(loaded, "arb");
 * assert.deepEqual(arbRubricScores(rows, ["subject", "answer_type"]).toRecords(), [
 *   { subject: "physics", answer_type: "numerical", n: 2, human_mean: 5, model_mean: 6.5 },
 *   { subject: "physics", answer_type: "symbolic", n: 2, human_mean: 6.5, model_mean: 8 },
 * ].map((r) => ({ ...r, pearson_r: 1 }))); // two points per group: r = 1
 * ```
 */
export function arbRubricScores(
  rows: pl.DataFrame,
  by: readonly string[] = ANNOTATION_BY,
): pl.DataFrame {
  const paired = rows.filter(
    pl.col("human_score").isNotNull().and(pl.col("model_score").isNotNull()),
  );
  const out = groupRows(paired, by).map(({ key, rows: g }) => {
    const h = g.map((r) => r.human_score as number), m = g.map((r) => r.model_score as number);
    return {
      ...key,
      n: g.length,
      human_mean: mean(h),
      model_mean: mean(m),
      pearson_r: pearson(h, m),
    };
  });
  return typedFrame(out, {
    ...keySchema(rows, by),
    n: pl.Int32,
    human_mean: pl.Float64,
    model_mean: pl.Float64,
    pearson_r: pl.Float64,
  });
}
