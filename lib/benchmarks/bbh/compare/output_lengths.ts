/**
 * Figure 4 of the BBEH paper as data, for any model with both a BBH and a BBEH run: mean
 * response length (code points, the `response_chars` column) per BBEH task and per its BBH
 * counterpart (paper Table 1; BBH variants pooled), and the macro-average ratio (the paper:
 * BBEH outputs of Gemini 2.0 Flash are "about seven times" longer).
 *
 * @example
 * ```ts
 * import { outputLengthComparison, outputLengthMacro } from "@runlens/benchmarks/bbh/compare/output_lengths.ts";
 * const cmp = outputLengthComparison(rows);
 * outputLengthMacro(cmp); // [{ model, tasks, bbeh, bbh, ratio }]
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
 * outputLengthComparison(rows).columns; // ["model","task","display","bbh_n","bbh","bbeh_n","bbeh","ratio"]
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
 * outputLengthMacro(outputLengthComparison(rows)).getColumn("ratio").get(0); // e.g. 6.8
 * ```
 */
export function outputLengthMacro(cmp: pl.DataFrame): pl.DataFrame {
  return cmp.groupBy("model").agg(
    pl.col("task").count().cast(pl.Int32).alias("tasks"),
    pl.col("bbh").mean(),
    pl.col("bbeh").mean(),
  ).withColumns(pl.col("bbeh").div(pl.col("bbh")).alias("ratio")).sort("model");
}
