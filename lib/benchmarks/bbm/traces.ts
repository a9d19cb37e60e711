/**
 * Analyses of the BBM traces themselves (no model runs): answer accuracy, the 2×2 of answer
 * correctness against mistake presence (the paper's correct_ans/incorrect_ans ×
 * correct_mis/incorrect_mis), where the first mistake falls, and trace lengths.
 *
 * Every function takes the trace frame of {@link loadBbmDataset} and returns a new frame.
 * An answer is correct when `answer` equals `target` after trimming surrounding whitespace
 * (a null answer is wrong).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * import { bbmDatasetSummary } from "@runlens/benchmarks/bbm/traces.ts";
 * const summary = bbmDatasetSummary(loadBbmDataset(resolveDataDir()));
 * assert.deepEqual(summary.toRecords()[0], {
 *   task: "dyck_languages",
 *   traces: 986,
 *   with_mistake: 650,
 *   answer_correct: 482,
 *   answer_correct_with_mistake: 147, // right answer despite a mistake in the trace
 *   answer_wrong_without_mistake: 1,
 * });
 * ```
 * @module
 */
import pl from "nodejs-polars";

/** Columns of {@link bbmDatasetSummary} (the `results/bbm_dataset_summary.csv` header). */
export const SUMMARY_COLUMNS = [
  "task",
  "traces",
  "with_mistake",
  "answer_correct",
  "answer_correct_with_mistake",
  "answer_wrong_without_mistake",
] as const;

/**
 * Add `answer_correct` (trimmed answer == trimmed target; null answer = false) and
 * `has_mistake` (mistake_index not null).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * const traces = loadBbmDataset("tests/fixtures/bbm"); // a toy release: 6 traces
 * const flags = withTraceFlags(traces).select("task", "answer_correct", "has_mistake");
 * assert.deepEqual(flags.head(2).toRecords(), [
 *   { task: "multistep_arithmetic", answer_correct: true, has_mistake: false },
 *   { task: "multistep_arithmetic", answer_correct: false, has_mistake: true },
 * ]);
 * ```
 */
export function withTraceFlags(traces: pl.DataFrame): pl.DataFrame {
  return traces.withColumns(
    pl.col("answer").str.strip().eq(pl.col("target").str.strip()).fillNull(false)
      .alias("answer_correct"),
    pl.col("mistake_index").isNotNull().alias("has_mistake"),
  );
}

const count = (e: pl.Expr, name: string) => e.cast(pl.Int32).sum().cast(pl.Int32).alias(name);

/**
 * One row per task: `task, traces, with_mistake, answer_correct, answer_correct_with_mistake,
 * answer_wrong_without_mistake` (all counts Int32), sorted by task.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * const traces = loadBbmDataset("tests/fixtures/bbm"); // a toy release: 6 traces
 * assert.deepEqual(bbmDatasetSummary(traces).toRecords(), [
 *   {
 *     task: "multistep_arithmetic",
 *     traces: 2,
 *     with_mistake: 1,
 *     answer_correct: 1,
 *     answer_correct_with_mistake: 0,
 *     answer_wrong_without_mistake: 0,
 *   },
 *   {
 *     task: "word_sorting",
 *     traces: 4,
 *     with_mistake: 2,
 *     answer_correct: 2, // " apple fig pear" counts: answers are trimmed
 *     answer_correct_with_mistake: 1,
 *     answer_wrong_without_mistake: 1, // a null answer is wrong
 *   },
 * ]);
 * ```
 */
export function bbmDatasetSummary(traces: pl.DataFrame): pl.DataFrame {
  const ac = pl.col("answer_correct"), hm = pl.col("has_mistake");
  return withTraceFlags(traces)
    .groupBy("task")
    .agg(
      pl.len().cast(pl.Int32).alias("traces"),
      count(hm, "with_mistake"),
      count(ac, "answer_correct"),
      count(ac.and(hm), "answer_correct_with_mistake"),
      count(ac.not().and(hm.not()), "answer_wrong_without_mistake"),
    )
    .sort("task")
    .select(...SUMMARY_COLUMNS);
}

