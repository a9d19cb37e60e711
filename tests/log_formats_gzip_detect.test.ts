/**
 * Tests of format detection and dispatch across the log formats (`logs/discover.ts`, the
 * sources): gzip-compressed variants of every format (by magic bytes, with or without `.gz`),
 * `--format` forcing a reader, unknown formats as clear errors naming the file, directory
 * search, and the reported per-run `format` through `loadRuns` and
 * the `score` CLI.
 * @module
 */
import assert from "node:assert/strict";
import { basename, dirname, join, relative } from "node:path";
import { gzipSync } from "fflate";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { detectFile, discover } from "@runlens/logs/discover.ts";
import { gunzipHead } from "@runlens/codecs/gzip_stream.ts";
import { parseColumnMap } from "@runlens/logs/mapped.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { runCli } from "./_cli.ts";
import { dataTest, TEST_DATA_DIR } from "./_data.ts";
import { type CheckedLog, readChecked, type ReadOptions } from "./_read.ts";
import { withTempDir } from "./_tmp.ts";

const LOGS = join(REPO_ROOT, "tests", "fixtures", "logs");
const FORMATS = join(LOGS, "formats");

/** Copy `src` gzip-compressed to `dest` (creating folders). */
function gzipTo(src: string, dest: string): string {
  Deno.mkdirSync(dirname(dest), { recursive: true });
  Deno.writeFileSync(dest, gzipSync(Deno.readFileSync(src)));
  return dest;
}

/** What a log says, without the file name. */
function content(log: CheckedLog) {
  return { rowsIn: log.rowsIn, rows: log.rows, quarantine: log.quarantine, error: log.error };
}

/** The first log discovery finds at `path` (with `--format`). */
const found = (path: string, format?: ReadOptions["format"]) =>
  discover([path], { format }).files[0];

const CASES: [string, ReadOptions][] = [
  ["tree/a.jsonl", {}],
  ["tree/sub/b.csv", {}],
  ["mixed.jsonl", {}],
  ["formats/opencompass/20250101_120000/predictions/demo-7b/bbeh_boardgame_qa.json", {}],
  ["formats/opencompass/20250101_120000/results/demo-7b/bbh-navigate.json", {}],
  ["formats/mcpbr/bbh-sonnet/results.json", {}],
  ["formats/openai_evals/bbeh_nycc_run.log", {}],
  ["formats/mapped/answers.csv", { map: parseColumnMap("input=0,response=1,target=2,task==nycc") }],
  ["formats/mapped/renamed.jsonl", { map: parseColumnMap("response=output") }],
];

Deno.test("gzip helpers: magic bytes, inner name, partial decompression", () =>
  withTempDir((dir) => {
    const gz = gzipSync(new TextEncoder().encode('{"task": "nycc"}\n'.repeat(1000)));
    Deno.writeFileSync(join(dir, "run.jsonl.GZ"), gz);
    Deno.writeTextFileSync(join(dir, "plain.jsonl"), "{}\n");
    assert.ok(detectFile(join(dir, "run.jsonl.GZ")).gzip);
    assert.ok(!detectFile(join(dir, "plain.jsonl")).gzip);
    assert.equal(found(join(dir, "run.jsonl.GZ")).name, join(dir, "run.jsonl"));
    assert.equal(found(join(dir, "plain.jsonl")).name, join(dir, "plain.jsonl"));
    const head = new TextDecoder().decode(gunzipHead(gz.subarray(0, 40), 64));
    assert.ok('{"task": "nycc"}\n{"task": "nycc"}'.startsWith(head.slice(0, 10)));
    assert.ok(gunzipHead(gz, 64).length <= 64);
  }));

Deno.test("gzip: every format reads the same compressed, and says +gzip", () => {
  withTempDir((dir) => {
    for (const [rel, options] of CASES) {
      const src = join(LOGS, rel);
      const plain = readChecked(src, options);
      const gz = gzipTo(src, join(dir, relative(LOGS, src)) + ".gz");
      if (rel.includes("/predictions/")) {
        // the results beside the predictions, compressed too
        const results = rel.replace("/predictions/", "/results/");
        gzipTo(join(LOGS, results), join(dir, results) + ".gz");
      }
      const f = found(gz);
      assert.ok(f.gzip, rel);
      assert.match(f.reason, /^gzip data; /);
      const packed = readChecked(gz, options);
      assert.equal(packed.format, plain.format, rel);
      assert.deepEqual(content(packed), content(plain), rel);
    }
  });
});

