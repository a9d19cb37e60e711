/**
 * Mistake-finding run logs through the one pipeline: the fixture run loaded and scored under a
 * stated numbering, malformed lines quarantined, mixed BBM/BBEH classification, the `bbm`
 * command on the fixture release and run log (tests/fixtures/bbm), and `classifyMistakes` on a
 * logs directory. Expected outcomes by hand.
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pl from "nodejs-polars";
import { formatQuarantine } from "@runlens/logs/quarantine.ts";
import { classifyMistakeLog } from "@runlens/benchmarks/bbeh/mistake_log.ts";
import { LOG_COLUMNS } from "@runlens/benchmarks/bbm/mistake_finding.ts";
import { bbmFrame, loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
import { runlensMain } from "@runlens/cli/runlens.ts";
import { classifyMistakes } from "@runlens/analyses/mistake_finding.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { dataTest } from "./_data.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/bbm", import.meta.url));
const RUN = join(FIXTURES, "runs", "toy_run.jsonl");
const ONE_BASED = { scorers: { bbm: "bbm-one-based" } };

/** The fixture run's lines as a frame, as a hand-made log would give them (no pipeline). */
function runFrame(): pl.DataFrame {
  const lines = Deno.readTextFileSync(RUN).split("\n");
  return pl.DataFrame(
    lines.flatMap((l, i) => l.trim() === "" ? [] : [{ ...JSON.parse(l), source_line: i + 1 }])
      .map((r) => ({ ...r, model: r.model ?? "toy_run" })),
  );
}

Deno.test("the fixture run through the pipeline: trace_index ties rows, duplicates quarantined", async () => {
  const { rows, quarantine, runs } = await loadRuns([RUN], FIXTURES, ONE_BASED);
  // 9 lines, one blank; lines 8 and 9 answer a trace line 1 and line 3 answered already (the
  // line without a model joins the file's one model, m1): the pipeline keeps one answer per
  // run and trace, as for every benchmark
  assert.deepEqual(rows.getColumn("source_line").toArray(), [1, 2, 3, 4, 6, 7]);
  assert.deepEqual(quarantine.map((q) => [q.line, q.reason.split(" (")[0]]), [
    [8, `duplicate of ${RUN}:1`],
    [9, `duplicate of ${RUN}:3`],
  ]);
  assert.deepEqual(runs.map((r) => [r.run, r.benchmark, r.scorer, r.rows_scored]), [
    ["m1", "bbm", "bbm-one-based", 6],
  ]);
  // target: the 1-based first-mistake step or "No"; correct: the location named
  assert.deepEqual(rows.select("task", "example_index", "target", "correct").toRecords()[0], {
    task: "word_sorting",
    example_index: 1,
    target: "2",
    correct: true,
  });
});

