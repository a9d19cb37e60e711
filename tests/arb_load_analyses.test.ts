/**
 * ARB logs through the pipeline (quarantine, --map), analyses on a hand-computed fixture,
 * Pearson r, the CLI.
 */
import assert from "node:assert/strict";
import { arbAccuracy, arbUnparseable } from "@runlens/benchmarks/arb/accuracy.ts";
import { arbErrorTypes, arbRubricQuality } from "@runlens/benchmarks/arb/annotations.ts";
import { arbRubricScores, pearson } from "@runlens/benchmarks/arb/rubric_scores.ts";
import { wilsonInterval } from "@runlens/stats/wilson.ts";
import { loadCommand } from "@runlens/cli/runlens.ts";
import { runCommand } from "@runlens/core/command.ts";
import { loadArb } from "./_arb.ts";
import { arb } from "@runlens/benchmarks/arb/benchmark.ts";
import { resolveDataDir } from "@runlens/core/data_dir.ts";
import { parseColumnMap } from "@runlens/logs/mapped.ts";
import { planLoad } from "@runlens/pipeline/engine.ts";
import { type LoadOptions, loadRuns } from "@runlens/pipeline/load.ts";
import { resolveLoadPlan } from "@runlens/pipeline/load_plan.ts";

const arbMain = async (args: string[]) => runCommand((await loadCommand("arb"))!, args);

const DIR = new URL("./fixtures/arb/", import.meta.url).pathname;
const near = (a: unknown, b: number, what: string) =>
  assert.ok(typeof a === "number" && Math.abs(a - b) < 1e-9, `${what}: ${a} ≠ ${b}`);

Deno.test("malformed rows are quarantined with file, line and reason", async () => {
  const file = `${DIR}malformed.jsonl`;
  const log = await loadArb([file]);
  assert.equal(log.rowsIn, 8);
  assert.equal(log.rows.height, 1);
  assert.equal(log.rowsIn, log.rows.height + log.quarantine.length);
  const reasons = log.quarantine.map((q) => [q.line, q.reason]);
  const want: [number, RegExp][] = [
    [2, /malformed JSON/],
    [3, /^missing task \(ARB rows name theirs\)$/], // the subject is ARB's task
    [4, /unknown answer_type "essay"/],
    [5, /reference "n\/a" is not a number/],
    [6, /human_score "high" is not a number/],
    [7, /^duplicate of .*malformed\.jsonl:1 \(same run, task, example_id and epoch\)$/],
    [8, /^unsupported benchmark "bbeh" \(supported: arb\)/],
  ];
  assert.equal(reasons.length, want.length);
  want.forEach(([line, re], i) => {
    assert.equal(reasons[i][0], line);
    assert.match(String(reasons[i][1]), re);
    assert.equal(log.quarantine[i].file, file);
  });
  const row = log.rows.toRecords()[0];
  assert.equal(row.benchmark, "arb");
  assert.equal(row.example_index, null);
  assert.equal(row.example_id, "ok-1");
  assert.equal(row.run, "malformed");
  assert.equal(row.model, "malformed");
});

Deno.test("--map reads fields from other CSV columns; image flag from the type", async () => {
  const map = "id=problem_id,subject=subj,answer_type=kind,reference=gold,response=output";
  const log = await loadArb([`${DIR}mapped.csv`], map);
  assert.deepEqual(log.quarantine, []);
  const rows = log.rows.select(
    "example_id",
    "subject",
    "answer_type",
    "image",
    "correct",
    "scorer",
    "source_line",
  )
    .toRecords();
  assert.deepEqual(rows, [
    {
      example_id: "p1",
      subject: "mathematics",
      answer_type: "numerical",
      image: false,
      correct: true,
      scorer: "arb-numerical",
      source_line: 2,
    },
    {
      example_id: "p2",
      subject: "mcat-science",
      answer_type: "multiple-choice",
      image: true,
      correct: true,
      scorer: "arb-mcq",
      source_line: 4,
    },
  ]);
  // without --map its records carry no ARB fields: not an ARB log
  const unmapped = await loadArb([`${DIR}mapped.csv`]);
  assert.deepEqual([unmapped.files, unmapped.rows.height], [[], 0]);
});

