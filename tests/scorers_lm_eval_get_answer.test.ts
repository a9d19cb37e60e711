/**
 * `lm-eval-get-answer` (bbh_cot_fewshot): hand-written cases for what
 * `(?<=the answer is )(.*)(?=.)` + take_first + strip really returns, scalar and through scoreFrame.
 * @module
 */
import assert from "node:assert/strict";
import { checkScorerCases, type ScorerCase } from "@runlens/scorers/conformance.ts";
import { getScorer } from "@runlens/benchmarks/registry.ts";

export const CASES: ScorerCase[] = [
  {
    response: "So the answer is (B).",
    target: "(B)",
    extracted: "(B)",
    correct: true,
    why: "the look-ahead eats the final period",
  },
  {
    response: "So the answer is (B)",
    target: "(B)",
    extracted: "(B",
    correct: false,
    why: "no period: the look-ahead eats the closing parenthesis",
  },
  {
    response: "So the answer is (B). ",
    target: "(B)",
    extracted: "(B).",
    correct: false,
    why: "a trailing space is the character eaten; strip keeps the period (PR #2013)",
  },
  {
    response: "So the answer is (A).\nSo the answer is (B).",
    target: "(B)",
    extracted: "(A)",
    correct: false,
    why: "FIRST match, not last",
  },
  {
    response: "So the answer is\nthe answer is 7.",
    target: "7",
    extracted: "7",
    correct: true,
    why: "'the answer is' without a space after it is not the phrase",
  },
  {
    response: "the answer is \nthe answer is 12.",
    target: "12",
    extracted: "12",
    correct: true,
    why: "an occurrence at the end of its line cannot match: the look-ahead needs a character",
  },
  {
    response: "the answer is 7",
    target: "7",
    extracted: "",
    correct: false,
    why: "one character after the phrase: empty capture, not [invalid]",
  },
  {
    response: "The answer is (C).",
    target: "(C)",
    extracted: "[invalid]",
    correct: false,
    why: "case-sensitive: 'The' does not match",
  },
  {
    response: "Therefore the answer is  valid.\r\n",
    target: "valid",
    extracted: "valid.",
    correct: false,
    why: "'.' matches \\r, which is the character eaten; strip removes the spaces",
  },
  {
    response: "So the answer is \u2028x.",
    target: "x",
    extracted: "x",
    correct: true,
    why: "Python's '.' matches U+2028 (JavaScript's does not); strip removes it",
  },
  {
    response: "so the answer is (A).\u0000",
    target: "(A).",
    extracted: "(A).",
    correct: true,
    why: "plain exact match",
  },
  {
    response: "so the answer is True\u0000.",
    target: "True",
    extracted: "True\u0000",
    correct: true,
    why: "numpy string arrays cannot see trailing NULs",
  },
  { response: "", target: "x", extracted: "[invalid]", correct: false, why: "empty response" },
  { response: null, target: "x", extracted: null, correct: null, why: "missing response" },
];

Deno.test("lm-eval-get-answer: table, scalar and through scoreFrame", () => {
  assert.deepEqual(checkScorerCases(getScorer("lm-eval-get-answer"), CASES), []);
});
