/**
 * Classify a mixed mistake-finding log: rows naming a BBM trace (`trace_index`) and rows
 * naming a BBEH first-mistake item (`example_index` of dyck_languages / word_sorting).
 *
 * BBM rows are classified under the numbering the caller states (required when there are
 * any); BBEH rows are always one-based ("Thought N"). BBEH rows that are not first-mistake
 * items (e.g. word_sorting's new-alphabet half) are returned apart as `unmatched`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { bbehToBbmMap } from "@runlens/benchmarks/bbeh/bbm_link.ts";
 * import { classifyMistakeLog } from "@runlens/benchmarks/bbeh/mistake_log.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * import pl from "nodejs-polars";
 * const dir = resolveDataDir();
 * // a BBM trace, then the same trace as BBEH dyck_languages[0], then a new-alphabet item
 * const rows = pl.DataFrame({
 *   model: ["m", "m", "m"],
 *   task: ["dyck_languages", "dyck_languages", "word_sorting"],
 *   trace_index: [222, null, null],
 *   example_index: [null, 0, 1],
 *   response: ["The answer is: 7", "The answer is: 7", "The answer is: No"],
 * });
 * const { classified, unmatched } = classifyMistakeLog(rows, {
 *   traces: loadBbmDataset(dir),
 *   map: () => bbehToBbmMap(dir),
 *   numbering: "one-based",
 * });
 * assert.deepEqual(classified.getColumn("source").toArray(), ["bbm", "bbeh"]);
 * assert.deepEqual(classified.getColumn("outcome").toArray(), ["correct", "correct"]);
 * assert.equal(unmatched.height, 1); // word_sorting[1] is not a first-mistake item
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { classifyMistakeRuns } from "../bbm/classify.ts";
import { loadBbmDataset } from "../bbm/dataset.ts";
import { LOG_COLUMNS, rowsLeftOut, SOURCE_COLUMNS } from "../bbm/mistake_finding.ts";
import type { StepNumbering } from "../bbm/numbering.ts";
import type { AnalysisContext, MistakeFinding } from "../types.ts";
import { sortQuarantine } from "../../logs/quarantine.ts";
import { BBEH_MISTAKE_TASKS, bbehToBbmMap, classifyBbehMistakeRows } from "./bbm_link.ts";

/** Inputs of {@link classifyMistakeLog}. */
export interface MistakeLogOptions {
  /** The BBM trace frame. */
  traces: pl.DataFrame;
  /** The BBEH → BBM map, or a function building it (only called when BBEH rows exist). */
  map?: pl.DataFrame | (() => pl.DataFrame);
  /** Numbering of the BBM rows' answers; required when the log has BBM rows. */
  numbering?: StepNumbering;
}

/**
 * Classify every row of a frame of mistake-finding answers (`task`, `trace_index` or
 * `example_index`, `response`; optional `run`, `model`); `source` says "bbm" or
 * "bbeh". Extra columns such as `source_file`/`source_line` are kept after {@link LOG_COLUMNS}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * // BBM rows only (no map needed); run and model default to "run"
 * const runs = pl.DataFrame({
 *   task: ["dyck_languages"],
 *   trace_index: [222], // first mistake at step index 6
 *   response: ["The answer is: 6"],
 * });
 * const traces = loadBbmDataset(resolveDataDir());
 * const { classified, unmatched } = classifyMistakeLog(runs, { traces, numbering: "zero-based" });
 * assert.deepEqual(classified.select("run", "source", "outcome").row(0), [
 *   "run",
 *   "bbm",
 *   "correct",
 * ]);
 * assert.equal(unmatched.height, 0);
 * ```
 */
