/**
 * BIG-Bench Mistake: everything that defines it for runlens, in this folder.
 *
 * | module | what |
 * | --- | --- |
 * | `benchmark.ts` | the registered {@link bbm} value |
 * | `dataset.ts`, `traces.ts` | the 2,186 traces; per-task summaries and first-mistake positions |
 * | `runs.ts`, `extract.ts`, `classify.ts`, `metrics.ts` | mistake-finding runs: read, extract the step, classify, measure |
 * | `figures.ts` | the figures of notebook 03 |
 * | `notebook.ts` | how notebook 03 opens (the data set summary) |
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbm, extractMistakeAnswer } from "@runlens/benchmarks/bbm/mod.ts";
 * assert.equal(bbm.tasks.length, 5);
 * assert.equal(extractMistakeAnswer("Thought 4 is wrong. The answer is: 4"), "4");
 * ```
 * @module
 */
export * from "./benchmark.ts";
export * from "./dataset.ts";
export * from "./traces.ts";
export * from "./runs.ts";
export * from "./extract.ts";
export * from "./classify.ts";
export * from "./metrics.ts";
export * from "./figures.ts";
export * from "./notebook.ts";
