/**
 * Ports of the lm-evaluation-harness answer filters used by `bbh_cot_zeroshot`, one response
 * at a time, with Python `re` semantics (see `lib/scorers/pyre.ts`):
 *
 * - {@link regexFilter}: `RegexFilter` (`lm_eval/filters/extraction.py`);
 * - {@link mapRegexFilter}, {@link numberParseRegexFilter}, {@link wordSortFilter},
 *   {@link multiChoiceRegexFilter}: the classes of `lm_eval/tasks/bbh/cot_zeroshot/utils.py`
 *   (EleutherAI/lm-evaluation-harness @ 2542e47).
 *
 * Patterns are given as Python source and translated: `\b` becomes Python's Unicode word
 * boundary; everything else in these patterns means the same in JavaScript's `u` mode.
 * A filter returns null where the harness itself would raise (the run would have died, so no
 * real log holds that row).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FALLBACK, regexFilter } from "@runlens/benchmarks/bbh/scorers/lm_eval/filters.ts";
 * assert.equal(regexFilter("True, so False.", "\\b(True|False)\\b", -1), "False");
 * assert.equal(regexFilter("no idea", "\\b(True|False)\\b", -1), FALLBACK); // "[invalid]"
 * ```
 * @module
 */
import { pyStrip } from "../../../../core/python.ts";
import { escapeJs, PY_WORD, PY_WS, pyBoundary, pyFindall } from "../../../../scorers/pyre.ts";
import { englishNumberMatches, wordToNum } from "../../../../scorers/lm_eval/word2number.ts";

/** The harness's fallback answer. */
export const FALLBACK = "[invalid]";

/**
 * A Python pattern as a global JavaScript `u` regex (`\b` → Python's boundary).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(pyRegex("\\b(no)\\b").test("no"), true);
 * assert.equal(pyRegex("\\b(no)\\b").test("éno"), false); // "é" is a word character in Python
 * ```
 */
export function pyRegex(source: string): RegExp {
  return new RegExp(source.replace(/(?<!\\)((?:\\\\)*)\\b/g, `$1${pyBoundary}`), "gu");
}

/** Python list indexing (`-1` = last). */
function pick<T>(xs: T[], index: number): T {
  return xs.at(index)!;
}

/** `ExtendedRegexFilter.find_match`: a findall pick, first non-empty group, strip, map. */
function findMatch(
  re: RegExp,
  text: string,
  groupSelect: number,
  convert: Map<string, string> = new Map(),
): string | null {
  const all = pyFindall(re, text);
  if (all.length === 0) return null;
  const m = pick(all, groupSelect);
  let s: string;
  if (Array.isArray(m)) {
    const nonEmpty = m.filter((g) => g !== "");
    if (nonEmpty.length === 0) return ""; // the harness raises IndexError here in 2542e47
    s = nonEmpty[0];
  } else s = m;
  s = pyStrip(s);
  return s !== "" && convert.has(s) ? convert.get(s)! : s;
}

/**
 * `RegexFilter` (`regex`): findall, `group_select`, first non-empty group of a tuple (fallback
 * when none, as newer harness versions do), strip; fallback when nothing matches.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(regexFilter("a 1 b 22", "([0-9]+)", -1), "22");
 * assert.equal(regexFilter("a 1 b 22", "([0-9]+)"), "1"); // default group_select 0: the first
 * ```
 */
export function regexFilter(response: string, pattern: string, groupSelect = 0): string {
  const all = pyFindall(pyRegex(pattern), response);
  if (all.length === 0) return FALLBACK;
  const m = pick(all, groupSelect);
  if (!Array.isArray(m)) return pyStrip(m);
  const nonEmpty = m.filter((g) => g !== "");
  return nonEmpty.length > 0 ? pyStrip(nonEmpty[0]) : FALLBACK;
}

/**
 * `ExtendedRegexFilter.filter_ignores` with the options the BBH configs use (no
 * `regexes_to_ignore`): lower-case, then delete Unicode punctuation (category P*).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(filterIgnores("It’s (B)!", true, true), "its b");
 * ```
 */
export function filterIgnores(s: string, ignoreCase: boolean, ignorePunctuation: boolean): string {
  let out = ignoreCase ? s.toLowerCase() : s;
  if (ignorePunctuation) out = out.replace(/\p{P}/gu, "");
  return out;
}

