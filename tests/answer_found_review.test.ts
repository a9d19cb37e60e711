/**
 * The review of issue 22 turned into tests (findings 1, 4, 5, 6 and 7): logs generated at
 * test time from the data sets in the conventions that broke runlens, each row's truth known
 * from how the test wrote it (right on 7 rows of 10, else a wrong answer of the target's form),
 * never from the scorer under test.
 *
 * - 3: `compare` on two runs without answers the rule reads: the advice first, the no-answer
 *   counts beside the heading and in the JSON, a loud line per side, `--strict` fails.
 * - 1: a one-line answer without the rule's cue, a bare letter, an option's text alone, a BBEH
 *   one-line answer: no answer found by the official rules (not a silent 0.00), the advice
 *   names a rule that reads them, and that rule gives the truth; `--strict` fails.
 * - 4: BBEH answers after a `Verdict:` label (and in Chinese and Spanish): the lenient rule
 *   reads them, the type following each row's target.
 * - 5: one run with BBH and BBEH rows of a task named alike: advised per benchmark.
 * - 6: no scorer is named unless it finds more answers of the target's form than the one used.
 * - 7: negations, corrections, number words, a minus set apart, polar words.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { noAnswerText } from "@runlens/pipeline/advice.ts";
import { runsReport, runsText } from "@runlens/report/runs_text.ts";
import { readBbhExamples } from "@runlens/benchmarks/bbh/examples.ts";
import { runCli } from "./_cli.ts";
import { type ChatRow, writeChatRun } from "./_answer_logs.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

/** Row i is answered right on 7 rows of 10. */
const right = (i: number) => i % 10 < 7;

/** The option letters a question lists as "(X) text" lines or runs, in order. */
function optionLetters(input: string): string[] {
  return [...new Set([...input.matchAll(/\(([A-Z])\)/g)].map((m) => m[1]))];
}

/** The targets' pairs and label sets the data sets use. */
const FLIP: Record<string, string> = {
  Yes: "No",
  No: "Yes",
  yes: "no",
  no: "yes",
  True: "False",
  False: "True",
  valid: "invalid",
  invalid: "valid",
  Ambiguous: "Yes",
  proved: "disproved",
  disproved: "unknown",
  unknown: "proved",
};

/** A wrong answer written in the target's own form. */
function wrongOf(target: string, input: string): string {
  const letter = /^\(([A-Z])\)$/.exec(target)?.[1] ?? (/^[A-Z]$/.test(target) ? target : null);
  if (letter !== null) {
    const other = optionLetters(input).find((l) => l !== letter) ?? (letter === "A" ? "B" : "A");
    return target.startsWith("(") ? `(${other})` : other;
  }
  if (target in FLIP) return FLIP[target];
  if (/^-?\d+$/.test(target)) return String(Number(target) + 1);
  throw new Error(`no wrong answer for target ${target}`);
}

/** The answer the test writes for row i: the target on right rows, else a wrong one. */
const answerOf = (i: number, target: string, input: string) =>
  right(i) ? target : wrongOf(target, input);

/** Right answers per task of the written rows (from how they were written). */
function truth(rows: readonly ChatRow[], ok: (r: ChatRow, i: number) => boolean) {
  const out: Record<string, number> = {};
  const seen: Record<string, number> = {};
  for (const r of rows) {
    const i = seen[r.task] = (seen[r.task] ?? -1) + 1;
    out[r.task] = (out[r.task] ?? 0) + (ok(r, i) ? 1 : 0);
  }
  return out;
}

/** Per task of a loaded run: [n, correct, no_answer]. */
function cells(tasks: Record<string, { n: number; correct: number; no_answer: number }>) {
  return Object.fromEntries(
    Object.entries(tasks).map(([t, c]) => [t, [c.n, c.correct, c.no_answer]]),
  );
}

const bbh = (task: string) => ({ benchmark: "bbh" as const, task });
const bbeh = (task: string) => ({ benchmark: "bbeh" as const, task });

