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
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import {
 *   objectCountingErrors,
 *   objectCountingSignedErrors,
 * } from "@runlens/benchmarks/bbeh/failure/object_counting.ts";
 * import { shareOf } from "@runlens/benchmarks/bbeh/failure/shares.ts";
 * // a run log: object_counting items 0-4 (gold 131, 1486, 1082, 1270, 1372)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,object_counting,0,I lost count.
 * r1,m,object_counting,1,The answer is: 1500
 * r1,m,object_counting,2,The answer is: 1082
 * r1,m,object_counting,3,The answer is: 1200
 * r1,m,object_counting,4,The answer is: 1400
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = objectCountingErrors(rows); // groups sum, absolute_difference, all
 * // items 1-4 are sums: two over-counts and one under-count among the three wrong numbers
 * assert.equal(shareOf(table, { group: "sum", measure: "over_count_share" })?.count, 2);
 * assert.equal(shareOf(table, { group: "sum", measure: "under_count_share" })?.n, 3);
 * // item 0 (absolute_difference) has no number
 * assert.equal(shareOf(table, { measure: "non_numeric_of_all" })?.count, 1);
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
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // a run log: object_counting items 0-4 (gold 131, 1486, 1082, 1270, 1372)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,object_counting,0,I lost count.
 * r1,m,object_counting,1,The answer is: 1500
 * r1,m,object_counting,2,The answer is: 1082
 * r1,m,object_counting,3,The answer is: 1200
 * r1,m,object_counting,4,The answer is: 1400
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const sum = objectCountingErrors(rows).filter(pl.col("group").eq(pl.lit("sum")));
 * assert.deepEqual(sum.select("measure", "count", "n").rows(), [
 *   ["over_count_share", 2, 3],
 *   ["under_count_share", 1, 3],
 *   ["over_count_of_all", 2, 4],
 *   ["under_count_of_all", 1, 4],
 *   ["correct_of_all", 1, 4],
 *   ["non_numeric_of_all", 0, 4],
 * ]);
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
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // a run log: object_counting items 0-4 (gold 131, 1486, 1082, 1270, 1372)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,object_counting,0,I lost count.
 * r1,m,object_counting,1,The answer is: 1500
 * r1,m,object_counting,2,The answer is: 1082
 * r1,m,object_counting,3,The answer is: 1200
 * r1,m,object_counting,4,The answer is: 1400
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const errors = objectCountingSignedErrors(rows);
 * // 1500 − 1486, 1200 − 1270, 1400 − 1372 (the right answer and the non-number are left out)
 * assert.deepEqual(errors.rows(), [
 *   ["r1", "m", "sum", -70, 1],
 *   ["r1", "m", "sum", 14, 1],
 *   ["r1", "m", "sum", 28, 1],
 * ]);
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
