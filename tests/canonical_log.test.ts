/**
 * The canonical run-log format: JSONL and CSV read by the streaming sources, line-level
 * quarantine, and (with the data set) tying rows to BBEH examples by index or input, with every
 * quarantine reason. (The sources keep no fields outside the canonical ones: `extra` is null.)
 * @module
 */
import assert from "node:assert/strict";
import { quarantineText } from "@runlens/logs/quarantine.ts";
import { join } from "node:path";
import pl from "nodejs-polars";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { discover } from "@runlens/logs/discover.ts";
import { defaultRunName } from "@runlens/logs/paths.ts";
import { readCsvObjects } from "@runlens/logs/sources/csv.ts";
import type { QuarantineEntry } from "@runlens/logs/quarantine.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { ROW_COLUMNS } from "@runlens/core/schema.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

const LOGS = join(REPO_ROOT, "tests", "fixtures", "logs");
const MIXED_JSONL = join(LOGS, "mixed.jsonl");
const MIXED_CSV = join(LOGS, "mixed.csv");

/** line → reason of a quarantine list (for one file). */
const reasons = (q: QuarantineEntry[]) => Object.fromEntries(q.map((e) => [e.line, e.reason]));

const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

Deno.test("helpers: run names, CSV records and cells", () =>
  withTempDir((dir) => {
    assert.equal(defaultRunName("runs/gpt-4.1_t0.jsonl"), "gpt-4.1_t0");
    assert.equal(defaultRunName("b.csv"), "b");
    const csv = join(dir, "r.csv");
    Deno.writeTextFileSync(csv, 'a,b\r\n\r\n1,"x\ny, ""z"""\n2,3');
    assert.deepEqual(readCsvObjects(csv), {
      records: [{ line: 3, value: { a: "1", b: 'x\ny, "z"' } }, {
        line: 5,
        value: { a: "2", b: "3" },
      }],
      bad: [],
    });
    Deno.writeTextFileSync(csv, 'a\n"open');
    assert.deepEqual(readCsvObjects(csv).bad, [
      { line: 2, reason: "truncated last record (unterminated quoted field)" },
    ]);
  }));

Deno.test("discover: directories recurse to sorted .jsonl/.csv files, files kept once", () => {
  const tree = join(LOGS, "tree");
  const paths = (found: { files: { path: string }[] }) => found.files.map((f) => f.path);
  assert.deepEqual(paths(discover([tree])), [join(tree, "a.jsonl"), join(tree, "sub", "b.csv")]);
  assert.deepEqual(paths(discover([MIXED_CSV, tree, join(tree, "a.jsonl")])), [
    MIXED_CSV,
    join(tree, "a.jsonl"),
    join(tree, "sub", "b.csv"),
  ]);
  const nope = join(LOGS, "nope.jsonl");
  assert.deepEqual(discover([nope]).errors, [{ file: nope, reason: "no such file or directory" }]);
});

dataTest("JSONL: run/model fields, defaults, tokens", async (data) => {
  const log = await loadRuns([join(LOGS, "tree", "a.jsonl")], data);
  assert.deepEqual(log.fileSummaries.map((f) => f.rows_in), [4]);
  assert.deepEqual(log.quarantine, []);
  const rows = log.rows.select("run", "model", "task", "example_index", "epoch").toRecords();
  assert.deepEqual(rows, [
    { run: "alpha", model: "model-a", task: "boardgame_qa", example_index: 0, epoch: 1 },
    { run: "alpha", model: "model-a", task: "boardgame_qa", example_index: 1, epoch: 1 },
    { run: "beta", model: "model-b", task: "web_of_lies", example_index: 0, epoch: 1 },
    { run: "beta", model: "model-b", task: "web_of_lies", example_index: 0, epoch: 2 },
  ]);
  assert.deepEqual(log.rows.getColumn("response_tokens").toArray(), [null, null, 40, 41]);
});

