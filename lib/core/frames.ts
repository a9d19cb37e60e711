/**
 * Splitting a frame of scored rows by run.
 *
 * @module
 */
import pl from "nodejs-polars";

/**
 * The rows of each run (the `run` column), split in one pass — a filter per run would scan
 * every row once per run. With `runs`, only those runs (the others are dropped first). Runs
 * come in order of first appearance.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ run: ["b", "a", "b"], x: [1, 2, 3] });
 * const parts = framesByRun(df);
 * assert.deepEqual([...parts.keys()], ["b", "a"]);
 * assert.deepEqual(parts.get("b")!.getColumn("x").toArray(), [1, 3]);
 * assert.deepEqual([...framesByRun(df, ["a"]).keys()], ["a"]);
 * ```
 */
export function framesByRun(
  rows: pl.DataFrame,
  runs?: readonly string[],
): Map<string, pl.DataFrame> {
  if (runs?.length === 0 || rows.height === 0) return new Map();
  const kept = runs ? rows.filter(pl.col("run").isIn(runs as string[])) : rows;
  const parts = kept.partitionBy("run", true, true);
  return new Map(parts.map((p) => [p.getColumn("run").get(0) as string, p]));
}
