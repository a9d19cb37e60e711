/**
 * The `lenient` extractor: a table of hand-written cases (each with its reason), held to the
 * scalar form called directly and through `scoreFrame` by `checkScorerCases`, plus its helpers.
 * @module
 */
import assert from "node:assert/strict";
import { checkScorerCases, type ScorerCase } from "@runlens/scorers/conformance.ts";
import { lenient, lenientExtract } from "@runlens/scorers/lenient.ts";
import { dropMarkup, findFinalAnswer, hideThinking } from "@runlens/scorers/answer_conventions.ts";
import { parseOptions } from "@runlens/scorers/answer_match.ts";
import { getScorer } from "@runlens/benchmarks/registry.ts";
import { ANY_BENCHMARK, appliesTo } from "@runlens/scorers/types.ts";

const DATE_INPUT = "Today is Christmas Eve of 1937. What is the date tomorrow in MM/DD/YYYY?\n" +
  "Options:\n(A) 12/11/1937\n(B) 12/25/1937\n(C) 01/04/1938\n(D) 12/04/1937";
const NAME_INPUT = "Who is the tallest?\nOptions:\n(A) Bob\n(B) Bobby\n(C) Alice";

const c = (
  response: string,
  target: string,
  extracted: string | null,
  correct: boolean,
  why: string,
  input?: string,
): ScorerCase => ({ response, target, extracted, correct, why, input });

