/**
 * Short, deterministic identifiers for LaTeX: `\label`s of at most 40 characters (journal
 * templates and cross-reference tools choke on longer ones) and file names cut the same way. A
 * long name keeps its start and gets a hash of the whole, so two long names that share a start
 * still differ.
 *
 * @example
 * ```ts
 * import { latexLabel } from "@runlens/render/latex/label.ts";
 * latexLabel("tab:acc"); // "tab:acc"
 * latexLabel(`tab:pair-${"x".repeat(80)}`).length; // 40
 * ```
 * @module
 */

/** The longest `\label` written. */
export const MAX_LABEL = 40;

/** FNV-1a (32 bit) of a string's UTF-16 code units, as 8 hex digits. */
function fnv1a(s: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h.toString(16).padStart(8, "0");
}

/**
 * `s` in at most `max` characters: unchanged when short enough, else its first characters, `-`
 * and 6 hex digits of a hash of all of it.
 *
 * @example
 * ```ts
 * shortId("abc", 10); // "abc"
 * shortId("pair-a-very-long-run-name-vs-another-one", 20); // "pair-a-very-l-" + 6 hex digits
 * ```
 */
export function shortId(s: string, max: number): string {
  if (s.length <= max) return s;
  return `${s.slice(0, max - 7).replace(/[-_.:]+$/, "")}-${fnv1a(s).slice(0, 6)}`;
}

/**
 * A `\label` key: characters other than letters, digits and `: . _ -` become `-`, and the
 * result has at most {@link MAX_LABEL} characters.
 *
 * @example
 * ```ts
 * latexLabel("tab:runs summary"); // "tab:runs-summary"
 * ```
 */
export function latexLabel(want: string): string {
  return shortId(want.replace(/[^A-Za-z0-9:._-]/g, "-"), MAX_LABEL);
}
