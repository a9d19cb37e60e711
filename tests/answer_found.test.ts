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
import { prepareArbScoring } from "@runlens/benchmarks/arb/scoring.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import {
  ADVICE_CHARS,
  ADVICE_SAMPLE,
  adviceText,
  MIN_TRIED,
  noAnswerText,
  storedText,
} from "@runlens/pipeline/advice.ts";
import { buildReport } from "@runlens/report/build.ts";
import { escapeHtml, renderReportHtml, runsSummaryTable } from "@runlens/report/html/render.ts";
import { renderReportMarkdown } from "@runlens/report/html/markdown.ts";
import type { ReportTable } from "@runlens/render/document.ts";
import { ROW_EXPORT_COLUMNS } from "@runlens/cli/score.ts";
import { runsReport, runsText } from "@runlens/report/runs_text.ts";
import { readBbhExamples } from "@runlens/benchmarks/bbh/examples.ts";
import { readBbehExamples } from "@runlens/benchmarks/bbeh/examples.ts";
import { runCli } from "./_cli.ts";
import { runEngine } from "@runlens/pipeline/engine.ts";
import { resolveLoadPlan } from "@runlens/pipeline/load_plan.ts";
import { compactFrame } from "@runlens/pipeline/compact_frame.ts";
import { type Answer, finalBlock, writeChatLog, writeLmEvalLog } from "./_answer_logs.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

/** One response, its target (and task/input when the rule reads them), and the expected found. */
interface FoundCase {
  response: string;
  target: string;
  task?: string;
  input?: string;
  /** The row's subset (ARB: its answer type, which chooses the rule). */
  subset?: string;
  found: boolean | null;
  why: string;
}

const FINAL_BLOCK = 'Let me think.\nThe date is 12/25.\n>> FINAL ANSWER:\n"""\n(B)\n"""';
const DATE_INPUT = "Today is Christmas Eve of 1937. What is the date tomorrow?\nOptions:\n" +
  "(A) 12/11/1937\n(B) 12/25/1937\n(C) 01/04/1938";

/** A BIG-Bench Mistake input: the question and its three numbered steps. */
const TRACE = "Sort the words: kiwi date lime\nThought 1: a\nThought 2: b\nThought 3: c";

await prepareArbScoring(); // ARB's rules load their computer algebra first

