/**
 * Columns chosen by each row's own evidence (issue 22, item 4: `pipeline/columns.ts`,
 * `pipeline/field_choice.ts`), on logs generated here from the BBH release: direct-answer runs
 * (the model's answer a target of the task, right on 30–90% of rows, decided by a seeded
 * generator) written as headerless per-task CSVs in every order of question, response and
 * target; folders where some or all files are right on every sampled row; a folder with one
 * file of another order; JSON-lines logs whose names leave the choice open; a CSV header of
 * names runlens does not know. Each comes out with the columns it was written with and the
 * counts it was generated with (not values read back from the code), the folder's decision said
 * once; a file the choice leaves mostly "target differs" — through detection or `--map` — is an
 * error naming the columns tried, never a table of 100% accuracies.
 * @module
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import { chooseColumns, evidenceText } from "@runlens/pipeline/columns.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { runsText } from "@runlens/report/runs_text.ts";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { readBbhExamples } from "./_examples.ts";
import { withTempDir } from "./_tmp.ts";
import { Rng } from "./fuzz/rng.ts";

const TASKS = [
  "navigate",
  "date_understanding",
  "object_counting",
  "word_sorting",
  "boolean_expressions",
  "formal_fallacies",
  "hyperbaton",
  "dyck_languages",
];

/** One generated row: the question, the model's direct answer, the target, and whether right. */
interface Row {
  input: string;
  response: string;
  target: string;
  right: boolean;
}

/**
 * A direct-answer run of `task`: right with probability `accuracy`, and on every row before
 * `rightFirst`; a wrong answer is another target of the task.
 */
function directRun(
  data: string,
  task: string,
  accuracy: number,
  seed: number,
  rightFirst = 0,
): Row[] {
  const examples = readBbhExamples(data)[task];
  const targets = [...new Set(examples.map((e) => e.target))].sort();
  const rng = new Rng(seed); // the same logs on every run
  return examples.map((e, i) => {
    const right = i < rightFirst || rng.next() < accuracy;
    const others = targets.filter((t) => t !== e.target);
    const response = right ? e.target : others[Math.floor(rng.next() * others.length)];
    return { input: e.input, response, target: e.target, right };
  });
}

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;

/** Write rows as a headerless CSV with the columns in `order` (e.g. `irt`). */
function writeCsv(path: string, rows: readonly Row[], order: string): void {
  const cell = { i: "input", r: "response", t: "target" } as const;
  const line = (r: Row) => [...order].map((c) => quote(r[cell[c as keyof typeof cell]])).join(",");
  Deno.writeTextFileSync(path, rows.map(line).join("\n") + "\n");
}

/** What `order` says of each column, as `fields` reports it. */
function columnsOf(order: string): Record<string, string> {
  return {
    input: `column ${order.indexOf("i")}`,
    response: `column ${order.indexOf("r")}`,
    target: `column ${order.indexOf("t")}`,
  };
}

/** A folder of one headerless CSV per task; the generated rows by task. */
function writeFolder(
  data: string,
  dir: string,
  order: string,
  options: { rightFirst?: (k: number) => number; seed?: number } = {},
): Map<string, Row[]> {
  Deno.mkdirSync(dir, { recursive: true });
  const out = new Map<string, Row[]>();
  TASKS.forEach((task, k) => {
    const accuracy = 0.3 + 0.6 * k / (TASKS.length - 1); // 30% … 90%
    const rows = directRun(
      data,
      task,
      accuracy,
      (options.seed ?? 1) * 100 + k,
      options.rightFirst?.(k),
    );
    writeCsv(join(dir, `${task}.csv`), rows, order);
    out.set(task, rows);
  });
  return out;
}

/** Each task's n and correct as generated. */
function expected(runs: Map<string, Row[]>): Record<string, [number, number]> {
  return Object.fromEntries(
    [...runs].map(([task, rows]) => [task, [rows.length, rows.filter((r) => r.right).length]]),
  );
}

type Loaded = Awaited<ReturnType<typeof loadRuns>>;

/** Each task's n and correct as scored (one run). */
function scored(loaded: Loaded): Record<string, [number, number]> {
  assert.equal(loaded.runs.length, 1);
  return Object.fromEntries(
    Object.entries(loaded.runs[0].tasks).map(([task, t]) => [task, [t.n, t.correct]]),
  );
}

// ---------------------------------------------------------------------------------------------
// the rule on hand-made tables

