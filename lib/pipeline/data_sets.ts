/**
 * The data sets of one load, each read ONCE ({@link DataSets}): a benchmark's released
 * examples (`readExamples`, whose task files are parsed when a task is first used) and its
 * frame, derived from those same examples (`Benchmark.datasetFrame`, else the five columns of
 * `core/example_frame.ts`). The load plan makes one (`load_plan.ts`); in-thread scoring,
 * planning by content, the rows' examples (`rows_frame.ts`), advice and the analyses read it.
 * Each scoring Worker, a separate isolate, still reads the tasks its records need: that cannot
 * be shared.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const data = new DataSets(resolveDataDir());
 * assert.equal(data.examples("bbh").snarks.length, 178);
 * assert.equal(data.examples("bbh"), data.examples("bbh")); // read once
 * const frame = data.frame("bbh");
 * assert.equal(frame.height, 6511);
 * assert.equal(data.frame("bbh"), frame);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { getBenchmark } from "../benchmarks/registry.ts";
import type { Benchmark, DataSetsView, ExampleSet } from "../benchmarks/types.ts";
import { EXAMPLE_COLUMNS, exampleFrame } from "../core/example_frame.ts";

/** The data sets of one load, read on first use and kept (see the module doc). */
export class DataSets implements DataSetsView {
  readonly #examples = new Map<string, ExampleSet>();
  readonly #frames = new Map<string, pl.DataFrame>();

  constructor(readonly dataDir: string) {}

  /** A registered benchmark's released examples; throws naming a missing or bad file. */
  examples(benchmark: string): ExampleSet {
    let set = this.#examples.get(benchmark);
    if (set === undefined) {
      const b = registered(benchmark);
      if (!b.readExamples) throw new Error(`${b.label} has no released data set to read`);
      set = b.readExamples(this.dataDir);
      this.#examples.set(benchmark, set);
    }
    return set;
  }

  /**
   * Drop the example sets whose frame was made (the frame holds the same texts, natively):
   * what a finished load keeps, so that its data sets cost no JavaScript heap once scored. A
   * later {@link examples} of such a benchmark reads its files again.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { resolveDataDir } from "@runlens/core/data_dir.ts";
   * const data = new DataSets(resolveDataDir());
   * const examples = data.examples("bbh");
   * const frame = data.frame("bbh");
   * data.release();
   * assert.equal(data.frame("bbh"), frame); // kept
   * assert.notEqual(data.examples("bbh"), examples); // read again
   * ```
   */
  release(): void {
    for (const b of this.#frames.keys()) this.#examples.delete(b);
  }

  /**
   * Its examples of `tasks`, five columns: from its frame when made, else from the examples of
   * those tasks alone — a load's advice reads a handful of examples, and BBEH's whole frame
   * took 115 ms and 65 MB of a one-line load.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { resolveDataDir } from "@runlens/core/data_dir.ts";
   * const data = new DataSets(resolveDataDir());
   * const some = data.tasksFrame("bbh", ["snarks"]);
   * assert.equal(some.height, 178);
   * assert.deepEqual(some.columns, ["task", "example_index", "input", "target", "input_chars"]);
   * ```
   */
  tasksFrame(benchmark: string, tasks: readonly string[]): pl.DataFrame {
    const made = this.#frames.get(benchmark);
    if (made !== undefined) {
      return made.filter(pl.col("task").isIn([...tasks])).select(...EXAMPLE_COLUMNS);
    }
    const examples = this.examples(benchmark);
    return exampleFrame(examples, tasks.filter((t) => Object.hasOwn(examples, t)));
  }

  /** Its examples as a frame (its own `datasetFrame`, else the five columns), made once. */
  frame(benchmark: string): pl.DataFrame {
    let frame = this.#frames.get(benchmark);
    if (frame === undefined) {
      const b = registered(benchmark);
      const examples = this.examples(benchmark);
      frame = b.datasetFrame?.(examples, this.dataDir) ??
        exampleFrame(examples, taskOrder(b, examples));
      this.#frames.set(benchmark, frame);
    }
    return frame;
  }
}

/** The benchmark registered under `name`; throws when there is none. */
function registered(name: string): Benchmark {
  const b = getBenchmark(name);
  if (!b) throw new Error(`no benchmark named "${name}" is registered`);
  return b;
}

/** Its tasks in release order, then any others its examples hold. */
function taskOrder(b: Benchmark, examples: ExampleSet): string[] {
  const names = b.tasks.map((t) => t.name).filter((t) => Object.hasOwn(examples, t));
  return [...names, ...Object.keys(examples).filter((t) => !names.includes(t))];
}
