/**
 * `lm-eval-strict` (bbh_cot_zeroshot strict-match): hand-written cases, scalar and through scoreFrame.
 * @module
 */
import assert from "node:assert/strict";
import { checkScorerCases, type ScorerCase } from "@runlens/scorers/conformance.ts";
import { getScorer } from "@runlens/benchmarks/registry.ts";

export const CASES: ScorerCase[] = [
  {
    response: "Let's see. The answer is (B).",
    target: "(B)",
    extracted: "(B)",
    correct: true,
    why: "capital 'The answer is ' is one of the four phrases",
  },
  {
    response: "The final answer: Yes.",
    target: "Yes",
    extracted: "Yes",
    correct: true,
    why: "'The final answer: ' phrase",
  },
  {
    response: "The answer: no.\nThe answer is Yes.",
    target: "Yes",
    extracted: "no",
    correct: false,
    why: "FIRST match in the text, whatever the phrase",
  },
  {
    response: "The answer is B",
    target: "(B)",
    extracted: "[invalid]",
    correct: false,
    why: "one character after the phrase: the match is empty, all groups empty → fallback",
  },
  {
    response: "The answer is  B",
    target: "B",
    extracted: "",
    correct: false,
    why: "capture ' ' is non-empty, stripped to ''",
  },
  {
    response: "the answer is VALID.",
    target: "valid",
    extracted: "VALID",
    correct: true,
    why: "exact_match ignores case",
  },
  {
    response: 'The answer is "1,024".',
    target: "1024",
    extracted: '"1,024"',
    correct: true,
    why: "commas and double quotes are removed from both sides",
  },
  {
    response: "The answer is 12..",
    target: "12",
    extracted: "12.",
    correct: true,
    why: "the regex eats one '.', regexes_to_ignore removes a final '.'",
  },
  {
    response: "The answer is 12...",
    target: "12",
    extracted: "12..",
    correct: false,
    why: "only one final '.' is ignored",
  },
  {
    response: "The answer is ] ) >.",
    target: "] ) >",
    extracted: "] ) >",
    correct: true,
    why: "dyck answer",
  },
  {
    response: "The answer is a\\b.",
    target: "ab",
    extracted: "a\\b",
    correct: true,
    why: "backslashes are ignored",
  },
  {
    response: "The Answer is (A).",
    target: "(A)",
    extracted: "[invalid]",
    correct: false,
    why: "phrases are case-sensitive",
  },
  {
    response: "The answer: (A) \u0000.",
    target: "(A)",
    extracted: "(A) \u0000",
    correct: false,
    why: "a NUL inside is kept; only trailing NULs vanish, and the space before it stays",
  },
  { response: null, target: "x", extracted: null, correct: null, why: "missing response" },
];

Deno.test("lm-eval-strict: table, scalar and through scoreFrame", () => {
  assert.deepEqual(checkScorerCases(getScorer("lm-eval-strict"), CASES), []);
});
