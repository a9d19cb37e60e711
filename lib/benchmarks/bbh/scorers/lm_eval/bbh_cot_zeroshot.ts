/**
 * The `flexible-extract` filter of each lm-evaluation-harness `bbh_cot_zeroshot` task, as
 * data, with where each entry was read.
 *
 * Read from EleutherAI/lm-evaluation-harness `lm_eval/tasks/bbh/cot_zeroshot/<task>.yaml` at
 * commit 2a59f1d (the `gen_prefix` version): boolean_expressions, date_understanding,
 * formal_fallacies, geometric_shapes, movie_recommendation, navigate, object_counting,
 * penguins_in_a_table, ruin_names, word_sorting. The fork Sypherd/lm-evaluation-harness
 * (commits aa70bce, af19b71; filters registered under other names, same parameters) gives
 * multistep_arithmetic_two, sports_understanding, web_of_lies and the other multiple-choice
 * tasks. Upstream disambiguation_qa (92f9665) and hyperbaton (12d4505) have the same
 * parameters but name the core `multi_choice_regex` filter, which reads `doc["choices"]`
 * (BBH docs have none): an intermediate state. causal_judgement and dyck_languages were NOT
 * found in any stored copy of the harness: their entries follow a third-party grader that
 * vendors the harness configs (the same regex as navigate for causal_judgement). Older
 * versions (e.g. 18f12c6) had one "get-answer" filter with other regexes and `take_last`.
 * Every task also has `strict-match` (`./strict.ts`); `take_first` follows each filter.
 *
 * Version note: newer harness copies sort the option alternatives longest-first (so "Batman
 * Returns" is no longer shadowed by an earlier option "Batman") and return "" for an all-empty
 * group tuple; this port follows `utils.py` @ 2542e47, where the input order decides.
 *
 * @example
 * ```ts
 * import { FLEXIBLE_FILTERS } from "@runlens/benchmarks/bbh/scorers/lm_eval/bbh_cot_zeroshot.ts";
 * import assert from "node:assert/strict";
 * assert.deepEqual(FLEXIBLE_FILTERS.navigate, {
 *   kind: "regex",
 *   pattern: "\\b(Yes|No|yes|no)\\b",
 *   groupSelect: -1,
 * });
 * assert.equal(Object.keys(FLEXIBLE_FILTERS).length, 27);
 * ```
 * @module
 */

/** `regex` (`RegexFilter`). */
export interface RegexSpec {
  kind: "regex";
  pattern: string;
  groupSelect: number;
}

/** `utils.MapRegexFilter`. */
export interface MapSpec {
  kind: "map";
  patternToValue: readonly (readonly [string, string])[];
  groupSelect: number;
  ignoreCase: boolean;
}

/** `utils.NumberParseRegexFilter`. */
export interface NumberSpec {
  kind: "number";
  pattern: string;
  groupSelect: number;
}

/** `utils.WordSortFilter`. */
export interface WordSortSpec {
  kind: "word_sort";
}

/** `utils.MultiChoiceRegexFilter`. */
export interface MultiChoiceSpec {
  kind: "multi_choice";
  pattern: string;
  groupSelect: number;
  ignoreCase: boolean;
  ignorePunctuation: boolean;
}

/** One task's flexible-extract filter. */
export type FlexibleSpec = RegexSpec | MapSpec | NumberSpec | WordSortSpec | MultiChoiceSpec;

const regex = (pattern: string): RegexSpec => ({ kind: "regex", pattern, groupSelect: -1 });
const YES_NO = regex("\\b(Yes|No|yes|no)\\b");
const NUMBER: NumberSpec = { kind: "number", pattern: "([-0-9]+)", groupSelect: -1 };
const MC: MultiChoiceSpec = {
  kind: "multi_choice",
  pattern: "(\\([A-Z]\\))",
  groupSelect: -1,
  ignoreCase: true,
  ignorePunctuation: true,
};

/** Dyck closing brackets: `(?<= )([" \[\(<{}>\)\]]+)|([" \[\(<{}>\)\]]+)`. */
export const DYCK_PATTERN = '(?<= )([" \\[\\(<{}>\\)\\]]+)|([" \\[\\(<{}>\\)\\]]+)';

/** sports_understanding's `regex_pattern_to_value`. */
export const SPORTS_MAP = [
  ["\\b(no|not plausible)\\b", "no"],
  ["\\b(yes|plausible)\\b", "yes"],
] as const;

/** web_of_lies's `regex_pattern_to_value`. */
export const WEB_OF_LIES_MAP = [
  ["\\b(no|does not tell the truth|is not telling the truth)\\b", "no"],
  ["\\b(yes|tells the truth|is telling the truth)\\b", "yes"],
] as const;

/** flexible-extract per BBH task. */
export const FLEXIBLE_FILTERS: Readonly<Record<string, FlexibleSpec>> = {
  boolean_expressions: regex("\\b(True|False)\\b"),
  causal_judgement: YES_NO,
  date_understanding: MC,
  disambiguation_qa: MC,
  dyck_languages: regex(DYCK_PATTERN),
  formal_fallacies: regex("\\b(valid|invalid)\\b"),
  geometric_shapes: MC,
  hyperbaton: MC,
  logical_deduction_five_objects: MC,
  logical_deduction_seven_objects: MC,
  logical_deduction_three_objects: MC,
  movie_recommendation: MC,
  multistep_arithmetic_two: NUMBER,
  navigate: YES_NO,
  object_counting: NUMBER,
  penguins_in_a_table: MC,
  reasoning_about_colored_objects: MC,
  ruin_names: MC,
  salient_translation_error_detection: MC,
  snarks: MC,
  sports_understanding: {
    kind: "map",
    patternToValue: SPORTS_MAP,
    groupSelect: -1,
    ignoreCase: true,
  },
  temporal_sequences: MC,
  tracking_shuffled_objects_five_objects: MC,
  tracking_shuffled_objects_seven_objects: MC,
  tracking_shuffled_objects_three_objects: MC,
  web_of_lies: { kind: "map", patternToValue: WEB_OF_LIES_MAP, groupSelect: -1, ignoreCase: true },
  word_sorting: { kind: "word_sort" },
};
