/**
 * The official BBEH scorer (`bbeh/evaluate.py` of google-deepmind/bbeh), ported rule by rule
 * with its quirks: case-sensitive answer prefixes applied cumulatively (text after the LAST
 * occurrence of each), Python `strip()`/`lower()`/`float()` semantics, `split("boxed{")[1]`
 * (the text up to a second `boxed{`, not to the matching brace), a trailing "." removed from
 * the prediction but never from the target.
 *
 * {@link bbehOfficial} scores one response; `official_scorer.ts` registers it as the
 * `bbeh-official` scorer, and `tail.ts` gives the same verdict from the bytes of a JSON log
 * line, usually decoding only the response's end. This module does not load polars (Workers
 * import it).
 *
 * An answer is found ({@link bbehAnswerFound}: an answer the rule can score) when the
 * extracted answer has the form of an answer to the target that the official matching could
 * accept ({@link bbehAnswerForm}: a letter, with or without parentheses, for a letter target;
 * a number for a number; free text of answer length otherwise) and the rule read it where an
 * answer is: after an answer prefix, or a one-line response (the official code reads it
 * whole), or a first line of a closed form (a letter or number). So
 * `After checking each step carefully, the answer is (E).` (lower-case "the": no prefix) is
 * no answer, nor is the first line of a multi-line response without a prefix (the start of
 * the reasoning). A right answer is always found.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbehOfficial } from "@runlens/benchmarks/bbeh/scorer.ts";
 * assert.ok(bbehOfficial("Thinking… The answer is: (B)", "(B)").correct);
 * assert.ok(!bbehOfficial("the answer is: (B)", "(B)").correct); // prefix is case-sensitive
 * ```
 * @module
 */
import { pyFloat, pyStrip } from "../../core/python.ts";
import { answerLength } from "../../scorers/answer_form.ts";

/**
 * Name recorded on every row this scorer produces.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(BBEH_OFFICIAL, "bbeh-official");
 * ```
 */
export const BBEH_OFFICIAL = "bbeh-official";

/**
 * The answer prefixes, in the order the official code tries them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(BBEH_ANSWER_PREFIXES[0], "The answer is:"); // tried first, case-sensitive
 * ```
 */
export const BBEH_ANSWER_PREFIXES = [
  "The answer is:",
  "The final answer is ",
  "The final answer is: ",
  "The answer is ",
] as const;

/** The LaTeX wrappers `strip_latex` unwraps, in order. */
const LATEX_WRAPPERS = ["boxed{", "text{", "texttt{"] as const;

/** A verdict with the extracted answer (after the official pre-processing). */
export interface BbehVerdict {
  /** The answer after the official pre-processing. */
  extracted: string;
  /** The target. */
  target: string;
  /** The official verdict. */
  correct: boolean;
  /** Whether an answer was found ({@link bbehAnswerFound}). */
  found: boolean;
}

/**
 * `extract_answer` + `preprocess_sample`: the normalised prediction of a response.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(bbehExtract("The answer is: A, B.\nmore"), "a,b"); // lower case, ", " → ","
 * assert.equal(bbehExtract("no prefix at all"), "no prefix at all"); // the whole response
 * ```
 */
export function bbehExtract(response: string): string {
  let answer = pyStrip(response);
  for (const prefix of BBEH_ANSWER_PREFIXES) {
    if (answer.includes(prefix)) answer = pyStrip(answer.split(prefix).at(-1)!);
  }
  if (answer.endsWith(".")) answer = answer.slice(0, -1);
  answer = stripLatex(answer).toLowerCase();
  answer = answer.replaceAll(", ", ",").replaceAll("**", "");
  answer = answer.split("\n")[0];
  return answer.endsWith(".") ? answer.slice(0, -1) : answer;
}

function stripLatex(response: string): string {
  if (response.startsWith("$") && response.endsWith("$")) response = response.slice(1, -1);
  for (const wrapper of LATEX_WRAPPERS) {
    if (response.includes(wrapper) && response.endsWith("}")) {
      response = response.slice(0, -1).split(wrapper)[1];
    }
  }
  return response;
}

/** A letter answer as `fuzzy_match` accepts one: `b` or `(b)`. */
const LETTER = /^(?:\([a-z]\)|[a-z])$/;

/** The wrappers `fuzzy_match` looks through: quotes, one pair of brackets, a trailing "?". */
function unwrapped(s: string): string {
  return s.replaceAll("'", "").replace(/^\[([\s\S]*)\]$/, "$1").replace(/\?$/, "");
}