dataTest(
  "finding 1: one-line answers without the BBH cue: no answer found, the remedy gives the truth",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const n = 40;
      const tasks = ["geometric_shapes", "navigate", "object_counting"];
      const file = join(dir, "oneline.jsonl");
      const rows = writeChatRun(
        dataDir,
        file,
        "chatty",
        tasks.map(bbh),
        n,
        (i, t, _, input) =>
          `After checking each step carefully, the answer is ${answerOf(i, t, input)}.`,
      );
      const want = truth(rows, (_, i) => right(i));
      const loaded = await loadRuns([file], dataDir, { cache: false });
      const [run] = loaded.runs;
      assert.equal(run.scorer, "bbh-release-cot");
      // the rule compares the whole sentence: nothing it can score, all flagged
      assert.deepEqual(
        cells(run.tasks),
        Object.fromEntries(tasks.map((t) => [t, [n, 0, n]])),
      );
      assert.equal(loaded.advice.no_answer.length, tasks.length);
      for (const a of loaded.advice.no_answer) {
        assert.deepEqual([a.best?.formed, a.best?.correct], [n, want[a.task]], a.task);
        const again = await loadRuns([file], dataDir, { cache: false, scorer: a.best!.scorer });
        assert.equal(again.runs[0].tasks[a.task].correct, want[a.task], a.best!.scorer);
        assert.equal(again.runs[0].tasks[a.task].no_answer, 0);
      }
      const strict = await runCli(["score", file, "--strict", "--no-cache", "--data", dataDir]);
      assert.equal(strict.code, 1);
      assert.ok(
        strict.stderr.includes("run chatty (bbh): no answer found in 120 of 120 responses"),
        strict.stderr,
      );
      assert.ok(strict.stdout.includes("\nno answer found (3):\n"), strict.stdout);
    });
  },
);

dataTest(
  "finding 1: bare letters and option texts under the release rules: no answer, lenient reads them",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const n = 40;
      const examples = readBbhExamples(dataDir);
      // bare letters "B" for "(B)", as a direct-answer CSV holds them (canonical JSONL here)
      const lines: string[] = [];
      let bare = 0;
      for (const task of ["date_understanding", "geometric_shapes"]) {
        examples[task].slice(0, n).forEach((e, i) => {
          const answer = answerOf(i, e.target, e.input).slice(1, 2);
          if (right(i)) bare++;
          lines.push(
            JSON.stringify({
              run: "bare",
              benchmark: "bbh",
              task,
              example_index: i,
              response: answer,
            }),
          );
        });
      }
      // the option's text alone ("heptagon"), where no other option's text holds it
      const texts: string[] = [];
      let byText = 0;
      examples.geometric_shapes.slice(0, n).forEach((e, i) => {
        const options = [...e.input.matchAll(/^\(([A-Z])\) (.+)$/gm)].map((m) => [m[1], m[2]]);
        const letter = answerOf(i, e.target, e.input).slice(1, 2);
        const text = options.find(([l]) => l === letter)![1];
        if (options.some(([l, t]) => l !== letter && t.includes(text))) return;
        if (right(i)) byText++;
        texts.push(JSON.stringify({
          run: "text",
          benchmark: "bbh",
          task: "geometric_shapes",
          example_index: i,
          response: text,
        }));
      });
      Deno.writeTextFileSync(join(dir, "bare.jsonl"), lines.join("\n") + "\n");
      Deno.writeTextFileSync(join(dir, "text.jsonl"), texts.join("\n") + "\n");
      for (const scorer of ["bbh-release-cot", "bbh-release-direct", "last-line"]) {
        const loaded = await loadRuns([dir], dataDir, { cache: false, scorer });
        for (const run of loaded.runs) {
          assert.equal(run.no_answer, run.rows_scored, `${scorer} ${run.run}`);
          assert.equal(run.no_answer, run.run === "bare" ? 2 * n : texts.length);
        }
      }
      const lenient = await loadRuns([dir], dataDir, { cache: false, scorer: "lenient" });
      const byRun = Object.fromEntries(lenient.runs.map((r) => [r.run, r]));
      const correct = (r: string) =>
        Object.values(byRun[r].tasks).reduce((s, t) => s + t.correct, 0);
      assert.deepEqual([correct("bare"), byRun.bare.no_answer], [bare, 0]);
      assert.deepEqual([correct("text"), byRun.text.no_answer], [byText, 0]);
    });
  },
);

