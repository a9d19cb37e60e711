/**
 * A load restricted to some benchmarks (what a notebook analyses) hands on no row of another
 * benchmark, lists every left-out run with its rows, and still reconciles: each row kept is
 * scored or quarantined once, files' counts add up to the runs', and the restricted load can be
 * re-scored. Logs: the generated BBH + BBEH folder (tests/_notebook_logs.ts) and the hand-written
 * tests/fixtures/logs/mixed.jsonl (one run whose quarantined records belong to both).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type pl from "nodejs-polars";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { type LoadedRuns, loadRuns } from "@runlens/pipeline/load.ts";
import { keepBenchmarks } from "@runlens/pipeline/keep_benchmarks.ts";
import { rescore } from "@runlens/pipeline/rescore.ts";
import { defineScorer } from "@runlens/scorers/define.ts";
import { dataTest } from "./_data.ts";
import { PER_TASK, writeNotebookLogs } from "./_notebook_logs.ts";

const MIXED = join(REPO_ROOT, "tests", "fixtures", "logs", "mixed.jsonl");

/** Rows in = rows scored + quarantined, per run and overall; files add up to the runs. */
function assertReconciles(l: LoadedRuns): void {
  const sum = (k: "rows_in" | "rows_scored" | "rows_quarantined") =>
    l.runs.reduce((s, r) => s + r[k], 0);
  assert.equal(sum("rows_scored"), l.rows.height);
  assert.equal(sum("rows_quarantined"), l.quarantine.length);
  assert.equal(sum("rows_in"), l.rows.height + l.quarantine.length);
  assert.equal(l.fileSummaries.reduce((s, f) => s + f.rows_in, 0), sum("rows_in"));
  assert.deepEqual(l.fileSummaries.map((f) => f.file), l.files);
}

dataTest("keepBenchmarks: BBH and BBEH runs of one folder, each side alone", async (dataDir) => {
  const dir = Deno.makeTempDirSync();
  try {
    const logs = writeNotebookLogs(dataDir, join(dir, "logs"), "mixed");
    Deno.copyFileSync(MIXED, join(logs.dir, "mixed.jsonl"));
    const all = await loadRuns([logs.dir], dataDir);
    for (const [keep, other] of [["bbeh", "bbh"], ["bbh", "bbeh"]]) {
      const { loaded, skipped } = keepBenchmarks(all, [keep]);
      assertReconciles(loaded);
      assert.deepEqual(distinct(loaded.rows, "benchmark"), [keep]);
      assert.ok(loaded.runs.every((r) => r.benchmark === keep));
      assert.ok(skipped.every((s) => s.benchmark === other));
      // what was left out is what the whole load had of the other benchmark
      const left = all.runs.filter((r) => r.benchmark === other);
      assert.deepEqual(skipped.map((s) => [s.run, s.rows]), left.map((r) => [r.run, r.rows_in]));
      // nothing lost: kept + skipped = everything
      const kept = loaded.rows.height + loaded.quarantine.length;
      assert.equal(
        kept + skipped.reduce((s, x) => s + x.rows, 0),
        all.rows.height + all.quarantine.length,
      );
    }
    const bbeh = keepBenchmarks(all, ["bbeh"]);
    // the generated logs: 2 BBEH runs of 4 tasks × 12; the fixture's run has 20 BBEH records
    assert.deepEqual(
      bbeh.loaded.runs.map((r) => [r.run, r.rows_in]),
      [["model-x", 20], ["other-bbeh", 4 * PER_TASK], ["tiny-model-bbeh", 4 * PER_TASK]],
    );
    // the lm-eval run (3 BBH tasks × 12) and the fixture's one BBH record, quarantined
    assert.deepEqual(
      bbeh.skipped.map((s) => [s.run, s.rows, s.quarantined]),
      [["model-x", 1, 1], ["org__tiny-model_2025-02-02T10-00-00.000000", 3 * PER_TASK, 0]],
    );
    assert.ok(!bbeh.loaded.quarantine.some((q) => q.reason.includes("not a BBH task")));
    // the restricted load re-scores like any other
    const rule = defineScorer({
      name: "answer-line",
      benchmarks: ["bbeh"],
      extract: (response) => response.split("The answer is: ").at(-1) ?? null,
    });
    const again = rescore(bbeh.loaded, rule);
    assertReconciles(again);
    assert.deepEqual(again.runs.map((r) => r.run), bbeh.loaded.runs.map((r) => r.run));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

dataTest("keepBenchmarks: nothing to leave out, or an unknown benchmark", async (dataDir) => {
  const dir = Deno.makeTempDirSync();
  try {
    const logs = writeNotebookLogs(dataDir, dir, "bbeh");
    const all = await loadRuns([logs.dir], dataDir);
    const kept = keepBenchmarks(all, ["bbeh", "bbh"]);
    assert.equal(kept.loaded, all);
    assert.deepEqual(kept.skipped, []);
    assert.throws(() => keepBenchmarks(all, ["gsm9k"]), /no benchmark named "gsm9k"/);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

function distinct(df: pl.DataFrame, column: string): unknown[] {
  return df.getColumn(column).unique().sort().toArray();
}
