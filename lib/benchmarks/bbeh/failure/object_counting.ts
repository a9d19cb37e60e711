/**
 * Object Counting: when a model is wrong, does it over- or under-count? (BBEH paper, Appendix
 * A.14, Table 8) and the distribution of signed errors (predicted − gold).
 *
 * Two denominators are reported. The brief's definition — among wrong numeric answers — gives
 * `over_count_share` / `under_count_share`. The paper's printed Table 8 values are all
 * multiples of 0.5 and add up, with Table 2's accuracy, to at most 100: they are shares of all
 * 200 examples of the task (`over_count_of_all` / `under_count_of_all`, group "all"), although
 * the text speaks of the sum subset.
 *
 * @example
 * ```ts
 * import { objectCountingErrors, objectCountingSignedErrors } from "@runlens/benchmarks/bbeh/failure/object_counting.ts";
 * objectCountingErrors(rows); // groups sum, absolute_difference, all
 * objectCountingSignedErrors(rows); // run, model, subset, error, count
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { numericAnswer, withSubsetLabel } from "./labels.ts";
import { requireColumns, shareMeasures } from "./shares.ts";

const TASK = "object_counting";

function withErrors(rows: pl.DataFrame): pl.DataFrame {
  return withSubsetLabel(rows, TASK, "variant").withColumns(
    numericAnswer("extracted").sub(pl.col("target").cast(pl.Float64, false)).alias("__err"),
  );
}

/**
 * Share table for object_counting, per subset (`sum`, `absolute_difference`) and pooled
 * (`all`): `over_count_share` / `under_count_share` (out of wrong numeric answers),
 * `over_count_of_all`, `under_count_of_all`, `correct_of_all`, `non_numeric_of_all` (out of all
 * rows).
 *
 * @example
 * ```ts
 * objectCountingErrors(rows).filter(pl.col("group").eq(pl.lit("sum")));
 * ```
 */
export function objectCountingErrors(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(
    rows,
    ["run", "model", "task", "example_index", "input", "target", "extracted", "correct"],
    "objectCountingErrors",
  );
  const df = withErrors(rows);
  const err = pl.col("__err");
  const wrongNumeric = err.isNotNull().and(err.neq(0));
  const all = pl.lit(true);
  return shareMeasures(df, [
    { measure: "over_count_share", hit: err.gt(0), of: wrongNumeric },
    { measure: "under_count_share", hit: err.lt(0), of: wrongNumeric },
    { measure: "over_count_of_all", hit: err.gt(0), of: all },
    { measure: "under_count_of_all", hit: err.lt(0), of: all },
    { measure: "correct_of_all", hit: pl.col("correct"), of: all },
    { measure: "non_numeric_of_all", hit: err.isNull(), of: all },
  ], { group: "subset" });
}

/**
 * Signed error distribution of wrong numeric answers: `run`, `model`, `subset`, `error`
 * (predicted − gold), `count`, sorted.
 *
 * @example
 * ```ts
 * objectCountingSignedErrors(rows); // e.g. error 12 appears 3 times for run r1 in "sum"
 * ```
 */
export function objectCountingSignedErrors(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(
    rows,
    ["run", "model", "task", "example_index", "input", "target", "extracted"],
    "objectCountingSignedErrors",
  );
  return withErrors(rows)
    .filter(pl.col("__err").isNotNull().and(pl.col("__err").neq(0)))
    .groupBy(["run", "model", "subset", "__err"])
    .agg(pl.len().cast(pl.Int32).alias("count"))
    .rename({ __err: "error" })
    .sort(["run", "model", "subset", "error"]);
}
