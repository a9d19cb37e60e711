/**
 * `deno task main --logs DIR` with BBH logs, BBEH logs and both mixed runs every notebook
 * (issue 24): each notebook is executed as the main job executes it (same environment), on a
 * small logs folder generated from the data sets (tests/_notebook_logs.ts: an lm-eval BBH run of
 * one model, canonical BBEH logs of it and of a second model). Each must succeed, skip nothing,
 * open on its headline, analyse only its own benchmarks' rows and list the others as skipped.
 */
import assert from "node:assert/strict";
import { basename, join } from "node:path";
import pl from "nodejs-polars";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { listNotebooks } from "@runlens/cli/main.ts";
import type { NotebookRun } from "@runlens/notebook/execute.ts";
import { dataTest } from "./_data.ts";
import { openingProblem, withNotebookCopy } from "./_notebook.ts";
import { type LogsKind, PER_TASK, writeNotebookLogs } from "./_notebook_logs.ts";

/** The lm-eval run's name: its model folder and date (lm-eval's reader names it). */
const BBH_RUN = "org__tiny-model_2025-02-02T10-00-00.000000";
/** 3 tasks × 12 examples. */
const bbhSkipped = (analyses: string) =>
  `skipped: 36 BBH rows of run ${BBH_RUN} — this notebook analyses ${analyses}`;

const readCsv = (out: string, name: string) =>
  pl.readCSV(Deno.readTextFileSync(join(out, "results", `${name}.csv`)));
const exists = (path: string) => {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
};
const committed = (file: string) => Deno.readTextFileSync(join(REPO_ROOT, file));
/** Right answers of the first 12 examples of a task as the logs answer them (2 of 3). */
const RIGHT = Array.from({ length: PER_TASK }, (_, i) => i % 3 !== 2).filter((r) => r).length;

/** What each notebook must show with `kind` logs, given its run and output folder. */
const CHECKS: Record<string, (kind: LogsKind, run: NotebookRun, out: string) => void> = {
  "01_bbeh_leaderboard.ipynb": (kind, run, out) => {
    if (kind === "bbh") {
      assert.ok(run.stdout.includes(bbhSkipped("BBEH")), run.stdout);
      // nothing of the BBH run reaches the leaderboard: the published one, byte for byte
      assert.equal(
        Deno.readTextFileSync(join(out, "results", "bbeh_leaderboard.csv")),
        committed("results/bbeh_leaderboard.csv"),
      );
      return;
    }
    if (kind === "mixed") assert.ok(run.stdout.includes(bbhSkipped("BBEH")), run.stdout);
    const runs = readCsv(out, "bbeh_leaderboard").filter(pl.col("source").str.startsWith("run "));
    assert.deepEqual(runs.getColumn("source").toArray().sort(), [
      "run other-bbeh (partial: 48/4520 examples)",
      "run tiny-model-bbeh (partial: 48/4520 examples)",
    ]);
    const dyck = runs.filter(pl.col("source").str.contains("tiny-model-bbeh"))
      .getColumn("dyck_languages").get(0);
    assert.equal(dyck, Math.round(RIGHT / PER_TASK * 1000) / 10); // 66.7
  },
  "02_bbeh_failure_modes.ipynb": (kind, run, out) => {
    if (kind === "bbh") {
      assert.ok(run.stdout.includes(bbhSkipped("BBEH")), run.stdout);
      assert.match(run.stdout, /holds no BBEH runs: generated the SYNTHETIC demo run set/);
      // the demo, as the main job without logs commits it
      assert.equal(
        Deno.readTextFileSync(join(out, "results", "bbeh_failure_headline.csv")),
        committed("results/bbeh_failure_headline.csv"),
      );
      return;
    }
    const tasks = readCsv(out, "bbeh_failure_belowRandom").getColumn("task").toArray();
    assert.deepEqual(
      [...new Set(tasks)].sort(),
      ["boardgame_qa", "dyck_languages", "linguini", "object_counting"],
    );
    const runs = readCsv(out, "bbeh_failure_response_lengths").getColumn("run").toArray();
    assert.deepEqual([...new Set(runs)].sort(), ["other-bbeh", "tiny-model-bbeh"]);
  },
  "03_first_mistakes.ipynb": (kind, run, out) => {
    const outcomes = join(out, "results", "bbm_run_outcomes.csv");
    if (kind === "bbh") {
      assert.ok(run.stdout.includes(bbhSkipped("BIG-Bench Mistake and BBEH")), run.stdout);
      assert.ok(!exists(outcomes), "no first-mistake answers in BBH logs");
      return;
    }
    // every dyck_languages answer of the two BBEH runs, classified once
    const n = readCsv(out, "bbm_run_outcomes").getColumn("n").toArray() as number[];
    assert.equal(n.reduce((a, b) => a + b, 0), 2 * PER_TASK);
  },
  "04_bbh_vs_bbeh.ipynb": (kind, run, out) => {
    if (kind !== "mixed") {
      assert.match(run.stdout, /no model has both a BBH and a BBEH run/);
      return;
    }
    const t10 = readCsv(out, "bbh_table10_runs").filter(pl.col("bbh_n").gt(0));
    assert.deepEqual(t10.select("model", "task", "bbh_n", "bbeh_n").toRecords(), [
      { model: "org/tiny-model", task: "dyck_languages", bbh_n: 12, bbeh_n: 12 },
      { model: "org/tiny-model", task: "object_counting", bbh_n: 12, bbeh_n: 12 },
      // snarks' successor: the logs have no BBEH run of it
      { model: "org/tiny-model", task: "sarc_triples", bbh_n: 12, bbeh_n: null },
    ]);
  },
  "05_arb.ipynb": (kind, run) => {
    const files = { bbh: 3, bbeh: 2, mixed: 5 }[kind];
    assert.match(run.stdout, new RegExp(`skipped: ${files} log files that are not ARB logs`));
    assert.match(run.stdout, /showing the ILLUSTRATIVE FIXTURE DATA/);
  },
};

for (const kind of ["bbh", "bbeh", "mixed"] as const) {
  dataTest(`every notebook runs with ${kind} logs in the logs directory`, async (dataDir) => {
    const logs = Deno.makeTempDirSync({ prefix: `runlens_nb_${kind}_` });
    try {
      writeNotebookLogs(dataDir, logs, kind);
      for (const name of listNotebooks().map((p) => basename(p))) {
        const check = CHECKS[name];
        assert.ok(check, `${name}: no check for this notebook`);
        await withNotebookCopy(
          name,
          { RUNLENS_DATA: dataDir, RUNLENS_LOGS: logs },
          (run, out, path) => {
            assert.ok(run.ok, `${name}: ${run.stderr}`);
            assert.deepEqual(run.skipped, [], `${name} skipped steps`);
            assert.equal(openingProblem(path), null, name);
            check(kind, run, out);
          },
        );
      }
    } finally {
      Deno.removeSync(logs, { recursive: true });
    }
  });
}