const CASES: ScorerCase[] = [
  // --- option letters -------------------------------------------------------------------
  c("So the answer is (B).", "(B)", "(B)", true, "the BBH cue with a final period"),
  c("The answer is: B", "(B)", "(B)", true, "BBEH-style prefix, bare letter"),
  c("Answer: (b)", "(B)", "(B)", true, '"Answer:" cue, lower-case letter in parentheses'),
  c("**Answer: B**", "(B)", "(B)", true, "bold markup removed"),
  c("Final answer: C)", "(C)", "(C)", true, "bare letter followed by )"),
  c("Reasoning…\n\n(D)", "(D)", "(D)", true, "no cue: the last non-empty line"),
  c("the answer is b.", "(B)", "(B)", true, "cue and letter are case-insensitive"),
  c("Answer:\n\n  (A)\n", "(A)", "(A)", true, "empty rest of line: next non-empty line"),
  c("The answer is 12/25/1937.", "(B)", "(B)", true, "option text maps to its letter", DATE_INPUT),
  c("The answer is (B) 12/25/1937", "(B)", "(B)", true, "letter and its own text", DATE_INPUT),
  c(
    "The answer is (A) 12/25/1937",
    "(B)",
    null,
    false,
    "ADVERSARIAL: letter (A) contradicted by option B's text: no answer",
    DATE_INPUT,
  ),
  c("The answer is (A) or (B).", "(A)", null, false, "ADVERSARIAL: two candidate letters"),
  c("The answer is Bobby.", "(B)", "(B)", true, "option text containing another one", NAME_INPUT),
  c("The answer is Bob.", "(A)", "(A)", true, "shorter option text, whole word", NAME_INPUT),
  c(
    "Either Bob or Alice. The answer is Bob or Alice",
    "(A)",
    null,
    false,
    "ADVERSARIAL: two option texts, no letter",
    NAME_INPUT,
  ),
  c(
    "The answer is 12/25/1937.",
    "(B)",
    "12/25/1937",
    false,
    "option text without options in input: an answer (found), not mappable to a letter: wrong",
  ),
  c(
    "If the answer were (A), the date would be wrong. So the answer is (B).",
    "(B)",
    "(B)",
    true,
    "ADVERSARIAL: a hypothetical answer earlier in the reasoning",
  ),
  c(
    "The answer is (C). Note that 'the answer is (A)' would be a trap.",
    "(C)",
    "(C)",
    true,
    "ADVERSARIAL: the candidate ends at the first sentence; the quoted cue is skipped",
  ),
  c(
    'Some say "the answer is (A)".\nThe answer is (C).',
    "(C)",
    "(C)",
    true,
    "ADVERSARIAL: quoted answer inside the reasoning, real answer last",
  ),
  c(
    "<think>The answer is (A).</think>\nThe answer is (C).",
    "(C)",
    "(C)",
    true,
    "ADVERSARIAL: think block holds a different answer",
  ),
  c(
    "<think>Hmm (A)?</think>",
    "(A)",
    null,
    false,
    "ADVERSARIAL: the only answer is inside the think block",
  ),
  c(
    "<THINK>so (A)</THINK>(B)",
    "(B)",
    "(B)",
    true,
    "think tags are case-insensitive",
  ),
  c(
    "reasoning without an opening tag (A)</think>\nAnswer: (D)",
    "(D)",
    "(D)",
    true,
    "lone closing tag: everything before it is reasoning",
  ),
  c(
    "Answer: (B)\n<think>actually (A)",
    "(B)",
    "(B)",
    true,
    "unclosed think block: everything after the tag is reasoning",
  ),
  c("A bird in the hand.", "(A)", null, false, "a sentence starting with 'A' is not a letter"),
  c("$\\boxed{(C)}$", "(C)", "(C)", true, "LaTeX boxed answer"),
  // --- binary answers -------------------------------------------------------------------
  c("So the answer is Yes.", "Yes", "yes", true, "yes/no word"),
  c("The answer is: yes", "Yes", "yes", true, "case-insensitive yes"),
  c("The answer is **No**.", "Yes", "no", false, "bold no against target Yes"),
  c("So the answer is True.", "True", "true", true, "true/false word"),
  c("FALSE", "False", "false", true, "upper-case last line"),
  c("The answer is: invalid", "invalid", "invalid", true, "invalid is not 'valid'"),
  c("The argument is valid.", "valid", "valid", true, "no cue: last line, word found"),
  c(
    "not False and False = not False and False = not False and False = not False and False = x",
    "False",
    null,
    false,
    "ADVERSARIAL: no cue and a long last line (degenerate loop): not an answer",
  ),
  c(
    "The answer is yes or no, hard to say.",
    "no",
    null,
    false,
    "ADVERSARIAL: both words of the pair: no answer",
  ),
  c(
    "<think>No wait, Yes.</think>Final answer: No",
    "No",
    "no",
    true,
    "ADVERSARIAL: think block with the other word",
  ),
  c(
    "The answer is: Ambiguous",
    "Yes",
    "Ambiguous",
    false,
    "no word of the pair, but one word: an answer (BBEH causal_understanding has Ambiguous)",
  ),
  c("The answer is: hard to tell", "Yes", null, false, "no word of the pair, not one word"),
  // --- numbers ---------------------------------------------------------------------------
  c("So the answer is 24.", "24", "24", true, "number with a final period"),
  c("The answer is 1,000.", "1000", "1000", true, "thousands comma removed"),
  c("So the answer is -11520.", "-11520", "-11520", true, "negative number"),
  c("The final answer is $\\boxed{42}$", "42", "42", true, "boxed number"),
  c("Answer: 3 + 4 = 7", "7", "7", true, "after the last '='"),
  c("The answer is 5 apples and 3 pears.", "8", null, false, "ADVERSARIAL: several numbers"),
  c("The answer is 42.0", "42", "42", true, "numbers compare by value"),
  c("I count 6 items.\nThe answer is 7.", "6", "7", false, "the cue wins over an earlier number"),
  // --- free text ---------------------------------------------------------------------------
  c("So the answer is ) ] }.", ") ] }", ") ] }", true, "dyck closing brackets"),
  c("The answer is: Apple Banana", "apple banana", "Apple Banana", true, "case-insensitive"),
  c("The answer is: no, unknown, yes", "No,Unknown,Yes", "no, unknown, yes", true, "commas"),
  c("The answer is: 'unanswerable'", "unanswerable", "'unanswerable'", true, "quotes stripped"),
  c("The answer is: [emma, lily]", "emma, lily", "[emma, lily]", true, "brackets stripped"),
  c("", "foo", null, false, "empty response: no answer"),
  c("  \n \n", "(A)", null, false, "blank response: no answer"),
  // --- review of issue 22, finding 4: unmarked lines, labels, other languages ------------
  c("Let me reason.\nVerdict: Ambiguous", "Ambiguous", "Ambiguous", true, "a label's value"),
  c("Let me reason.\nVerdict: Yes", "Yes", "yes", true, "a label's value, yes/no"),
  c("Let me reason.\nVerdict: Ambiguous", "Yes", "Ambiguous", false, "labelled: off-type, wrong"),
  c("Let me reason.\nResult: disproved", "proved", "disproved", false, "label, free text, wrong"),
  c(
    "Let me reason about the rules of this game.",
    "proved",
    null,
    false,
    "ADVERSARIAL: an unmarked sentence is reasoning, not a free-text answer",
  ),
  c("Reasoning.\nThus we get 1,1,0", "1,1,0", null, false, "ADVERSARIAL: a sentence, no answer"),
  c("Pensemos.\nLa respuesta es Ambiguous.", "Ambiguous", "Ambiguous", true, "Spanish cue"),
  c("Analyse.\n答案：Ambiguous", "Ambiguous", "Ambiguous", true, "Chinese cue, fullwidth colon"),
  c("Réflexion.\nLa réponse est (C).", "(C)", "(C)", true, "French cue"),
  c("Überlegung.\nDie Antwort ist 12.", "12", "12", true, "German cue"),
  // --- finding 7: negation, corrections, number words, signs, polar words -----------------
  c("Answer: not valid", "valid", "invalid", false, "ADVERSARIAL: a negation turns the word"),
  c("Answer: not valid", "invalid", "invalid", true, "not valid is invalid"),
  c("The statement isn't true.", "False", "false", true, "n't turns true into false"),
  c(
    "I'd say (A) at first. Actually, on reflection, it's (D).",
    "(D)",
    "(D)",
    true,
    "ADVERSARIAL: two letters, the last after a correction",
  ),
  c(
    "I'd say (A) at first. Then maybe (D).",
    "(D)",
    null,
    false,
    "ADVERSARIAL: two letters in an unmarked line, no correction: no answer",
  ),
  c("The answer is (D) kite, not (A) circle.", "(D)", "(D)", true, "a negated option set aside"),
  c("Answer: plausible", "yes", null, false, "ADVERSARIAL: yes or no? no task knowledge"),
  c("Answer: implausible", "no", null, false, "ADVERSARIAL: polar word, no answer"),
  c("There are 8 items.\nAnswer: eight", "8", "8", true, "a number in words"),
  c("The answer is twenty-one.", "21", "21", true, "a hyphenated number word"),
  c("The answer is one or two.", "2", null, false, "ADVERSARIAL: two number words"),
  c("The answer is − 50", "-50", "-50", true, "a Unicode minus set apart"),
  c("The answer is − 50", "50", "-50", false, "ADVERSARIAL: the sign is not dropped"),
];