Deno.test("chooseColumns: the target is the column equal to each row's own target", () => {
  const examples: Record<string, string> = {
    "Q1?": "(A)",
    "Q2?": "(B)",
    "Q3?": "(C)",
    "Q4?": "(A)",
  };
  const lookup = { targetsOf: (s: string) => examples[s] ? [examples[s]] : null };
  const base = [["Q1?", "(A)", "(A)"], ["Q2?", "(B)", "(C)"], ["Q3?", "(C)", "(A)"], [
    "Q4?",
    "(A)",
    "(A)",
  ]];
  // every order of question, target, answer
  for (const perm of [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]]) {
    const rows = base.map((r) => perm.map((p) => r[p]));
    const c = chooseColumns({ columns: [0, 1, 2], rows }, lookup);
    assert.equal(c.kind, "chosen");
    if (c.kind !== "chosen") continue;
    assert.deepEqual([c.input, c.target, c.response], [
      perm.indexOf(0),
      perm.indexOf(1),
      perm.indexOf(2),
    ]);
    assert.deepEqual([c.evidence.matches, c.evidence.identified], [4, 4]);
  }
  // a bare letter is the multiple-choice target `(B)`
  const letters = base.map((r) => [r[0], r[2], r[1].slice(1, 2)]);
  const c = chooseColumns({ columns: [0, 1, 2], rows: letters }, lookup);
  assert.ok(c.kind === "chosen" && c.target === 2 && c.response === 1);
  // right on every row: a tie, then the later column, said with the remedy
  const right = base.map((r) => [r[0], r[1], r[1]]);
  assert.deepEqual(chooseColumns({ columns: [0, 1, 2], rows: right }, lookup).kind, "tie");
  const settled = chooseColumns({ columns: [0, 1, 2], rows: right }, lookup, { final: true });
  assert.ok(settled.kind === "chosen");
  assert.deepEqual([settled.target, settled.response, settled.evidence.tiedWith], [2, 1, 1]);
  assert.equal(
    evidenceText(settled, (k) => `column ${k}`, "column", "; REMEDY"),
    "column 1 and column 2 both equal each row's data-set target on 4 of 4 sampled rows, so " +
      "the response cannot be told from the target (a model right on every row read?); column " +
      "2 taken as the target; REMEDY",
  );
  // question and answer only: the answer is the response, there is no target
  const two = chooseColumns({ columns: [0, 1], rows: base.map((r) => [r[0], r[1]]) }, lookup);
  assert.ok(two.kind === "chosen" && two.response === 1 && two.target === null);
  // no column is right on most rows: no target, the longest other column is the response
  const noTarget = base.map((r, i) => [r[0], i === 0 ? "(A)" : "(Z)", `long answer ${i}`]);
  const nt = chooseColumns({ columns: [0, 1, 2], rows: noTarget }, lookup);
  assert.ok(nt.kind === "chosen" && nt.target === null && nt.response === 2);
  assert.match(evidenceText(nt, (k) => `column ${k}`), /^no target column: none equals/);
  // no question column
  assert.equal(chooseColumns({ columns: [0, 1], rows: [["x", "y"]] }, lookup).kind, "unknown");
});

// ---------------------------------------------------------------------------------------------
// headerless CSV folders

dataTest(
  "headerless direct-answer CSVs in every column order: the columns they were written with",
  async (
    data,
  ) => {
    await withTempDir(async (dir) => {
      for (const [k, order] of ["irt", "itr", "rit", "rti", "tir", "tri"].entries()) {
        const folder = join(dir, `direct_${order}`);
        const runs = writeFolder(data, folder, order, { seed: k + 1 });
        const loaded = await loadRuns([folder], data);
        assert.deepEqual(loaded.errors, [], order);
        assert.deepEqual(loaded.quarantine, [], order);
        assert.deepEqual(scored(loaded), expected(runs), order);
        for (const f of loaded.fileSummaries) {
          assert.deepEqual(f.fields, columnsOf(order), `${order} ${f.file}`);
          assert.equal(
            f.fields_evidence,
            `target column equals each row's data-set target on ${21 * TASKS.length} of ` +
              `${21 * TASKS.length} sampled rows`,
          );
        }
        // said once for the folder
        const text = runsText(loaded);
        const said = `  ${TASKS.length} files in ${folder}/: ` +
          Object.entries(columnsOf(order)).map(([f, c]) => `${f} ← ${c}`).join(", ") +
          ` (target column equals each row's data-set target on ${21 * TASKS.length} of ` +
          `${21 * TASKS.length} sampled rows)`;
        assert.ok(text.split("\n").includes(said), text.slice(0, 800));
        assert.ok(!text.includes("fields of "), order);
      }
    });
  },
);

