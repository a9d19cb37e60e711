/**
 * The report names no benchmark (issue 23, step 13): what a benchmark adds to it comes from its
 * `report` hooks (sections, failureLabel, subsetLabels, formatSensitivity). A toy benchmark
 * registered here gets all four with no edit to lib/report/; beside BBEH, both leaderboards
 * share the page's one leaderboard section. The example browser's "no final answer" is the
 * scorer's `answer_found`, counted as the run summaries count it.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { registerBenchmark } from "@runlens/benchmarks/registry.ts";
import type { Benchmark } from "@runlens/benchmarks/types.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { buildReport } from "@runlens/report/build.ts";
import { reportExamples } from "@runlens/report/examples.ts";
import { tableOf } from "@runlens/render/table_of.ts";
import { toy } from "./fixtures/toy_benchmark/benchmark.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

/** The heights of the row frames the toy's `sections` hook was given. */
const sectionInputs: number[] = [];

const reported: Benchmark = {
  ...toy,
  report: {
    sections: (rows) => {
      sectionInputs.push(rows.height);
      const solved = rows.groupBy("run").agg(pl.col("correct").sum().alias("correct"));
      return Promise.resolve([{
        id: "toy-board",
        title: "Toy board",
        intro: "Toy runs.",
        items: [tableOf(solved, { id: "toy-board-table", title: "Toy: right answers" })],
      }]);
    },
    // a question mark in the response: the model asked back instead of answering
    failureLabel: () =>
      pl.when(pl.col("response").str.contains("?", true)).then(pl.lit("asked back"))
        .otherwise(pl.lit(null).cast(pl.Utf8)),
    subsetLabels: () =>
      pl.DataFrame({
        task: ["add", "add", "add", "mul", "mul"],
        example_index: pl.Series("example_index", [0, 1, 2, 0, 1], pl.Int32),
        subset: ["small", "small", "large", "small", "large"],
      }),
    formatSensitivity: true,
  },
};
registerBenchmark(reported);

/** A toy run: right, a cue only lenient reads, asked back, blank, right. */
function toyLog(dir: string): string {
  const lines = [
    { task: "add", example_index: 0, response: "2" },
    { task: "add", example_index: 1, response: "Let me add.\nAnswer: 4" },
    { task: "add", example_index: 2, response: "6?" },
    { task: "mul", example_index: 0, response: "  " },
    { task: "mul", example_index: 1, response: "16" },
  ].map((l) => JSON.stringify({ benchmark: "toy", model: "m", ...l }));
  const log = join(dir, "toy_run.jsonl");
  Deno.writeTextFileSync(log, lines.join("\n") + "\n");
  return log;
}

Deno.test("a registered benchmark's report hooks: its section, failure class, subsets, format rules", async () => {
  await withTempDir(async (dir) => {
    const dataDir = join(dir, "no-data"); // the toy needs no data set
    const loaded = await loadRuns([toyLog(dir)], dataDir);
    assert.equal(loaded.rows.height, 5);
    sectionInputs.length = 0;
    const doc = await buildReport(loaded, { dataDir, command: "test" });
    assert.deepEqual(sectionInputs, [5]);
    assert.equal(doc.leaderboard?.title, "Toy board");
    assert.deepEqual(doc.leaderboard?.items.map((i) => i.id), ["toy-board-table"]);
    const rows = doc.examples.rows.map((r) => [r.task, r.example_index, r.subset, r.failure]);
    assert.deepEqual(rows, [
      ["add", 0, "small", null],
      ["add", 1, "small", "wrong answer"], // toy-exact found "Let me add.\nAnswer: 4"
      ["add", 2, "large", "asked back"],
      ["mul", 0, "small", "no final answer"], // blank: toy-exact found nothing
      ["mul", 1, "large", null],
    ]);
    const format = doc.analyses.find((s) => s.title === "Toy: answer-format sensitivity");
    assert.ok(format, doc.analyses.map((s) => s.title).join(", "));
    // a figure of the tasks where rules disagree, the per-run summary, then the full table
    assert.deepEqual(format.items.map((i) => i.id), [
      "toy-format-figure",
      "toy-format-overall",
      "toy-format-sensitivity",
    ]);
    const table = format.items[2];
    // per task: the toy's own rule, then lenient, which reads "Answer: 4" and the 6 of "6?"
    const cells = table.kind === "table"
      ? table.rows.map((r) => [r[1], r[2], r[4]]) // task, scorer, correct
      : [];
    assert.deepEqual(cells, [
      ["add", "toy-exact", 1],
      ["add", "lenient", 3],
      ["mul", "toy-exact", 1],
      ["mul", "lenient", 1],
    ]);
    // over both tasks: toy-exact 2 of 5, lenient 4 of 5, 40 points above the official rule
    const overall = format.items[1];
    assert.deepEqual(
      overall.kind === "table" ? overall.rows.map((r) => r.slice(1, 7)) : [],
      [["toy-exact", "official", 5, 2, 40, 0], ["lenient", "", 5, 4, 80, 40]],
    );
  });
});

