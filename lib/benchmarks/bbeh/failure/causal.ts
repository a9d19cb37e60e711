/**
 * Causal Understanding: which errors? (BBEH paper, Appendix A.4: Gemini 2.0 Flash errs on 44 of
 * 45 "Ambiguous", 24 of 49 "No" and 10 of 48 "Yes" causal-judgement items, and more on
 * sufficient (11 / 28) than on necessary causes (6 / 30).)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { causalErrors } from "@runlens/benchmarks/bbeh/failure/causal.ts";
 * // a run log: causal-judgement items 0 (gold Yes), 3 (No) and 5 (Ambiguous)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,causal_understanding,0,The answer is: No
 * r1,m,causal_understanding,3,The answer is: No
 * r1,m,causal_understanding,5,The answer is: Yes
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = causalErrors(rows); // groups causal_judgement/Yes, …, necessary, sufficient, all
 * const errors = table.filter(pl.col("measure").eq(pl.lit("error_share")));
 * assert.deepEqual(errors.select("group", "count", "n").rows(), [
 *   ["all", 2, 3],
 *   ["causal_judgement", 2, 3],
 *   ["causal_judgement/Ambiguous", 1, 1],
 *   ["causal_judgement/No", 0, 1],
 *   ["causal_judgement/Yes", 1, 1],
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { withSubsetLabel } from "./labels.ts";
import { requireColumns, shareMeasures } from "./shares.ts";

/**
 * Share table for causal_understanding: `error_share` (wrong out of all rows) and
 * `predicted_yes_share` (answer "yes" out of all rows), per variant (`causal_judgement`,
 * `necessary`, `sufficient`), per causal-judgement gold label (`causal_judgement/Yes`, `/No`,
 * `/Ambiguous`) and pooled (`all`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // a run log: causal-judgement items 0 (gold Yes), 3 (No) and 5 (Ambiguous)
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,causal_understanding,0,The answer is: No
 * r1,m,causal_understanding,3,The answer is: No
 * r1,m,causal_understanding,5,The answer is: Yes
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const ambiguous = causalErrors(rows)
 *   .filter(pl.col("group").eq(pl.lit("causal_judgement/Ambiguous")));
 * // the one "Ambiguous" item: answered "Yes", so wrong
 * assert.deepEqual(ambiguous.select("measure", "count", "n").rows(), [
 *   ["error_share", 1, 1],
 *   ["predicted_yes_share", 1, 1],
 * ]);
 * ```
 */
export function causalErrors(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(
    rows,
    ["run", "model", "task", "example_index", "input", "target", "extracted", "correct"],
    "causalErrors",
  );
  const df = withSubsetLabel(rows, "causal_understanding", "variant").withColumns(
    pl.when(pl.col("subset").eq(pl.lit("causal_judgement")))
      .then(pl.concatString([pl.col("subset"), pl.col("target")], "/"))
      .otherwise(pl.lit(null).cast(pl.Utf8)).alias("__gold_group"),
  );
  const measures = [
    { measure: "error_share", hit: pl.col("correct").fillNull(false).not(), of: pl.lit(true) },
    {
      measure: "predicted_yes_share",
      hit: pl.col("extracted").eq(pl.lit("yes")),
      of: pl.lit(true),
    },
  ];
  const byVariant = shareMeasures(df, measures, { group: "subset" });
  const cj = df.filter(pl.col("__gold_group").isNotNull());
  if (cj.height === 0) return byVariant;
  const byGold = shareMeasures(cj, measures, { group: "__gold_group", withAll: false });
  return pl.concat([byVariant, byGold], { how: "vertical" })
    .sort(["run", "model", "task", "group", "measure"]);
}