dataTest("JSONL line-level quarantine: parse errors, truncation, missing and bad fields", async (
  data,
) => {
  const log = await loadRuns([MIXED_JSONL], data);
  assert.deepEqual(log.fileSummaries.map((f) => f.rows_in), [21]); // 22 lines, one blank
  assert.equal(log.rows.height + log.quarantine.length, 21);
  assert.ok(log.quarantine.every((q) => q.file === MIXED_JSONL));
  // its records name no run but model-x: the run, which the lines that are no record join
  assert.ok(log.runs.every((r) => r.run === "model-x"));
  const byLine = reasons(log.quarantine);
  assert.equal(byLine[6], 'example_index "abc" is not an integer');
  assert.equal(byLine[7], 'example_index "3.5" is not an integer');
  assert.equal(byLine[8], "missing response");
  assert.equal(
    byLine[9],
    "missing task (no task field, no task in the file name, and no input to find it by)",
  );
  assert.equal(byLine[14], "neither example_index nor input given");
  assert.equal(byLine[16], "not a JSON object");
  assert.equal(byLine[17], 'epoch "0" is not a positive integer');
  assert.equal(byLine[18], 'response_tokens "many" is not a non-negative integer');
  assert.match(byLine[19], /^malformed JSON \(/);
  assert.equal(byLine[20], 'field "response" holds an object, not text');
  assert.equal(byLine[22], "truncated last line (not valid JSON and no final newline)");
  // the empty response is kept (it is a real answer), blank line 2 is not a row
  const kept = log.rows.select("source_line", "response").toRecords();
  assert.deepEqual(kept.map((r) => r.source_line), [1, 3, 12, 21]);
  assert.equal(kept[1].response, "");
});

dataTest("integers beyond a row's 32 bits are quarantined with their reason, never wrapped", (
  data,
) =>
  withTempDir(async (dir) => {
    const file = join(dir, "big_ints.jsonl");
    const line = (extra: string) =>
      `{"task": "nycc", "example_index": 3, "response": "The answer is: (A)"${extra}}`;
    await Deno.writeTextFile(
      file,
      [
        line(', "epoch": 2147483648'),
        line(', "epoch": 2147483647'),
        line(', "response_tokens": 99999999999'),
        '{"task": "nycc", "example_index": -2147483649, "response": "x"}',
        line(', "epoch": "2147483648.0"'),
      ].join("\n") + "\n",
    );
    const log = await loadRuns([file], data);
    const byLine = reasons(log.quarantine);
    assert.equal(byLine[1], 'epoch "2147483648" is out of range (1–2,147,483,647)');
    assert.equal(byLine[3], 'response_tokens "99999999999" is out of range (0–2,147,483,647)');
    assert.equal(byLine[4], 'example_index "-2147483649" is out of range (0–2,147,483,647)');
    assert.equal(byLine[5], 'epoch "2147483648.0" is out of range (1–2,147,483,647)');
    // the largest epoch a row keeps is kept as it is
    assert.deepEqual(log.rows.select("source_line", "epoch").toRecords(), [
      { source_line: 2, epoch: 2147483647 },
    ]);
  }));

dataTest("CSV: record lines, quoted empty vs absent response, ragged and truncated records", async (
  data,
) => {
  const log = await loadRuns([MIXED_CSV], data);
  assert.deepEqual(log.fileSummaries.map((f) => f.rows_in), [7]);
  const byLine = reasons(log.quarantine);
  assert.equal(byLine[3], "missing response");
  assert.equal(byLine[9], "CSV record has 3 fields, the header has 6");
  assert.equal(byLine[10], "truncated last record (unterminated quoted field)");
  const rows = log.rows.select("source_line", "example_index", "response").toRecords();
  assert.deepEqual(rows, [
    { source_line: 2, example_index: 1, response: "The answer is: (A)" },
    { source_line: 4, example_index: 3, response: "" },
    { source_line: 6, example_index: 4, response: "Line one,\nThe answer is: (B)" },
  ]);
});

dataTest(
  "files that cannot be read are listed with a reason naming them",
  (data) =>
    withTempDir(async (dir) => {
      const errors = async (name: string) => (await loadRuns([join(dir, name)], data)).errors;
      assert.deepEqual(await errors("gone.jsonl"), [
        { file: join(dir, "gone.jsonl"), reason: "no such file or directory" },
      ]);
      Deno.writeTextFileSync(join(dir, "log.txt"), "x");
      assert.match((await errors("log.txt"))[0].reason, /^not a run log runlens reads/);
      Deno.writeTextFileSync(join(dir, "dup.csv"), "task,task,response\nnycc,1,x\n");
      assert.deepEqual(await errors("dup.csv"), [
        { file: join(dir, "dup.csv"), reason: 'the CSV header repeats "task"' },
      ]);
      Deno.writeTextFileSync(join(dir, "empty.jsonl"), "\n\n");
      const empty = await loadRuns([join(dir, "empty.jsonl")], data);
      assert.deepEqual([empty.errors, empty.fileSummaries.map((f) => f.rows_in)], [[], [0]]);
    }),
);

dataTest(
  "JSONL: broken lines do not disturb the others and keep their run",
  (data) =>
    withTempDir(async (dir) => {
      const good = Deno.readTextFileSync(join(LOGS, "tree", "a.jsonl"));
      const clean = await loadRuns([join(LOGS, "tree", "a.jsonl")], data);
      const path = join(dir, "two_runs.jsonl");
      Deno.writeTextFileSync(path, good + '{"run": "beta", "task": "nyc\n{"task": oops}\n');
      const broken = await loadRuns([path], data);
      assert.deepEqual(
        broken.rows.drop("source_file").toRecords(),
        clean.rows.drop("source_file").toRecords(),
      );
      assert.deepEqual(broken.quarantine.map((q) => q.line), [5, 6]);
      assert.deepEqual(broken.runs.map((r) => [r.run, r.rows_quarantined]), [
        ["alpha", 0],
        ["beta", 1], // the broken text still names its run
        ["two_runs", 1], // two runs in the file: the file's default run
      ]);
    }),
);

dataTest("loadRuns: benchmark-level quarantine, scoring, row schema (JSONL)", async (dataDir) => {
  const { rows, quarantine, runs } = await loadRuns([MIXED_JSONL], dataDir);
  assert.deepEqual(rows.columns, [...ROW_COLUMNS]);
  const byLine = reasons(quarantine);
  assert.match(
    byLine[4],
    /^target "\(Z\)" differs from the data set's target "\([A-Z]\)" for nycc\[5\]$/,
  );
  assert.equal(byLine[5], "example_index 200 out of range for nycc (0–199)");
  // no benchmark named: every benchmark's tasks are candidates
  assert.equal(
    byLine[10],
    'unknown task "not_a_task" (not a BBEH or BBH or BIG-Bench Mistake or ARB or GSM8K task)',
  );
  assert.equal(
    byLine[11],
    `duplicate of ${MIXED_JSONL}:1 (same run, task, example_index and epoch)`,
  );
  assert.equal(
    byLine[13],
    "input not found in linguini (no example has exactly this text, nor is one the question at its end)",
  );
  assert.equal(byLine[15], 'unknown task "nycc" (not a BBH task)');
  assert.equal(quarantine.length, 17);
  assert.deepEqual(
    quarantine.map((q) => q.line),
    [4, 5, 6, 7, 8, 9, 10, 11, 13, 14, 15, 16, 17, 18, 19, 20, 22],
  );

  const scored = rows.select(
    "run",
    "model",
    "task",
    "example_index",
    "epoch",
    "source_line",
    "extracted",
    "correct",
    "scorer",
    "response_chars",
    "response_tokens",
  ).toRecords();
  const ds = loadBbehDataset(dataDir);
  const target = (task: string, i: number) =>
    ds.filter(pl.col("task").eq(pl.lit(task)).and(pl.col("example_index").eq(i)))
      .getColumn("target").get(0) as string;
  assert.deepEqual(scored.map((r) => [r.task, r.example_index, r.epoch, r.source_line]), [
    ["linguini", 3, 1, 1],
    ["temporal_sequence", 5, 1, 3],
    ["linguini", 3, 2, 12],
    ["nycc", 9, 1, 21],
  ]);
  assert.ok(scored.every((r) => r.run === "model-x" && r.model === "model-x"));
  assert.ok(scored.every((r) => r.scorer === "bbeh-official"));
  assert.deepEqual(scored.map((r) => r.extracted), ["wrong", "", "second epoch", "(a)"]);
  assert.equal(scored[0].response_tokens, 12);
  assert.equal(scored[1].response_chars, 0);
  assert.equal(scored[1].correct, false); // "" is a wrong answer, not a missing one
  assert.equal(scored[3].correct, target("nycc", 9) === "(A)");
  assert.equal(rows.getColumn("target").get(0), target("linguini", 3));

  // the line labelled bbh forms the run's BBH summary (one row, quarantined)
  assert.deepEqual(
    runs.map((r) => [r.run, r.benchmark, r.model, r.rows_in, r.rows_scored, r.rows_quarantined]),
    [["model-x", "bbeh", "model-x", 20, 4, 16], ["model-x", "bbh", "model-x", 1, 0, 1]],
  );
  const [run] = runs;
  assert.deepEqual(Object.keys(run.tasks), ["linguini", "nycc", "temporal_sequence"]);
  assert.equal(run.tasks.linguini.n, 2);
  assert.equal(run.aggregate.coverage, "partial");
  assert.equal(run.aggregate.harmonic_mean, null);
});

dataTest("loadRuns: CSV target mismatch, runs from a directory tree", async (dataDir) => {
  const csv = await loadRuns([MIXED_CSV], dataDir);
  assert.match(reasons(csv.quarantine)[8], /^target "\(Z\)" differs .* for nycc\[5\]$/);
  assert.deepEqual(csv.rows.getColumn("source_line").toArray(), [2, 4, 6]);
  assert.deepEqual(csv.rows.getColumn("correct").toArray()[1], false);
  assert.deepEqual(
    csv.runs.map((r) => [r.run, r.model, r.rows_in, r.rows_scored, r.rows_quarantined]),
    [["model-y", "model-y", 7, 3, 4]],
  );

  const tree = await loadRuns([join(LOGS, "tree")], dataDir);
  assert.deepEqual(tree.quarantine, []);
  assert.deepEqual(
    tree.runs.map((r) => [r.run, r.model, r.rows_in, Object.keys(r.tasks)]),
    [
      ["alpha", "model-a", 2, ["boardgame_qa"]],
      ["b", "b", 2, ["sportqa"]],
      ["beta", "model-b", 2, ["web_of_lies"]], // two epochs of one example: both scored
    ],
  );
});

interface Example {
  task: string;
  example_index: number;
  input: string;
  target: string;
}

function examples(dataDir: string, tasks: string[]): Example[] {
  return loadBbehDataset(dataDir)
    .filter(pl.col("task").isIn(tasks))
    .select("task", "example_index", "input", "target")
    .toRecords() as unknown as Example[];
}

const LINGUINI_SHARED = [41, 121, 139, 146, 157, 159, 185];

dataTest("input matching: exact text within the task, ambiguous linguini, repeated spatial", (
  dataDir,
) =>
  withTempDir(async (dir) => {
    const all = examples(dataDir, ["linguini", "spatial_reasoning", "nycc"]);
    const answer = (e: Example) => `The answer is: ${e.target}`;
    // 1. every linguini and spatial example by input, no target
    const byInput = join(dir, "by_input.jsonl");
    const ls = all.filter((e) => e.task !== "nycc");
    Deno.writeTextFileSync(
      byInput,
      jsonl(ls.map((e) => ({ task: e.task, input: e.input, response: answer(e) }))),
    );
    // 2. the shared-input linguini examples with their target, in reverse order
    const withTarget = join(dir, "with_target.jsonl");
    const shared = LINGUINI_SHARED.map((i) =>
      ls.find((e) => e.task === "linguini" && e.example_index === i)!
    );
    Deno.writeTextFileSync(
      withTarget,
      jsonl(
        [...shared].reverse().map((e) => ({
          task: "Linguini",
          input: e.input,
          target: e.target,
          response: answer(e),
        })),
      ),
    );
    // 3. mismatches and duplicates
    const nycc = all.filter((e) => e.task === "nycc");
    const spatial65 = ls.find((e) => e.task === "spatial_reasoning" && e.example_index === 65)!;
    const odd = join(dir, "odd.jsonl");
    Deno.writeTextFileSync(
      odd,
      jsonl([
        { task: "linguini", input: ls[0].input, target: "not it", response: "x" }, // 1
        { task: "linguini", input: nycc[0].input, response: "x" }, // 2: other task's input
        { task: "nycc", example_index: 0, input: nycc[1].input, response: "x" }, // 3
        {
          task: "nycc",
          example_index: 0,
          input: nycc[0].input,
          target: nycc[0].target,
          response: "x",
        }, // 4
        { task: "nycc", input: nycc[2].input, response: "first" }, // 5
        { task: "nycc", input: nycc[2].input, response: "second" }, // 6: duplicate of 5
        { task: "spatial_reasoning", input: spatial65.input, response: "a" }, // 7 → 65
        { task: "spatial_reasoning", input: spatial65.input, response: "b" }, // 8 → 71
        { task: "spatial_reasoning", input: spatial65.input, response: "c" }, // 9: duplicate of 8
      ]),
    );

    const { rows, quarantine, runs } = await loadRuns([byInput, withTarget, odd], dataDir);
    const run = (name: string) => runs.find((r) => r.run === name)!;
    const rowsOf = (name: string) =>
      rows.filter(pl.col("run").eq(pl.lit(name)))
        .select("task", "example_index", "source_line", "response", "correct").toRecords();

    // 1: the 7 shared linguini inputs are ambiguous; everything else matches its own index
    const q1 = quarantine.filter((q) => q.file === byInput);
    assert.deepEqual(q1.map((q) => q.line), LINGUINI_SHARED.map((i) => i + 1));
    assert.equal(
      q1[0].reason,
      "ambiguous input: 7 examples of linguini (example_index 41, 121, 139, 146, 157, 159, " +
        "185) share it with different targets; give example_index or target",
    );
    const r1 = rowsOf("by_input");
    assert.equal(r1.length, 400 - 7);
    assert.ok(r1.every((r) =>
      r.source_line === ls.indexOf(
            ls.find((e) => e.task === r.task && e.example_index === r.example_index)!,
          ) + 1
    ));
    assert.equal(run("by_input").tasks.spatial_reasoning.correct, 200);
    assert.deepEqual(
      r1.filter((r) =>
        r.task === "spatial_reasoning" && [65, 71].includes(r.example_index as number)
      )
        .map((r) => r.example_index),
      [65, 71],
    );

    // 2: a target picks the example among those sharing the input
    assert.deepEqual(
      rowsOf("with_target").map((r) => [r.example_index, r.source_line, r.correct]),
      [...LINGUINI_SHARED].reverse().map((i, k) => [i, k + 1, true]),
    );

    // 3
    const q3 = reasons(quarantine.filter((q) => q.file === odd));
    assert.match(
      q3[1],
      /^target "not it" differs from the data set's target\(s\) ".*" for this input in linguini \(example_index 0\)$/,
    );
    assert.equal(
      q3[2],
      "input not found in linguini (no example has exactly this text, nor is one the question at its end)",
    );
    assert.equal(q3[3], "input differs from the data set's input for nycc[0]");
    assert.equal(q3[6], `duplicate of ${odd}:5 (same run, task, example_index and epoch)`);
    assert.equal(q3[9], `duplicate of ${odd}:8 (same run, task, example_index and epoch)`);
    assert.deepEqual(Object.keys(q3).map(Number), [1, 2, 3, 6, 9]);
    assert.deepEqual(
      rowsOf("odd").map((r) => [r.task, r.example_index, r.source_line, r.response]),
      [
        ["nycc", 0, 4, "x"],
        ["nycc", 2, 5, "first"],
        ["spatial_reasoning", 65, 7, "a"],
        ["spatial_reasoning", 71, 8, "b"],
      ],
    );
    for (const r of runs) assert.equal(r.rows_in, r.rows_scored + r.rows_quarantined);
  }));

Deno.test("quarantineText: all entries up to the limit, else counts and examples per kind", () => {
  const entries = Array.from({ length: 7 }, (_, i) => ({
    file: "a.jsonl",
    line: i + 1,
    reason: i === 3
      ? 'target "(B)" differs from the data set\'s "(A)"'
      : `example_index ${200 + i} out of range`,
  }));
  assert.deepEqual(
    quarantineText(entries, 7),
    entries.map((e) => `  a.jsonl:${e.line}: ${e.reason}`),
  );
  assert.deepEqual(quarantineText(entries, 6, 2), [
    "  6 × example_index N out of range",
    "    a.jsonl:1: example_index 200 out of range",
    "    a.jsonl:2: example_index 201 out of range",
    "    … 4 more (see --json)",
    '  1 × target "…" differs from the data set\'s "…"',
    '    a.jsonl:4: target "(B)" differs from the data set\'s "(A)"',
  ]);
});
