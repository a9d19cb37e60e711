/**
 * Answers that are not there: per task, the share of responses with no extractable final answer
 * and of degenerate (looping) output, and the tasks where a model scores below random chance
 * with its mean response length (BBEH paper, Section 5.2: below-random scores mostly come from
 * models that ran out of output tokens and degenerated).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { belowRandomTasks, noAnswerByTask } from "@runlens/benchmarks/bbeh/failure/no_answer.ts";
 * // a run log: nycc right, then no final answer; boardgame_qa wrong
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,nycc,0,The answer is: (A)
 * r1,m,nycc,1,I would pick the second caption
 * r1,m,boardgame_qa,0,The answer is: unknown
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const table = noAnswerByTask(rows); // measures no_answer_share, degenerate_share per task
 * const nycc = table.filter(pl.col("task").eq(pl.lit("nycc")));
 * assert.deepEqual(nycc.select("measure", "count", "n").rows(), [
 *   ["no_answer_share", 1, 2],
 *   ["degenerate_share", 0, 2],
 * ]);
 * // boardgame_qa: 0% is below its 33.3% random baseline
 * const below = belowRandomTasks(rows).filter(pl.col("below_random"));
 * assert.deepEqual(below.getColumn("task").toArray(), ["boardgame_qa"]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { BBEH_TASKS } from "../tasks.ts";
import { hasFinalAnswer, isDegenerate } from "./labels.ts";
import { requireColumns, shareMeasures } from "./shares.ts";

/**
 * Share table per task: `no_answer_share` (no official answer prefix, or an empty extracted
 * answer) and `degenerate_share` (see `isDegenerate`), both out of all rows of the task.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * // scored rows: run, model, task, response, extracted (as `loadRuns` gives them)
 * const loop = ["Swap 1: Alice and Bob.", ...Array(20).fill("Swap 2: Bob and Alice.")].join("\n");
 * const rows = pl.DataFrame({
 *   run: ["r1", "r1", "r1"],
 *   model: ["m", "m", "m"],
 *   task: ["shuffled_objects", "shuffled_objects", "shuffled_objects"],
 *   response: ["The answer is: (B)", "First Alice and Bob swap, so", loop],
 *   extracted: ["(b)", "first alice and bob swap, so", "swap 1: alice and bob"],
 * });
 * const shuffled = noAnswerByTask(rows).filter(pl.col("task").eq(pl.lit("shuffled_objects")));
 * assert.deepEqual(shuffled.select("measure", "count", "n").rows(), [
 *   ["no_answer_share", 2, 3],
 *   ["degenerate_share", 1, 3], // the looping one
 * ]);
 * ```
 */
export function noAnswerByTask(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(rows, ["run", "model", "task", "response", "extracted"], "noAnswerByTask");
  return shareMeasures(rows, [
    { measure: "no_answer_share", hit: hasFinalAnswer().not(), of: pl.lit(true) },
    { measure: "degenerate_share", hit: isDegenerate(), of: pl.lit(true) },
  ]);
}

/**
 * Per run, model and task: `n`, `correct`, `accuracy` (%), `random` (the paper's chance rate),
 * `below_random`, `no_answer` (count), `no_answer_share` (%), `mean_response_chars`,
 * `mean_response_chars_no_answer` (mean length of the answer-less responses).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // a run log: one nycc answer (right) and one response without a final answer
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,nycc,0,The answer is: (A)
 * r1,m,nycc,1,I would pick the second caption
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const [nycc] = belowRandomTasks(rows).toRecords();
 * assert.deepEqual(
 *   [nycc.task, nycc.accuracy, nycc.random, nycc.below_random, nycc.no_answer_share],
 *   ["nycc", 50, 10, false, 50],
 * );
 * belowRandomTasks(rows).filter(pl.col("below_random")).height; // 0
 * ```
 */
export function belowRandomTasks(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(
    rows,
    ["run", "model", "task", "response", "extracted", "correct", "response_chars"],
    "belowRandomTasks",
  );
  const random = pl.DataFrame({
    task: BBEH_TASKS.map((t) => t.name),
    random: BBEH_TASKS.map((t) => t.random),
  });
  const noAnswer = hasFinalAnswer().not();
  return rows.withColumns(noAnswer.alias("__na"))
    .groupBy(["run", "model", "task"]).agg(
      pl.len().cast(pl.Int32).alias("n"),
      pl.col("correct").fillNull(false).cast(pl.Int32).sum().cast(pl.Int32).alias("correct"),
      pl.col("__na").cast(pl.Int32).sum().cast(pl.Int32).alias("no_answer"),
      pl.col("response_chars").cast(pl.Float64).mean().alias("mean_response_chars"),
      pl.col("response_chars").filter(pl.col("__na")).cast(pl.Float64).mean()
        .alias("mean_response_chars_no_answer"),
    )
    .join(random, { on: "task", how: "left" })
    .withColumns(
      pl.col("correct").cast(pl.Float64).mul(100).div(pl.col("n")).alias("accuracy"),
      pl.col("no_answer").cast(pl.Float64).mul(100).div(pl.col("n")).alias("no_answer_share"),
    )
    .withColumns(pl.col("accuracy").lt(pl.col("random")).fillNull(false).alias("below_random"))
    .select(
      "run",
      "model",
      "task",
      "n",
      "correct",
      "accuracy",
      "random",
      "below_random",
      "no_answer",
      "no_answer_share",
      "mean_response_chars",
      "mean_response_chars_no_answer",
    )
    .sort(["run", "model", "task"]);
}