dataTest(
  "finding 1: BBEH one-line answers ('the answer is (E).'): bbeh-official finds none, lenient all",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const n = 30;
      const tasks = [
        "causal_understanding",
        "geometric_shapes",
        "hyperbaton",
        "multistep_arithmetic",
      ];
      const file = join(dir, "oneline.jsonl");
      const rows = writeChatRun(
        dataDir,
        file,
        "chatty",
        tasks.map(bbeh),
        n,
        (i, t, _, input) =>
          `After checking each step carefully, the answer is ${answerOf(i, t, input)}.`,
      );
      const want = truth(rows, (_, i) => right(i));
      const loaded = await loadRuns([file], dataDir, { cache: false });
      assert.equal(loaded.runs[0].scorer, "bbeh-official");
      assert.deepEqual(
        cells(loaded.runs[0].tasks),
        Object.fromEntries(tasks.map((t) => [t, [n, 0, n]])),
      );
      assert.deepEqual(
        loaded.advice.no_answer.map((a) => a.best?.scorer),
        tasks.map(() => "lenient"),
      );
      const lenient = await loadRuns([file], dataDir, { cache: false, scorer: "lenient" });
      assert.deepEqual(
        cells(lenient.runs[0].tasks),
        Object.fromEntries(tasks.map((t) => [t, [n, want[t], 0]])),
      );
    });
  },
);

dataTest(
  "finding 4: BBEH 'Verdict: X' (and 答案：X, La respuesta es X): lenient reads each row's type",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const n = 40;
      const tasks = ["boardgame_qa", "causal_understanding"];
      const file = join(dir, "verdict.jsonl");
      const endings = [
        (a: string) => `Let me reason about it.\nVerdict: ${a}`,
        (a: string) => `分析如下。\n答案：${a}`,
        (a: string) => `Pensemos.\nLa respuesta es ${a}.`,
      ];
      const rows = writeChatRun(
        dataDir,
        file,
        "verdict-m",
        tasks.map(bbeh),
        n,
        (i, t, _, input) => endings[i % 3](answerOf(i, t, input)),
      );
      const want = truth(rows, (_, i) => right(i));
      const loaded = await loadRuns([file], dataDir, { cache: false });
      // the official rule: no prefix, several lines: nothing read, said
      assert.deepEqual(
        cells(loaded.runs[0].tasks),
        Object.fromEntries(tasks.map((t) => [t, [n, 0, n]])),
      );
      for (const a of loaded.advice.no_answer) {
        assert.deepEqual([a.best?.scorer, a.best?.formed, a.best?.correct], [
          "lenient",
          n,
          want[a.task],
        ]);
      }
      const lenient = await loadRuns([file], dataDir, { cache: false, scorer: "lenient" });
      assert.deepEqual(
        cells(lenient.runs[0].tasks),
        Object.fromEntries(tasks.map((t) => [t, [n, want[t], 0]])),
      );
    });
  },
);

dataTest(
  "finding 5: a run with BBH and BBEH rows of geometric_shapes is advised per benchmark",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const n = 30;
      const file = join(dir, "both.jsonl");
      const cellsWritten = [bbh("geometric_shapes"), bbeh("geometric_shapes"), bbh("navigate")];
      writeChatRun(
        dataDir,
        file,
        "gpt-x",
        cellsWritten,
        n,
        (i, t, _, input) => `Let me reason.\n>> FINAL ANSWER:\n"""\n${answerOf(i, t, input)}\n"""`,
      );
      const loaded = await loadRuns([file], dataDir, { cache: false });
      const advice = loaded.advice.no_answer.map((a) => [a.benchmark, a.task, a.n, a.tried]);
      assert.deepEqual(advice.sort(), [
        ["bbeh", "geometric_shapes", n, n],
        ["bbh", "geometric_shapes", n, n],
        ["bbh", "navigate", n, n],
      ]);
      for (const a of loaded.advice.no_answer) {
        assert.equal(a.several_benchmarks, true);
        assert.ok(a.best!.formed <= n, `${a.benchmark} ${a.task}: ${a.best!.formed}`);
        assert.ok(
          noAnswerText(a).startsWith(
            `no answer found in ${n} of ${n} responses (run gpt-x, benchmark ${a.benchmark}, ` +
              `task ${a.task}); --scorer `,
          ),
          noAnswerText(a),
        );
      }
      const text = runsText(loaded);
      assert.ok(text.includes("(run gpt-x, benchmark bbeh, task geometric_shapes)"), text);
      assert.ok(text.includes("(run gpt-x, benchmark bbh, task geometric_shapes)"), text);
      const json = runsReport(loaded).advice.no_answer;
      assert.deepEqual(json.map((a) => a.benchmark).sort(), ["bbeh", "bbh", "bbh"]);
    });
  },
);

