/**
 * Shuffled Objects: responses that end without a final answer (BBEH paper, Appendix A.16:
 * Gemini 2.0 Flash runs out of output tokens on 25% of the problems by tracking every switch).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { shuffledNoFinalAnswer } from "@runlens/benchmarks/bbeh/failure/shuffled.ts";
 * // a run log: shuffled_objects 0 (named actions) answered, 2 (no-op switches) cut off
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,shuffled_objects,0,The answer is: (F)
 * r1,m,shuffled_objects,2,First Alice and Bob swap and then
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = shuffledNoFinalAnswer(rows); // no_final_answer_share, degenerate_share by variant
 * const none = table.filter(pl.col("measure").eq(pl.lit("no_final_answer_share")));
 * assert.deepEqual(none.select("group", "count", "n").rows(), [
 *   ["all", 1, 2],
 *   ["named_actions", 0, 1],
 *   ["no_op_switches", 1, 1],
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { hasFinalAnswer, isDegenerate, withSubsetLabel } from "./labels.ts";
import { requireColumns, shareMeasures } from "./shares.ts";

/**
 * Share table for shuffled_objects: `no_final_answer_share` and `degenerate_share` (out of all
 * rows), per variant (`no_op_switches`, `named_actions`) and pooled.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // a run log: shuffled_objects 0 (named actions) answered, 2 (no-op switches) cut off
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,shuffled_objects,0,The answer is: (F)
 * r1,m,shuffled_objects,2,First Alice and Bob swap and then
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = shuffledNoFinalAnswer(rows);
 * assert.equal(table.height, 6); // 2 measures × (2 variants + all)
 * ```
 */
export function shuffledNoFinalAnswer(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(
    rows,
    ["run", "model", "task", "example_index", "input", "target", "response", "extracted"],
    "shuffledNoFinalAnswer",
  );
  const df = withSubsetLabel(rows, "shuffled_objects", "variant");
  return shareMeasures(df, [
    { measure: "no_final_answer_share", hit: hasFinalAnswer().not(), of: pl.lit(true) },
    { measure: "degenerate_share", hit: isDegenerate(), of: pl.lit(true) },
  ], { group: "subset" });
}
