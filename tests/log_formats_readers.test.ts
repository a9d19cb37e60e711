/**
 * Tests of the OpenCompass, mcpbr and openai/evals sources (`logs/sources/opencompass.ts`,
 * `mcpbr.ts`, `openai_evals.ts`), records checked by `check.ts`, on fixtures written from the
 * documented formats
 * (tests/fixtures/logs/formats/, ../shared/notes/log-formats.md): rows, every quarantine
 * reason, and the real openai/evals record log in `<data>/logs/inspect` (its records counted
 * here independently). Fields outside the canonical ones (prompts, event types) are not kept.
 * @module
 */
import assert from "node:assert/strict";
import { dirname, join } from "node:path";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { discover } from "@runlens/logs/discover.ts";
import { mcpbrInstance } from "@runlens/logs/sources/mcpbr.ts";
import { isOpenAiEvalsLine } from "@runlens/logs/sources/openai_evals.ts";
import { promptText, siblingOf } from "@runlens/logs/sources/opencompass.ts";
import { Labels } from "@runlens/pipeline/labels.ts";
import { benchmarks } from "@runlens/benchmarks/registry.ts";
import { canonicalBbehTask } from "@runlens/benchmarks/bbeh/tasks.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { dataTest } from "./_data.ts";
import { type CheckedLog, readAs, readChecked } from "./_read.ts";
import { withTempDir } from "./_tmp.ts";

const FORMATS = join(REPO_ROOT, "tests", "fixtures", "logs", "formats");
const OC = join(FORMATS, "opencompass", "20250101_120000");

const formatOf = (path: string) => discover([path]).files[0]?.format ?? null;
const reasons = (log: CheckedLog) => log.quarantine.map((q) => [q.line, q.reason]);

Deno.test("labels / promptText / siblingOf: names and prompts as the tools write them", () => {
  // a reader gives a dataset abbreviation or eval name as both labels; the pipeline resolves it
  const labels = new Labels(benchmarks());
  const resolve = (label: string) => labels.resolve(label.toLowerCase(), label);
  assert.deepEqual(resolve("bbh-temporal_sequences"), {
    benchmark: "bbh",
    task: "temporal_sequences",
  });
  assert.deepEqual(resolve("bbeh_boardgame_qa"), { benchmark: "bbeh", task: "boardgame_qa" });
  // the task label is kept as written; the benchmark maps it to its canonical task name
  const display = resolve("bbeh-Temporal Sequences");
  assert.deepEqual(display, { benchmark: "bbeh", task: "Temporal Sequences" });
  assert.equal(canonicalBbehTask(display.task), "temporal_sequence");
  assert.deepEqual(resolve("gsm8k"), { benchmark: "gsm8k", task: "gsm8k" });
  assert.equal(promptText([{ role: "HUMAN", prompt: "Q?" }, { role: "BOT", prompt: "" }]), "Q?");
  assert.equal(promptText("plain"), "plain");
  assert.equal(siblingOf("w/predictions/m/d.json", "results"), join("w", "results", "m", "d.json"));
  assert.equal(siblingOf("w/other/m/d.json", "results"), null);
});

Deno.test("opencompass predictions: rows, replicas as epochs, the results' verdicts, bad records", () => {
  const path = join(OC, "predictions", "demo-7b", "bbeh_boardgame_qa.json");
  assert.equal(formatOf(path), "opencompass-predictions");
  const log = readChecked(path);
  assert.equal(log.format, "opencompass-predictions");
  // 5 records: 1 row, 2 replicas, 3 bad → 3 rows + 3 quarantined
  assert.equal(log.rowsIn, 6);
  const rows = log.rows;
  assert.deepEqual(
    rows.map((r) => [r.source_line, r.run, r.model, r.benchmark, r.task, r.example_index, r.epoch]),
    [
      [1, "demo-7b_20250101_120000", "demo-7b", "bbeh", "boardgame_qa", 0, 1],
      [2, "demo-7b_20250101_120000", "demo-7b", "bbeh", "boardgame_qa", 1, 1],
      [2, "demo-7b_20250101_120000", "demo-7b", "bbeh", "boardgame_qa", 1, 2],
    ],
  );
  // the templated prompt is not the input (it never equals the data set's input)
  assert.equal(rows[1].input, null);
  assert.deepEqual(rows.map((r) => r.response), [
    "The answer is: proved",
    "The answer is: disproved",
    "The answer is: unknown",
  ]);
  assert.deepEqual(rows.map((r) => [r.tool_extracted, r.stored_correct]), [
    ["proved", true],
    ["disproved", true],
    ["unknown", false],
  ]);
  assert.deepEqual(reasons(log), [
    [3, 'record "2" is not a JSON object'],
    [4, 'record "3" has no prediction'],
    [5, 'record "4" has an empty prediction list'],
  ]);
  const bbh = readChecked(join(OC, "predictions", "demo-7b", "bbh-temporal_sequences.json"));
  assert.deepEqual(bbh.rows.map((r) => r.target), ["(B)", "(A)"]);
});

