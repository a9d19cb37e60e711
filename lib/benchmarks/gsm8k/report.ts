/**
 * What GSM8K adds to `runlens report`: each run's responses split into right, wrong number and
 * no answer found (a run that "fails" because its answers are unread is not a weak model), and
 * the answer-format sensitivity (lm-eval's string compare beside the default's numbers).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({ run: ["a", "a", "a", "a"], correct: [true, false, false, false],
 *   answer_found: [true, true, false, false] }).withColumns(pl.lit("gsm8k-strict").alias("scorer"));
 * const [section] = await gsm8kReport.sections!(rows, { dataDir: "" });
 * assert.deepEqual(section.items[0].kind === "table" && section.items[0].rows,
 *   [["a", "gsm8k-strict", 4, 25, 25, 50]]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { tableOf } from "../../render/table_of.ts";
import type { BenchmarkReport } from "../types.ts";

const share = (rows: pl.Expr) => rows.cast(pl.Float64).sum().div(pl.len()).mul(100);

/** GSM8K's report hooks. */
export const gsm8kReport: BenchmarkReport = {
  formatSensitivity: true,
  sections: (rows) => {
    if (rows.height === 0) return Promise.resolve([]);
    const outcomes = rows.groupBy("run", "scorer").agg(
      pl.len().alias("responses"),
      share(pl.col("correct")).alias("right (%)"),
      share(pl.col("answer_found").and(pl.col("correct").not())).alias("wrong number (%)"),
      share(pl.col("answer_found").not()).alias("no answer found (%)"),
    ).sort(["run", "scorer"]);
    return Promise.resolve([{
      id: "gsm8k-outcomes",
      title: "GSM8K: right, wrong number, no answer",
      intro: "Each run's responses by outcome under its scorer. A scorer that reads no answer " +
        "(stored verdicts) leaves the last two columns at 0.",
      items: [tableOf(outcomes, { id: "gsm8k-outcomes", title: "GSM8K outcomes", digits: 1 })],
    }]);
  },
};
