/**
 * Temporal Sequences: accuracy if only the longest meeting length had been asked (BBEH paper,
 * Appendix A.19: o3-mini (high) 68.5% → 78%, Gemini 2.0 Flash 0.5% → 5%, Flash-Lite 1% → 7%).
 * The gold answer is "X, Y" (longest length, number of options); the "longest only" verdict
 * compares the first number of the answer with X.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { temporalLongestOnly } from "@runlens/benchmarks/bbeh/failure/temporal.ts";
 * // scored rows: run, model, task, target, extracted, correct (as `loadRuns` gives them)
 * const rows = pl.DataFrame({
 *   target: ["150, 2", "90, 2", "65, 1"],
 *   extracted: ["150,2", "90,3", "60,1"],
 *   correct: [true, false, false],
 * }).withColumns(
 *   pl.lit("r1").alias("run"),
 *   pl.lit("m").alias("model"),
 *   pl.lit("temporal_sequence").alias("task"),
 * );
 * const table = temporalLongestOnly(rows); // full_accuracy, longest_only_accuracy, …
 * assert.deepEqual(table.select("measure", "count", "n").rows(), [
 *   ["full_accuracy", 1, 3],
 *   ["longest_only_accuracy", 2, 3], // X right in "150,2" and "90,3"
 *   ["count_wrong_given_longest", 1, 2],
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { requireColumns, shareMeasures } from "./shares.ts";

function first(col: string): pl.Expr {
  return pl.col(col).fillNull("").str.replaceAll("\\s", "").str.split(",").lst.first()
    .cast(pl.Float64, false);
}

/**
 * Share table for temporal_sequence: `full_accuracy` (the official verdict),
 * `longest_only_accuracy` (first number equals X) and `count_wrong_given_longest` (Y wrong
 * among rows with X right).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * // scored rows: run, model, task, target, extracted, correct (as `loadRuns` gives them)
 * const rows = pl.DataFrame({
 *   target: ["150, 2", "90, 2", "65, 1"],
 *   extracted: ["150,2", "90,3", "60,1"],
 *   correct: [true, false, false],
 * }).withColumns(
 *   pl.lit("r1").alias("run"),
 *   pl.lit("m").alias("model"),
 *   pl.lit("temporal_sequence").alias("task"),
 * );
 * const longest = temporalLongestOnly(rows)
 *   .filter(pl.col("measure").eq(pl.lit("longest_only_accuracy")));
 * assert.equal(longest.getColumn("share").toArray()[0], 200 / 3);
 * ```
 */
export function temporalLongestOnly(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(rows, ["run", "model", "task", "target", "extracted", "correct"], "temporal");
  const df = rows.filter(pl.col("task").eq(pl.lit("temporal_sequence")))
    .withColumns(first("extracted").eq(first("target")).fillNull(false).alias("__x_ok"));
  const ok = pl.col("correct").fillNull(false);
  return shareMeasures(df, [
    { measure: "full_accuracy", hit: ok, of: pl.lit(true) },
    { measure: "longest_only_accuracy", hit: pl.col("__x_ok"), of: pl.lit(true) },
    { measure: "count_wrong_given_longest", hit: ok.not(), of: pl.col("__x_ok") },
  ]);
}
