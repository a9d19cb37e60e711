/**
 * BIG-Bench Mistake (BBM) as a polars DataFrame: one row per chain-of-thought trace.
 *
 * The release (`release.ts` reads its files) is one JSONL file per task
 * (`big-bench-mistake/<task>.jsonl`).
 *
 * Columns: `task` (file name without `.jsonl`), `trace_index` (0-based line position),
 * `input`, `steps` (list of strings), `n_steps`, `answer`, `target`, `mistake_index`
 * (Int32, 0-based, null = no mistake).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { BBM_COLUMNS, loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * const traces = loadBbmDataset(resolveDataDir());
 * assert.equal(traces.height, 2186);
 * assert.deepEqual(traces.columns, [...BBM_COLUMNS]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { resolve } from "node:path";
import { intSeries, strSeries } from "./columns.ts";
import { type BbmTrace, findBbmDir, readBbmFile, readBbmRelease } from "./release.ts";

/** Column names of the trace frame, in order. */
export const BBM_COLUMNS = [
  "task",
  "trace_index",
  "input",
  "steps",
  "n_steps",
  "answer",
  "target",
  "mistake_index",
] as const;

/**
 * Build the trace frame from parsed traces (also handy for constructed test data).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const df = bbmFrame([{
 *   task: "t",
 *   trace_index: 0,
 *   input: "q",
 *   steps: ["a"],
 *   answer: null,
 *   target: "x",
 *   mistake_index: 0,
 * }]);
 * assert.deepEqual(df.getColumn("n_steps").toArray(), [1]);
 * assert.deepEqual(df.getColumn("answer").toArray(), [null]);
 * ```
 */
export function bbmFrame(traces: readonly BbmTrace[]): pl.DataFrame {
  return pl.DataFrame({
    task: strSeries("task", traces.map((t) => t.task)),
    trace_index: intSeries("trace_index", traces.map((t) => t.trace_index)),
    input: strSeries("input", traces.map((t) => t.input)),
    steps: pl.Series("steps", traces.map((t) => t.steps), pl.List(pl.Utf8)),
    n_steps: intSeries("n_steps", traces.map((t) => t.steps.length)),
    answer: strSeries("answer", traces.map((t) => t.answer)),
    target: strSeries("target", traces.map((t) => t.target)),
    mistake_index: intSeries("mistake_index", traces.map((t) => t.mistake_index)),
  });
}

/**
 * Load one BBM JSONL file; the task is the file name without `.jsonl`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { findBbmDir } from "@runlens/benchmarks/bbm/release.ts";
 * const df = loadBbmFile(join(findBbmDir(resolveDataDir()), "word_sorting.jsonl"));
 * assert.equal(df.height, 300);
 * assert.equal(df.getColumn("task").get(0), "word_sorting");
 * ```
 */
export function loadBbmFile(path: string): pl.DataFrame {
  return bbmFrame(readBbmFile(path));
}

const cache = new Map<string, pl.DataFrame>();

/**
 * Load every `*.jsonl` of the BBM release under `dataDir` (sorted by task), cached per folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const traces = loadBbmDataset(resolveDataDir());
 * assert.equal(traces.filter(pl.col("task").eq(pl.lit("dyck_languages"))).height, 986);
 * assert.equal(loadBbmDataset("tests/fixtures/bbm").height, 6); // a toy release, same layout
 * ```
 */
export function loadBbmDataset(dataDir: string): pl.DataFrame {
  const dir = resolve(findBbmDir(dataDir));
  const hit = cache.get(dir);
  if (hit) return hit;
  const df = bbmFrame(readBbmRelease(dir));
  cache.set(dir, df);
  return df;
}
