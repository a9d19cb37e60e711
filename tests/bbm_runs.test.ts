/**
 * Mistake-finding run logs: loading, errors, mixed BBM/BBEH classification, and the `bbm`
 * CLI on the fixture release and run log (tests/fixtures/bbm). Expected outcomes by hand.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pl from "nodejs-polars";
import { loadMistakeRuns, parseMistakeRuns } from "@runlens/benchmarks/bbm/runs.ts";
import { formatQuarantine } from "@runlens/logs/quarantine.ts";
import { classifyMistakeLog, LOG_COLUMNS } from "@runlens/benchmarks/bbeh/mistake_log.ts";
import { bbmFrame, loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
import { bbmMain } from "@runlens/cli/bbm.ts";
import { classifyLogsDir, findMistakeRunLogs } from "@runlens/pipeline/mistake_logs.ts";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { dataTest } from "./_data.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/bbm", import.meta.url));
const RUN = join(FIXTURES, "runs", "toy_run.jsonl");

Deno.test("parseMistakeRuns: defaults for run/model, blank lines skipped, line numbers kept", () => {
  const { rows, quarantine } = parseMistakeRuns(Deno.readTextFileSync(RUN), RUN);
  assert.deepEqual(quarantine, []);
  assert.equal(rows.length, 8);
  assert.deepEqual(rows.map((r) => r.source_line), [1, 2, 3, 4, 6, 7, 8, 9]);
  assert.equal(rows[0].model, "m1");
  assert.equal(rows[0].run, "toy_run");
  assert.equal(rows[7].model, "toy_run"); // no model field: the run id
  assert.equal(rows[7].example_index, null);
});

Deno.test("loadMistakeRuns: a directory is searched for .jsonl files", () => {
  const runs = loadMistakeRuns([join(FIXTURES, "runs")]).rows;
  assert.equal(runs.height, 8);
  assert.deepEqual(runs.getColumn("source_line").toArray().slice(0, 2), [1, 2]);
  assert.throws(
    () => loadMistakeRuns([join(FIXTURES, "runs", "nope.jsonl")]),
    /nope\.jsonl: cannot read/,
  );
});

Deno.test("parseMistakeRuns: malformed lines quarantined, named by file and line", () => {
  const bad: [string, RegExp][] = [
    ['{"task": "t", "trace_index": 0, "response": "No"}\n{oops', /f\.jsonl:2: not valid JSON/],
    ['{"trace_index": 0, "response": "No"}', /f\.jsonl:1: "task"/],
    ['{"task": "t", "response": "No"}', /f\.jsonl:1: needs "trace_index".*"example_index"/],
    ['{"task": "t", "trace_index": -1, "response": "No"}', /f\.jsonl:1: "trace_index"/],
    ['{"task": "t", "example_index": 1.5, "response": "No"}', /f\.jsonl:1: "example_index"/],
    ['{"task": "t", "trace_index": 0}', /f\.jsonl:1: "response"/],
    ['{"task": "t", "trace_index": 0, "response": 3}', /f\.jsonl:1: "response"/],
    ['{"task": "t", "trace_index": 0, "response": "No", "model": 1}', /f\.jsonl:1: "model"/],
  ];
  for (const [text, re] of bad) {
    // the reader quarantines a bad line (never throws); the good lines are kept
    const { rows, quarantine } = parseMistakeRuns(text, "f.jsonl");
    assert.equal(quarantine.length, 1, text);
    assert.match(formatQuarantine(quarantine[0]), re, text);
    assert.equal(rows.length + quarantine.length, text.split("\n").length, text);
  }
});

Deno.test("classifyMistakeLog: BBM rows need a numbering; outcomes of the fixture run", () => {
  const runs = loadMistakeRuns([RUN]).rows;
  const traces = loadBbmDataset(FIXTURES);
  assert.throws(() => classifyMistakeLog(runs, { traces }), /number/);
  const { classified, unmatched } = classifyMistakeLog(runs, { traces, numbering: "one-based" });
  assert.deepEqual(classified.columns.slice(0, LOG_COLUMNS.length), [...LOG_COLUMNS]);
  assert.equal(unmatched.height, 0);
  assert.deepEqual(classified.getColumn("outcome").toArray(), [
    "correct", // toy_sorting 1, mistake at Thought 2, answer 2
    "early", // toy_sorting 3, mistake at Thought 2, answer 1
    "late", // toy_arith 1, mistake at Thought 1, answer 3
    "correct", // toy_sorting 0, clean, "No"
    "false_alarm", // toy_sorting 2, clean, answer 2
    "no_answer", // toy_arith 0, "Hmm."
    "said_no_mistake", // toy_sorting 1, "There is no mistake."
    "correct", // toy_arith 1, answer 1
  ]);
  assert.deepEqual(classified.getColumn("source").toArray(), Array(8).fill("bbm"));
  assert.deepEqual(classified.getColumn("source_line").toArray(), [1, 2, 3, 4, 6, 7, 8, 9]);
});

Deno.test("classifyMistakeLog: BBEH rows go through the map, unmapped ones are set apart", () => {
  const traces = bbmFrame([
    {
      task: "dyck_languages",
      trace_index: 4,
      input: "",
      steps: ["a", "b", "c"],
      answer: null,
      target: "",
      mistake_index: 2,
    },
  ]);
  const map = pl.DataFrame({
    bbeh_task: ["dyck_languages"],
    example_index: pl.Series("example_index", [10]).cast(pl.Int32),
    bbm_task: ["dyck_languages"],
    trace_index: pl.Series("trace_index", [4]).cast(pl.Int32),
    mistake_index: pl.Series("mistake_index", [2]).cast(pl.Int32),
  });
  const runs = pl.DataFrame({
    model: ["m", "m", "m"],
    task: ["dyck_languages", "dyck_languages", "word_sorting"],
    example_index: [10, 10, 150],
    response: ["The answer is: 3", "The answer is: 2", "The answer is: a b"],
  });
  const { classified, unmatched } = classifyMistakeLog(runs, { traces, map: () => map });
  assert.deepEqual(classified.getColumn("outcome").toArray(), ["correct", "early"]);
  assert.deepEqual(classified.getColumn("source").toArray(), ["bbeh", "bbeh"]);
  assert.deepEqual(classified.getColumn("trace_index").toArray(), [4, 4]);
  assert.equal(unmatched.height, 1);
  assert.equal(unmatched.getColumn("example_index").toArray()[0], 150);
});

/** Run bbmMain and capture what it prints. */
async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [], err: string[] = [];
  const log = console.log, error = console.error;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    const code = await bbmMain(args);
    return { code, out: out.join("\n"), err: err.join("\n") };
  } finally {
    console.log = log;
    console.error = error;
  }
}