dataTest(
  "finding 6: a scorer is named only when it finds more answers of the target's form",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const n = 32;
      // "选择 D" ("choose D") is no convention any rule reads; every 4th row uses the BBH cue
      const file = join(dir, "choose.jsonl");
      const answer = (i: number, t: string, input: string) => {
        const a = answerOf(i, t, input);
        return i % 4 === 0
          ? `Thinking.\nSo the answer is ${a}.`
          : `结论如下。\n选择 ${a.slice(1, 2)}`;
      };
      writeChatRun(dataDir, file, "choose", [bbh("geometric_shapes")], n, answer);
      const none = join(dir, "none.jsonl");
      writeChatRun(
        dataDir,
        none,
        "none",
        [bbh("geometric_shapes")],
        n,
        (i, t, _, input) => `结论如下。\n选择 ${answerOf(i, t, input).slice(1, 2)}`,
      );
      const loaded = await loadRuns([file, none], dataDir, { cache: false });
      const byRun = Object.fromEntries(loaded.advice.no_answer.map((a) => [a.run, a]));
      // the cue rows: the scorer used finds 8 answers of the form; lm-eval-get-answer and
      // lenient find the same 8, no more: nothing to name
      assert.deepEqual([byRun.choose.no_answer, byRun.choose.used_formed], [n - n / 4, n / 4]);
      assert.ok(byRun.choose.scorers.every((s) => s.formed <= n / 4), "no rule finds more");
      assert.equal(byRun.choose.best, null);
      // no rule reads any row: bbh-release-direct's first line "结论如下。" is no letter
      assert.deepEqual(byRun.none.scorers.map((s) => s.formed), byRun.none.scorers.map(() => 0));
      assert.equal(byRun.none.best, null);
      for (const a of [byRun.choose, byRun.none]) {
        assert.ok(
          noAnswerText(a).endsWith(
            `; no applicable scorer finds more answers of the target's form (tried on ${n}): ` +
              "see the responses with --rows FILE",
          ),
          noAnswerText(a),
        );
      }
    });
  },
);

/** English words of an integer below 1,000 in absolute value (the test's own spelling). */
function inWords(n: number): string {
  const ones = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
  ];
  const tens = [
    "",
    "",
    "twenty",
    "thirty",
    "forty",
    "fifty",
    "sixty",
    "seventy",
    "eighty",
    "ninety",
  ];
  const below100 = (k: number) =>
    k < 20 ? ones[k] : tens[Math.floor(k / 10)] + (k % 10 ? `-${ones[k % 10]}` : "");
  if (n < 100) return below100(n);
  const rest = n % 100;
  return `${ones[Math.floor(n / 100)]} hundred` + (rest ? ` and ${below100(rest)}` : "");
}

