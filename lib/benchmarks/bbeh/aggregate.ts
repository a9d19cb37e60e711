/**
 * BBEH aggregates of scored rows: per-task accuracy, the paper's headline (harmonic mean of
 * accuracy + 1), the micro average and the BBEH Mini micro average, each only when the rows
 * cover the examples the metric is defined on.
 *
 * The definitions reproduce the paper (Kazemi et al. 2025, arXiv:2502.19187): Table 2's "BBEH"
 * row is {@link harmonicMeanPlusOne} of the per-task accuracies, Table 4 is the micro average
 * over the 4,520 examples, Table 3 the micro average over the 460 BBEH Mini examples.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { bbehAggregate } from "@runlens/benchmarks/bbeh/aggregate.ts";
 * const scored = pl.DataFrame({ task: ["nycc"], example_index: [9], correct: [true] });
 * const agg = bbehAggregate(scored);
 * assert.equal(agg.coverage, "partial");
 * assert.equal(agg.harmonic_mean, null);
 * agg.note; // "covers 1 of 4520 examples (1 of 23 tasks) and 1 of 460 BBEH Mini examples; …"
 * ```
 * @module
 */
import pl from "nodejs-polars";
import {
  harmonicMeanCIOfStrata,
  type HeadlineCI,
  microCIOfClusters,
} from "../../stats/headline_ci.ts";
import type { RowStrata } from "../../stats/bootstrap.ts";
import { framesByRun } from "../../core/frames.ts";
import { parallelPool } from "../../core/parallel_map.ts";
import { type TextCodes, textCodes } from "../../core/codes.ts";
import { BBEH_MINI_SIZE, BBEH_SIZE, BBEH_TASK_NAMES, BBEH_TASKS, inMiniByStride } from "./tasks.ts";

/**
 * Per-task counts and accuracy. `scored` has columns `task` (Utf8), `correct` (Boolean) and the
 * columns in `by`. Output columns: `...by, task, n, correct, accuracy`, sorted by `...by` then
 * `task`. `n` (Int32) counts the rows with a non-null `correct` (null = not scored, left out),
 * `correct` (Int32) the true ones, `accuracy` (Float64) is `correct / n` in percent (0-100).
 * With an `example_index` column and several rows for an example (epochs), `accuracy` is the
 * mean over examples of each example's share of correct rows — the one definition of every
 * accuracy and interval runlens reports, so examples with more rows do not weigh more.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ task: ["nycc", "nycc"], correct: [true, false] });
 * const [row] = taskAccuracy(df).toRecords();
 * assert.deepEqual(row, { task: "nycc", n: 2, correct: 1, accuracy: 50 });
 * // example 0 right in 3 epochs, example 1 wrong once: (1 + 0) / 2, not 3 of 4
 * const epochs = pl.DataFrame({ task: Array(4).fill("nycc"), example_index: [0, 0, 0, 1],
 *   correct: [true, true, true, false] });
 * assert.equal(taskAccuracy(epochs).getColumn("accuracy").get(0), 50);
 * ```
 */
export function taskAccuracy(scored: pl.DataFrame, by: string[] = []): pl.DataFrame {
  requireColumns(scored, ["task", "correct", ...by], "taskAccuracy");
  const keys = [...by, "task"];
  const rowAccuracy = pl.col("correct").cast(pl.Float64).mul(100).div(pl.col("n"));
  if (!scored.columns.includes("example_index")) {
    return scored
      .select(...keys.map((k) => pl.col(k)), pl.col("correct").cast(pl.Bool))
      .groupBy(keys)
      .agg(
        pl.col("correct").count().cast(pl.Int32).alias("n"),
        pl.col("correct").sum().cast(pl.Int32).alias("correct"),
      )
      .withColumns(rowAccuracy.alias("accuracy"))
      .sort(keys)
      .select(...keys, "n", "correct", "accuracy");
  }
  return scored
    .select(...keys.map((k) => pl.col(k)), "example_index", pl.col("correct").cast(pl.Bool))
    .filter(pl.col("correct").isNotNull())
    .groupBy([...keys, "example_index"])
    .agg(
      pl.len().alias("rows"),
      pl.col("correct").sum().alias("right"),
      pl.col("correct").cast(pl.Float64).mean().alias("m"),
    )
    .groupBy(keys)
    .agg(
      pl.len().alias("examples"),
      pl.col("rows").sum().cast(pl.Int32).alias("n"),
      pl.col("right").sum().cast(pl.Int32).alias("correct"),
      pl.col("m").mean().mul(100).alias("per_example"),
    )
    // one row per example: the row formula, so the numbers stay exactly those of correct/n
    .withColumns(
      pl.when(pl.col("n").eq(pl.col("examples"))).then(rowAccuracy)
        .otherwise(pl.col("per_example")).alias("accuracy"),
    )
    .sort(keys)
    .select(...keys, "n", "correct", "accuracy");
}

