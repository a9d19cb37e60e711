/**
 * Accuracy for every labelled subset of every BBEH task in the rows (web_of_lies variant,
 * zebra_puzzles size — the paper's Table 9 —, spatial direction and shape, …), per run and
 * model, with 95% Wilson intervals: `subsetAccuracy` of `subsets/accuracy.ts` over all kinds.
 *
 * @example
 * ```ts
 * import { allSubsetAccuracy } from "@runlens/benchmarks/bbeh/failure/subset_accuracy.ts";
 * allSubsetAccuracy(rows).filter(pl.col("task").eq(pl.lit("zebra_puzzles")));
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { bbehSubsets, subsetAccuracy, withSubsets } from "../subsets.ts";
import { requireColumns } from "./shares.ts";

/**
 * Subset labels of the distinct examples in `rows` (from their `input` and `target`).
 *
 * @example
 * ```ts
 * subsetsOfRows(rows).height; // one row per example and subset kind
 * ```
 */
export function subsetsOfRows(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(rows, ["task", "example_index", "input", "target"], "subsetsOfRows");
  const examples = rows.select(
    pl.col("task"),
    pl.col("example_index").cast(pl.Int32),
    pl.col("input"),
    pl.col("target"),
  ).unique({ subset: ["task", "example_index"], keep: "first", maintainOrder: true });
  return bbehSubsets(examples);
}

/**
 * `run`, `model`, `scorer` (when present), `task`, `subset_kind`, `subset`, `n`, `correct`,
 * `accuracy`, `ci_low`, `ci_high` for every subset of every task present in `rows`.
 *
 * @example
 * ```ts
 * allSubsetAccuracy(rows);
 * ```
 */
export function allSubsetAccuracy(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(rows, ["task", "example_index", "input", "target", "correct"], "allSubsets");
  const keep = ["run", "model", "scorer", "benchmark", "task", "example_index", "correct"]
    .filter((c) => rows.columns.includes(c));
  return subsetAccuracy(withSubsets(rows.select(...keep), subsetsOfRows(rows)));
}
