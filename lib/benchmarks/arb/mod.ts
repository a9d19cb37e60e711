/**
 * ARB: everything that defines it for runlens, in this folder.
 *
 * | module | what |
 * | --- | --- |
 * | `benchmark.ts` | the registered {@link arb} value |
 * | `fields.ts`, `scoring.ts` | how its record fields are read; its scoring part (tied by id, one scorer) |
 * | `runs.ts`, `command.ts` | its part of a load; `runlens arb` |
 * | `score.ts`, `answer.ts`, `mcq.ts`, `numerical.ts`, `symbolic.ts`, `cas.ts` | scoring by answer type |
 * | `accuracy.ts`, `annotations.ts`, `rubric_scores.ts`, `report.ts`, `figures.ts` | the paper's analyses |
 * | `notebook.ts` | how notebook 05 opens (accuracy; the ARB logs of the logs directory) |
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arb, extractAnswer, scoreArbResponse } from "@runlens/benchmarks/arb/mod.ts";
 * assert.equal(arb.tasks.length, 5);
 * assert.equal(extractAnswer("… ANSWER: 42"), "42");
 * assert.equal(scoreArbResponse("numerical", "42", "… ANSWER: 42.1 J").correct, true);
 * ```
 * @module
 */
export * from "./benchmark.ts";
export * from "./answer_types.ts";
export * from "./fields.ts";
export * from "./runs.ts";
export * from "./score.ts";
export * from "./answer.ts";
export * from "./accuracy.ts";
export * from "./annotations.ts";
export * from "./rubric_scores.ts";
export * from "./report.ts";
export * from "./figures.ts";
export * from "./notebook.ts";