Deno.test("bbm CLI --json: summary and per-model outcomes of the fixture run", async () => {
  const r = await runCli(["--data", FIXTURES, "--json", "--numbering", "one-based", RUN]);
  assert.equal(r.code, 0, r.err);
  const j = JSON.parse(r.out);
  assert.deepEqual(
    j.summary.map((s: Record<string, unknown>) => [s.task, s.traces, s.with_mistake]),
    [
      ["toy_arith", 2, 1],
      ["toy_sorting", 4, 2],
    ],
  );
  const cell = (model: string, task: string) =>
    j.outcomes.find((o: Record<string, unknown>) => o.model === model && o.task === task);
  const pick = (
    o: Record<string, number>,
  ) => [o.n, o.correct, o.early, o.late, o.said_no_mistake, o.false_alarm, o.no_answer];
  assert.deepEqual(pick(cell("m1", "toy_sorting")), [5, 2, 1, 0, 1, 1, 0]);
  assert.deepEqual(pick(cell("m1", "toy_arith")), [2, 0, 0, 1, 0, 0, 1]);
  assert.deepEqual(pick(cell("toy_run", "toy_arith")), [1, 1, 0, 0, 0, 0, 0]);
  assert.equal(j.unmatched_bbeh_rows, 0);
});

Deno.test("bbm CLI: text output, usage errors, missing numbering, missing data", async () => {
  const text = await runCli(["--data", FIXTURES]);
  assert.equal(text.code, 0);
  assert.match(text.out, /toy_sorting\s+4\s+2\s+2\s+1\s+1/);
  assert.equal((await runCli(["--bogus"])).code, 2);
  assert.equal((await runCli(["--numbering", "two-based"])).code, 2);
  const noNumbering = await runCli(["--data", FIXTURES, RUN]);
  assert.equal(noNumbering.code, 2);
  assert.match(noNumbering.err, /--numbering/);
  const noData = await runCli(["--data", join(FIXTURES, "does-not-exist")]);
  assert.equal(noData.code, 1);
  assert.match(noData.err, /does not exist/);
});

