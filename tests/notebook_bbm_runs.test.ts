/**
 * The BIG-Bench Mistake notebook on mistake-finding runs: with a logs directory it classifies
 * every answer and writes the outcome table. Uses the hand-written toy traces and run in
 * tests/fixtures/bbm (m1: multistep_arithmetic 2 answers, word_sorting 4; two lines repeat a
 * trace of m1 and are quarantined as duplicates).
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { withNotebookCopy } from "./_notebook.ts";

const fixtures = join(REPO_ROOT, "tests", "fixtures", "bbm");

Deno.test("BBM notebook classifies the runs in the logs directory", async () => {
  await withNotebookCopy(
    "03_first_mistakes.ipynb",
    {
      RUNLENS_DATA: fixtures,
      RUNLENS_LOGS: join(fixtures, "runs"),
      RUNLENS_BBM_NUMBERING: "one-based",
    },
    (run, out) => {
      assert.ok(run.ok, run.stderr);
      const outcomes = pl.readCSV(
        Deno.readTextFileSync(join(out, "results", "bbm_run_outcomes.csv")),
      );
      const n = outcomes.getColumn("n").toArray() as number[];
      // 8 answers in the toy run log: 6 classified exactly once, 2 duplicates quarantined
      assert.equal(n.reduce((a, b) => a + b, 0), 6);
      for (const f of ["bbm_run_outcomes.svg", "bbm_run_outcomes.png"]) {
        assert.ok(Deno.statSync(join(out, "figures", f)).size > 0);
      }
    },
  );
});
