/**
 * Length effects on BBEH: mean response length per task, and the data of the paper's Figure 7 —
 * the gain of one model over another per task against the task's mean input length and its mean
 * output length (a proxy for required thinking). From runs when both models have rows, else from
 * the paper's Table 2 accuracies and the data set's input lengths (no output lengths then).
 * Shuffled Objects is left out by default, as in the paper (footnote 4: models degenerated).
 *
 * @example
 * ```ts
 * import { gainVsLengthPublished, responseLengthByTask } from "@runlens/benchmarks/bbeh/lengths.ts";
 * responseLengthByTask(rows); // run, model, task, n, mean_response_chars, …
 * gainVsLengthPublished(loadBbehDataset(dir), "GPT4o", "o3-mini (high)");
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
 * responseLengthByTask(rows).sort("mean_response_chars", true);
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
 * gainVsLengthPublished(dataset, "Gemini 2.0 Flash-Lite", "Gemini 2.0 Flash");
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
 * accuracy (%), `gain`, `input_chars` (mean input length of the rows), `output_chars` (mean
 * response length over both models' rows), `source` = "runs". Models are matched on `model`.
 *
 * @example
 * ```ts
 * gainVsLengthFromRuns(rows, "GPT4o (synthetic)", "o3-mini (high) (synthetic)");
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
 * gainVsLength({ rows, dataset, base: "GPT4o", other: "o3-mini (high)" });
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
