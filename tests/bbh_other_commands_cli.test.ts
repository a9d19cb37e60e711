/**
 * `analyze`, `arb` and `bbm` on BBH run logs, through the CLI (issue 22, item 5): `analyze`
 * gives BBH's analysis (the run's accuracy under every answer rule) and says that the
 * failure-mode analyses are BBEH's, instead of one empty line; `arb` says there is no ARB row
 * and exits 1, instead of one "missing id" line per row and exit 0; `bbm` says there is no
 * first-mistake answer and exits 1, instead of crashing on an empty frame.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { readBbhExamples } from "./_examples.ts";
import { withTempDir } from "./_tmp.ts";

const BBH = new URL("./fixtures/logs/bbh/", import.meta.url).pathname;
const ARB = new URL("./fixtures/arb/illustrative/", import.meta.url).pathname;

/** A BBH run folder: one JSON-lines file per task (question, answer, target), every row right. */
function bbhFolder(data: string, dir: string, tasks: readonly string[]): number {
  const examples = readBbhExamples(data);
  let rows = 0;
  for (const task of tasks) {
    const lines = examples[task].map((e) =>
      JSON.stringify({
        input: e.input,
        response: `So the answer is ${e.target}.`,
        target: e.target,
      })
    );
    Deno.writeTextFileSync(join(dir, `${task}.jsonl`), lines.join("\n") + "\n");
    rows += lines.length;
  }
  return rows;
}

dataTest("analyze on a BBH run: the answer rules' accuracies, and why no failure modes", async (
  data,
) => {
  const env = { RUNLENS_DATA: data };
  const out = await runCli(["analyze", join(BBH, "canonical.jsonl"), "--no-cache"], { env });
  assert.equal(out.code, 0, out.stderr);
  const lines = out.stdout.split("\n");
  assert.equal(lines[0], "bbh-canon (tiny, BBH, scorer bbh-release-cot)");
  assert.match(lines[1], /no analyses of its own for BBH \(benchmarks with analyses: BBEH\)/);
  // bbh_runs.test.ts: 1 of 2 boolean_expressions, 2 of 2 navigate, 1 of 2 snarks right
  const cot = lines.find((l) => l.trimStart().startsWith("bbh-release-cot*"));
  assert.ok(cot, out.stdout);
  assert.deepEqual(cot.trim().split(/\s+/).slice(1, 4), ["6", "4", "66.67"]);
  for (const rule of ["bbh-release-direct", "lm-eval-get-answer", "last-line", "lenient"]) {
    assert.ok(lines.some((l) => l.trimStart().startsWith(`${rule} `)), rule);
  }
  const json = await runCli(["analyze", join(BBH, "canonical.jsonl"), "--json", "--no-cache"], {
    env,
  });
  const run = JSON.parse(json.stdout).runs[0];
  assert.deepEqual([run.benchmark, run.scorer], ["bbh", "bbh-release-cot"]);
  assert.equal(run.format_sensitivity.navigate["bbh-release-cot"].correct, 2);
});

dataTest("analyze with nothing scored: an error, not an empty line", async (data) => {
  await withTempDir(async (dir) => {
    const path = join(dir, "navigate.jsonl");
    Deno.writeTextFileSync(
      path,
      JSON.stringify({ task: "navigate", example_index: 999, response: "x" }) + "\n",
    );
    const out = await runCli(["analyze", path, "--no-cache"], { env: { RUNLENS_DATA: data } });
    assert.equal(out.code, 1);
    assert.equal(out.stdout, "");
    assert.match(out.stderr, /no scored rows in .*navigate\.jsonl: nothing to analyse/);
  });
});

dataTest("arb on a BBH folder: no ARB rows, exit 1, one line", async (data) => {
  await withTempDir(async (dir) => {
    const rows = bbhFolder(data, dir, ["navigate", "snarks", "word_sorting"]);
    assert.ok(rows > 600);
    const out = await runCli(["arb", dir]);
    assert.equal(out.code, 1);
    assert.equal(out.stdout, "");
    assert.equal(out.stderr.trim().split("\n").length, 1, out.stderr.slice(0, 500));
    assert.match(
      out.stderr,
      /^runlens arb: no ARB rows in .*: none of its 3 log files is an ARB-style log/,
    );
    assert.ok(!out.stderr.includes("missing id"));
    // beside ARB logs, the BBH files are left out and named once; the ARB rows are scored
    const both = await runCli(["arb", ARB, dir, "--json"]);
    assert.equal(both.code, 0, both.stderr);
    assert.match(both.stderr, /left out 3 files that are not ARB-style/);
    const report = JSON.parse(both.stdout);
    assert.deepEqual([report.rows_in, report.rows_quarantined], [44, 0]);
  });
});

dataTest("bbm on BBH folders: no first-mistake answers, exit 1, no crash", async (data) => {
  await withTempDir(async (dir) => {
    const rows = bbhFolder(data, dir, ["navigate", "dyck_languages"]);
    // the lines are read through the pipeline: BBH questions are found in neither BBEH's
    // first-mistake tasks nor BBM's traces, and the message counts and names them
    for (
      const [path, reasons] of [[dir, `none of its ${rows} lines names a BBM trace`], [
        BBH,
        "lines set apart: ",
      ]]
    ) {
      const out = await runCli(["bbm", "--data", data, "--numbering", "one-based", path]);
      assert.equal(out.code, 1, out.stdout);
      assert.ok(!out.stderr.includes("dtype"), out.stderr);
      assert.match(out.stderr, /^runlens bbm: no mistake-finding answers in /);
      assert.ok(out.stderr.includes(reasons), out.stderr);
    }
  });
});
