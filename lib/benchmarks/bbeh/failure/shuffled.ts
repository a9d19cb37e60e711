/**
 * Shuffled Objects: responses that end without a final answer (BBEH paper, Appendix A.16:
 * Gemini 2.0 Flash runs out of output tokens on 25% of the problems by tracking every switch).
 *
 * @example
 * ```ts
 * import { shuffledNoFinalAnswer } from "@runlens/benchmarks/bbeh/failure/shuffled.ts";
 * shuffledNoFinalAnswer(rows); // no_final_answer_share, degenerate_share per variant and pooled
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
 * shuffledNoFinalAnswer(rows);
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
