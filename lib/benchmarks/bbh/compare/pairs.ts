/**
 * The BBH → BBEH task pairing of the BBEH paper's Table 1 as a frame, and per-model pooling of
 * row-schema frames onto it (BBH tasks with variants, e.g. the three logical_deduction files,
 * are pooled into their one BBEH successor).
 *
 * @example
 * ```ts
 * import { taskPairs } from "@runlens/benchmarks/bbh/compare/pairs.ts";
 * taskPairs().height; // 27: one row per BBH task (bbh_task, task = its BBEH successor)
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
 * taskPairs().filter(pl.col("task").eq(pl.lit("boardgame_qa"))).height; // 3
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
 * bbehDisplay().getColumn("display").get(0); // "BoardgameQA"
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
 * onPairs(rows, "bbh"); // BBH rows, task = BBEH successor, bbh_task = the original task
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
 * modelsWithBoth(rows); // ["gemini-2.0-flash"]
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
