/**
 * `last-line` (mcpbr's BigBench-Hard rule, seed 001): hand-written cases, scalar and through scoreFrame.
 * @module
 */
import assert from "node:assert/strict";
import { checkScorerCases, type ScorerCase } from "@runlens/scorers/conformance.ts";
import { getScorer } from "@runlens/benchmarks/registry.ts";

const CASES: ScorerCase[] = [
  {
    response: "not ( True ) is False\n\nLet me work through it.\n\nFalse",
    target: "False",
    extracted: "false",
    correct: true,
    why: "the seed's successful example",
  },
  {
    response: "= not ( True )\n= True",
    target: "False",
    extracted: "= true",
    correct: false,
    why: "the seed's failed example: the last line is compared whole",
  },
  {
    response: "Answer:\nTRUE\n\n  \n",
    target: "true",
    extracted: "true",
    correct: true,
    why: "whitespace-only lines are empty; case-insensitive",
  },
  {
    response: "(B)\nHope this helps!",
    target: "(B)",
    extracted: "hope this helps!",
    correct: false,
    why: "commentary after the answer fails (seed: troubleshooting)",
  },
  {
    response: "So the answer is B",
    target: "(B)",
    extracted: "so the answer is b",
    correct: false,
    why: "no extraction inside the line; '(B)' and 'B' differ",
  },
  {
    response: "x\r\n  Yes \r\n",
    target: " yes",
    extracted: "yes",
    correct: true,
    why: "\\r\\n endings: stripping removes the \\r; the target is stripped too",
  },
  { response: "\n \n", target: "x", extracted: null, correct: false, why: "no non-empty line" },
  { response: "", target: "", extracted: null, correct: false, why: "empty response" },
  { response: null, target: "x", extracted: null, correct: null, why: "missing response" },
];

Deno.test("last-line: table, scalar and through scoreFrame", () => {
  assert.deepEqual(checkScorerCases(getScorer("last-line"), CASES), []);
});
