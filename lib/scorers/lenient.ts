/**
 * `lenient`: runlens's own forgiving answer extractor, for ANALYSIS only (how much of a run's
 * score depends on answer format). It never replaces the official rule in a headline number.
 * It applies to every benchmark: it knows the answer conventions, not the tasks.
 *
 * The rule:
 * 1. **Find the final answer** ({@link findFinalAnswer}, `answer_conventions.ts`): reasoning
 *    blocks (`<think>…</think>`) hidden, then the LAST explicit final-answer marker
 *    (`FINAL ANSWER:` block, `<answer>…</answer>`, `\boxed{…}`, `#### N`, a trailing JSON
 *    `{"answer": …}`); with none, the LAST cue ("the answer is …", `Answer:`; in a few other
 *    languages too: "La respuesta es", `答案：`); with none, the value of a last line
 *    `Label: value` (`Verdict: Yes`), else the last non-empty line. An unmarked line is read
 *    whole, and is no answer when it is reasoning: longer than {@link UNCUED_MAX} characters
 *    for a letter, yes/no-type or number target, not of answer length (`answerLength` of
 *    `answer_form.ts`) for a free-text target. A chat sign-off after the answer ("Hope this
 *    helps!") is set aside first; for a free-text target, when the last line is a remark
 *    after the answer (a sentence of five words or more with a final "." or "!"), a
 *    `Label: value` line among the two above it is read instead. docs/scorers.md shows every
 *    convention.
 * 2. **Read it in the target's answer space** ({@link readAnswer}, `answer_match.ts`; the
 *    target decides the TYPE, never the value): an option letter (`B`, `(B)`, `[B]`,
 *    `(D) kite`, or an option's text when the input lists options), yes/no-type words (`not
 *    valid` is `invalid`), a number (commas, `$`, `%`, `.0`, `− 50`, `eight`), words (case and
 *    punctuation ignored) or symbols. Two letters, a letter contradicted by another option's
 *    text, both words of a pair or several numbers give NO answer: the rule never guesses —
 *    after a correction ("Actually, …") the text after it is read. A marked answer of another
 *    type that is one word or number (`Ambiguous` for a Yes/No target) is an answer, a wrong
 *    one; a word that may mean either word of the pair (`plausible`, `correct`) is none.
 * 3. **Match** ({@link matchAnswer}) in that type.
 *
 * `extracted` is null exactly when no answer was found (step 1 or 2): then the row is wrong and
 * `found` false. Missing response or target → not scored (null).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lenient } from "@runlens/scorers/lenient.ts";
 * assert.deepEqual(lenient.score("**Answer: b**", "(B)"), {
 *   extracted: "(B)",
 *   correct: true,
 *   found: true,
 * });
 * const thought = "<think>(A)?</think>\nThe answer is (C).";
 * assert.deepEqual(lenient.score(thought, "(C)"), { extracted: "(C)", correct: true, found: true });
 * const gpt4 = 'Reasoning…\n>> FINAL ANSWER:\n"""\n(B)\n"""';
 * assert.deepEqual(lenient.score(gpt4, "(B)"), { extracted: "(B)", correct: true, found: true });
 * ```
 * @module
 */
import { findFinalAnswer, type FoundAnswer, lastLines, unmarked } from "./answer_conventions.ts";
import { answerLength } from "./answer_form.ts";
import { answerType, matchAnswer, readAnswer } from "./answer_match.ts";
import { ANY_BENCHMARK, type Scorer } from "./types.ts";

/** Longest unmarked line (chars) read as a letter, yes/no-type word or number. */
export const UNCUED_MAX = 80;

/** The conventions without a marker: the line is read whole, and may be no answer at all. */
const UNMARKED = ["label-line", "last-line"];

