/**
 * The BBH → BBEH task pairing of the BBEH paper's Table 1 as a frame, and per-model pooling of
 * row-schema frames onto it (BBH tasks with variants, e.g. the three logical_deduction files,
 * are pooled into their one BBEH successor).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { taskPairs } from "@runlens/benchmarks/bbh/compare/pairs.ts";
 * // one row per BBH task: bbh_task, task (its BBEH successor)
 * assert.equal(taskPairs().height, 27);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { BBEH_TASKS } from "../../bbeh/tasks.ts";

/**
 * One row per BBH task: `bbh_task`, `task` (the BBEH successor, paper Table 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const boardgame = taskPairs().filter(pl.col("task").eq(pl.lit("boardgame_qa")));
 * assert.deepEqual(boardgame.getColumn("bbh_task").toArray(), [
 *   "logical_deduction_three_objects",
 *   "logical_deduction_five_objects",
 *   "logical_deduction_seven_objects",
 * ]);
 * ```
 */
export function taskPairs(): pl.DataFrame {
  return pl.DataFrame({
    bbh_task: pl.Series("bbh_task", BBEH_TASKS.flatMap((t) => t.bbh), pl.Utf8),
    task: pl.Series("task", BBEH_TASKS.flatMap((t) => t.bbh.map(() => t.name)), pl.Utf8),
  });
}

/**
 * The 23 BBEH tasks with their display names, in table order (`task`, `display`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(bbehDisplay().height, 23);
 * assert.equal(bbehDisplay().getColumn("display").get(0), "BoardgameQA");
 * ```
 */
export function bbehDisplay(): pl.DataFrame {
  return pl.DataFrame({
    task: pl.Series("task", BBEH_TASKS.map((t) => t.name), pl.Utf8),
    display: pl.Series("display", BBEH_TASKS.map((t) => t.display), pl.Utf8),
  });
}

/**
 * Rows of one benchmark with `task` mapped to the BBEH task of the pair: BBEH rows keep their
 * task; BBH rows get their successor (rows of unknown BBH tasks are dropped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   benchmark: ["bbh", "bbh", "bbeh"],
 *   task: ["navigate", "not_a_bbh_task", "spatial_reasoning"],
 *   correct: [true, false, true],
 * });
 * assert.deepEqual(onPairs(rows, "bbh").toRecords(), [
 *   { benchmark: "bbh", bbh_task: "navigate", correct: true, task: "spatial_reasoning" },
 * ]);
 * assert.equal(onPairs(rows, "bbeh").height, 1); // BBEH rows as they are
 * ```
 */
export function onPairs(rows: pl.DataFrame, benchmark: "bbh" | "bbeh"): pl.DataFrame {
  const own = rows.filter(pl.col("benchmark").eq(pl.lit(benchmark)));
  if (benchmark === "bbeh") return own;
  return own.rename({ task: "bbh_task" }).join(taskPairs(), { on: "bbh_task" });
}

/**
 * Models with rows of both benchmarks, sorted.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   model: ["gemini-2.0-flash", "gemini-2.0-flash", "code-davinci-002"],
 *   benchmark: ["bbh", "bbeh", "bbh"],
 * });
 * assert.deepEqual(modelsWithBoth(rows), ["gemini-2.0-flash"]);
 * ```
 */
export function modelsWithBoth(rows: pl.DataFrame): string[] {
  const models = (b: string) =>
    new Set(
      rows.filter(pl.col("benchmark").eq(pl.lit(b))).getColumn("model").unique()
        .toArray() as string[],
    );
  const bbh = models("bbh"), bbeh = models("bbeh");
  return [...bbh].filter((m) => bbeh.has(m)).sort();
}
