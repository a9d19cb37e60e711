/**
 * Whether an answer was found (issue 22, item 1): every scorer says per row whether its rule
 * found an answer (`Verdict.found`), on the responses that characterise each rule — its cue,
 * a bare answer, another convention, an empty answer after the cue.
 *
 * @module
 */
import assert from "node:assert/strict";
import { getScorer, SCORERS } from "@runlens/benchmarks/registry.ts";

/** One response, its target (and task/input when the rule reads them), and the expected found. */
interface FoundCase {
  response: string;
  target: string;
  task?: string;
  input?: string;
  found: boolean | null;
  why: string;
}

const FINAL_BLOCK = 'Let me think.\nThe date is 12/25.\n>> FINAL ANSWER:\n"""\n(B)\n"""';
const DATE_INPUT = "Today is Christmas Eve of 1937. What is the date tomorrow?\nOptions:\n" +
  "(A) 12/11/1937\n(B) 12/25/1937\n(C) 01/04/1938";

const CASES: Record<string, FoundCase[]> = {
  "bbh-release-cot": [
    { response: "Reasoning.\nSo the answer is (B).", target: "(B)", found: true, why: "cue" },
    { response: "Reasoning.\nSo the answer is (A).", target: "(B)", found: true, why: "wrong" },
    { response: "  (B)\n", target: "(B)", found: true, why: "a bare one-line answer" },
    { response: FINAL_BLOCK, target: "(B)", found: false, why: "another convention" },
    { response: "So the answer is \n(B)", target: "(B)", found: false, why: "cue, no answer" },
    { response: "", target: "(B)", found: false, why: "empty response" },
  ],
  "bbh-release-direct": [
    { response: "(B)\n\nQ: next", target: "(B)", found: true, why: "first line" },
    { response: "\n(B)", target: "(B)", found: false, why: "empty first line" },
    { response: " ", target: "(B)", found: false, why: "blank" },
  ],
  "lm-eval-get-answer": [
    { response: "So the answer is (B).", target: "(B)", found: true, why: "the filter matched" },
    { response: "The answer is (B).", target: "(B)", found: false, why: "[invalid]: capital T" },
    { response: "so the answer is B", target: "(B)", found: false, why: "one character: ''" },
    { response: FINAL_BLOCK, target: "(B)", found: false, why: "another convention" },
  ],
  "lm-eval-strict": [
    { response: "The answer is (B).", target: "(B)", found: true, why: "the filter matched" },
    { response: "Answer: (B)", target: "(B)", found: false, why: "[invalid]" },
  ],
  "lm-eval-flexible": [
    {
      response: "I pick (B) here.",
      target: "(B)",
      task: "date_understanding",
      input: DATE_INPUT,
      found: true,
      why: "last (X)",
    },
    {
      response: "I cannot tell.",
      target: "(B)",
      task: "date_understanding",
      input: DATE_INPUT,
      found: false,
      why: "[invalid]: no letter, no option text",
    },
    {
      response: "(B)",
      target: "(B)",
      task: "zebra_puzzles",
      found: null,
      why: "not a BBH task: the rule does not score it",
    },
  ],
  "last-line": [
    { response: "thinking\nB\n\n", target: "(B)", found: true, why: "a last line (wrong)" },
    { response: " \n\t\n", target: "(B)", found: false, why: "no non-empty line" },
  ],
  "bbeh-official": [
    { response: "Thinking…\nThe answer is: (B)", target: "(B)", found: true, why: "prefix" },
    { response: " 42 \n", target: "42", found: true, why: "a bare one-line answer" },
    { response: "Thinking…\nFinal answer: 42", target: "42", found: false, why: "no prefix" },
    { response: "Thinking…\nThe answer is: ", target: "42", found: false, why: "nothing after" },
  ],
  "stored": [
    { response: "anything", target: "(B)", found: null, why: "extracts nothing" },
  ],
  "lenient": [
    { response: "Reasoning.\nAnswer: (B)", target: "(B)", found: true, why: "Answer: line" },
    {
      response: "Let me think about it.\nIt is hard to say which.",
      target: "(B)",
      found: false,
      why: "no letter anywhere",
    },
  ],
};

Deno.test("found: each scorer on characteristic responses", () => {
  const failures: string[] = [];
  for (const [name, cases] of Object.entries(CASES)) {
    const s = getScorer(name);
    for (const c of cases) {
      const v = s.score(c.response, c.target, { task: c.task, input: c.input, stored: true });
      if (v.found !== c.found) {
        failures.push(`${name}: ${JSON.stringify(c.response)} (${c.why}) gave ${v.found}`);
      }
    }
  }
  assert.deepEqual(failures, []);
});

Deno.test("found: every registered scorer says it, and the table covers every one", () => {
  assert.deepEqual(SCORERS.map((s) => s.name).sort(), Object.keys(CASES).sort());
  for (const s of SCORERS) {
    const v = s.score("Some text.\nSo the answer is (B).", "(B)", {
      task: "date_understanding",
      input: DATE_INPUT,
      stored: true,
    });
    assert.ok("found" in v && (v.found === null || typeof v.found === "boolean"), s.name);
  }
});
