/**
 * The BBH release's examples, read without polars (what the streaming path's Workers load):
 * where the task files are ({@link findBbhTaskDir}), one task file ({@link readBbhTaskFile},
 * {@link readBbhTask} with its size checked) and all 27 tasks as an {@link ExampleSet}
 * ({@link readBbhExamples}). `dataset.ts` builds the polars data set from the same functions.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const examples = readBbhExamples(resolveDataDir()); // $RUNLENS_DATA, else .runlens/data
 * assert.equal(Object.keys(examples).length, 27);
 * assert.equal(Object.values(examples).reduce((n, xs) => n + xs.length, 0), 6511);
 * ```
 * @module
 */
import { join } from "node:path";
import { exists, FETCH_HINT } from "../../core/data_dir.ts";
import { lazyTasks, readTaskFile, requireTaskFile } from "../../core/task_file.ts";
import type { ExampleSet } from "../types.ts";
import { BBH_TASKS, type BbhTaskInfo } from "./tasks.ts";

/**
 * One example of a BBH task file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { bbhTask } from "@runlens/benchmarks/bbh/tasks.ts";
 * const [first]: BbhExample[] = readBbhTask(findBbhTaskDir(resolveDataDir()), bbhTask("navigate"));
 * assert.ok(["Yes", "No"].includes(first.target));
 * ```
 */
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

/**
 * The examples of one task in the task folder ({@link findBbhTaskDir}); throws when the file is
 * missing or malformed, or when the task has another size than the release.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { bbhTask } from "@runlens/benchmarks/bbh/tasks.ts";
 * const taskDir = findBbhTaskDir(resolveDataDir());
 * assert.equal(readBbhTask(taskDir, bbhTask("penguins_in_a_table")).length, 146);
 * ```
 */
export function readBbhTask(taskDir: string, info: BbhTaskInfo): BbhExample[] {
  const path = bbhTaskPath(taskDir, info);
  const examples = readBbhTaskFile(path);
  if (examples.length !== info.size) {
    throw new Error(`${path}: ${examples.length} examples, the release has ${info.size}`);
  }
  return examples;
}

/** Where a task's file is in the task folder. */
function bbhTaskPath(taskDir: string, info: BbhTaskInfo): string {
  return join(taskDir, `${info.name}.json`);
}

/**
 * The released examples of all 27 tasks (input and target, in task-file order) from a data
 * directory (any folder {@link findBbhTaskDir} accepts). Throws naming a missing file; each
 * task's file is read when the task is first used (a bad file throws then, naming it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const examples = readBbhExamples(resolveDataDir());
 * assert.equal(examples.snarks.length, 178);
 * assert.deepEqual(Object.keys(examples.snarks[0]), ["input", "target"]);
 * ```
 */
export function readBbhExamples(dataDir: string): ExampleSet {
  const taskDir = findBbhTaskDir(dataDir);
  const byName = new Map(BBH_TASKS.map((info) => [info.name as string, info]));
  for (const info of BBH_TASKS) requireTaskFile(bbhTaskPath(taskDir, info), "BBH");
  return lazyTasks(
    [...byName.keys()],
    (name) =>
      readBbhTask(taskDir, byName.get(name)!).map(({ input, target }) => ({ input, target })),
  );
}
