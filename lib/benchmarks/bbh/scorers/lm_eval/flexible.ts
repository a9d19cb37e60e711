/**
 * `lm-eval-flexible`: lm-evaluation-harness `bbh_cot_zeroshot`, filter `flexible-extract`
 * (per task, see `lm_eval/bbh_cot_zeroshot.ts`), then `take_first`, scored with the
 * cot_zeroshot `exact_match` (ignore case; ".$", ",", "\\", "\n", '"' removed from both sides).
 *
 * Per task: `\b(True|False)\b`, `\b(Yes|No|yes|no)\b`, `\b(valid|invalid)\b` and the Dyck
 * bracket runs take the LAST match (`group_select: -1`); sports_understanding and web_of_lies
 * map the last yes/no phrase of the lower-cased response to "yes"/"no"; the arithmetic tasks
 * take the last `[-0-9]+` run, else an English number phrase; word_sorting keeps the listed
 * words in the order of their last occurrence; the 17 multiple-choice tasks take the last
 * "(X)", else the last option text (case and punctuation ignored), else the last ": X".
 * "[invalid]" when nothing is found.
 *
 * An answer is found (`found`, `lmEvalVerdict` of `get_answer.ts`: an answer the rule can
 * score) when the filter matched (not "[invalid]", not empty) and its output has the form of
 * an answer to the target as the metric compares them (case and punctuation ignored); null
 * where the rule cannot score the row (a task outside BBH, a missing input).
 *
 * @example
 * ```ts
 * import { lmEvalFlexible } from "@runlens/benchmarks/bbh/scorers/lm_eval/flexible.ts";
 * import assert from "node:assert/strict";
 * const v = lmEvalFlexible.score("Jane is lying, so yes", "Yes", { task: "web_of_lies" });
 * assert.deepEqual(v, { extracted: "yes", correct: true, found: true });
 * ```
 * @module
 */
import { FLEXIBLE_FILTERS, type FlexibleSpec } from "./bbh_cot_zeroshot.ts";
import { lmEvalVerdict } from "./get_answer.ts";
import {
  mapRegexFilter,
  multiChoiceRegexFilter,
  numberParseRegexFilter,
  regexFilter,
  wordSortFilter,
} from "../../../../scorers/lm_eval/filters.ts";
import type { ScoreContext, Scorer, Verdict } from "../../../../scorers/types.ts";

/**
 * The filter spec of a task (null for tasks outside BBH).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(flexibleSpec("word_sorting")?.kind, "word_sort");
 * assert.equal(flexibleSpec("zebra_puzzles"), null); // a BBEH task
 * ```
 */
export function flexibleSpec(task: string | null | undefined): FlexibleSpec | null {
  return task && Object.hasOwn(FLEXIBLE_FILTERS, task) ? FLEXIBLE_FILTERS[task] : null;
}

/**
 * The `flexible-extract` output for one response; null where the rule cannot score (unknown
 * task, missing input, or the harness itself would raise).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(extractFlexible("It has 3 + 4 = 7 legs", "object_counting", null), "7");
 * assert.equal(extractFlexible("(B) it is", "snarks", null), null); // needs the input
 * ```
 */
export function extractFlexible(
  response: string,
  task: string | null | undefined,
  input: string | null | undefined,
): string | null {
  const spec = flexibleSpec(task);
  if (!spec) return null;
  switch (spec.kind) {
    case "regex":
      return regexFilter(response, spec.pattern, spec.groupSelect);
    case "map":
      return mapRegexFilter(response, spec.patternToValue, spec.groupSelect, spec.ignoreCase);
    case "number":
      return numberParseRegexFilter(response, spec.pattern, spec.groupSelect);
    case "word_sort":
      return input == null ? null : wordSortFilter(response, input);
    case "multi_choice":
      return input == null ? null : multiChoiceRegexFilter(response, input, {
        pattern: spec.pattern,
        groupSelect: spec.groupSelect,
        ignoreCase: spec.ignoreCase,
        ignorePunct: spec.ignorePunctuation,
      });
  }
}

function score(response: string, target: string, ctx: ScoreContext = {}): Verdict {
  const extracted = extractFlexible(response, ctx.task, ctx.input);
  if (extracted === null) return { extracted: null, correct: null, found: null };
  return lmEvalVerdict(extracted, target, "zeroshot");
}

/** `lm-eval-flexible`. */
export const lmEvalFlexible: Scorer = {
  name: "lm-eval-flexible",
  description: 'lm-evaluation-harness bbh_cot_zeroshot "flexible-extract": per-task ' +
    "filters (last True/False, Yes/No, valid/invalid, bracket run or number; yes/no phrase " +
    "maps; word order by last occurrence; last (X), else option text, else ': X'), " +
    '"[invalid]" when nothing is found; exact match ignoring case, a final ".", commas, ' +
    "backslashes, newlines and double quotes. Needs the task and input columns.",
  source: "EleutherAI/lm-evaluation-harness lm_eval/tasks/bbh/cot_zeroshot/<task>.yaml @ " +
    "2a59f1d and utils.py @ 2542e47 (see lib/benchmarks/bbh/scorers/lm_eval/bbh_cot_zeroshot.ts)",
  benchmarks: ["bbh"],
  needs: ["task", "input"],
  lmEvalFilter: "flexible-extract",
  score,
};
