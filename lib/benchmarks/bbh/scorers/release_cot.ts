/**
 * `bbh-release-cot`: the BBH release's chain-of-thought answer rule, reconstructed from its
 * published numbers (it reproduces all 27 CoT accuracies in
 * `code-davinci-002-outputs/code-davinci-002-cot/*_eval_metrics.jsonl` exactly): the text
 * after the LAST "So the answer is " (the whole prediction when absent), its first line,
 * stripped, one trailing "." dropped; case-sensitive exact match with the target.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbhReleaseCot } from "@runlens/benchmarks/bbh/scorers/release_cot.ts";
 * assert.deepEqual(bbhReleaseCot.score("… So the answer is (B).\n\nQ:", "(B)"), {
 *   extracted: "(B)",
 *   correct: true,
 * });
 * assert.equal(bbhReleaseCot.score("So the answer is (b).", "(B)").correct, false); // case counts
 * ```
 * @module
 */
import { pyStrip } from "../../../core/python.ts";
import type { Scorer } from "../../../scorers/types.ts";

/** The CoT answer cue of the BBH prompts (`cot-prompts/<task>.txt`). */
export const BBH_ANSWER_CUE = "So the answer is ";

/**
 * Extract the CoT answer: after the last cue, first line, strip, drop one trailing ".".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(extractBbhCot("x. So the answer is 24.\nQ: next"), "24");
 * assert.equal(extractBbhCot("So the answer is 3. So the answer is 5."), "5"); // the LAST cue
 * ```
 */
export function extractBbhCot(response: string): string {
  const tail = response.split(BBH_ANSWER_CUE).at(-1)!;
  const line = pyStrip(tail.split("\n")[0]);
  return line.endsWith(".") ? line.slice(0, -1) : line;
}

/** `bbh-release-cot`. */
export const bbhReleaseCot: Scorer = {
  name: "bbh-release-cot",
  description: 'BBH release, chain-of-thought: text after the LAST "So the answer is " ' +
    '(whole prediction if absent), first line, strip, drop one trailing ".", ' +
    "case-sensitive exact match with the target.",
  source: "suzgunmirac/BIG-Bench-Hard @ 9ee07bd: reproduces every accuracy of " +
    "code-davinci-002-outputs/code-davinci-002-cot/*_eval_metrics.jsonl",
  benchmarks: ["bbh"],
  needs: [],
  score(response, target) {
    const extracted = extractBbhCot(response);
    return { extracted, correct: extracted === target };
  },
};