dataTest("beside BBEH, both benchmarks' sections make the one leaderboard", async (dataDir) => {
  await withTempDir(async (dir) => {
    const loaded = await loadRuns([toyLog(dir), "tests/fixtures/logs/tree"], dataDir);
    const bbehRows = loaded.rows.filter(pl.col("benchmark").eq(pl.lit("bbeh"))).height;
    assert.ok(bbehRows > 0);
    sectionInputs.length = 0;
    const doc = await buildReport(loaded, { dataDir, command: "test" });
    assert.deepEqual(sectionInputs, [5], "the toy's hook sees its own rows only");
    assert.equal(doc.leaderboard?.title, "Leaderboards");
    assert.deepEqual(doc.leaderboard?.items.map((i) => i.id), [
      "bbeh-leaderboard",
      "bbeh-leaderboard-figure",
      "toy-board-table",
    ]);
  });
});

Deno.test("example browser: a subset the row carries wins over the benchmark's label", async () => {
  await withTempDir(async (dir) => {
    const dataDir = join(dir, "no-data");
    const loaded = await loadRuns([toyLog(dir)], dataDir);
    const own = loaded.rows.withColumns(
      pl.when(pl.col("example_index").eq(0)).then(pl.lit("from the log"))
        .otherwise(pl.col("subset")).alias("subset"),
    );
    const rows = reportExamples({ ...loaded, rows: own }, dataDir).rows;
    assert.deepEqual(rows.map((r) => r.subset), [
      "from the log",
      "small",
      "large",
      "from the log",
      "large",
    ]);
  });
});

dataTest("example browser: BBEH examples carry their subset label", async (dataDir) => {
  await withTempDir(async (dir) => {
    const log = join(dir, "zebra.csv");
    Deno.writeTextFileSync(
      log,
      "run,model,task,example_index,response\n" +
        [0, 1, 2].map((i) => `r,m,zebra_puzzles,${i},The answer is: 1`).join("\n") + "\n",
    );
    const loaded = await loadRuns([log], dataDir);
    // the grid sizes of the first three zebra puzzles of the release
    assert.deepEqual(reportExamples(loaded, dataDir).rows.map((r) => r.subset), [
      "7x7",
      "7x7",
      "5x5",
    ]);
  });
});

dataTest(
  "example browser: no final answer = answer_found false, as the summaries count",
  async (dataDir) => {
    const loaded = await loadRuns([join(dataDir, "bbh", "code-davinci-002-outputs")], dataDir);
    const failures = new Map<string, number>();
    for (const r of reportExamples(loaded, dataDir).rows) {
      if (r.failure === "no final answer") failures.set(r.run, (failures.get(r.run) ?? 0) + 1);
    }
    // pinned: the CoT run's 353 responses the rule cannot score (234 without "So the answer
    // is " and not one line; 119 whose answer has not the target's form: "(A) and (B)", "empty"
    // for brackets, …), and the direct run's 6 (2 with an empty first line, 4 not of the
    // target's form: an option list for a word list, word lists far longer than the target)
    assert.deepEqual(loaded.runs.map((r) => [r.run, r.no_answer]), [
      ["code-davinci-002-cot", 353],
      ["code-davinci-002-direct", 6],
    ]);
    assert.deepEqual([...failures].sort(), loaded.runs.map((r) => [r.run, r.no_answer]));
  },
);