const CASES: Record<string, FoundCase[]> = {
  "bbh-release-cot": [
    { response: "Reasoning.\nSo the answer is (B).", target: "(B)", found: true, why: "cue" },
    { response: "Reasoning.\nSo the answer is (A).", target: "(B)", found: true, why: "wrong" },
    { response: "  (B)\n", target: "(B)", found: true, why: "a bare one-line answer" },
    { response: FINAL_BLOCK, target: "(B)", found: false, why: "another convention" },
    { response: "So the answer is \n(B)", target: "(B)", found: false, why: "cue, no answer" },
    { response: "", target: "(B)", found: false, why: "empty response" },
    // found = an answer the rule can score: of the target's form under its exact match
    {
      response: "After checking each step carefully, the answer is (D).",
      target: "(B)",
      found: false,
      why: "one line without the cue: the rule compares the whole sentence",
    },
    { response: "B", target: "(B)", found: false, why: "a bare B is never (B)" },
    { response: "So the answer is C.", target: "(B)", found: false, why: "marked, other form" },
    { response: "So the answer is yes.", target: "Yes", found: false, why: "case: never Yes" },
    { response: "So the answer is No.", target: "Yes", found: true, why: "the other word" },
    { response: "(C)\n\nQ: next", target: "(B)", found: true, why: "a letter, line 1" },
    {
      response: "Let me see.\nSo the answer is (A) and (B).",
      target: "(B)",
      found: false,
      why: "2",
    },
  ],
  "bbh-release-direct": [
    { response: "(B)\n\nQ: next", target: "(B)", found: true, why: "first line" },
    { response: "\n(B)", target: "(B)", found: false, why: "empty first line" },
    { response: " ", target: "(B)", found: false, why: "blank" },
    { response: "B", target: "(B)", found: false, why: "a bare B is never (B)" },
    { response: "(C)", target: "(B)", found: true, why: "a wrong letter" },
    { response: "Let's think step by step.\n(B)", target: "(B)", found: false, why: "line 1" },
  ],
  "lm-eval-get-answer": [
    { response: "So the answer is (B).", target: "(B)", found: true, why: "the filter matched" },
    { response: "The answer is (B).", target: "(B)", found: false, why: "[invalid]: capital T" },
    { response: "so the answer is B", target: "(B)", found: false, why: "one character: ''" },
    { response: FINAL_BLOCK, target: "(B)", found: false, why: "another convention" },
    { response: "So the answer is (B)", target: "(B)", found: false, why: "'(B': no letter" },
  ],
  "lm-eval-strict": [
    { response: "The answer is (B).", target: "(B)", found: true, why: "the filter matched" },
    { response: "Answer: (B)", target: "(B)", found: false, why: "[invalid]" },
    { response: "The answer is (b).", target: "(B)", found: true, why: "case is ignored" },
    { response: "The answer is c.", target: "(B)", found: false, why: "no (X)" },
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
    { response: "thinking\n(C)\n\n", target: "(B)", found: true, why: "a last line (wrong)" },
    { response: "thinking\nB\n\n", target: "(B)", found: false, why: "b is never (b)" },
    { response: FINAL_BLOCK, target: "(B)", found: false, why: 'the closing """' },
    { response: " \n\t\n", target: "(B)", found: false, why: "no non-empty line" },
  ],
  "bbeh-official": [
    { response: "Thinking…\nThe answer is: (B)", target: "(B)", found: true, why: "prefix" },
    { response: " 42 \n", target: "42", found: true, why: "a bare one-line answer" },
    { response: "Thinking…\nFinal answer: 42", target: "42", found: false, why: "no prefix" },
    { response: "Thinking…\nThe answer is: ", target: "42", found: false, why: "nothing after" },
    { response: "So the answer is (E).", target: "Yes", found: false, why: "a sentence, whole" },
    { response: "The answer is: C", target: "(B)", found: true, why: "a letter, wrong" },
    { response: "The answer is: twelve", target: "12", found: false, why: "not a float" },
    { response: "Let me see.\nVerdict: Yes", target: "Yes", found: false, why: "no prefix" },
    { response: "7\nbecause 3 + 4", target: "12", found: true, why: "a number, line 1" },
  ],
  "gsm8k-number": [
    { response: "So she has $18.00.", target: "18", found: true, why: "the last number" },
    { response: "I do not know.", target: "18", found: false, why: "no number" },
  ],
  // a first-mistake trace of three steps: a step inside it, or "No", is an answer
  "bbm-one-based": [
    { response: "The answer is: 2", target: "2", input: TRACE, found: true, why: "Thought 2" },
    { response: "The answer is: No", target: "2", input: TRACE, found: true, why: "no mistake" },
    { response: "The answer is: 0", target: "2", input: TRACE, found: false, why: "no Thought 0" },
    { response: "The answer is: 7", target: "2", input: TRACE, found: false, why: "past the end" },
  ],
  "bbm-zero-based": [
    { response: "The answer is: 0", target: "2", input: TRACE, found: true, why: "step 0" },
    { response: "The answer is: 3", target: "2", input: TRACE, found: false, why: "past the end" },
  ],
  // ARB: by the answer type (the row's subset); a proof is graded by hand
  "arb": [
    { response: "So. ANSWER: B", target: "B", subset: "multiple-choice", found: true, why: "B" },
    {
      response: "It is B.",
      target: "B",
      subset: "multiple-choice",
      found: false,
      why: "no ANSWER:",
    },
    { response: "ANSWER: 3.0 m", target: "3", subset: "numerical", found: true, why: "a number" },
    { response: "ANSWER: QED", target: "", subset: "proof-like", found: null, why: "by hand" },
  ],
  "gsm8k-strict": [
    { response: "#### 19", target: "18", found: true, why: "the filter matched (wrong)" },
    { response: "The answer is 18.", target: "18", found: false, why: "[invalid]: no ####" },
  ],
  "gsm8k-flexible": [
    { response: "The answer is 18.", target: "18", found: true, why: "the last number" },
    { response: "I do not know.", target: "18", found: false, why: "[invalid]: no number" },
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
      const v = s.score(c.response, c.target, {
        task: c.task,
        input: c.input,
        stored: true,
        subset: c.subset,
      });
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
      subset: "multiple-choice", // ARB's rule reads it; the others do not
    });
    assert.ok("found" in v && (v.found === null || typeof v.found === "boolean"), s.name);
  }
});

