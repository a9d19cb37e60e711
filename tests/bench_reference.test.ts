/**
 * The benchmark's cross-check, on a small generated log: `runlens score` and the plain-Python
 * reference (`lib/bench/reference_score.py`, `json` + the official rules written from the
 * notes) agree on every run's per-task counts, for lm-eval samples folders and canonical JSONL.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { compareCounts, referenceCounts, runlensCounts } from "@runlens/bench/bench.ts";
import { generateLog, parseGenerateArgs } from "@runlens/bench/generate.ts";
import { generateLmEvalLogs } from "@runlens/bench/generate_lm_eval.ts";
import { runsReport } from "@runlens/report/runs_text.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { dataTest } from "./_data.ts";

async function reference(dataDir: string, path: string): Promise<string> {
  const out = await new Deno.Command("python3", {
    args: ["lib/bench/reference_score.py", dataDir, path],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 0, new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

for (const format of ["lm-eval", "canonical"] as const) {
  dataTest(`bench: runlens and the Python reference agree on a generated ${format} log`, async (
    dataDir,
  ) => {
    const root = Deno.makeTempDirSync({ prefix: "runlens_bench_test_" });
    try {
      const out = join(root, format === "lm-eval" ? "logs" : "log.jsonl");
      const opts = parseGenerateArgs([
        "--rows",
        "5000", // one full run (4,520) and part of a second
        "--seed",
        "7",
        "--format",
        format,
        "--data",
        dataDir,
        "--out",
        out,
      ]);
      const made = await (format === "lm-eval" ? generateLmEvalLogs : generateLog)(opts);
      assert.deepEqual([made.rows, made.runs], [5000, 2]);
      const loaded = await loadRuns([out], dataDir, { responses: false });
      const ours = runlensCounts(JSON.stringify(runsReport(loaded)));
      const theirs = referenceCounts(await reference(dataDir, out));
      assert.equal(ours.size, 2);
      assert.deepEqual(compareCounts(ours, theirs), []);
      // a full run has a harmonic mean; about 40% of answers were made wrong
      const full = [...ours.values()].find((r) => r.harmonic_mean !== null)!;
      const n = Object.values(full.tasks).reduce((s, t) => s + t.n, 0);
      const correct = Object.values(full.tasks).reduce((s, t) => s + t.correct, 0);
      assert.equal(n, 4520);
      assert.ok(correct / n > 0.5 && correct / n < 0.7, `accuracy ${correct / n}`);
    } finally {
      Deno.removeSync(root, { recursive: true });
    }
  });
}