/**
 * `MapRegexFilter`: the patterns joined with "|" pick a match (after `filter_ignores`), then the
 * first pattern that also matches it decides the value; fallback otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const map = [["\\b(no|not plausible)\\b", "no"], ["\\b(yes|plausible)\\b", "yes"]] as const;
 * assert.equal(mapRegexFilter("it is not plausible", map, -1, true), "no");
 * assert.equal(mapRegexFilter("Plausible.", map, -1, true), "yes");
 * ```
 */
export function mapRegexFilter(
  response: string,
  patternToValue: readonly (readonly [string, string])[],
  groupSelect: number,
  ignoreCase: boolean,
): string {
  const whole = findMatch(
    pyRegex(patternToValue.map(([p]) => p).join("|")),
    filterIgnores(response, ignoreCase, false),
    groupSelect,
  );
  if (!whole) return FALLBACK;
  for (const [pattern, value] of patternToValue) {
    if (findMatch(pyRegex(pattern), filterIgnores(whole, ignoreCase, false), groupSelect)) {
      return value;
    }
  }
  return FALLBACK;
}

/**
 * `NumberParseRegexFilter`: the regex pick; when nothing matches, the last English number
 * phrase of the lower-cased response through `word2number.w2n.word_to_num`; fallback
 * otherwise. Null where `word_to_num` raises.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(numberParseRegexFilter("so 3 + 4 = 7", "([-0-9]+)", -1), "7");
 * assert.equal(numberParseRegexFilter("twenty two apples", "([-0-9]+)", -1), "22");
 * ```
 */
export function numberParseRegexFilter(
  response: string,
  pattern: string,
  groupSelect: number,
): string | null {
  const found = findMatch(pyRegex(pattern), response, groupSelect);
  if (found) return found;
  const words = englishNumberMatches(response.toLowerCase());
  if (words.length > 0) {
    const phrase = pyStrip(pick(words, groupSelect));
    if (phrase) {
      const n = wordToNum(phrase);
      return n === null ? null : String(n);
    }
  }
  return FALLBACK;
}

/**
 * `WordSortFilter`: the words of the input after "List:", each matched as `\b<word>\b`
 * (unescaped, as the harness does) in the response, kept once each in the order of their LAST
 * occurrence, joined with spaces ("" when none occurs). Null when the input has no "List:".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(wordSortFilter("b, a, then b", "Sort: List: a b"), "a b");
 * assert.equal(wordSortFilter("a b", "Sort these words"), null); // no "List:"
 * ```
 */
export function wordSortFilter(response: string, input: string): string | null {
  const parts = input.split("List:");
  if (parts.length < 2) return null;
  const words = pyStrip(parts[1]).split(new RegExp(`[${PY_WS}]+`, "u")).filter((w) => w);
  let found: string[];
  if (words.every((w) => !/[\\^$.*+?()[\]{}|]/.test(w))) {
    found = findallBoundedWords(response, words);
  } else {
    try {
      found = pyFindall(pyRegex(words.map((w) => `\\b${w}\\b`).join("|")), response) as string[];
    } catch {
      return null; // Python would reject the pattern too
    }
  }
  const lastAt = new Map<string, number>();
  found.forEach((w, i) => lastAt.set(w, i));
  return [...lastAt.entries()].sort((a, b) => a[1] - b[1]).map(([w]) => w).join(" ");
}

const WORD_CHAR = new RegExp(`^[${PY_WORD}]$`, "u");

/** Whether a Python `\b` holds at UTF-16 offset `i` of `s`. */
function boundaryAt(s: string, i: number): boolean {
  const before = i > 0 ? String.fromCodePoint(codePointBefore(s, i)) : "";
  const after = i < s.length ? String.fromCodePoint(s.codePointAt(i)!) : "";
  return WORD_CHAR.test(before) !== WORD_CHAR.test(after);
}

function codePointBefore(s: string, i: number): number {
  const low = s.charCodeAt(i - 1);
  if (low >= 0xdc00 && low <= 0xdfff && i >= 2) {
    const high = s.charCodeAt(i - 2);
    if (high >= 0xd800 && high <= 0xdbff) return s.codePointAt(i - 2)!;
  }
  return low;
}

/**
 * `re.findall` of `\bw1\b|\bw2\b|…` for literal words, without building a regex (a regex with
 * Python's Unicode `\b` costs V8 milliseconds to compile, once per distinct word list): at each
 * position the first word in list order that fits wins, and the scan resumes after it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const found = findallBoundedWords("apple app, pineapple", ["app", "apple"]);
 * assert.deepEqual(found, ["apple", "app"]); // "pineapple" holds no bounded word
 * ```
 */
