/**
 * The BBEH release as a polars DataFrame: one row per example of the 23 task files.
 *
 * Columns: `task`, `example_index` (0-based position in task.json), `input`, `target`,
 * `input_chars` (code points), `in_mini` (stride rule, cross-checked against mini/data.json),
 * `release_subtask` (the `subtask` field 29 spatial_reasoning items carry), and flags for the
 * known bad items, found from the data rather than listed by hand:
 * - `ambiguous_duplicate`: the same input appears with different targets in the task
 *   (linguini 41, 121, 139, 146, 157, 159, 185);
 * - `repeated_example`: an exact repeat (same input and target) of an earlier item (spatial 71);
 * - `unmatchable_target`: the official scorer rejects the target stated verbatim after
 *   "The answer is: " (11 linguini targets ending in ".").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * const ds = loadBbehDataset(resolveDataDir()); // $RUNLENS_DATA, else .runlens/data
 * assert.equal(ds.height, 4520);
 * const count = (flag: string) => ds.filter(pl.col(flag)).height;
 * assert.equal(count("in_mini"), 460);
 * assert.equal(count("ambiguous_duplicate"), 7);
 * assert.equal(count("repeated_example"), 1);
 * assert.equal(count("unmatchable_target"), 11);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { join } from "node:path";
import { columnsFrame, exampleColumns } from "../../core/example_frame.ts";
import { readTaskFile } from "../../core/task_file.ts";
import type { ExampleSet } from "../types.ts";
import { findBbehRelease, readBbehExamples } from "./examples.ts";
import { BBEH_MINI_SIZE, BBEH_TASKS, inMiniByStride } from "./tasks.ts";
import { bbehOfficial } from "./scorer.ts";

/** Where the release is: see `examples.ts` (re-exported here, where it used to live). */
export { findBbehRelease };

const cache = new Map<string, pl.DataFrame>();

/**
 * Load all 23 task files (and check BBEH Mini) from a data directory. Cached per directory.
 * Throws when a task file is missing or malformed, when a task has an unexpected size, or when
 * mini/data.json disagrees with the stride rule.
 */
export function loadBbehDataset(dataDir: string): pl.DataFrame {
  return bbehDatasetFrame(readBbehExamples(dataDir), dataDir);
}

/**
 * The data set's frame from its examples already read (`readBbehExamples`: the pipeline's
 * data sets read them once, `pipeline/data_sets.ts`), with the columns of the module doc;
 * cached per release folder, where BBEH Mini (`mini/data.json`) is checked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { readBbehExamples } from "@runlens/benchmarks/bbeh/examples.ts";
 * const ds = bbehDatasetFrame(readBbehExamples(resolveDataDir()), resolveDataDir());
 * assert.equal(ds.getColumn("release_subtask").dropNulls().length, 29);
 * ```
 */
export function bbehDatasetFrame(examples: ExampleSet, dataDir: string): pl.DataFrame {
  const release = findBbehRelease(dataDir);
  const hit = cache.get(release);
  if (hit) return hit;
  const tasks = BBEH_TASKS.map((t) => t.name as string);
  const cols = {
    ...exampleColumns(examples, tasks),
    in_mini: [] as boolean[],
    release_subtask: [] as (string | null)[],
    ambiguous_duplicate: [] as boolean[],
    repeated_example: [] as boolean[],
    unmatchable_target: [] as boolean[],
  };
  for (const task of tasks) {
    const xs = examples[task];
    const byInput = new Map<string, number[]>();
    xs.forEach((ex, i) => byInput.set(ex.input, [...(byInput.get(ex.input) ?? []), i]));
    xs.forEach((ex, i) => {
      const same = byInput.get(ex.input)!;
      const targets = new Set(same.map((j) => xs[j].target));
      cols.in_mini.push(inMiniByStride(task, i));
      cols.release_subtask.push(ex.subset ?? null);
      cols.ambiguous_duplicate.push(targets.size > 1);
      cols.repeated_example.push(same.some((j) => j < i && xs[j].target === ex.target));
      cols.unmatchable_target.push(!bbehOfficial(`The answer is: ${ex.target}`, ex.target).correct);
    });
  }
  const df = columnsFrame(cols).withColumns(
    pl.Series("in_mini", cols.in_mini, pl.Bool),
    pl.Series("release_subtask", cols.release_subtask, pl.Utf8),
    pl.Series("ambiguous_duplicate", cols.ambiguous_duplicate, pl.Bool),
    pl.Series("repeated_example", cols.repeated_example, pl.Bool),
    pl.Series("unmatchable_target", cols.unmatchable_target, pl.Bool),
  );
  checkMini(release, cols);
  cache.set(release, df);
  return df;
}

/**
 * Cross-check BBEH Mini: every mini/data.json example must be, by (input, target), exactly one
 * full-set example at a stride position, and the stride positions must all be in Mini.
 */
function checkMini(
  release: string,
  cols: {
    task: string[];
    example_index: number[];
    input: string[];
    target: string[];
    in_mini: boolean[];
  },
): void {
  const path = join(release, "mini", "data.json");
  const mini = readTaskFile(path, "BBEH");
  const where = new Map<string, number[]>();
  cols.input.forEach((input, r) => {
    const key = JSON.stringify([input, cols.target[r]]);
    where.set(key, [...(where.get(key) ?? []), r]);
  });
  const seen = new Set<number>();
  mini.forEach((ex, i) => {
    const rows = where.get(JSON.stringify([ex.input, ex.target])) ?? [];
    const strideRows = rows.filter((r) => cols.in_mini[r]);
    if (strideRows.length !== 1) {
      const found = rows.map((r) => `${cols.task[r]}[${cols.example_index[r]}]`).join(", ");
      throw new Error(
        `${path}: example ${i} should be exactly one full-set example at a Mini stride ` +
          `position (index ≡ 9 mod 10, disambiguation_qa ≡ 5 mod 6); found ${found || "none"}`,
      );
    }
    seen.add(strideRows[0]);
  });
  const expected = cols.in_mini.filter((x) => x).length;
  if (mini.length !== BBEH_MINI_SIZE || seen.size !== expected || expected !== BBEH_MINI_SIZE) {
    throw new Error(
      `${path}: ${mini.length} examples matching ${seen.size} distinct stride positions; ` +
        `expected ${BBEH_MINI_SIZE} = the ${expected} stride positions`,
    );
  }
}