/** Each rule on every target of a data set: right, wrong of the form, a sentence read whole. */
function checkEveryTarget(
  examples: Record<string, readonly { input: string; target: string }[]>,
  rules: [name: string, write: (answer: string) => string, sentenceIsNone: boolean][],
): string[] {
  const failures: string[] = [];
  const kind = (t: string) =>
    /^\(?[A-Za-z]\)?$/.test(t)
      ? "letter"
      : /^-?\d+(?:\.\d+)?$/.test(t)
      ? "number"
      : /^(?:yes|no|true|false|valid|invalid)$/i.test(t)
      ? "binary"
      : /[\p{L}\p{N}]/u.test(t)
      ? "words"
      : "symbols";
  for (const [task, rows] of Object.entries(examples)) {
    const targets = [...new Set(rows.map((r) => r.target))];
    for (const [i, { input, target }] of rows.entries()) {
      // a wrong answer of the same form: another target of the task of the same kind and
      // length for a letter, number or word of a pair; one more word or bracket otherwise
      const k = kind(target);
      const other = k === "words"
        ? `${target} extra`
        : k === "symbols"
        ? `${target} )`
        : targets.find((t) => t !== target && kind(t) === k && t.length === target.length);
      for (const [name, write, sentenceIsNone] of rules) {
        const s = getScorer(name);
        const ctx = { task, input };
        const v = s.score(write(target), target, ctx);
        // the official BBEH rule drops a final "." from the answer, never from the target:
        // such a target is never matched (a quirk kept), but the answer is found
        const matchable = !(name === "bbeh-official" && target.endsWith("."));
        if (v.correct !== matchable || !v.found) {
          failures.push(`${name} ${task} ${i} right: ${v.extracted}`);
        }
        if (other !== undefined) {
          const w = s.score(write(other), target, ctx);
          if (w.correct || !w.found) failures.push(`${name} ${task} ${i} ${other}: ${w.extracted}`);
        }
        const sentence = `After checking each step carefully, the answer is ${target}.`;
        if (sentenceIsNone && s.score(sentence, target, ctx).found !== false) {
          failures.push(`${name} ${task} ${i}: the one-line sentence was found`);
        }
      }
    }
  }
  return failures;
}

dataTest(
  "found: every BBH target under every exact-match rule: right, wrong, a sentence",
  (dir) => {
    const examples = readBbhExamples(dir);
    const all = Object.fromEntries(Object.keys(examples).map((t) => [t, examples[t]]));
    const failures = checkEveryTarget(all, [
      ["bbh-release-cot", (a) => `Reasoning.\nSo the answer is ${a}.`, true],
      ["bbh-release-direct", (a) => `${a}\n\nQ: next`, true],
      ["lm-eval-get-answer", (a) => `Reasoning.\nSo the answer is ${a}.`, false],
      ["lm-eval-strict", (a) => `Reasoning.\nThe answer is ${a}.`, false],
      ["last-line", (a) => `Reasoning.\n${a}`, true],
    ]);
    assert.deepEqual(failures.slice(0, 20), []);
  },
);

