/**
 * BIG-Bench Hard as a registered {@link Benchmark}: 27 tasks, the release's 6,511 examples,
 * the release's CoT rule as the default scorer, and the rules of the tools that score BBH
 * (the release's direct rule, lm-evaluation-harness's filters, mcpbr's last line). Built from
 * the polars-free scoring part (`scoring.ts`, which `scoringModule` points to) plus the polars
 * parts.
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
 * assert.ok(bbh.scoringModule!.endsWith("/lib/benchmarks/bbh/scoring.ts"));
 * ```
 * @module
 */
import type { Benchmark } from "../types.ts";
import { type BbhAggregate, bbhAggregate, bbhIntervals } from "./aggregate.ts";
import { scoring as bbhScoring } from "./scoring.ts";

/** BBH. */
export const bbh: Benchmark = {
  ...bbhScoring,
  listOrder: 2,
  description: "BIG-Bench Hard (Suzgun et al. 2022): 27 tasks, 6,511 examples " +
    "(suzgunmirac/BIG-Bench-Hard).",
  scoringModule: new URL("./scoring.ts", import.meta.url).href,
  data: {
    folder: "bbh",
    sources: [
      { repo: "suzgunmirac/BIG-Bench-Hard", commit: "9ee07bd481feebf959a6b59d61ea57bdcf30964d" },
    ],
    manifest: new URL("./manifest.json", import.meta.url).href,
  },
  aggregate: bbhAggregate,
  aggregateIntervals: (rows, aggregate) => bbhIntervals(rows, aggregate as BbhAggregate),
  aggregateKeys: [{ key: "micro", label: "BBH micro (correct / 6,511)" }],
  // the tools that score BBH read answers in six ways: the report shows where that matters
  report: { formatSensitivity: true },
};
