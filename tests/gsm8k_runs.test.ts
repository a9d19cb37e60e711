/**
 * GSM8K end to end, on logs written at test time from the 1,319 test problems with answers in
 * six conventions (tests/_gsm8k_logs.ts), the truth counted here from the conventions: a log of
 * someone's own script (`question`, `completion`, `model`; no task, no index) and lm-eval
 * samples files (`gsm8k`, `gsm8k_cot`) are identified row by row and scored with no flags;
 * the stored verdicts point at the lm-eval rule that made them; `compare` and `report` on two
 * runs.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { expected, gsm8kProblems, lmEvalSamples, ownScriptLog } from "./_gsm8k_logs.ts";
import { withTempDir } from "./_tmp.ts";

const N = 1319;
const score = async (args: string[]) => {
  const out = await runCli(["score", ...args, "--json"]);
  assert.equal(out.code, 0, out.stderr);
  return JSON.parse(out.stdout);
};

dataTest(
  "GSM8K: a log of someone's own script, identified row by row, scored with no flags",
  async (data) => {
    await withTempDir(async (dir) => {
      const log = join(dir, "my_eval.jsonl");
      Deno.writeTextFileSync(log, ownScriptLog(gsm8kProblems(data), "my-model"));
      const json = await score([log, "--data", data]);
      const [run] = json.runs;
      assert.deepEqual(
        [run.run, run.benchmark, run.scorer, run.rows_in, run.rows_scored, run.rows_quarantined],
        ["my-model", "gsm8k", "gsm8k-number", N, N, 0],
      );
      const truth = expected(N, "gsm8k-number"); // 4 of 6 conventions right, 1 without a number
      assert.deepEqual([run.tasks.gsm8k.correct, run.no_answer], [truth.correct, truth.no_answer]);
      assert.equal(run.aggregate.coverage, "full");
      const { accuracy, ci } = run.aggregate;
      assert.equal(accuracy, Math.round((truth.correct / N) * 1e4) / 100);
      assert.equal(ci.accuracy.method, "Wilson");
      assert.ok(ci.accuracy.ci_low < accuracy && accuracy < ci.accuracy.ci_high);
      // lm-eval's rules on the same log: strings, not numbers
      for (const scorer of ["gsm8k-strict", "gsm8k-flexible"] as const) {
        const [r] = (await score([log, "--data", data, "--scorer", scorer])).runs;
        const t = expected(N, scorer);
        assert.deepEqual([r.scorer, r.tasks.gsm8k.correct, r.no_answer], [
          scorer,
          t.correct,
          t.no_answer,
        ]);
      }
    });
  },
);

dataTest(
  "GSM8K: lm-eval samples files, read like its BBH ones; stored verdicts compared",
  async (data) => {
    await withTempDir(async (dir) => {
      const problems = gsm8kProblems(data);
      const folder = join(dir, "org__model");
      Deno.mkdirSync(folder);
      const dates = {
        gsm8k: "2025-01-25T04-48-43.622918",
        gsm8k_cot: "2025-01-26T10-00-00.000001",
      };
      for (const [task, date] of Object.entries(dates)) {
        Deno.writeTextFileSync(
          join(folder, `samples_${task}_${date}.jsonl`),
          lmEvalSamples(problems, task),
        );
      }
      const json = await score([dir, "--data", data]);
      assert.deepEqual(
        json.runs.map((r: { run: string }) => r.run),
        Object.values(dates).map((d) => `org__model_${d}`),
      );
      for (const [i, run] of json.runs.entries()) {
        // 1,319 problems × 2 filters: the strict-match line of each problem scored, the other set aside
        assert.deepEqual(
          [run.benchmark, run.scorer, run.rows_in, run.rows_scored, run.rows_quarantined],
          ["gsm8k", "gsm8k-number", 2 * N, N, N],
        );
        assert.equal(run.tasks.gsm8k.correct, expected(N, "gsm8k-number").correct);
        // the default reads numbers the strict filter missed: the advice names the lm-eval rule
        const stored = json.advice.stored[i];
        assert.deepEqual([stored.run, stored.best.scorer, stored.best.agree], [
          run.run,
          "gsm8k-strict",
          stored.tried,
        ]);
      }
      const flexible = await score([dir, "--data", data, "--scorer", "gsm8k-flexible"]);
      for (const run of flexible.runs) {
        assert.deepEqual([run.stored_agreement.agree, run.stored_agreement.disagree], [N, 0]);
        assert.equal(run.tasks.gsm8k.correct, expected(N, "gsm8k-flexible").correct);
      }
      assert.deepEqual(flexible.advice.stored, []);
    });
  },
);

dataTest("GSM8K: compare and report on two runs", async (data) => {
  await withTempDir(async (dir) => {
    const problems = gsm8kProblems(data);
    const logs = join(dir, "logs");
    Deno.mkdirSync(logs);
    Deno.writeTextFileSync(join(logs, "a.jsonl"), ownScriptLog(problems, "model-a"));
    Deno.writeTextFileSync(join(logs, "b.jsonl"), ownScriptLog(problems, "model-b", 3));
    const out = await runCli(["compare", logs, "--json", "--data", data]);
    assert.equal(out.code, 0, out.stderr);
    const [c] = JSON.parse(out.stdout).comparisons;
    // per problem: a's convention i % 6, b's (i + 3) % 6; right where the convention is
    const right = (i: number, shift: number) => [0, 1, 2, 5].includes((i + shift) % 6);
    const only = (x: number, y: number) =>
      [...Array(N).keys()].filter((i) => right(i, x) && !right(i, y)).length;
    assert.deepEqual(
      [c.benchmark, c.overall.n_paired, c.overall.a_only, c.overall.b_only],
      ["gsm8k", N, only(0, 3), only(3, 0)],
    );
    const report = await runCli(["report", logs, "--out", join(dir, "r"), "--data", data]);
    assert.equal(report.code, 0, report.stderr);
    const md = Deno.readTextFileSync(join(dir, "r", "report.md"));
    const share = (n: number) => ((100 * n) / N).toFixed(1);
    const a = expected(N, "gsm8k-number");
    const row = `| model-a | gsm8k-number | ${N} | ${share(a.correct)} | ` +
      `${share(N - a.correct - a.no_answer)} | ${share(a.no_answer)} |`;
    assert.ok(md.replace(/ +/g, " ").includes(row), row);
    assert.match(md, /GSM8K: answer-format sensitivity/);
    // the provenance names the test set the runs were scored against, by its own hash
    const test = join(data, "gsm8k", "grade_school_math", "data", "test.jsonl");
    const digest = await crypto.subtle.digest("SHA-256", Deno.readFileSync(test));
    const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
    assert.ok(md.includes(hex), `report.md lacks the SHA-256 of ${test}`);
  });
});
