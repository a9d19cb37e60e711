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
import pl from "nodejs-polars";
import { pyLen } from "../../core/python.ts";
import { BBH_TASKS } from "./tasks.ts";
import { type BbhExample, findBbhTaskDir, readBbhTask, readBbhTaskFile } from "./examples.ts";

/** Where the task files are and how one is read: see `examples.ts` (re-exported here). */
export { type BbhExample, findBbhTaskDir, readBbhTaskFile };

const cache = new Map<string, pl.DataFrame>();

/**
 * Load all 27 task files from a data directory (cached per directory). Throws when the folder
 * is missing or not a BBH release, when a task file is missing or malformed, or when a task
 * has another size than the release.
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
  const cols = {
    task: [] as string[],
    example_index: [] as number[],
    input: [] as string[],
    target: [] as string[],
    input_chars: [] as number[],
  };
  for (const info of BBH_TASKS) {
    const examples = readBbhTask(taskDir, info);
    examples.forEach((ex, i) => {
      cols.task.push(info.name);
      cols.example_index.push(i);
      cols.input.push(ex.input);
      cols.target.push(ex.target);
      cols.input_chars.push(pyLen(ex.input));
    });
  }
  const df = pl.DataFrame({
    task: pl.Series("task", cols.task, pl.Utf8),
    example_index: pl.Series("example_index", cols.example_index, pl.Int32),
    input: pl.Series("input", cols.input, pl.Utf8),
    target: pl.Series("target", cols.target, pl.Utf8),
    input_chars: pl.Series("input_chars", cols.input_chars, pl.Int32),
  });
  cache.set(taskDir, df);
  return df;
}
