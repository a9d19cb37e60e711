/**
 * BBM loader: parsing rules and errors on hand-written text, the hand-written fixture release,
 * and the real release's counts (from the notes, an independent check).
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import pl from "nodejs-polars";
import { BBM_COLUMNS, loadBbmDataset, loadBbmFile } from "@runlens/benchmarks/bbm/dataset.ts";
import { BBM_TASKS, findBbmDir, parseBbmJsonl } from "@runlens/benchmarks/bbm/release.ts";
import { dataTest } from "./_data.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/bbm", import.meta.url));

const line = (o: Record<string, unknown>) => JSON.stringify(o);
const ok = { input: "q", steps: ["a", "b"], answer: "x", target: "x", mistake_index: null };

Deno.test("parseBbmJsonl: one trace per line, 0-based trace index, trailing newline allowed", () => {
  const text = [line(ok), line({ ...ok, answer: null, mistake_index: 1 })].join("\n") + "\n";
  const traces = parseBbmJsonl(text, "t.jsonl", "t");
  assert.equal(traces.length, 2);
  assert.deepEqual(traces.map((t) => t.trace_index), [0, 1]);
  assert.deepEqual(traces[1].steps, ["a", "b"]);
  assert.equal(traces[1].answer, null);
  assert.equal(traces[1].mistake_index, 1);
  assert.equal(traces[0].mistake_index, null);
  assert.equal(traces[0].task, "t");
});

Deno.test("parseBbmJsonl: no final newline and CRLF line ends", () => {
  const traces = parseBbmJsonl(`${line(ok)}\r\n${line(ok)}`, "t.jsonl", "t");
  assert.equal(traces.length, 2);
});

Deno.test("parseBbmJsonl: malformed lines are named by file and 1-based line", () => {
  const bad: [string, RegExp][] = [
    [`${line(ok)}\n{"input": "q", `, /t\.jsonl:2: not valid JSON/],
    [`${line(ok)}\n\n${line(ok)}`, /t\.jsonl:2: empty line/],
    [`${line(ok)}\n[1, 2]`, /t\.jsonl:2: expected a JSON object/],
    [line({ ...ok, steps: "a" }), /t\.jsonl:1: "steps" must be a list of strings/],
    [line({ ...ok, steps: ["a", 3] }), /t\.jsonl:1: "steps"/],
    [line({ ...ok, target: 5 }), /t\.jsonl:1: "target"/],
    [line({ ...ok, input: undefined }), /t\.jsonl:1: "input"/],
    [line({ ...ok, answer: 3 }), /t\.jsonl:1: "answer"/],
    [line({ ...ok, mistake_index: 1.5 }), /t\.jsonl:1: "mistake_index" must be/],
    [line({ ...ok, mistake_index: -1 }), /t\.jsonl:1: "mistake_index" must be/],
    [line({ ...ok, mistake_index: 2 }), /t\.jsonl:1: "mistake_index" 2 is past the last step/],
  ];
  for (const [text, re] of bad) {
    assert.throws(() => parseBbmJsonl(text, "t.jsonl", "t"), re, text);
  }
});

Deno.test("loadBbmDataset: fixture release, task from file name, schema and nulls", () => {
  const df = loadBbmDataset(FIXTURES);
  assert.deepEqual(df.columns, [...BBM_COLUMNS]);
  assert.equal(df.height, 6);
  assert.deepEqual(df.getColumn("task").toArray(), [
    "multistep_arithmetic",
    "multistep_arithmetic",
    "word_sorting",
    "word_sorting",
    "word_sorting",
    "word_sorting",
  ]);
  assert.deepEqual(df.getColumn("trace_index").toArray(), [0, 1, 0, 1, 2, 3]);
  assert.deepEqual(df.getColumn("n_steps").toArray(), [3, 3, 3, 3, 3, 4]);
  // nulls must survive (nodejs-polars turns them into 0 with an explicit Int32 dtype)
  assert.deepEqual(df.getColumn("mistake_index").toArray(), [null, 0, null, 1, null, 1]);
  assert.deepEqual(df.getColumn("answer").toArray()[4], null);
  assert.equal(String(df.getColumn("steps").dtype), String(pl.List(pl.String)));
  assert.deepEqual(df.getColumn("steps").toArray()[5], [
    "First letters: bee b, ant a, cat c.",
    "Order: ant < cat < bee.",
    "Fix: ant < bee < cat.",
    "The answer is ant bee cat",
  ]);
});

Deno.test("loadBbmFile / findBbmDir", () => {
  const dir = join(FIXTURES, "big-bench-mistake");
  assert.equal(findBbmDir(FIXTURES), dir);
  assert.equal(findBbmDir(dir), dir);
  assert.equal(loadBbmFile(join(dir, "multistep_arithmetic.jsonl")).height, 2);
  assert.throws(() => findBbmDir(join(FIXTURES, "runs", "nope")), /does not exist/);
  const empty = Deno.makeTempDirSync();
  try {
    assert.throws(() => findBbmDir(empty), /no BIG-Bench Mistake release/);
  } finally {
    Deno.removeSync(empty);
  }
});

Deno.test("loadBbmDataset: a malformed file is named with its line", () => {
  const dir = Deno.makeTempDirSync();
  try {
    Deno.writeTextFileSync(join(dir, "bad.jsonl"), `${line(ok)}\n${line(ok)}\n{broken\n`);
    assert.throws(() => loadBbmDataset(dir), /bad\.jsonl:3: not valid JSON/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

dataTest("BBM release: 2,186 traces in the five task files, per-task sizes and mistakes", (dir) => {
  const df = loadBbmDataset(dir);
  assert.equal(df.height, 2186);
  const per = df.groupBy("task").agg(
    pl.len().alias("n"),
    pl.col("mistake_index").isNotNull().cast(pl.Int32).sum().alias("m"),
  ).sort("task").toRecords();
  assert.deepEqual(per.map((r) => r.task), [...BBM_TASKS]);
  assert.deepEqual(per.map((r) => [r.n, r.m]), [
    [986, 650],
    [300, 294],
    [300, 238],
    [300, 260],
    [300, 266],
  ]);
});
