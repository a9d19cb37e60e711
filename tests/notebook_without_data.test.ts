/**
 * Without the data sets the leaderboard notebook still produces everything that needs no data
 * (the published leaderboard, Figures 5 and 6), identical to the committed files, and reports
 * what it skipped.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { withNotebookCopy } from "./_notebook.ts";

Deno.test("leaderboard notebook without data: published outputs regenerate, Figure 3 skipped", async () => {
  await withNotebookCopy(
    "01_bbeh_leaderboard.ipynb",
    { RUNLENS_DATA: join(REPO_ROOT, ".runlens", "no-such-data") },
    (run, out) => {
      assert.ok(run.ok, run.stderr);
      assert.ok(run.skipped.some((s) => s.startsWith("Figure 3")), run.stdout);
      for (
        const file of ["results/bbeh_leaderboard.csv", "figures/bbeh_fig5_o3mini_vs_gpt4o.svg"]
      ) {
        assert.equal(
          Deno.readTextFileSync(join(out, file)),
          Deno.readTextFileSync(join(REPO_ROOT, file)),
          `${file} differs from the committed one`,
        );
      }
      assert.throws(() => Deno.statSync(join(out, "figures", "bbeh_fig3_input_lengths.svg")));
    },
  );
});

Deno.test("the main job without data leaves a notebook that skipped steps as committed", async () => {
  const committed = Deno.readFileSync(join(REPO_ROOT, "notebooks", "01_bbeh_leaderboard.ipynb"));
  await withNotebookCopy(
    "01_bbeh_leaderboard.ipynb",
    { RUNLENS_DATA: join(REPO_ROOT, ".runlens", "no-such-data") },
    (run, out, path) => {
      assert.ok(run.ok, run.stderr);
      assert.ok(run.skipped.length > 0 && run.kept);
      // the notebook keeps its committed outputs (Figure 3's among them) byte for byte …
      assert.deepEqual(Deno.readFileSync(path), committed);
      // … while what needs no data is still written
      assert.ok(Deno.statSync(join(out, "results", "bbeh_leaderboard.csv")).isFile);
    },
    { keepWhenSkipped: true },
  );
});