Deno.test("gzip: detected by magic bytes without .gz; broken gzip is an error naming the file", () => {
  withTempDir((dir) => {
    const src = join(LOGS, "tree", "a.jsonl");
    const disguised = gzipTo(src, join(dir, "a.jsonl"));
    assert.deepEqual([found(disguised).format, found(disguised).gzip], ["canonical-jsonl", true]);
    const log = readChecked(disguised);
    assert.deepEqual(content(log), content(readChecked(src)));
    // a run-less row takes the run from the name without .gz
    const runless = join(dir, "solo.jsonl");
    Deno.writeTextFileSync(runless, '{"task": "nycc", "example_index": 0, "response": "x"}\n');
    const solo = readChecked(gzipTo(runless, join(dir, "solo.jsonl.gz")));
    assert.deepEqual(solo.rows.map((r) => r.run), ["solo"]);

    const bytes = Deno.readFileSync(join(dir, "solo.jsonl.gz"));
    const cut = join(dir, "cut.jsonl.gz");
    Deno.writeFileSync(cut, bytes.subarray(0, bytes.length - 10));
    assert.match(readChecked(cut).error!, /^gzip member 1 \(at byte 0\): truncated/);
    const fake = join(dir, "fake.jsonl.gz");
    Deno.writeTextFileSync(fake, "{}\n");
    const fakeFound = discover([fake]);
    assert.deepEqual(fakeFound.files, []);
    assert.match(
      fakeFound.errors[0].reason,
      /^not a run log runlens reads \(extension \.gz but no gzip signature/,
    );
  });
});

dataTest("gzip: a real inspect_ai .eval, compressed, reads every sample", (dataDir) => {
  withTempDir((dir) => {
    const src = join(dataDir, "logs", "inspect", "inspect_ai__log_streaming__2epochs.eval");
    const gz = gzipTo(src, join(dir, basename(src) + ".gz"));
    const log = readChecked(gz);
    assert.deepEqual([log.format, found(gz).gzip], ["inspect-eval", true]);
    assert.deepEqual(content(log), content(readChecked(src)));
    assert.equal(log.rowsIn, 4);
  });
});

Deno.test("detection: unknown formats are clear errors naming the file", () => {
  const summary = join(FORMATS, "unknown", "summary.json");
  assert.deepEqual(detectFile(summary), {
    kind: "unknown",
    reason: "JSON file of no known run-log format",
    gzip: false,
  });
  assert.deepEqual(discover([summary]).files, []);
  assert.match(
    discover([summary]).errors[0].reason,
    /^not a run log runlens reads \(JSON file of no known run-log format\)$/,
  );
  const notes = join(FORMATS, "unknown", "notes.log");
  assert.deepEqual(discover([notes]).files, []);
  assert.match(
    discover([notes]).errors[0].reason,
    /^not a run log runlens reads \(\.log file that/,
  );
  // other extensions: named by their extension
  assert.match(
    discover([join(LOGS, "tree", "notes.txt")]).errors[0].reason,
    /^not a run log runlens reads \(extension \.txt is not a run log/,
  );
});

Deno.test("--format forces a reader; a wrong one is an error naming the format", () => {
  withTempDir((dir) => {
    const txt = join(dir, "evals_run.txt");
    Deno.copyFileSync(join(FORMATS, "openai_evals", "bbeh_nycc_run.log"), txt);
    assert.deepEqual(discover([txt]).files, []);
    const forced = readChecked(txt, { format: "openai-evals" });
    assert.equal(forced.format, "openai-evals");
    assert.equal(forced.rows.length, 2);
    assert.match(
      readChecked(join(LOGS, "tree", "a.jsonl"), { format: "mcpbr" }).error!,
      /not a JSON document/,
    );
    // --format mapped-jsonl without --map: refused by the CLI (log_formats_mapped.test.ts)
  });
});

Deno.test("discover: a directory yields the logs of every known format, gzip included", () => {
  const paths = (paths: string[], format?: ReadOptions["format"]) =>
    discover(paths, { format }).files.map((f) => f.path);
  assert.deepEqual(paths([FORMATS]).map((f) => relative(FORMATS, f)), [
    "inspect/deflate/bbeh_run.eval",
    "inspect/zstd/bbeh_run.eval",
    "mapped/answers.csv",
    "mapped/positional.jsonl",
    "mapped/renamed.jsonl",
    "mapped/transcripts.jsonl",
    "mcpbr/bbh-sonnet/results.json",
    "openai_evals/bbeh_nycc_run.log",
    "opencompass/20250101_120000/predictions/demo-7b/bbeh_boardgame_qa.json",
    "opencompass/20250101_120000/predictions/demo-7b/bbh-temporal_sequences.json",
    // bbeh_boardgame_qa.json's results are read with its predictions
    "opencompass/20250101_120000/results/demo-7b/bbh-navigate.json",
    // a partitioned data set: each part is a log (its merged results are read with the parts)
    "opencompass/20250202_090000/predictions/parted-7b/bbeh_boardgame_qa_0.json",
    "opencompass/20250202_090000/predictions/parted-7b/bbeh_boardgame_qa_1.json",
    "opencompass/20250202_090000/predictions/parted-7b/bbeh_object_counting_0.json",
    "opencompass/20250202_090000/predictions/parted-7b/bbeh_object_counting_2.json",
  ]);
  withTempDir((dir) => {
    gzipTo(join(LOGS, "tree", "a.jsonl"), join(dir, "a.jsonl.gz"));
    gzipTo(join(FORMATS, "mcpbr", "bbh-sonnet", "results.json"), join(dir, "m", "results.json.gz"));
    Deno.writeFileSync(join(dir, "notes.txt.gz"), gzipSync(new TextEncoder().encode("hi")));
    Deno.writeTextFileSync(join(dir, "other.log"), "plain text\n");
    assert.deepEqual(paths([dir]).map((f) => relative(dir, f)), [
      "a.jsonl.gz",
      join("m", "results.json.gz"),
    ]);
    // a forced format takes every file with a log extension
    assert.deepEqual(paths([dir], "openai-evals").map((f) => relative(dir, f)), [
      "a.jsonl.gz",
      join("m", "results.json.gz"),
      "other.log",
    ]);
  });
});

dataTest(
  "loadRuns: the new formats end to end, every record scored or quarantined",
  async (dataDir) => {
    const loaded = await loadRuns(
      [join(FORMATS, "opencompass"), join(FORMATS, "mcpbr"), join(FORMATS, "openai_evals")],
      dataDir,
    );
    const byRun = Object.fromEntries(loaded.runs.map((r) => [`${r.run}/${r.benchmark}`, r]));
    assert.deepEqual(Object.keys(byRun), [
      "bbeh_nycc_run/bbeh",
      "bbh-sonnet/unknown",
      "bbh-sonnet_baseline/bbeh",
      "bbh-sonnet_baseline/bbh",
      "bbh-sonnet_baseline/unknown",
      "bbh-sonnet_mcp/bbeh",
      "bbh-sonnet_mcp/bbh",
      "bbh-sonnet_mcp/unknown",
      "demo-7b_20250101_120000/bbeh",
      "demo-7b_20250101_120000/bbh",
      "parted-7b_20250202_090000/bbeh",
    ]);
    assert.equal(byRun["demo-7b_20250101_120000/bbeh"].format, "opencompass-predictions");
    assert.equal(
      byRun["demo-7b_20250101_120000/bbh"].format,
      "opencompass-predictions, opencompass-results",
    );
    assert.equal(byRun["bbh-sonnet_mcp/bbh"].format, "mcpbr");
    assert.equal(byRun["bbeh_nycc_run/bbeh"].format, "openai-evals");
    // BBEH and BBH rows both score, summarised apart; unreadable records of a file holding
    // both are neither's (issue 14, item 5: never BBEH's by default); the totals balance
    const counts = (run: string) => {
      const r = byRun[run];
      return [r.rows_in, r.rows_scored, r.rows_quarantined];
    };
    assert.deepEqual(counts("bbh-sonnet_mcp/bbh"), [2, 2, 0]);
    assert.deepEqual(counts("bbh-sonnet_mcp/bbeh"), [1, 1, 0]);
    assert.deepEqual(counts("bbh-sonnet_mcp/unknown"), [2, 0, 2]);
    assert.deepEqual(counts("bbh-sonnet_baseline/bbh"), [1, 1, 0]);
    assert.deepEqual(counts("bbh-sonnet_baseline/bbeh"), [1, 1, 0]);
    assert.deepEqual(counts("bbh-sonnet_baseline/unknown"), [1, 0, 1]);
    assert.deepEqual(counts("bbh-sonnet/unknown"), [2, 0, 2]);
    // sample 1's made-up target differs from the data set's
    assert.deepEqual(counts("bbeh_nycc_run/bbeh"), [6, 1, 5]);
    // boardgame_qa: 3 rows score; the made-up BBH targets (temporal_sequences, navigate) differ
    assert.deepEqual(counts("demo-7b_20250101_120000/bbeh"), [6, 3, 3]);
    assert.deepEqual(counts("demo-7b_20250101_120000/bbh"), [6, 0, 6]);
    assert.equal(byRun["demo-7b_20250101_120000/bbeh"].tasks.boardgame_qa.n, 3);
    // the partitioned data sets (tests/log_formats_opencompass_parts.test.ts): part 2 of
    // object_counting follows a missing part 1 and is quarantined
    assert.deepEqual(counts("parted-7b_20250202_090000/bbeh"), [32, 30, 2]);
    const total = loaded.runs.reduce((s, r) => s + r.rows_in, 0);
    assert.equal(total, loaded.rows.height + loaded.quarantine.length);
    assert.ok(
      loaded.quarantine.some((q) => /target "Yes" differs .* for navigate\[0\]/.test(q.reason)),
    );
  },
);

dataTest("score CLI: --map and --format reach the readers; format in the JSON report", async () => {
  const out = await runCli([
    "score",
    join(FORMATS, "mapped", "renamed.jsonl"),
    "--map",
    "response=output",
    "--format",
    "auto",
    "--data",
    TEST_DATA_DIR,
    "--json",
  ]);
  assert.equal(out.code, 0, out.stderr);
  const report = JSON.parse(out.stdout);
  assert.equal(report.runs[0].format, "mapped-jsonl");
  assert.equal(report.runs[0].rows_in, 6);
});
