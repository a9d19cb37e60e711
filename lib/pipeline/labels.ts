/**
 * A record's benchmark and task labels as evaluation tools write them, resolved into a
 * registered benchmark's name and a task label its `canonicalTask` reads, through each
 * benchmark's `toolNames`. Log readers keep the tool's labels as they are — an lm-eval task
 * name, an inspect eval and its subtask, an OpenCompass dataset abbreviation — so no reader
 * knows a benchmark. Purely syntactic beyond `canonicalTask`: whether the task is one of the
 * benchmark's is decided when the record is tied to an example (`examples.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoring as bbeh } from "@runlens/benchmarks/bbeh/scoring.ts";
 * import { scoring as bbh } from "@runlens/benchmarks/bbh/scoring.ts";
 * const labels = new Labels([bbeh, bbh]);
 * // an lm-eval samples file names its task once, for both
 * assert.deepEqual(labels.resolve("bbh_cot_fewshot_snarks", "bbh_cot_fewshot_snarks"), {
 *   benchmark: "bbh",
 *   task: "snarks",
 * });
 * // an inspect eval and its subtask
 * assert.deepEqual(labels.resolve("bbeh_mini", "nycc"), { benchmark: "bbeh", task: "nycc" });
 * // a name no benchmark claims stays as written
 * assert.deepEqual(labels.resolve("gsm8k", "gsm8k"), { benchmark: "gsm8k", task: "gsm8k" });
 * ```
 * @module
 */
import type { BenchmarkScoring } from "../benchmarks/types.ts";

/** A record's benchmark (lower case, null: none given) and task ("" : none) labels. */
export interface RecordLabels {
  benchmark: string | null;
  task: string;
}

/** What labels need of a benchmark. */
type Named = Pick<BenchmarkScoring, "name" | "canonicalTask" | "toolNames">;

/** Resolves records' labels against some benchmarks (registry order breaks ties). */
export class Labels {
  readonly #benchmarks: readonly Named[];
  /** Each benchmark by its name and aliases, lower case. */
  readonly #byName = new Map<string, Named>();

  constructor(benchmarks: readonly Named[]) {
    this.#benchmarks = benchmarks;
    for (const b of benchmarks) {
      for (const name of [b.name, ...b.toolNames?.aliases ?? []]) {
        if (!this.#byName.has(name.toLowerCase())) this.#byName.set(name.toLowerCase(), b);
      }
    }
  }

  /**
   * The benchmark a `benchmark` label names (its name or an alias), with the task of `task`
   * if one of its patterns matches; without one, a `task` label that is the same tool label
   * (or there is no `benchmark` label) names the benchmark whose pattern matches it. Labels
   * nothing matches come back as they are.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * const toy = { name: "toy", canonicalTask: (l: string) => (l === "add" ? l : null),
   *   toolNames: { aliases: ["toy_mini"], tasks: [/^toy[-_](?<task>.+)$/] } };
   * const labels = new Labels([toy]);
   * assert.deepEqual(labels.resolve(null, "toy-add"), { benchmark: "toy", task: "add" });
   * assert.deepEqual(labels.resolve("toy_mini", "toy-add"), { benchmark: "toy", task: "add" });
   * // a benchmark label of its own is not overridden by the task's pattern
   * assert.deepEqual(labels.resolve("other", "toy-add"), { benchmark: "other", task: "toy-add" });
   * ```
   */
  resolve(benchmark: string | null, task: string): RecordLabels {
    const named = benchmark === null ? undefined : this.#byName.get(benchmark.toLowerCase());
    if (named) return { benchmark: named.name, task: this.#taskOf([named], task)?.task ?? task };
    const sameLabel = benchmark === null || benchmark.toLowerCase() === task.trim().toLowerCase();
    return (sameLabel ? this.#taskOf(this.#benchmarks, task) : null) ?? { benchmark, task };
  }

  /** The first pattern match whose task `canonicalTask` knows, else the first match. */
  #taskOf(benchmarks: readonly Named[], label: string): RecordLabels | null {
    let first: RecordLabels | null = null;
    for (const b of benchmarks) {
      for (const pattern of b.toolNames?.tasks ?? []) {
        const task = pattern.exec(label.trim())?.groups?.task;
        if (task === undefined) continue;
        if (b.canonicalTask(task) !== null) return { benchmark: b.name, task };
        first ??= { benchmark: b.name, task };
      }
    }
    return first;
  }
}
