/**
 * Python `re` behaviour that scoring rules rely on, in both engines runlens uses: JavaScript
 * `RegExp` (scalar rules) and Rust `regex` (polars expressions, which has no look-around).
 *
 * - {@link pyFindall}: `re.findall` (group rules, last-match selection) in JavaScript;
 * - {@link PY_WS} / {@link PY_WORD}: Python's `\s` and `\w` for `str` patterns as character-class
 *   bodies valid in both engines (`\w` = `str.isalnum()` or `_` ≈ `[\p{L}\p{N}_]`);
 * - {@link pyBoundary}: Python's `\b` for JavaScript (JavaScript's `\b` is ASCII-only);
 * - {@link escapeRust} / {@link escapeJs}: a literal string as a regex in either engine;
 * - {@link stripPy}: Python `str.strip()` as a polars expression.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pyFindall } from "@runlens/scorers/pyre.ts";
 * assert.deepEqual(pyFindall(/(a)(b)?/gu, "a ab"), [["a", ""], ["a", "b"]]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { PY_WHITESPACE } from "../core/python.ts";

/** Python `\s` (`str.isspace()`) as a character-class body (literal characters). */
export const PY_WS = PY_WHITESPACE;

/** Python `\w` for `str` patterns as a character-class body: letters, numbers, underscore. */
export const PY_WORD = "\\p{L}\\p{N}_";

/** Python `\b` as a JavaScript (`u` flag) fragment: a change between `\w` and `\W`. */
export const pyBoundary = `(?:(?<=[${PY_WORD}])(?![${PY_WORD}])|(?<![${PY_WORD}])(?=[${PY_WORD}]))`;

/**
 * A literal string as a Rust-regex pattern (the characters `regex::escape` escapes; `<`, `>`
 * must stay bare because `\<`, `\>` are word-boundary assertions there).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(escapeRust("(A) 1+1"), "\\(A\\) 1\\+1");
 * ```
 */
export function escapeRust(s: string): string {
  return s.replace(/[\\.+*?()|[\]{}^$#&\-~]/g, "\\$&");
}

/**
 * A literal string as a JavaScript `u`-flag pattern (only syntax characters may be escaped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(new RegExp(escapeJs("a.b"), "u").test("axb"), false);
 * ```
 */
export function escapeJs(s: string): string {
  return s.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
}

/**
 * Python `re.findall` with a global `u` regex: whole matches without groups, the group with
 * one group, an array of groups ("" where a group did not take part) with several. Only
 * non-empty-match patterns scan exactly like Python (after an empty match JavaScript moves
 * on one character where Python ≥ 3.7 may still report a non-empty match at that position);
 * the first match is always the same.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(pyFindall(/\d+/gu, "a1b22"), ["1", "22"]);
 * assert.deepEqual(pyFindall(/(x)|(y)/gu, "y"), [["", "y"]]);
 * ```
 */
export function pyFindall(re: RegExp, s: string): (string | string[])[] {
  if (!re.global || !re.unicode) throw new Error(`pyFindall needs a /gu regex: ${re}`);
  const out: (string | string[])[] = [];
  for (const m of s.matchAll(re)) {
    if (m.length === 1) out.push(m[0]);
    else if (m.length === 2) out.push(m[1] ?? "");
    else out.push(m.slice(1).map((g) => g ?? ""));
  }
  return out;
}

/**
 * Python `str.strip()` (Python's whitespace set) of a Utf8 expression.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ response: ["\u0085 (A) \u001c"] }); // Python whitespace at both ends
 * const stripped = df.select(stripPy(pl.col("response")));
 * assert.deepEqual(stripped.getColumn("response").toArray(), ["(A)"]);
 * ```
 */
export function stripPy(e: pl.Expr): pl.Expr {
  return e.str.stripChars(PY_WHITESPACE);
}

/**
 * The LAST non-overlapping match of a Rust-regex `pattern` whose matches cannot overlap or
 * nest (e.g. whole words, maximal runs, fixed tokens): `(?s:.*)` before it makes the match
 * start as late as possible. Returns capture group `group` of `pattern` (1-based within
 * `pattern`), null where nothing matches.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ r: ["a1 b22", "none"] });
 * const last = df.select(lastMatch(pl.col("r"), "(?:^|[^0-9])([0-9]+)", 1));
 * assert.deepEqual(last.getColumn("r").toArray(), ["22", null]);
 * ```
 */
export function lastMatch(e: pl.Expr, pattern: string, group = 1): pl.Expr {
  return e.str.extract(`(?s:.*)(?:${pattern})`, group);
}

/**
 * `(?:^|[^\w])(alternatives)(?:[^\w]|$)`: whole-word alternatives (Python's `\b(…)\b` for
 * alternatives that start and end with word characters), for {@link lastMatch}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ r: ["True, not False.", "Falsehood"] });
 * const word = df.select(lastMatch(pl.col("r"), wholeWords(["True", "False"])));
 * assert.deepEqual(word.getColumn("r").toArray(), ["False", null]);
 * ```
 */
export function wholeWords(alternatives: readonly string[]): string {
  const alt = alternatives.map(escapeRust).join("|");
  return `(?:^|[^${PY_WORD}])(${alt})(?:[^${PY_WORD}]|$)`;
}
