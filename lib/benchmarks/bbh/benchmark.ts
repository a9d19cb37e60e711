/**
 * BIG-Bench Hard as a registered {@link Benchmark}: 27 tasks, the release's 6,511 examples,
 * the release's CoT rule as the default scorer, and the rules of the tools that score BBH
 * (the release's direct rule, lm-evaluation-harness's filters, mcpbr's last line).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbh } from "@runlens/benchmarks/bbh/benchmark.ts";
 * assert.equal(bbh.tasks.length, 27);
 * assert.equal(bbh.defaultScorer, "bbh-release-cot");
 * assert.deepEqual(bbh.scorers.map((s) => s.name), [
 *   "bbh-release-cot",
 *   "bbh-release-direct",
 *   "lm-eval-get-answer",
 *   "lm-eval-strict",
 *   "lm-eval-flexible",
 *   "last-line",
 * ]);
 * assert.equal(bbh.canonicalTask("leaderboard_bbh_navigate"), "navigate");
 * ```
 * @module
 */
import type { Benchmark } from "../types.ts";
import { type BbhAggregate, bbhAggregate, bbhIntervals } from "./aggregate.ts";
import { loadBbhDataset } from "./dataset.ts";
import { lastLine } from "./scorers/last_line.ts";
import { lmEvalFlexible } from "./scorers/lm_eval/flexible.ts";
import { lmEvalGetAnswer } from "./scorers/lm_eval/get_answer.ts";
import { lmEvalStrict } from "./scorers/lm_eval/strict.ts";
import { bbhReleaseCot } from "./scorers/release_cot.ts";
import { bbhReleaseDirect } from "./scorers/release_direct.ts";
import { BBH_KNOWN_ISSUES, BBH_TASKS, canonicalBbhTask } from "./tasks.ts";

/** BBH. */
export const bbh: Benchmark = {
  name: "bbh",
  label: "BBH",
  description: "BIG-Bench Hard (Suzgun et al. 2022): 27 tasks, 6,511 examples " +
    "(suzgunmirac/BIG-Bench-Hard).",
  tasks: BBH_TASKS.map(({ name, size }) => ({ name, size })),
  canonicalTask: canonicalBbhTask,
  loadDataset: loadBbhDataset,
  truncatedInputs: BBH_KNOWN_ISSUES.filter((k) => k.truncatedInput),
  defaultScorer: bbhReleaseCot.name,
  scorers: [
    bbhReleaseCot,
    bbhReleaseDirect,
    lmEvalGetAnswer,
    lmEvalStrict,
    lmEvalFlexible,
    lastLine,
  ],
  aggregate: bbhAggregate,
  aggregateIntervals: (rows, aggregate) => bbhIntervals(rows, aggregate as BbhAggregate),
  aggregateKeys: [{ key: "micro", label: "BBH micro (correct / 6,511)" }],
};
