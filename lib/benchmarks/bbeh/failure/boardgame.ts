/**
 * BoardgameQA: do models over-predict "unknown"? (BBEH paper, Appendix A.1, Table 5: the share
 * of "unknown" among predictions that are one of proved / disproved / unknown, against the gold
 * rate of one third) and the gold × predicted confusion matrix.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import {
 *   boardgameConfusion,
 *   boardgameUnknownShare,
 * } from "@runlens/benchmarks/bbeh/failure/boardgame.ts";
 * // a run log: four boardgame_qa answers (the gold label of items 0-3 is "disproved")
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,boardgame_qa,0,The answer is: unknown
 * r1,m,boardgame_qa,1,The answer is: unknown
 * r1,m,boardgame_qa,2,The answer is: disproved
 * r1,m,boardgame_qa,3,The answer is: maybe
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const shares = boardgameUnknownShare(rows); // unknown_share, gold_unknown_share, labelled_share
 * // "unknown" in 2 of the 3 answers that are a label; "maybe" is not one
 * assert.deepEqual(shares.select("measure", "count", "n").rows(), [
 *   ["unknown_share", 2, 3],
 *   ["gold_unknown_share", 0, 3],
 *   ["labelled_share", 3, 4],
 * ]);
 * const matrix = boardgameConfusion(rows); // run, model, gold, predicted, count, n, share, …
 * assert.equal(matrix.height, 12); // 3 gold × 4 predicted (proved, disproved, unknown, other)
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { requireColumns, shareMeasures, withShareStats } from "./shares.ts";

/** The three BoardgameQA labels. */
export const BOARDGAME_LABELS = ["proved", "disproved", "unknown"] as const;

const TASK = "boardgame_qa";

function predictedLabel(): pl.Expr {
  const e = pl.col("extracted");
  return pl.when(e.isIn([...BOARDGAME_LABELS])).then(e).otherwise(pl.lit("other"));
}

/**
 * Share table (see `shares.ts`) for boardgame_qa rows: `unknown_share` (predicted "unknown" out
 * of predictions that are one of the three labels — the paper's Table 5), `gold_unknown_share`
 * (gold "unknown" out of those same rows: the rate a calibrated model would predict),
 * `labelled_share` (rows whose answer is one of the labels, out of all rows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * // scored rows: run, model, task, target, extracted (as `loadRuns` gives them)
 * const rows = pl.DataFrame({
 *   target: ["proved", "disproved", "unknown", "unknown"],
 *   extracted: ["unknown", "unknown", "unknown", "proved"],
 * }).withColumns(
 *   pl.lit("r1").alias("run"),
 *   pl.lit("m").alias("model"),
 *   pl.lit("boardgame_qa").alias("task"),
 * );
 * const table = boardgameUnknownShare(rows).filter(pl.col("measure").eq(pl.lit("unknown_share")));
 * assert.deepEqual(table.select("count", "n", "share").row(0), [3, 4, 75]); // gold rate: 50
 * ```
 */
export function boardgameUnknownShare(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(rows, ["run", "model", "task", "target", "extracted"], "boardgameUnknownShare");
  const df = rows.filter(pl.col("task").eq(pl.lit(TASK)))
    .withColumns(predictedLabel().alias("__pred"));
  const labelled = pl.col("__pred").neq(pl.lit("other"));
  const unknown = pl.lit("unknown");
  return shareMeasures(df, [
    { measure: "unknown_share", hit: pl.col("__pred").eq(unknown), of: labelled },
    {
      measure: "gold_unknown_share",
      hit: pl.col("target").str.toLowerCase().eq(unknown),
      of: labelled,
    },
    { measure: "labelled_share", hit: labelled, of: pl.lit(true) },
  ]);
}

/**
 * Gold × predicted counts for boardgame_qa: columns `run`, `model`, `gold`, `predicted`
 * (proved / disproved / unknown / other), `count`, `n` (rows with that gold label) and `share`,
 * `ci_low`, `ci_high` (percent of the gold row). Every cell of the 3 × 4 matrix is present.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * // scored rows: run, model, task, target, extracted (as `loadRuns` gives them)
 * const rows = pl.DataFrame({
 *   target: ["proved", "disproved", "unknown", "unknown"],
 *   extracted: ["unknown", "unknown", "unknown", "proved"],
 * }).withColumns(
 *   pl.lit("r1").alias("run"),
 *   pl.lit("m").alias("model"),
 *   pl.lit("boardgame_qa").alias("task"),
 * );
 * const proved = boardgameConfusion(rows).filter(pl.col("gold").eq(pl.lit("proved")));
 * assert.deepEqual(proved.select("predicted", "count", "n").rows(), [
 *   ["proved", 0, 1],
 *   ["disproved", 0, 1],
 *   ["unknown", 1, 1],
 *   ["other", 0, 1],
 * ]);
 * ```
 */
export function boardgameConfusion(rows: pl.DataFrame): pl.DataFrame {
  requireColumns(rows, ["run", "model", "task", "target", "extracted"], "boardgameConfusion");
  const df = rows.filter(pl.col("task").eq(pl.lit(TASK))).select(
    pl.col("run"),
    pl.col("model"),
    pl.col("target").str.toLowerCase().alias("gold"),
    predictedLabel().alias("predicted"),
  );
  const runs = df.select("run", "model").unique();
  const cells = pl.DataFrame({ gold: [...BOARDGAME_LABELS] })
    .join(pl.DataFrame({ predicted: [...BOARDGAME_LABELS, "other"] }), { how: "cross" });
  const counts = df.groupBy(["run", "model", "gold", "predicted"])
    .agg(pl.len().cast(pl.Int32).alias("count"));
  const full = runs.join(cells, { how: "cross" })
    .join(counts, { on: ["run", "model", "gold", "predicted"], how: "left" })
    .withColumns(pl.col("count").fillNull(0).cast(pl.Int32));
  const withN = full.withColumns(
    pl.col("count").sum().over("run", "model", "gold").cast(pl.Int32).alias("n"),
  );
  const order = pl.DataFrame({
    gold: [...BOARDGAME_LABELS],
    __g: [0, 1, 2],
  });
  const porder = pl.DataFrame({ predicted: [...BOARDGAME_LABELS, "other"], __p: [0, 1, 2, 3] });
  return withShareStats(withN)
    .join(order, { on: "gold" }).join(porder, { on: "predicted" })
    .sort(["run", "model", "__g", "__p"]).drop("__g", "__p");
}