Deno.test("analyses on the hand-computed fixture", async () => {
  const { rows } = await loadArb([`${DIR}analyses.jsonl`]);
  const acc = arbAccuracy(rows).toRecords();
  // physics numerical (101 vs 100 correct, 102 wrong), physics symbolic (x*x correct, one
  // unparsable LaTeX → manual), law (A ok, B no delimiter, D≠C, (D) ok).
  assert.deepEqual(
    acc.map((r) => [r.subject, r.answer_type, r.n, r.correct, r.unparseable, r.needs_manual]),
    [
      ["physics", "numerical", 2, 1, 0, 0],
      ["physics", "symbolic", 1, 1, 0, 1],
      ["law", "multiple-choice", 4, 2, 1, 0],
    ],
  );
  near(acc[2].accuracy, 50, "law accuracy");
  const ci = wilsonInterval(2, 4)!;
  near(acc[2].ci_low, ci.low, "law ci_low");
  near(acc[2].ci_high, ci.high, "law ci_high");
  near(acc[1].accuracy, 100, "symbolic accuracy");

  const unp = arbUnparseable(rows).toRecords();
  assert.deepEqual(unp.map((r) => [r.subject, r.n, r.unparseable]), [["physics", 4, 0], [
    "law",
    4,
    1,
  ]]);
  near(unp[1].rate, 25, "law unparseable rate");

  const err = arbErrorTypes(rows).toRecords();
  assert.equal(err.length, 2);
  const flags = [
    "misread",
    "wrong_approach",
    "logical_error",
    "arithmetic",
    "correct_answer",
    "correct_reasoning",
  ];
  assert.deepEqual(flags.map((f) => err[0][f]), [0, 50, 50, 100, 50, 0]); // physics numerical
  assert.deepEqual(flags.map((f) => err[1][f]), [50, 0, 0, 0, 50, 50]); // physics symbolic
  assert.deepEqual([err[0].n, err[1].n], [2, 2]);

  const q = arbRubricQuality(rows).toRecords();
  assert.equal(q.length, 1);
  assert.deepEqual(
    [q[0].answer_type, q[0].n, q[0].rubric_coverage, q[0].rubric_point_spread, q[0].extra_credit],
    ["symbolic", 2, 3.5, 4.5, 50],
  );
  assert.equal(q[0].alternative_solution, null);
  assert.equal(q[0].hallucinated_rubric, 50);

  const s = arbRubricScores(rows, ["model", "subject"]).toRecords();
  assert.equal(s.length, 1);
  // human [8, 2, 10, 3], model [9, 4, 10, 6]: means 5.75, 7.25; deviations give
  // Σdxdy = 31.25, Σdx² = 44.75, Σdy² = 22.75.
  near(s[0].human_mean, 5.75, "human mean");
  near(s[0].model_mean, 7.25, "model mean");
  near(s[0].pearson_r, 31.25 / Math.sqrt(44.75 * 22.75), "pearson r");
});

Deno.test("pearson reproduces Anscombe's quartet (r = 0.816, Anscombe 1973)", () => {
  const x = [10, 8, 13, 9, 11, 14, 6, 4, 12, 7, 5];
  const y1 = [8.04, 6.95, 7.58, 8.81, 8.33, 9.96, 7.24, 4.26, 10.84, 4.82, 5.68];
  const y2 = [9.14, 8.14, 8.74, 8.77, 9.26, 8.1, 6.13, 3.1, 9.13, 7.26, 4.74];
  // Independent computation: the textbook formula written out.
  const independent = (a: number[], b: number[]) => {
    const ma = a.reduce((s, v) => s + v, 0) / a.length,
      mb = b.reduce((s, v) => s + v, 0) / b.length;
    let sab = 0, saa = 0, sbb = 0;
    for (let i = 0; i < a.length; i++) {
      sab += (a[i] - ma) * (b[i] - mb);
      saa += (a[i] - ma) ** 2;
      sbb += (b[i] - mb) ** 2;
    }
    return sab / Math.sqrt(saa * sbb);
  };
  for (const y of [y1, y2]) {
    const r = pearson(x, y)!;
    assert.equal(r.toFixed(3), "0.816");
    near(r, independent(x, y), "pearson vs formula");
  }
  assert.equal(pearson([1, 1, 1], [1, 2, 3]), null);
  assert.equal(pearson([1], [2]), null);
});

Deno.test("runlens arb --json on the illustrative fixture", async () => {
  const lines: string[] = [];
  const log = console.log;
  console.log = (s: string) => lines.push(s);
  let code: number;
  try {
    code = await arbMain([`${DIR}illustrative`, "--json", "--benchmark", "arb"]);
  } finally {
    console.log = log;
  }
  assert.equal(code, 0);
  const report = JSON.parse(lines.join("\n"));
  assert.equal(report.rows_in, 44);
  assert.equal(report.rows_in, report.rows_scored + report.rows_quarantined);
  const lawB = report.unparseable.find((r: Record<string, unknown>) =>
    r.model === "illustrative-model-b" && r.subject === "law"
  );
  assert.equal(lawB.rate, 50);
  assert.equal(await arbMain(["--map", "nonsense=x", "a.jsonl"]), 2);
  assert.equal(await arbMain([`${DIR}illustrative`, "--benchmark", "bbeh"]), 2);
});

Deno.test("ARB's computer algebra is prepared only for loads that may hold ARB rows", async () => {
  const dataDir = resolveDataDir();
  const prepare = async (paths: string[], options: LoadOptions = {}) =>
    (await planLoad(paths, await resolveLoadPlan(dataDir, options))).setup.prepare;
  assert.deepEqual(await prepare(["tests/fixtures/logs/mixed.jsonl"]), []); // BBEH and BBH
  assert.deepEqual(await prepare([`${DIR}illustrative`]), ["arb"]); // subject and answer_type
  assert.deepEqual(await prepare(["tests/fixtures/logs/mixed.jsonl"], { benchmarks: ["arb"] }), [
    "arb",
  ]);
  // a CSV of other column names is ARB's by the --map names, without --benchmark arb
  const map = "id=problem_id,subject=subj,answer_type=kind,reference=gold,response=output";
  const options = { map: parseColumnMap(map, arb.recordFields) };
  assert.deepEqual(await prepare([`${DIR}mapped.csv`], options), ["arb"]);
  const loaded = await loadRuns([`${DIR}mapped.csv`], dataDir, options);
  assert.deepEqual(loaded.rows.select("benchmark", "scorer", "correct").toRecords(), [
    { benchmark: "arb", scorer: "arb-numerical", correct: true },
    { benchmark: "arb", scorer: "arb-mcq", correct: true },
  ]);
});
