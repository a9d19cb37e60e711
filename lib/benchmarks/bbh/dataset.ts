/**
 * The BBH release as a polars DataFrame: one row per example of the 27 task files
 * `bbh/<task>.json` (`{"examples": [{"input", "target"}], "canary"}`).
 *
 * Columns: `task`, `example_index` (0-based position in the task file), `input`, `target`,
 * `input_chars` (code points, Python `len`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbhDataset } from "@runlens/benchmarks/bbh/dataset.ts";
 * const ds = loadBbhDataset(resolveDataDir()); // $RUNLENS_DATA, else .runlens/data
 * assert.equal(ds.height, 6511);
 * assert.deepEqual(ds.columns, ["task", "example_index", "input", "target", "input_chars"]);
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import { exampleFrame } from "../../core/example_frame.ts";
import { BBH_TASKS } from "./tasks.ts";
import { type BbhExample, findBbhTaskDir, readBbhExamples, readBbhTaskFile } from "./examples.ts";

/** Where the task files are and how one is read: see `examples.ts` (re-exported here). */
export { type BbhExample, findBbhTaskDir, readBbhTaskFile };

const cache = new Map<string, pl.DataFrame>();

/**
 * Load all 27 task files from a data directory (cached per directory): the frame of the
 * examples `readBbhExamples` reads (the same frame the pipeline's data sets derive from them,
 * `pipeline/data_sets.ts`). Throws when the folder is missing or not a BBH release, when a
 * task file is missing or malformed, or when a task has another size than the release.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const ds = loadBbhDataset(resolveDataDir());
 * assert.equal(ds.filter(pl.col("task").eq(pl.lit("snarks"))).height, 178);
 * ```
 */
export function loadBbhDataset(dataDir: string): pl.DataFrame {
  const taskDir = findBbhTaskDir(dataDir);
  const hit = cache.get(taskDir);
  if (hit) return hit;
  const df = exampleFrame(readBbhExamples(taskDir), BBH_TASKS.map((t) => t.name));
  cache.set(taskDir, df);
  return df;
}