Deno.test("lenient: at least 40 table cases, each with a reason", () => {
  assert.ok(CASES.length >= 40, `${CASES.length} cases`);
  for (const k of CASES) assert.ok(k.why.length > 5);
  assert.ok(CASES.filter((k) => k.why.startsWith("ADVERSARIAL")).length >= 8);
});

Deno.test("lenient: every table case, scalar and through scoreFrame", () => {
  assert.deepEqual(checkScorerCases(getScorer("lenient"), CASES), []);
});

Deno.test("lenient: registered, needs input, for any benchmark (one not registered too)", () => {
  assert.equal(getScorer("lenient"), lenient);
  assert.deepEqual(lenient.needs, ["input"]);
  assert.equal(lenient.benchmarks, ANY_BENCHMARK);
  for (const b of ["bbh", "bbeh", "bbm", "arb", "gsm8k"]) assert.ok(appliesTo(lenient, b), b);
});

Deno.test("lenient helpers: think blocks, markup, candidate, options", () => {
  assert.equal(hideThinking("a<think>x</think>b<thinking>y</thinking>c"), "a\nb\nc");
  assert.equal(dropMarkup("**`x`** $\\boxed{\\text{y}}$"), "x y");
  assert.deepEqual(findFinalAnswer("line 1\nline 2\n"), {
    text: "line 2",
    convention: "last-line",
  });
  assert.equal(findFinalAnswer("   "), null);
  assert.deepEqual([...parseOptions(DATE_INPUT).keys()], ["A", "B", "C", "D"]);
  assert.equal(parseOptions(null).size, 0);
  assert.equal(lenientExtract("So the answer is (B).", "(B)"), "(B)");
});

Deno.test("lenient: missing response or target is not scored (scoreFrame)", () => {
  assert.deepEqual(
    checkScorerCases(getScorer("lenient"), [{
      response: null,
      target: "(A)",
      extracted: null,
      correct: null,
      why: "null response",
    }]),
    [],
  );
});