export function findallBoundedWords(s: string, words: string[]): string[] {
  const out: string[] = [];
  let i = 0;
  while (i < s.length) {
    const w = boundaryAt(s, i)
      ? words.find((x) => s.startsWith(x, i) && boundaryAt(s, i + x.length))
      : undefined;
    if (w) {
      out.push(w);
      i += w.length;
    } else i += s.codePointAt(i)! > 0xffff ? 2 : 1;
  }
  return out;
}

/** The parsed options of a multiple-choice input, as `MultiChoiceRegexFilter` sees them. */
export interface McChoices {
  /** `filter_ignores(text.strip())` of each option, in input order (regex alternatives). */
  keys: string[];
  /** key → "(A)", "(B)", … by position (a repeated key keeps its last letter). */
  toLetter: Map<string, string>;
  /** "A", "B", … one per option (the bare-letter fallback). */
  letters: string[];
}

const CHOICE = /\([A-Z]\)([^\n^(]*)/gu;

/**
 * Parse the options of an input: every `\([A-Z]\)([^\n^(]*)` match, in order, lettered by
 * position (not by the letter written in the input).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const c = mcChoices("Options:\n(A) Red.\n(B) blue");
 * assert.deepEqual(c.keys, ["red", "blue"]);
 * assert.equal(c.toLetter.get("blue"), "(B)");
 * ```
 */
export function mcChoices(
  input: string,
  ignoreCase = true,
  ignorePunctuation = true,
): McChoices {
  const keys: string[] = [];
  const toLetter = new Map<string, string>();
  const letters: string[] = [];
  for (const m of input.matchAll(CHOICE)) {
    const key = filterIgnores(pyStrip(m[1]), ignoreCase, ignorePunctuation);
    const letter = String.fromCharCode(65 + letters.length);
    keys.push(key);
    toLetter.set(key, `(${letter})`);
    letters.push(letter);
  }
  return { keys, toLetter, letters };
}

/**
 * `MultiChoiceRegexFilter` of `bbh/cot_zeroshot/utils.py`: (1) the regex pick in the raw
 * response; else (2) the option texts as literal alternatives in `filter_ignores(response)`,
 * the pick mapped to its letter (an unmapped pick is returned as it is); else (3)
 * `:\s*(A|B|…)` in the raw response, mapped to "(A)"…; else the fallback. Null when the input
 * has more than 26 options (the harness then builds an invalid pattern and dies).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const input = "Pick:\n(A) red\n(B) blue";
 * assert.equal(multiChoiceRegexFilter("So (A).", input), "(A)"); // (1) the last "(X)"
 * assert.equal(multiChoiceRegexFilter("It must be Blue.", input), "(B)"); // (2) option text
 * assert.equal(multiChoiceRegexFilter("Answer: B", input), "(B)"); // (3) ": X"
 * ```
 */
export function multiChoiceRegexFilter(
  response: string,
  input: string,
  opts: { pattern?: string; groupSelect?: number; ignoreCase?: boolean; ignorePunct?: boolean } =
    {},
): string | null {
  const { pattern = "(\\([A-Z]\\))", groupSelect = -1 } = opts;
  const { ignoreCase = true, ignorePunct = true } = opts;
  const choices = mcChoices(input, ignoreCase, ignorePunct);
  if (choices.letters.length > 26) return null;
  const first = findMatch(pyRegex(pattern), response, groupSelect);
  if (first) return first;
  const altRe = choices.keys.length === 0 ? /(?:)/gu : new RegExp(
    choices.keys.map(escapeJs).join("|"),
    "gu",
  );
  const second = choices.keys.some((k) => k === "")
    ? "" // an empty alternative makes Python's last findall item the empty match at the end
    : findMatch(
      altRe,
      filterIgnores(response, ignoreCase, ignorePunct),
      groupSelect,
      choices.toLetter,
    );
  if (second) return second;
  const letterRe = new RegExp(`:[${PY_WS}]*(${choices.letters.join("|")})`, "gu");
  const toParen = new Map(choices.letters.map((l) => [l, `(${l})`]));
  const third = findMatch(letterRe, response, groupSelect, toParen);
  return third || FALLBACK;
}