/**
 * Whether a normalised prediction has the form of an answer the official matching could
 * accept for the normalised target: a letter (`b`, `(b)`) for a letter target, a number
 * (Python `float()`) for a number, and otherwise free text of answer length (`answerLength`
 * of `scorers/answer_form.ts`), quotes, brackets and a trailing "?" looked through as
 * `fuzzy_match` does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(bbehAnswerForm("(e)", "b"), true); // a wrong letter, but a letter
 * assert.equal(bbehAnswerForm("1e3", "12"), true);
 * assert.equal(bbehAnswerForm("twelve", "12"), false);
 * assert.equal(bbehAnswerForm("disproved", "proved"), true);
 * assert.equal(bbehAnswerForm("after checking each step carefully,the answer is (e)", "yes"), false);
 * ```
 */
export function bbehAnswerForm(extracted: string, normTarget: string): boolean {
  const e = unwrapped(extracted), t = unwrapped(normTarget);
  if (LETTER.test(t)) return LETTER.test(e);
  if (pyFloat(t) !== null) return pyFloat(e) !== null;
  return e.trim() !== "" && answerLength(extracted, normTarget);
}

/**
 * Whether the official rule found an answer it can score in `response` (or in a suffix of it
 * that holds an answer prefix: the same result, see `tail.ts`), `extracted` being its
 * extraction ({@link bbehExtract}) and `normTarget` the normalised target
 * ({@link bbehNormalizeTarget}): see the module doc.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const found = (r: string, t: string) => bbehAnswerFound(r, bbehExtract(r), t);
 * assert.equal(found("Reasoning…\nThe answer is: (B)", "(c)"), true); // wrong, but an answer
 * assert.equal(found(" 42 \n", "42"), true); // a bare answer
 * assert.equal(found("Reasoning…\nFinal answer: (B)", "(b)"), false); // no official prefix
 * assert.equal(found("The answer is: ", "42"), false); // a prefix, then nothing
 * assert.equal(found("So the answer is (E).", "yes"), false); // a sentence, read whole
 * ```
 */
export function bbehAnswerFound(response: string, extracted: string, normTarget: string): boolean {
  if (bbehFuzzyMatch(extracted, normTarget)) return true;
  if (extracted === "" || !bbehAnswerForm(extracted, normTarget)) return false;
  const stripped = pyStrip(response);
  const t = unwrapped(normTarget);
  return !stripped.includes("\n") || LETTER.test(t) || pyFloat(t) !== null ||
    BBEH_ANSWER_PREFIXES.some((p) => stripped.includes(p));
}

/**
 * `preprocess_reference`: strip, lowercase, ", " → ",".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(bbehNormalizeTarget(" Emma, Lily "), "emma,lily");
 * ```
 */
export function bbehNormalizeTarget(target: string): string {
  return pyStrip(target).toLowerCase().replaceAll(", ", ",");
}

/**
 * `fuzzy_match` on a normalised prediction and target.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.ok(bbehFuzzyMatch("(b)", "b")); // an option letter in parentheses
 * assert.ok(bbehFuzzyMatch("1e3", "1000")); // equal as Python floats
 * assert.ok(!bbehFuzzyMatch("1,000", "1000"));
 * ```
 */
export function bbehFuzzyMatch(prediction: string, reference: string): boolean {
  if (prediction === reference) return true;
  const p = [...prediction];
  const r = [...reference];
  if (p.length === 3 && p[0] === "(" && p[2] === ")") return p[1] === reference;
  if (r.length === 3 && r[0] === "(" && r[2] === ")") return r[1] === prediction;
  const pf = pyFloat(prediction);
  const rf = pyFloat(reference);
  if (pf !== null && rf !== null && pf === rf) return true;
  if (prediction.replaceAll("'", "") === reference.replaceAll("'", "")) return true;
  if (`[${reference}]` === prediction || `[${prediction}]` === reference) return true;
  return prediction.endsWith("?") && prediction.slice(0, -1) === reference;
}

/**
 * Score one response against one target with the official rules.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const v = bbehOfficial("The final answer is $\\boxed{42}$.", "42");
 * assert.deepEqual(v, { extracted: "42", target: "42", correct: true, found: true });
 * ```
 */
export function bbehOfficial(response: string, target: string): BbehVerdict {
  const extracted = bbehExtract(response);
  const normTarget = bbehNormalizeTarget(target);
  return {
    extracted,
    target: normTarget,
    correct: bbehFuzzyMatch(extracted, normTarget),
    found: bbehAnswerFound(response, extracted, normTarget),
  };
}
