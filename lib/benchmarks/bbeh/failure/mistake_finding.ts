/**
 * Dyck Languages and Word Sorting first-mistake items: when a trace has a mistake and the model
 * flags a wrong step, did it flag a correct step too early or miss the first mistake and flag a
 * later one? (BBEH paper, Appendix A.6: for o3-mini (high) 98.7% of such errors are "missed
 * first".) Also the share that says "no mistake" although there is one, and the signed step
 * offset (flagged − true first mistake) distribution.
 *
 * The per-row classification is `classifyBbehMistakeRows` of `bbm_link.ts` (BBM outcome
 * classes, one-based "Thought N" numbering); this module only aggregates it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { bbehToBbmMap } from "@runlens/benchmarks/bbeh/bbm_link.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * import { mistakeFindingModes } from "@runlens/benchmarks/bbeh/failure/mistake_finding.ts";
 * // a run log: dyck_languages 0, 1, 2 (first mistake in Thought 7, 8 and 9)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,dyck_languages,0,The answer is: 3
 * r1,m,dyck_languages,1,The answer is: No
 * r1,m,dyck_languages,2,The answer is: 11
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const dir = resolveDataDir();
 * const modes = mistakeFindingModes(rows, bbehToBbmMap(dir), loadBbmDataset(dir));
 * // Thought 3 is too early, "No" misses the mistake, Thought 11 is too late
 * assert.deepEqual(modes.select("measure", "count", "n").rows(), [
 *   ["early_flag_share", 1, 2],
 *   ["missed_first_share", 1, 2],
 *   ["said_no_mistake_share", 1, 3],
 *   ["false_alarm_share", 0, 0],
 *   ["location_correct_share", 0, 3],
 *   ["no_valid_step_share", 0, 3],
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { classifyBbehMistakeRows } from "../bbm_link.ts";
import { requireColumns, shareMeasures } from "./shares.ts";

/**
 * The classified first-mistake rows with the BBEH task back in `task` (the BBM task in
 * `bbm_task`): `run`, `model`, `task`, `example_index`, `outcome`, `mistake_index`,
 * `predicted_index`, `has_mistake`, `flagged`, … (see `bbm/classify.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { bbehToBbmMap } from "@runlens/benchmarks/bbeh/bbm_link.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * // a run log: dyck_languages 0, 1, 2 (first mistake in Thought 7, 8 and 9)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,dyck_languages,0,The answer is: 3
 * r1,m,dyck_languages,1,The answer is: No
 * r1,m,dyck_languages,2,The answer is: 11
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const map = bbehToBbmMap(resolveDataDir());
 * const traces = loadBbmDataset(resolveDataDir());
 * const classified = classifyMistakeItems(rows, map, traces);
 * const outcomes = classified.getColumn("outcome").toArray();
 * assert.deepEqual(outcomes, ["early", "said_no_mistake", "late"]);
 * assert.deepEqual(classified.getColumn("mistake_index").toArray(), [6, 7, 8]); // 0-based
 * ```
 */
export function classifyMistakeItems(
  rows: pl.DataFrame,
  map: pl.DataFrame,
  traces: pl.DataFrame,
): pl.DataFrame {
  requireColumns(rows, ["run", "model", "task", "example_index", "response"], "mistakeFinding");
  const keep = ["run", "model", "task", "example_index", "response"];
  const own = rows.filter(pl.col("task").isIn(["dyck_languages", "word_sorting"])).select(...keep);
  return classifyBbehMistakeRows(own, map, traces)
    .rename({ task: "bbm_task" })
    .rename({ bbeh_task: "task" });
}

/**
 * Share table of the first-mistake items, per BBEH task (dyck_languages, word_sorting):
 * `early_flag_share` and `missed_first_share` (out of rows where the trace has a mistake and the
 * model flagged another step), `said_no_mistake_share` (out of rows whose trace has a mistake),
 * `false_alarm_share` (out of clean traces), `location_correct_share` and `no_valid_step_share` (no step
 * number or "No" found; out of all rows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { bbehToBbmMap } from "@runlens/benchmarks/bbeh/bbm_link.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * // a run log: dyck_languages 0, 1, 2 (first mistake in Thought 7, 8 and 9)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,dyck_languages,0,The answer is: 3
 * r1,m,dyck_languages,1,The answer is: No
 * r1,m,dyck_languages,2,The answer is: 11
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const map = bbehToBbmMap(resolveDataDir());
 * const traces = loadBbmDataset(resolveDataDir());
 * const early = mistakeFindingModes(rows, map, traces)
 *   .filter(pl.col("measure").eq(pl.lit("early_flag_share")));
 * assert.deepEqual(early.select("task", "count", "n", "share").row(0), [
 *   "dyck_languages",
 *   1,
 *   2,
 *   50,
 * ]);
 * ```
 */
