/**
 * GSM8K's scorers. `gsm8k-strict` and `gsm8k-flexible` reproduce lm-evaluation-harness's
 * `gsm8k` task (`lm_eval/tasks/gsm8k/gsm8k.yaml`, version 3.0, @ 47f16bf) to the character:
 * its two regex filters, then `take_first`, then `exact_match` with `ignore_case` and
 * `regexes_to_ignore: [",", "\\$", "(?s).*#### ", "\\.$"]` — a string compare, so `18.00` is
 * not `18`. `gsm8k-number`, the default, reads the final answer in the conventions people
 * write it in (the project's {@link findFinalAnswer}) and compares numbers as numbers. Each finds an answer (`found`) when its pattern matched.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(gsm8kStrict.score("So $18.\n#### 18", "18").correct, true);
 * assert.equal(gsm8kFlexible.score("She makes $18.00.", "18").correct, false); // "18.00" ≠ "18"
 * assert.equal(gsm8kNumber.score("She makes $18.00.", "18").correct, true);
 * ```
 * @module
 */
import {
  type AnswerConvention,
  EXPLICIT_CONVENTIONS,
  findFinalAnswer,
  hideThinking,
} from "../../scorers/answer_conventions.ts";
import { matchAnswer } from "../../scorers/answer_match.ts";
import { lmEvalPlainEqual } from "../../scorers/lm_eval/exact_match.ts";
import { FALLBACK, regexFilter } from "../../scorers/lm_eval/filters.ts";
import type { Scorer } from "../../scorers/types.ts";

const SOURCE = "EleutherAI/lm-evaluation-harness lm_eval/tasks/gsm8k/gsm8k.yaml v3.0 @ 47f16bf";
const METRIC = "exact match ignoring case, commas, $, all text up to the last '#### ' and a " +
  "final '.' (strings: '18.00' is not '18')";

/**
 * The `regexes_to_ignore` of gsm8k.yaml, each `re.sub`bed in order, then `ignore_case`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lmEvalGsm8kNormalize("Total: $1,000.\n#### 1,000."), "1000");
 * ```
 */
export function lmEvalGsm8kNormalize(s: string): string {
  return s.replaceAll(",", "").replaceAll("$", "").replace(/^[\s\S]*#### /u, "")
    .replace(/\.(\n?)$/u, "$1").toLowerCase(); // Python's `$` also stands before a final "\n"
}

/** A scorer of one lm-eval filter: `regex` (a Python pattern) with `group_select`. */
function lmEvalRule(name: string, filter: string, pattern: string, group: number): Scorer {
  return {
    name,
    description: `lm-evaluation-harness gsm8k "${filter}": regex ${pattern}` +
      `${group === 0 ? " (first match)" : " (last match)"}, "[invalid]" when none; ${METRIC}.`,
    source: SOURCE,
    benchmarks: ["gsm8k"],
    needs: [],
    lmEvalFilter: filter,
    score(response, target) {
      const extracted = regexFilter(response, pattern, group);
      const found = extracted !== FALLBACK && extracted !== "";
      const same = lmEvalPlainEqual(lmEvalGsm8kNormalize(extracted), lmEvalGsm8kNormalize(target));
      return { extracted, correct: same, found };
    },
  };
}

/**
 * `strict-match`: the first `#### N`. The yaml's `#### (\-?[0-9\.\,]+)` with its escapes of
 * `-`, `.` and `,` dropped: they mean the same, and JavaScript's `u` mode refuses two of them.
 */
export const gsm8kStrict: Scorer = lmEvalRule(
  "gsm8k-strict",
  "strict-match",
  "#### (-?[0-9.,]+)",
  0,
);
/** `flexible-extract`: the last number-like run (`$`, `.` and `,` included). */
export const gsm8kFlexible: Scorer = lmEvalRule(
  "gsm8k-flexible",
  "flexible-extract",
  "(-?[$0-9.,]{2,})|(-?[0-9]+)",
  -1,
);

const NUMBER = String.raw`-?\$?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?`;
/**
 * A new problem after the answer: a few-shot prompt's next `Question:` (lm-eval's gsm8k) or
 * `Q:` (gsm8k_cot) that a model without a stop sequence goes on to write, and answer.
 */
const NEXT_PROBLEM = /\n[ \t]*(?:Question|Q)[ \t]*:/u;
/** The conventions that mark nothing: `findFinalAnswer`'s reading of a bare last line. */
const UNMARKED: readonly AnswerConvention[] = ["label-line", "last-line"];

/**
 * The answer `gsm8k-number` reads, in the common final-answer conventions
 * ({@link findFinalAnswer}: `Final Answer:`, `Answer:`, `\boxed{}`, `<answer>`, `#### N`, "the
 * answer is", a trailing JSON `answer`; the LAST explicit marker wins, else the last cue): the
 * first number of the marked answer (`$`, commas, units around it); with no marker, the last
 * number of the response. A marker after which no number comes: an explicit one is the answer,
 * without a number (null); a cue ("if the answer is odd") is reasoning, and the last number is
 * read. `<think>` blocks hidden; a few-shot continuation (`Question:` / `Q:` on a new line,
 * another problem) cut off. Null: no number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(gsm8kAnswer("**Final Answer:** 18\n\nNote: for 2 weeks."), "18");
 * assert.equal(gsm8kAnswer("the answer is 21. Wait, no: the answer is 18."), "18");
 * assert.equal(gsm8kAnswer("#### 1. Eggs: 16 - 3 = 13\nThe answer is $1,300."), "1,300");
 * assert.equal(gsm8kAnswer("16 - 3 = 13 eggs, 13 * 2 = 26"), "26");
 * assert.equal(gsm8kAnswer("no idea"), null);
 * ```
 */
export function gsm8kAnswer(response: string): string | null {
  const visible = hideThinking(response);
  const cut = NEXT_PROBLEM.exec(visible);
  const text = cut === null || visible.slice(0, cut.index).trim() === ""
    ? visible
    : visible.slice(0, cut.index);
  const marked = findFinalAnswer(text);
  if (marked !== null && !UNMARKED.includes(marked.convention)) {
    const first = new RegExp(NUMBER).exec(marked.text)?.[0];
    if (first !== undefined) return first;
    if (EXPLICIT_CONVENTIONS.includes(marked.convention)) return null;
  }
  return text.match(new RegExp(NUMBER, "g"))?.at(-1) ?? null;
}

/** `gsm8k-number`: GSM8K's default. */
export const gsm8kNumber: Scorer = {
  name: "gsm8k-number",
  description: "The first number of the final answer as marked in the common conventions (the " +
    'last "Final Answer:", <answer>, \\boxed{}, "#### N" or trailing JSON "answer", else the last ' +
    '"Answer:" or "the answer is"), else the last number (<think> blocks and a few-shot ' +
    "continuation dropped), compared with the target as numbers (commas, $, trailing .0 " +
    "ignored). GSM8K's default.",
  source: "runlens (lib/benchmarks/gsm8k/scorers.ts), after the data set's `#### N` convention",
  benchmarks: ["gsm8k"],
  needs: [],
  score(response, target) {
    const extracted = gsm8kAnswer(response);
    const correct = extracted !== null && matchAnswer(extracted, target);
    return { extracted, correct, found: extracted !== null };
  },
};
