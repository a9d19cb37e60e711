/**
 * Accuracy for every labelled subset of every BBEH task in the rows (web_of_lies variant,
 * zebra_puzzles size — the paper's Table 9 —, spatial direction and shape, …), per run and
 * model, with 95% Wilson intervals: `subsetAccuracy` of `subsets/accuracy.ts` over all kinds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { allSubsetAccuracy } from "@runlens/benchmarks/bbeh/failure/subset_accuracy.ts";
 * // a run log: zebra_puzzles 0 and 1 (7x7; gold 6 and 5) and 2 (5x5; gold 4)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,zebra_puzzles,0,The answer is: 6
 * r1,m,zebra_puzzles,1,The answer is: 4
 * r1,m,zebra_puzzles,2,The answer is: 4
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const zebra = allSubsetAccuracy(rows).filter(pl.col("task").eq(pl.lit("zebra_puzzles")));
 * assert.deepEqual(zebra.select("subset", "n", "correct", "accuracy").rows(), [
 *   ["5x5", 1, 1, 100],
 *   ["7x7", 2, 1, 50],
 * ]);
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
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // a run log: zebra_puzzles 0 and 1 (7x7; gold 6 and 5) and 2 (5x5; gold 4)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,zebra_puzzles,0,The answer is: 6
 * r1,m,zebra_puzzles,1,The answer is: 4
 * r1,m,zebra_puzzles,2,The answer is: 4
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const subsets = subsetsOfRows(rows); // one row per example and subset kind
 * assert.deepEqual(subsets.getColumn("subset").toArray(), ["7x7", "7x7", "5x5"]);
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
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // a run log: zebra_puzzles 0 and 1 (7x7; gold 6 and 5) and 2 (5x5; gold 4)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,zebra_puzzles,0,The answer is: 6
 * r1,m,zebra_puzzles,1,The answer is: 4
 * r1,m,zebra_puzzles,2,The answer is: 4
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = allSubsetAccuracy(rows);
 * assert.deepEqual(table.columns, [
 *   "run",
 *   "model",
 *   "scorer",
 *   "task",
 *   "subset_kind",
 *   "subset",
 *   "n",
 *   "correct",
 *   "accuracy",
 *   "ci_low",
 *   "ci_high",
 * ]);
 * ```
 */
export function allSubsetAccuracy(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(rows, ["task", "example_index", "input", "target", "correct"], "allSubsets");
  const keep = ["run", "model", "scorer", "benchmark", "task", "example_index", "correct"]
    .filter((c) => rows.columns.includes(c));
  return subsetAccuracy(withSubsets(rows.select(...keep), subsetsOfRows(rows)));
}
