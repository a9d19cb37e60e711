/**
 * Tests of generic JSONL/CSV files read through a `--map` column mapping (parsed by
 * `logs/mapped.ts`, applied by the sources through `sources/fields.ts`):
 * the mapping syntax, positional (headerless CSV, JSON arrays), renames, dotted paths and
 * literals, each quarantine reason, mapping errors that name the file, and the `score` CLI's
 * `--map`/`--format` arguments. Fixtures: tests/fixtures/logs/formats/mapped/.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScoreArgs, type ScoreArgs } from "@runlens/cli/score.ts";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { isPositional, parseColumnMap } from "@runlens/logs/mapped.ts";
import { readCsvObjects } from "@runlens/logs/sources/csv.ts";
import { lookupPath } from "@runlens/logs/sources/fields.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { dataTest } from "./_data.ts";
import { type CheckedLog, readChecked, readFiles } from "./_read.ts";

const MAPPED = join(REPO_ROOT, "tests", "fixtures", "logs", "formats", "mapped");

const reasons = (log: CheckedLog) =>
  log.quarantine.map((q) => [q.line, q.reason.replace(/ \(.*\)$/, "")]);

Deno.test("parseColumnMap: positions, names, literals; clear errors", () => {
  assert.deepEqual(parseColumnMap("input=0,response=1,target=2").map((m) => [m.field, m.source]), [
    ["input", { kind: "position", index: 0 }],
    ["response", { kind: "position", index: 1 }],
    ["target", { kind: "position", index: 2 }],
  ]);
  assert.deepEqual(parseColumnMap("response=output")[0].source, { kind: "name", name: "output" });
  assert.deepEqual(parseColumnMap(" task==nycc , response=a.b ").map((m) => m.source), [
    { kind: "literal", value: "nycc" },
    { kind: "name", name: "a.b" },
  ]);
  assert.ok(isPositional(parseColumnMap("input=0,response=1,task==nycc")));
  assert.ok(!isPositional(parseColumnMap("input=0,response=out")));
  assert.ok(!isPositional(parseColumnMap("task==nycc")));
  assert.throws(() => parseColumnMap(""), /--map needs field=column items/);
  assert.throws(() => parseColumnMap("response"), /--map item "response" is not field=column/);
  assert.throws(() => parseColumnMap("answer=1"), /unknown field "answer" \(fields: run, model/);
  assert.throws(() => parseColumnMap("response=1,response=2"), /--map gives "response" twice/);
});

Deno.test("CSV cells / lookupPath: quoting and dotted paths", () => {
  const csv = Deno.makeTempFileSync({ suffix: ".csv" });
  Deno.writeTextFileSync(csv, 'a,b,c,d\na,,"",x\n"a, b","say ""hi""",c,d\n');
  assert.deepEqual(readCsvObjects(csv).records.map((r) => Object.values(r.value)), [
    ["a", null, "", "x"],
    ["a, b", 'say "hi"', "c", "d"],
  ]);
  Deno.removeSync(csv);
  const obj = { log: [{ c: "x" }, { c: "y" }], "a.b": 1 };
  assert.equal(lookupPath(obj, "log.-1.c"), "y");
  assert.equal(lookupPath(obj, "log.0.c"), "x");
  assert.equal(lookupPath(obj, "a.b"), 1);
  assert.equal(lookupPath(obj, "log.5.c"), undefined);
});

Deno.test("--map positional: a headerless CSV, every record accounted for", () => {
  const map = parseColumnMap("input=0,response=1,target=2,task==nycc");
  const log = readChecked(join(MAPPED, "answers.csv"), { map });
  assert.equal(log.format, "mapped-csv");
  assert.equal(log.rowsIn, 5); // no header: every non-blank record counts
  const rows = log.rows;
  assert.deepEqual(rows.map((r) => [r.source_line, r.task, r.input, r.response, r.target]), [
    [1, "nycc", "Which caption is funniest?", "The answer is: (A)", "(A)"],
    [2, "nycc", "A question, with a comma", 'The answer is: "quoted"', "(B)"],
  ]);
  assert.deepEqual(reasons(log), [
    [4, "CSV record has 2 fields, the other records have 3"],
    [5, "missing response"], // an empty unquoted cell is absent
    [6, "truncated last record"],
  ]);
  // the same file without --map is a canonical CSV whose first record is the header
  const plain = readChecked(join(MAPPED, "answers.csv"));
  assert.equal(plain.format, "canonical-csv");
  assert.equal(plain.rowsIn, 4);
});

Deno.test("--map rename: a JSONL key becomes the field; the shadowed column goes to extra", () => {
  const log = readChecked(join(MAPPED, "renamed.jsonl"), {
    map: parseColumnMap("response=output"),
  });
  assert.equal(log.format, "mapped-jsonl");
  assert.equal(log.rowsIn, 6);
  const rows = log.rows;
  assert.deepEqual(rows.map((r) => [r.source_line, r.task, r.example_index, r.response]), [
    [1, "nycc", 0, "The answer is: (A)"],
    [2, "nycc", 1, "The answer is: (B)"],
  ]);
  assert.deepEqual(reasons(log), [
    [3, 'field "response" holds an object, not text'],
    [4, "malformed JSON"],
    [5, "not a JSON object"],
    [6, "missing response"],
  ]);
});

Deno.test("--map dotted path and literal: chat transcripts; positional JSON arrays", () => {
  const map = parseColumnMap("response=message_log.-1.content,task==nycc");
  const log = readChecked(join(MAPPED, "transcripts.jsonl"), { map });
  const rows = log.rows;
  assert.deepEqual(rows.map((r) => [r.task, r.input, r.target, r.response]), [
    ["nycc", "Which caption is funniest?", "(A)", "The answer is: (A)"],
  ]);
  assert.deepEqual(reasons(log), [
    [2, 'field "response" holds a list, not text'],
    [3, "missing response"],
  ]);
  const arrays = readChecked(join(MAPPED, "positional.jsonl"), {
    map: parseColumnMap("task=0,example_index=1,response=2"),
  });
  assert.deepEqual(
    arrays.rows.map((r) => [r.task, r.example_index, r.response]),
    [["nycc", 0, "The answer is: (A)"]],
  );
  assert.deepEqual(reasons(arrays), [
    [2, "not a JSON array"],
    [3, "missing response"],
  ]);
});

Deno.test("--map that does not fit the file: an error naming the file and the item", () => {
  const csv = join(MAPPED, "answers.csv");
  assert.match(
    readChecked(csv, { map: parseColumnMap("input=0,response=7") }).error!,
    /^mapped-csv log: --map response=7: the records have 3 columns/,
  );
  const dir = Deno.makeTempDirSync({ prefix: "runlens_map_" });
  try {
    const headed = join(dir, "headed.csv");
    Deno.writeTextFileSync(headed, "question,answer\nq,a\n");
    assert.equal(
      readChecked(headed, { map: parseColumnMap("response=output") }).error,
      'mapped-csv log: --map response=output: no column "output" (columns: question, answer)',
    );
    const ok = readChecked(headed, {
      map: parseColumnMap("input=question,response=answer,task==nycc"),
    });
    assert.deepEqual(ok.rows.map(({ input, response }) => ({ input, response })), [{
      input: "q",
      response: "a",
    }]);
    assert.equal(ok.rowsIn, 1);
    const empty = join(dir, "empty.csv");
    Deno.writeTextFileSync(empty, "");
    const [read] = readFiles([empty], { map: parseColumnMap("response=1") });
    assert.deepEqual([read.records.length, read.bad.length, read.error], [0, 0, null]);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("score arguments: --format and --map", () => {
  const parsed = parseScoreArgs(["a.csv", "--format", "mapped-csv", "--map=input=0,response=1"]);
  assert.ok(typeof parsed !== "string");
  assert.equal(parsed.load?.format, "mapped-csv");
  assert.deepEqual(parsed.load?.map?.map((m) => m.field), ["input", "response"]);
  assert.equal((parseScoreArgs(["a", "--format=auto"]) as ScoreArgs).load?.format, "auto");
  assert.match(
    parseScoreArgs(["a", "--format", "nope"]) as string,
    /^unknown --format nope \(auto,/,
  );
  assert.equal(parseScoreArgs(["a", "--map", "bogus"]), '--map item "bogus" is not field=column');
  assert.equal(parseScoreArgs(["a", "--map"]), "--map needs a value");
  assert.equal(
    parseScoreArgs(["a", "--format", "mapped-jsonl"]),
    "--format mapped-jsonl needs --map",
  );
  // without the new flags the parsed arguments are unchanged
  assert.deepEqual(parseScoreArgs(["a"]), {
    paths: ["a"],
    data: null,
    json: false,
    rows: null,
    load: { cache: true },
    verbose: false,
  });
});

dataTest(
  "--map through loadRuns: every record scored or quarantined, format reported",
  async (dataDir) => {
    const loaded = await loadRuns([join(MAPPED, "renamed.jsonl")], dataDir, {
      map: parseColumnMap("response=output"),
    });
    assert.equal(loaded.runs.length, 1);
    const run = loaded.runs[0];
    assert.equal(run.format, "mapped-jsonl");
    assert.equal(run.rows_in, 6);
    assert.equal(run.rows_scored, 2);
    assert.equal(run.rows_quarantined, 4);
  },
);
