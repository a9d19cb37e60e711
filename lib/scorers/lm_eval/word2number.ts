/**
 * The English-number fallback of lm-evaluation-harness's `NumberParseRegexFilter`
 * (`lm_eval/tasks/bbh/cot_zeroshot/utils.py` @ 2542e47): its number-phrase regex (compiled
 * there with the third-party `regex` module) and `word2number.w2n.word_to_num` (PyPI
 * word2number 1.1; ported from akshaynagpal/w2n `word2number/w2n.py` @ 068665a).
 *
 * Quirks kept: the regex has no word boundaries ("often" contains "ten", "someone" "one");
 * `(?|teen|ty)` is a branch-reset group WITHOUT an empty branch, so a phrase cannot END in a
 * bare "six", "seven", "eight" or "nine" ("seven" alone matches nothing); `word_to_num` drops
 * words it does not know ("trillion", "and") and raises on malformed phrases (null here).
 *
 * @example
 * ```ts
 * import { englishNumberMatches, wordToNum } from "@runlens/scorers/lm_eval/word2number.ts";
 * import assert from "node:assert/strict";
 * assert.equal(wordToNum("two hundred and five"), 205);
 * assert.deepEqual(englishNumberMatches("there are seven"), []);
 * ```
 * @module
 */
import { PY_WHITESPACE } from "../../core/python.ts";

const HEAD = "zero|one|two|three|four|five|(?:twen|thir|for|fif|six|seven|nine)(?:teen|ty)|" +
  "eight(?:|een|y)|ten|eleven|twelve|fourteen|hundred|thousand|(?:m|b|tr)illion";
const MIDDLE = "zero|one|two|three|four|five|(?:twen|thir|for|fif|six|seven|nine)(?:|teen|ty)|" +
  "eight(?:een|y)|ten|eleven|twelve|fourteen|hundred|thousand|(?:m|b|tr)illion";
const LAST = "zero|one|two|three|four|five|(?:twen|thir|for|fif|six|seven|nine)(?:teen|ty)|" +
  "eight(?:een|y)|ten|eleven|twelve|fourteen|hundred|thousand|(?:m|b|tr)illion";
/** `[^\S\r\n]`: whitespace other than CR and LF (Python's whitespace set). */
const SPACE = `[${PY_WHITESPACE.replace("\n", "").replace("\r", "")}]`;

/** The harness's English number regex (branch resets written as plain groups). */
export const ENGLISH_NUMBER = new RegExp(
  `((?:(?:${HEAD})(?:${MIDDLE}|${SPACE}|,|and|&)+)?(?:${LAST}))`,
  "gu",
);

/**
 * Every match of {@link ENGLISH_NUMBER} (`regex.findall`), in order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(englishNumberMatches("often twenty one"), ["ten twenty one"]);
 * assert.deepEqual(englishNumberMatches("often, someone"), ["ten", "one"]);
 * ```
 */
export function englishNumberMatches(text: string): string[] {
  return [...text.matchAll(ENGLISH_NUMBER)].map((m) => m[1]);
}

const SYSTEM: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
  twenty: 20,
  thirty: 30,
  forty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
  hundred: 100,
  thousand: 1000,
  million: 1000000,
  billion: 1000000000,
};
const DECIMAL_WORDS = Object.keys(SYSTEM).slice(0, 10);

class Raise extends Error {}

/** `number_formation`: 1–4 number words → a multiplier (IndexError on none). */
function numberFormation(words: string[]): number {
  const n = words.map((w) => SYSTEM[w]);
  if (n.length === 0) throw new Raise("IndexError");
  if (n.length === 4) return n[0] * n[1] + n[2] + n[3];
  if (n.length === 3) return n[0] * n[1] + n[2];
  if (n.length === 2) return n.includes(100) ? n[0] * n[1] : n[0] + n[1];
  return n[0];
}

/**
 * `w2n.word_to_num`: the number a phrase names, or null where the Python function raises.
 * (The harness only passes phrases of the regex above, so "point" never occurs and the
 * result is an integer.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(wordToNum("one million two thousand"), 1002000);
 * assert.equal(wordToNum("and"), null); // no number word: Python raises
 * ```
 */
export function wordToNum(sentence: string): number | null {
  try {
    return wordToNumOrRaise(sentence);
  } catch (e) {
    if (e instanceof Raise) return null;
    throw e;
  }
}

function wordToNumOrRaise(sentence: string): number {
  const s = sentence.replaceAll("-", " ").toLowerCase();
  if (/^\p{Nd}+$/u.test(s)) return Number(s); // str.isdigit (decimal digits) → int
  const words = s.split(new RegExp(`[${PY_WHITESPACE}]+`, "u")).filter((w) => w);
  let clean = words.filter((w) => Object.hasOwn(SYSTEM, w) || w === "point");
  if (clean.length === 0) throw new Raise("No valid number words found!");
  const count = (w: string) => clean.filter((x) => x === w).length;
  if (["thousand", "million", "billion", "point"].some((w) => count(w) > 1)) {
    throw new Raise("Redundant number word!");
  }
  let decimals: string[] = [];
  if (count("point") === 1) {
    decimals = clean.slice(clean.indexOf("point") + 1);
    clean = clean.slice(0, clean.indexOf("point"));
  }
  const bi = clean.indexOf("billion");
  const mi = clean.indexOf("million");
  const th = clean.indexOf("thousand");
  if ((th > -1 && (th < mi || th < bi)) || (mi > -1 && mi < bi)) {
    throw new Raise("Malformed number!");
  }
  let total = 0;
  if (clean.length === 1) total += SYSTEM[clean[0]];
  else if (clean.length > 1) {
    if (bi > -1) total += numberFormation(clean.slice(0, bi)) * 1000000000;
    if (mi > -1) {
      total += numberFormation(bi > -1 ? clean.slice(bi + 1, mi) : clean.slice(0, mi)) * 1000000;
    }
    if (th > -1) {
      const from = mi > -1 ? mi + 1 : bi > -1 ? bi + 1 : 0;
      total += numberFormation(clean.slice(from, th)) * 1000;
    }
    const last = clean.length - 1;
    if (th > -1 && th !== last) total += numberFormation(clean.slice(th + 1));
    else if (mi > -1 && mi !== last && th !== last) total += numberFormation(clean.slice(mi + 1));
    else if (bi > -1 && bi !== last) total += numberFormation(clean.slice(bi + 1));
    else if (th === -1 && mi === -1 && bi === -1) total += numberFormation(clean);
  }
  if (decimals.length > 0) {
    if (decimals.every((w) => DECIMAL_WORDS.includes(w))) {
      total += Number(`0.${decimals.map((w) => SYSTEM[w]).join("")}`);
    }
  }
  return total;
}