/**
 * The BBEH headline metric: the harmonic mean of `accuracy + 1` over the values (accuracies
 * in percent, 0-100), with nothing subtracted afterwards, as in the paper's Table 2.
 * Throws on an empty list or a value outside 0-100.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const hm = harmonicMeanPlusOne([0, 99]); // 2 / (1/1 + 1/100) ≈ 1.98
 * assert.ok(Math.abs(hm - 200 / 101) < 1e-12);
 * assert.throws(() => harmonicMeanPlusOne([0.5, 101]), RangeError);
 * ```
 */
export function harmonicMeanPlusOne(accuracies: readonly number[]): number {
  if (accuracies.length === 0) throw new RangeError("harmonicMeanPlusOne: no accuracies");
  let sum = 0;
  for (const a of accuracies) {
    if (!(a >= 0 && a <= 100)) {
      throw new RangeError(`harmonicMeanPlusOne: accuracy ${a} is not a percentage in 0-100`);
    }
    sum += 1 / (a + 1);
  }
  return accuracies.length / sum;
}

/** Aggregates of one run, each null when the rows do not cover what it is defined on. */
export type BbehAggregate = {
  /** Paper headline (Table 2): {@link harmonicMeanPlusOne} of the 23 task accuracies. */
  harmonic_mean: number | null;
  /**
   * Micro average (Table 4): correct rows / rows × 100 over the full set; with several rows per
   * example, the mean over examples of each example's share correct.
   */
  micro: number | null;
  /** BBEH Mini micro average (Table 3): over the rows of the 460 Mini examples. */
  mini_micro: number | null;
  /** "full": all 4,520 examples; "mini": all 460 Mini examples only; else "partial". */
  coverage: "full" | "mini" | "partial";
  /** Why aggregates are missing, or how repeated rows were counted; null when nothing to say. */
  note: string | null;
};

let catalogCache: pl.DataFrame | null = null;

/** Every BBEH example as (task, example_index, mini); the Mini flag from {@link MINI}. */
function exampleCatalog(): pl.DataFrame {
  if (catalogCache) return catalogCache;
  const task: string[] = [];
  const taskId: number[] = [];
  const index: number[] = [];
  for (const [id, info] of BBEH_TASKS.entries()) {
    for (let i = 0; i < info.size; i++) {
      task.push(info.name);
      taskId.push(id);
      index.push(i);
    }
  }
  catalogCache = pl.DataFrame([
    pl.Series("task", task, pl.Utf8),
    pl.Series("example_index", index, pl.Int32),
    // the catalog's rows are in catalog-number order (BBEH_TASKS, then index), as MINI is
    pl.Series("mini", Array.from(MINI, (m) => m === 1), pl.Bool),
    // the task's position in BBEH_TASKS: numbers cross into JavaScript far faster than text
    pl.Series("task_id", taskId, pl.Int32),
  ]);
  return catalogCache;
}

