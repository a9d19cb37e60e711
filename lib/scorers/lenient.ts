/**
 * `lenient`: runlens's own forgiving answer extractor, for ANALYSIS only (how much of a run's
 * score depends on answer format). It never replaces the official rule in a headline number.
 *
 * The rule, in order:
 * 1. **Hide reasoning blocks.** `<think>…</think>` (and `<thinking>…</thinking>`) blocks are
 *    removed, case-insensitively; text before a lone closing tag and after a lone opening tag
 *    is reasoning too and is removed.
 * 2. **Drop markup.** `\boxed{x}`, `\text{x}`, `\textbf{x}`, `\mathrm{x}` → `x`; `**`, `__`,
 *    backticks and `$` are deleted.
 * 3. **Find the answer line.** The LAST answer cue, case-insensitive: "the answer is",
 *    "the final/correct answer is", "… would be", "Answer:", "Final answer:" — except cues right
 *    after a quote mark (a quoted answer inside the reasoning). The candidate is the rest of
 *    that line (the next non-empty line when the rest is empty) up to its first ". " (end of
 *    the first sentence). No cue: the last non-empty line; when it is longer than
 *    {@link UNCUED_MAX} characters it is reasoning, not an answer (except for free-text targets).
 * 4. **Read the candidate in the target's answer space** (the target decides the FORMAT, never
 *    the value):
 *    - option letter `(X)`: `(x)`/`(X)` anywhere in the candidate, or a bare leading letter
 *      (`B`, `B)`, `B.`, `B:`), or the text of one option when the input lists options as
 *      `(A) text`. Two different letters, or a letter contradicted by another option's text,
 *      give NO answer (the rule never guesses between candidates);
 *    - yes/no, true/false, valid/invalid: the whole words of that pair in the candidate
 *      (case-insensitive); both words → no answer;
 *    - a number: the numbers in the candidate (thousands commas removed; after the last `=`
 *      when there is one); several different values → no answer; compared as numbers;
 *    - anything else: the candidate minus surrounding quotes/brackets and a final ".",
 *      compared case-insensitively with runs of spaces and commas collapsed.
 *
 * No answer → `extracted` null, wrong, `found` false. Missing response or target → not scored
 * (null).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lenient } from "@runlens/scorers/lenient.ts";
 * assert.deepEqual(lenient.score("**Answer: b**", "(B)"), {
 *   extracted: "(B)",
 *   correct: true,
 *   found: true,
 * });
 * const thought = "<think>(A)?</think>\nThe answer is (C).";
 * assert.deepEqual(lenient.score(thought, "(C)"), { extracted: "(C)", correct: true, found: true });
 * ```
 * @module
 */
import type { Scorer } from "./types.ts";

/** Remove reasoning blocks (`<think>`, `<thinking>`), closed or not. */
export function hideThinking(response: string): string {
  let s = response.replace(/<(think|thinking)>[\s\S]*?<\/\1>/gi, "\n");
  const close = /<\/(?:think|thinking)>/gi;
  let last = -1;
  for (let m = close.exec(s); m; m = close.exec(s)) last = m.index + m[0].length;
  if (last >= 0) s = s.slice(last);
  const open = /<(?:think|thinking)>/i.exec(s);
  return open ? s.slice(0, open.index) : s;
}