export function mistakeFindingModes(
  rows: pl.DataFrame,
  map: pl.DataFrame,
  traces: pl.DataFrame,
): pl.DataFrame {
  return mistakeModesOfClassified(classifyMistakeItems(rows, map, traces));
}

/**
 * The share table of {@link mistakeFindingModes} from already classified rows (the frame of
 * {@link classifyMistakeItems}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { bbehToBbmMap } from "@runlens/benchmarks/bbeh/bbm_link.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * // a run log: dyck_languages 0, 1, 2 (first mistake in Thought 7, 8 and 9)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,dyck_languages,0,The answer is: 3
 * r1,m,dyck_languages,1,The answer is: No
 * r1,m,dyck_languages,2,The answer is: 11
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const map = bbehToBbmMap(resolveDataDir());
 * const traces = loadBbmDataset(resolveDataDir());
 * const classified = classifyMistakeItems(rows, map, traces); // classify once, use twice
 * const modes = mistakeModesOfClassified(classified);
 * assert.ok(modes.frameEqual(mistakeFindingModes(rows, map, traces)));
 * mistakeStepOffsets(classified); // offsets -4 (Thought 3 for 7) and +2 (Thought 11 for 9)
 * ```
 */
export function mistakeModesOfClassified(classified: pl.DataFrame): pl.DataFrame {
  const o = pl.col("outcome");
  const is = (x: string) => o.eq(pl.lit(x));
  const wrongFlag = is("early").or(is("late"));
  return shareMeasures(classified, [
    { measure: "early_flag_share", hit: is("early"), of: wrongFlag },
    { measure: "missed_first_share", hit: is("late"), of: wrongFlag },
    { measure: "said_no_mistake_share", hit: is("said_no_mistake"), of: pl.col("has_mistake") },
    { measure: "false_alarm_share", hit: is("false_alarm"), of: pl.col("has_mistake").not() },
    { measure: "location_correct_share", hit: is("correct"), of: pl.lit(true) },
    { measure: "no_valid_step_share", hit: is("no_answer"), of: pl.lit(true) },
  ]);
}

/**
 * Distribution of the signed step offset (flagged step − first mistake, in steps) of the rows
 * that flagged a wrong step in a trace with a mistake: `run`, `model`, `task`, `offset`,
 * `count`. Negative = flagged early, positive = missed the first mistake.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { bbehToBbmMap } from "@runlens/benchmarks/bbeh/bbm_link.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * // a run log: dyck_languages 0, 1, 2 (first mistake in Thought 7, 8 and 9)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,dyck_languages,0,The answer is: 3
 * r1,m,dyck_languages,1,The answer is: No
 * r1,m,dyck_languages,2,The answer is: 11
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const map = bbehToBbmMap(resolveDataDir());
 * const traces = loadBbmDataset(resolveDataDir());
 * const offsets = mistakeStepOffsets(classifyMistakeItems(rows, map, traces));
 * // Thought 3 for a first mistake in Thought 7: −4; Thought 11 for Thought 9: +2
 * assert.deepEqual(offsets.rows(), [
 *   ["r1", "m", "dyck_languages", -4, 1],
 *   ["r1", "m", "dyck_languages", 2, 1],
 * ]);
 * ```
 */
export function mistakeStepOffsets(classified: pl.DataFrame): pl.DataFrame {
  return classified
    .filter(pl.col("outcome").isIn(["early", "late"]))
    .withColumns(pl.col("predicted_index").sub(pl.col("mistake_index")).alias("offset"))
    .groupBy(["run", "model", "task", "offset"])
    .agg(pl.len().cast(pl.Int32).alias("count"))
    .sort(["run", "model", "task", "offset"]);
}
