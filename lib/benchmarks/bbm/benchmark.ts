/**
 * BIG-Bench Mistake as a registered {@link Benchmark}: chain-of-thought traces of five BBH
 * tasks with the first logical mistake annotated. Its runs are mistake-finding answers,
 * classified by `runlens bbm` and notebook 03 (not scored by the row pipeline: a trace is not a
 * question with one target).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbm } from "@runlens/benchmarks/bbm/benchmark.ts";
 * assert.deepEqual(bbm.tasks.map((t) => t.size), [986, 300, 300, 300, 300]);
 * assert.equal(bbm.canonicalTask("Word_Sorting"), "word_sorting");
 * ```
 * @module
 */
import type { Benchmark } from "../types.ts";
import { BBM_TASKS } from "./dataset.ts";

/** Traces per task in the public release (WHGTyen/BIG-Bench-Mistake @ 270683a). */
const SIZES: Record<(typeof BBM_TASKS)[number], number> = {
  dyck_languages: 986,
  logical_deduction: 300,
  multistep_arithmetic: 300,
  tracking_shuffled_objects: 300,
  word_sorting: 300,
};

/** BIG-Bench Mistake. */
export const bbm: Benchmark = {
  name: "bbm",
  label: "BIG-Bench Mistake",
  listOrder: 3,
  description: "BIG-Bench Mistake (Tyen et al. 2024): 2,186 CoT traces of five BBH tasks with " +
    "the first logical mistake annotated (WHGTyen/BIG-Bench-Mistake).",
  data: {
    folder: "big-bench-mistake",
    sources: [
      { repo: "WHGTyen/BIG-Bench-Mistake", commit: "270683a4ecce6f3b22c4ab28a204ab8fa09f2517" },
    ],
    manifest: new URL("./manifest.json", import.meta.url).href,
    dataFiles: ".jsonl",
  },
  tasks: BBM_TASKS.map((name) => ({ name, size: SIZES[name] })),
  canonicalTask: (label) => {
    const name = label.trim().toLowerCase();
    return (BBM_TASKS as readonly string[]).includes(name) ? name : null;
  },
  scorers: [],
};
