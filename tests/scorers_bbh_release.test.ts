/**
 * `bbh-release-cot` and `bbh-release-direct`: hand-written cases, scalar and through scoreFrame.
 * (The data-backed proof that these rules reproduce the release is
 * `bbh_release_reproduction.test.ts`.)
 * @module
 */
import assert from "node:assert/strict";
import { checkScorerCases, type ScorerCase } from "@runlens/scorers/conformance.ts";
import { getScorer } from "@runlens/benchmarks/registry.ts";

export const COT: ScorerCase[] = [
  {
    response: "A is first. So the answer is (A).",
    target: "(A)",
    extracted: "(A)",
    correct: true,
    why: "the cue, one trailing period dropped",
  },
  {
    response: "So the answer is (B). Wait, so the answer is (C).",
    target: "(B)",
    extracted: "(B). Wait, so the answer is (C)",
    correct: false,
    why: "the cue is case-sensitive: only the capital-S occurrence counts",
  },
  {
    response: "So the answer is (A).\nSo the answer is (B).",
    target: "(B)",
    extracted: "(B)",
    correct: true,
    why: "the LAST occurrence of the cue wins",
  },
  {
    response: "So the answer is 24.\n\nQ: 3 + 4 =",
    target: "24",
    extracted: "24",
    correct: true,
    why: "only the first line after the cue",
  },
  {
    response: "So the answer is 24..",
    target: "24",
    extracted: "24.",
    correct: false,
    why: "only ONE trailing period is dropped",
  },
  {
    response: "So the answer is   valid .  ",
    target: "valid",
    extracted: "valid ",
    correct: false,
    why: "strip, then drop the period: the space before it stays",
  },
  {
    response: "  True.\nbecause",
    target: "True",
    extracted: "True",
    correct: true,
    why: "no cue: the whole prediction, first line, stripped, period dropped",
  },
  {
    response: "So the answer is yes.",
    target: "Yes",
    extracted: "yes",
    correct: false,
    why: "case-sensitive comparison",
  },
  {
    response: "So the answer is \u00a0(C)\u3000.",
    target: "(C)",
    extracted: "(C)\u3000",
    correct: false,
    why: "Python strip removes NBSP first; the ideographic space before the period stays",
  },
  {
    response: "",
    target: "(A)",
    extracted: "",
    correct: false,
    why: "empty prediction",
  },
  {
    response: null,
    target: "(A)",
    extracted: null,
    correct: null,
    why: "missing response: not scored",
  },
];

export const DIRECT: ScorerCase[] = [
  { response: " (A)", target: "(A)", extracted: "(A)", correct: true, why: "stripped" },
  {
    response: "(A)\n\nQ: next question",
    target: "(A)",
    extracted: "(A)",
    correct: true,
    why: "first line only",
  },
  {
    response: "(A).",
    target: "(A)",
    extracted: "(A).",
    correct: false,
    why: "the direct rule does not drop a period",
  },
  {
    response: "\n(A)",
    target: "(A)",
    extracted: "",
    correct: false,
    why: "an empty first line is the answer",
  },
  {
    response: "So the answer is (A).",
    target: "(A)",
    extracted: "So the answer is (A).",
    correct: false,
    why: "no cue handling in the direct rule",
  },
  {
    response: "False\r\n",
    target: "False",
    extracted: "False",
    correct: true,
    why: "\\r stripped",
  },
];

Deno.test("bbh-release-cot: table, scalar and through scoreFrame", () => {
  assert.deepEqual(checkScorerCases(getScorer("bbh-release-cot"), COT), []);
});

Deno.test("bbh-release-direct: table, scalar and through scoreFrame", () => {
  assert.deepEqual(checkScorerCases(getScorer("bbh-release-direct"), DIRECT), []);
});