Deno.test("opencompass results: read alone when no predictions file exists, else skipped", () => {
  const withPredictions = join(OC, "results", "demo-7b", "bbeh_boardgame_qa.json");
  const found = discover([withPredictions]);
  assert.deepEqual(found.files, []);
  assert.match(found.companions[0].reason, /read alongside its predictions file/);
  const alone = join(OC, "results", "demo-7b", "bbh-navigate.json");
  assert.equal(formatOf(alone), "opencompass-results");
  const log = readChecked(alone);
  assert.equal(log.rowsIn, 4);
  const rows = log.rows;
  assert.deepEqual(rows.map((r) => [r.task, r.example_index, r.target, r.response]), [
    ["navigate", 0, "Yes", "Yes"],
    ["navigate", 1, "Yes", "Let's think. So the answer is No."],
  ]);
  assert.deepEqual(reasons(log), [
    [3, "detail 2 is not a JSON object"],
    [4, "detail 3 has neither prediction nor pred"],
  ]);
  withTempDir((dir) => {
    const x = join(dir, "x.json");
    Deno.writeTextFileSync(x, '{"accuracy": 1}');
    assert.match(readAs(x, "opencompass-results").error!, /without per-example details/);
    Deno.writeTextFileSync(x, "[1]");
    assert.match(readAs(x, "opencompass-predictions").error!, /expected one JSON object/);
  });
});

Deno.test("mcpbr: one row per task and condition, runs per condition, every bad task reported", () => {
  assert.deepEqual(mcpbrInstance("bbh_date_understanding_14"), {
    label: "bbh_date_understanding", // benchmark and task, resolved by the pipeline
    index: 14,
  });
  assert.equal(mcpbrInstance("boolean_expressions"), null);
  const path = join(FORMATS, "mcpbr", "bbh-sonnet", "results.json");
  assert.equal(formatOf(path), "mcpbr");
  const log = readChecked(path);
  assert.equal(log.format, "mcpbr");
  const doc = JSON.parse(Deno.readTextFileSync(path));
  assert.equal(doc.tasks.length, 7);
  assert.equal(log.rowsIn, log.rows.length + log.quarantine.length);
  const rows = log.rows;
  assert.deepEqual(
    rows.map((r) => [r.source_line, r.run, r.model, r.benchmark, r.task, r.example_index]),
    [
      [1, "bbh-sonnet_mcp", "sonnet", "bbh", "boolean_expressions", 0],
      [1, "bbh-sonnet_baseline", "sonnet", "bbh", "boolean_expressions", 0],
      [2, "bbh-sonnet_mcp", "sonnet", "bbh", "date_understanding", 14],
      [7, "bbh-sonnet_mcp", "sonnet", "bbeh", "nycc", 3],
      [7, "bbh-sonnet_baseline", "sonnet", "bbeh", "nycc", 3],
    ],
  );
  assert.deepEqual(rows.map((r) => r.response_tokens), [30, 12, 900, null, null]);
  assert.deepEqual(rows.map((r) => r.stored_correct), [true, false, false, true, false]);
  assert.deepEqual(reasons(log), [
    [2, "task 2: baseline has no agent_answer (error: Timeout after 180s)"],
    [3, 'task 3: instance_id "boolean_expressions" is not <benchmark>_<task>_<index>'],
    [4, "task 4 is not a JSON object"],
    [5, "task 5 has no mcp or baseline result"],
    [6, "task 6: mcp is not a JSON object"],
  ]);
  assert.deepEqual(log.quarantine.map((q) => q.run), [
    "bbh-sonnet_baseline",
    "bbh-sonnet_mcp",
    "bbh-sonnet",
    "bbh-sonnet",
    "bbh-sonnet_mcp",
  ]);
  withTempDir((dir) => {
    const r = join(dir, "r.json");
    Deno.writeTextFileSync(r, '{"metadata": {}}');
    assert.match(readAs(r, "mcpbr").error!, /no tasks list/);
  });
});