/**
 * The 2×2 answer-correct × mistake-present table per task in long form: `task, answer_correct,
 * has_mistake, traces, share` (share of the task's traces); all four cells appear, zeros included.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * const traces = loadBbmDataset("tests/fixtures/bbm"); // a toy release: 6 traces
 * const t = answerMistakeTable(traces);
 * assert.equal(t.height, 8); // 4 rows per task, zeros included
 * assert.deepEqual(t.head(2).toRecords(), [
 *   { task: "multistep_arithmetic", answer_correct: true, has_mistake: true, traces: 0, share: 0 },
 *   { task: "multistep_arithmetic", answer_correct: true, has_mistake: false, traces: 1, share: 0.5 },
 * ]);
 * ```
 */
export function answerMistakeTable(traces: pl.DataFrame): pl.DataFrame {
  const flagged = withTraceFlags(traces);
  const counts = flagged.groupBy("task", "answer_correct", "has_mistake")
    .agg(pl.len().cast(pl.Int32).alias("traces"));
  const totals = flagged.groupBy("task").agg(pl.len().cast(pl.Int32).alias("task_traces"));
  const bools = [true, false];
  const grid = pl.DataFrame({ answer_correct: bools })
    .join(pl.DataFrame({ has_mistake: bools }), { how: "cross" });
  return totals.join(grid, { how: "cross" })
    .join(counts, { on: ["task", "answer_correct", "has_mistake"], how: "left" })
    .withColumns(pl.col("traces").fillNull(0).cast(pl.Int32))
    .withColumns(pl.col("traces").cast(pl.Float64).div(pl.col("task_traces")).alias("share"))
    .sort(["task", "answer_correct", "has_mistake"], [false, true, true])
    .select("task", "answer_correct", "has_mistake", "traces", "share");
}

/**
 * One row per trace with a mistake: `task, trace_index, n_steps, mistake_index` (0-based),
 * `mistake_step` (1-based, the "Thought N" number), `relative_position` (= mistake_index /
 * n_steps, in [0, 1)) and `answer_correct`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * const traces = loadBbmDataset("tests/fixtures/bbm"); // a toy release: 6 traces
 * const p = firstMistakePositions(traces);
 * assert.deepEqual(p.getColumn("mistake_step").toArray(), [1, 2, 2]); // 3 traces with a mistake
 * assert.deepEqual(p.getColumn("relative_position").toArray(), [0, 1 / 3, 1 / 4]);
 * ```
 */
export function firstMistakePositions(traces: pl.DataFrame): pl.DataFrame {
  return withTraceFlags(traces)
    .filter(pl.col("has_mistake"))
    .withColumns(
      pl.col("mistake_index").add(1).cast(pl.Int32).alias("mistake_step"),
      pl.col("mistake_index").cast(pl.Float64).div(pl.col("n_steps")).alias("relative_position"),
    )
    .select(
      "task",
      "trace_index",
      "n_steps",
      "mistake_index",
      "mistake_step",
      "relative_position",
      "answer_correct",
    );
}

/**
 * Histogram of the relative first-mistake position per task: `task, bin_start, bin_end,
 * traces, share` (share of the task's traces with a mistake), `bins` equal bins over [0, 1),
 * every bin listed (zeros included). Bin i holds positions in [i/bins, (i+1)/bins).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * const traces = loadBbmDataset("tests/fixtures/bbm"); // a toy release: 6 traces
 * const bins = relativePositionBins(traces, 4);
 * assert.equal(bins.height, 8); // 4 bins per task
 * const sorting = bins.filter(pl.col("task").eq(pl.lit("word_sorting")));
 * // its two positions, 1/3 and 1/4, fall in [0.25, 0.5)
 * assert.deepEqual(sorting.getColumn("traces").toArray(), [0, 2, 0, 0]);
 * ```
 */
