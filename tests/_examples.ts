/**
 * Test helpers: the BBH and BBEH released examples as {@link ExampleSet}s and a polars-free
 * {@link BenchmarkScoring} for each, read straight from the task files of a data directory
 * (what the benchmarks' own `scoring.ts` parts will provide; these stand in for them in the
 * identification tests).
 *
 * @example Not run as a doc test (needs the data directory)
 * ```ts ignore
 * import { ExampleIndex } from "@runlens/pipeline/examples.ts";
 * const index = new ExampleIndex(scoredBenchmarks(TEST_DATA_DIR));
 * ```
 * @module
 */
import { join } from "node:path";
import { readTaskFile } from "@runlens/core/task_file.ts";
import { BBEH_TASKS, canonicalBbehTask } from "@runlens/benchmarks/bbeh/tasks.ts";
import { BBH_KNOWN_ISSUES, BBH_TASKS, canonicalBbhTask } from "@runlens/benchmarks/bbh/tasks.ts";
import { BBH_DATA_VERSIONS } from "@runlens/benchmarks/bbh/versions.ts";
import type { BenchmarkScoring, ExampleSet } from "@runlens/benchmarks/types.ts";

/** The 27 BBH task files (`bbh/bbh/<task>.json`) of a data directory. */
export function readBbhExamples(dataDir: string): ExampleSet {
  return Object.fromEntries(
    BBH_TASKS.map((t) => [
      t.name,
      readTaskFile(join(dataDir, "bbh", "bbh", `${t.name}.json`), "BBH")
        .map(({ input, target }) => ({ input, target })),
    ]),
  );
}

/** The 23 BBEH task files (`bbeh/bbeh/benchmark_tasks/bbeh_<task>/task.json`). */
export function readBbehExamples(dataDir: string): ExampleSet {
  return Object.fromEntries(
    BBEH_TASKS.map((t) => [
      t.name,
      readTaskFile(
        join(dataDir, "bbeh", "bbeh", "benchmark_tasks", `bbeh_${t.name}`, "task.json"),
        "BBEH",
      ).map(({ input, target }) => ({ input, target })),
    ]),
  );
}

/** BBEH's polars-free part, as identification uses it. */
export const BBEH_SCORING: BenchmarkScoring = {
  name: "bbeh",
  label: "BBEH",
  tasks: BBEH_TASKS.map(({ name, display, size }) => ({ name, display, size })),
  canonicalTask: canonicalBbehTask,
  readExamples: readBbehExamples,
  defaultScorer: "bbeh-official",
  scorers: [],
};

/** BBH's polars-free part: the truncated snarks item and the lm-eval version of three items. */
export const BBH_SCORING: BenchmarkScoring = {
  name: "bbh",
  label: "BBH",
  tasks: BBH_TASKS.map(({ name, size }) => ({ name, size })),
  canonicalTask: canonicalBbhTask,
  readExamples: readBbhExamples,
  truncatedInputs: BBH_KNOWN_ISSUES.filter((k) => k.truncatedInput),
  dataVersions: BBH_DATA_VERSIONS,
  defaultScorer: "bbh-release-cot",
  scorers: [],
};

const cache = new Map<string, { scoring: BenchmarkScoring; examples: ExampleSet }[]>();

/** BBEH and BBH (in registry order) with their examples from `dataDir` (cached). */
export function scoredBenchmarks(
  dataDir: string,
): { scoring: BenchmarkScoring; examples: ExampleSet }[] {
  let hit = cache.get(dataDir);
  if (!hit) {
    hit = [BBEH_SCORING, BBH_SCORING].map((scoring) => ({
      scoring,
      examples: scoring.readExamples(dataDir),
    }));
    cache.set(dataDir, hit);
  }
  return hit;
}
