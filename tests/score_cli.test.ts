/**
 * `runlens score` as a user runs it (a subprocess): the exact JSON report, the readable
 * report, `--rows`, full-set and Mini-only coverage, exit codes and error messages.
 * @module
 */
import assert from "node:assert/strict";
import { assertTaskCell } from "./_task_cell.ts";
import { join } from "node:path";
import pl from "nodejs-polars";
import { FETCH_HINT } from "@runlens/core/data_dir.ts";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { BBEH_TASK_NAMES } from "@runlens/benchmarks/bbeh/tasks.ts";
import { parseScoreArgs } from "@runlens/cli/score.ts";
import { type CliResult, runCli } from "./_cli.ts";
import { dataTest, TEST_DATA_DIR } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

const LOGS = join("tests", "fixtures", "logs");

/** `runlens score args…` from the repository root, `env` added to the environment. */
function runlens(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(["score", ...args], { env });
}

interface Example {
  task: string;
  example_index: number;
  target: string;
  in_mini: boolean;
  unmatchable_target: boolean;
}

function examples(dataDir: string): Example[] {
  return loadBbehDataset(dataDir)
    .select("task", "example_index", "target", "in_mini", "unmatchable_target")
    .toRecords() as unknown as Example[];
}

const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";
const stateTarget = (e: Example) => ({
  task: e.task,
  example_index: e.example_index,
  response: `Let me think. The answer is: ${e.target}`,
});
const round2 = (x: number) => Math.round(x * 100) / 100;

Deno.test("parseScoreArgs: flags, inline values, usage errors", () => {
  assert.deepEqual(parseScoreArgs(["a.jsonl", "--json", "--data=d", "--rows", "r.jsonl", "b"]), {
    paths: ["a.jsonl", "b"],
    data: "d",
    json: true,
    rows: "r.jsonl",
    load: { cache: true },
    verbose: false,
  });
  assert.equal(parseScoreArgs([]), "no run logs given");
  assert.equal(parseScoreArgs(["a.jsonl", "--bogus"]), "unknown option --bogus");
  assert.equal(parseScoreArgs(["a.jsonl", "--data"]), "--data needs a value");
  assert.equal(parseScoreArgs(["a.jsonl", "--rows="]), "--rows needs a value");
});

Deno.test("score: usage errors exit 2 with the usage text", async () => {
  for (const args of [[], ["x.jsonl", "--frobnicate"], ["x.jsonl", "--data"]]) {
    const r = await runlens(args);
    assert.equal(r.code, 2, JSON.stringify(args));
    assert.match(r.stderr, /^runlens score: .+\nusage: deno task runlens score <paths…>/);
    assert.equal(r.stdout, "");
  }
});

Deno.test("score: fatal errors exit 1 with a one-line message naming the file", async () => {
  const missing = await runlens([join(LOGS, "no_such_run.jsonl"), "--data", TEST_DATA_DIR]);
  assert.equal(missing.code, 1);
  assert.equal(
    missing.stderr,
    `runlens score: ${join(LOGS, "no_such_run.jsonl")}: no such file or directory\n`,
  );
  await withTempDir(async (dir) => {
    const txt = join(dir, "run.txt");
    Deno.writeTextFileSync(txt, "hello\n");
    const wrongType = await runlens([txt]);
    assert.equal(wrongType.code, 1);
    assert.equal(
      wrongType.stderr,
      `runlens score: ${txt}: not a run log runlens reads (extension .txt is not a run log)\n`,
    );
    const emptyDir = await runlens([dir]);
    assert.equal(emptyDir.code, 1);
    assert.equal(
      emptyDir.stderr,
      `runlens score: no run logs found in ${dir} (looked for .jsonl, .json, .csv, .tsv, .eval ` +
        "and .log files, also gzip-compressed)\n",
    );
  });
});

Deno.test("score: a missing data directory is a clear error with the fetch hint", async () => {
  const logs = join(LOGS, "tree");
  for (
    const [args, env] of [
      [[logs, "--data", "/nonexistent/runlens-data"], {}],
      [[logs], { RUNLENS_DATA: "/nonexistent/runlens-data" }],
    ] as const
  ) {
    const r = await runlens([...args], { ...env });
    assert.equal(r.code, 1);
    assert.equal(r.stdout, "");
    assert.ok(r.stderr.startsWith("runlens score: data directory /nonexistent/runlens-data"));
    assert.ok(r.stderr.includes(FETCH_HINT));
    assert.equal(r.stderr.trim().split("\n").length, 1, "one line, no stack trace");
  }
});

