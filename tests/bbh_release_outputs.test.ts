/**
 * The BBH release's model outputs as rows: checks against the data set and quarantine, on a
 * hand-written fixture (tests/fixtures/bbh) and on the real release (data-backed).
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import pl from "nodejs-polars";
import {
  BBH_RELEASE_RUNS,
  loadBbhReleaseOutputs,
} from "@runlens/benchmarks/bbh/release_outputs.ts";
import {
  readBbhPublishedAccuracies,
  readEvalMetrics,
  releaseAccuracy,
} from "@runlens/benchmarks/bbh/release_metrics.ts";
import { formatQuarantine } from "@runlens/logs/quarantine.ts";
import { ROW_COLUMNS } from "@runlens/core/schema.ts";
import { dataTest } from "./_data.ts";

const FIXTURE = fileURLToPath(new URL("./fixtures/bbh", import.meta.url));
const TASKS = ["boolean_expressions", "object_counting"];

Deno.test("release outputs (fixture): rows, scoring, quarantine with file:line:reason", () => {
  const { rows, quarantine } = loadBbhReleaseOutputs(FIXTURE, { tasks: TASKS });
  assert.deepEqual(rows.columns, [...ROW_COLUMNS]);
  const lines = quarantine.map((q) => `${q.run} ${formatQuarantine(q.entry).replace(FIXTURE, "")}`);
  const cot = "/bbh/code-davinci-002-outputs/code-davinci-002-cot/boolean_expressions";
  const direct = "/bbh/code-davinci-002-outputs/code-davinci-002-direct/boolean_expressions";
  const stem = "_few_shot_template_0-255000.json";
  assert.deepEqual(lines, [
    `code-davinci-002-cot ${cot}${stem}:2: target "False" differs from the data set's "True"`,
    `code-davinci-002-cot ${cot}${stem}:3: prompt does not end with the data-set question`,
    `code-davinci-002-cot ${cot}${stem}:4: record lacks a string "input" or "prediction"`,
    `code-davinci-002-cot ${cot}${stem}:5: no data-set example at this position`,
    `code-davinci-002-direct ${direct}${stem}:3: prompt does not end with the answer cue "\\nA:"`,
  ]);
  const got = rows.select(
    "run",
    "task",
    "example_index",
    "source_line",
    "extracted",
    "correct",
    "scorer",
  )
    .toRecords();
  assert.deepEqual(got, [
    row("code-davinci-002-cot", "boolean_expressions", 0, "False", true, "bbh-release-cot"),
    row("code-davinci-002-cot", "object_counting", 0, "4", true, "bbh-release-cot"),
    row("code-davinci-002-cot", "object_counting", 1, "2", true, "bbh-release-cot"),
    row("code-davinci-002-direct", "boolean_expressions", 0, "False", true, "bbh-release-direct"),
    row("code-davinci-002-direct", "boolean_expressions", 1, "True", true, "bbh-release-direct"),
    row("code-davinci-002-direct", "boolean_expressions", 3, "False", false, "bbh-release-direct"),
    row("code-davinci-002-direct", "object_counting", 0, "3", false, "bbh-release-direct"),
    row("code-davinci-002-direct", "object_counting", 1, "2", true, "bbh-release-direct"),
  ]);
  const first = rows.row(0);
  assert.equal(first[rows.columns.indexOf("model")], "code-davinci-002");
  assert.equal(first[rows.columns.indexOf("input")], "not ( True ) and ( True ) is");
  assert.equal(first[rows.columns.indexOf("epoch")], 1);
  assert.equal(first[rows.columns.indexOf("input_chars")], 28);
});

function row(
  run: string,
  task: string,
  i: number,
  extracted: string,
  correct: boolean,
  scorer: string,
) {
  return { run, task, example_index: i, source_line: i + 1, extracted, correct, scorer };
}

Deno.test("release outputs (fixture): a truncated data-set question is kept and noted", () => {
  const { rows } = loadBbhReleaseOutputs(FIXTURE, { tasks: ["object_counting"] });
  const noted = rows.filter(pl.col("extra").isNotNull());
  assert.equal(noted.height, 2); // both runs, example 1
  assert.deepEqual(noted.getColumn("input").toArray(), ["I have a cat, a", "I have a cat, a"]);
  assert.deepEqual(JSON.parse(noted.getColumn("extra").get(0)), {
    prompt_question: "I have a cat, a dog, and a goldfish. How many mammals do I have?",
  });
});

Deno.test("published metrics (fixture): read as written; the release formula reproduces them", () => {
  const pub = readBbhPublishedAccuracies(FIXTURE, { tasks: TASKS });
  assert.deepEqual(pub.map((p) => [p.run, p.task, p.accuracy, p.accuracyWithCalc]), [
    ["code-davinci-002-cot", "boolean_expressions", 100, 100],
    ["code-davinci-002-cot", "object_counting", 100, 100],
    ["code-davinci-002-direct", "boolean_expressions", 66.66666666666666, 66.66666666666666],
    ["code-davinci-002-direct", "object_counting", 50, 100],
  ]);
  assert.equal(releaseAccuracy(2, 3), 66.66666666666666);
  assert.equal(releaseAccuracy(232, 250), 92.80000000000001);
});

Deno.test("release outputs: clear errors", () => {
  assert.throws(() => loadBbhReleaseOutputs("/nonexistent/runlens"), /does not exist/);
  const empty = Deno.makeTempDirSync();
  try {
    assert.throws(() => loadBbhReleaseOutputs(empty), /holds no BBH model outputs/);
    assert.throws(
      () => readBbhPublishedAccuracies(FIXTURE),
      /metrics incomplete: .*causal_judgement/,
    );
    const bad = `${empty}/bad.jsonl`;
    Deno.writeTextFileSync(bad, '{"accuracy": 1}\n{"accuracy": 2}\n');
    assert.throws(() => readEvalMetrics(bad), /expected one JSON line, found 2/);
    Deno.writeTextFileSync(bad, '{"acc": 1}');
    assert.throws(() => readEvalMetrics(bad), /no numeric "accuracy"/);
  } finally {
    Deno.removeSync(empty, { recursive: true });
  }
  assert.throws(() => loadBbhReleaseOutputs(FIXTURE), /BBH release incomplete: .*causal_judgement/);
});

dataTest("release outputs (data): 2 × 6,511 rows, nothing quarantined, snarks 88 noted", (dir) => {
  const { rows, quarantine } = loadBbhReleaseOutputs(dir);
  assert.equal(rows.height, 2 * 6511);
  assert.deepEqual(quarantine, []);
  for (const r of BBH_RELEASE_RUNS) {
    assert.equal(rows.filter(pl.col("run").eq(pl.lit(r.run))).height, 6511);
  }
  const noted = rows.filter(pl.col("extra").isNotNull()).select("run", "task", "example_index");
  assert.deepEqual(noted.toRecords(), [
    { run: "code-davinci-002-cot", task: "snarks", example_index: 88 },
    { run: "code-davinci-002-direct", task: "snarks", example_index: 88 },
  ]);
  assert.equal(rows.getColumn("correct").nullCount(), 0);
});
