/**
 * BIG-Bench Extra Hard: everything that defines it for runlens, in this folder.
 *
 * | module | what |
 * | --- | --- |
 * | `benchmark.ts` | the registered {@link bbeh} value |
 * | `tasks.ts`, `dataset.ts` | the 23 tasks; the release loader (4,520 examples, Mini flags, known bad items) |
 * | `scorer.ts`, `official_scorer.ts` | the official scorer, ported rule by rule |
 * | `aggregate.ts` | per-task accuracy, harmonic mean, micro, Mini micro |
 * | `published.ts`, `leaderboard.ts`, `gain.ts`, `input_lengths.ts`, `figures.ts` | the paper's tables and figures |
 * | `subsets.ts`, `subsets/` | subset labels inside tasks |
 * | `failure/` | the failure-mode analyses of Section 5 and Appendix A |
 * | `lengths.ts` | response lengths and gain vs length (Figure 7) |
 * | `bbm_link.ts`, `mistake_log.ts` | the first-mistake items and their BIG-Bench Mistake traces |
 * | `synthetic/` | the seeded synthetic demo runs |
 * | `notebook.ts` | how notebooks 01 and 02 open (their headline) |
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbeh, harmonicMeanPlusOne } from "@runlens/benchmarks/bbeh/mod.ts";
 * assert.equal(bbeh.tasks.length, 23);
 * harmonicMeanPlusOne([0, 100]); // 1.98… = 2 / (1/1 + 1/101)
 * assert.equal(harmonicMeanPlusOne([0, 100]), 2 / (1 / 1 + 1 / 101));
 * ```
 * @module
 */
export * from "./benchmark.ts";
export * from "./tasks.ts";
export * from "./dataset.ts";
export * from "./scorer.ts";
export * from "./official_scorer.ts";
export * from "./aggregate.ts";
export * from "./published.ts";
export * from "./leaderboard.ts";
export * from "./gain.ts";
export * from "./input_lengths.ts";
export * from "./figures.ts";
export * from "./subsets.ts";
export * from "./lengths.ts";
export * from "./bbm_link.ts";
export * from "./mistake_log.ts";
export * from "./failure/summary.ts";
export * from "./failure/headline.ts";
export * from "./failure/paper.ts";
export * from "./failure/figures.ts";
export * from "./failure/shares.ts";
export * from "./synthetic/generate.ts";
export * from "./synthetic/paper_demo.ts";
export * from "./synthetic/spec.ts";
export * from "./notebook.ts";
