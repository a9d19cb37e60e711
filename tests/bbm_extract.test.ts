/**
 * The first-mistake answer extractor on hand-written responses.
 *
 * @module
 */
import assert from "node:assert/strict";
import { extractMistakeAnswer } from "@runlens/benchmarks/bbm/extract.ts";

const cases: [string | null, string | null][] = [
  // answer marker: the first number / "no" on the line after the last marker
  ["The answer is: 7", "7"],
  ["The answer is: No", "No"],
  ["the answer is no.", "No"],
  ["Answer: none", "No"],
  ["The answer is: There are no mistakes.", "No"],
  ["**The answer is: Thought 12**", "12"],
  ["The final answer is $\\boxed{5}$.", "5"],
  ["Thought 4 looks wrong.\nThe answer is:\n\n4", "4"],
  ["The answer is: 07", "7"],
  ["The answer is 3. Let me double-check the answer.", "3"],
  ["The answer is: 2\nThe answer is: 5", "5"],
  ["Final answer: 9 (Thought 9 drops a bracket)", "9"],
  // a marker followed by something that is not a step or "No": no answer
  ["Thought 6 seems off. The answer is: unclear", null],
  // no marker: the last number or "no"/"none" in the text
  ["The first mistake is in Thought 5.", "5"],
  ["Thoughts 1-3 are fine, and there is no mistake", "No"],
  ["Thought 2 is fine; the error is in Thought 8", "8"],
  ["None", "No"],
  ["11", "11"],
  // nothing
  ["I cannot tell.", null],
  ["", null],
  ["   \n ", null],
  [null, null],
];

Deno.test("extractMistakeAnswer: final answer of mistake-finding responses", () => {
  for (const [response, expected] of cases) {
    assert.equal(extractMistakeAnswer(response), expected, JSON.stringify(response));
  }
});

Deno.test("extractMistakeAnswer: words containing 'no' or digits inside words do not count", () => {
  assert.equal(extractMistakeAnswer("Nothing is known about step2"), null);
  assert.equal(extractMistakeAnswer("Step 3 is fine. Notably step 4 is not."), "4");
});
