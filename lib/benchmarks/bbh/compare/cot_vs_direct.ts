/**
 * The BBH release's own comparison: code-davinci-002 with chain-of-thought vs answer-only
 * (direct) prompting, per task, from the released outputs (`loadBbhReleaseOutputs`, each run
 * scored with its release rule, which reproduces the published accuracies exactly).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * import { cotVsDirect } from "@runlens/benchmarks/bbh/compare/cot_vs_direct.ts";
 * const t = cotVsDirect(loadBbhReleaseOutputs(resolveDataDir()).rows);
 * assert.equal(t.height, 27); // one row per BBH task
 * // CoT helps most on tracking_shuffled_objects_seven_objects (14.4% direct → 85.6% CoT)
 * const best = t.sort("gain", true).getColumn("task").get(0);
 * assert.equal(best, "tracking_shuffled_objects_seven_objects");
 * ```
 * @module
 */
import pl from "nodejs-polars";

/** The two released runs. */
export const RELEASE_COT_RUN = "code-davinci-002-cot";
/** The answer-only run. */
export const RELEASE_DIRECT_RUN = "code-davinci-002-direct";

/**
 * Per BBH task: `task`, `n`, `direct`, `cot` (accuracy %, each run's own `correct`), `gain` =
 * cot − direct. Tasks missing from either run get nulls on that side.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   run: [RELEASE_DIRECT_RUN, RELEASE_DIRECT_RUN, RELEASE_COT_RUN, RELEASE_COT_RUN],
 *   task: ["navigate", "navigate", "navigate", "navigate"],
 *   correct: [true, false, true, true],
 * });
 * assert.deepEqual(cotVsDirect(rows).toRecords(), [
 *   { task: "navigate", n: 2, direct: 50, cot: 100, gain: 50 },
 * ]);
 * ```
 */
export function cotVsDirect(
  rows: pl.DataFrame,
  runs: { cot: string; direct: string } = { cot: RELEASE_COT_RUN, direct: RELEASE_DIRECT_RUN },
): pl.DataFrame {
  const acc = (run: string, name: string) =>
    rows.filter(pl.col("run").eq(pl.lit(run)).and(pl.col("correct").isNotNull()))
      .groupBy("task")
      .agg(
        pl.col("correct").count().cast(pl.Int32).alias(`${name}_n`),
        pl.col("correct").cast(pl.Float64).mean().mul(100).alias(name),
      );
  return acc(runs.direct, "direct").join(acc(runs.cot, "cot"), {
    on: "task",
    how: "full",
    coalesce: true,
  })
    .withColumns(
      pl.col("cot_n").fillNull(pl.col("direct_n")).alias("n"),
      pl.col("cot").sub(pl.col("direct")).alias("gain"),
    )
    .select("task", "n", "direct", "cot", "gain")
    .sort("task");
}

/**
 * Macro averages over the tasks with both numbers: `{ tasks, direct, cot, gain, cotBetter }`
 * (`cotBetter`: tasks where CoT is strictly higher).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * const { rows } = loadBbhReleaseOutputs(resolveDataDir());
 * const s = cotVsDirectSummary(cotVsDirect(rows));
 * assert.equal(s.tasks, 27);
 * assert.equal(s.cotBetter, 21); // CoT is higher on 21 of the 27 tasks
 * assert.equal(s.gain.toFixed(1), "21.0"); // macro 52.8% direct → 73.7% CoT
 * ```
 */
export function cotVsDirectSummary(
  t: pl.DataFrame,
): { tasks: number; direct: number; cot: number; gain: number; cotBetter: number } {
  const both = t.filter(pl.col("cot").isNotNull().and(pl.col("direct").isNotNull()));
  const direct = both.getColumn("direct").mean() as number;
  const cot = both.getColumn("cot").mean() as number;
  return {
    tasks: both.height,
    direct,
    cot,
    gain: cot - direct,
    cotBetter: both.filter(pl.col("gain").gt(0)).height,
  };
}