/**
 * The lenient answer of a response in the answer space of `target` (null: no answer found).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lenientExtract("So it is 1,000 apples.", "1000"), "1000");
 * assert.equal(lenientExtract("The answer is (A) or (B).", "(A)"), null); // two letters
 * assert.equal(lenientExtract("Janet makes $18.\n#### 18", "18"), "18");
 * assert.equal(lenientExtract("Let me weigh it.\nVerdict: disproved", "proved"), "disproved");
 * assert.equal(lenientExtract("Let me reason about it carefully.", "proved"), null); // reasoning
 * assert.equal(lenientExtract("The result is: b a\nHope this helps!", "a b"), "b a"); // sign-off
 * const remark = "Sorted list: a b\nI sorted the words by their first letter, then the second.";
 * assert.equal(lenientExtract(remark, "a b"), "a b");
 * ```
 */
export function lenientExtract(
  response: string,
  target: string,
  input?: string | null,
): string | null {
  const found = findFinalAnswer(response);
  if (found === null) return null;
  if (!UNMARKED.includes(found.convention)) return readAnswer(found.text, target, input);
  const last = unmarkedAnswer(found, target, input);
  const [lastLine, ...above] = lastLines(response, LOOK_BACK);
  if (!remark(lastLine, target, input)) return last;
  // the last line is a remark after the answer: a `Label: value` line just above it holds it
  for (const line of above.map(unmarked)) {
    const labelled = line.convention === "label-line" ? unmarkedAnswer(line, target, input) : null;
    if (labelled !== null) return labelled;
  }
  return last;
}

/**
 * Whether an unmarked last line is a sentence about a free-text answer rather than the answer:
 * a capital, at least {@link REMARK_WORDS} words and a final "." or "!", for a target without
 * one (`I sorted them by first letter, then second.` after `Sorted list: a b`). Only weighed
 * when a labelled line above could hold the answer instead.
 */
function remark(line: string, target: string, input?: string | null): boolean {
  if (!["words", "symbols"].includes(answerType(target, input))) return false;
  const words = line.match(/[\p{L}\p{N}]+/gu)?.length ?? 0;
  return /^\p{Lu}/u.test(line) && /[.!]$/.test(line) && !/[.!]$/.test(target.trim()) &&
    words >= REMARK_WORDS;
}

/** The fewest words of a remark (a sentence, not a short answer in capitals). */
const REMARK_WORDS = 5;

/** How many last lines an unmarked response is read from (the last, and two above it). */
const LOOK_BACK = 3;

/** An unmarked line's answer in the answer space of `target` (null: the line is none). */
function unmarkedAnswer(found: FoundAnswer, target: string, input?: string | null) {
  // without a marker, a long line is reasoning (or a degenerate loop), not an answer
  const freeText = ["words", "symbols"].includes(answerType(target, input));
  if (freeText ? !answerLength(found.text, target) : found.text.length > UNCUED_MAX) return null;
  // a label marks its value as the answer (an off-type word is a wrong one); a bare line not
  return readAnswer(found.text, target, input, {
    offType: found.convention === "label-line",
    whole: true,
  });
}

/** `lenient`. */
export const lenient: Scorer = {
  name: "lenient",
  description: "runlens's forgiving extractor (analysis only), for any benchmark: ignores " +
    "<think> blocks and markup; reads the LAST explicit final-answer marker (FINAL ANSWER " +
    'block, <answer>, \\boxed{}, "#### N", trailing JSON "answer"), else the last cue ("the ' +
    'answer is", "Answer:", in a few languages), else a last "Label: value" line, else the ' +
    "last line (of answer length); matches by the target's type: option letter or option " +
    "text (ambiguous → no answer; the last after a correction), yes/no-type words (negations " +
    "turn them), numbers by value (also in words), words without case and punctuation. " +
    "docs/scorers.md lists the conventions.",
  source: "runlens (lib/scorers/lenient.ts); not from any paper or harness",
  benchmarks: ANY_BENCHMARK,
  needs: ["input"],
  score(response, target, ctx) {
    const extracted = lenientExtract(response, target, ctx?.input);
    const correct = extracted !== null &&
      matchAnswer(extracted, target, ctx?.input, { whole: true });
    return { extracted, correct, found: extracted !== null };
  },
};
