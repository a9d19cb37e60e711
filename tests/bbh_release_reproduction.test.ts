/**
 * The key verification (data-backed): re-scoring the BBH release's code-davinci-002 outputs
 * with `bbh-release-cot` / `bbh-release-direct` reproduces ALL 54 published accuracies
 * (`_eval_metrics.jsonl`, field `accuracy`) exactly, as float64 numbers. Every other scorer
 * is run on the same 13,022 rows through scoreFrame and called directly (equal on every row); their
 * accuracies are printed for information, not asserted.
 * @module
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { join } from "node:path";
import {
  BBH_RELEASE_RUNS,
  findBbhOutputsDir,
  loadBbhReleaseOutputs,
} from "@runlens/benchmarks/bbh/release_outputs.ts";
import { discover } from "@runlens/logs/discover.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import {
  readBbhPublishedAccuracies,
  releaseAccuracy,
} from "@runlens/benchmarks/bbh/release_metrics.ts";
import { getScorer, logFormats, SCORERS } from "@runlens/benchmarks/registry.ts";
import { scoreFrame } from "@runlens/scorers/frame.ts";
import { appliesTo } from "@runlens/scorers/types.ts";
import { dataTest } from "./_data.ts";

/** correct / n per (run, task) of a scored frame. */
function tally(scored: pl.DataFrame): Map<string, { correct: number; n: number }> {
  const agg = scored.groupBy(["run", "task"]).agg(
    pl.col("correct").cast(pl.Int32).sum().alias("c"),
    pl.col("correct").count().alias("n"),
  );
  const out = new Map<string, { correct: number; n: number }>();
  for (const r of agg.toRecords() as { run: string; task: string; c: number; n: number }[]) {
    out.set(`${r.run}/${r.task}`, { correct: r.c, n: r.n });
  }
  return out;
}

dataTest(
  "BBH release: bbh-release-cot/-direct reproduce all 54 published accuracies exactly",
  (dir) => {
    const { rows, quarantine } = loadBbhReleaseOutputs(dir);
    assert.deepEqual(quarantine, []);
    const published = readBbhPublishedAccuracies(dir);
    assert.equal(published.length, 54);
    const counts = new Map<string, { correct: number; n: number }>();
    for (const r of BBH_RELEASE_RUNS) {
      const part = rows.filter(pl.col("run").eq(pl.lit(r.run)));
      for (const [k, v] of tally(scoreFrame(part.lazy(), getScorer(r.scorer)))) counts.set(k, v);
    }
    const misses = published.filter((p) => {
      const c = counts.get(`${p.run}/${p.task}`)!;
      return releaseAccuracy(c.correct, c.n) !== p.accuracy;
    });
    assert.deepEqual(misses, [], "every published accuracy equals correct / n * 100 exactly");
    // accuracy_with_calc is another number (calculator-assisted) for exactly two CoT tasks
    const calc = published.filter((p) => p.accuracyWithCalc !== p.accuracy).map((p) => p.task);
    assert.deepEqual(calc, ["multistep_arithmetic_two", "object_counting"]);
    console.log(
      `reproduced ${published.length - misses.length}/${published.length} published accuracies`,
    );
  },
);

dataTest(
  "BBH release: every scorer, scoreFrame == scalar on all 13,022 rows (agreement printed)",
  (dir) => {
    const { rows } = loadBbhReleaseOutputs(dir);
    const records = rows.select("run", "task", "input", "target", "response").toRecords() as {
      run: string;
      task: string;
      input: string;
      target: string;
      response: string;
    }[];
    const report: string[] = [];
    const verdicts = new Map<string, (boolean | null)[]>();
    for (const s of SCORERS.filter((x) => x.name !== "stored" && appliesTo(x, "bbh"))) {
      const scored = scoreFrame(rows.lazy(), s);
      const extracted = scored.getColumn("extracted").toArray() as (string | null)[];
      const correct = scored.getColumn("correct").toArray() as (boolean | null)[];
      records.forEach((r, i) => {
        const v = s.score(r.response, r.target, { task: r.task, input: r.input });
        assert.deepEqual(
          [extracted[i], correct[i]],
          [v.extracted, v.correct],
          `${s.name} row ${i}`,
        );
      });
      verdicts.set(s.name, correct);
    }
    for (const run of BBH_RELEASE_RUNS) {
      const rowsOf = records.map((r, i) => r.run === run.run ? i : -1).filter((i) => i >= 0);
      const base = verdicts.get(run.scorer)!;
      for (const [name, correct] of verdicts) {
        const acc = rowsOf.filter((i) => correct[i] === true).length / rowsOf.length * 100;
        const differ = rowsOf.filter((i) => correct[i] !== base[i]).length;
        report.push(
          `${run.run.padEnd(24)} ${name.padEnd(19)} ${acc.toFixed(2).padStart(6)}%  ` +
            `verdict differs from ${run.scorer} on ${differ} rows`,
        );
      }
    }
    console.log(report.join("\n"));
  },
);

dataTest(
  "runlens score on the release folders (generic reader): all 54 published accuracies",
  async (dir) => {
    const outputs = findBbhOutputsDir(dir);
    const published = readBbhPublishedAccuracies(dir);
    const misses: string[] = [];
    for (const r of BBH_RELEASE_RUNS) {
      const folder = join(outputs, r.run);
      const loaded = await loadRuns([folder], dir, { scorer: r.scorer, responses: false });
      // the _eval_metrics.jsonl files beside the outputs are not logs
      assert.equal(loaded.files.length, 27);
      const [run] = loaded.runs;
      assert.equal(run.format, "bbh-release-outputs");
      assert.deepEqual([run.run, run.model, run.benchmark], [r.run, "code-davinci-002", "bbh"]);
      // snarks 88's data-set input is cut short: the prompt's whole question is accepted
      assert.deepEqual([run.rows_in, run.rows_scored, run.rows_quarantined], [6511, 6511, 0]);
      for (const p of published.filter((x) => x.run === r.run)) {
        const t = run.tasks[p.task];
        if (releaseAccuracy(t.correct, t.n) !== p.accuracy) misses.push(`${p.run}/${p.task}`);
      }
    }
    assert.deepEqual(misses, []);
    // named on its own, a metrics file is still not a log: discovery lists it as a companion
    const metrics = join(
      outputs,
      BBH_RELEASE_RUNS[0].run,
      "snarks_few_shot_template_0-255000_eval_metrics.jsonl",
    );
    const found = discover([metrics], { formats: logFormats() }); // BBH's format knows it
    assert.deepEqual([found.files, found.errors], [[], []]);
    assert.match(found.companions[0].reason, /^a BBH release metrics file/);
  },
);
