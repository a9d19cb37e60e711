/**
 * The final answer of an ARB response: the text after the last `ANSWER:` delimiter (the
 * paper's prompts ask for it on the last line; a response without it is unparseable and
 * scored incorrect), and the markup cleaning shared by all answer types.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { extractAnswer } from "@runlens/benchmarks/arb/answer.ts";
 * assert.equal(extractAnswer("… so the capacitance doubles.\nANSWER: B"), "B");
 * assert.equal(extractAnswer("I think it is B."), null); // unparseable
 * ```
 * @module
 */

/** The delimiter the ARB prompts ask for (matched case-sensitively, as in the paper). */
export const ANSWER_DELIMITER = "ANSWER:";

/**
 * The answer after the last `ANSWER:`: the rest of that line, or the next non-blank line when
 * the delimiter ends its line; surrounding markup (`<math>` tags, `$`, `**`, `\text{…}` around
 * the delimiter) and a trailing full stop are removed. Null when the response has no delimiter
 * or nothing follows it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(extractAnswer("ANSWER: <math>x * y</math>"), "x * y");
 * assert.equal(extractAnswer("$$\\text{ANSWER: } C = \\frac{1}{2}.$$"), "C = \\frac{1}{2}");
 * assert.equal(extractAnswer("ANSWER:\n\n 42 m"), "42 m");
 * assert.equal(extractAnswer("answer: 42"), null); // the delimiter is case-sensitive
 * ```
 */
export function extractAnswer(response: string): string | null {
  const at = response.lastIndexOf(ANSWER_DELIMITER);
  if (at < 0) return null;
  let rest = response.slice(at + ANSWER_DELIMITER.length);
  // `\text{ANSWER: } x` and `**ANSWER:** x`: drop what closes the wrapper around the delimiter.
  rest = rest.replace(/^\s*\}/, "").replace(/^\*\*/, "");
  const lines = rest.split("\n").map((l) => l.trim());
  const first = lines.find((l) => cleanAnswer(l) !== "");
  if (first === undefined) return null;
  const answer = cleanAnswer(first);
  return answer === "" ? null : answer;
}

/**
 * Strip presentation markup from an answer: `<math>`/HTML tags, `$`/`$$`, `\(`…`\)`,
 * `\[`…`\]`, a bold `**…**` wrapper, surrounding whitespace and one trailing `.`/`,`/`;` (not a decimal point).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(cleanAnswer("<p>$2.4$.</p>"), "2.4");
 * assert.equal(cleanAnswer("**3.**"), "3");
 * ```
 */
export function cleanAnswer(text: string): string {
  return text
    .replace(/<\/?[a-zA-Z][^>]*>/g, " ")
    .replace(/\$+/g, " ")
    .replace(/\\[()[\]]/g, " ")
    .trim()
    .replace(/^\*\*(.*)\*\*$/, "$1")
    .replace(/\s*[.,;]+$/, "")
    .trim();
}
