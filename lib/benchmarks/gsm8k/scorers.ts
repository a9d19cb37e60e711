/**
 * GSM8K's scorers. `gsm8k-strict` and `gsm8k-flexible` reproduce lm-evaluation-harness's
 * `gsm8k` task (`lm_eval/tasks/gsm8k/gsm8k.yaml`, version 3.0, @ 47f16bf) to the character:
 * its two regex filters, then `take_first`, then `exact_match` with `ignore_case` and
 * `regexes_to_ignore: [",", "\\$", "(?s).*#### ", "\\.$"]` — a string compare, so `18.00` is
 * not `18`. `gsm8k-number`, the default, reads the answer as people write it and compares
 * numbers as numbers. Each finds an answer (`found`) when its pattern matched.
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
import { hideThinking } from "../../scorers/answer_conventions.ts";
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
/** A `#### N` line (`#### 18`, `#### $18.00 dollars.`), not a heading (`#### 1. Add`). */
const MARKER = new RegExp(String.raw`####[ \t]*(${NUMBER})[ \t]*\p{L}*\.?[ \t]*$`, "mu");
const ANSWER_IS = new RegExp(String.raw`the (?:final )?answer is:?[ \t*]*(${NUMBER})`, "iu");

/**
 * The answer `gsm8k-number` reads: the first `#### N` line, else the first "the answer is N",
 * else the last number (the first marker, because a model may go on with a new problem of its
 * own after answering); `<think>` blocks hidden. Null: no number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(gsm8kAnswer("#### 1. Eggs: 16 - 3 = 13\nThe answer is $1,300."), "$1,300");
 * assert.equal(gsm8kAnswer("no idea"), null);
 * ```
 */
export function gsm8kAnswer(response: string): string | null {
  const text = hideThinking(response);
  const cue = MARKER.exec(text) ?? ANSWER_IS.exec(text);
  return cue?.[1] ?? text.match(new RegExp(NUMBER, "g"))?.at(-1) ?? null;
}

/** `gsm8k-number`: GSM8K's default. */
export const gsm8kNumber: Scorer = {
  name: "gsm8k-number",
  description: 'The first "#### N" line, else the first "the answer is N" (any case), else ' +
    "the last number (<think> blocks hidden), compared with the target as numbers (commas, $, " +
    "trailing .0 ignored). GSM8K's default.",
  source: "runlens (lib/benchmarks/gsm8k/scorers.ts), after the data set's `#### N` convention",
  benchmarks: ["gsm8k"],
  needs: [],
  score(response, target) {
    const extracted = gsm8kAnswer(response);
    const correct = extracted !== null && matchAnswer(extracted, target);
    return { extracted, correct, found: extracted !== null };
  },
};
