/**
 * Task hints from file and folder names (issue 14, item 1): logs written by people's own
 * scripts are often one file per task, named after it — `samples_bbh_cot_fewshot_navigate_…`,
 * `geometric_shapes-zero-shot-cot.jsonl`, `navigate_few_shot_template_0-255000.csv`,
 * `bbeh_nycc/run.jsonl`. The file name is read first, then its folder, then the folder above:
 * the first of them that names a known task gives the hint when it names exactly one (names
 * inside a longer matched name do not count: `tracking_shuffled_objects_five_objects` is a BBH
 * task, not BBEH's `shuffled_objects`). A benchmark name among the path's last components
 * (`bbh`, `bbeh`) tells the benchmark; else the task's name does when only one benchmark has
 * it. The hint is checked against each record's content by `examples.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const bench = (name: string, tasks: string[]) => ({ name, tasks: tasks.map((t) => ({ name: t })) });
 * const known = [bench("bbeh", ["shuffled_objects", "geometric_shapes"]),
 *   bench("bbh", ["tracking_shuffled_objects_five_objects", "geometric_shapes", "navigate"])];
 * assert.deepEqual(taskHintOf("runs/geometric_shapes-zero-shot-cot.jsonl", known),
 *   { benchmark: null, task: "geometric_shapes" });
 * assert.deepEqual(taskHintOf("bbeh/gpt/geometric_shapes.jsonl", known),
 *   { benchmark: "bbeh", task: "geometric_shapes" });
 * assert.deepEqual(taskHintOf("x/tracking_shuffled_objects_five_objects.csv", known),
 *   { benchmark: "bbh", task: "tracking_shuffled_objects_five_objects" });
 * assert.equal(taskHintOf("runs/navigate_vs_geometric_shapes.jsonl", known), null); // two
 * assert.deepEqual(taskHintOf("bbh_navigate/out.jsonl", known), { benchmark: "bbh", task: "navigate" });
 * ```
 * @module
 */
import { basename, dirname } from "node:path";

/** What the hints need of a benchmark: its name and its tasks' names. */
export interface HintBenchmark {
  name: string;
  tasks: readonly { name: string; display?: string }[];
}

/** A task (and benchmark, when the path says) named by a path. */
export interface TaskHint {
  benchmark: string | null;
  task: string;
}

/** How many path components (file, folder, folder above) are read. */
const COMPONENTS = 3;

/** The hint of the log at `path` (its name without `.gz`), or null when none is certain. */
export function taskHintOf(path: string, benchmarks: readonly HintBenchmark[]): TaskHint | null {
  const parts = components(path);
  const benchmark = benchmarkNamed(parts, benchmarks);
  const scope = benchmark === null ? benchmarks : benchmarks.filter((b) => b.name === benchmark);
  for (const part of parts) {
    const names = tasksNamed(part, scope);
    if (names.size === 0) continue;
    if (names.size > 1) return null;
    const [task] = names;
    const owners = scope.filter((b) => b.tasks.some((t) => labels(t).includes(task)));
    return { benchmark: benchmark ?? (owners.length === 1 ? owners[0].name : null), task };
  }
  return null;
}

/** The last {@link COMPONENTS} components of `path`, normalised, the file's stem first. */
function components(path: string): string[] {
  const out = [normalise(basename(path).replace(/\.gz$/i, "").replace(/\.[^.]*$/, ""))];
  let dir = dirname(path);
  while (out.length < COMPONENTS && dir !== "." && dir !== "/" && basename(dir) !== "") {
    out.push(normalise(basename(dir)));
    dir = dirname(dir);
  }
  return out;
}

/** Lower case, every run of other characters one `_`, with `_` at both ends (boundaries). */
function normalise(s: string): string {
  return `_${s.toLowerCase().replace(/[^a-z0-9]+/g, "_")}_`;
}

/** The names a task is written as in paths. */
function labels(t: { name: string; display?: string }): string[] {
  const out = [t.name.toLowerCase()];
  if (t.display) out.push(normalise(t.display).slice(1, -1));
  return out;
}

/** The benchmark named by a whole token of the components, when exactly one is. */
function benchmarkNamed(parts: readonly string[], benchmarks: readonly HintBenchmark[]) {
  const named = benchmarks.filter((b) => parts.some((p) => p.includes(`_${b.name}_`)));
  return named.length === 1 ? named[0].name : null;
}

/** The task labels a component names, leaving out those inside a longer match. */
function tasksNamed(part: string, benchmarks: readonly HintBenchmark[]): Set<string> {
  const hits: { label: string; start: number; end: number }[] = [];
  for (const b of benchmarks) {
    for (const t of b.tasks) {
      for (const label of labels(t)) {
        for (
          let at = part.indexOf(`_${label}_`);
          at >= 0;
          at = part.indexOf(`_${label}_`, at + 1)
        ) {
          hits.push({ label, start: at + 1, end: at + 1 + label.length });
        }
      }
    }
  }
  const inside = (h: typeof hits[0]) =>
    hits.some((o) => o.end - o.start > h.end - h.start && o.start <= h.start && h.end <= o.end);
  return new Set(hits.filter((h) => !inside(h)).map((h) => h.label));
}
