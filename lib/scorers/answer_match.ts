/**
 * Read an answer in the answer space of its target and match it ({@link matchAnswer}): the
 * TARGET decides the type (never the value), with the question's options when it lists them.
 * Benchmark-neutral and polars-free: the `lenient` scorer uses it, so can any rule that finds
 * its answer another way (a user's regex, GSM8K).
 *
 * | type      | target                                  | an answer matches when                          |
 * |-----------|-----------------------------------------|-------------------------------------------------|
 * | `choice`  | `(B)`; or `B` when the input lists `(B)` | it names that option: `B`, `(B)`, `B)`, `[B]`, `option B`, `(D) kite`, or the option's text alone; options it negates ("(B) kite, not (A) circle") set aside when it names several |
 * | `binary`  | yes/no, true/false, valid/invalid       | it holds that word of the pair (whole word, any case) and not the other; a negation up to three words before a word of the pair (`not`, `never`, `cannot`, `…n't`) reads as the other word: `not valid` is `invalid` |
 * | `number`  | `1000`, `-3.5`, `$1,000`, `25%`         | its number has the same value: thousands commas, `$`, `%`, trailing `.0`, Unicode minus (also set apart: `− 50`), `\frac{1}{2}` and `1/2`; without digits, English number words (`eight`, `twenty-one`) |
 * | `words`   | anything else with letters or digits    | same words in the same order, case and punctuation ignored (`Apple, banana.` = `apple banana`) |
 * | `symbols` | no letter or digit (`) ] }`)            | same characters, whitespace ignored             |
 *
 * The rule never guesses between candidates: two option letters, a letter contradicted by
 * another option's text, both words of a pair or several different numbers give no answer —
 * except after a correction ("actually", "on reflection", "wait", "correction", …), where the
 * text after the LAST correction is read ({@link afterCorrection}: `(A) at first. Actually,
 * it's (D)` is `(D)`). Only the answer's first sentence is read (up to ". ": "(B). It fits" is
 * `(B)`): of its first non-empty line for `choice` (the whole line when the sentence names no
 * option: option texts may hold sentences), `binary` and `number`; of all its lines for
 * `words` and `symbols`. An unmarked line is read whole ({@link ReadOptions.whole}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { matchAnswer } from "@runlens/scorers/answer_match.ts";
 * const input = "What shape?\nOptions:\n(A) circle\n(B) kite";
 * assert.equal(matchAnswer("kite", "(B)", input), true);
 * assert.equal(matchAnswer("$1,000.00", "1000"), true);
 * assert.equal(matchAnswer("Apple, Banana, cherry.", "apple banana cherry"), true);
 * ```
 * @module
 */

import { dropMarkup } from "./answer_conventions.ts";
import { wordToNum } from "./lm_eval/word2number.ts";

/** How an answer is read and compared (see the module doc). */
export type AnswerType = "choice" | "binary" | "number" | "words" | "symbols";

/** The yes/no-type word pairs: a target that is one of these words asks for one of its pair. */
export const BINARY_PAIRS: readonly (readonly [string, string])[] = [
  ["yes", "no"],
  ["true", "false"],
  ["valid", "invalid"],
];

/**
 * The options an input lists as `(A) text`, letter → text: one option per line, or several on
 * one line (`Options: (A) x (B) y`). The last run of markers `(A)`, `(B)`, … in order is the
 * option list; an option's text runs to the next marker or the end of its line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(parseOptions("Q?\nOptions:\n(A) red\n(B) blue").get("B"), "blue");
 * const oneLine = parseOptions("Which movie? Options: (A) Monsters Inc (B) Up");
 * assert.deepEqual([...oneLine], [["A", "Monsters Inc"], ["B", "Up"]]);
 * assert.equal(parseOptions(null).size, 0);
 * ```
 */
export function parseOptions(input: string | null | undefined): ReadonlyMap<string, string> {
  const text = input ?? "";
  const known = parsedOptions.get(text);
  if (known !== undefined) return known;
  if (parsedOptions.size >= OPTIONS_MEMO) parsedOptions.clear();
  const out = optionsOf(text);
  parsedOptions.set(text, out);
  return out;
}

/**
 * Inputs already parsed: a scorer reads every response to an example against the same input
 * (BBEH's run thousands of characters), several times per response. Bounded; cleared when full.
 * The maps are shared: read-only.
 */
const parsedOptions = new Map<string, ReadonlyMap<string, string>>();
const OPTIONS_MEMO = 4096;

