/**
 * Paired comparison of two runs on the same examples (issue 16; the statistics are those of
 * `lib/stats/paired.ts`, after E. Miller, "Adding Error Bars to Evals", arXiv 2411.00640): per
 * task and over all tasks, the difference of accuracy A − B in percentage points with its
 * paired standard error and 95% interval, McNemar's exact test on the discordant examples
 * (the exact sign test when epochs make scores fractional), Holm-adjusted p-values across
 * tasks, and the minimum detectable difference at 80% power for that n. Epochs are averaged
 * per example first. Examples scored by only one run are counted as unpaired, never dropped
 * in silence.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   run: ["a", "a", "a", "b", "b", "b"],
 *   benchmark: Array(6).fill("bbeh"),
 *   task: Array(6).fill("nycc"),
 *   example_index: [0, 1, 2, 0, 1, 3],
 *   correct: [true, true, false, false, true, true],
 * });
 * const [cmp] = compareRuns(rows, "a", "b");
 * cmp.overall.n_paired; // 2 (examples 0 and 1)
 * cmp.overall.diff; // 50 (A right on 0 and 1, B on 1: 100% − 50%)
 * [cmp.unpaired_a, cmp.unpaired_b]; // [1, 1]
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { compareTasks, type KeyedScore, type PairedComparison } from "../stats/paired.ts";

/** One row of a comparison (a task, or `overall`): percent and percentage points. */
export interface PairedRow {
  /** The task, or "overall" (every paired example of every task). */
  scope: string;
  n_paired: number;
  /** Accuracy (%) of A and of B over the paired examples. */
  acc_a: number;
  acc_b: number;
  /** A − B, percentage points, with its paired SE and 95% interval. */
  diff: number;
  se: number | null;
  ci_low: number | null;
  ci_high: number | null;
  /** Examples only A got right (McNemar's b) and only B (c). */
  a_only: number;
  b_only: number;
  /** Two-sided exact p-value. */
  p_value: number;
  /** Holm-adjusted across the tasks (tasks only). */
  p_holm?: number | null;
  /** Minimum detectable difference at 80% power, α = 0.05, percentage points. */
  mdd: number | null;
  /** "mcnemar-exact", or "sign-exact" when epochs make scores fractional. */
  test: string;
}

/** Two runs compared on one benchmark. */
export interface RunComparison {
  run_a: string;
  run_b: string;
  benchmark: string;
  overall: PairedRow;
  tasks: PairedRow[];
  /** Examples only A (B) scored. */
  unpaired_a: number;
  unpaired_b: number;
}

/** A number or null when it is not finite (e.g. the SE of one pair). */
const finite = (x: number) => Number.isFinite(x) ? x : null;

/** A {@link PairedComparison} as a report row in percent. */
function rowOf(scope: string, c: PairedComparison, pHolm?: number | null): PairedRow {
  const pp = (x: number) => finite(x * 100);
  return {
    scope,
    n_paired: c.n,
    acc_a: c.meanA * 100,
    acc_b: c.meanB * 100,
    diff: c.estimate * 100,
    se: pp(c.se),
    ci_low: pp(c.low),
    ci_high: pp(c.high),
    a_only: c.aBetter,
    b_only: c.bBetter,
    p_value: c.pValue,
    ...(pHolm === undefined ? {} : { p_holm: pHolm }),
    mdd: pp(c.mde),
    test: c.test,
  };
}

/**
 * Compare run `a` with run `b` on every benchmark both have rows of; `rows` has `run`,
 * `benchmark`, `task`, `example_index`, `correct` (and optionally `epoch`: rows of one example
 * are averaged). Throws when a run has no rows or the two share no benchmark.
 */
export function compareRuns(rows: pl.DataFrame, a: string, b: string): RunComparison[] {
  return runComparer(rows)(a, b);
}

/**
 * {@link compareRuns} for many pairs of runs (e.g. all 190 pairs of 20 runs): reads the
 * frame's columns once and returns a function that compares any two of its runs (throwing as
 * {@link compareRuns} does).
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const compare = runComparer(pl.DataFrame({
 *   run: ["a", "b", "c"], benchmark: ["bbh", "bbh", "bbh"], task: ["snarks", "snarks", "snarks"],
 *   example_index: [0, 0, 0], correct: [true, false, true],
 * }));
 * [compare("a", "b")[0].overall.diff, compare("a", "c")[0].overall.diff]; // [100, 0]
 * ```
 */
export function runComparer(rows: pl.DataFrame): (a: string, b: string) => RunComparison[] {
  const byRun = scoresByRun(rows);
  return (a, b) => {
    const inA = byRun.get(a), inB = byRun.get(b);
    if (!inA) throw new Error(`no scored rows for run "${a}"`);
    if (!inB) throw new Error(`no scored rows for run "${b}"`);
    const shared = [...inA.keys()].filter((x) => inB.has(x)).sort();
    if (shared.length === 0) {
      throw new Error(
        `runs "${a}" and "${b}" share no benchmark (${[...inA.keys()]} vs ${[...inB.keys()]})`,
      );
    }
    return shared.map((benchmark) =>
      compareOn(a, b, benchmark, inA.get(benchmark)!, inB.get(benchmark)!)
    );
  };
}

/** run → benchmark → task → [example_index, score] of every row, in row order. */
type ScoresByRun = Map<string, Map<string, Map<string, KeyedScore[]>>>;

function scoresByRun(rows: pl.DataFrame): ScoresByRun {
  const col = (name: string) => rows.getColumn(name).toArray();
  const run = col("run") as string[], benchmark = col("benchmark") as string[];
  const task = col("task") as string[], index = col("example_index") as number[];
  const correct = rows.getColumn("correct").cast(pl.Float64).toArray() as number[];
  const out: ScoresByRun = new Map();
  run.forEach((r, i) => {
    let benchmarks = out.get(r);
    if (!benchmarks) out.set(r, benchmarks = new Map());
    let tasks = benchmarks.get(benchmark[i]);
    if (!tasks) benchmarks.set(benchmark[i], tasks = new Map());
    let scores = tasks.get(task[i]);
    if (!scores) tasks.set(task[i], scores = []);
    scores.push([String(index[i]), correct[i]]);
  });
  return out;
}

/** The comparison on one benchmark, from both runs' per-task scores. */
function compareOn(
  a: string,
  b: string,
  benchmark: string,
  sa: Map<string, KeyedScore[]>,
  sb: Map<string, KeyedScore[]>,
): RunComparison {
  const taskNames = [...new Set([...sa.keys(), ...sb.keys()])].sort();
  const result = compareTasks(taskNames.map((task) => ({
    task,
    a: sa.get(task) ?? [],
    b: sb.get(task) ?? [],
  })));
  if (result.overall === null) {
    throw new Error(`runs "${a}" and "${b}" share no example of ${benchmark}`);
  }
  return {
    run_a: a,
    run_b: b,
    benchmark,
    overall: rowOf("overall", result.overall),
    tasks: result.tasks.filter((t) => t.comparison !== null)
      .map((t) => rowOf(t.task, t.comparison!, t.pHolm)),
    unpaired_a: result.overall.unpaired.a,
    unpaired_b: result.overall.unpaired.b,
  };
}
