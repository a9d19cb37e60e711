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
import { join } from "node:path";
import { exists, FETCH_HINT } from "../../core/data_dir.ts";
import { pyLen } from "../../core/python.ts";
import { BBH_TASKS } from "./tasks.ts";
import { readTaskFile } from "../../core/task_file.ts";

/** One example of a BBH task file. */
export interface BbhExample {
  input: string;
  target: string;
}

/**
 * Find the BBH task files under `dir`: accepts the data root (holding `bbh/bbh/`), the release
 * (holding `bbh/<task>.json`) or the task folder itself. Returns the folder holding the 27
 * `<task>.json` files; throws a clear error otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const dir = resolveDataDir();
 * assert.equal(findBbhTaskDir(dir), join(dir, "bbh", "bbh")); // from the data root
 * assert.equal(findBbhTaskDir(join(dir, "bbh")), join(dir, "bbh", "bbh")); // from the release
 * ```
 */
export function findBbhTaskDir(dir: string): string {
  if (!exists(dir)) {
    throw new Error(`data directory ${dir} does not exist; ${FETCH_HINT}`);
  }
  const probe = `${BBH_TASKS[0].name}.json`;
  for (const c of [join(dir, "bbh", "bbh"), join(dir, "bbh"), dir]) {
    if (exists(join(c, probe))) return c;
  }
  throw new Error(
    `${dir} is not a BBH release: expected bbh/bbh/<task>.json (e.g. bbh/bbh/${probe}) ` +
      `under it; ${FETCH_HINT}`,
  );
}

/**
 * Read one BBH task file, checking its shape.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const examples = readBbhTaskFile(join(findBbhTaskDir(resolveDataDir()), "snarks.json"));
 * assert.equal(examples.length, 178);
 * assert.deepEqual(Object.keys(examples[0]), ["input", "target"]);
 * ```
 */
export function readBbhTaskFile(path: string): BbhExample[] {
  return readTaskFile(path, "BBH");
}

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
    const path = join(taskDir, `${info.name}.json`);
    const examples = readBbhTaskFile(path);
    if (examples.length !== info.size) {
      throw new Error(`${path}: ${examples.length} examples, the release has ${info.size}`);
    }
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