dataTest("some files right on every sampled row: the folder's pooled rows decide them", async (
  data,
) => {
  await withTempDir(async (dir) => {
    const folder = join(dir, "mixed_sample");
    // every other file right on its first 40 rows (the sample is 21)
    const runs = writeFolder(data, folder, "itr", { rightFirst: (k) => k % 2 === 0 ? 40 : 0 });
    const loaded = await loadRuns([folder], data);
    assert.deepEqual([loaded.errors, loaded.quarantine], [[], []]);
    assert.deepEqual(scored(loaded), expected(runs));
    for (const f of loaded.fileSummaries) assert.deepEqual(f.fields, columnsOf("itr"));
  });
});

dataTest("every file right on every sampled row: more rows are read, and they decide", async (
  data,
) => {
  await withTempDir(async (dir) => {
    const folder = join(dir, "all_right_sample");
    const runs = writeFolder(data, folder, "itr", { rightFirst: () => 40 });
    const loaded = await loadRuns([folder], data);
    assert.deepEqual([loaded.errors, loaded.quarantine], [[], []]);
    assert.deepEqual(scored(loaded), expected(runs));
    const rows = [...runs.values()].reduce((n, r) => n + r.length, 0);
    for (const f of loaded.fileSummaries) {
      assert.deepEqual(f.fields, columnsOf("itr"));
      // the whole files were read: every row's question was found
      assert.equal(
        f.fields_evidence,
        `target column equals each row's data-set target on ${rows} of ${rows} sampled rows`,
      );
    }
    // one file alone, too
    const single = join(folder, "navigate.csv");
    const one = await loadRuns([single], data);
    assert.deepEqual(one.fileSummaries[0].fields, columnsOf("itr"));
    assert.deepEqual(scored(one), { navigate: expected(runs).navigate });
  });
});

dataTest("a model right on every row: the tie is said, with the --map that chooses", async (
  data,
) => {
  await withTempDir(async (dir) => {
    const folder = join(dir, "perfect");
    const runs = writeFolder(data, folder, "irt", { rightFirst: () => 1000 });
    const loaded = await loadRuns([folder], data);
    assert.deepEqual(scored(loaded), expected(runs)); // 100% either way: the columns are equal
    const rows = [...runs.values()].reduce((n, r) => n + r.length, 0);
    const why = loaded.fileSummaries[0].fields_evidence;
    assert.equal(
      why,
      `column 1 and column 2 both equal each row's data-set target on ${rows} of ${rows} ` +
        "sampled rows, so the response cannot be told from the target (a model right on every " +
        "row read?); column 2 taken as the target; to take column 1 as the target instead: " +
        "--map input=0,response=2,target=1",
    );
    assert.ok(runsText(loaded).includes(`${TASKS.length} files in ${folder}/: `));
  });
});

dataTest("one file of another column order in a folder is decided by its own rows", async (
  data,
) => {
  await withTempDir(async (dir) => {
    const folder = join(dir, "one_odd");
    const runs = writeFolder(data, folder, "irt");
    const odd = directRun(data, "web_of_lies", 0.6, 77);
    writeCsv(join(folder, "web_of_lies.csv"), odd, "itr");
    runs.set("web_of_lies", odd);
    const loaded = await loadRuns([folder], data);
    assert.deepEqual([loaded.errors, loaded.quarantine], [[], []]);
    assert.deepEqual(scored(loaded), expected(runs));
    for (const f of loaded.fileSummaries) {
      const order = basename(f.file) === "web_of_lies.csv" ? "itr" : "irt";
      assert.deepEqual(f.fields, columnsOf(order), f.file);
    }
    const lines = runsText(loaded).split("\n");
    assert.ok(lines.some((l) => l.startsWith(`  ${TASKS.length} files in ${folder}/: `)));
    assert.ok(lines.some((l) => l.startsWith(`  fields of ${join(folder, "web_of_lies.csv")}: `)));
  });
});

// ---------------------------------------------------------------------------------------------
// names that leave the choice open

dataTest("JSON lines whose names leave the choice open: each row's own target decides", async (
  data,
) => {
  const rows = directRun(data, "date_understanding", 0.45, 5);
  const right = rows.filter((r) => r.right).length;
  const cases: [string, (r: Row) => Record<string, string>, Record<string, string>][] = [
    // `answer` is the gold, `label` the model's (names alone take it the other way round)
    [
      "answer_gold",
      (r) => ({ question: r.input, answer: r.target, label: r.response }),
      { response: "label", input: "question", target: "answer" },
    ],
    [
      "label_gold",
      (r) => ({ question: r.input, answer: r.response, label: r.target }),
      { response: "answer", input: "question", target: "label" },
    ],
    [
      "model_answer",
      (r) => ({ question: r.input, model_answer: r.response, answer: r.target }),
      { response: "model_answer", input: "question", target: "answer" },
    ],
    // names runlens does not know
    ["unknown", (r) => ({ q: r.input, x: r.target, y: r.response }), {
      response: "y",
      input: "q",
      target: "x",
    }],
  ];
  await withTempDir(async (dir) => {
    for (const [name, record, fields] of cases) {
      const path = join(dir, `${name}_date_understanding.jsonl`);
      Deno.writeTextFileSync(path, rows.map((r) => JSON.stringify(record(r))).join("\n") + "\n");
      const loaded = await loadRuns([path], data);
      assert.deepEqual([loaded.errors, loaded.quarantine], [[], []], name);
      assert.deepEqual(loaded.fileSummaries[0].fields, fields, name);
      assert.match(loaded.fileSummaries[0].fields_evidence ?? "", /^target field equals/, name);
      assert.deepEqual(scored(loaded), { date_understanding: [250, right] }, name);
    }
  });
});