export function classifyMistakeLog(
  runs: pl.DataFrame,
  opts: MistakeLogOptions,
): { classified: pl.DataFrame; unmatched: pl.DataFrame } {
  runs = withDefaults(runs);
  const bbmRows = runs.filter(pl.col("trace_index").isNotNull());
  const bbehRows = runs.filter(pl.col("trace_index").isNull());
  const parts: pl.DataFrame[] = [];
  let unmatched = bbehRows.head(0);
  if (bbmRows.height > 0) {
    if (!opts.numbering) {
      throw new Error(
        `${bbmRows.height} row(s) name BBM traces (trace_index): say how their answers number ` +
          `steps ("one-based" = Thought N, or "zero-based")`,
      );
    }
    const c = classifyMistakeRuns(bbmRows, opts.traces, { numbering: opts.numbering });
    parts.push(c.withColumns(
      pl.lit("bbm").alias("source"),
      pl.lit(null).cast(pl.Utf8).alias("bbeh_task"),
      pl.col("example_index").cast(pl.Int32),
    ));
  }
  if (bbehRows.height > 0) {
    if (!opts.map) throw new Error("BBEH rows (example_index) need the BBEH → BBM map");
    const map = typeof opts.map === "function" ? opts.map() : opts.map;
    const c = classifyBbehMistakeRows(bbehRows, map, opts.traces);
    parts.push(c.withColumns(pl.lit("bbeh").alias("source")));
    const keys = map.select(
      pl.col("bbeh_task").alias("task"),
      pl.col("example_index"),
      pl.lit(true).alias("_linked"),
    );
    unmatched = bbehRows.withColumns(pl.col("example_index").cast(pl.Int32))
      .join(keys, { on: ["task", "example_index"], how: "left" })
      .filter(pl.col("_linked").isNull())
      .drop("_linked");
  }
  const extra = runs.columns.filter((c) => !(LOG_COLUMNS as readonly string[]).includes(c));
  const order = [...LOG_COLUMNS, ...extra];
  const classified = parts.length > 0
    ? pl.concat(parts.map((p) => p.select(...order)), { how: "vertical" })
    : emptyLog(order);
  return { classified, unmatched };
}

/** Add the optional columns a hand-made frame may lack: run, model, trace/example index. */
function withDefaults(runs: pl.DataFrame): pl.DataFrame {
  let df = runs;
  if (!df.columns.includes("run")) df = df.withColumns(pl.lit("run").alias("run"));
  if (!df.columns.includes("model")) df = df.withColumns(pl.col("run").alias("model"));
  for (const c of ["trace_index", "example_index"]) {
    df = df.withColumns(
      (df.columns.includes(c) ? pl.col(c) : pl.lit(null)).cast(pl.Int32).alias(c),
    );
  }
  return df;
}

function emptyLog(order: string[]): pl.DataFrame {
  return pl.DataFrame(Object.fromEntries(order.map((c) => [c, pl.Series(c, [], pl.Utf8)])));
}

/** Why a BBEH row is not classified as a first-mistake answer. */
export const NOT_A_MISTAKE_ITEM =
  "not a BBEH first-mistake item (e.g. word_sorting's new-alphabet half)";

/**
 * BBEH's {@link Benchmark.mistakeFinding} hook: its rows of first-mistake items (all of
 * dyck_languages, word_sorting's "Is there a mistake" half) classified against the BBM traces
 * they render, one-based ("Thought N", as BBEH's targets); its other rows left out, saying
 * why. Null: no rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const rows = pl.DataFrame({
 *   run: ["r", "r"], model: ["m", "m"], task: ["dyck_languages", "word_sorting"],
 *   example_index: [0, 1], response: ["The answer is: 7", "The answer is: No"],
 *   source_file: ["a.jsonl", "a.jsonl"], source_line: [1, 2],
 * });
 * const found = bbehMistakeFinding(rows, { dataDir: resolveDataDir() })!;
 * // dyck_languages[0] is BBM trace 222, first mistake Thought 7; word_sorting[1] is no item
 * assert.deepEqual(found.classified!.select("trace_index", "outcome").row(0), [222, "correct"]);
 * assert.deepEqual(found.leftOut, [{ file: "a.jsonl", line: 2, reason: NOT_A_MISTAKE_ITEM }]);
 * ```
 */
export function bbehMistakeFinding(
  rows: pl.DataFrame,
  ctx: AnalysisContext,
): MistakeFinding | null {
  if (rows.height === 0) return null;
  const items = pl.col("task").isIn([...BBEH_MISTAKE_TASKS]);
  const others = rowsLeftOut(rows.filter(items.not()), NOT_A_MISTAKE_ITEM);
  const answers = rows.filter(items)
    .select("run", "model", "task", "example_index", "response", ...SOURCE_COLUMNS);
  if (answers.height === 0) return { classified: null, leftOut: others };
  const { classified, unmatched } = classifyMistakeLog(answers, {
    traces: loadBbmDataset(ctx.dataDir),
    map: () => bbehToBbmMap(ctx.dataDir),
  });
  return {
    classified: classified.height > 0 ? classified.select(...LOG_COLUMNS, ...SOURCE_COLUMNS) : null,
    leftOut: sortQuarantine([...others, ...rowsLeftOut(unmatched, NOT_A_MISTAKE_ITEM)]),
  };
}
