/**
 * The BBH release's own comparison: code-davinci-002 with chain-of-thought vs answer-only
 * (direct) prompting, per task, from the released outputs (`loadBbhReleaseOutputs`, each run
 * scored with its release rule, which reproduces the published accuracies exactly).
 *
 * @example
 * ```ts
 * import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * import { cotVsDirect } from "@runlens/benchmarks/bbh/compare/cot_vs_direct.ts";
 * const t = cotVsDirect(loadBbhReleaseOutputs("../shared/data").rows);
 * t.height; // 27
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
 * cotVsDirect(rows).sort("gain", true).getColumn("task").get(0); // the task CoT helps most
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
 * cotVsDirectSummary(cotVsDirect(rows)).cotBetter; // e.g. 23
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