dataTest("found: every BBEH target under bbeh-official: right, wrong, a sentence", (dir) => {
  const examples = readBbehExamples(dir);
  const all = Object.fromEntries(Object.keys(examples).map((t) => [t, examples[t]]));
  const failures = checkEveryTarget(all, [
    ["bbeh-official", (a) => `Reasoning.\nThe answer is: ${a}`, true],
  ]);
  assert.deepEqual(failures.slice(0, 20), []);
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
        const engine = await runEngine(
          [join(dir, "mixed")],
          await resolveLoadPlan(dataDir, { workers }),
          { rangeBytes: workers === 1 ? undefined : 1024 },
        );
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

/** Rows of a generated run with i % 4 ∈ {1, 2} (no BBH cue, several lines): no answer found. */
const noCue = (n: number) => Array.from({ length: n }, (_, i) => i % 4 === 1 || i % 4 === 2);

dataTest("summaries: no-answer counts per task and run, in text and JSON", async (dataDir) => {
  await withTempDir(async (dir) => {
    const tasks = ["navigate", "snarks"];
    writeChatLog(dataDir, join(dir, "mixed"), tasks, 22, MIXED);
    writeChatLog(dataDir, join(dir, "mixed"), ["boolean_expressions"], 9, MIXED);
    const loaded = await loadRuns([join(dir, "mixed")], dataDir, { cache: false });
    const [run] = loaded.runs;
    const count = (n: number) => noCue(n).filter(Boolean).length; // 22 → 11, 9 → 4
    assert.deepEqual(
      Object.fromEntries(Object.entries(run.tasks).map(([t, s]) => [t, [s.n, s.no_answer]])),
      { boolean_expressions: [9, count(9)], navigate: [22, count(22)], snarks: [22, count(22)] },
    );
    assert.equal(run.no_answer, 2 * count(22) + count(9));
    const json = runsReport(loaded).runs[0];
    assert.equal(json.no_answer, 26);
    assert.equal(json.tasks.navigate.no_answer, 11);
    const text = runsText(loaded);
    // the no-answer column, flagged (11 of 22 and 4 of 9 are above 20%); the rows with an
    // answer are right: 11 of 22 (50%) and 5 of 9
    assert.match(text, /^ {2}task +n +correct +no answer +accuracy +95% CI$/m);
    assert.match(text, /^ {2}navigate +22 +11 +11! +50\.00 /m);
    assert.match(text, /^ {2}boolean_expressions +9 +5 +4! +55\.56 /m);
    assert.ok(text.includes("(26 with no answer found: scored as wrong)"), text);
  });
});

/** A letter of another option than the target's (the data set's options run from (A)). */
const otherLetter = (target: string) => target === "(A)" ? "B" : "A";

dataTest(
  "advice: answers in an 'Answer: B' convention are flagged and lenient is named",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const tasks = ["date_understanding", "snarks"];
      const n = 30;
      // the reasoning names (A); the final line gives a bare letter, wrong every 4th row
      const answerOf = (i: number, target: string) =>
        i % 4 === 3 ? otherLetter(target) : target.slice(1, 2);
      const written = writeChatLog(
        dataDir,
        join(dir, "letters"),
        tasks,
        n,
        (i, target) =>
          `I first weighed option (A) against the others.\nAnswer: ${answerOf(i, target)}`,
      );
      const loaded = await loadRuns([join(dir, "letters")], dataDir, { cache: false });
      assert.deepEqual(loaded.advice.stored, []);
      assert.equal(loaded.advice.no_answer.length, 2);
      for (const [k, task] of tasks.entries()) {
        const a = loaded.advice.no_answer[k];
        // bbh-release-cot: no cue and two lines, on every row
        assert.deepEqual([a.task, a.scorer, a.no_answer, a.n, a.tried, a.sampled], [
          task,
          "bbh-release-cot",
          n,
          n,
          n,
          false,
        ]);
        const right = written[task].filter((_, i) => i % 4 !== 3).length;
        assert.deepEqual(a.best, { scorer: "lenient", answers: n, formed: n, correct: right });
        assert.equal(
          noAnswerText(a),
          `no answer found in ${n} of ${n} responses (run letters, task ${task}); ` +
            `--scorer lenient finds an answer of the target's form in ${n} of ${n} (${right} right)`,
        );
      }
      // the same through the CLI, and the named flag does what it says
      const cli = await runCli(["score", join(dir, "letters"), "--no-cache", "--data", dataDir]);
      assert.equal(cli.code, 0, cli.stderr);
      assert.ok(cli.stdout.includes(`\nno answer found (2):\n  no answer found in 30 of 30 `));
      const again = await loadRuns([join(dir, "letters")], dataDir, {
        cache: false,
        scorer: "lenient",
      });
      assert.equal(again.runs[0].no_answer, 0);
      assert.deepEqual(again.advice.no_answer, []);
    });
  },
);