/**
 * Aggregates of ONE run. `scored` has columns `task` (canonical BBEH name), `example_index`
 * (0-based position in the task file) and `correct`. Coverage decides what is computed: the
 * full set gives all three numbers, the 460 Mini examples (by the release's stride rule) give
 * only `mini_micro`, anything less gives none. Several rows per example (epochs) are averaged
 * per example first (every example weighs the same, as in the intervals and `compare`), and
 * `note` says so. Throws when a row's task is not a BBEH task, its index is
 * missing or out of the task's range, or its `correct` is null (the loader should have
 * quarantined such rows).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { BBEH_TASKS } from "@runlens/benchmarks/bbeh/tasks.ts";
 * // Every example once, all right: the headline is 101 (harmonic mean of 100 + 1), up to
 * // floating point (23 / (23 × 1/101) = 100.99999999999997).
 * const task = BBEH_TASKS.flatMap((t) => Array<string>(t.size).fill(t.name));
 * const example_index = BBEH_TASKS.flatMap((t) => [...Array(t.size).keys()]);
 * const agg = bbehAggregate(pl.DataFrame({ task, example_index, correct: task.map(() => true) }));
 * assert.equal(agg.coverage, "full");
 * assert.equal(agg.micro, 100);
 * assert.equal(agg.mini_micro, 100);
 * assert.ok(Math.abs(agg.harmonic_mean! - 101) < 1e-9);
 * ```
 */
export function bbehAggregate(scored: pl.DataFrame): BbehAggregate {
  requireColumns(scored, ["task", "example_index", "correct"], "bbehAggregate");
  const rows = checkedRows(scored);
  const examples = rows.groupBy(["task", "example_index"])
    .agg(
      pl.len().alias("rows"),
      pl.col("mini").first(),
      pl.col("correct").cast(pl.Float64).mean().alias("correct"),
    );
  const coveredMini = examples.filter(pl.col("mini")).height;
  const covered = examples.height;
  const repeats = rows.height > covered ? repeatNote(examples) : null;
  // per-example means when an example has several rows; the rows themselves otherwise
  const units = repeats === null ? rows : examples;

  if (covered === BBEH_SIZE) {
    const perTask = taskAccuracy(rows).getColumn("accuracy").toArray() as number[];
    return {
      harmonic_mean: harmonicMeanPlusOne(perTask),
      micro: percentCorrect(units),
      mini_micro: percentCorrect(units.filter(pl.col("mini"))),
      coverage: "full",
      note: repeats,
    };
  }
  if (coveredMini === BBEH_MINI_SIZE) {
    const outside = rows.filter(pl.col("mini").not()).height;
    const parts = [
      `covers all ${BBEH_MINI_SIZE} BBEH Mini examples but only ${covered} of ${BBEH_SIZE} ` +
      "examples: mini_micro only (harmonic_mean and micro need the full set)",
      outside > 0 ? `${outside} row(s) outside Mini are left out of mini_micro` : null,
      repeats,
    ];
    return {
      harmonic_mean: null,
      micro: null,
      mini_micro: percentCorrect(units.filter(pl.col("mini"))),
      coverage: "mini",
      note: parts.filter((p) => p !== null).join("; "),
    };
  }
  const tasks = examples.select(pl.col("task").nUnique()).getColumn("task").toArray()[0] ?? 0;
  return partialAggregate(covered, Number(tasks), coveredMini);
}

/** The aggregate of rows that cover neither the full set nor BBEH Mini. */
function partialAggregate(covered: number, tasks: number, coveredMini: number): BbehAggregate {
  return {
    harmonic_mean: null,
    micro: null,
    mini_micro: null,
    coverage: "partial",
    note: `covers ${covered} of ${BBEH_SIZE} examples (${tasks} of ${BBEH_TASK_NAMES.length} ` +
      `tasks) and ${coveredMini} of ${BBEH_MINI_SIZE} BBEH Mini examples; ` +
      "aggregates need the full set or BBEH Mini",
  };
}

/**
 * {@link bbehAggregate} of every run of `scored` (a `run` column besides `task`,
 * `example_index`, `correct`) — the same values, computed in a few passes over all rows, so a
 * folder of thousands of small runs costs no more than one big run (runs that cover neither
 * the full set nor BBEH Mini are summarised from counts alone).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({ run: ["a", "a", "b"], task: ["nycc", "nycc", "linguini"],
 *   example_index: [0, 1, 0], correct: [true, false, true] });
 * const byRun = bbehAggregates(rows);
 * assert.deepEqual(byRun.get("a"), bbehAggregate(rows.filter(pl.col("run").eq(pl.lit("a")))));
 * assert.equal(byRun.get("b")?.coverage, "partial");
 * ```
 */