/** The options `(A) …`, `(B) …` of an input (see {@link parseOptions}). */
function optionsOf(text: string): Map<string, string> {
  let run: RegExpMatchArray[] = [];
  let best: RegExpMatchArray[] = [];
  for (const m of text.matchAll(/\(([A-Z])\)/g)) {
    if (m[1] === "A") run = [m];
    else if (run.length > 0 && m[1].charCodeAt(0) === run.at(-1)![1].charCodeAt(0) + 1) run.push(m);
    else continue;
    if (run.length >= 2 || best.length < 2) best = run;
  }
  const out = new Map<string, string>();
  best.forEach((m, i) => {
    const from = m.index! + m[0].length;
    const next = best[i + 1]?.index ?? text.length;
    const eol = text.indexOf("\n", from);
    const option = text.slice(from, eol >= 0 && eol < next ? eol : next).trim();
    if (option !== "") out.set(m[1], option);
  });
  return out;
}

const CHOICE_TARGET = /^\(([A-Za-z])\)$/;

/**
 * The answer type a target asks for (see the module doc); `input` lists the options, if any.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(answerType("(C)"), "choice");
 * assert.equal(answerType("E", "Which?\n(A) x\n(E) y"), "words"); // options must run (A), (B), …
 * assert.equal(answerType("No"), "binary");
 * assert.equal(answerType("1,000"), "number");
 * assert.equal(answerType("apple banana"), "words");
 * assert.equal(answerType(") ] }"), "symbols");
 * ```
 */
export function answerType(target: string, input?: string | null): AnswerType {
  const t = target.trim();
  if (CHOICE_TARGET.test(t)) return "choice";
  if (/^[A-Za-z]$/.test(t) && parseOptions(input).has(t.toUpperCase())) return "choice";
  if (BINARY_PAIRS.some((p) => p.includes(t.toLowerCase()))) return "binary";
  if (numberValue(t) !== null) return "number";
  return /[\p{L}\p{N}]/u.test(t) ? "words" : "symbols";
}

/** A number written alone: sign, currency, thousands commas, decimals, "%"; null otherwise. */
function numberValue(s: string): number | null {
  const m = /^[-−]?[$€£]?\s*[-−]?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?\s*%?$/.exec(s.trim());
  if (!m) return null;
  const v = Number(m[0].replace(/[−]/g, "-").replace(/[$€£,%\s]/g, ""));
  return Number.isFinite(v) ? v : null;
}

