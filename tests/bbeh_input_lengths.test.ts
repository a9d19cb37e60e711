/**
 * Figure 3 data (mean input length per BBEH task vs its BBH counterpart) against the paper's
 * Section 3 claims.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { inputLengthComparison, inputLengthMacro } from "@runlens/benchmarks/bbeh/input_lengths.ts";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { loadBbhDataset } from "@runlens/benchmarks/bbh/dataset.ts";
import { dataTest } from "./_data.ts";

dataTest("Figure 3: inputs are longer in BBEH for all tasks but two", (dataDir) => {
  const cmp = inputLengthComparison(loadBbehDataset(dataDir), loadBbhDataset(dataDir));
  assert.equal(cmp.height, 23);
  // Paper: "input lengths have increased for almost all the tasks (except two)".
  const shorter = cmp.filter(pl.col("ratio").lt(1)).getColumn("task").toArray().sort();
  assert.deepEqual(shorter, ["causal_understanding", "linguini"]);
});

dataTest("Figure 3: macro averages, and where the paper's numbers differ", (dataDir) => {
  const macro = inputLengthMacro(
    inputLengthComparison(loadBbehDataset(dataDir), loadBbhDataset(dataDir)),
  );
  // Paper Section 3: BBH inputs have "a macro average of 700 characters across tasks", and
  // BBEH's macro average is "about six times bigger". From the released files the BBH
  // counterparts average about 330 characters (the question alone, as in the task files), so
  // BBEH is about 11x longer; BBEH's own macro average (~3,800) is ~5.4x the paper's 700.
  // Documented discrepancy: the paper must have measured BBH inputs differently.
  assert.ok(macro.bbh > 300 && macro.bbh < 400, `BBH macro ${macro.bbh}`);
  assert.ok(macro.bbeh > 3600 && macro.bbeh < 4000, `BBEH macro ${macro.bbeh}`);
  assert.ok(macro.bbeh / 700 > 5 && macro.bbeh / 700 < 6);
});
