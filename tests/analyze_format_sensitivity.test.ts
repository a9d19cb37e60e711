/**
 * `runlens analyze --json` adds `format_sensitivity` per run; for the run's default scorer its
 * counts agree with `runlens score --json` (two code paths over the same rows).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";

async function cli(args: string[], dataDir: string): Promise<Record<string, unknown>> {
  const out = await runCli([...args, "--data", dataDir]);
  assert.ok(out.code === 0, out.stderr);
  return JSON.parse(out.stdout);
}

type Cell = { n: number; correct: number };

dataTest(
  "analyze --json: format sensitivity agrees with score on the default scorer",
  async (dir) => {
    const logs = join(REPO_ROOT, "tests", "fixtures", "logs", "bbh");
    const analyzed = await cli(["analyze", logs, "--json"], dir);
    const scored = await cli(["score", logs, "--json"], dir);
    // the envelope's runs are a list; index it by run
    const runs = Object.fromEntries(
      (analyzed.runs as { run: string; format_sensitivity: Record<string, Record<string, Cell>> }[])
        .map((r) => [r.run, r]),
    );
    const scoredRuns = scored.runs as {
      run: string;
      scorer: string;
      tasks: Record<string, Cell>;
    }[];
    assert.ok(scoredRuns.length > 0);
    for (const r of scoredRuns) {
      const fs = runs[r.run].format_sensitivity;
      for (const [task, cell] of Object.entries(r.tasks)) {
        assert.ok(fs[task].lenient, `${r.run}/${task}: lenient missing`);
        assert.equal(fs[task][r.scorer].n, cell.n, `${r.run}/${task} n`);
        assert.equal(fs[task][r.scorer].correct, cell.correct, `${r.run}/${task} correct`);
      }
    }
  },
);