export function bbehAggregates(scored: pl.DataFrame): Map<string, BbehAggregate> {
  requireColumns(scored, ["run", "task", "example_index", "correct"], "bbehAggregates");
  const c = checkedRuns(scored);
  const stats = c.runs.map((_, r) => runStats(c, r));
  const isFull = (s: RunStats) => s.covered === BBEH_SIZE || s.mini === BBEH_MINI_SIZE;
  // a full run with every example once is summed from counts; the rest one run at a time
  const once = (s: RunStats) => s.covered === BBEH_SIZE && s.rows === BBEH_SIZE;
  const full = framesByRun(scored, c.runs.filter((_, r) => isFull(stats[r]) && !once(stats[r])));
  const out = new Map<string, BbehAggregate>();
  for (const [r, run] of [...c.runs.entries()].sort(([, a], [, b]) => a < b ? -1 : 1)) {
    const s = stats[r];
    const rows = full.get(run);
    out.set(
      run,
      once(s)
        ? onceAggregate(s)
        : rows
        ? bbehAggregate(rows)
        : partialAggregate(s.covered, s.tasks, s.mini),
    );
  }
  return out;
}

/** Counts of one run's checked rows: rows, distinct examples (all, Mini, tasks), per task. */
interface RunStats {
  rows: number;
  covered: number;
  mini: number;
  tasks: number;
  /** By task id: rows, correct rows, Mini rows, correct Mini rows. */
  perTask: { n: number; right: number; miniN: number; miniRight: number }[];
}

/** {@link RunStats} of run `r` of `c`, in one pass over its rows. */
function runStats(c: CheckedRuns, r: number): RunStats {
  const perTask = c.names.map(() => ({ n: 0, right: 0, miniN: 0, miniRight: 0 }));
  const seen = new Uint8Array(BBEH_SIZE);
  let covered = 0, mini = 0;
  for (let k = c.start[r]; k < c.start[r + 1]; k++) {
    const i = c.order[k];
    const t = perTask[c.task[i]];
    const right = c.correct[i] === 1 ? 1 : 0;
    t.n++, t.right += right;
    if (c.mini[i] === 1) t.miniN++, t.miniRight += right;
    const id = TASK_OFFSETS[c.task[i]] + c.index[i];
    if (seen[id] === 0) seen[id] = 1, covered++, mini += c.mini[i];
  }
  const tasks = perTask.filter((t) => t.n > 0).length;
  return { rows: c.start[r + 1] - c.start[r], covered, mini, tasks, perTask };
}

/**
 * {@link bbehAggregate} of a run that holds every example exactly once, from its per-task
 * counts, with the same arithmetic in the same order: task accuracies `correct × 100 / n` in
 * task-name order, micro `(correct / n) × 100`.
 */
function onceAggregate(s: RunStats): BbehAggregate {
  const byName = BBEH_TASKS.map((t, id) => ({ name: t.name, ...s.perTask[id] }))
    .sort((a, b) => a.name < b.name ? -1 : 1);
  const sum = (k: "n" | "right" | "miniN" | "miniRight") => byName.reduce((a, t) => a + t[k], 0);
  return {
    harmonic_mean: harmonicMeanPlusOne(byName.map((t) => t.right * 100 / t.n)),
    micro: (sum("right") / sum("n")) * 100,
    mini_micro: (sum("miniRight") / sum("miniN")) * 100,
    coverage: "full",
    note: null,
  };
}

function requireColumns(df: pl.DataFrame, cols: string[], fn: string): void {
  const missing = cols.filter((c) => !df.columns.includes(c));
  if (missing.length > 0) throw new Error(`${fn}: missing column(s) ${missing.join(", ")}`);
}

/** Expressions and frames of {@link checkedRows}, built once (each costs a native call). */
let checks: {
  base: pl.Expr[];
  isTask: pl.Expr;
  sizes: pl.DataFrame;
  badIndex: pl.Expr;
  label: pl.Expr;
  nullCorrect: pl.Expr;
  out: pl.Expr[];
} | null = null;

