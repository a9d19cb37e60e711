/**
 * BIG-Bench Mistake's {@link Benchmark.mistakeFinding} hook: its scored rows (one answer per
 * trace named by `trace_index`) classified against the annotated traces — correct, early,
 * late, said_no_mistake, false_alarm or no_answer (`classify.ts`) — under the step numbering
 * their scorer states (`bbm-one-based`, `bbm-zero-based`). Rows scored by a rule that states
 * none (`stored`, `lenient`) are left out, saying why: the numbering is never guessed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   run: ["r", "r"], model: ["m", "m"], task: ["word_sorting", "word_sorting"],
 *   example_index: [1, 3], response: ["The answer is: 2", "The answer is: 1"],
 *   scorer: ["bbm-one-based", "bbm-one-based"], source_file: ["a.jsonl", "a.jsonl"],
 *   source_line: [1, 2],
 * });
 * const found = bbmMistakeFinding(rows, { dataDir: "tests/fixtures/bbm" })!;
 * // both traces' first mistake is Thought 2
 * assert.deepEqual(found.classified!.getColumn("outcome").toArray(), ["correct", "early"]);
 * assert.deepEqual(found.leftOut, []);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import type { QuarantineEntry } from "../../logs/quarantine.ts";
import type { AnalysisContext, MistakeFinding } from "../types.ts";
import { CLASSIFY_COLUMNS, classifyMistakeRuns } from "./classify.ts";
import { loadBbmDataset } from "./dataset.ts";
import { STEP_NUMBERINGS } from "./numbering.ts";
import { numberingScorer } from "./scorers.ts";

/** Columns of a classified mistake-finding answer, in order (then `source_file`, `source_line`). */
export const LOG_COLUMNS = [
  "run",
  "model",
  "source",
  "bbeh_task",
  "example_index",
  "task",
  "trace_index",
  "response",
  ...CLASSIFY_COLUMNS,
] as const;

/** Where each answer was read: kept after {@link LOG_COLUMNS}. */
export const SOURCE_COLUMNS = ["source_file", "source_line"] as const;

/** The answers of a benchmark's rows, as `classify.ts` reads them (`task`, `trace_index`). */
function answers(rows: pl.DataFrame): pl.DataFrame {
  return rows.select(
    "run",
    "model",
    "task",
    pl.col("example_index").cast(pl.Int32).alias("trace_index"),
    "response",
    ...SOURCE_COLUMNS,
  );
}

/** Rows as quarantine entries, each with `reason`. */
export function rowsLeftOut(rows: pl.DataFrame, reason: string): QuarantineEntry[] {
  const files = rows.getColumn("source_file").toArray() as string[];
  const lines = rows.getColumn("source_line").toArray() as number[];
  return files.map((file, i) => ({ file, line: lines[i], reason }));
}

/** Classify BBM rows (see the module doc); null when there are none. */
export function bbmMistakeFinding(
  rows: pl.DataFrame,
  ctx: AnalysisContext,
): MistakeFinding | null {
  if (rows.height === 0) return null;
  const traces = loadBbmDataset(ctx.dataDir);
  const parts: pl.DataFrame[] = [];
  const stated = STEP_NUMBERINGS.map((n) => numberingScorer(n).name);
  for (const numbering of STEP_NUMBERINGS) {
    const own = rows.filter(pl.col("scorer").eq(pl.lit(numberingScorer(numbering).name)));
    if (own.height === 0) continue;
    const classified = classifyMistakeRuns(answers(own), traces, { numbering });
    parts.push(
      classified.withColumns(
        pl.lit("bbm").alias("source"),
        pl.lit(null).cast(pl.Utf8).alias("bbeh_task"),
        pl.lit(null).cast(pl.Int32).alias("example_index"),
      ).select(...LOG_COLUMNS, ...SOURCE_COLUMNS),
    );
  }
  const unstated = rows.filter(pl.col("scorer").isIn(stated).not());
  const leftOut = (unstated.getColumn("scorer").unique().sort().toArray() as string[]).flatMap(
    (scorer) =>
      rowsLeftOut(
        unstated.filter(pl.col("scorer").eq(pl.lit(scorer))),
        `scored by ${scorer}, which states no step numbering (${stated.join(" or ")})`,
      ),
  );
  return { classified: parts.length > 0 ? pl.concat(parts, { how: "vertical" }) : null, leftOut };
}
