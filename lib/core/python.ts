/**
 * Python string semantics that official scorers depend on, reproduced exactly:
 * `str.strip()` (Python's whitespace set, not JavaScript's `trim`), `float()` parsing, and
 * code-point length/indexing.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pyFloat, pyStrip } from "@runlens/core/python.ts";
 * assert.equal(pyStrip("\u001c a \u0085"), "a"); // JS trim keeps \u001c and \u0085
 * assert.equal(pyStrip("\ufeffa"), "\ufeffa"); // JS trim would drop the BOM
 * assert.equal(pyFloat(" 1_000 "), 1000);
 * assert.equal(pyFloat("1,000"), null);
 * ```
 * @module
 */

/**
 * Every character Python's `str.isspace()` accepts (CPython 3.x `_Py_ascii_whitespace` plus
 * the Unicode ones): what `str.strip()` and `str.split()` remove.
 */
export const PY_WHITESPACE = "\t\n\v\f\r\x1c\x1d\x1e\x1f \x85\xa0\u1680" +
  "\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a" +
  "\u2028\u2029\u202f\u205f\u3000";

const WS_SET = new Set(PY_WHITESPACE);

/** Python `s.strip()`: remove Python whitespace from both ends. */
export function pyStrip(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && WS_SET.has(s[start])) start++;
  while (end > start && WS_SET.has(s[end - 1])) end--;
  return s.slice(start, end);
}

/** Python `len(s)`: number of code points (a surrogate pair counts once). */
export function pyLen(s: string): number {
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    n++;
  }
  return n;
}

// Python float grammar after digits and spaces are made ASCII (Lib/test/test_float.py;
// Objects/floatobject.c): digitpart = digit (["_"] digit)*.
const DIGITPART = "[0-9](?:_?[0-9])*";
const PY_FLOAT_RE = new RegExp(
  `^[+-]?(?:(?:(?:${DIGITPART})?\\.${DIGITPART}|${DIGITPART}\\.?)(?:[eE][+-]?${DIGITPART})?` +
    `|inf|infinity|nan)$`,
  "i",
);
const UNICODE_DIGIT = /^\p{Nd}$/u;

/**
 * Python `float(s)` for a `str` argument: the value, or null where Python raises ValueError.
 * Like CPython it first turns Unicode decimal digits into ASCII digits and Unicode whitespace
 * into spaces, then strips, then parses (underscores only between digits; `inf`, `infinity`,
 * `nan` in any case).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(pyFloat("1e3"), 1000);
 * assert.equal(pyFloat("١٢"), 12); // Arabic-Indic digits
 * assert.ok(Number.isNaN(pyFloat("NaN")));
 * assert.equal(pyFloat(""), null);
 * assert.equal(pyFloat("0x10"), null);
 * ```
 */
export function pyFloat(s: string): number | null {
  let ascii = "";
  for (const ch of s) {
    if (ch.charCodeAt(0) < 128) ascii += ch; // ASCII as is: float() rejects "\x1c"-"\x1f"
    else if (WS_SET.has(ch)) ascii += " ";
    else if (UNICODE_DIGIT.test(ch)) ascii += String(unicodeDigitValue(ch));
    else return null;
  }
  const body = ascii.replace(/^[ \t\n\v\f\r]+|[ \t\n\v\f\r]+$/g, "");
  if (!PY_FLOAT_RE.test(body)) return null;
  const lower = body.toLowerCase().replace(/_/g, "");
  const sign = lower.startsWith("-") ? -1 : 1;
  const unsigned = lower.replace(/^[+-]/, "");
  if (unsigned === "nan") return NaN;
  if (unsigned === "inf" || unsigned === "infinity") return sign * Infinity;
  return Number(lower);
}

/**
 * Value 0–9 of a Unicode decimal digit. Category Nd comes in contiguous runs of ten starting
 * at digit zero (some runs touch, e.g. the mathematical digits U+1D7CE–U+1D7FF), so the value
 * is the distance from the start of the contiguous block, modulo 10.
 */
function unicodeDigitValue(ch: string): number {
  const cp = ch.codePointAt(0)!;
  let start = cp;
  while (UNICODE_DIGIT.test(String.fromCodePoint(start - 1))) start--;
  return (cp - start) % 10;
}
