/**
 * `last-line`: the rule of the mcpbr runner's BigBench-Hard page (seed 001): the last
 * non-empty line of the response, stripped and lower-cased, must equal the stripped,
 * lower-cased target ("exact match (case-insensitive) on the last non-empty line").
 *
 * Lines are split at "\n" ("\r\n" endings leave a "\r" that stripping removes); a line is
 * empty when it is only whitespace (Python's set). No non-empty line → extracted null, wrong.
 * An answer is found (`found`: an answer the rule can score) when the last line has the form
 * of an answer to the target under the rule's case-insensitive match (`exactMatchForm` of
 * `scorers/answer_form.ts`): a letter in parentheses for `(B)`, a word of the pair for yes/no,
 * a number for a number, free text of answer length. The closing `"""` of a quoted block or a
 * sentence of reasoning is no answer. A right answer is always found.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lastLine } from "@runlens/benchmarks/bbh/scorers/last_line.ts";
 * assert.deepEqual(lastLine.score("Let me think…\n\nFALSE\n", "False"), {
 *   extracted: "false",
 *   correct: true,
 *   found: true,
 * });
 * assert.equal(lastLine.score("(B)\nHope this helps!", "(B)").correct, false);
 * assert.equal(lastLine.score("(B)\nHope this helps!", "(B)").found, false); // no letter read
 * ```
 * @module
 */
import { pyStrip } from "../../../core/python.ts";
import { exactMatchForm } from "../../../scorers/answer_form.ts";
import type { Scorer } from "../../../scorers/types.ts";

/**
 * The last line with a non-whitespace character, stripped and lower-cased (null: none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(extractLastLine("a\n  B \n \n"), "b");
 * assert.equal(extractLastLine(" \n\t\n"), null); // no non-empty line
 * ```
 */
export function extractLastLine(response: string): string | null {
  const lines = response.split("\n").filter((l) => pyStrip(l) !== "");
  return lines.length === 0 ? null : pyStrip(lines.at(-1)!).toLowerCase();
}

/** `last-line`. */
export const lastLine: Scorer = {
  name: "last-line",
  description: "Last non-empty line of the response, stripped and lower-cased, equal to " +
    "the stripped, lower-cased target (mcpbr's BigBench-Hard rule).",
  source: "mcpbr BigBench-Hard benchmark page (shared/seeds/001): 'Exact match on last line " +
    "of solution (case-insensitive)'",
  benchmarks: ["bbh"],
  needs: [],
  score(response, target) {
    const extracted = extractLastLine(response);
    const want = pyStrip(target).toLowerCase();
    const correct = extracted !== null && extracted === want;
    return {
      extracted,
      correct,
      found: correct || (extracted !== null && exactMatchForm(extracted, want, true)),
    };
  },
};