dataTest(
  "advice: a final-answer block (the issue's logs): every task flagged, the scorer named reads them",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const tasks = ["date_understanding", "navigate", "object_counting", "dyck_languages"];
      const n = 12;
      writeChatLog(dataDir, join(dir, "gpt4"), tasks, n, (_, target) => finalBlock(target));
      const loaded = await loadRuns([join(dir, "gpt4")], dataDir, { cache: false });
      assert.equal(loaded.runs[0].no_answer, tasks.length * n);
      assert.deepEqual(loaded.advice.no_answer.map((a) => a.task), [...tasks].sort());
      for (const a of loaded.advice.no_answer) {
        // the last line `"""` and the first line of the reasoning are no answers of the form
        const byName = Object.fromEntries(a.scorers.map((s) => [s.scorer, s.formed]));
        assert.equal(byName["last-line"], 0, a.task);
        assert.equal(byName["bbh-release-direct"], 0, a.task);
        // lenient reads the block (docs/scorers.md): every answer found, every one right; a
        // rule of the benchmark's that happens to read them too comes first (registry order)
        const lenient = a.scorers.find((s) => s.scorer === "lenient");
        assert.deepEqual(lenient, { scorer: "lenient", answers: n, formed: n, correct: n });
        assert.deepEqual([a.best?.answers, a.best?.correct], [n, n], a.task);
        assert.ok(
          noAnswerText(a).endsWith(
            `--scorer ${a.best!.scorer} finds an answer of the target's form in ${n} of ${n} ` +
              `(${n} right)`,
          ),
        );
      }
    });
  },
);

dataTest(
  "advice: at most ADVICE_SAMPLE rows of a run × task are tried, evenly spaced",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const examples = readBbhExamples(dataDir).navigate; // 250 examples, 9 epochs: 2,250 rows
      const lines: string[] = [];
      for (let epoch = 1; epoch <= 9; epoch++) {
        examples.forEach((e, i) =>
          lines.push(JSON.stringify({
            run: "big",
            task: "navigate",
            example_index: i,
            epoch,
            response: `Thinking.\nAnswer: ${e.target}`,
          }))
        );
      }
      Deno.writeTextFileSync(join(dir, "big.jsonl"), lines.join("\n") + "\n");
      const loaded = await loadRuns([join(dir, "big.jsonl")], dataDir, { cache: false });
      const [a] = loaded.advice.no_answer;
      assert.deepEqual([a.n, a.no_answer, a.tried, a.sampled], [2250, 2250, ADVICE_SAMPLE, true]);
      // lenient reads "Answer: Yes" as well: a tie on every count, registry order decides
      assert.deepEqual(a.best, {
        scorer: "lm-eval-flexible",
        answers: 2000,
        formed: 2000,
        correct: 2000,
      });
      assert.ok(
        noAnswerText(a).endsWith(
          "--scorer lm-eval-flexible finds an answer of the target's form in 2,000 of 2,000 " +
            "(a sample of the 2,250) " +
            "(2,000 right)",
        ),
      );
    });
  },
);

dataTest(
  "advice: long responses shrink the samples to ADVICE_CHARS characters, and it still advises",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      // 250 rows of 80,000 characters: 20 M characters, beyond the budget of 16 M (a 1 GB
      // lm-eval folder of such responses took 10 s and 1 GB of advice before the budget)
      const examples = readBbhExamples(dataDir).navigate;
      const thinking = "Thinking step by step. ".repeat(3_478);
      const responses = examples.map((e) => `${thinking}\nAnswer: ${e.target}`);
      const lines = responses.map((response, i) =>
        JSON.stringify({ run: "long", task: "navigate", example_index: i, response })
      );
      Deno.writeTextFileSync(join(dir, "long.jsonl"), lines.join("\n") + "\n");
      const loaded = await loadRuns([join(dir, "long.jsonl")], dataDir, { cache: false });
      const chars = responses.reduce((sum, r) => sum + r.length, 0) / responses.length;
      assert.ok(chars >= 80_000);
      const [a] = loaded.advice.no_answer;
      assert.equal(a.sampled, true);
      assert.ok(a.tried * chars <= ADVICE_CHARS, `${a.tried} rows of ${chars} characters`);
      assert.ok(a.tried >= MIN_TRIED && a.tried < 250);
      // the sample still shows the convention the rule misses
      assert.equal(a.best?.scorer, "lm-eval-flexible");
      assert.equal(a.best?.answers, a.tried);
    });
  },
);

