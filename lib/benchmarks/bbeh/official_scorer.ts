/**
 * `bbeh-official`: the official BBEH scorer of `lib/benchmarks/bbeh/scorer.ts`, registered as
 * a scorer (`found`: `bbehAnswerFound` there — an answer the official matching could accept,
 * after an answer prefix or in a one-line response). Besides `score` it has `scoreSpan`: the
 * same verdict, `found` included, from the response's JSON
 * bytes in a scanned log line, decoding only the response's end when that provably suffices
 * (`tail.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbehOfficialScorer } from "@runlens/benchmarks/bbeh/official_scorer.ts";
 * assert.equal(bbehOfficialScorer.name, "bbeh-official");
 * assert.deepEqual(bbehOfficialScorer.score("The answer is: (B)", "(B)"), {
 *   extracted: "(b)",
 *   correct: true,
 *   found: true,
 * });
 * ```
 * @module
 */
import { BBEH_OFFICIAL, bbehNormalizeTarget, bbehOfficial } from "./scorer.ts";
import { bbehVerdictFromSpan } from "./tail.ts";
import type { Scorer } from "../../scorers/types.ts";

/**
 * `bbeh-official`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const response = "Let me see.\nThe final answer is $\\boxed{42}$.";
 * const bytes = new TextEncoder().encode(JSON.stringify(response));
 * const fromBytes = bbehOfficialScorer.scoreSpan!(bytes, 0, bytes.length, 1, "42"); // 1: F_ESCAPE
 * assert.deepEqual(fromBytes, bbehOfficialScorer.score(response, "42"));
 * assert.deepEqual(fromBytes, { extracted: "42", correct: true, found: true });
 * ```
 */
export const bbehOfficialScorer: Scorer = {
  name: BBEH_OFFICIAL,
  description: "The official BBEH scorer (google-deepmind/bbeh evaluate.py): answer prefixes " +
    "(last occurrence), LaTeX unwrapping, lower-casing, then fuzzy match (option letters, " +
    "floats, quotes, brackets, a trailing '?').",
  source: "google-deepmind/bbeh bbeh/evaluate.py, ported in lib/benchmarks/bbeh/scorer.ts",
  benchmarks: ["bbeh"],
  needs: [],
  score(response, target) {
    const v = bbehOfficial(response, target);
    return { extracted: v.extracted, correct: v.correct, found: v.found };
  },
  scoreSpan(bytes, start, end, flags, target) {
    const v = bbehVerdictFromSpan(bytes, start, end, flags, bbehNormalizeTarget(target));
    return { extracted: v.extracted, correct: v.correct, found: v.found };
  },
};
