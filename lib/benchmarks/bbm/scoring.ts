/**
 * The polars-free scoring part of BIG-Bench Mistake ({@link BenchmarkScoring}), which scoring
 * Workers import by URL: its five tasks, its traces as examples (`examples.ts`), how its
 * records name a trace (`trace_index`, the 0-based line of the task file), and its two
 * scorers — one per step numbering, with no default: the numbering is never guessed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(scoring.canonicalTask(" Word_Sorting "), "word_sorting");
 * assert.equal(scoring.defaultScorer, undefined); // the user states the numbering
 * assert.deepEqual(scoring.scorers.map((s) => s.name), ["bbm-one-based", "bbm-zero-based"]);
 * ```
 * @module
 */
import type { BenchmarkScoring } from "../types.ts";
import { readBbmExamples } from "./examples.ts";
import { BBM_TASKS } from "./release.ts";
import { bbmOneBased, bbmZeroBased } from "./scorers.ts";

/** Traces per task in the public release (WHGTyen/BIG-Bench-Mistake @ 270683a). */
const SIZES: Record<(typeof BBM_TASKS)[number], number> = {
  dyck_languages: 986,
  logical_deduction: 300,
  multistep_arithmetic: 300,
  tracking_shuffled_objects: 300,
  word_sorting: 300,
};

/** BIG-Bench Mistake's scoring part. */
export const scoring: BenchmarkScoring = {
  name: "bbm",
  label: "BIG-Bench Mistake",
  tasks: BBM_TASKS.map((name) => ({ name, size: SIZES[name] })),
  canonicalTask: (label) => {
    const name = label.trim().toLowerCase();
    return (BBM_TASKS as readonly string[]).includes(name) ? name : null;
  },
  readExamples: readBbmExamples,
  // a record naming a trace is a BBM answer; BBEH's copies of these traces use example_index
  recordFields: [{ name: "trace_index", as: "example_index", implies: true }],
  // an answer the model never gave is a wrong answer (no_answer), not a lost row
  nullResponse: "row",
  scorers: [bbmOneBased, bbmZeroBased],
};
