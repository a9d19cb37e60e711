/**
 * `bbh-release-direct`: the BBH release's direct-answer rule, reconstructed from its published
 * numbers (it reproduces all 27 accuracies in
 * `code-davinci-002-outputs/code-davinci-002-direct/*_eval_metrics.jsonl` exactly): the first
 * line of the prediction, stripped; case-sensitive exact match with the target. An answer is
 * found (`found`) when that first line is not empty (a direct answer is the whole first line).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbhReleaseDirect } from "@runlens/benchmarks/bbh/scorers/release_direct.ts";
 * assert.deepEqual(bbhReleaseDirect.score(" (A)\n\nQ: next", "(A)"), {
 *   extracted: "(A)",
 *   correct: true,
 *   found: true,
 * });
 * assert.equal(bbhReleaseDirect.score("\n(A)", "(A)").found, false); // the first line is empty
 * ```
 * @module
 */
import { pyStrip } from "../../../core/python.ts";
import type { Scorer } from "../../../scorers/types.ts";

/**
 * Extract the direct answer: the first line, stripped.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(extractBbhDirect(" (A)\nQ: …"), "(A)");
 * ```
 */
export function extractBbhDirect(response: string): string {
  return pyStrip(response.split("\n")[0]);
}

/** `bbh-release-direct`. */
export const bbhReleaseDirect: Scorer = {
  name: "bbh-release-direct",
  description: "BBH release, direct answer: first line of the prediction, stripped, " +
    "case-sensitive exact match with the target.",
  source: "suzgunmirac/BIG-Bench-Hard @ 9ee07bd: reproduces every accuracy of " +
    "code-davinci-002-outputs/code-davinci-002-direct/*_eval_metrics.jsonl",
  benchmarks: ["bbh"],
  needs: [],
  score(response, target) {
    const extracted = extractBbhDirect(response);
    return { extracted, correct: extracted === target, found: extracted !== "" };
  },
};