function checkExprs(): NonNullable<typeof checks> {
  if (checks) return checks;
  const idx = pl.col("example_index").cast(pl.Float64);
  return checks = {
    base: [
      pl.col("task").cast(pl.Utf8),
      idx.alias("index_f"),
      pl.col("example_index").cast(pl.Utf8).fillNull("null").alias("index_label"),
      idx.floor().eq(idx).alias("integral"),
      pl.col("correct").cast(pl.Bool),
    ],
    isTask: pl.col("task").isIn(BBEH_TASK_NAMES as string[]).fillNull(false),
    sizes: pl.DataFrame([
      pl.Series("task", BBEH_TASKS.map((t) => t.name), pl.Utf8),
      pl.Series("size", BBEH_TASKS.map((t) => t.size), pl.Float64),
    ]),
    badIndex: pl.col("index_f").isNull()
      .or(pl.col("integral").not())
      .or(pl.col("index_f").lt(0))
      .or(pl.col("index_f").gtEq(pl.col("size"))),
    label: pl.concatString([pl.col("task"), pl.col("index_label")], "#").alias("label"),
    nullCorrect: pl.col("correct").isNull(),
    out: [
      pl.col("task"),
      pl.col("index_f").cast(pl.Int32).alias("example_index"),
      pl.col("correct"),
    ],
  };
}

/**
 * The rows as (`by`…, task, example_index, correct, mini), after checking each names an
 * example.
 */
function checkedRows(scored: pl.DataFrame, by: readonly string[] = []): pl.DataFrame {
  const c = checkExprs();
  const base = scored.select(...by.map((k) => pl.col(k)), ...c.base);
  const problems: string[] = [];
  const badTask = base.filter(c.isTask.not());
  if (badTask.height > 0) {
    problems.push(
      `${badTask.height} row(s) have a task that is not a BBEH task (e.g. ${
        examplesOf(badTask.select(pl.col("task").fillNull("<null>")).unique().getColumn("task"))
      })`,
    );
  }
  const known = base.filter(c.isTask);
  const badIndex = known.join(c.sizes, { on: "task" }).filter(c.badIndex);
  if (badIndex.height > 0) {
    const labels = badIndex.select(c.label).getColumn("label");
    problems.push(
      `${badIndex.height} row(s) have an example_index that is missing, not an integer or ` +
        `outside the task's range (e.g. ${examplesOf(labels)})`,
    );
  }
  const nullCorrect = base.filter(c.nullCorrect).height;
  if (nullCorrect > 0) problems.push(`${nullCorrect} row(s) have no verdict (correct is null)`);
  if (problems.length > 0) {
    throw new Error(
      `bbehAggregate: ${problems.join("; ")}; the loader should quarantine such rows`,
    );
  }
  return base.select(...by.map((k) => pl.col(k)), ...c.out)
    .join(exampleCatalog(), { on: ["task", "example_index"] });
}

function examplesOf(values: pl.Series): string {
  return values.head(3).toArray().map((v) => JSON.stringify(v)).join(", ");
}

function percentCorrect(rows: pl.DataFrame): number {
  return (rows.select(pl.col("correct").cast(pl.Float64).mean()).getColumn("correct")
    .toArray()[0] as number) * 100;
}

function repeatNote(examples: pl.DataFrame): string {
  const stats = examples.select(
    pl.col("rows").sum().alias("total"),
    pl.col("rows").min().alias("min"),
    pl.col("rows").max().alias("max"),
  ).toRecords()[0] as { total: number; min: number; max: number };
  const spread = stats.min === stats.max
    ? `${stats.min} rows per example`
    : `${stats.min}-${stats.max} rows per example`;
  return `several rows per example (${stats.total} rows for ${examples.height} examples, ` +
    `${spread}): each example's rows are averaged first, so every example weighs the same`;
}

/**
 * The 95% intervals of the aggregates {@link bbehAggregate} gives for these rows (only those it
 * gives: a partial run has none): the harmonic mean with a seeded bootstrap over examples
 * stratified by task, micro and Mini micro with the CLT standard error, clustered by example
 * when the run has several rows per example (`lib/stats/headline_ci.ts`).
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * import { BBEH_TASKS } from "@runlens/benchmarks/bbeh/tasks.ts";
 * const task = BBEH_TASKS.flatMap((t) => Array<string>(t.size).fill(t.name));
 * const example_index = BBEH_TASKS.flatMap((t) => [...Array(t.size).keys()]);
 * const correct = example_index.map((i) => i % 4 === 0); // 25% everywhere
 * const ci = bbehIntervals(pl.DataFrame({ task, example_index, correct }));
 * ci.micro!.ci_low < 25 && 25 < ci.micro!.ci_high; // true
 * ci.harmonic_mean!.method; // "bootstrap (basic, 2000 resamples stratified by task, seed 20240601)"
 * ```
 */