dataTest(
  "advice: stored verdicts that disagree with the default scorer name lm-eval-get-answer",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const tasks = ["date_understanding", "snarks", "navigate"];
      const n = 40;
      // Three ways of ending, in turn; the verdict lm-eval's get-answer stores for each, worked
      // out by hand from its rule (the rest of the line after "the answer is ", minus its last
      // character, equal to the target):
      // 0: "So the answer is T."  → T:  stored = right;   the BBH cue reads T: agrees
      // 1: "Thus the answer is T." → T: stored = right;   no BBH cue, two lines: wrong
      // 2: "So the answer is T"   → T minus ")": stored = false; the BBH cue reads T: right
      const given = (i: number, target: string) =>
        i % 5 === 4 ? (target === "(A)" || target === "Yes" ? "(B)" : "(A)") : target;
      const endings = [
        (a: string) => `Let me think.\nSo the answer is ${a}.`,
        (a: string) => `Let me think.\nThus the answer is ${a}.`,
        (a: string) => `Let me think.\nSo the answer is ${a}`,
      ];
      let disagree = 0;
      writeLmEvalLog(dataDir, dir, "m", tasks, n, (i, target) => {
        const answer = given(i, target);
        const right = answer === target;
        const stored = i % 3 === 2 ? false : right;
        const cot = i % 3 === 1 ? false : right;
        if (stored !== cot) disagree++;
        return { response: endings[i % 3](answer), stored };
      });
      const loaded = await loadRuns([dir], dataDir, { cache: false });
      const [run] = loaded.runs;
      assert.equal(run.scorer, "bbh-release-cot");
      assert.deepEqual([run.stored_agreement.n, run.stored_agreement.disagree], [
        3 * n,
        disagree,
      ]);
      assert.equal(loaded.advice.stored.length, 1);
      const [a] = loaded.advice.stored;
      assert.deepEqual(a.best, { scorer: "lm-eval-get-answer", agree: 3 * n });
      assert.deepEqual([a.tried, a.sampled], [3 * n, false]);
      assert.equal(
        storedText(a),
        `the log's stored verdicts disagree with bbh-release-cot on ${disagree} of ${3 * n} ` +
          `rows (run ${run.run}); lm-eval-get-answer agrees with them on ${3 * n} of ${3 * n} ` +
          "(--scorer lm-eval-get-answer)",
      );
      // the JSON report carries the same
      const json = runsReport(loaded).advice.stored[0];
      assert.equal(json.best?.scorer, "lm-eval-get-answer");
    });
  },
);

dataTest("CLI: --strict fails a run most of whose answers are not found", async (dataDir) => {
  await withTempDir(async (dir) => {
    writeChatLog(dataDir, join(dir, "gpt4"), ["navigate"], 10, (_, t) => finalBlock(t));
    const args = ["score", join(dir, "gpt4"), "--no-cache", "--data", dataDir];
    const plain = await runCli(args);
    assert.equal(plain.code, 0, plain.stderr);
    const strict = await runCli([...args, "--strict"]);
    assert.equal(strict.code, 1);
    assert.equal(strict.stdout, plain.stdout); // the same report, then the failure
    assert.equal(
      strict.stderr,
      // one file in the folder: the run is named after the file
      "runlens score: run navigate (bbh): no answer found in 10 of 10 responses; --strict " +
        "fails a " +
        "run when most of its answers are not found (the scorer to try instead is named above)\n",
    );
    const help = await runCli(["score", "--help"]);
    assert.match(help.stdout, /--strict +stop at the first file that cannot be read, and exit 1/);
    assert.match(help.stdout, /exit codes:\n +0 +done\n +1 +a file could not be read/);
    assert.match(help.stdout, /or, with --strict, most answers of a run were not\s+found/);
  });
});

