/**
 * GSM8K's default `gsm8k-number` on the final-answer conventions a second review of issue 22
 * found it misread (its finding N1): an answer followed by a note with numbers, an `Answer:` line
 * followed by a check line, `\boxed{N}$` followed by units, a self-correction ("the answer is
 * 21. Wait… the answer is 18."). Logs are written at test time from the 1,319 test problems; a
 * problem's written answer is its own `#### N` (right) or that number plus one (wrong), so the
 * truth is counted from the data set, not from the scorer.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { gsm8kNumber } from "@runlens/benchmarks/gsm8k/mod.ts";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { gsm8kProblems, type Problem } from "./_gsm8k_logs.ts";
import { withTempDir } from "./_tmp.ts";

/** A response that states `answer` as its final answer, with other numbers around it. */
type Convention = (answer: string, other: string) => string;

/** The review's conventions; `other` is a number the model did NOT give as its answer. */
const CONVENTIONS: Record<string, Convention> = {
  "final answer, then a note": (a) =>
    `Let me solve it step by step.\n...\n**Final Answer:** ${a}\n\n` +
    "Note: this assumes the rates stay constant for 2 weeks.",
  "Answer:, then a check line": (a) => `Answer: ${a}\nCheck: 3 + 4 = 7, consistent.`,
  "boxed, then units": (a) => `Working...\nThe answer is $\\boxed{${a}}$ (rounded to 2 decimals).`,
  "self-correction": (a, other) =>
    `At first glance the answer is ${other}. Wait, I double counted. ` +
    `Recomputing carefully, the answer is ${a}.`,
  "answer tag, then a remark": (a) => `<answer>${a}</answer>\nThat took 3 steps.`,
  "trailing JSON": (a) => `16 - 3 - 4 = 9\n{"reasoning": "9 eggs at 2 each", "answer": ${a}}`,
};

const plus = (t: string, k: number) => String(Number(t.replaceAll(",", "")) + k);

/** Problem i is answered right when i % 3 > 0, else with its number plus one. */
const answerOf = (p: Problem, i: number) => i % 3 > 0 ? p.target : plus(p.target, 1);

dataTest("gsm8k-number reads the marked final answer, not the numbers after it", (data) => {
  const problems = gsm8kProblems(data);
  const truth = problems.filter((_, i) => i % 3 > 0).length;
  for (const [name, write] of Object.entries(CONVENTIONS)) {
    let right = 0, found = 0;
    problems.forEach((p, i) => {
      const v = gsm8kNumber.score(write(answerOf(p, i), plus(p.target, 3)), p.target);
      if (v.correct) right++;
      if (v.found) found++;
    });
    assert.deepEqual([right, found], [truth, problems.length], name);
  }
});

dataTest(
  "gsm8k-number end to end: a log in the review's conventions scores its truth",
  async (data) => {
    const problems = gsm8kProblems(data).slice(0, 300);
    const names = Object.keys(CONVENTIONS);
    await withTempDir(async (dir) => {
      const log = join(dir, "conventions.jsonl");
      Deno.writeTextFileSync(
        log,
        problems.map((p, i) =>
          JSON.stringify({
            model: "m",
            question: p.question,
            target: p.target,
            response: CONVENTIONS[names[i % names.length]](answerOf(p, i), plus(p.target, 3)),
          })
        ).join("\n") + "\n",
      );
      const out = await runCli(["score", log, "--data", data, "--json"]);
      assert.equal(out.code, 0, out.stderr);
      const [run] = JSON.parse(out.stdout).runs;
      assert.deepEqual([run.scorer, run.tasks.gsm8k.n, run.tasks.gsm8k.correct, run.no_answer], [
        "gsm8k-number",
        300,
        200,
        0,
      ]);
    });
  },
);