dataTest("a CSV header of names runlens does not know: columns by content, read by name", async (
  data,
) => {
  const rows = directRun(data, "hyperbaton", 0.7, 9);
  await withTempDir(async (dir) => {
    const path = join(dir, "hyperbaton.csv");
    const body = rows.map((r) => [r.response, r.input, r.target].map(quote).join(","));
    Deno.writeTextFileSync(path, ["pred,prompt_text,gold_letter", ...body].join("\n") + "\n");
    const loaded = await loadRuns([path], data);
    assert.deepEqual([loaded.errors, loaded.quarantine], [[], []]);
    assert.deepEqual(loaded.fileSummaries[0].fields, {
      response: "pred",
      input: "prompt_text",
      target: "gold_letter",
    });
    assert.deepEqual(scored(loaded), { hyperbaton: [250, rows.filter((r) => r.right).length] });
  });
});

// ---------------------------------------------------------------------------------------------
// refusal

dataTest("a file the folder's choice leaves mostly 'target differs' is an error, not 100%", async (
  data,
) => {
  await withTempDir(async (dir) => {
    const folder = join(dir, "hidden_swap");
    const runs = writeFolder(data, folder, "irt");
    // another order, right on its whole sample: its own rows cannot tell, the folder's decide
    const odd = directRun(data, "web_of_lies", 0.3, 3, 40);
    const oddPath = join(folder, "web_of_lies.csv");
    writeCsv(oddPath, odd, "itr");
    const loaded = await loadRuns([folder], data);
    assert.equal(loaded.errors.length, 1);
    assert.equal(loaded.errors[0].file, oddPath);
    const differ = odd.filter((r) => !r.right).length;
    assert.ok(differ > odd.length / 2);
    assert.equal(
      loaded.errors[0].reason,
      `not scored: the target of ${differ} of ${odd.length} rows differs from the data set's ` +
        "with the columns tried (input ← column 0, response ← column 1, target ← column 2): " +
        "they are likely wrong (scored, only the rows the model got right would remain, each " +
        "correct); check the file, and choose the columns with --map, e.g. --map " +
        "input=0,response=2,target=1",
    );
    // nothing of it is scored or quarantined; the other files are, in full
    assert.ok(loaded.quarantine.every((q) => q.file !== oddPath));
    assert.deepEqual(scored(loaded), expected(runs));
    assert.equal(loaded.runs[0].rows_in, [...runs.values()].reduce((n, r) => n + r.length, 0));
  });
});

dataTest("score: a --map that leaves most targets differing exits 1 naming the file", async (
  data,
) => {
  await withTempDir(async (dir) => {
    const rows = directRun(data, "navigate", 0.4, 11);
    const path = join(dir, "navigate.csv");
    writeCsv(path, rows, "irt");
    const env = { RUNLENS_DATA: data };
    const swapped = await runCli(
      ["score", path, "--map", "input=0,response=2,target=1", "--no-cache"],
      { env },
    );
    assert.equal(swapped.code, 1, swapped.stderr);
    const differ = rows.filter((r) => !r.right).length;
    assert.ok(
      swapped.stderr.includes(
        `runlens score: ${path}: not scored: the target of ${differ} of 250 rows differs from ` +
          "the data set's with the columns tried (input ← column 0, response ← column 2, " +
          "target ← column 1)",
      ),
      swapped.stderr,
    );
    assert.ok(!swapped.stdout.includes("100.00"), swapped.stdout);
    // the right map, and no map: scored
    for (const args of [["--map", "input=0,response=1,target=2"], []]) {
      const ok = await runCli(["score", path, "--json", "--no-cache", ...args], { env });
      assert.equal(ok.code, 0, ok.stderr);
      const report = JSON.parse(ok.stdout);
      assert.deepEqual(report.runs[0].tasks.navigate.correct, 250 - differ);
    }
  });
});
