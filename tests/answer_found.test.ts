/**
 * Whether an answer was found (issue 22, item 1): every scorer says per row whether its rule
 * found an answer (`Verdict.found`), on the responses that characterise each rule — its cue,
 * a bare answer, another convention, an empty answer after the cue.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { getScorer, SCORERS } from "@runlens/benchmarks/registry.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { defaultScorerOf, runEngine } from "@runlens/pipeline/engine.ts";
import { compactFrame } from "@runlens/pipeline/compact_frame.ts";
import { type Answer, finalBlock, writeChatLog } from "./_answer_logs.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

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

/** Four conventions in turn: the BBH cue, a final-answer block, an "Answer:" line, bare. */
const MIXED: Answer = (i, target) =>
  [
    `Step by step.\nSo the answer is ${target}.`,
    finalBlock(target),
    `Step by step.\nAnswer: ${target}`,
    target,
  ][i % 4];

dataTest(
  "found: the rows frame carries answer_found, from the Workers' compact rows",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const n = 22;
      writeChatLog(dataDir, join(dir, "mixed"), ["navigate", "snarks"], n, MIXED);
      // bbh-release-cot reads the cue and the bare answer: i % 4 of 0 and 3
      const want = Array.from({ length: n }, (_, i) => i % 4 === 0 || i % 4 === 3);
      // in this thread, and in two Workers scoring ranges of ~1 KB
      for (const workers of [1, 2]) {
        const engine = await runEngine([join(dir, "mixed")], dataDir, {
          scorerOf: defaultScorerOf,
          workers,
          rangeBytes: workers === 1 ? undefined : 1024,
        });
        const files = engine.files.map((f) => f.path);
        const rows = compactFrame(engine.merged.rows, files).sort(["task", "example_index"]);
        assert.deepEqual(rows.getColumn("answer_found").toArray(), [...want, ...want]);
        // a row whose answer was not found is scored wrong, as before
        assert.deepEqual(rows.getColumn("correct").toArray(), [...want, ...want]);
      }
      const loaded = await loadRuns([join(dir, "mixed")], dataDir, { cache: false });
      const cols = loaded.rows.columns;
      assert.equal(cols[cols.indexOf("correct") + 1], "answer_found");
      const rows = loaded.rows.sort(["task", "example_index"]);
      assert.deepEqual(rows.getColumn("answer_found").toArray(), [...want, ...want]);
    });
  },
);
