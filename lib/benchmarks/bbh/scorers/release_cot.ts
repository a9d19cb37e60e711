/**
 * `bbh-release-cot`: the BBH release's chain-of-thought answer rule, reconstructed from its
 * published numbers (it reproduces all 27 CoT accuracies in
 * `code-davinci-002-outputs/code-davinci-002-cot/*_eval_metrics.jsonl` exactly): the text
 * after the LAST "So the answer is " (the whole prediction when absent), its first line,
 * stripped, one trailing "." dropped; case-sensitive exact match with the target.
 *
 * An answer is found (`found`, {@link foundBbhCot}: an answer the rule can score) when the
 * extracted text has the form of an answer to the target under this rule's case-sensitive
 * exact match (`exactMatchForm` of `scorers/answer_form.ts`: `(X)` for `(B)`, `Yes`/`No` for
 * `Yes`, a number for a number, free text of answer length) and the rule read it where an
 * answer is: after the cue, or a one-line response (a bare answer), or a first line of a
 * closed form (a letter, a word of the pair, a number: `(B)\n\nQ: …`). So
 * `After checking each step carefully, the answer is (D).` (one line, no cue: the rule compares
 * the whole sentence) and a bare `B` for `(B)` are no answers, nor is the first line of a
 * multi-line response without the cue (the start of the reasoning). A right answer is always
 * found.
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
 * assert.equal(bbhReleaseCot.score("Hence the answer is (B).", "(B)").found, false); // a sentence
 * assert.equal(bbhReleaseCot.score("B", "(B)").found, false); // "B" is never "(B)"
 * assert.equal(bbhReleaseCot.score("So the answer is (b).", "(B)").correct, false); // case counts
 * ```
 * @module
 */
import { pyStrip } from "../../../core/python.ts";
import { closedForm, exactMatchForm } from "../../../scorers/answer_form.ts";
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
 * Whether the CoT rule found an answer it can score in `response` (its extraction
 * `extracted`, target `target`): see the module doc.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const found = (r: string, target: string) => foundBbhCot(r, extractBbhCot(r), target);
 * assert.equal(found("Reasoning.\nSo the answer is 24.", "7"), true); // wrong, but an answer
 * assert.equal(found("  (B)\n", "(B)"), true); // a bare answer
 * assert.equal(found("(C)\n\nQ: next", "(B)"), true); // a closed form on the first line
 * assert.equal(found("Reasoning.\nFinal: 24", "24"), false); // no cue, two lines
 * assert.equal(found("So the answer is \n", "24"), false); // the cue, then nothing
 * assert.equal(found("So the answer is yes.", "Yes"), false); // "yes" is never "Yes"
 * ```
 */
export function foundBbhCot(response: string, extracted: string, target: string): boolean {
  if (extracted === target) return true;
  if (!exactMatchForm(extracted, target)) return false;
  return response.includes(BBH_ANSWER_CUE) || !pyStrip(response).includes("\n") ||
    closedForm(target);
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
      found: foundBbhCot(response, extracted, target),
    };
  },
};
