/**
 * The "rules disagree" advice (`pipeline/advice.ts`): a scorer that finds an answer in every
 * response but reads the wrong one (an official cue the model then corrects; a note's number
 * after a GSM8K answer) is caught by another applicable scorer scoring clearly more rows right,
 * named in text, JSON and `--strict`; well-formed logs, and the BBH release's own outputs, raise
 * nothing. Logs are written at test time from the data sets; the truth is counted from the
 * targets the responses were written from.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { BBH_TASK_NAMES } from "@runlens/benchmarks/bbh/tasks.ts";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { writeChatLog } from "./_answer_logs.ts";
import { gsm8kProblems } from "./_gsm8k_logs.ts";
import { withTempDir } from "./_tmp.ts";

const TASKS = ["date_understanding", "geometric_shapes", "logical_deduction_three_objects"];
/** Examples per task: under the advice's sample, so every row is tried. */
const N = 90;
/** Example i is answered right when i % 3 > 0: 60 of 90. */
const RIGHT = 60;
const right = (i: number) => i % 3 > 0;
const otherLetter = (target: string) => target === "(A)" ? "(B)" : "(A)";

interface Disagree {
  task: string;
  scorer: string;
  used_correct: number;
  tried: number;
  best: { scorer: string; correct: number };
}

dataTest(
  "rules disagree: an official cue the model then corrects is named, and --strict fails",
  async (data) => {
    await withTempDir(async (dir) => {
      // the official cue first, with a wrong letter; the corrected final answer after it
      writeChatLog(data, dir, TASKS, N, (i, target) => {
        const final = right(i) ? target : otherLetter(target);
        return `So the answer is ${otherLetter(final)}.\nWait, I made an error in step 2.\n` +
          `Final answer: ${final}`;
      });
      const out = await runCli(["score", dir, "--data", data, "--json"]);
      assert.equal(out.code, 0, out.stderr);
      const json = JSON.parse(out.stdout);
      const disagree = json.advice.disagree as Disagree[];
      assert.deepEqual(disagree.map((d) => d.task), TASKS);
      for (const d of disagree) {
        const used = json.runs[0].tasks[d.task].correct;
        assert.equal(d.scorer, "bbh-release-cot");
        assert.equal(d.used_correct, used); // every row tried: the sample is the task
        assert.equal(d.tried, N);
        assert.equal(d.best.correct, RIGHT, d.task);
        assert.ok(d.best.correct - used >= 10, d.task);
      }
      const text = await runCli(["score", dir, "--data", data, "--strict"]);
      assert.equal(text.code, 1);
      assert.match(text.stdout, /^rules disagree \(3\):$/m);
      assert.match(
        text.stdout,
        new RegExp(
          `scores ${RIGHT} of ${N} responses right, bbh-release-cot \\d+ \\(run .*, ` +
            `task date_understanding\\): the responses may state their answer in a convention ` +
            `bbh-release-cot does not read; check with --rows FILE, or --scorer `,
        ),
      );
      assert.match(text.stderr, /--strict fails a run when another rule scores clearly more/);
    });
  },
);

dataTest("rules disagree: nothing on a log in the official convention", async (data) => {
  await withTempDir(async (dir) => {
    writeChatLog(
      data,
      dir,
      TASKS,
      N,
      (i, target) => `Let me think.\nSo the answer is ${right(i) ? target : otherLetter(target)}.`,
    );
    const out = await runCli(["score", dir, "--data", data, "--json", "--strict"]);
    assert.equal(out.code, 0, out.stderr);
    const json = JSON.parse(out.stdout);
    assert.deepEqual(json.advice.disagree, []);
    assert.deepEqual(TASKS.map((t) => json.runs[0].tasks[t].correct), [RIGHT, RIGHT, RIGHT]);
  });
});

dataTest(
  "rules disagree: nothing on the BBH release's own code-davinci-002 outputs",
  async (data) => {
    const out = await runCli([
      "score",
      join(data, "bbh", "code-davinci-002-outputs"),
      "--data",
      data,
      "--json",
    ]);
    assert.equal(out.code, 0, out.stderr);
    const json = JSON.parse(out.stdout);
    assert.equal(json.runs.length, 2);
    assert.deepEqual(json.advice.disagree, []);
  },
);

