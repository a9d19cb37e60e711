/**
 * Length effects on BBEH: mean response length per task, and the data of the paper's Figure 7 —
 * the gain of one model over another per task against the task's mean input length and its mean
 * output length (a proxy for required thinking). From runs when both models have rows, else from
 * the paper's Table 2 accuracies and the data set's input lengths (no output lengths then).
 * Shuffled Objects is left out by default, as in the paper (footnote 4: models degenerated).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * import {
 *   gainVsLengthPublished,
 *   responseLengthByTask,
 * } from "@runlens/benchmarks/bbeh/lengths.ts";
 * const rows = pl.DataFrame({
 *   run: ["a", "a"],
 *   model: ["m", "m"],
 *   task: ["nycc", "nycc"],
 *   response_chars: [100, 300],
 *   input_chars: [500, 700],
 * });
 * responseLengthByTask(rows); // run, model, task, n, mean_response_chars, …
 * const fig7 = gainVsLengthPublished(loadBbehDataset(resolveDataDir()), "GPT4o", "o3-mini (high)");
 * assert.equal(fig7.height, 22); // 23 tasks less shuffled_objects, by mean input length
 * assert.deepEqual(fig7.row(21).slice(0, 6), [
 *   "zebra_puzzles",
 *   "Zebra Puzzles",
 *   32,
 *   67.5,
 *   35.5,
 *   11358.46,
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { BBEH_TABLE2 } from "./published.ts";
import { BBEH_TASKS } from "./tasks.ts";

/** Tasks Figure 7 leaves out by default. */
export const FIGURE7_EXCLUDED = ["shuffled_objects"] as const;

/** Options of the Figure 7 helpers. */
export interface GainLengthOptions {
  /** Tasks to leave out (default {@link FIGURE7_EXCLUDED}). */
  exclude?: readonly string[];
}

/**
 * Per run, model and task: `n`, `mean_response_chars`, `median_response_chars`,
 * `mean_response_tokens` (null when the logs hold no token counts), `mean_input_chars`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * // scored rows (as `loadRuns` returns them): two runs, two nycc responses each
 * const rows = pl.DataFrame({
 *   run: ["a", "a", "b", "b"],
 *   model: ["m1", "m1", "m2", "m2"],
 *   task: ["nycc", "nycc", "nycc", "nycc"],
 *   correct: [true, false, true, true],
 *   response_chars: [100, 300, 1000, 3000],
 *   input_chars: [500, 700, 500, 700],
 * });
 * const lengths = responseLengthByTask(rows).sort("mean_response_chars", true);
 * assert.deepEqual(lengths.select("run", "n", "mean_response_chars", "mean_input_chars").rows(), [
 *   ["b", 2, 2000, 600],
 *   ["a", 2, 200, 600],
 * ]);
 * ```
 */
export function responseLengthByTask(rows: pl.DataFrame): pl.DataFrame {
  for (const c of ["run", "model", "task", "response_chars", "input_chars"]) {
    if (!rows.columns.includes(c)) throw new Error(`responseLengthByTask: rows lack "${c}"`);
  }
  const tokens = rows.columns.includes("response_tokens")
    ? pl.col("response_tokens").cast(pl.Float64).mean()
    : pl.lit(null).cast(pl.Float64);
  return rows.groupBy(["run", "model", "task"]).agg(
    pl.len().cast(pl.Int32).alias("n"),
    pl.col("response_chars").cast(pl.Float64).mean().alias("mean_response_chars"),
    pl.col("response_chars").cast(pl.Float64).median().alias("median_response_chars"),
    tokens.alias("mean_response_tokens"),
    pl.col("input_chars").cast(pl.Float64).mean().alias("mean_input_chars"),
  ).sort(["run", "model", "task"]);
}

/** Mean input length (code points) per task of the data set frame. */
export function meanInputChars(dataset: pl.DataFrame): pl.DataFrame {
  return dataset.groupBy("task")
    .agg(pl.col("input_chars").cast(pl.Float64).mean().alias("input_chars"))
    .sort("task");
}

function display(): pl.DataFrame {
  return pl.DataFrame({
    task: BBEH_TASKS.map((t) => t.name),
    display: BBEH_TASKS.map((t) => t.display),
  });
}

/**
 * Figure 7 data from the paper: `task`, `display`, `base`, `other` (Table 2 accuracy %),
 * `gain` (other − base), `input_chars` (mean over the data set), `output_chars` (null: the
 * paper publishes no output lengths), `source` = "published".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * const dataset = loadBbehDataset(resolveDataDir());
 * const fig7 = gainVsLengthPublished(dataset, "Gemini 2.0 Flash-Lite", "Gemini 2.0 Flash");
 * // the shortest inputs first: DisambiguationQA, 751.55 characters, 50.0 → 48.3
 * assert.deepEqual(fig7.row(0).slice(0, 4), ["disambiguation_qa", "DisambiguationQA", 50, 48.3]);
 * assert.equal(fig7.row(0)[5], 751.55);
 * ```
 */
