/**
 * `bbh-release-cot`: the BBH release's chain-of-thought answer rule, reconstructed from its
 * published numbers (it reproduces all 27 CoT accuracies in
 * `code-davinci-002-outputs/code-davinci-002-cot/*_eval_metrics.jsonl` exactly): the text
 * after the LAST "So the answer is " (the whole prediction when absent), its first line,
 * stripped, one trailing "." dropped; case-sensitive exact match with the target.
 *
 * An answer is found (`found`, {@link foundBbhCot}) when the cue occurs, or when the stripped
 * response is a single line (a bare answer, as the rule reads a prediction without the cue),
 * and the extracted answer is not empty. A multi-line response without the cue is read as its
 * first line — the start of the reasoning, no answer: such rows are counted as "no answer".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbhReleaseCot } from "@runlens/benchmarks/bbh/scorers/release_cot.ts";
 * assert.deepEqual(bbhReleaseCot.score("… So the answer is (B).\n\nQ:", "(B)"), {
 *   extracted: "(B)",
 *   correct: true,
 *   found: true,
 * });
 * assert.equal(bbhReleaseCot.score("Let me think.\nAnswer: (B)", "(B)").found, false);
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

/**
 * Whether the CoT rule found an answer: the cue, or a single-line response; and a non-empty
 * extracted answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(foundBbhCot("Reasoning.\nSo the answer is 24.", "24"), true);
 * assert.equal(foundBbhCot("  (B)\n", "(B)"), true); // a bare answer
 * assert.equal(foundBbhCot("Reasoning.\nFinal: 24", "Reasoning."), false); // no cue, two lines
 * assert.equal(foundBbhCot("So the answer is \n", ""), false); // the cue, then nothing
 * ```
 */
export function foundBbhCot(response: string, extracted: string): boolean {
  if (extracted === "") return false;
  return response.includes(BBH_ANSWER_CUE) || !pyStrip(response).includes("\n");
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
    return {
      extracted,
      correct: extracted === target,
      found: foundBbhCot(response, extracted),
    };
  },
};
