/**
 * `bbh-release-direct`: the BBH release's direct-answer rule, reconstructed from its published
 * numbers (it reproduces all 27 accuracies in
 * `code-davinci-002-outputs/code-davinci-002-direct/*_eval_metrics.jsonl` exactly): the first
 * line of the prediction, stripped; case-sensitive exact match with the target. An answer is
 * found (`found`: an answer the rule can score) when that first line has the form of an answer
 * to the target under the rule's case-sensitive exact match (`exactMatchForm` of
 * `scorers/answer_form.ts`): `(X)` for `(B)` — a bare `B` is no answer —, a word of the pair for
 * `Yes`, a number for a number, free text of answer length. A right answer is always found.
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
 * assert.equal(bbhReleaseDirect.score("A", "(A)").found, false); // the rule never reads "A" as "(A)"
 * assert.equal(bbhReleaseDirect.score("Let's think step by step.", "(A)").found, false);
 * ```
 * @module
 */
import { pyStrip } from "../../../core/python.ts";
import { exactMatchForm } from "../../../scorers/answer_form.ts";
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
    const correct = extracted === target;
    return { extracted, correct, found: correct || exactMatchForm(extracted, target) };
  },
};
