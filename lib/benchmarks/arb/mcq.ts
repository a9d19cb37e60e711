/**
 * The ARB multiple-choice scorer (`arb-mcq`): the choice letter is read from the extracted
 * answer and matched to the reference letter.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { choiceLetter, referenceLetter } from "@runlens/benchmarks/arb/mcq.ts";
 * assert.equal(choiceLetter("(C) The contract is void."), "C");
 * assert.equal(choiceLetter("The answer is option B"), "B");
 * // the scorer compares the two letters
 * assert.equal(choiceLetter("B) Paris"), referenceLetter("Paris", ["Rome", "Paris"]));
 * ```
 * @module
 */

const LONE = /^[([]?([A-Ja-j])[)\]]?[.:]?$/;
const LEADING = /^[([]?([A-J])(?:[)\].:]|$|\s+[-–—:(])/;
const PAREN = /\(([A-J])\)/g;
const NAMED = /\b(?:[Aa]nswer|[Oo]ption|[Cc]hoice)\s*(?:is\s*)?:?\s*\(?([A-J])\b/g;

/**
 * The choice letter (upper case) of an answer: a lone letter in any case (`b`, `(B)`, `B.`),
 * a leading capital followed by `)`, `.`, `:` or a dash (`B) text`, `C. text`), else the only
 * letter named by `(X)` or `answer/option/choice X` in the text. Null when no single letter is
 * named.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(choiceLetter("D"), "D");
 * assert.equal(choiceLetter("\\textbf{b}"), "B");
 * assert.equal(choiceLetter("Between (A) and (B)"), null); // two letters named
 * ```
 */
export function choiceLetter(answer: string): string | null {
  const s = answer.replace(/\\text(?:bf)?\{([^{}]*)\}/g, "$1").replace(/\*+/g, "").trim();
  const hit = LONE.exec(s) ?? LEADING.exec(s);
  if (hit) return hit[1].toUpperCase();
  const found = new Set<string>();
  for (const m of s.matchAll(PAREN)) found.add(m[1]);
  for (const m of s.matchAll(NAMED)) found.add(m[1]);
  return found.size === 1 ? [...found][0] : null;
}

/**
 * The reference letter: a letter as is (upper-cased), or the letter of the choice whose text
 * equals the reference when `choices` are given. Null when neither works.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(referenceLetter("b"), "B");
 * assert.equal(referenceLetter("Paris", ["Rome", "Paris"]), "B");
 * assert.equal(referenceLetter("Paris"), null); // a text reference needs the choices
 * ```
 */
export function referenceLetter(
  reference: string,
  choices?: readonly string[] | null,
): string | null {
  const r = reference.trim().replace(/^\(([A-Ja-j])\)$/, "$1");
  if (/^[A-Ja-j]$/.test(r)) return r.toUpperCase();
  const at = choices?.findIndex((c) => c.trim() === r) ?? -1;
  return at >= 0 && at < 10 ? String.fromCharCode(65 + at) : null;
}