Deno.test("openai/evals: events grouped by sample_id in event order; every line accounted for", () => {
  const path = join(FORMATS, "openai_evals", "bbeh_nycc_run.log");
  assert.equal(formatOf(path), "openai-evals");
  assert.ok(isOpenAiEvalsLine('{"final_report": {}}'));
  assert.ok(!isOpenAiEvalsLine('{"task": "nycc", "response": "x"}'));
  const log = readChecked(path);
  assert.equal(log.format, "openai-evals");
  const rows = log.rows;
  assert.deepEqual(
    rows.map((r) => [r.source_line, r.model, r.task, r.example_index, r.input, r.target]),
    [
      [2, "gpt-4o-mini", "nycc", 0, null, null], // sample 0 has no match event
      [3, "gpt-4o-mini", "nycc", 1, null, "(C)"],
    ],
  );
  assert.deepEqual(rows.map((r) => r.response), ["The answer is: (A)", "The answer is: (B)"]);
  assert.deepEqual(rows.map((r) => r.stored_correct ?? null), [null, false]);
  assert.deepEqual(reasons(log).map(([l, r]) => [l, String(r).replace(/ \(.*\)$/, "")]), [
    [6, "sample bbeh_nycc.dev.2 has no sampling event"],
    [7, "event without sample_id"],
    [8, "malformed JSON"],
    [9, "not a JSON object"],
  ]);
  // spec (1) and final report (10) are metadata; lines 2–5 are the two samples' events
  assert.equal(log.rowsIn, 2 + 4);
  withTempDir((dir) => {
    const t = join(dir, "t.log");
    Deno.writeTextFileSync(t, '{"spec": {}}\n{"run_id": "r", "sample_');
    assert.deepEqual(readAs(t, "openai-evals").bad.map(({ line, reason }) => ({ line, reason })), [{
      line: 2,
      reason: "truncated last line (not valid JSON and no final newline)",
    }]);
  });
});

dataTest(
  "openai/evals: the real record log — every record counted independently",
  async (dataDir) => {
    const path = join(dataDir, "logs", "inspect", "openai_evals__self_prompting_oriprompt.log");
    assert.equal(formatOf(path), "openai-evals");
    // count independently: parse every non-blank line and sort it by kind
    const lines = Deno.readTextFileSync(path).split("\n").filter((l) => l.trim() !== "")
      .map((l) => JSON.parse(l));
    const specs = lines.filter((l) => "spec" in l);
    const reports = lines.filter((l) => "final_report" in l);
    const sampleIds = new Set(
      lines.filter((l) => l.sample_id !== undefined).map((l) => l.sample_id),
    );
    assert.equal(lines.length, 2);
    assert.equal(specs.length + reports.length, lines.length); // no event lines
    assert.equal(sampleIds.size, 0);
    const declared = reports[0].final_report.n_samples;
    assert.equal(declared, 1500);

    const log = readChecked(path);
    assert.equal(log.format, "openai-evals");
    assert.equal(log.rows.length, sampleIds.size);
    // the stripped events are one quarantine entry on the final-report line, not a silent zero
    assert.equal(log.rowsIn, sampleIds.size + 1);
    assert.deepEqual(log.quarantine.map((q) => [q.run, q.line]), [
      ["openai_evals__self_prompting_oriprompt", 2],
    ]);
    assert.match(
      log.quarantine[0].reason,
      /final_report counts 1500 samples but the log holds events for 0/,
    );

    // the whole folder: the .log is found next to the inspect logs and balances with them
    const loaded = await loadRuns([dirname(path)], dataDir);
    assert.ok(loaded.files.includes(path));
    const run = loaded.runs.find((r) => r.run === "openai_evals__self_prompting_oriprompt")!;
    assert.deepEqual([run.format, run.rows_in, run.rows_scored, run.rows_quarantined], [
      "openai-evals",
      1,
      0,
      1,
    ]);
    const total = loaded.runs.reduce((s, r) => s + r.rows_in, 0);
    assert.equal(total, loaded.rows.height + loaded.quarantine.length);
  },
);
