/**
 * Extract the final answer of a "where is the first mistake?" response: a step number, "No"
 * (no mistake), or nothing.
 *
 * Rules, in order:
 * 1. Clean-up: drop markdown `**`/`__`, unwrap LaTeX `\boxed{…}`/`\text{…}` and `$`.
 * 2. Answer marker: if the text contains "answer is" or "answer:" (any case, e.g. "The answer
 *    is:", "Final answer: …"), the final answer is the first non-empty line after the LAST
 *    marker: its first number (→ that number, "Thought 7" → 7) or "no"/"none" word (→ "No"),
 *    whichever comes first; neither → null (the model answered something else).
 * 3. No marker: the last number or "no"/"none" word of the whole response.
 * 4. Nothing found (or an empty response) → null.
 *
 * The result is "No" or a decimal step number as the response wrote it (numbering convention is
 * applied later, by the classifier), e.g. "7".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractMistakeAnswer } from "@runlens/benchmarks/bbm/extract.ts";
 * assert.equal(extractMistakeAnswer("Thought 3 is fine… The answer is: 7"), "7");
 * assert.equal(extractMistakeAnswer("There are no mistakes. The answer is: No"), "No");
 * assert.equal(extractMistakeAnswer("I cannot tell."), null);
 * ```
 * @module
 */

const MARKER = /answer\s*(?:is\b\s*:?|:)/gi;
const TOKEN = /\b(\d+)\b|\b(no|none)\b/gi;

/** Remove markdown emphasis and LaTeX wrappers that hide the answer token. */
function clean(text: string): string {
  return text
    .replace(/\*\*|__/g, "")
    .replace(/\\(?:boxed|text|texttt|mathrm)\{([^{}]*)\}/g, "$1")
    .replace(/\$/g, "");
}

/** The answer token → "No" or the step number without leading zeros. */
function normalise(m: RegExpMatchArray): string {
  return m[1] !== undefined ? String(Number(m[1])) : "No";
}

/**
 * The final answer of a mistake-finding response: a step number as a string, "No", or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(extractMistakeAnswer("**Final answer: Thought 12**"), "12");
 * assert.equal(extractMistakeAnswer("The first error is in step 4."), "4"); // the last number
 * assert.equal(extractMistakeAnswer("The answer is: step 07"), "7");
 * ```
 */
export function extractMistakeAnswer(response: string | null | undefined): string | null {
  if (response === null || response === undefined) return null;
  const text = clean(response.trim());
  if (text === "") return null;
  const markers = [...text.matchAll(MARKER)];
  if (markers.length > 0) {
    const last = markers[markers.length - 1];
    const tail = text.slice(last.index! + last[0].length).replace(/^\s+/, "");
    const firstLine = tail.split("\n")[0];
    const hit = firstLine.match(new RegExp(TOKEN.source, "i"));
    return hit ? normalise(hit) : null;
  }
  const all = [...text.matchAll(TOKEN)];
  return all.length > 0 ? normalise(all[all.length - 1]) : null;
}