dataTest(
  "CLI: a run with nothing scored exits 1 in every command that loads runs",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      // every record out of range: quarantined
      const lines = [300, 301].map((i) =>
        JSON.stringify({ run: "void", task: "navigate", example_index: i, response: "Yes" })
      );
      Deno.writeTextFileSync(join(dir, "void.jsonl"), lines.join("\n") + "\n");
      const log = join(dir, "void.jsonl");
      // compare needs two runs: the other one is scored
      const good = { run: "good", task: "navigate", example_index: 0, response: "No" };
      Deno.writeTextFileSync(join(dir, "good.jsonl"), JSON.stringify(good) + "\n");
      const common = ["--no-cache", "--data", dataDir];
      const message = "run void: nothing scored (2 records in, 2 quarantined: see the quarantine)";
      for (
        const args of [
          ["score", log],
          ["score", log, "--json"],
          ["analyze", log],
          ["compare", log, join(dir, "good.jsonl")],
          ["report", log, "--out", join(dir, "report")],
        ]
      ) {
        const r = await runCli([...args, ...common]);
        assert.equal(r.code, 1, `${args.join(" ")}: ${r.stderr}`);
        assert.ok(r.stderr.includes(`runlens ${args[0]}: ${message}\n`), `${args[0]}: ${r.stderr}`);
      }
    });
  },
);

dataTest(
  "CLI: --rows carries question, target, response, answer, answer_found, verdict, scorer",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const written = writeChatLog(dataDir, join(dir, "mixed"), ["snarks"], 8, MIXED);
      const rowsFile = join(dir, "rows.jsonl");
      const r = await runCli([
        "score",
        join(dir, "mixed"),
        "--no-cache",
        "--data",
        dataDir,
        "--rows",
        rowsFile,
      ]);
      assert.equal(r.code, 0, r.stderr);
      const rows = Deno.readTextFileSync(rowsFile).trim().split("\n").map((l) => JSON.parse(l));
      assert.deepEqual(Object.keys(rows[0]), [...ROW_EXPORT_COLUMNS]);
      const found = noCue(8).map((x) => !x);
      assert.deepEqual(
        rows.map((x) => [x.question, x.target, x.response, x.answer_found, x.correct, x.scorer]),
        written.snarks.map((w, i) => [
          w.input,
          w.target,
          w.response,
          found[i],
          found[i],
          "bbh-release-cot",
        ]),
      );
      // the answer the scorer read: the target where found (the cue or the bare answer)
      assert.deepEqual(
        rows.filter((x) => x.answer_found).map((x) => x.answer),
        written.snarks
          .filter((_, i) => found[i]).map((w) => w.target),
      );
    });
  },
);

dataTest(
  "report: the runs table counts the answers not found; the advice shows under it",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      writeChatLog(dataDir, join(dir, "gpt4"), ["navigate", "snarks"], 10, (_, t) => finalBlock(t));
      const loaded = await loadRuns([join(dir, "gpt4")], dataDir, { cache: false });
      const doc = await buildReport(loaded, { dataDir, command: "test", provenance: "source" });
      assert.equal(doc.runs[0].no_answer, 20);
      assert.deepEqual(doc.advice, adviceText(loaded.advice));
      assert.equal(doc.advice!.length, 2);
      const table = runsSummaryTable(doc.runs);
      const col = table.columns.findIndex((c) => c.label === "No answer found");
      assert.equal(table.rows[0][col], 20);
      const perTask = doc.analyses.find((s) => s.id === "per-task")!.items
        .find((i) => i.id === "per-task-accuracy") as ReportTable;
      const noAnswer = perTask.columns.findIndex((c) => c.label === "no_answer");
      assert.deepEqual(perTask.rows.map((r) => r[noAnswer]), [10, 10]);
      const html = renderReportHtml(doc);
      assert.ok(html.includes("Check these numbers"));
      assert.ok(html.includes(escapeHtml(doc.advice![0])));
      assert.ok(renderReportMarkdown(doc).includes(`- ${doc.advice![0]}`));
    });
  },
);