/** Lower-case, collapse spaces and commas, strip quotes/brackets and a final "." or "!". */
function norm(s: string): string {
  let t = s.trim().toLowerCase().replace(/[\s,]+/g, " ").trim();
  for (let i = 0; i < 2; i++) {
    t = t.replace(/[.!]$/, "").trim();
    const pair = `${t.at(0) ?? ""}${t.at(-1) ?? ""}`;
    if (t.length >= 2 && /^["'“‘\[(]["'”’\])]$/.test(pair)) t = t.slice(1, -1).trim();
  }
  return t;
}

/** A negated mention: `not`/`never`/`…n't` and the rest of its clause ("not (A) circle"). */
const NEGATED =
  /(?<![\p{L}])(?:not|never|\p{L}+n['’]t)(?![\p{L}])[^,;.!?]*?(?=[,;.!?]|\sbut\s|$)/giu;

/**
 * The option letter an answer names, or null (none, or ambiguous/contradictory). When the
 * answer names several, the options it negates ("(D) kite, not (A) circle", "not (A); it is
 * (D)") are set aside and the rest read again.
 */
function readLetter(answer: string, options: ReadonlyMap<string, string>): string | null {
  const named = readLetterOnce(answer, options);
  if (named !== null) return named;
  const affirmed = answer.replace(NEGATED, " ");
  return affirmed === answer ? null : readLetterOnce(affirmed, options);
}

const WORD_CHAR = /[\p{L}\p{N}]/u;

/**
 * Whether `phrase` occurs in `text` as a whole phrase: no letter or digit right before or after
 * it. A search, not a regex built per option: a regex compiled for every option of every
 * response made this the costliest step of the lenient rule on long option texts.
 */
function mentions(text: string, phrase: string): boolean {
  for (let i = text.indexOf(phrase); i >= 0; i = text.indexOf(phrase, i + 1)) {
    const before = [...text.slice(Math.max(0, i - 2), i)].at(-1) ?? "";
    const next = text.codePointAt(i + phrase.length);
    const after = next === undefined ? "" : String.fromCodePoint(next);
    if (!WORD_CHAR.test(before) && !WORD_CHAR.test(after)) return true;
  }
  return false;
}

/** The option letter an answer names, or null; see {@link readLetter}. */
function readLetterOnce(answer: string, options: ReadonlyMap<string, string>): string | null {
  const letters = new Set<string>();
  for (const m of answer.matchAll(/\(([A-Za-z])\)/g)) letters.add(m[1].toUpperCase());
  const lead = answer.trim().replace(/^(?:option|choice)\s+/i, "");
  const bare = /^\[?([A-Za-z])(?:\s*[).:\]]|$)/.exec(lead);
  if (bare && letters.size === 0) {
    const l = bare[1].toUpperCase();
    if (options.size === 0 ? /[A-R]/.test(l) : options.has(l)) letters.add(l);
  }
  const plain = norm(answer.replace(/\(([A-Za-z])\)/g, " "));
  const byText = normalisedOptions(options).filter(({ read }) =>
    read !== "" && mentions(plain, read)
  );
  // an option text inside a longer matched option text is not a separate mention
  const texts = byText.filter(({ text, normed }) =>
    !byText.some((u) => u.text !== text && u.normed.includes(normed))
  ).map(({ letter }) => letter);
  if (letters.size > 1) return null;
  if (letters.size === 1) {
    const [l] = letters;
    return texts.length === 0 || texts.includes(l) ? l : null;
  }
  return texts.length === 1 ? texts[0] : null;
}

/** An option as {@link readLetterOnce} compares it: its text, normalised, and as read. */
interface NormalisedOption {
  letter: string;
  text: string;
  normed: string;
  /** As the answer was: markup dropped ("$1000" was read as "1000"). */
  read: string;
}

/** Each options map's texts normalised once (the maps are {@link parseOptions}' memo). */
const normalised = new WeakMap<ReadonlyMap<string, string>, NormalisedOption[]>();

function normalisedOptions(options: ReadonlyMap<string, string>): NormalisedOption[] {
  let out = normalised.get(options);
  if (out === undefined) {
    out = [...options].map(([letter, text]) => ({
      letter,
      text,
      normed: norm(text),
      read: norm(dropMarkup(text)),
    }));
    normalised.set(options, out);
  }
  return out;
}

const NUMBER =
  /[-−]?(?:\d{1,3}(?:[,\u00a0\u2009\u202f]\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?|[-−]?\.\d+/g;

function toNumber(s: string): number {
  return Number(s.replace(/[−]/g, "-").replace(/[,\u00a0\u2009\u202f]/g, ""));
}

/** Whether a word is an English number word (`wordToNum` of lm-eval's word2number port). */
function isNumberWord(w: string): boolean {
  return w !== "point" && wordToNum(w) !== null;
}

/**
 * The number an answer without digits names in English words (`eight`, `twenty-one`,
 * `two hundred and five`): exactly one run of number words (joined by spaces, hyphens or an
 * "and" between two of them), else null.
 */
function wordNumber(text: string): number | null {
  const runs: string[][] = [];
  for (const segment of text.toLowerCase().match(/[a-z]+(?:[ \t-]+[a-z]+)*/g) ?? []) {
    let run: string[] = [];
    const close = () => {
      while (run.at(-1) === "and") run.pop();
      if (run.length > 0) runs.push(run);
      run = [];
    };
    for (const w of segment.split(/[ \t-]+/)) {
      if (isNumberWord(w) || (w === "and" && run.length > 0)) run.push(w);
      else close();
    }
    close();
  }
  return runs.length === 1 ? wordToNum(runs[0].join(" ")) : null;
}

/**
 * The one value the numbers of an answer name (after its last "="), or null. A sign at the
 * start may stand apart (`− 50`); an answer without digits may name its number in words.
 */
function readNumber(answer: string): number | null {
  let tail = answer.includes("=") ? answer.slice(answer.lastIndexOf("=") + 1) : answer;
  tail = tail.replace(/[$€£]/g, "").replace(/^\s*([-−])\s+(?=\d)/, "$1");
  if (!/\d/.test(tail)) return wordNumber(tail);
  const values: number[] = [];
  const num = NUMBER.source;
  const fraction = new RegExp(
    `\\\\[dt]?frac\\s*\\{\\s*(${num})\\s*\\}\\s*\\{\\s*(${num})\\s*\\}|(${num})\\s*/\\s*(${num})`,
    "g",
  );
  tail = tail.replace(fraction, (_m, a, b, c, d) => {
    values.push(toNumber(a ?? c) / toNumber(b ?? d));
    return " ";
  });
  for (const m of tail.matchAll(NUMBER)) values.push(toNumber(m[0]));
  const distinct = values.filter((v, i) => values.findIndex((w) => sameNumber(v, w)) === i);
  return distinct.length === 1 && Number.isFinite(distinct[0]) ? distinct[0] : null;
}

function sameNumber(a: number, b: number): boolean {
  return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));
}

/** Words of a text: letters and digits, lower-cased, in order. */
function words(s: string): string {
  return (s.normalize("NFC").toLowerCase().match(/[\p{L}\p{M}\p{N}]+/gu) ?? []).join(" ");
}

function firstLine(s: string): string {
  return s.split("\n").map((l) => l.trim()).find((l) => l !== "") ?? "";
}

/** Up to the first ". " (an answer followed by its explanation: "(B). It fits."). */
function firstSentence(s: string): string {
  return s.split(". ")[0].trim();
}

/** A correction: what follows the last one is the answer ("(A) at first. Actually, (D)"). */
const CORRECTION =
  /(?<![\p{L}])(?:actually|on (?:second thought|reflection|closer inspection)|wait|correction|i mean|scratch that)(?![\p{L}])[\s,:;.!—–-]*/giu;

/**
 * The text after the last correction cue ("actually", "on second thought", "on reflection",
 * "on closer inspection", "wait", "correction", "I mean", "scratch that"), or the whole text
 * when it has none (or nothing follows it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(afterCorrection("I'd say (A) at first. Actually, on reflection, it's (D)."), "it's (D).");
 * assert.equal(afterCorrection("(B), no doubt"), "(B), no doubt");
 * ```
 */
export function afterCorrection(text: string): string {
  let end = -1;
  for (const m of text.matchAll(CORRECTION)) end = m.index + m[0].length;
  const rest = end < 0 ? "" : text.slice(end).trim();
  return rest === "" ? text : rest;
}

/** A negation that turns the next word of a pair into the other (`not valid` → `invalid`). */
function isNegation(w: string): boolean {
  return w === "not" || w === "never" || w === "cannot" || w.endsWith("n't");
}

/**
 * The word of `pair` a text says: each word of the pair in it, read as the other word when a
 * negation comes up to three words before it; null unless exactly one word is said.
 */
function readPairWord(text: string, pair: readonly string[]): string | null {
  const tokens = [...text.toLowerCase().replaceAll("’", "'").matchAll(/[a-z']+/g)].map((m) => m[0]);
  const said = new Set<string>();
  tokens.forEach((w, i) => {
    if (!pair.includes(w)) return;
    const negated = tokens.slice(Math.max(0, i - 3), i).some(isNegation);
    said.add(negated ? pair.find((x) => x !== w)! : w);
  });
  return said.size === 1 ? [...said][0] : null;
}

/** The answer read in its type, as the text `extracted` shows; null: none, or ambiguous. */
function readTyped(
  answer: string,
  target: string,
  input: string | null | undefined,
  whole: boolean,
): string | null {
  const type = answerType(target, input);
  if (type === "words" || type === "symbols") return readFree(answer, type, whole);
  // a closed type: the text after a correction, if it gives an answer (an option's text may
  // hold "actually"), else the whole text
  const corrected = afterCorrection(answer);
  const after = corrected === answer ? null : readClosed(corrected, type, target, input, whole);
  return after ?? readClosed(answer, type, target, input, whole);
}

/** A choice, binary or number answer: its first line, and its first sentence unless `whole`. */
function readClosed(
  answer: string,
  type: AnswerType,
  target: string,
  input: string | null | undefined,
  whole: boolean,
): string | null {
  const line = firstLine(answer);
  const part = whole ? line : firstSentence(line);
  switch (type) {
    case "choice": {
      // an option's text may hold sentences ("Yeah. Let's get rid of the trams"): the whole
      // line is read when its first sentence names no option
      const options = parseOptions(input);
      const l = readLetter(part, options) ?? readLetter(line, options);
      return l === null ? null : `(${l})`;
    }
    case "binary": {
      const pair = BINARY_PAIRS.find((p) => p.includes(target.trim().toLowerCase()))!;
      return readPairWord(part, pair);
    }
    default: {
      const v = readNumber(part);
      return v === null ? null : String(v);
    }
  }
}

/** A words or symbols answer: all its lines, the first sentence unless `whole`. */
function readFree(answer: string, type: "words" | "symbols", whole: boolean): string | null {
  const joined = answer.split("\n").map((l) => l.trim()).filter((l) => l !== "").join(" ");
  const text = (whole ? joined : firstSentence(joined)).replace(/\.$/, "").trim();
  return (type === "words" ? words(text) : text.replace(/\s+/g, "")) === "" ? null : text;
}

/** Options of {@link readAnswer} and {@link matchAnswer}. */
export interface ReadOptions {
  /**
   * When the text gives no value of the target's type but is one word or number, that word is
   * the answer (a wrong one). Default true; false for text that may not be an answer at all
   * (a response's unmarked last line).
   */
  offType?: boolean;
  /**
   * The whole text is the answer: read it all, not its first sentence, so two different
   * letters, words of a pair or numbers in it give no answer. Default false (a marked answer
   * may go on with its explanation: `(B). (A) fails because …`); true for an unmarked line.
   */
  whole?: boolean;
}

/**
 * Words that may mean either word of a yes/no-type pair, depending on the question
 * (`plausible` answers "is it plausible?" with yes and "is it implausible?" with no): as an
 * off-type answer to such a target they are no answer — the rule knows no task — while a
 * third answer (`Ambiguous`, `unknown`) is one, a wrong one.
 */
const POLAR_WORDS = new Set([
  ...BINARY_PAIRS.flat(),
  "plausible",
  "implausible",
  "correct",
  "incorrect",
  "right",
  "wrong",
  "possible",
  "impossible",
  "likely",
  "unlikely",
  "affirmative",
  "negative",
  "agree",
  "disagree",
]);

/**
 * The answer a text gives, read in the type of `target` ({@link answerType}): `(B)` for an
 * option, the word for yes/no-type pairs, the value for a number, the text itself for words and
 * symbols. When the text gives no value of that type but is one word or number (`Ambiguous`
 * for a yes/no target, `7` for a "No" target), that word is the answer — a wrong one
 * ({@link ReadOptions.offType}). Null: no answer, or an ambiguous one (two letters, both words
 * of a pair, several numbers).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const input = "Which?\nOptions:\n(A) 12/11/1937\n(B) 12/25/1937";
 * assert.equal(readAnswer("12/25/1937", "(A)", input), "(B)");
 * assert.equal(readAnswer("(A) or (B)", "(A)", input), null); // never guesses
 * assert.equal(readAnswer("\\frac{1}{2}", "0.5"), "0.5");
 * assert.equal(readAnswer("Ambiguous", "Yes"), "Ambiguous"); // an answer, not of the target's type
 * assert.equal(readAnswer("Ambiguous", "Yes", null, { offType: false }), null);
 * assert.equal(readAnswer("plausible", "yes"), null); // yes or no? the task would say
 * assert.equal(readAnswer("not valid", "valid"), "invalid"); // a negation turns the word
 * assert.equal(readAnswer("eight", "8"), "8");
 * assert.equal(readAnswer("(A) at first. Actually, it's (D).", "(B)", input), "(D)");
 * ```
 */
export function readAnswer(
  answer: string,
  target: string,
  input?: string | null,
  { offType = true, whole = false }: ReadOptions = {},
): string | null {
  const typed = readTyped(answer, target, input, whole);
  if (typed !== null || !offType) return typed;
  const token = firstSentence(firstLine(answer)).replace(/^["'“‘\[(](.*)["'”’\])]$/, "$1").replace(
    /[.!]$/,
    "",
  );
  if (answerType(target, input) === "binary" && POLAR_WORDS.has(token.toLowerCase())) return null;
  return /^[\p{L}\p{N}]\S{0,39}$/u.test(token) ? token : null;
}

/**
 * Whether an answer (as written, or as {@link readAnswer} gives it) matches the target, read
 * in the target's type (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const input = "Options: (A) bird (B) plane (C) kite";
 * for (const a of ["C", "(C)", "C)", "[C]", "(C) kite", "kite", "option C"]) {
 *   assert.equal(matchAnswer(a, "(C)", input), true, a);
 * }
 * assert.equal(matchAnswer("(A) kite", "(C)", input), false); // the letter contradicts the text
 * assert.equal(matchAnswer("1,000", "1000"), true);
 * assert.equal(matchAnswer("12.0%", "12"), true);
 * assert.equal(matchAnswer("yes", "No"), false);
 * assert.equal(matchAnswer(")]}", ") ] }"), true);
 * ```
 */
export function matchAnswer(
  answer: string,
  target: string,
  input?: string | null,
  { whole = false }: ReadOptions = {},
): boolean {
  const got = readTyped(answer, target, input, whole);
  if (got === null) return false;
  switch (answerType(target, input)) {
    case "choice":
      return got === `(${target.trim().replace(/[()]/g, "").toUpperCase()})`;
    case "binary":
      return got === target.trim().toLowerCase();
    case "number":
      return sameNumber(Number(got), numberValue(target)!);
    case "words":
      return words(got) === words(target);
    case "symbols":
      return got.replace(/\s+/g, "") === target.replace(/\s+/g, "");
  }
}
