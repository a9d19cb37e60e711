/**
 * GSM8K (Cobbe et al. 2021) as a registered {@link Benchmark}: the scoring part
 * (`scoring.ts`), its pinned data, accuracy with its 95% interval, and the report's hooks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({ task: ["gsm8k", "gsm8k"], example_index: [0, 1], correct: [true, false] });
 * assert.deepEqual(gsm8k.aggregate!(rows), { accuracy: null, coverage: "partial",
 *   note: "covers 2 of 1319 problems; accuracy needs the full set" });
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import { type HeadlineCI, microCI } from "../../stats/headline_ci.ts";
import type { Benchmark, BenchmarkAggregate } from "../types.ts";
import { GSM8K_SIZE } from "./examples.ts";
import { gsm8kReport } from "./report.ts";
import { scoring } from "./scoring.ts";

/** Accuracy in percent (each problem's rows averaged first) with its clustered Wilson interval. */
function accuracyCI(rows: pl.DataFrame): HeadlineCI | null {
  const correct = rows.getColumn("correct").toArray();
  return microCI(
    rows.getColumn("example_index").toArray().map((example, i) => ({
      stratum: "gsm8k",
      example: example as number,
      score: correct[i] ? 1 : 0,
    })),
  );
}

/** `accuracy` of one run when it covers all 1,319 problems; else null, saying why. */
function gsm8kAggregate(rows: pl.DataFrame): BenchmarkAggregate {
  const covered = rows.getColumn("example_index").nUnique();
  if (covered < GSM8K_SIZE) {
    const note = `covers ${covered} of ${GSM8K_SIZE} problems; accuracy needs the full set`;
    return { accuracy: null, coverage: "partial", note };
  }
  const note = rows.height === covered ? null : `several rows per problem (${rows.height} ` +
    `rows for ${covered} problems): each problem's rows are averaged first`;
  return { accuracy: accuracyCI(rows)!.estimate, coverage: "full", note };
}

/** GSM8K. */
export const gsm8k: Benchmark = {
  ...scoring,
  listOrder: 5,
  description: "GSM8K (Cobbe et al. 2021): 1,319 grade-school math word problems, the test " +
    "split (openai/grade-school-math).",
  scoringModule: new URL("./scoring.ts", import.meta.url).href,
  data: {
    folder: "gsm8k",
    sources: [
      { repo: "openai/grade-school-math", commit: "3101c7d5072418e28b9008a6636bde82a006892c" },
    ],
    manifest: new URL("./manifest.json", import.meta.url).href,
    dataFiles: ".jsonl",
  },
  aggregate: gsm8kAggregate,
  aggregateKeys: [{ key: "accuracy", label: "GSM8K accuracy (correct / 1,319)" }],
  aggregateIntervals: (rows, aggregate): Record<string, HeadlineCI> =>
    aggregate.accuracy === null ? {} : { accuracy: accuracyCI(rows)! },
  report: gsm8kReport,
};
