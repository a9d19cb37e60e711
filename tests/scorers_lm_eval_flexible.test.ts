/**
 * `lm-eval-flexible` (bbh_cot_zeroshot flexible-extract): hand-written cases per filter kind,
 * including the harness's quirks, held to the scalar form, called directly and through scoreFrame.
 * @module
 */
import assert from "node:assert/strict";
import { checkScorerCases, type ScorerCase } from "@runlens/scorers/conformance.ts";
import { getScorer } from "@runlens/benchmarks/registry.ts";

const c = (
  task: string,
  response: string | null,
  target: string,
  extracted: string | null,
  correct: boolean | null,
  why: string,
  input?: string,
): ScorerCase => ({ task, response, target, extracted, correct, why, input });

const MC_INPUT = "Which fruit is red?\nOptions:\n(A) apple\n(B) sky\n(C) grass";
const MOVIES = "Find a movie similar to Heat:\nOptions:\n(A) Batman\n(B) Batman Returns\n(C) Alien";
const NESTED = "Pick one:\nOptions:\n(A) Batman Returns\n(B) Returns";
const WORDS = "Sort the following words alphabetically: List: pear apple fig";

/** Cases whose expectations were also checked with CPython's `re` and the harness code. */
export const FLEXIBLE_CASES: ScorerCase[] = [
  // regex: \b(True|False)\b, last match
  c(
    "boolean_expressions",
    "not True is False. So the answer is True.",
    "True",
    "True",
    true,
    "last whole word",
  ),
  c(
    "boolean_expressions",
    "TrueFalse",
    "True",
    "[invalid]",
    false,
    "no word boundary inside a word",
  ),
  c(
    "boolean_expressions",
    "ÉTrue or True_",
    "True",
    "[invalid]",
    false,
    "É and _ are word characters (Unicode \\w)",
  ),
  c(
    "boolean_expressions",
    "it is true",
    "True",
    "[invalid]",
    false,
    "the regex itself is case-sensitive",
  ),
  // regex: \b(Yes|No|yes|no)\b
  c("navigate", "Yes, we return... no", "No", "no", true, "exact_match ignores case"),
  c(
    "causal_judgement",
    "Nobody knows. YES",
    "Yes",
    "[invalid]",
    false,
    "'Nobody' is no word match, YES not listed",
  ),
  // regex: \b(valid|invalid)\b
  c(
    "formal_fallacies",
    "It is valid, not invalid",
    "invalid",
    "invalid",
    true,
    "'valid' inside 'invalid' has no boundary",
  ),
  // dyck: last run of bracket/space/quote characters, stripped
  c("dyck_languages", "So the answer is ] ) >.", "] ) >", "] ) >", true, "last run, stripped"),
  c(
    "dyck_languages",
    "So the answer is ] ) >. Done now",
    "] ) >",
    "",
    false,
    "the last run is the single space between two words",
  ),
  c("dyck_languages", "answer:\n} ]", "} ]", "} ]", true, "a run may start the line"),
  // map: sports_understanding
  c(
    "sports_understanding",
    "This is not plausible.",
    "no",
    "no",
    true,
    "'not plausible' maps to no",
  ),
  c(
    "sports_understanding",
    "Plausible? Not plausible",
    "no",
    "no",
    true,
    "lower-cased first; the last match is 'not plausible'",
  ),
  c("sports_understanding", "not plausible, but plausible", "yes", "yes", true, "last match"),
  c("sports_understanding", "it is implausible", "no", "[invalid]", false, "no whole word"),
  c(
    "sports_understanding",
    "cannot plausible",
    "yes",
    "yes",
    true,
    "'not' inside 'cannot' has no boundary",
  ),
  c("sports_understanding", "not plausible not plausible", "no", "no", true, "adjacent phrases"),
  c(
    "sports_understanding",
    "not  plausible",
    "yes",
    "yes",
    true,
    "two spaces: only 'plausible' matches",
  ),
  // map: web_of_lies
  c(
    "web_of_lies",
    "Jane tells the truth. So Bob does not tell the truth.",
    "No",
    "no",
    true,
    "last phrase maps to no",
  ),
  c("web_of_lies", "Ka Is Telling The Truth", "Yes", "yes", true, "lower-cased before matching"),
  c("web_of_lies", "nothing to see", "Yes", "[invalid]", false, "no phrase"),
  // number: last [-0-9]+ run, else English number words
  c("object_counting", "2 apples and 3 pears, so 5.", "5", "5", true, "last run"),
  c("object_counting", "5 fruits in a well-known basket", "5", "-", false, "a hyphen is a run too"),
  c(
    "multistep_arithmetic_two",
    "(-3 + 4) * -12 = -12",
    "-12",
    "-12",
    true,
    "minus signs belong to the run",
  ),
  c(
    "object_counting",
    "There are twenty one items",
    "21",
    "21",
    true,
    "English words through word2number",
  ),
  c(
    "object_counting",
    "I often count",
    "10",
    "10",
    true,
    "no word boundaries: 'often' holds 'ten'",
  ),
  c(
    "object_counting",
    "There are seven",
    "7",
    "[invalid]",
    false,
    "a phrase cannot end in bare 'seven'",
  ),
  c(
    "object_counting",
    "thousand thousand",
    "1",
    null,
    null,
    "word_to_num raises: the harness would die",
  ),
  // word_sort: listed words ordered by their last occurrence
  c(
    "word_sorting",
    "apple, fig, pear",
    "apple fig pear",
    "apple fig pear",
    true,
    "commas ignored",
    WORDS,
  ),
  c(
    "word_sorting",
    "pear apple fig\nSorted: apple fig pear",
    "apple fig pear",
    "apple fig pear",
    true,
    "last occurrences decide",
    WORDS,
  ),
  c("word_sorting", "pineapple figs", "apple fig pear", "", false, "no whole word", WORDS),
  c(
    "word_sorting",
    "o'neil zed",
    "o'neil zed",
    "o'neil zed",
    true,
    "apostrophes inside words",
    "List: zed o'neil",
  ),
  c(
    "word_sorting",
    "a b",
    "a b",
    null,
    null,
    "no 'List:' in the input: the harness would die",
    "Sort: a b",
  ),
  // multiple choice
  c("date_understanding", "The answer is (A).", "(A)", "(A)", true, "step 1: last (X)", MC_INPUT),
  c(
    "date_understanding",
    "(B) is wrong, (A) is right",
    "(A)",
    "(A)",
    true,
    "step 1: the LAST (X)",
    MC_INPUT,
  ),
  c(
    "date_understanding",
    "It is the Apple!",
    "(A)",
    "(A)",
    true,
    "step 2: option text, case and punctuation ignored",
    MC_INPUT,
  ),
  c(
    "date_understanding",
    "It’s «apple»",
    "(A)",
    "(A)",
    true,
    "Unicode punctuation removed",
    MC_INPUT,
  ),
  c(
    "date_understanding",
    "(a) apple or sky",
    "(B)",
    "(B)",
    true,
    "step 1 is case-sensitive; step 2 takes the last option text",
    MC_INPUT,
  ),
  c("date_understanding", "Answer: B", "(B)", "(B)", true, "step 3: ': B'", MC_INPUT),
  c(
    "date_understanding",
    "Answer: D",
    "(A)",
    "[invalid]",
    false,
    "step 3 only knows letters A-C",
    MC_INPUT,
  ),
  c("date_understanding", "nothing here", "(A)", "[invalid]", false, "fallback", MC_INPUT),
  c(
    "movie_recommendation",
    "I pick Batman Returns",
    "(B)",
    "(A)",
    false,
    "leftmost-first: 'batman' (A) wins at that position",
    MOVIES,
  ),
  c(
    "movie_recommendation",
    "batman returns",
    "(A)",
    "(A)",
    true,
    "findall consumed 'batman returns'; 'returns' inside it is never a match",
    NESTED,
  ),
  c(
    "hyperbaton",
    "foo it is",
    "(A)",
    "foo",
    false,
    "option 'foo !' → key 'foo ' (space kept) → the stripped match has no letter",
    "Options:\n(A) foo !\n(B) bar",
  ),
  c(
    "snarks",
    "same",
    "(A)",
    "(B)",
    false,
    "a repeated option keeps its last letter",
    "Options:\n(A) Same\n(B) same.",
  ),
  c(
    "ruin_names",
    "yes",
    "(A)",
    "(B)",
    false,
    "every (X) in the input is an option, lettered by position",
    "Is (A) correct?\nOptions:\n(A) yes\n(B) no",
  ),
  c("date_understanding", "(A)", "(A)", null, null, "no input: options unknown", undefined),
  c(
    "date_understanding",
    "it is B\x01C",
    "(B)",
    "(B)",
    true,
    "control characters in options (scalar path)",
    "Options:\n(A) a\n(B) b\x01c",
  ),
  // unknown task, missing response
  c("not_a_task", "True", "True", null, null, "not a BBH task"),
  c("boolean_expressions", null, "True", null, null, "missing response"),
];

Deno.test("lm-eval-flexible: table, scalar and through scoreFrame", () => {
  assert.deepEqual(checkScorerCases(getScorer("lm-eval-flexible"), FLEXIBLE_CASES), []);
});

Deno.test("lm-eval-flexible: more than 26 options is not scored (the harness dies)", () => {
  const input = Array.from({ length: 27 }, (_, i) => `(A) option ${i}`).join("\n");
  assert.deepEqual(
    checkScorerCases(getScorer("lm-eval-flexible"), [
      c("geometric_shapes", "(A)", "(A)", null, null, "27 options", input),
    ]),
    [],
  );
});
