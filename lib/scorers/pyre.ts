/**
 * Python `re` behaviour that scoring rules rely on, in JavaScript `RegExp`:
 *
 * - {@link pyFindall}: `re.findall` (group rules, last-match selection);
 * - {@link PY_WS} / {@link PY_WORD}: Python's `\s` and `\w` for `str` patterns as character-class
 *   bodies (`\w` = `str.isalnum()` or `_` ≈ `[\p{L}\p{N}_]`);
 * - {@link pyBoundary}: Python's `\b` (JavaScript's `\b` is ASCII-only);
 * - {@link escapeJs}: a literal string as a regex.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pyFindall } from "@runlens/scorers/pyre.ts";
 * assert.deepEqual(pyFindall(/(a)(b)?/gu, "a ab"), [["a", ""], ["a", "b"]]);
 * ```
 * @module
 */
import { PY_WHITESPACE } from "../core/python.ts";

/** Python `\s` (`str.isspace()`) as a character-class body (literal characters). */
export const PY_WS = PY_WHITESPACE;

/** Python `\w` for `str` patterns as a character-class body: letters, numbers, underscore. */
export const PY_WORD = "\\p{L}\\p{N}_";

/** Python `\b` as a JavaScript (`u` flag) fragment: a change between `\w` and `\W`. */
export const pyBoundary = `(?:(?<=[${PY_WORD}])(?![${PY_WORD}])|(?<![${PY_WORD}])(?=[${PY_WORD}]))`;

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