export function bbehIntervals(
  scored: pl.DataFrame,
  aggregate: BbehAggregate = bbehAggregate(scored),
): Partial<Record<"harmonic_mean" | "micro" | "mini_micro", HeadlineCI>> {
  if (aggregate.coverage === "partial") return {};
  return bbehIntervalsByRun(
    scored.select(pl.lit("").alias("run"), "task", "example_index", "correct"),
    new Map([["", aggregate]]),
  ).get("") ?? {};
}

/**
 * {@link bbehIntervals} of every run of `scored` (rows with a `run` column) whose aggregate
 * `aggregates` holds, in one pass: the rows are checked once and split by run in JavaScript
 * (checking and splitting per run cost a few polars calls each, seconds for hundreds of runs).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { BBEH_TASKS } from "@runlens/benchmarks/bbeh/tasks.ts";
 * const task = BBEH_TASKS.flatMap((t) => Array<string>(t.size).fill(t.name));
 * const example_index = BBEH_TASKS.flatMap((t) => [...Array(t.size).keys()]);
 * const one = pl.DataFrame({ task, example_index, correct: example_index.map((i) => i % 3 === 0) });
 * const rows = pl.concat([one.withColumns(pl.lit("a").alias("run")),
 *   one.withColumns(pl.lit("b").alias("run"))]);
 * const byRun = bbehIntervalsByRun(rows, bbehAggregates(rows));
 * assert.deepEqual(byRun.get("b"), bbehIntervals(one));
 * ```
 */
export function bbehIntervalsByRun(
  scored: pl.DataFrame,
  aggregates: ReadonlyMap<string, BbehAggregate>,
): Map<string, Partial<Record<"harmonic_mean" | "micro" | "mini_micro", HeadlineCI>>> {
  const out = new Map<
    string,
    Partial<Record<"harmonic_mean" | "micro" | "mini_micro", HeadlineCI>>
  >();
  const wanted = [...aggregates].filter(([, a]) => a.coverage !== "partial");
  if (wanted.length === 0) return out;
  // the bootstrap (2,000 resamples a run) is most of the summaries' time: other cores share
  // it, their Workers loading while the clusters below are built
  const pool = parallelPool(
    HARMONIC_CI,
    wanted.filter(([, a]) => a.harmonic_mean !== null).length,
  );
  try {
    const c = checkedRuns(scored);
    const ids = new Map(c.runs.map((run, r) => [run, r]));
    // runs with a harmonic mean first: their strata are made on demand, the Workers' shares
    // first, so the caller builds its own share's clusters while the Workers resample
    const present = wanted.filter(([run]) => ids.has(run));
    const withMean = present.filter(([, a]) => a.harmonic_mean !== null);
    const order = [...withMean, ...present.filter(([, a]) => a.harmonic_mean === null)];
    const bounded = withMean.length;
    const parts = new Array<ReturnType<typeof runParts>>(order.length);
    const make = (i: number) => parts[i] = runParts(c, ids.get(order[i][0])!, order[i][1]);
    const harmonic = pool.mapMade(
      bounded,
      (i) => make(i).strata!,
      (s) => harmonicMeanCIOfStrata(s),
    );
    for (let i = bounded; i < order.length; i++) make(i);
    order.forEach(([run], i) => {
      const ci: Partial<Record<"harmonic_mean" | "micro" | "mini_micro", HeadlineCI>> = {};
      if (i < bounded) ci.harmonic_mean = harmonic[i]!;
      if (parts[i].micro) ci.micro = parts[i].micro!;
      if (parts[i].mini) ci.mini_micro = parts[i].mini!;
      out.set(run, ci);
    });
    return out;
  } finally {
    pool.close();
  }
}

