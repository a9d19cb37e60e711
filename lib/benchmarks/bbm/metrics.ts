/**
 * Scores of a mistake-finding run, from the frame of `classifyMistakeRuns`: exact
 * first-mistake location accuracy (overall, on traces with and without a mistake), detection
 * precision/recall, and the outcome breakdown (correct, early, late, said_no_mistake,
 * false_alarm, no_answer).
 *
 * Detection treats "the trace has a mistake" as the positive class and "the answer names a
 * valid step" (`flagged`) as the positive prediction, whatever step it names:
 * precision = flagged traces with a mistake / flagged traces; recall = flagged traces with a
 * mistake / traces with a mistake (answers without a valid answer count as not flagged).
 * Ratios with a zero denominator are null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * import { classifyMistakeRuns } from "@runlens/benchmarks/bbm/classify.ts";
 * import pl from "nodejs-polars";
 * // the toy release and run log of the tests: 8 answers, 7 of model "m1"
 * const traces = loadBbmDataset("tests/fixtures/bbm");
 * const log = Deno.readTextFileSync("tests/fixtures/bbm/runs/toy_run.jsonl");
 * const rows = pl.DataFrame(log.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l))
 *   .map((r) => ({ ...r, model: r.model ?? "toy_run" })));
 * const classified = classifyMistakeRuns(rows, traces, { numbering: "one-based" });
 * import { mistakeFindingMetrics, mistakeOutcomeTable } from "@runlens/benchmarks/bbm/metrics.ts";
 * const [all] = mistakeFindingMetrics(classified, []).toRecords();
 * assert.equal(all.location_accuracy, 3 / 8);
 * // 4 of the 5 answers on traces with a mistake name a step
 * assert.equal(all.detection_recall, 4 / 5);
 * const [m1] = mistakeOutcomeTable(classified, ["model"]).toRecords();
 * assert.deepEqual([m1.correct, m1.early, m1.late, m1.no_answer], [2, 1, 1, 1]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { MISTAKE_OUTCOMES } from "./classify.ts";

const F = pl.Float64;

/** num / den as Float64, null when den is 0. */
function ratio(num: pl.Expr, den: pl.Expr): pl.Expr {
  return pl.when(den.gt(0)).then(num.cast(F).div(den.cast(F))).otherwise(pl.lit(null).cast(F));
}

const sum = (e: pl.Expr) => e.cast(pl.Int32).sum();

function aggregate(df: pl.DataFrame, by: readonly string[], aggs: pl.Expr[]): pl.DataFrame {
  const missing = by.filter((c) => !df.columns.includes(c));
  if (missing.length > 0) {
    throw new Error(`cannot group by missing column(s) ${missing.join(", ")}`);
  }
  return by.length > 0 ? df.groupBy([...by]).agg(...aggs).sort([...by]) : df.select(...aggs);
}

/**
 * Location accuracy and detection scores per group: `…by, n, with_mistake, without_mistake,
 * location_accuracy, location_accuracy_with_mistake, location_accuracy_without_mistake,
 * detection_precision, detection_recall, no_answer`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * import { classifyMistakeRuns } from "@runlens/benchmarks/bbm/classify.ts";
 * import pl from "nodejs-polars";
 * // the toy release and run log of the tests: 8 answers, 7 of model "m1"
 * const traces = loadBbmDataset("tests/fixtures/bbm");
 * const log = Deno.readTextFileSync("tests/fixtures/bbm/runs/toy_run.jsonl");
 * const rows = pl.DataFrame(log.split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l))
 *   .map((r) => ({ ...r, model: r.model ?? "toy_run" })));
 * const classified = classifyMistakeRuns(rows, traces, { numbering: "one-based" });
 * assert.equal(mistakeFindingMetrics(classified, ["model", "task"]).height, 3);
 * const overall = mistakeFindingMetrics(classified, []); // one overall row
 * assert.deepEqual(overall.toRecords(), [{
 *   n: 8,
 *   with_mistake: 5,
 *   without_mistake: 3,
 *   location_accuracy: 0.375,
 *   location_accuracy_with_mistake: 0.4,
 *   location_accuracy_without_mistake: 1 / 3,
 *   detection_precision: 0.8, // 4 of the 5 flagged answers are on traces with a mistake
 *   detection_recall: 0.8,
 *   no_answer: 1,
 * }]);
 * ```
 */
