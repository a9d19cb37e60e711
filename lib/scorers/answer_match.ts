/**
 * The typed matching of an answer already extracted (by a user's rule: `--answer-pattern`, or
 * a module's `extract` without a `match`) against the target: the answer is read in the
 * target's answer space, as the lenient rule reads its candidate (`lenient.ts`, step 4) — a
 * multiple-choice letter (`B`, `(B)`) or the text of an option the input lists, yes/no-type
 * words, numbers compared as numbers (thousands commas, `$`, `%`), anything else compared
 * without case, surrounding quotes and runs of spaces and commas.
 *
 * (Issue 22 gives this matching to the lenient rule's rewrite, which exports it; until then
 * this module holds the one call user rules need, so that they switch in one place.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const input = "Which is a toy?\nOptions:\n(A) rock\n(B) kite";
 * assert.equal(matchAnswer("B", "(B)", input), true);
 * assert.equal(matchAnswer("kite", "(B)", input), true); // the option's text
 * assert.equal(matchAnswer("1,000", "1000"), true);
 * assert.equal(matchAnswer("Yes", "no"), false);
 * ```
 * @module
 */
import { lenientExtract, lenientMatch } from "./lenient.ts";

/**
 * Whether an extracted `answer` means the `target` (`input`: the question, for the texts of
 * its options).
 */
export function matchAnswer(answer: string, target: string, input?: string | null): boolean {
  return lenientMatch(lenientExtract(answer, target, input), target);
}