/** {@link harmonicMeanCIOfStrata}, for Worker threads. */
const HARMONIC_CI = {
  module: new URL("../../stats/headline_ci.ts", import.meta.url).href,
  name: "harmonicMeanCIOfStrata",
};

/** Checked rows of one or more runs as arrays (numbers cross from polars far faster than text). */
interface CheckedRuns {
  /** Task names by task id (the order of `BBEH_TASKS`). */
  names: readonly string[];
  /** Run names by run id (order of first occurrence; one unnamed run without a `run` column). */
  runs: readonly string[];
  task: Int32Array;
  index: Int32Array;
  correct: Int8Array;
  mini: Int8Array;
  /** Row numbers grouped by run id, in row order within a run; run r is order[start[r]…start[r+1]). */
  order: Int32Array;
  start: Int32Array;
}

// aggregates and intervals of one summary check the same frame: check it once
const checkedOf = new WeakMap<pl.DataFrame, CheckedRuns>();

/** {@link checkedRows} of `scored` as {@link CheckedRuns}, split by its `run` column if any. */
function checkedRuns(scored: pl.DataFrame): CheckedRuns {
  const hit = checkedOf.get(scored);
  if (hit) return hit;
  const cols = checkedArrays(scored) ?? checkedByPolars(scored);
  const { order, start } = groupRows(cols.run.ids, cols.run.values.length);
  const out: CheckedRuns = {
    names: BBEH_TASK_NAMES,
    runs: cols.run.values as string[],
    ...cols,
    order,
    start,
  };
  checkedOf.set(scored, out);
  return out;
}

/** Per-row arrays of checked rows: run codes, task id, example index, verdict, Mini flag. */
type CheckedArrays = Pick<CheckedRuns, "task" | "index" | "correct" | "mini"> & {
  run: TextCodes;
};

/** One run for rows without a `run` column. */
function oneRun(rows: number): TextCodes {
  return { ids: new Int32Array(rows), values: [""] };
}

/**
 * The checked rows as arrays straight from the frame's columns, without a polars join — or
 * null when a row fails a check or a column has an unusual type, where {@link checkedRows}
 * decides (and says what is wrong).
 */
function checkedArrays(scored: pl.DataFrame): CheckedArrays | null {
  const col = (name: string) => scored.getColumn(name);
  const hasRun = scored.columns.includes("run");
  const integral = ["Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"];
  if (
    !integral.includes(col("example_index").dtype.variant) ||
    col("correct").dtype.variant !== "Bool" ||
    ["task", "example_index", "correct", ...(hasRun ? ["run"] : [])]
      .some((c) => col(c).nullCount() > 0) ||
    !(Number(col("example_index").min()) >= 0 && Number(col("example_index").max()) < 2 ** 31)
  ) return null;
  const tasks = textCodes(col("task"));
  const taskIds = tasks.values.map((t) => BBEH_TASK_NAMES.indexOf(t as string));
  if (taskIds.includes(-1)) return null;
  const index = col("example_index").cast(pl.Int32).toTypedArray() as Int32Array;
  const task = new Int32Array(index.length);
  const mini = new Int8Array(index.length);
  for (let i = 0; i < index.length; i++) {
    const t = task[i] = taskIds[tasks.ids[i]];
    if (index[i] >= BBEH_TASKS[t].size) return null;
    mini[i] = MINI[TASK_OFFSETS[t] + index[i]];
  }
  return {
    run: hasRun ? textCodes(col("run")) : oneRun(index.length),
    task,
    index,
    correct: col("correct").cast(pl.Int8).toTypedArray() as Int8Array,
    mini,
  };
}

/** The checked rows as arrays through {@link checkedRows} (which throws on a bad row). */
function checkedByPolars(scored: pl.DataFrame): CheckedArrays {
  const hasRun = scored.columns.includes("run");
  const rows = checkedRows(scored, hasRun ? ["run"] : []);
  const typed = (name: string, type: pl.DataType) => rows.getColumn(name).cast(type).toTypedArray();
  return {
    run: hasRun ? textCodes(rows.getColumn("run")) : oneRun(rows.height),
    task: typed("task_id", pl.Int32) as Int32Array,
    index: typed("example_index", pl.Int32) as Int32Array,
    correct: typed("correct", pl.Int8) as Int8Array,
    mini: typed("mini", pl.Int8) as Int8Array,
  };
}

