/**
 * `lm-eval-get-answer`: lm-evaluation-harness `bbh_cot_fewshot`, filter `get-answer` =
 * `regex` with `regex_pattern: "(?<=the answer is )(.*)(?=.)"` then `take_first`, scored with
 * a plain `exact_match` (`lm_eval/tasks/bbh/cot_fewshot/_cot_fewshot_template_yaml`,
 * EleutherAI/lm-evaluation-harness @ 4785623; `RegexFilter` in `lm_eval/filters/extraction.py`).
 *
 * What the regex does: `re.findall` returns, for the FIRST occurrence of "the answer is "
 * (lowercase "the") that has at least one more character on its line, the rest of that line
 * minus its last character (the look-ahead `(?=.)` needs one character after the greedy
 * `(.*)`, and `.` stops at "\n"); the filter strips it. No match → "[invalid]". An occurrence
 * at the end of a line is skipped (the look-ahead fails there); a single character after it
 * gives "" (not "[invalid]"). So "So the answer is (B)." → "(B)", but "… is (B)" → "(B" and a
 * trailing space "… is (B). " → "(B)." (lm-evaluation-harness PR #2013).
 *
 * An answer is found (`found`, {@link lmEvalVerdict}: an answer the rule can score) when the
 * filter matched ("[invalid]" is no answer), gave a non-empty answer (the "" of a single
 * character after the phrase is none either), and that answer has the form of an answer to the
 * target under the plain exact match (`exactMatchForm` of `scorers/answer_form.ts`: `(X)` for
 * `(B)`, so the `(B` of "… is (B)" is none; a word of the pair for `Yes`; a number for a
 * number; free text of answer length). A right answer is always found.
 *
 * The port uses `the answer is ([^\n]*)[^\n]`: a match must start with the literal (so the
 * leftmost match starts at the first occurrence whose line continues), and the greedy group
 * followed by one more non-newline character captures exactly what `(.*)(?=.)` captures. The
 * lookbehind never consumed the literal and nothing else can match inside it, so the first
 * match is the same occurrence as Python's.
 *
 * @example
 * ```ts
 * import { lmEvalGetAnswer } from "@runlens/benchmarks/bbh/scorers/lm_eval/get_answer.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(lmEvalGetAnswer.score("So the answer is (B).", "(B)"), {
 *   extracted: "(B)",
 *   correct: true,
 *   found: true,
 * });
 * assert.equal(lmEvalGetAnswer.score("The answer is (B).", "(B)").found, false); // "[invalid]"
 * assert.equal(lmEvalGetAnswer.score("So the answer is (B)", "(B)").extracted, "(B");
 * assert.equal(lmEvalGetAnswer.score("So the answer is (B)", "(B)").found, false); // "(B" is no letter
 * ```
 * @module
 */
import { pyStrip } from "../../../../core/python.ts";
import {
  lmEvalPlainEqual,
  lmEvalZeroshotEqual,
  lmEvalZeroshotNormalize,
} from "../../../../scorers/lm_eval/exact_match.ts";
import { exactMatchForm } from "../../../../scorers/answer_form.ts";
import type { Scorer, Verdict } from "../../../../scorers/types.ts";

/** lm-evaluation-harness's fallback when a regex filter finds nothing. */
export const LM_EVAL_INVALID = "[invalid]";

const GET_ANSWER = /the answer is ([^\n]*)[^\n]/u;

/**
 * The `get-answer` filter output for one response.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(extractGetAnswer("the answer is \nSo the answer is 7.\n"), "7");
 * assert.equal(extractGetAnswer("The answer is 7."), LM_EVAL_INVALID); // "the" is lowercase only
 * ```
 */
export function extractGetAnswer(response: string): string {
  const m = GET_ANSWER.exec(response);
  return m ? pyStrip(m[1]) : LM_EVAL_INVALID;
}

/**
 * Whether an lm-eval filter's output is an answer: not the "[invalid]" fallback, not empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual([lmEvalFound("(B)"), lmEvalFound(LM_EVAL_INVALID), lmEvalFound("")], [
 *   true,
 *   false,
 *   false,
 * ]);
 * ```
 */
export function lmEvalFound(extracted: string): boolean {
  return extracted !== LM_EVAL_INVALID && extracted !== "";
}

/** lm-evaluation-harness's `exact_match` as the BBH tasks configure it (`exact_match.ts`). */
export type LmEvalMetric = "plain" | "zeroshot";

/**
 * The verdict of an lm-eval filter's output against the target under the task's `exact_match`
 * (`plain`: cot_fewshot; `zeroshot`: cot_zeroshot, case and punctuation ignored); `found` when
 * the output is an answer ({@link lmEvalFound}) of the target's form as the metric compares
 * them (`exactMatchForm`), or right.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(lmEvalVerdict(LM_EVAL_INVALID, "(B)", "plain"), {
 *   extracted: "[invalid]",
 *   correct: false,
 *   found: false,
 * });
 * assert.equal(lmEvalVerdict("(b)", "(B)", "plain").found, false); // never equal: no answer
 * assert.equal(lmEvalVerdict("(b)", "(B)", "zeroshot").correct, true);
 * assert.equal(lmEvalVerdict("12,000.", "7", "zeroshot").found, true); // "12000": a number
 * ```
 */
export function lmEvalVerdict(extracted: string, target: string, metric: LmEvalMetric): Verdict {
  const zeroshot = metric === "zeroshot";
  const correct = zeroshot
    ? lmEvalZeroshotEqual(extracted, target)
    : lmEvalPlainEqual(extracted, target);
  const form = zeroshot
    ? exactMatchForm(lmEvalZeroshotNormalize(extracted), lmEvalZeroshotNormalize(target), true)
    : exactMatchForm(extracted, target);
  return { extracted, correct, found: correct || (lmEvalFound(extracted) && form) };
}

/** `lm-eval-get-answer`. */
export const lmEvalGetAnswer: Scorer = {
  name: "lm-eval-get-answer",
  description: 'lm-evaluation-harness bbh_cot_fewshot "get-answer": regex ' +
    "(?<=the answer is )(.*)(?=.), FIRST match (rest of that line minus its last character), " +
    'stripped, "[invalid]" when nothing matches; plain exact match with the target.',
  source: "EleutherAI/lm-evaluation-harness lm_eval/tasks/bbh/cot_fewshot/" +
    "_cot_fewshot_template_yaml @ 4785623 (filter get-answer, metric exact_match)",
  benchmarks: ["bbh"],
  needs: [],
  lmEvalFilter: "get-answer",
  score(response, target) {
    const extracted = extractGetAnswer(response);
    return lmEvalVerdict(extracted, target, "plain");
  },
};
