/**
 * The BBEH release's examples, read without polars (what the streaming path's Workers load):
 * where the release is ({@link findBbehRelease}), one task file with its size checked
 * ({@link readBbehTask}) and all 23 tasks as an {@link ExampleSet} ({@link readBbehExamples}).
 * `dataset.ts` builds the polars data set from that example set, never reading the files again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const examples = readBbehExamples(resolveDataDir()); // $RUNLENS_DATA, else .runlens/data
 * assert.equal(Object.keys(examples).length, 23);
 * assert.equal(Object.values(examples).reduce((n, xs) => n + xs.length, 0), 4520);
 * ```
 * @module
 */
import { join } from "node:path";
import { exists, FETCH_HINT } from "../../core/data_dir.ts";
import {
  lazyTasks,
  readTaskFile,
  requireTaskFile,
  type TaskFileExample,
} from "../../core/task_file.ts";
import type { ExampleSet } from "../types.ts";
import { BBEH_TASKS, type BbehTaskInfo } from "./tasks.ts";

/**
 * Find the BBEH release under `dir`: accepts the data root (holding `bbeh/`), the release
 * itself (holding `bbeh/benchmark_tasks`) or its inner folder (holding `benchmark_tasks`).
 * Returns the folder that holds `benchmark_tasks/` and `mini/`; throws a clear error otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const dir = resolveDataDir();
 * assert.equal(findBbehRelease(dir), join(dir, "bbeh", "bbeh")); // from the data root
 * assert.equal(findBbehRelease(join(dir, "bbeh", "bbeh")), join(dir, "bbeh", "bbeh"));
 * assert.throws(() => findBbehRelease("/no/such/dir"), /does not exist/);
 * ```
 */
export function findBbehRelease(dir: string): string {
  if (!exists(dir)) {
    throw new Error(`data directory ${dir} does not exist; ${FETCH_HINT}`);
  }
  const candidates = [join(dir, "bbeh", "bbeh"), join(dir, "bbeh"), dir];
  for (const c of candidates) {
    if (exists(join(c, "benchmark_tasks"))) return c;
  }
  throw new Error(
    `${dir} is not a BBEH release: expected bbeh/bbeh/benchmark_tasks/bbeh_<task>/task.json ` +
      `under it; ${FETCH_HINT}`,
  );
}

/**
 * The examples of one task file of a release folder ({@link findBbehRelease}), as the file
 * holds them (spatial_reasoning items also carry `subtask`). Throws when the file is missing
 * or malformed, or when the task has another size than the release.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { bbehTask } from "@runlens/benchmarks/bbeh/tasks.ts";
 * const release = findBbehRelease(resolveDataDir());
 * const nycc = readBbehTask(release, bbehTask("nycc"));
 * assert.equal(nycc.length, 200);
 * assert.equal(typeof nycc[0].target, "string");
 * ```
 */
export function readBbehTask(release: string, info: BbehTaskInfo): TaskFileExample[] {
  const path = bbehTaskPath(release, info);
  const examples = readTaskFile(path, "BBEH");
  if (examples.length !== info.size) {
    throw new Error(`${path}: ${examples.length} examples, the release has ${info.size}`);
  }
  return examples;
}

/** Where a task's file is in a release folder. */
function bbehTaskPath(release: string, info: BbehTaskInfo): string {
  return join(release, "benchmark_tasks", `bbeh_${info.name}`, "task.json");
}

/**
 * The released examples of all 23 tasks (input and target, in task-file order; the
 * spatial_reasoning items' `subtask` as `subset`) from a data directory (any folder
 * {@link findBbehRelease} accepts). Throws naming a missing file; each task's file is read when
 * the task is first used (a bad file throws then, naming it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const examples = readBbehExamples(resolveDataDir());
 * assert.deepEqual(Object.keys(examples.boardgame_qa[0]), ["input", "target"]);
 * assert.equal(examples.spatial_reasoning.filter((ex) => ex.subset).length, 29);
 * ```
 */
export function readBbehExamples(dataDir: string): ExampleSet {
  const release = findBbehRelease(dataDir);
  const byName = new Map(BBEH_TASKS.map((info) => [info.name as string, info]));
  for (const info of BBEH_TASKS) requireTaskFile(bbehTaskPath(release, info), "BBEH");
  return lazyTasks(
    [...byName.keys()],
    (name) =>
      readBbehTask(release, byName.get(name)!).map(({ input, target, subtask }) =>
        typeof subtask === "string" ? { input, target, subset: subtask } : { input, target }
      ),
  );
}