dataTest("score --json: exact report shape and values", (dataDir) =>
  withTempDir(async (dir) => {
    const all = examples(dataDir);
    const pick = (task: string, i: number) =>
      all.find((e) => e.task === task && e.example_index === i)!;
    const log = join(dir, "shape.jsonl");
    Deno.writeTextFileSync(
      log,
      jsonl([
        { ...stateTarget(pick("nycc", 0)), model: "model-s", response_tokens: 7 },
        { ...stateTarget(pick("nycc", 1)), model: "model-s" },
        // a wrong letter: an answer of the target's form (a word there would be no answer)
        { task: "nycc", example_index: 2, response: "The answer is: (Z)", model: "model-s" },
        { ...stateTarget(pick("web_of_lies", 0)), model: "model-s", note: "kept" },
      ]) + '{"task": "nycc", broken\n',
    );
    const rowsFile = join(dir, "rows.jsonl");
    const r = await runlens([log, "--json", "--data", dataDir, "--rows", rowsFile]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, "1 run from 1 file: 5 rows in, 4 scored, 1 quarantined\n");
    const report = JSON.parse(r.stdout);
    // the envelope every command shares, then score's own keys
    assert.deepEqual(Object.keys(report), [
      "command",
      "runs",
      "quarantine",
      "errors",
      "files",
      "skipped",
      "warnings",
      "advice",
    ]);
    assert.equal(report.command, "score");
    assert.deepEqual(report.errors, []);
    assert.deepEqual(Object.keys(report.runs[0]), [
      "run",
      "model",
      "benchmark",
      "scorer",
      "format",
      "grouping",
      "fields",
      "data_versions",
      "rows_in",
      "rows_scored",
      "rows_quarantined",
      "empty_responses",
      "no_answer",
      "tasks",
      "aggregate",
      "stored_agreement",
    ]);
    assert.equal(report.runs[0].format, "canonical-jsonl");
    assert.equal(report.runs[0].empty_responses, 0);
    assert.deepEqual(Object.keys(report.runs[0].aggregate), [
      "harmonic_mean",
      "micro",
      "mini_micro",
      "coverage",
      "note",
      "ci",
    ]);
    assert.equal(typeof report.runs[0].aggregate.note, "string");
    report.runs[0].aggregate.note = "…";
    assert.equal(
      r.stdout.trim().replace(/"note":"[^"]*"/, '"note":"…"'),
      JSON.stringify({
        command: "score",
        runs: [{
          run: "model-s", // its records name no run but a model: the run (line 5 joins it)
          model: "model-s",
          benchmark: "bbeh",
          scorer: "bbeh-official",
          format: "canonical-jsonl",
          grouping: "field",
          fields: {}, // canonical field names: nothing detected or mapped
          data_versions: {},
          rows_in: 5,
          rows_scored: 4,
          rows_quarantined: 1,
          empty_responses: 0,
          no_answer: 0, // every response has the official answer prefix
          // 95% Wilson intervals of 2/3 and 1/1 (Newcombe 1998, method 3), by hand
          tasks: {
            nycc: {
              n: 3,
              correct: 2,
              no_answer: 0,
              accuracy: 66.67,
              ci_low: 20.77,
              ci_high: 93.85,
            },
            web_of_lies: {
              n: 1,
              correct: 1,
              no_answer: 0,
              accuracy: 100,
              ci_low: 20.65,
              ci_high: 100,
            },
          },
          aggregate: {
            harmonic_mean: null,
            micro: null,
            mini_micro: null,
            coverage: "partial",
            note: "…",
            ci: {}, // no aggregate on a partial run, so no interval
          },
          stored_agreement: { n: 0, agree: 0, disagree: 0, examples: [] },
        }],
        quarantine: [{
          file: log,
          line: 5,
          reason: report.quarantine[0].reason,
        }],
        errors: [],
        files: [{
          file: log,
          format: "canonical-jsonl",
          rows_in: 5,
          fields: null,
          fields_evidence: null,
          grouping: "file",
          default_run: "shape",
          task_hint: null,
        }],
        skipped: [],
        warnings: [],
        advice: { no_answer: [], stored: [], disagree: [] },
      }),
    );
    assert.match(report.quarantine[0].reason, /^malformed JSON \(/);

    const rows = Deno.readTextFileSync(rowsFile).trim().split("\n").map((l) => JSON.parse(l));
    assert.equal(rows.length, 4);
    for (
      const key of [
        "run",
        "model",
        "scorer",
        "task",
        "example_index",
        "source_file",
        "source_line",
        "question",
        "target",
        "response",
        "answer",
        "answer_found",
        "correct",
        "response_chars",
      ]
    ) assert.ok(key in rows[0], key);
    assert.deepEqual(rows.map((x) => [x.task, x.example_index, x.source_line, x.correct]), [
      ["nycc", 0, 1, true],
      ["nycc", 1, 2, true],
      ["nycc", 2, 3, false],
      ["web_of_lies", 0, 4, true],
    ]);
    assert.equal(rows[0].response_tokens, 7);
    assert.equal(rows[2].answer, "(z)");
    assert.equal(rows[2].response, "The answer is: (Z)");

    const unwritable = await runlens([log, "--data", dataDir, "--rows", join(dir, "no", "r")]);
    assert.equal(unwritable.code, 1);
    assert.match(unwritable.stderr, /^runlens score: .*no\/r: cannot write rows \(/);
  }));

dataTest(
  "score --json: a full run and a Mini-only run stating every target",
  (dataDir) =>
    withTempDir(async (dir) => {
      const all = examples(dataDir);
      Deno.writeTextFileSync(join(dir, "full.jsonl"), jsonl(all.map(stateTarget)));
      Deno.writeTextFileSync(
        join(dir, "mini.jsonl"),
        jsonl(all.filter((e) => e.in_mini).map(stateTarget)),
      );
      const rowsFile = join(dir, "rows.out");
      const r = await runlens([dir, "--json", "--data", dataDir, "--rows", rowsFile]);
      assert.equal(r.code, 0, r.stderr);
      const { runs, quarantine } = JSON.parse(r.stdout);
      assert.deepEqual(quarantine, []);
      assert.deepEqual(runs.map((x: { run: string }) => x.run), ["full", "mini"]);
      const [full, mini] = runs;

      // Data facts: 22 tasks x 200 + disambiguation_qa 120; the 11 linguini targets ending in
      // "." are scored wrong when stated verbatim (the scorer strips "." from the answer only).
      assert.deepEqual(
        [full.rows_in, full.rows_scored, full.rows_quarantined],
        [4520, 4520, 0],
      );
      assert.deepEqual(Object.keys(full.tasks), [...BBEH_TASK_NAMES].sort());
      for (const task of BBEH_TASK_NAMES) {
        const n = task === "disambiguation_qa" ? 120 : 200;
        const expected = task === "linguini"
          ? { n: 200, correct: 189, accuracy: 94.5 }
          : { n, correct: n, accuracy: 100 };
        assertTaskCell(full.tasks[task], expected, { rounded: true, message: task });
      }
      const harmonic = 23 / (22 / 101 + 1 / 95.5); // harmonic mean of accuracy + 1
      assert.deepEqual(full.aggregate.harmonic_mean, round2(harmonic));
      assert.equal(full.aggregate.harmonic_mean, 100.75);
      assert.equal(full.aggregate.micro, round2((4520 - 11) / 4520 * 100));
      assert.equal(full.aggregate.micro, 99.76);
      assert.equal(full.aggregate.mini_micro, 100); // none of the 11 is in Mini
      assert.equal(full.aggregate.coverage, "full");
      // every headline number of a full run carries its 95% interval and method
      const ci = full.aggregate.ci;
      assert.deepEqual(Object.keys(ci), ["harmonic_mean", "micro", "mini_micro"]);
      assert.match(ci.harmonic_mean.method, /^bootstrap \(basic, 2000 resamples stratified/);
      assert.ok(ci.harmonic_mean.ci_low <= 100.75 && 100.75 <= ci.harmonic_mean.ci_high);
      const p = (4520 - 11) / 4520; // one row per example: sqrt(p(1-p)/(n-1))
      assert.equal(ci.micro.se, round2(Math.sqrt(p * (1 - p) / 4519) * 100));
      assert.equal(ci.micro.method, "Wilson");
      // all 460 right: Wilson's [1 − z²/(n + z²), 1], not the zero-width [100, 100]
      const z2 = 1.959963984540054 ** 2;
      assert.deepEqual(
        [ci.mini_micro.ci_low, ci.mini_micro.ci_high],
        [round2(100 - (100 * z2) / (460 + z2)), 100],
      );

      assert.deepEqual([mini.rows_in, mini.rows_scored, mini.rows_quarantined], [460, 460, 0]);
      for (const task of BBEH_TASK_NAMES) {
        assertTaskCell(mini.tasks[task], { n: 20, correct: 20, accuracy: 100 }, {
          rounded: true,
          message: task,
        });
      }
      assert.deepEqual(
        [mini.aggregate.harmonic_mean, mini.aggregate.micro, mini.aggregate.mini_micro],
        [null, null, 100],
      );
      assert.equal(mini.aggregate.coverage, "mini");

      const rows = pl.scanJson(rowsFile).collectSync();
      assert.equal(rows.height, 4980);
      const wrong = rows.filter(pl.col("correct").not());
      assert.deepEqual(
        wrong.select("run", "task", "example_index").toRecords(),
        all.filter((e) => e.unmatchable_target).map((e) => ({
          run: "full",
          task: e.task,
          example_index: e.example_index,
        })),
      );
    }),
);

dataTest("score: the readable report", async (dataDir) => {
  const jsonlLog = join(LOGS, "mixed.jsonl");
  const csvLog = join(LOGS, "mixed.csv");
  const r = await runlens([jsonlLog, csvLog, "--data", dataDir]);
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, "");
  const out = r.stdout;
  // each file's records name one model: its run (lines that are no record join it)
  assert.ok(out.includes("run model-x  (bbeh, model model-x, scorer bbeh-official)\n"));
  assert.ok(out.includes("run model-y  (bbeh, model model-y, scorer bbeh-official)\n"));
  // mixed.jsonl:3 and mixed.csv:4 hold empty responses: scored (wrong) and counted, as rows
  // with no answer found too
  const nothing = "(1 empty response, 1 with no answer found: scored as wrong)";
  assert.ok(out.includes(`rows: 20 in, 4 scored, 16 quarantined ${nothing}  [${jsonlLog}]`));
  assert.ok(out.includes(`rows: 7 in, 3 scored, 4 quarantined ${nothing}  [${csvLog}]`));
  // mixed.jsonl line 15 says benchmark bbh: the run's BBH summary
  assert.ok(out.includes("run model-x  (bbh, model model-x, scorer bbh-release-cot)\n"));
  assert.ok(out.includes(`rows: 1 in, 0 scored, 1 quarantined  [${jsonlLog}]`));
  assert.match(out, /^ {2}task +n +correct +no answer +accuracy +95% CI$/m);
  // 95% Wilson intervals of 0/1, by hand: z²/(1 + z²) = 79.3%. linguini's 2 rows are two
  // epochs of one example: one example's worth of evidence, not 0/2's [0, 65.8]. The empty
  // response: no answer, flagged
  assert.match(out, /^ {2}linguini +2 +0 +0  +0\.00 +\[0\.0, 79\.3\]$/m);
  assert.match(out, /^ {2}temporal_sequence +1 +0 +1! +0\.00 +\[0\.0, 79\.3\]$/m);
  assert.ok(out.includes("coverage: partial\n  note: "));
  assert.ok(out.includes("\nquarantine (21 rows):\n"));
  assert.ok(out.includes(`\n  ${jsonlLog}:5: example_index 200 out of range for nycc (0–199)\n`));
  assert.ok(out.includes(`\n  ${csvLog}:3: missing response\n`));
  assert.ok(out.includes(
    // model-x has a BBH summary too (line 15): the advice names the benchmark
    "\nno answer found (2):\n  no answer found in 1 of 1 responses (run model-x, benchmark " +
      "bbeh, task temporal_sequence); no applicable scorer finds more answers of the target's form " +
      "(tried on 1): see the responses with --rows FILE\n",
  ));
  assert.ok(out.endsWith(
    "\n3 runs from 2 files: 28 rows in, 7 scored (2 with no answer found), 21 quarantined\n",
  ));
});

dataTest(
  "score: exit codes 0 clean, 1 some file failed (the others scored), --strict, --",
  (dataDir) =>
    withTempDir(async (dir) => {
      const good = { task: "nycc", example_index: 0, response: "The answer is: x", run: "r" };
      Deno.writeTextFileSync(join(dir, "good.jsonl"), jsonl([good, { ...good, example_index: 1 }]));
      const args = ["--json", "--data", dataDir, "--no-cache"];
      const clean = await runlens([join(dir, "good.jsonl"), ...args]);
      assert.equal(clean.code, 0, clean.stderr);
      assert.deepEqual(JSON.parse(clean.stdout).errors, []);

      // UTF-16 is no log runlens reads: listed in errors, exit 1, the good file still scored
      const bad = join(dir, "bad.jsonl");
      const utf16 = "\ufeff" + JSON.stringify(good) + "\n";
      Deno.writeFileSync(
        bad,
        new Uint8Array(new Uint16Array([...utf16].map((c) => c.charCodeAt(0))).buffer),
      );
      const partial = await runlens([dir, ...args]);
      assert.equal(partial.code, 1, partial.stderr);
      const report = JSON.parse(partial.stdout);
      assert.deepEqual(report.errors.map((e: { file: string }) => e.file), [bad]);
      assert.deepEqual(report.runs.map((r: { rows_scored: number }) => r.rows_scored), [2]);
      assert.ok(partial.stderr.includes(`runlens score: ${bad}: `), partial.stderr);

      // --strict: the first file that fails ends the command, no report
      const strict = await runlens([dir, ...args, "--strict"]);
      assert.equal(strict.code, 1);
      assert.equal(strict.stdout, "");
      assert.match(strict.stderr, /bad\.jsonl: .*--strict stops at the first file that fails/);

      // `--` ends the options: a file named like an option is a file
      Deno.renameSync(join(dir, "good.jsonl"), join(dir, "-x.jsonl"));
      Deno.removeSync(bad);
      const dashed = await runCli(["score", ...args, "--", "-x.jsonl"], { cwd: dir });
      assert.equal(dashed.code, 0, dashed.stderr);
      const runs = JSON.parse(dashed.stdout).runs;
      assert.deepEqual(runs.map((r: { rows_in: number }) => r.rows_in), [2]);
      const unknown = await runlens([...args, "-x.jsonl"]);
      assert.equal(unknown.code, 2);
      assert.match(unknown.stderr, /unknown option -x\.jsonl/);
    }),
);

dataTest(
  "score: a question whose line ends became CRLF is still found (no task given)",
  async (dataDir) => {
    const rows = loadBbehDataset(dataDir).filter(pl.col("task").eq(pl.lit("multistep_arithmetic")))
      .head(3).select("input", "target", "example_index").toRecords() as {
        input: string;
        target: string;
        example_index: number;
      }[];
    assert.ok(rows.every((r) => r.input.includes("\n")), "the questions span lines");
    const path = await Deno.makeTempFile({ suffix: ".jsonl" });
    try {
      Deno.writeTextFileSync(
        path,
        jsonl(rows.map((r) => ({
          input: r.input.replaceAll("\n", "\r\n"),
          response: `The answer is: ${r.target}`,
        }))),
      );
      const out = await runlens([path, "--data", dataDir, "--json", "--no-cache"]);
      const report = JSON.parse(out.stdout);
      assert.equal(report.runs[0].rows_scored, 3, out.stdout);
      assert.equal(report.runs[0].tasks.multistep_arithmetic.correct, 3);
    } finally {
      Deno.removeSync(path);
    }
  },
);

dataTest(
  "score: files of one name in two model folders are two runs, named by folder",
  async (dataDir) => {
    const ex = examples(dataDir).filter((e) => e.task === "nycc").slice(0, 3);
    await withTempDir(async (dir) => {
      for (const model of ["gpt4o", "claude"]) {
        Deno.mkdirSync(join(dir, model));
        Deno.writeTextFileSync(join(dir, model, "nycc.jsonl"), jsonl(ex.map(stateTarget)));
      }
      const out = await runlens([dir, "--data", dataDir, "--json", "--no-cache"]);
      const runs = JSON.parse(out.stdout).runs as { run: string; rows_scored: number }[];
      assert.deepEqual(runs.map((r) => [r.run, r.rows_scored]), [
        ["claude/nycc", 3],
        ["gpt4o/nycc", 3],
      ]);
    });
  },
);