export function mistakeFindingMetrics(
  classified: pl.DataFrame,
  by: readonly string[] = ["model", "task"],
): pl.DataFrame {
  const hm = pl.col("has_mistake"), ok = pl.col("location_correct"), fl = pl.col("flagged");
  return aggregate(classified, by, [
    pl.len().cast(pl.Int32).alias("n"),
    sum(hm).cast(pl.Int32).alias("with_mistake"),
    sum(hm.not()).cast(pl.Int32).alias("without_mistake"),
    ratio(sum(ok), pl.len()).alias("location_accuracy"),
    ratio(sum(ok.and(hm)), sum(hm)).alias("location_accuracy_with_mistake"),
    ratio(sum(ok.and(hm.not())), sum(hm.not())).alias("location_accuracy_without_mistake"),
    ratio(sum(fl.and(hm)), sum(fl)).alias("detection_precision"),
    ratio(sum(fl.and(hm)), sum(hm)).alias("detection_recall"),
    sum(pl.col("outcome").eq(pl.lit("no_answer"))).cast(pl.Int32).alias("no_answer"),
  ]);
}

/**
 * Outcome counts per group, wide: `…by, n, correct, early, late, said_no_mistake,
 * false_alarm, no_answer, late_share_of_misplaced` — the last is late / (early + late), the
 * BBEH paper's (appendix A.6) share of "missed the first mistake, flagged a later step" among
 * answers that flag a wrong step in a trace with a mistake.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const classified = pl.DataFrame({
 *   model: ["a", "a", "a", "a"],
 *   outcome: ["correct", "early", "late", "late"],
 * });
 * assert.deepEqual(mistakeOutcomeTable(classified, ["model"]).toRecords(), [{
 *   model: "a",
 *   n: 4,
 *   correct: 1,
 *   early: 1,
 *   late: 2,
 *   said_no_mistake: 0,
 *   false_alarm: 0,
 *   no_answer: 0,
 *   late_share_of_misplaced: 2 / 3, // late / (early + late)
 * }]);
 * ```
 */
export function mistakeOutcomeTable(
  classified: pl.DataFrame,
  by: readonly string[] = ["model", "task"],
): pl.DataFrame {
  const o = pl.col("outcome");
  return aggregate(classified, by, [
    pl.len().cast(pl.Int32).alias("n"),
    ...MISTAKE_OUTCOMES.map((name) => sum(o.eq(pl.lit(name))).cast(pl.Int32).alias(name)),
    ratio(sum(o.eq(pl.lit("late"))), sum(o.eq(pl.lit("early")).or(o.eq(pl.lit("late")))))
      .alias("late_share_of_misplaced"),
  ]);
}

/**
 * Outcome counts per group in long form (`…by, outcome, count, share`), every outcome present
 * (zeros included) — the shape a stacked bar chart wants.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const classified = pl.DataFrame({
 *   model: ["a", "a", "b"],
 *   outcome: ["correct", "late", "late"],
 * });
 * const long = mistakeOutcomeLong(classified, ["model"]);
 * assert.equal(long.height, 12); // 6 outcomes per model, zeros included
 * assert.deepEqual(long.head(3).toRecords(), [
 *   { model: "a", outcome: "correct", count: 1, share: 0.5 },
 *   { model: "a", outcome: "early", count: 0, share: 0 },
 *   { model: "a", outcome: "late", count: 1, share: 0.5 },
 * ]);
 * ```
 */
export function mistakeOutcomeLong(
  classified: pl.DataFrame,
  by: readonly string[] = ["model", "task"],
): pl.DataFrame {
  const wide = mistakeOutcomeTable(classified, by);
  const parts = MISTAKE_OUTCOMES.map((name, i) =>
    wide.select(
      ...by.map((c) => pl.col(c)),
      pl.lit(name).alias("outcome"),
      pl.lit(i).cast(pl.Int32).alias("_order"),
      pl.col(name).alias("count"),
      ratio(pl.col(name), pl.col("n")).alias("share"),
    )
  );
  return pl.concat(parts).sort([...by, "_order"]).drop("_order");
}
