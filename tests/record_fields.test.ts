/**
 * The pipeline's extensions for benchmarks whose records carry their own fields (issue 23,
 * step 15), on a toy benchmark tied by id (tests/fixtures/toy_benchmark/id_scoring.ts): record
 * fields read from generic logs into `example_id`, `subset` and the `extra` JSON, parsed (a
 * parse error is the quarantine reason), rows tied by (task, example_id) with their own input
 * and target, null responses kept as rows, one `--map` parser for canonical and record
 * fields, the same rows through Workers and the cache; and the lm-eval reader's `doc.question`.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type pl from "nodejs-polars";
import { registerBenchmark } from "@runlens/benchmarks/registry.ts";
import { readBbhExamples } from "@runlens/benchmarks/bbh/examples.ts";
import { parseOptions } from "@runlens/core/command.ts";
import { LOAD_OPTIONS, loadOptionsOf } from "@runlens/cli/load_options.ts";
import { runEngine } from "@runlens/pipeline/engine.ts";
import { compactFrame } from "@runlens/pipeline/compact_frame.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { resolveLoadPlan, UnscoredRowsError } from "@runlens/pipeline/load_plan.ts";
import { parseColumnMap } from "@runlens/logs/mapped.ts";
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import type { LogRecord } from "@runlens/logs/record.ts";
import { lmEvalSource } from "@runlens/logs/sources/lm_eval.ts";
import { toyId } from "./fixtures/toy_benchmark/id_benchmark.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

registerBenchmark(toyId);

/** Lines of a JSONL file. */
const jsonl = (rows: readonly object[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** A log of the toy: no benchmark field (the `qid` key says it), one record per case. */
const TOY_LOG = [
  { model: "m", topic: "Algebra", qid: "a1", gold: "4", level: 2, kind: "easy", response: "4" },
  { model: "m", topic: "algebra", qid: "a2", gold: "9", level: "3", response: " 8 " },
  { model: "m", topic: "geometry", qid: "g1", gold: "90", level: 5, response: null }, // kept
  { model: "m", topic: "geometry", qid: "g2", gold: "1", level: 9, response: "1" }, // bad level
  { model: "m", topic: "algebra", qid: "a1", gold: "4", level: 2, response: "4" }, // repeat
  { model: "m", topic: "biology", qid: "b1", gold: "x", level: 1, response: "x" }, // no such task
  { model: "m", topic: "algebra", input: "3+4?", gold: "7", level: 1, response: "7" }, // no id
];

/** The rows of a load, as the columns the extensions fill. */
function rowsOf(rows: pl.DataFrame) {
  return rows.select(
    "task",
    "example_index",
    "example_id",
    "subset",
    "input",
    "target",
    "correct",
    "answer_found",
    "extra",
  ).toRecords();
}

const EXPECTED_ROWS = [
  {
    task: "algebra",
    example_index: null,
    example_id: "a1",
    subset: "easy",
    input: "",
    target: "4",
    correct: true,
    answer_found: true,
    extra: '{"level":2,"input":"","target":"4"}',
  },
  {
    task: "algebra",
    example_index: null,
    example_id: "a2",
    subset: null,
    input: "",
    target: "9",
    correct: false,
    answer_found: true,
    extra: '{"level":3,"input":"","target":"9"}',
  },
  {
    task: "geometry",
    example_index: null,
    example_id: "g1",
    subset: null,
    input: "",
    target: "90",
    correct: false,
    answer_found: false,
    extra: '{"level":5,"input":"","target":"90"}',
  },
];

const EXPECTED_QUARANTINE = [
  [4, "level 9 is not a whole number from 1 to 5"],
  [5, "duplicate of FILE:1 (same run, task, example_id and epoch)"],
  [6, 'unknown task "biology" (not a ToyId task)'],
  [7, "missing example_id (ToyId rows are tied by id)"],
];

Deno.test("record fields: a toy tied by id, scored with the scorer chosen for it", async () => {
  await withTempDir(async (dir) => {
    const log = join(dir, "toy.jsonl");
    Deno.writeTextFileSync(log, jsonl(TOY_LOG));
    // no released data set is read: the data directory does not exist
    const loaded = await loadRuns([log], "/no/such/data", { scorers: { toyid: "toyid-exact" } });
    assert.deepEqual(rowsOf(loaded.rows), EXPECTED_ROWS);
    assert.deepEqual(
      loaded.quarantine.map((q) => [q.line, q.reason.replace(log, "FILE")]),
      EXPECTED_QUARANTINE,
    );
    const [run] = loaded.runs;
    assert.deepEqual([run.benchmark, run.scorer, run.rows_in, run.rows_scored], [
      "toyid",
      "toyid-exact",
      7,
      3,
    ]);
    assert.equal(run.aggregate.accuracy, 100 / 3);
    // the same rows through two Workers scoring byte ranges of the file
    const plan = await resolveLoadPlan("/no/such/data", {
      scorers: { toyid: "toyid-exact" },
      workers: 2,
    });
    const engine = await runEngine([log], plan, { rangeBytes: 200 });
    const frame = compactFrame(engine.merged.rows, [log]);
    assert.deepEqual(frame.getColumn("example_id").toArray(), ["a1", "a2", "g1"]);
    assert.deepEqual(
      frame.getColumn("extra").toArray(),
      EXPECTED_ROWS.map((r) => r.extra),
    );
  });
});

Deno.test("record fields: the toy has no default scorer: its first row stops the load", async () => {
  await withTempDir(async (dir) => {
    const log = join(dir, "toy.jsonl");
    Deno.writeTextFileSync(log, jsonl(TOY_LOG));
    const need = /toyid rows need a scorer: --scorer toyid=NAME \(toyid-exact, stored, lenient\)$/;
    await assert.rejects(
      () => loadRuns([log], "/no/such/data"),
      (e: Error) => e instanceof UnscoredRowsError && need.test(e.message),
    );
    // named with --benchmark, before any file is read
    await assert.rejects(
      () => loadRuns(["/no/such/log.jsonl"], "/no/such/data", { benchmarks: ["toyid"] }),
      need,
    );
    // stored keeps the log's verdicts: none here, every row quarantined with that reason
    const stored = await loadRuns([log], "/no/such/data", { scorers: { toyid: "stored" } });
    assert.equal(stored.rows.height, 0);
  });
});

Deno.test("record fields: a CSV with other column names, through --map (one parser)", async () => {
  await withTempDir(async (dir) => {
    const csv = join(dir, "toy.csv");
    Deno.writeTextFileSync(
      csv,
      "problem,subject,answer_key,difficulty,output\n" +
        "a1,algebra,4,2,4\n" +
        "a2,algebra,9,3,8\n" +
        "g1,geometry,90,5,\n",
    );
    const args = [
      "--map",
      "qid=problem,task=subject", // a record field and a canonical field in one value
      "--map",
      "gold=answer_key,level=difficulty,kind==easy,response=output", // gold: target's other name
      "--scorer",
      "toyid=toyid-exact",
    ];
    const options = loadOptionsOf(parseOptions(args, LOAD_OPTIONS).values);
    assert.deepEqual(options.map?.map((m) => m.field), [
      "example_id",
      "task",
      "target",
      "level",
      "subset",
      "response",
    ]);
    const loaded = await loadRuns([csv], "/no/such/data", { ...options, cache: false });
    assert.deepEqual(
      rowsOf(loaded.rows).map((r) => [r.example_id, r.subset, r.target, r.correct, r.extra]),
      [
        ["a1", "easy", "4", true, '{"level":2,"input":"","target":"4"}'],
        ["a2", "easy", "9", false, '{"level":3,"input":"","target":"9"}'],
        // CSV: an empty cell is no response; the toy keeps it as a row
        ["g1", "easy", "90", false, '{"level":5,"input":"","target":"90"}'],
      ],
    );
    // a record field of a benchmark the load leaves out is a usage error before any read
    await assert.rejects(
      () =>
        loadRuns(["/no/such.csv"], "/no/such/data", {
          map: parseColumnMap("level=difficulty", toyId.recordFields),
          benchmarks: ["bbeh"],
        }),
      /^Error: --map level=difficulty: not a field of the benchmarks loaded \(bbeh\)$/,
    );
    assert.throws(
      () => parseColumnMap("answer=x", toyId.recordFields),
      /unknown field "answer" \(fields: run, .*, epoch, qid, topic, gold, kind, level\)/,
    );
    assert.throws(
      () => parseColumnMap("gold=a,target=b", toyId.recordFields),
      /gives "target" twice/,
    );
  });
});

dataTest("record fields: BBEH rows beside them are read and tied as before", async (data) => {
  await withTempDir(async (dir) => {
    Deno.writeTextFileSync(join(dir, "toy.jsonl"), jsonl(TOY_LOG.slice(0, 2)));
    // a key of the toy's name, with a value its parse refuses: not the toy's file (no qid)
    const bbeh = { run: "r", task: "boardgame_qa", example_index: 0, response: "x", level: "?" };
    Deno.writeTextFileSync(join(dir, "bbeh.jsonl"), jsonl([bbeh]));
    const loaded = await loadRuns([dir], data, { scorers: { toyid: "toyid-exact" }, cache: false });
    const rows = loaded.rows.sort("benchmark").select("benchmark", "example_index", "extra")
      .toRecords();
    assert.deepEqual(rows, [
      { benchmark: "bbeh", example_index: 0, extra: null },
      { benchmark: "toyid", example_index: null, extra: '{"level":2,"input":"","target":"4"}' },
      { benchmark: "toyid", example_index: null, extra: '{"level":3,"input":"","target":"9"}' },
    ]);
    // a file whose records carry the toy's qid is the toy's: a BBEH task there is no toy task
    Deno.writeTextFileSync(join(dir, "bbeh.jsonl"), jsonl([{ ...bbeh, level: 1, qid: "q" }]));
    const claimed = await loadRuns([join(dir, "bbeh.jsonl")], data, {
      scorers: { toyid: "toyid-exact" },
      cache: false,
    });
    assert.deepEqual(claimed.quarantine.map((q) => q.reason), [
      'unknown task "boardgame_qa" (not a ToyId task)',
    ]);
  });
});

dataTest("record fields: the cache keeps example_id, subset and extra", async (data) => {
  await withTempDir(async (dir) => {
    const log = join(dir, "toy.jsonl");
    Deno.writeTextFileSync(log, jsonl(TOY_LOG));
    const options = { scorers: { toyid: "toyid-exact" }, cache: join(dir, "cache") };
    const first = await loadRuns([log], data, options);
    const again = await loadRuns([log], data, options);
    assert.deepEqual([first.cache?.hit, again.cache?.hit], [false, true]);
    assert.deepEqual(rowsOf(again.rows), EXPECTED_ROWS);
    assert.equal(again.quarantine.length, EXPECTED_QUARANTINE.length);
  });
});

dataTest("lm-eval samples: doc.question is the input when doc.input is absent", async (data) => {
  await withTempDir(async (dir) => {
    const navigate = readBbhExamples(data).navigate;
    const folder = join(dir, "org__model");
    Deno.mkdirSync(folder);
    const path = join(folder, "samples_bbh_cot_fewshot_navigate_2025-01-01T00-00-00.jsonl");
    const line = (i: number, question: string) => ({
      doc_id: i,
      doc: { question, target: navigate[i].target },
      target: navigate[i].target,
      arguments: [["prompt", {}]],
      resps: [[`So the answer is ${navigate[i].target}.`]],
      filtered_resps: [navigate[i].target],
      filter: "get-answer",
      exact_match: 1,
    });
    Deno.writeTextFileSync(path, jsonl([line(0, navigate[0].input), line(1, "another question")]));
    const file = { id: 0, path, name: path, format: "lm-eval", gzip: false, defaultRun: "x" };
    const records: LogRecord[] = [];
    const size = Deno.statSync(path).size;
    const sink = { record: (r: LogRecord) => records.push(r), bad: () => {} };
    lmEvalSource.readRange(
      { ...file, size },
      0,
      size,
      sink,
      DEFAULT_LIMITS,
    );
    assert.deepEqual(records.map((r) => r.input), [navigate[0].input, "another question"]);
    // through the pipeline: the question agrees with the data set's input, or is set apart
    const loaded = await loadRuns([dir], data, { cache: false });
    assert.equal(loaded.rows.height, 1);
    assert.deepEqual(loaded.quarantine.map((q) => q.reason), [
      "input differs from the data set's input for navigate[1]",
    ]);
  });
});