Deno.test("malformed BBM lines are quarantined with a reason, the good ones kept", async () => {
  const dir = Deno.makeTempDirSync();
  try {
    const good = '{"task": "word_sorting", "trace_index": 0, "response": "No"}';
    const bad = [
      "{oops",
      '{"task": "nope", "trace_index": 0, "response": "No"}', // no BBM task
      '{"task": "word_sorting", "trace_index": 9, "response": "No"}', // past the last trace
      '{"task": "word_sorting", "trace_index": -1, "response": "No"}', // not an index
    ];
    for (const [i, line] of bad.entries()) {
      const file = join(dir, `f${i}.jsonl`);
      Deno.writeTextFileSync(file, `${good}\n${line}\n`);
      const { rows, quarantine } = await loadRuns([file], FIXTURES, ONE_BASED);
      assert.equal(rows.height, 1, line);
      assert.equal(quarantine.length, 1, line);
      assert.match(formatQuarantine(quarantine[0]), /f\d\.jsonl:2: \S/, line);
    }
    // an answer the model never gave is a row (BBM's nullResponse), scored as no answer
    const file = join(dir, "null.jsonl");
    Deno.writeTextFileSync(file, '{"task": "word_sorting", "trace_index": 1, "response": null}\n');
    const { rows } = await loadRuns([file], FIXTURES, ONE_BASED);
    assert.deepEqual(rows.select("correct", "answer_found").row(0), [false, false]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("classifyMistakeLog: BBM rows need a numbering; outcomes of the fixture run", () => {
  const runs = runFrame();
  const traces = loadBbmDataset(FIXTURES);
  assert.throws(() => classifyMistakeLog(runs, { traces }), /number/);
  const { classified, unmatched } = classifyMistakeLog(runs, { traces, numbering: "one-based" });
  assert.deepEqual(classified.columns.slice(0, LOG_COLUMNS.length), [...LOG_COLUMNS]);
  assert.equal(unmatched.height, 0);
  assert.deepEqual(classified.getColumn("outcome").toArray(), [
    "correct", // word_sorting 1, mistake at Thought 2, answer 2
    "early", // word_sorting 3, mistake at Thought 2, answer 1
    "late", // multistep_arithmetic 1, mistake at Thought 1, answer 3
    "correct", // word_sorting 0, clean, "No"
    "false_alarm", // word_sorting 2, clean, answer 2
    "no_answer", // multistep_arithmetic 0, "Hmm."
    "said_no_mistake", // word_sorting 1, "There is no mistake."
    "correct", // multistep_arithmetic 1, answer 1
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

/** Run `runlens bbm` and capture what it prints. */
async function runCli(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [], err: string[] = [];
  const log = console.log, error = console.error;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    const code = await runlensMain(["bbm", ...args]);
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
      ["multistep_arithmetic", 2, 1],
      ["word_sorting", 4, 2],
    ],
  );
  // lines 8 and 9 repeat a trace of the same run (model-less line 9 joins m1): quarantined as
  // duplicates by the pipeline, where the old reader classified them (m1 word_sorting had 5
  // answers with a said_no_mistake, toy_run multistep_arithmetic 1 correct)
  const cell = (model: string, task: string) =>
    j.outcomes.find((o: Record<string, unknown>) => o.model === model && o.task === task);
  const pick = (
    o: Record<string, number>,
  ) => [o.n, o.correct, o.early, o.late, o.said_no_mistake, o.false_alarm, o.no_answer];
  assert.deepEqual(pick(cell("m1", "word_sorting")), [4, 2, 1, 0, 0, 1, 0]);
  assert.deepEqual(pick(cell("m1", "multistep_arithmetic")), [2, 0, 0, 1, 0, 0, 1]);
  assert.equal(cell("toy_run", "multistep_arithmetic"), undefined);
  assert.deepEqual(j.quarantine.map((q: { line: number }) => q.line), [8, 9]);
  assert.equal(j.unmatched_bbeh_rows, 0);
});

Deno.test("bbm CLI: text output, usage errors, missing numbering, missing data", async () => {
  const text = await runCli(["--data", FIXTURES]);
  assert.equal(text.code, 0);
  assert.match(text.out, /word_sorting\s+4\s+2\s+2\s+1\s+1/);
  assert.equal((await runCli(["--bogus"])).code, 2);
  assert.equal((await runCli(["--numbering", "two-based"])).code, 2);
  const noNumbering = await runCli(["--data", FIXTURES, RUN]);
  assert.equal(noNumbering.code, 2);
  assert.match(noNumbering.err, /bbm rows need a scorer: pass --numbering one-based/);
  // --scorer states the numbering as well
  const scorer = await runCli([
    "--data",
    FIXTURES,
    "--scorer",
    "bbm=bbm-zero-based",
    RUN,
    "--json",
  ]);
  assert.equal(scorer.code, 0, scorer.err);
  const noData = await runCli(["--data", join(FIXTURES, "does-not-exist")]);
  assert.equal(noData.code, 1);
  assert.match(noData.err, /does not exist/);
});

dataTest(
  "classifyMistakes: BBM-indexed logs need a numbering, BBEH logs go through the map",
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

      const hint = { scorerHints: { bbm: "set RUNLENS_BBM_NUMBERING" } };
      const without = await classifyMistakes([logs], dir, hint);
      // the 10 BBM answers quarantined with one warning; the BBEH ones classified all the same
      assert.deepEqual(without.notScored, [
        "10 bbm rows not scored: bbm rows need a scorer: set RUNLENS_BBM_NUMBERING",
      ]);
      assert.deepEqual([...new Set(without.classified!.getColumn("source").toArray())], ["bbeh"]);
      const withN = await classifyMistakes([logs], dir, ONE_BASED);
      assert.deepEqual(withN.notScored, []);
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
      // the same lines in one file: refused, never all tied to BBM's traces (a file's
      // benchmark is decided once, and trace_index would make every line a BBM one)
      const mixed = join(logs, "mixed", "both.jsonl");
      Deno.mkdirSync(join(logs, "mixed"));
      Deno.writeTextFileSync(mixed, [...bbmLines, ...bbehLines].join("\n") + "\n");
      const one = await classifyMistakes([mixed], dir, ONE_BASED);
      assert.equal(one.classified, null);
      assert.deepEqual(one.errors.map((e) => e.file), [mixed]);
      assert.match(one.errors[0].reason, /carry both trace_index .* and example_index/);
    } finally {
      Deno.removeSync(logs, { recursive: true });
    }
  },
);