/** Delete markdown/LaTeX markup around answers (see step 2 of the module doc). */
export function dropMarkup(s: string): string {
  let out = s;
  for (let i = 0; i < 3; i++) {
    out = out.replace(/\\(?:boxed|text|textbf|mathrm)\{([^{}]*)\}/g, "$1");
  }
  return out.replace(/\*\*|__|`|\$/g, "");
}

const CUE =
  /(?:the\s+(?:final\s+|correct\s+|right\s+)?answer\s+(?:is|would\s+be|should\s+be)|(?:final\s+)?answer\s*:)\s*:?/gi;
const QUOTES = `"'“”‘’«»`;

/**
 * The answer candidate of a visible text: after the last unquoted cue, else the last non-empty
 * line (null when the text is blank); `cued` tells which.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(answerCandidate("x\nAnswer:\n  (B)\n"), { text: "(B)", cued: true });
 * ```
 */
export function answerCandidate(text: string): { text: string; cued: boolean } | null {
  let at = -1;
  for (let m = CUE.exec(text); m; m = CUE.exec(text)) {
    const before = text.slice(0, m.index).trimEnd().at(-1) ?? "";
    if (before === "" || !QUOTES.includes(before)) at = m.index + m[0].length;
  }
  const lines = (at >= 0 ? text.slice(at) : text).split("\n").map((l) => l.trim());
  if (at < 0) {
    const last = lines.filter((l) => l !== "").at(-1);
    return last === undefined ? null : { text: last, cued: false };
  }
  const line = lines.find((l) => l !== "");
  return line === undefined ? null : { text: line.split(". ")[0].trim(), cued: true };
}

/**
 * The options an input lists as `(A) text` lines, letter → text.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(parseOptions("Q?\nOptions:\n(A) red\n(B) blue").get("B"), "blue");
 * ```
 */
export function parseOptions(input: string | null | undefined): Map<string, string> {
  const out = new Map<string, string>();
  for (const m of (input ?? "").matchAll(/^\s*\(([A-Z])\)\s*(.+?)\s*$/gm)) {
    if (!out.has(m[1])) out.set(m[1], m[2]);
  }
  return out;
}

/** Lower-case, collapse spaces and commas, strip quotes/brackets and a final ".". */
function norm(s: string): string {
  let t = s.trim().toLowerCase().replace(/[\s,]+/g, " ").trim();
  for (let i = 0; i < 2; i++) {
    t = t.replace(/[.!]$/, "").trim();
    const first = t.at(0) ?? "", last = t.at(-1) ?? "";
    const pair = `${first}${last}`;
    if (t.length >= 2 && (/^["'“‘\[(]["'”’\])]$/.test(pair))) t = t.slice(1, -1).trim();
  }
  return t;
}

function escapeRe(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** The option letter a candidate names, or null (none, or ambiguous/contradictory). */
function readLetter(cand: string, options: Map<string, string>): string | null {
  const letters = new Set<string>();
  for (const m of cand.matchAll(/\(([A-Za-z])\)/g)) letters.add(m[1].toUpperCase());
  const bare = /^\[?([A-Za-z])(?:\s*[).:\]]|$)/.exec(cand.trim());
  if (bare && letters.size === 0) {
    const l = bare[1].toUpperCase();
    if (options.size === 0 ? /[A-R]/.test(l) : options.has(l)) letters.add(l);
  }
  const plain = norm(cand.replace(/\(([A-Za-z])\)/g, " "));
  const byText = [...options].filter(([, text]) => {
    const t = norm(text);
    return t !== "" && new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRe(t)}(?:$|[^\\p{L}\\p{N}])`, "u")
      .test(plain);
  });
  // an option text inside a longer matched option text is not a separate mention
  const texts = byText.filter(([, t]) =>
    !byText.some(([, u]) => u !== t && norm(u).includes(norm(t)))
  ).map(([l]) => l);
  if (letters.size > 1) return null;
  if (letters.size === 1) {
    const [l] = letters;
    return texts.length === 0 || texts.includes(l) ? l : null;
  }
  return texts.length === 1 ? texts[0] : null;
}

/** Longest last line (chars) read as a letter, yes/no-type word or number without a cue. */
export const UNCUED_MAX = 80;

const BINARY: readonly (readonly [string, string])[] = [
  ["yes", "no"],
  ["true", "false"],
  ["valid", "invalid"],
];

/** The numbers of a candidate (after its last "="), thousands commas removed. */
function readNumber(cand: string): string | null {
  const tail = cand.includes("=") ? cand.slice(cand.lastIndexOf("=") + 1) : cand;
  const nums = [...tail.matchAll(/-?\d{1,3}(?:,\d{3})+(?:\.\d+)?|-?\d+(?:\.\d+)?/g)]
    .map((m) => Number(m[0].replaceAll(",", "")));
  const distinct = [...new Set(nums)];
  return distinct.length === 1 ? String(distinct[0]) : null;
}

/**
 * The lenient answer of a response in the answer space of `target` (null: no answer).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lenientExtract("So it is 1,000 apples.", "1000"), "1000");
 * assert.equal(lenientExtract("The answer is (A) or (B).", "(A)"), null); // two letters
 * ```
 */
export function lenientExtract(
  response: string,
  target: string,
  input?: string | null,
): string | null {
  const found = answerCandidate(dropMarkup(hideThinking(response)));
  if (found === null) return null;
  const t = target.trim();
  const freeText = !/^\([A-Za-z]\)$/.test(t) && !/^-?\d+(?:\.\d+)?$/.test(t) &&
    !BINARY.some((p) => p.includes(t.toLowerCase()));
  // without a cue, a long last line is reasoning (or a degenerate loop), not an answer
  if (!found.cued && !freeText && found.text.length > UNCUED_MAX) return null;
  const cand = found.text;
  if (/^\([A-Za-z]\)$/.test(t)) {
    const l = readLetter(cand, parseOptions(input));
    return l === null ? null : `(${l})`;
  }
  const pair = BINARY.find((p) => p.includes(t.toLowerCase()));
  if (pair) {
    const words = new Set(
      [...cand.toLowerCase().matchAll(/[a-z]+/g)].map((m) => m[0]).filter((w) => pair.includes(w)),
    );
    return words.size === 1 ? [...words][0] : null;
  }
  if (/^-?\d+(?:\.\d+)?$/.test(t)) return readNumber(cand);
  const free = norm(cand) === "" ? null : cand.trim().replace(/\.$/, "").trim();
  return free;
}

/**
 * Whether a lenient answer matches the target (case-insensitive; numbers by value).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lenientMatch("(b)", "(B)"), true);
 * assert.equal(lenientMatch(null, "(B)"), false);
 * ```
 */
export function lenientMatch(extracted: string | null, target: string): boolean {
  if (extracted === null) return false;
  const t = target.trim();
  if (/^-?\d+(?:\.\d+)?$/.test(t) && /^-?\d+(?:\.\d+)?$/.test(extracted)) {
    return Number(extracted) === Number(t);
  }
  return norm(extracted) === norm(t);
}

/** `lenient`. */
export const lenient: Scorer = {
  name: "lenient",
  description: "runlens's forgiving extractor (analysis only): ignores <think> blocks and " +
    'markdown/LaTeX markup, reads the text after the LAST unquoted answer cue ("the answer ' +
    'is", "Answer:", "Final answer:"; else the last line) in the target\'s answer space: ' +
    "option letter or option text (ambiguous/contradicting → no answer), yes/no-type words, " +
    "numbers, or free text; case-insensitive.",
  source: "runlens (lib/scorers/lenient.ts); not from any paper or harness",
  benchmarks: ["bbh", "bbeh"],
  needs: ["input"],
  score(response, target, ctx) {
    const extracted = lenientExtract(response, target, ctx?.input);
    return { extracted, correct: lenientMatch(extracted, target), found: extracted !== null };
  },
};
