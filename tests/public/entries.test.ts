/**
 * One end-to-end use of each public entry, through the entries only (`runlens/<entry>`, as a
 * user's script or notebook imports them): load a fixture log, score it with a rule of one's
 * own, an interval, a figure file, a report document, a benchmark's analysis and a paired
 * comparison. Nothing here reaches a private module (tests/imports.test.ts checks it).
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import pl from "nodejs-polars";
import { type LoadedRuns, loadRuns, resolveDataDir, runsText } from "runlens/load";
import { defineScorer, rescore } from "runlens/score";
import { wilsonInterval, Z95 } from "runlens/stats";
import { compareRuns } from "runlens/analyses";
import { saveFigure, taskIntervalFigure, writeTable } from "runlens/figures";
import { buildReport, writeReport } from "runlens/report";
import { bbh } from "runlens/benchmarks";

const FIXTURE = "tests/fixtures/logs/bbh/canonical.jsonl";
const dataDir = resolveDataDir();
// the tests load a log against the data sets: without them (and outside CI) they are skipped,
// as tests/_data.ts's dataTest does for the rest of the suite
const noData = !existsSync(dataDir) && Deno.env.get("CI") !== "true";
/** A test that needs the data sets. */
const dataTest = (name: string, fn: () => void | Promise<void>) =>
  Deno.test({ name, ignore: noData, fn });
const lines = Deno.readTextFileSync(FIXTURE).split("\n").filter((l) => l.trim() !== "");

/** The fixture as two runs on the same examples: `a` as written, `b` answering (Z) to all. */
function twoRuns(dir: string): string {
  const file = join(dir, "two_runs.jsonl");
  const records = lines.map((l) => JSON.parse(l));
  Deno.writeTextFileSync(
    file,
    [
      ...records.map((r) => ({ ...r, run: "a" })),
      ...records.map((r) => ({ ...r, run: "b", response: "So the answer is (Z)." })),
    ].map((r) => JSON.stringify(r)).join("\n") + "\n",
  );
  return file;
}

const tmp = Deno.makeTempDirSync();
let loaded: LoadedRuns;

dataTest("runlens/load: every line of the fixture is a scored or a quarantined row", async () => {
  loaded = await loadRuns([FIXTURE], dataDir);
  const inRows = loaded.runs.reduce((s, r) => s + r.rows_in, 0);
  assert.equal(inRows, lines.length);
  assert.equal(loaded.rows.height + loaded.quarantine.length, lines.length);
  assert.ok(loaded.quarantine.every((q) => q.reason.length > 0));
  assert.match(runsText(loaded), /run bbh-canon/);
});

dataTest("runlens/score: a rule of one's own re-scores the loaded rows", () => {
  const never = defineScorer({ name: "never-answers", extract: () => null });
  const again = rescore(loaded, never);
  assert.equal(again.rows.height, loaded.rows.height);
  assert.deepEqual(again.rows.getColumn("scorer").unique().toArray(), ["never-answers"]);
  assert.equal(again.rows.filter(pl.col("correct")).height, 0);
});

dataTest("runlens/stats: the Wilson interval of the loaded accuracy, by its formula", () => {
  const n = loaded.rows.height;
  const k = loaded.rows.filter(pl.col("correct")).height;
  const ci = wilsonInterval(k, n)!;
  // Wilson (1927): (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)
  const [p, z] = [k / n, Z95];
  const centre = (p + z * z / (2 * n)) / (1 + z * z / n);
  const half = z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
  assert.ok(Math.abs(ci.low - 100 * (centre - half)) < 1e-9);
  assert.ok(Math.abs(ci.high - 100 * (centre + half)) < 1e-9);
});

dataTest("runlens/figures: a figure's SVG and PNG files and a table's files", () => {
  const rows = [{ run: "a", task: "snarks", accuracy: 50.5, ci_low: 9.5, ci_high: 90.5 }];
  const { svg, png } = saveFigure(taskIntervalFigure(rows), tmp, "fig");
  assert.match(Deno.readTextFileSync(svg), /^<svg[^>]* xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
  const signature = Deno.readFileSync(png).slice(0, 8);
  assert.deepEqual([...signature], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  const paths = writeTable(rows, tmp, "table", { digits: 1 });
  assert.equal(
    Deno.readTextFileSync(paths.csv),
    "run,task,accuracy,ci_low,ci_high\na,snarks,50.5,9.5,90.5\n",
  );
});

dataTest("runlens/report: a report document of the loaded runs, written as a page", async () => {
  const doc = await buildReport(loaded, { dataDir, command: "tests/public" });
  const files = writeReport(doc, join(tmp, "report"));
  assert.ok(files.includes("report.html") && files.includes("report.md"));
  assert.match(Deno.readTextFileSync(join(tmp, "report", "report.md")), /bbh-canon/);
});

dataTest(
  "runlens/benchmarks and runlens/analyses: BBH aggregates, and two runs paired",
  async () => {
    // a few examples of 6,511: BBH's micro average is withheld, and the note says why
    const agg = bbh.bbhAggregate(loaded.rows);
    assert.equal(agg.coverage, "partial");
    assert.equal(agg.micro, null);
    assert.ok(agg.note);
    const two = await loadRuns([twoRuns(tmp)], dataDir);
    const [cmp] = compareRuns(two.rows, "a", "b");
    const a = two.rows.filter(pl.col("run").eq(pl.lit("a")));
    const accA = 100 * a.filter(pl.col("correct")).height / a.height;
    assert.ok(accA > 0, "the fixture run answers some examples right");
    assert.equal(cmp.overall.n_paired, a.height);
    assert.ok(Math.abs(cmp.overall.acc_a - accA) < 1e-9);
    assert.equal(cmp.overall.acc_b, 0); // (Z) is no option of these tasks
    assert.equal(cmp.overall.b_only, 0);
  },
);

Deno.test("cleanup", () => Deno.removeSync(tmp, { recursive: true }));