/** Row numbers grouped by group id 0…groups-1 (a stable counting sort), each group's start. */
function groupRows(ids: Int32Array, groups: number): { order: Int32Array; start: Int32Array } {
  const start = new Int32Array(groups + 1);
  for (let i = 0; i < ids.length; i++) start[ids[i] + 1]++;
  for (let g = 0; g < groups; g++) start[g + 1] += start[g];
  const next = start.slice(0, groups);
  const order = new Int32Array(ids.length);
  for (let i = 0; i < ids.length; i++) order[next[ids[i]]++] = i;
  return { order, start };
}

/** Run `r`'s strata for the bootstrap (when it has a harmonic mean) and its micro intervals. */
function runParts(c: CheckedRuns, r: number, aggregate: BbehAggregate) {
  const { clusters, taskOf, miniClusters } = clustersOf(c, r);
  return {
    strata: aggregate.harmonic_mean !== null ? strataOf(c.names, clusters, taskOf) : null,
    micro: aggregate.micro !== null ? microCIOfClusters(clusters) : null,
    mini: aggregate.mini_micro !== null ? microCIOfClusters(miniClusters) : null,
  };
}

/**
 * The scores of run `r` by example, in the order the examples first occur (what `microCI` and
 * `strataFromRows` build from text keys, here from the example's position in the catalog):
 * all examples, their task ids, and the Mini examples.
 */
function clustersOf(
  c: CheckedRuns,
  r: number,
): { clusters: number[][]; taskOf: number[]; miniClusters: number[][] } {
  const clusterOf = new Int32Array(BBEH_SIZE).fill(-1);
  const clusters: number[][] = [];
  const taskOf: number[] = [];
  const miniClusters: number[][] = [];
  for (let k = c.start[r]; k < c.start[r + 1]; k++) {
    const i = c.order[k];
    const id = TASK_OFFSETS[c.task[i]] + c.index[i];
    const score = c.correct[i] === 1 ? 1 : 0;
    if (clusterOf[id] < 0) {
      clusterOf[id] = clusters.length;
      clusters.push([]);
      taskOf.push(c.task[i]);
      if (c.mini[i] === 1) miniClusters.push(clusters[clusterOf[id]]);
    }
    clusters[clusterOf[id]].push(score);
  }
  return { clusters, taskOf, miniClusters };
}

/**
 * Strata by task name (sorted) of per-example mean scores, as `strataFromRows` gives them — a
 * stratum of 0/1 scores as its counts (the bootstrap resamples it the same way, and counts
 * cross to a Worker thread in a few bytes).
 */
function strataOf(names: readonly string[], clusters: number[][], taskOf: number[]): RowStrata {
  const byTask = names.map(() => [] as number[]);
  let min = Infinity, max = 0;
  clusters.forEach((scores, k) => {
    let sum = 0;
    for (const s of scores) sum += s;
    byTask[taskOf[k]].push(sum / scores.length);
    min = Math.min(min, scores.length), max = Math.max(max, scores.length);
  });
  const present = names.map((name, t) => ({ name, scores: byTask[t] }))
    .filter((t) => t.scores.length > 0).sort((a, b) => a.name < b.name ? -1 : 1);
  return {
    names: present.map((t) => t.name),
    strata: present.map(({ scores }) =>
      scores.every((x) => x === 0 || x === 1)
        ? { correct: scores.filter((x) => x === 1).length, n: scores.length }
        : { scores }
    ),
    epochs: { min: present.length ? min : 0, max },
  };
}

/** Where each task's examples start in the catalog's example numbering (BBEH_TASKS order). */
const TASK_OFFSETS: readonly number[] = BBEH_TASKS.reduce(
  (acc, t) => [...acc, acc[acc.length - 1] + t.size],
  [0],
);

/** 1 for the BBEH Mini examples, by catalog number ({@link inMiniByStride}). */
const MINI: Int8Array = Int8Array.from(
  BBEH_TASKS.flatMap((t) => Array.from({ length: t.size }, (_, i) => inMiniByStride(t.name, i))),
  (m) => m ? 1 : 0,
);
