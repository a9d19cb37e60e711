/**
 * Stability of verdicts across epochs (or seeds): of a run's examples answered in two epochs
 * or more, how many get a verdict that flips — right in some epochs, wrong in others. An
 * unstable example's score is an average of a coin that lands both ways: a run with many of
 * them has a headline that moves between reruns more than its interval (over examples) says.
 * The report's example browser marks the same examples ("right in k of n epochs") and filters
 * to them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   run: ["a", "a", "a", "a", "a"],
 *   benchmark: Array(5).fill("bbh"),
 *   task: Array(5).fill("navigate"),
 *   example_index: [0, 0, 1, 1, 2],
 *   epoch: [1, 2, 1, 2, 1],
 *   correct: [true, false, true, true, false],
 * });
 * const [a] = epochStability(rows).toRecords();
 * assert.deepEqual([a.examples, a.repeated, a.unstable], [3, 2, 1]); // example 0 flips
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { wilsonInterval } from "../stats/wilson.ts";

/**
 * Per run and benchmark (runs with some example answered in two epochs or more): `examples`,
 * `repeated` (answered in ≥ 2 epochs), `epochs` (the most of one example), `unstable` (of the
 * repeated, those right in some epochs and wrong in others), `unstable_share` (% of repeated)
 * with its 95% Wilson interval `ci_low`, `ci_high`. Sorted by run, then benchmark. `rows`
 * needs `run`, `benchmark`, `task`, `example_index`, `epoch`, `correct`.
 */
export function epochStability(rows: pl.DataFrame): pl.DataFrame {
  const perExample = rows.groupBy(["run", "benchmark", "task", "example_index"]).agg(
    pl.col("epoch").nUnique().alias("epochs"),
    pl.col("correct").cast(pl.Int32).sum().alias("right"),
    pl.col("correct").count().alias("n"),
  );
  const perRun = perExample.groupBy(["run", "benchmark"]).agg(
    pl.col("n").count().cast(pl.Int64).alias("examples"),
    pl.col("epochs").gtEq(2).cast(pl.Int64).sum().alias("repeated"),
    pl.col("epochs").max().cast(pl.Int64).alias("epochs"),
    pl.col("epochs").gtEq(2).and(pl.col("right").gt(0)).and(pl.col("right").lt(pl.col("n")))
      .cast(pl.Int64).sum().alias("unstable"),
  ).filter(pl.col("repeated").gt(0)).sort(["run", "benchmark"]);
  const recs = perRun.toRecords() as { unstable: number; repeated: number }[];
  const ci = recs.map((r) => wilsonInterval(r.unstable, r.repeated));
  return perRun.withColumns(
    pl.Series("unstable_share", recs.map((r) => (100 * r.unstable) / r.repeated), pl.Float64),
    pl.Series("ci_low", ci.map((c) => c?.low ?? null), pl.Float64),
    pl.Series("ci_high", ci.map((c) => c?.high ?? null), pl.Float64),
  );
}