export function gainVsLengthPublished(
  dataset: pl.DataFrame,
  baseModel: string,
  otherModel: string,
  opts: GainLengthOptions = {},
): pl.DataFrame {
  const base = BBEH_TABLE2.accuracy[baseModel], other = BBEH_TABLE2.accuracy[otherModel];
  if (!base || !other) {
    throw new Error(`no Table 2 column for ${!base ? baseModel : otherModel}`);
  }
  const exclude = opts.exclude ?? FIGURE7_EXCLUDED;
  const tasks = BBEH_TASKS.map((t) => t.name).filter((t) => !exclude.includes(t));
  const acc = pl.DataFrame({
    task: tasks,
    base: tasks.map((t) => base[t]),
    other: tasks.map((t) => other[t]),
  });
  return display().join(acc, { on: "task" }).join(meanInputChars(dataset), { on: "task" })
    .withColumns(
      pl.col("other").sub(pl.col("base")).alias("gain"),
      pl.lit(null).cast(pl.Float64).alias("output_chars"),
      pl.lit("published").alias("source"),
    )
    .select("task", "display", "base", "other", "gain", "input_chars", "output_chars", "source")
    .sort("input_chars");
}

/**
 * Figure 7 data from scored runs: per task present for both models, `base` and `other`
 * accuracy (%), `gain`, `input_chars` (mean input length of the base model's rows),
 * `output_chars` (mean response length over both models' rows), `source` = "runs". Models are
 * matched on `model`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * // scored rows (as `loadRuns` returns them): two runs, two nycc responses each
 * const rows = pl.DataFrame({
 *   run: ["a", "a", "b", "b"],
 *   model: ["m1", "m1", "m2", "m2"],
 *   task: ["nycc", "nycc", "nycc", "nycc"],
 *   correct: [true, false, true, true],
 *   response_chars: [100, 300, 1000, 3000],
 *   input_chars: [500, 700, 500, 700],
 * });
 * const fig7 = gainVsLengthFromRuns(rows, "m1", "m2");
 * // nycc: 50% → 100%, inputs 600 characters, responses (100 + 300 + 1000 + 3000) / 4
 * assert.deepEqual(fig7.row(0), ["nycc", "NYCC", 50, 100, 50, 600, 1100, "runs"]);
 * ```
 */
export function gainVsLengthFromRuns(
  rows: pl.DataFrame,
  baseModel: string,
  otherModel: string,
  opts: GainLengthOptions = {},
): pl.DataFrame {
  const exclude = [...(opts.exclude ?? FIGURE7_EXCLUDED)];
  const per = (model: string, name: string) =>
    rows.filter(pl.col("model").eq(pl.lit(model)).and(pl.col("task").isIn(exclude).not()))
      .groupBy("task").agg(
        pl.col("correct").fillNull(false).cast(pl.Float64).mean().mul(100).alias(name),
        pl.col("response_chars").cast(pl.Float64).sum().alias(`${name}_chars`),
        pl.len().alias(`${name}_n`),
        pl.col("input_chars").cast(pl.Float64).mean().alias(`${name}_input`),
      );
  const b = per(baseModel, "base"), o = per(otherModel, "other");
  if (b.height === 0 || o.height === 0) {
    throw new Error(`no rows for model ${b.height === 0 ? baseModel : otherModel}`);
  }
  return display().join(b.join(o, { on: "task" }), { on: "task" })
    .withColumns(
      pl.col("other").sub(pl.col("base")).alias("gain"),
      pl.col("base_input").alias("input_chars"),
      pl.col("base_chars").add(pl.col("other_chars"))
        .div(pl.col("base_n").add(pl.col("other_n")).cast(pl.Float64)).alias("output_chars"),
      pl.lit("runs").alias("source"),
    )
    .select("task", "display", "base", "other", "gain", "input_chars", "output_chars", "source")
    .sort("input_chars");
}

/**
 * Figure 7 data from runs when both models have rows, else from the paper (`publishedBase` /
 * `publishedOther` name the Table 2 columns).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * const dataset = loadBbehDataset(resolveDataDir());
 * // scored rows (as `loadRuns` returns them): two runs, two nycc responses each
 * const rows = pl.DataFrame({
 *   run: ["a", "a", "b", "b"],
 *   model: ["m1", "m1", "m2", "m2"],
 *   task: ["nycc", "nycc", "nycc", "nycc"],
 *   correct: [true, false, true, true],
 *   response_chars: [100, 300, 1000, 3000],
 *   input_chars: [500, 700, 500, 700],
 * });
 * // both models have rows: from the runs
 * assert.equal(gainVsLength({ rows, dataset, base: "m1", other: "m2" }).row(0)[7], "runs");
 * // no rows for these models: the paper's Table 2 columns
 * const paper = gainVsLength({ rows, dataset, base: "GPT4o", other: "o3-mini (high)" });
 * assert.equal(paper.row(0)[7], "published");
 * ```
 */
export function gainVsLength(args: {
  rows?: pl.DataFrame | null;
  dataset: pl.DataFrame;
  base: string;
  other: string;
  publishedBase?: string;
  publishedOther?: string;
  exclude?: readonly string[];
}): pl.DataFrame {
  const models = args.rows ? new Set(args.rows.getColumn("model").toArray() as string[]) : null;
  if (args.rows && models?.has(args.base) && models.has(args.other)) {
    return gainVsLengthFromRuns(args.rows, args.base, args.other, { exclude: args.exclude });
  }
  return gainVsLengthPublished(
    args.dataset,
    args.publishedBase ?? args.base,
    args.publishedOther ?? args.other,
    { exclude: args.exclude },
  );
}