dataTest(
  "classifyLogsDir: BBM-indexed logs need a numbering, BBEH logs go through the map",
  async (dir) => {
    const logs = Deno.makeTempDirSync();
    try {
      // BBM-indexed: the first 10 word_sorting traces answered with their own label (one-based)
      const traces = loadBbmDataset(dir).filter(pl.col("task").eq(pl.lit("word_sorting"))).head(10);
      const bbmLines =
        (traces.toRecords() as { trace_index: number; mistake_index: number | null }[])
          .map((t) =>
            JSON.stringify({
              model: "self",
              task: "word_sorting",
              trace_index: t.trace_index,
              response: `The answer is: ${t.mistake_index === null ? "No" : t.mistake_index + 1}`,
            })
          );
      Deno.writeTextFileSync(join(logs, "bbm_self.jsonl"), bbmLines.join("\n") + "\n");
      // BBEH canonical log: dyck 0..4 answered with the target, word_sorting 0..3 with "No"
      const bbeh = loadBbehDataset(dir);
      const target = (task: string, i: number) =>
        bbeh.filter(pl.col("task").eq(pl.lit(task)).and(pl.col("example_index").eq(i)))
          .getColumn("target").toArray()[0] as string;
      const bbehLines = [
        ...[0, 1, 2, 3, 4].map((i) => ({
          model: "oracle",
          task: "dyck_languages",
          example_index: i,
          response: `The answer is: ${target("dyck_languages", i)}`,
        })),
        ...[0, 1, 2, 3].map((i) => ({
          model: "oracle",
          task: "word_sorting",
          example_index: i,
          response: "The answer is: No",
        })),
      ].map((r) => JSON.stringify(r));
      Deno.writeTextFileSync(join(logs, "bbeh_oracle.jsonl"), bbehLines.join("\n") + "\n");

      assert.deepEqual(findMistakeRunLogs([logs]), [join(logs, "bbm_self.jsonl")]);
      const without = await classifyLogsDir(logs, dir, undefined);
      assert.equal(without.skipped.length, 1);
      assert.match(without.skipped[0], /RUNLENS_BBM_NUMBERING/);
      const withN = await classifyLogsDir(logs, dir, "one-based");
      assert.deepEqual(withN.skipped, []);
      const c = withN.classified!;
      const self = c.filter(pl.col("model").eq(pl.lit("self")));
      assert.equal(self.height, 10);
      assert.equal(self.filter(pl.col("outcome").eq(pl.lit("correct"))).height, 10);
      const oracle = c.filter(pl.col("model").eq(pl.lit("oracle")));
      // word_sorting items 0..3: which are first-mistake items, and their targets, come from BBEH
      const wsItems = [0, 1, 2, 3].filter((i) =>
        (bbeh.filter(pl.col("task").eq(pl.lit("word_sorting")).and(pl.col("example_index").eq(i)))
          .getColumn("input").toArray()[0] as string).includes(
            "Is there a mistake in this sequence",
          )
      );
      assert.equal(oracle.height, 5 + wsItems.length);
      const dyck = oracle.filter(pl.col("bbeh_task").eq(pl.lit("dyck_languages")));
      assert.equal(dyck.filter(pl.col("outcome").eq(pl.lit("correct"))).height, 5);
      const ws = oracle.filter(pl.col("bbeh_task").eq(pl.lit("word_sorting")));
      const noTargets = wsItems.filter((i) => target("word_sorting", i) === "No").length;
      assert.equal(ws.filter(pl.col("outcome").eq(pl.lit("correct"))).height, noTargets);
      assert.equal(
        ws.filter(pl.col("outcome").eq(pl.lit("said_no_mistake"))).height,
        wsItems.length - noTargets,
      );
    } finally {
      Deno.removeSync(logs, { recursive: true });
    }
  },
);