dataTest("rules disagree: GSM8K's lm-eval rule on answers followed by a note", async (data) => {
  const problems = gsm8kProblems(data).slice(0, N);
  await withTempDir(async (dir) => {
    const log = join(dir, "note.jsonl");
    const lines = problems.map((p, i) => {
      const answer = right(i) ? p.target : String(Number(p.target.replaceAll(",", "")) + 1);
      return JSON.stringify({
        model: "m",
        question: p.question,
        target: p.target,
        response: `**Final Answer:** ${answer}\n\nNote: rates stay constant for 2 weeks.`,
      });
    });
    Deno.writeTextFileSync(log, lines.join("\n") + "\n");
    const out = await runCli([
      "score",
      log,
      "--data",
      data,
      "--json",
      "--scorer",
      "gsm8k-flexible",
    ]);
    assert.equal(out.code, 0, out.stderr);
    const [d] = JSON.parse(out.stdout).advice.disagree as Disagree[];
    assert.equal(d.scorer, "gsm8k-flexible");
    assert.ok(["gsm8k-number", "lenient"].includes(d.best.scorer), d.best.scorer);
    assert.equal(d.best.correct, RIGHT);
  });
});

/** BBH's multiple-choice tasks (answers written as option letters). */
const MC_TASKS = [
  "date_understanding",
  "disambiguation_qa",
  "geometric_shapes",
  "hyperbaton",
  "logical_deduction_five_objects",
  "logical_deduction_seven_objects",
  "logical_deduction_three_objects",
  "movie_recommendation",
  "penguins_in_a_table",
  "reasoning_about_colored_objects",
  "ruin_names",
  "salient_translation_error_detection",
  "snarks",
  "temporal_sequences",
  "tracking_shuffled_objects_five_objects",
  "tracking_shuffled_objects_seven_objects",
  "tracking_shuffled_objects_three_objects",
];

dataTest(
  "rules disagree: a load of more cells than the budget is checked run by run",
  async (data) => {
    await withTempDir(async (dir) => {
      // 12 runs × 17 tasks = 204 cells: 100 rows each would pass the 20,000-row budget
      const runs = 12;
      const perTask = 4;
      for (let r = 0; r < runs; r++) {
        writeChatLog(data, join(dir, `run${r}`), MC_TASKS, perTask, (i, target) => {
          const final = right(i) ? target : otherLetter(target);
          return `So the answer is ${otherLetter(final)}.\nWait, I made an error.\n` +
            `Final answer: ${final}`;
        });
      }
      const out = await runCli(["score", dir, "--data", data, "--json"]);
      assert.equal(out.code, 0, out.stderr);
      const disagree = JSON.parse(out.stdout).advice.disagree as Disagree[];
      const rightPerRun = MC_TASKS.length * [0, 1, 2, 3].filter(right).length;
      assert.equal(disagree.length, runs);
      for (const d of disagree) {
        assert.equal(d.task, "all tasks");
        assert.equal(d.tried, MC_TASKS.length * perTask); // each run's share covers its rows
        assert.equal(d.best.correct, rightPerRun);
      }
    });
  },
);

dataTest(
  "rules disagree: one misread task of a run of long responses is still named, alone",
  async (data) => {
    await withTempDir(async (dir) => {
      // 27 tasks × 12 rows of ~6,500-character responses: beyond the advice's 16 M characters
      // at 100 rows a task, so every task's sample shrinks — and each is still checked on its
      // own (from the review of issue 26: the budget first pooled the run, and one misread
      // task of 27 could not reach the run's margin). In one task the official cue names a
      // wrong letter that the model then corrects.
      const reasoning = "Let me reason about it carefully. ".repeat(192);
      writeChatLog(
        data,
        dir,
        BBH_TASK_NAMES,
        12,
        (_, target, task) =>
          task === "date_understanding"
            ? `${reasoning}\nSo the answer is ${otherLetter(target)}.\n` +
              `Wait, step 2 was wrong.\nFinal answer: ${target}`
            : `${reasoning}\nSo the answer is ${target}.`,
      );
      const out = await runCli(["score", dir, "--data", data, "--json", "--strict"]);
      assert.equal(out.code, 1, out.stderr);
      const json = JSON.parse(out.stdout);
      assert.equal(json.runs[0].tasks.date_understanding.correct, 0);
      const disagree = json.advice.disagree as Disagree[];
      assert.deepEqual(disagree.map((d) => d.task), ["date_understanding"]);
      assert.deepEqual([disagree[0].tried, disagree[0].best.correct], [12, 12]);
    });
  },
);
