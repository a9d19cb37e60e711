/**
 * Figure 3 of the BBEH paper as data: mean input length (code points) of every BBEH task and
 * of its BBH counterpart (paper Table 1; BBH tasks with variants, e.g. the three
 * logical_deduction files, are pooled), plus the macro averages the paper quotes ("BBH … a
 * macro average of 700 characters", BBEH "about six times bigger"). From the released files
 * they differ: the BBH counterparts average about 334 characters and BBEH about 3,789, 11.3
 * times as long.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * import { loadBbhDataset } from "@runlens/benchmarks/bbh/dataset.ts";
 * import {
 *   inputLengthComparison,
 *   inputLengthMacro,
 * } from "@runlens/benchmarks/bbeh/input_lengths.ts";
 * const dir = resolveDataDir();
 * const cmp = inputLengthComparison(loadBbehDataset(dir), loadBbhDataset(dir));
 * assert.equal(cmp.height, 23); // task, display, bbeh, bbh, ratio
 * const macro = inputLengthMacro(cmp); // { bbeh: 3789.3…, bbh: 333.9…, ratio: 11.3… }
 * assert.equal(Math.round(macro.bbeh), 3789);
 * assert.equal(Math.round(macro.bbh), 334);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { BBEH_TASKS } from "./tasks.ts";

/** Per BBEH task: task, display, bbeh, bbh (mean input chars), ratio = bbeh / bbh. */
export function inputLengthComparison(bbeh: pl.DataFrame, bbh: pl.DataFrame): pl.DataFrame {
  const pairs = pl.DataFrame({
    bbh_task: BBEH_TASKS.flatMap((t) => t.bbh),
    task: BBEH_TASKS.flatMap((t) => t.bbh.map(() => t.name)),
  });
  const bbhMeans = bbh.select("task", "input_chars").rename({ task: "bbh_task" })
    .join(pairs, { on: "bbh_task" })
    .groupBy("task").agg(pl.col("input_chars").cast(pl.Float64).mean().alias("bbh"));
  const bbehMeans = bbeh.groupBy("task")
    .agg(pl.col("input_chars").cast(pl.Float64).mean().alias("bbeh"));
  const display = pl.DataFrame({
    task: BBEH_TASKS.map((t) => t.name),
    display: BBEH_TASKS.map((t) => t.display),
  });
  const out = display.join(bbehMeans, { on: "task" }).join(bbhMeans, { on: "task" })
    .withColumns(pl.col("bbeh").div(pl.col("bbh")).alias("ratio"))
    .sort("task");
  if (out.height !== BBEH_TASKS.length) {
    throw new Error(`input lengths: only ${out.height} of ${BBEH_TASKS.length} task pairs found`);
  }
  return out;
}

/** Macro averages (mean over the 23 tasks) of both columns and their ratio. */
export function inputLengthMacro(cmp: pl.DataFrame): { bbeh: number; bbh: number; ratio: number } {
  const bbeh = cmp.getColumn("bbeh").mean() as number;
  const bbh = cmp.getColumn("bbh").mean() as number;
  return { bbeh, bbh, ratio: bbeh / bbh };
}
