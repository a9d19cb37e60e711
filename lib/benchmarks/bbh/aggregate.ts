/**
 * BBH aggregates of one run's scored rows: the micro average over the 6,511 examples of the
 * release, only when the rows cover every example (per-task accuracy comes from
 * `taskAccuracy` of `bbeh/aggregate.ts`, which is benchmark-neutral).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { bbhAggregate } from "@runlens/benchmarks/bbh/aggregate.ts";
 * const agg = bbhAggregate(pl.DataFrame({ task: ["snarks"], example_index: [3], correct: [true] }));
 * assert.equal(agg.coverage, "partial");
 * assert.equal(agg.micro, null);
 * assert.equal(agg.note, "covers 1 of 6511 examples (1 of 27 tasks); micro needs the full set");
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { BBH_SIZE, BBH_TASK_NAMES } from "./tasks.ts";
import { type HeadlineCI, microCI } from "../../stats/headline_ci.ts";

/** Aggregates of one BBH run. */
export type BbhAggregate = {
  /**
   * Correct rows / rows × 100 when all 6,511 examples are covered (with several rows per
   * example, the mean over examples of each example's share correct); else null.
   */
  micro: number | null;
  /** "full": every example of the release has a row; else "partial". */
  coverage: "full" | "partial";
  /** Why `micro` is missing, or how repeated rows were counted; null when nothing to say. */
  note: string | null;
};

/**
 * Aggregates of ONE run from rows with `task` (canonical BBH name), `example_index` and
 * `correct` (non-null; the loader quarantines rows without a verdict). Several rows per
 * example (epochs) are averaged per example first (every example weighs the same), and `note`
 * says so.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
 * const { rows } = loadBbhReleaseOutputs(resolveDataDir(), { runs: ["code-davinci-002-cot"] });
 * const agg = bbhAggregate(rows); // all 6,511 examples: full coverage
 * assert.equal(agg.coverage, "full");
 * assert.equal(agg.micro?.toFixed(2), "73.97"); // 4,816 / 6,511 correct
 * ```
 */
export function bbhAggregate(scored: pl.DataFrame): BbhAggregate {
  for (const c of ["task", "example_index", "correct"]) {
    if (!scored.columns.includes(c)) throw new Error(`bbhAggregate: missing column ${c}`);
  }
  if (scored.filter(pl.col("correct").isNull()).height > 0) {
    throw new Error("bbhAggregate: rows without a verdict (correct is null)");
  }
  const examples = scored.groupBy(["task", "example_index"])
    .agg(pl.len().alias("rows"), pl.col("correct").cast(pl.Float64).mean().alias("correct"));
  const covered = examples.height;
  if (covered < BBH_SIZE) {
    const tasks = examples.getColumn("task").nUnique();
    return {
      micro: null,
      coverage: "partial",
      note: `covers ${covered} of ${BBH_SIZE} examples (${tasks} of ${BBH_TASK_NAMES.length} ` +
        "tasks); micro needs the full set",
    };
  }
  const repeated = scored.height > covered;
  const units = repeated ? examples : scored;
  const micro = (units.select(pl.col("correct").cast(pl.Float64).mean()).getColumn("correct")
    .get(0) as number) * 100;
  const repeats = repeated
    ? `several rows per example (${scored.height} rows for ${covered} examples): ` +
      "each example's rows are averaged first, so every example weighs the same"
    : null;
  return { micro, coverage: "full", note: repeats };
}

/**
 * The 95% interval of `micro` when {@link bbhAggregate} gives it (the full set): Wilson's, at
 * the effective n of the examples when the run has several rows per example
 * (`stats/headline_ci.ts`).
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * bbhIntervals(pl.DataFrame({ task: ["snarks"], example_index: [0], correct: [true] })); // {}
 * ```
 */
export function bbhIntervals(
  scored: pl.DataFrame,
  aggregate: BbhAggregate = bbhAggregate(scored),
): Partial<Record<"micro", HeadlineCI>> {
  if (aggregate.micro === null) return {};
  const tasks = scored.getColumn("task").toArray() as string[];
  const index = scored.getColumn("example_index").toArray() as number[];
  const correct = scored.getColumn("correct").toArray() as boolean[];
  return {
    micro: microCI(tasks.map((stratum, i) => ({
      stratum,
      example: index[i],
      score: correct[i] ? 1 : 0,
    })))!,
  };
}