export function relativePositionBins(traces: pl.DataFrame, bins = 10): pl.DataFrame {
  if (!Number.isInteger(bins) || bins < 1) throw new Error(`bins must be a positive integer`);
  const rows = firstMistakePositions(traces).select("task", "mistake_index", "n_steps")
    .toRecords();
  const counts = new Map<string, number[]>();
  for (const r of rows) {
    const c = counts.get(r.task as string) ?? new Array<number>(bins).fill(0);
    // integer arithmetic: exact at the bin edges (e.g. 3/10 falls in [0.3, 0.4))
    const b = Math.floor(((r.mistake_index as number) * bins) / (r.n_steps as number));
    c[b]++;
    counts.set(r.task as string, c);
  }
  const out = {
    task: [] as string[],
    bin: [] as number[],
    traces: [] as number[],
    share: [] as number[],
  };
  for (const task of [...counts.keys()].sort()) {
    const c = counts.get(task)!;
    const total = c.reduce((a, b) => a + b, 0);
    c.forEach((n, i) => {
      out.task.push(task);
      out.bin.push(i);
      out.traces.push(n);
      out.share.push(n / total);
    });
  }
  return pl.DataFrame({
    task: pl.Series("task", out.task, pl.Utf8),
    bin_start: pl.Series("bin_start", out.bin.map((i) => i / bins), pl.Float64),
    bin_end: pl.Series("bin_end", out.bin.map((i) => (i + 1) / bins), pl.Float64),
    traces: pl.Series("traces", out.traces, pl.Int32),
    share: pl.Series("share", out.share, pl.Float64),
  });
}

/**
 * Per task, where first mistakes fall: `task, with_mistake, min_mistake_step`,
 * `median_mistake_step`, `mean_mistake_step`, `median_relative_position`,
 * `mean_relative_position`, `max_mistake_step` (steps 1-based).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * const traces = loadBbmDataset(resolveDataDir());
 * const ws = firstMistakeSummary(traces).filter(pl.col("task").eq(pl.lit("word_sorting")));
 * const [row] = ws.toRecords();
 * assert.deepEqual([row.with_mistake, row.min_mistake_step, row.median_mistake_step], [266, 2, 4]);
 * ```
 */
export function firstMistakeSummary(traces: pl.DataFrame): pl.DataFrame {
  return firstMistakePositions(traces)
    .groupBy("task")
    .agg(
      pl.len().cast(pl.Int32).alias("with_mistake"),
      pl.col("mistake_step").min().cast(pl.Int32).alias("min_mistake_step"),
      pl.col("mistake_step").cast(pl.Float64).median().alias("median_mistake_step"),
      pl.col("mistake_step").cast(pl.Float64).mean().alias("mean_mistake_step"),
      pl.col("relative_position").median().alias("median_relative_position"),
      pl.col("relative_position").mean().alias("mean_relative_position"),
      pl.col("mistake_step").max().cast(pl.Int32).alias("max_mistake_step"),
    )
    .sort("task");
}

/**
 * Trace length (number of steps) distribution per task: `task, traces, min_steps,
 * median_steps, mean_steps, max_steps`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * const traces = loadBbmDataset(resolveDataDir());
 * const ws = traceLengthSummary(traces).filter(pl.col("task").eq(pl.lit("word_sorting")));
 * assert.deepEqual(ws.select("traces", "min_steps", "median_steps", "max_steps").toRecords(), [
 *   { traces: 300, min_steps: 5, median_steps: 11, max_steps: 25 },
 * ]);
 * ```
 */
export function traceLengthSummary(traces: pl.DataFrame): pl.DataFrame {
  const n = pl.col("n_steps");
  return traces.groupBy("task")
    .agg(
      pl.len().cast(pl.Int32).alias("traces"),
      n.min().cast(pl.Int32).alias("min_steps"),
      n.cast(pl.Float64).median().alias("median_steps"),
      n.cast(pl.Float64).mean().alias("mean_steps"),
      n.max().cast(pl.Int32).alias("max_steps"),
    )
    .sort("task");
}

/**
 * Trace length histogram: `task, n_steps, traces, with_mistake`, one row per observed length.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * const traces = loadBbmDataset("tests/fixtures/bbm"); // a toy release: 6 traces
 * assert.deepEqual(traceLengthCounts(traces).toRecords(), [
 *   { task: "multistep_arithmetic", n_steps: 3, traces: 2, with_mistake: 1 },
 *   { task: "word_sorting", n_steps: 3, traces: 3, with_mistake: 1 },
 *   { task: "word_sorting", n_steps: 4, traces: 1, with_mistake: 1 },
 * ]);
 * ```
 */
export function traceLengthCounts(traces: pl.DataFrame): pl.DataFrame {
  return withTraceFlags(traces)
    .groupBy("task", "n_steps")
    .agg(pl.len().cast(pl.Int32).alias("traces"), count(pl.col("has_mistake"), "with_mistake"))
    .sort(["task", "n_steps"]);
}
