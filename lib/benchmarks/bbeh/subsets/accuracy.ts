/**
 * Accuracy per subset inside BBEH tasks: join the labels of `bbehSubsets` onto scored run rows
 * and aggregate correct / n with a 95% Wilson interval, per run and model.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { subsetAccuracy, withSubsets } from "@runlens/benchmarks/bbeh/subsets/accuracy.ts";
 * // rows: task, example_index, correct (+ run, model); subsets: bbehSubsets(dataset)
 * const rows = pl.DataFrame({
 *   run: ["r1", "r1"],
 *   model: ["m", "m"],
 *   task: ["zebra_puzzles", "zebra_puzzles"],
 *   example_index: [0, 1],
 *   correct: [true, false],
 * });
 * const subsets = pl.DataFrame({
 *   task: ["zebra_puzzles", "zebra_puzzles"],
 *   example_index: [0, 1],
 *   subset_kind: ["size", "size"],
 *   subset: ["5x5", "8x8"],
 * });
 * const table = subsetAccuracy(withSubsets(rows, subsets, "size"));
 * // run, model, task, subset_kind, subset, n, correct, accuracy, ci_low, ci_high
 * assert.deepEqual(table.select("subset", "n", "correct", "accuracy").rows(), [
 *   ["5x5", 1, 1, 100],
 *   ["8x8", 1, 0, 0],
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { wilsonInterval } from "../../../stats/wilson.ts";

/**
 * Join subset labels onto rows keyed by (`task`, `example_index`), adding `subset_kind` and
 * `subset` (a `subset` column already in `rows`, as in the run-row schema, is replaced in
 * place). A left join: rows of tasks without that kind keep null labels. With `kind`, one
 * output row per input row; without it, rows of tasks with several kinds (spatial_reasoning,
 * buggy_tables) appear once per kind. When `rows` has a `benchmark` column only `bbeh` rows get
 * labels (BBH has tasks of the same names).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * import { bbehSubsets } from "@runlens/benchmarks/bbeh/subsets.ts";
 * const subsets = bbehSubsets(loadBbehDataset(resolveDataDir()));
 * const rows = pl.DataFrame({ task: ["spatial_reasoning"], example_index: [0], correct: [true] });
 * const out = withSubsets(rows, subsets, "shape"); // + subset_kind "shape", subset "circular"
 * assert.deepEqual(out.row(0), ["spatial_reasoning", 0, true, "shape", "circular"]);
 * ```
 */
export function withSubsets(
  rows: pl.DataFrame,
  subsets: pl.DataFrame,
  kind?: string,
): pl.DataFrame {
  for (const c of ["task", "example_index"]) {
    if (!rows.columns.includes(c)) throw new Error(`withSubsets: rows lack column "${c}"`);
  }
  let labels = subsets;
  if (kind !== undefined) {
    labels = subsets.filter(pl.col("subset_kind").eq(pl.lit(kind)));
    if (labels.height === 0) {
      const kinds = [...new Set(subsets.getColumn("subset_kind").toArray())].join(", ");
      throw new Error(`withSubsets: no subsets of kind "${kind}" (kinds: ${kinds})`);
    }
  }
  const keys = ["task", "example_index"];
  const indexType = rows.getColumn("example_index").dtype;
  let right = labels.select(
    pl.col("task").cast(pl.Utf8),
    pl.col("example_index").cast(indexType),
    pl.col("subset_kind"),
    pl.col("subset"),
  );
  if (rows.columns.includes("benchmark")) {
    right = right.withColumns(pl.lit("bbeh").alias("benchmark"));
    keys.push("benchmark");
  }
  const left: pl.DataFrame = rows.columns.includes("subset") ? rows.drop("subset") : rows;
  const joined = left.join(right, { on: keys, how: "left" });
  const order = rows.columns.includes("subset")
    ? [...rows.columns, "subset_kind"]
    : [...rows.columns, "subset_kind", "subset"];
  return joined.select(...order);
}

/** Grouping columns used when present, before task/subset_kind/subset. */
const RUN_KEYS = ["run", "model", "scorer"];

/**
 * Accuracy (%) per subset: columns `run`, `model`, `scorer` (each only when present in the
 * input), `task`, `subset_kind`, `subset`, `n`, `correct`, `accuracy`, `ci_low`, `ci_high`
 * (95% Wilson, percent). Counts rows with a non-null `correct` and a label; `n` counts responses,
 * so with repeated sampling (epochs) the interval treats samples as independent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const labelled = pl.DataFrame({
 *   task: ["web_of_lies", "web_of_lies"],
 *   subset_kind: ["variant", "variant"],
 *   subset: ["cyclic", "cyclic"],
 *   correct: [true, false],
 * });
 * const [row] = subsetAccuracy(labelled).toRecords();
 * // n 2, correct 1, accuracy 50, ci_low 9.45…, ci_high 90.54… (95% Wilson)
 * assert.equal(row.accuracy, 50);
 * assert.equal((row.ci_low as number).toFixed(2), "9.45");
 * assert.equal((row.ci_high as number).toFixed(2), "90.55");
 * ```
 */
export function subsetAccuracy(scoredWithSubsets: pl.DataFrame): pl.DataFrame {
  const df = scoredWithSubsets;
  for (const c of ["task", "subset_kind", "subset", "correct"]) {
    if (!df.columns.includes(c)) throw new Error(`subsetAccuracy: input lacks column "${c}"`);
  }
  const keys = [...RUN_KEYS.filter((c) => df.columns.includes(c)), "task", "subset_kind", "subset"];
  const counts = df
    .filter(pl.col("subset").isNotNull().and(pl.col("correct").isNotNull()))
    .groupBy(keys)
    .agg(
      pl.len().cast(pl.Int32).alias("n"),
      pl.col("correct").cast(pl.Int32).sum().cast(pl.Int32).alias("correct"),
    )
    .sort(keys);
  const n = counts.getColumn("n").toArray() as number[];
  const correct = counts.getColumn("correct").toArray() as number[];
  const cis = n.map((ni, i) => wilsonInterval(correct[i], ni));
  return counts.withColumns(
    pl.Series("accuracy", n.map((ni, i) => (100 * correct[i]) / ni), pl.Float64),
    pl.Series("ci_low", cis.map((ci) => ci?.low ?? null), pl.Float64),
    pl.Series("ci_high", cis.map((ci) => ci?.high ?? null), pl.Float64),
  );
}
