/**
 * `lm-eval-strict`: lm-evaluation-harness `bbh_cot_zeroshot`, filter `strict-match` (the same
 * in all 27 task files, e.g. `lm_eval/tasks/bbh/cot_zeroshot/date_understanding.yaml` @
 * 2a59f1d): `regex` with
 * `((?<=The answer is )(.*)(?=.)|(?<=the answer is )(.*)(?=.)|(?<=The answer: )(.*)(?=.)|(?<=The final answer: )(.*)(?=.))`
 * and the default `group_select: 0` (the FIRST match), then `take_first`. Scored with the
 * cot_zeroshot `exact_match` (ignore case; ".$", ",", "\\", "\n", '"' removed from both sides;
 * see `lm_eval/exact_match.ts`).
 *
 * The pattern has five groups, so `re.findall` yields tuples and `RegexFilter` keeps the first
 * non-empty element (the whole match), stripped. When the first match is EMPTY (exactly one
 * character left on the line after the phrase) the tuple has no non-empty element: older
 * harness versions raise IndexError there (the run dies, so no log holds such a row), newer
 * ones return the fallback: this port returns "[invalid]". No match at all → "[invalid]".
 *
 * Emulation without look-around: the leftmost match of
 * `(?:The answer is |the answer is |The answer: |The final answer: )([^\n]*)[^\n]` starts at
 * the phrase occurrence whose look-behind position Python finds first (no phrase contains
 * another, so occurrence order and look-behind order agree), and group 1 is Python's capture.
 *
 * An answer is found (`found`, `lmEvalVerdict` of `get_answer.ts`: an answer the rule can
 * score) when the filter matched (the output is not "[invalid]") and its output has the form
 * of an answer to the target as the metric compares them (case and punctuation ignored:
 * `(b)` for `(B)`, `yes` for `Yes`, a number for a number, free text of answer length).
 *
 * @example
 * ```ts
 * import { lmEvalStrict } from "@runlens/benchmarks/bbh/scorers/lm_eval/strict.ts";
 * import assert from "node:assert/strict";
 * // "The answer is:" lacks the space after "is"; the first match is "The final answer: "
 * const v = lmEvalStrict.score("The answer is: no. The final answer: Yes.", "Yes");
 * assert.deepEqual(v, { extracted: "Yes", correct: true, found: true });
 * assert.equal(lmEvalStrict.score("The answer is B", "(B)").extracted, "[invalid]");
 * ```
 * @module
 */
import { pyStrip } from "../../../../core/python.ts";
import { LM_EVAL_INVALID, lmEvalVerdict } from "./get_answer.ts";
import type { Scorer } from "../../../../scorers/types.ts";

/** The four look-behind phrases of `strict-match`, in the regex's order. */
export const STRICT_PHRASES = [
  "The answer is ",
  "the answer is ",
  "The answer: ",
  "The final answer: ",
] as const;

const STRICT = new RegExp(`(?:${STRICT_PHRASES.join("|")})([^\\n]*)[^\\n]`, "u");

/**
 * The `strict-match` filter output for one response.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(extractStrict("Hence the answer is (C).\nDone"), "(C)");
 * ```
 */
export function extractStrict(response: string): string {
  const m = STRICT.exec(response);
  return m && m[1] !== "" ? pyStrip(m[1]) : LM_EVAL_INVALID;
}

/** `lm-eval-strict`. */
export const lmEvalStrict: Scorer = {
  name: "lm-eval-strict",
  description: 'lm-evaluation-harness bbh_cot_zeroshot "strict-match": FIRST match of ' +
    '"The answer is |the answer is |The answer: |The final answer: " followed by the rest of ' +
    'its line minus the last character, stripped ("[invalid]" when none or empty); exact ' +
    'match ignoring case, a final ".", commas, backslashes, newlines and double quotes.',
  source: "EleutherAI/lm-evaluation-harness lm_eval/tasks/bbh/cot_zeroshot/<task>.yaml @ " +
    "2a59f1d (strict-match) and _cot_zeroshot_template_yaml @ dea7c92 (exact_match options)",
  benchmarks: ["bbh"],
  needs: [],
  lmEvalFilter: "strict-match",
  score(response, target) {
    const extracted = extractStrict(response);
    return lmEvalVerdict(extracted, target, "zeroshot");
  },
};