dataTest(
  "finding 7: negations, corrections, number words, a minus set apart, polar words (lenient)",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const n = 60;
      const file = join(dir, "misreads.jsonl");
      const tasks = [
        "formal_fallacies",
        "date_understanding",
        "object_counting",
        "multistep_arithmetic_two",
        "sports_understanding",
      ];
      const rows = writeChatRun(
        dataDir,
        file,
        "misreads",
        tasks.map(bbh),
        n,
        (i, t, task, input) => {
          const a = answerOf(i, t, input);
          switch (task) {
            case "formal_fallacies": // "not X" for the other word X
              return `Checking the premises.\nAnswer: not ${FLIP[a]}`;
            case "date_understanding": { // a first guess, then the answer after a correction
              const first = optionLetters(input).find((l) => `(${l})` !== a)!;
              return `I'd say (${first}) at first. Actually, on reflection, it's ${a}.`;
            }
            case "object_counting":
              return `Counting each item.\nAnswer: ${inWords(Number(a))}`;
            case "multistep_arithmetic_two":
              return `Working it out.\nThe answer is ${a.startsWith("-") ? `− ${a.slice(1)}` : a}`;
            default: // sports_understanding: yes or no? lenient knows no task
              return `Considering the athlete.\nAnswer: ${
                a === "yes" ? "plausible" : "implausible"
              }`;
          }
        },
      ).filter((r) => r.task !== "multistep_arithmetic_two" || Math.abs(Number(r.target)) < 1e6);
      const want = truth(rows, (_, i) => right(i));
      const lenient = await loadRuns([file], dataDir, { cache: false, scorer: "lenient" });
      const got = cells(lenient.runs[0].tasks);
      for (const task of tasks.filter((t) => t !== "sports_understanding")) {
        assert.deepEqual(got[task], [n, want[task], 0], task);
      }
      // a polar word is no answer for a yes/no target: flagged, never scored in silence
      assert.deepEqual(got.sports_understanding, [n, 0, n]);
    });
  },
);

dataTest(
  "finding 3: compare says which answers were not found, before and beside the comparison",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const n = 30;
      const tasks = ["geometric_shapes", "navigate"].map(bbh);
      const block = join(dir, "block.jsonl");
      const cue = join(dir, "cue.jsonl");
      // run "block": a final-answer block (no BBH cue: nothing found); run "cue": the BBH cue on
      // rows i % 5 < 2 (found), else "Therefore, the answer is X." (not found)
      writeChatRun(
        dataDir,
        block,
        "block",
        tasks,
        n,
        (i, t, _, input) => `Let me reason.\n>> FINAL ANSWER:\n"""\n${answerOf(i, t, input)}\n"""`,
      );
      writeChatRun(dataDir, cue, "cue", tasks, n, (i, t, _, input) => {
        const a = answerOf(i, t, input);
        return i % 5 < 2
          ? `Reasoning.\nSo the answer is ${a}.`
          : `Reasoning.\nTherefore, the answer is ${a}.`;
      });
      const cueMissing = 2 *
        (n - Array.from({ length: n }, (_, i) => i).filter((i) => i % 5 < 2).length);
      const args = ["compare", block, cue, "--no-cache", "--data", dataDir];
      const text = await runCli(args);
      assert.equal(text.code, 0, text.stderr);
      const out = text.stdout;
      // the advice comes first, then the comparison, whose heading gives both sides' counts
      assert.ok(out.startsWith("no answer found (4):\n  no answer found in 30 of 30 "), out);
      const heading = out.split("\n").find((l) => l.startsWith("block vs cue (bbh)"))!;
      assert.ok(
        heading.endsWith(
          `; no answer found: block ${2 * n} of ${2 * n}, cue ${cueMissing} of ${2 * n}`,
        ),
        heading,
      );
      assert.ok(out.indexOf("no answer found (4)") < out.indexOf("block vs cue"));
      assert.ok(out.includes(`  !! most answers of block were not found (${2 * n} of ${2 * n})`));
      assert.ok(
        out.includes(`  !! most answers of cue were not found (${cueMissing} of ${2 * n})`),
      );
      const json = JSON.parse((await runCli([...args, "--json"])).stdout);
      const runs = Object.fromEntries(
        json.runs.map((r: { run: string; no_answer: number }) => [r.run, r.no_answer]),
      );
      assert.deepEqual(runs, { block: 2 * n, cue: cueMissing });
      assert.deepEqual(json.runs[0].tasks.navigate, { n, no_answer: n });
      assert.deepEqual(json.comparisons[0].no_answer_a, { no_answer: 2 * n, n: 2 * n });
      assert.deepEqual(json.comparisons[0].no_answer_b, { no_answer: cueMissing, n: 2 * n });
      assert.equal(json.advice.no_answer.length, 4);
      const strict = await runCli([...args, "--strict"]);
      assert.equal(strict.code, 1);
      assert.ok(
        strict.stderr.includes("runlens compare: run block (bbh): no answer found in 60 of 60"),
      );
    });
  },
);
