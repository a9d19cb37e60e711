/**
 * Figure 4 of the BBEH paper as data, for any model with both a BBH and a BBEH run: mean
 * response length (code points, the `response_chars` column) per BBEH task and per its BBH
 * counterpart (paper Table 1; BBH variants pooled), and the macro-average ratio (the paper:
 * BBEH outputs of Gemini 2.0 Flash are "about seven times" longer).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import {
 *   outputLengthComparison,
 *   outputLengthMacro,
 * } from "@runlens/benchmarks/bbh/compare/output_lengths.ts";
 * const rows = pl.DataFrame({
 *   model: ["m", "m", "m", "m", "m"],
 *   benchmark: ["bbh", "bbh", "bbeh", "bbh", "bbeh"],
 *   task: ["navigate", "navigate", "spatial_reasoning", "word_sorting", "word_sorting"],
 *   response_chars: [100, 300, 1400, 50, 150],
 * });
 * const macro = outputLengthMacro(outputLengthComparison(rows));
 * assert.deepEqual(macro.toRecords(), [{ model: "m", tasks: 2, bbh: 125, bbeh: 775, ratio: 6.2 }]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { bbehDisplay, modelsWithBoth, onPairs } from "./pairs.ts";

/** The paper's macro-average output-length ratio for Gemini 2.0 Flash (Section 5.1, prose). */
export const PAPER_OUTPUT_RATIO = {
  model: "Gemini 2.0 Flash",
  ratio: 7,
  wording: "about seven times",
} as const;

function meanLength(df: pl.DataFrame, name: string): pl.DataFrame {
  return df.groupBy(["model", "task"]).agg(
    pl.col("response_chars").count().cast(pl.Int32).alias(`${name}_n`),
    pl.col("response_chars").cast(pl.Float64).mean().alias(name),
  );
}

/**
 * Per (model, BBEH task) with rows on both sides: `display`, `bbh_n`, `bbh` (mean response
 * chars over the pooled BBH counterparts), `bbeh_n`, `bbeh`, `ratio` = bbeh / bbh. Only models
 * with rows of both benchmarks; rows with a null `response_chars` are ignored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   model: ["m", "m", "m", "only-bbh"],
 *   benchmark: ["bbh", "bbh", "bbeh", "bbh"],
 *   task: ["navigate", "navigate", "spatial_reasoning", "navigate"],
 *   response_chars: [100, 300, 1400, 80],
 * });
 * assert.deepEqual(outputLengthComparison(rows).toRecords(), [{
 *   model: "m", // "only-bbh" has no BBEH rows: left out
 *   task: "spatial_reasoning",
 *   display: "Spatial Reasoning",
 *   bbh_n: 2,
 *   bbh: 200,
 *   bbeh_n: 1,
 *   bbeh: 1400,
 *   ratio: 7,
 * }]);
 * ```
 */
export function outputLengthComparison(rows: pl.DataFrame): pl.DataFrame {
  const models = modelsWithBoth(rows);
  const use = rows.filter(pl.col("model").isIn(models).and(pl.col("response_chars").isNotNull()));
  return meanLength(onPairs(use, "bbh"), "bbh")
    .join(meanLength(onPairs(use, "bbeh"), "bbeh"), { on: ["model", "task"] })
    .join(bbehDisplay(), { on: "task" })
    .withColumns(pl.col("bbeh").div(pl.col("bbh")).alias("ratio"))
    .select("model", "task", "display", "bbh_n", "bbh", "bbeh_n", "bbeh", "ratio")
    .sort(["model", "task"]);
}

/**
 * Per model: macro averages (mean over the task pairs) of both columns and their ratio
 * (`model`, `tasks`, `bbh`, `bbeh`, `ratio` = macro bbeh / macro bbh).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const cmp = pl.DataFrame({
 *   model: ["m", "m"],
 *   task: ["spatial_reasoning", "word_sorting"],
 *   bbh: [200, 50],
 *   bbeh: [1400, 150],
 * });
 * // macro bbh = (200 + 50) / 2 = 125, macro bbeh = (1400 + 150) / 2 = 775
 * assert.equal(outputLengthMacro(cmp).getColumn("ratio").get(0), 6.2);
 * ```
 */
export function outputLengthMacro(cmp: pl.DataFrame): pl.DataFrame {
  return cmp.groupBy("model").agg(
    pl.col("task").count().cast(pl.Int32).alias("tasks"),
    pl.col("bbh").mean(),
    pl.col("bbeh").mean(),
  ).withColumns(pl.col("bbeh").div(pl.col("bbh")).alias("ratio")).sort("model");
}
