/**
 * BIG-Bench Hard: everything that defines it for runlens, in this folder.
 *
 * | module | what |
 * | --- | --- |
 * | `benchmark.ts` | the registered {@link bbh} value |
 * | `tasks.ts`, `dataset.ts` | the 27 tasks (answer formats, random rates, BBEH successors, known defects); the release loader |
 * | `aggregate.ts` | micro over the 6,511 examples |
 * | `scorers/` | the release's CoT and direct rules, lm-evaluation-harness's filters, mcpbr's last line |
 * | `release_outputs.ts`, `release_metrics.ts` | the release's code-davinci-002 outputs and published accuracies |
 * | `compare/` | BBH beside BBEH: Table 10, output lengths (Figure 4), CoT vs direct |
 * | `notebook.ts` | how notebook 04 opens (CoT vs direct on the release) |
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbh, BBH_SIZE, extractBbhCot } from "@runlens/benchmarks/bbh/mod.ts";
 * assert.equal(bbh.defaultScorer, "bbh-release-cot");
 * assert.equal(BBH_SIZE, 6511);
 * assert.equal(extractBbhCot("… So the answer is (C)."), "(C)");
 * ```
 * @module
 */
export * from "./benchmark.ts";
export * from "./tasks.ts";
export * from "./dataset.ts";
export * from "./aggregate.ts";
export * from "./scorers/release_cot.ts";
export * from "./scorers/release_direct.ts";
export * from "./scorers/last_line.ts";
export * from "./scorers/lm_eval/get_answer.ts";
export * from "./scorers/lm_eval/strict.ts";
export * from "./scorers/lm_eval/flexible.ts";
export * from "./release_outputs.ts";
export * from "./release_metrics.ts";
export * from "./compare/cot_vs_direct.ts";
export * from "./compare/table10.ts";
export * from "./compare/output_lengths.ts";
export * from "./compare/pairs.ts";
export * from "./compare/figures.ts";
export * from "./notebook.ts";
