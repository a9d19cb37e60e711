/**
 * BIG-Bench Mistake: everything that defines it for runlens, in this folder.
 *
 * | module | what |
 * | --- | --- |
 * | `benchmark.ts` | the registered {@link bbm} value |
 * | `dataset.ts`, `traces.ts` | the 2,186 traces; per-task summaries and first-mistake positions |
 * | `release.ts`, `examples.ts` | the release's files (no polars); its traces as examples of the pipeline |
 * | `scoring.ts`, `scorers.ts`, `numbering.ts`, `aggregate.ts` | scoring part: one scorer per step numbering, no default |
 * | `extract.ts`, `classify.ts`, `metrics.ts`, `mistake_finding.ts` | mistake-finding answers: extract the step, classify, measure |
 * | `command.ts` | `runlens bbm` |
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
export * from "./extract.ts";
export * from "./classify.ts";
export * from "./numbering.ts";
export * from "./examples.ts";
export * from "./scorers.ts";
export * from "./aggregate.ts";
export * from "./mistake_finding.ts";
export * from "./release.ts";
export * from "./metrics.ts";
export * from "./figures.ts";
export * from "./notebook.ts";
