/**
 * Whether the text a rule extracted has the FORM of an answer to its target: the half of
 * `Verdict.found` (`types.ts`) that the rule's own cue cannot tell. A rule that reads a
 * one-line response whole, or the first line of any response, "finds" something in every
 * response — the sentence `After checking each step carefully, the answer is (D)`, a bare `B`
 * where its matching needs `(B)`, the start of the reasoning. Such a text is no answer the rule
 * can score: counted as found, its 0 would be a silent wrong number.
 *
 * The form follows the target, read the way the rule compares ({@link exactMatchForm} for the
 * exact-match rules of BBH and lm-evaluation-harness; the BBEH rule has its own, in
 * `benchmarks/bbeh/scorer.ts`, from the same {@link answerLength}):
 *
 * | target                      | an extracted text has its form when it is …                      |
 * |-----------------------------|-------------------------------------------------------------------|
 * | a letter `(B)`              | a letter in parentheses, `(X)`, of the target's case unless the rule ignores case |
 * | yes/no, true/false, valid/invalid | a word of that pair, in the target's case unless the rule ignores case |
 * | a number                    | a number                                                          |
 * | brackets (`) ] }`)          | brackets only, of answer length                                   |
 * | free text                   | of answer length ({@link answerLength})                           |
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { exactMatchForm } from "@runlens/scorers/answer_form.ts";
 * assert.equal(exactMatchForm("(D)", "(B)"), true); // a wrong answer, but an answer
 * assert.equal(exactMatchForm("B", "(B)"), false); // the rule compares "(B)": no answer
 * assert.equal(exactMatchForm("After checking, the answer is (D)", "(B)"), false);
 * ```
 * @module
 */
import { answerType, BINARY_PAIRS } from "./answer_match.ts";

/** Letters and digits: the words of a text. */
const WORD = /[\p{L}\p{N}]+/gu;

/** An answer cue inside a text: a rule that reads it read the sentence, not its answer. */
const CUE = /(?<![\p{L}])answer(?![\p{L}])/iu;

function wordCount(s: string): number {
  return s.match(WORD)?.length ?? 0;
}

/**
 * Whether a free-text answer has the length of an answer to `target` rather than of a
 * sentence of reasoning: not blank, at most two words more than the target and a quarter more
 * for a long one (a one-word target allows three: `not sure`; a word list of 20 words, 27: a
 * sorted list with a few words too many is a wrong answer, not none), at most twice its
 * characters plus 20, and no answer cue
 * ("answer") inside unless the target has one. A heuristic that tells an answer from the
 * reasoning around it, not a right answer from a wrong one.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(answerLength("banana apple", "apple banana"), true); // wrong, but an answer
 * assert.equal(answerLength("disproved", "proved"), true);
 * assert.equal(answerLength("Let me reason about it", "proved"), false); // five words for one
 * assert.equal(answerLength("Thus we get 1,1,0", "1,1,0"), false);
 * assert.equal(answerLength("the answer is yes", "yes"), false); // the cue was read
 * assert.equal(answerLength("  ", "yes"), false);
 * ```
 */
export function answerLength(answer: string, target: string): boolean {
  const a = answer.trim(), t = target.trim();
  if (a === "") return false;
  if (CUE.test(a) && !CUE.test(t)) return false;
  const n = wordCount(t);
  return wordCount(a) <= n + 2 + Math.floor(n / 4) && a.length <= 2 * t.length + 20;
}

/** The pair of a yes/no-type target, written in the target's case (`Yes` → `Yes`, `No`). */
function pairInCase(target: string): string[] | null {
  const pair = BINARY_PAIRS.find((p) => p.includes(target.toLowerCase()));
  if (!pair) return null;
  const style = (w: string) =>
    target === target.toUpperCase()
      ? w.toUpperCase()
      : target[0] === target[0].toUpperCase()
      ? w[0].toUpperCase() + w.slice(1)
      : w;
  return pair.map(style);
}

/**
 * Whether `extracted` has the form of an answer to `target` for an exact-match rule (the
 * table of the module doc): as the rule compares them, so pass both normalised as the rule
 * normalises them, and `ignoreCase` when its comparison ignores case.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(exactMatchForm("(b)", "(B)"), false); // case-sensitive: "(b)" is never right
 * assert.equal(exactMatchForm("(b)", "(B)", true), true);
 * assert.equal(exactMatchForm("No", "Yes"), true);
 * assert.equal(exactMatchForm("no", "Yes"), false);
 * assert.equal(exactMatchForm("Ambiguous", "Yes"), false); // not a word of the pair
 * assert.equal(exactMatchForm("-12", "7"), true);
 * assert.equal(exactMatchForm("seven", "7"), false);
 * assert.equal(exactMatchForm("] )", ") ] }"), true);
 * assert.equal(exactMatchForm("Let's think step by step", ") ]"), false);
 * ```
 */
export function exactMatchForm(extracted: string, target: string, ignoreCase = false): boolean {
  const e = extracted.trim(), t = target.trim();
  const fold = (s: string) => ignoreCase ? s.toLowerCase() : s;
  switch (answerType(t)) {
    case "choice": {
      if (!/^\([A-Za-z]\)$/.test(e)) return false;
      const upper = (c: string) => c === c.toUpperCase();
      return ignoreCase || upper(e[1]) === upper(t[1]);
    }
    case "binary":
      return pairInCase(t)!.some((w) => fold(w) === fold(e));
    case "number":
      return answerType(e) === "number";
    case "symbols":
      return !/[\p{L}\p{N}]/u.test(e) && answerLength(e, t);
    case "words":
      return answerLength(e, t);
  }
}

/**
 * Whether a target's answers have a closed form (a letter, a word of a pair, a number,
 * brackets): a text of that form is an answer wherever a rule reads it, even the first line of
 * a longer response; a free-text target's form is only a length, which a line of reasoning
 * has too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(closedForm("(B)"), true);
 * assert.equal(closedForm("apple banana"), false);
 * ```
 */
export function closedForm(target: string): boolean {
  return answerType(target.trim()) !== "words";
}
