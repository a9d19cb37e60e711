/**
 * The BBEH paper's Table 10 for any model with both a BBH and a BBEH run: per BBEH task, the
 * model's accuracy on the BBH counterpart(s) (paper Table 1 pairing; BBH variants pooled, i.e.
 * correct / n over all variant rows) and on the BBEH task, with the paper's own Gemini 2.0 Flash
 * columns (zero-shot) beside them as the reference.
 *
 * Accuracies use each row's `correct` (the run's own scorer, e.g. `bbeh-official`); rows with a
 * null verdict are not counted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { table10, table10Means } from "@runlens/benchmarks/bbh/compare/table10.ts";
 * const rows = pl.DataFrame({
 *   model: ["m", "m", "m", "m"],
 *   benchmark: ["bbh", "bbh", "bbeh", "bbeh"],
 *   task: ["navigate", "navigate", "spatial_reasoning", "spatial_reasoning"],
 *   correct: [true, true, true, false],
 * });
 * const t = table10(rows); // model, task, display, bbh_n, bbh, bbeh_n, bbeh, drop, paper_bbh, paper_bbeh
 * assert.equal(t.height, 23); // one row per BBEH task; tasks without rows hold nulls
 * assert.deepEqual(table10Means(t).toRecords(), [
 *   { model: "m", tasks: 1, bbh: 100, bbeh: 50, paper_bbh: 97.6, paper_bbeh: 18.5 },
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { BBEH_TABLE10 } from "../../bbeh/published.ts";
import { BBEH_TASKS } from "../../bbeh/tasks.ts";
import { bbehDisplay, modelsWithBoth, onPairs } from "./pairs.ts";

/**
 * The paper's Table 10 as a frame: `task`, `display`, `paper_bbh`, `paper_bbeh` (Gemini 2.0
 * Flash, percent), in the paper's task order of `BBEH_TASKS`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const t = publishedTable10();
 * assert.equal(t.height, 23);
 * assert.deepEqual(t.filter(pl.col("task").eq(pl.lit("hyperbaton"))).toRecords(), [
 *   { task: "hyperbaton", display: "Hyperbaton", paper_bbh: 94.8, paper_bbeh: 4.5 },
 * ]);
 * ```
 */
export function publishedTable10(): pl.DataFrame {
  return bbehDisplay().withColumns(
    pl.Series("paper_bbh", BBEH_TASKS.map((t) => BBEH_TABLE10.bbh[t.name]), pl.Float64),
    pl.Series("paper_bbeh", BBEH_TASKS.map((t) => BBEH_TABLE10.bbeh[t.name]), pl.Float64),
  );
}

function accuracyBy(df: pl.DataFrame, prefix: string): pl.DataFrame {
  return df.filter(pl.col("correct").isNotNull())
    .groupBy(["model", "task"])
    .agg(
      pl.col("correct").count().cast(pl.Int32).alias(`${prefix}_n`),
      pl.col("correct").cast(pl.Float64).mean().mul(100).alias(prefix),
    );
}

/**
 * Table 10 for every model with rows of both benchmarks: one row per (model, BBEH task) with
 * `bbh_n`, `bbh` (pooled BBH counterpart accuracy, %), `bbeh_n`, `bbeh`, `drop` = bbh − bbeh,
 * and the paper's `paper_bbh` / `paper_bbeh` (Gemini 2.0 Flash). Tasks a model has no rows for
 * get nulls. Empty (0 rows) when no model has both.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   model: ["m", "m", "m"],
 *   benchmark: ["bbh", "bbh", "bbeh"],
 *   task: ["navigate", "navigate", "spatial_reasoning"],
 *   correct: [true, false, false],
 * });
 * const spatial = table10(rows).filter(pl.col("task").eq(pl.lit("spatial_reasoning")));
 * assert.deepEqual(spatial.toRecords(), [{
 *   model: "m",
 *   task: "spatial_reasoning",
 *   display: "Spatial Reasoning",
 *   bbh_n: 2,
 *   bbh: 50, // BBH navigate, the task BBEH spatial_reasoning replaces
 *   bbeh_n: 1,
 *   bbeh: 0,
 *   drop: 50,
 *   paper_bbh: 97.6, // Gemini 2.0 Flash in the paper
 *   paper_bbeh: 18.5,
 * }]);
 * ```
 */
export function table10(rows: pl.DataFrame): pl.DataFrame {
  const models = modelsWithBoth(rows);
  const grid = pl.DataFrame({
    model: pl.Series("model", models.flatMap((m) => BBEH_TASKS.map(() => m)), pl.Utf8),
    task: pl.Series("task", models.flatMap(() => BBEH_TASKS.map((t) => t.name)), pl.Utf8),
  });
  const inModels = pl.col("model").isIn(models);
  const bbh = accuracyBy(onPairs(rows.filter(inModels), "bbh"), "bbh");
  const bbeh = accuracyBy(onPairs(rows.filter(inModels), "bbeh"), "bbeh");
  return grid
    .join(publishedTable10(), { on: "task", how: "left" })
    .join(bbh, { on: ["model", "task"], how: "left" })
    .join(bbeh, { on: ["model", "task"], how: "left" })
    .withColumns(pl.col("bbh").sub(pl.col("bbeh")).alias("drop"))
    .select(
      "model",
      "task",
      "display",
      "bbh_n",
      "bbh",
      "bbeh_n",
      "bbeh",
      "drop",
      "paper_bbh",
      "paper_bbeh",
    )
    .sort(["model", "task"]);
}

/**
 * Per model: arithmetic means over the tasks with both accuracies (`tasks`, `bbh`, `bbeh`) and
 * the paper's means over the same tasks (`paper_bbh`, `paper_bbeh`). The paper's own "BBEH" row
 * mixes metrics (BBH 85.2 = arithmetic mean, BBEH 23.90 = micro average), so it is not used.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const t10 = pl.DataFrame({
 *   model: ["m", "m", "m"],
 *   task: ["hyperbaton", "spatial_reasoning", "web_of_lies"],
 *   bbh: [90, null, 80], // no BBH number for spatial_reasoning: left out
 *   bbeh: [10, 30, 20],
 *   paper_bbh: [94.8, 97.6, 94.8],
 *   paper_bbeh: [4.5, 18.5, 18.5],
 * });
 * assert.deepEqual(table10Means(t10).toRecords(), [
 *   { model: "m", tasks: 2, bbh: 85, bbeh: 15, paper_bbh: 94.8, paper_bbeh: 11.5 },
 * ]);
 * ```
 */
export function table10Means(t10: pl.DataFrame): pl.DataFrame {
  return t10.filter(pl.col("bbh").isNotNull().and(pl.col("bbeh").isNotNull()))
    .groupBy("model")
    .agg(
      pl.col("task").count().cast(pl.Int32).alias("tasks"),
      pl.col("bbh").mean(),
      pl.col("bbeh").mean(),
      pl.col("paper_bbh").mean(),
      pl.col("paper_bbeh").mean(),
    )
    .sort("model");
}
