/**
 * Paired comparison of two runs on the same examples (issue 16; the statistics are those of
 * `lib/stats/paired.ts`, after E. Miller, "Adding Error Bars to Evals", arXiv 2411.00640): per
 * task and over all tasks, the difference of accuracy A − B in percentage points with Tango's
 * 95% score interval (within ±100, extended to 0 where the exact test does not reject),
 * McNemar's exact test on the discordant examples (the exact sign test when epochs make
 * scores fractional), Holm-adjusted p-values, and the minimum detectable difference at 80%
 * power (Connor's formula for McNemar's test at the observed discordance). Epochs are averaged
 * per example first. Examples scored by only one run are counted as unpaired, never dropped
 * in silence.
 *
 * Several pairs ({@link compareRunPairs}): pairs that cannot be compared (no scored row, no
 * benchmark or no example in common) are listed in `not_compared` with the reason, the others
 * reported; the Holm family is every per-task test of every pair compared (and, for the
 * overall rows, every pair's overall test), and the result states it.
 *
 * p-values: McNemar's p on thousands of discordant examples can be below the smallest double
 * (2·2⁻²⁰⁰⁰); `p_value` and `p_holm` are then {@link P_FLOOR}, flagged by `p_value_bound`, and
 * `log10_p_value`, `log10_p_holm` keep the exact value.
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
import { holmAdjust, holmAdjustLog10 } from "../stats/holm.ts";
import { compareTasks, type KeyedScore, type PairedComparison } from "../stats/paired.ts";

/** The smallest p-value printed or written: below it, `p_value_bound` says "< P_FLOOR". */
export const P_FLOOR = 1e-300;

/**
 * A p-value as text, never "0": 3 decimals from 0.001 up, two significant digits below, and
 * `<1e-300` at or under {@link P_FLOOR} (or when `bound` says the true value is below it).
 *
 * @example
 * ```ts
 * formatPValue(0.0421); // "0.042"
 * formatPValue(2.34e-26); // "2.3e-26"
 * formatPValue(1e-300, true); // "<1e-300"
 * formatPValue(null); // "—"
 * ```
 */
export function formatPValue(p: number | null | undefined, bound = false): string {
  if (p === null || p === undefined || Number.isNaN(p)) return "—";
  if (bound || p <= P_FLOOR) return "<1e-300";
  return p >= 0.001 ? p.toFixed(3) : p.toExponential(1);
}

/** One row of a comparison (a task, or `overall`): percent and percentage points. */
export interface PairedRow {
  /** The task, or "overall" (every paired example of every task). */
  scope: string;
  /** Examples both runs scored. */
  n_paired: number;
  /** Accuracy (%) of A over the paired examples. */
  acc_a: number;
  /** Accuracy (%) of B over the paired examples. */
  acc_b: number;
  /** A − B, percentage points. */
  diff: number;
  /** CLT SE of the differences, percentage points, for information (null for one pair). */
  se: number | null;
  /** Lower bound of Tango's 95% score interval, percentage points, within [−100, 100]. */
  ci_low: number;
  /** Upper bound of Tango's interval. */
  ci_high: number;
  /** True when the interval was extended to 0 because the exact test does not reject. */
  ci_extended_to_zero: boolean;
  /** Examples only A got right (McNemar's b). */
  a_only: number;
  /** Examples only B got right (McNemar's c). */
  b_only: number;
  /** Two-sided exact p-value, never below {@link P_FLOOR}. */
  p_value: number;
  /** True when the exact p-value is below `p_value` (= {@link P_FLOOR}); see `log10_p_value`. */
  p_value_bound: boolean;
  /** log₁₀ of the exact p-value, however small. */
  log10_p_value: number;
  /** Holm-adjusted over the comparison's family (`holm` of {@link ComparisonSet}). */
  p_holm?: number | null;
  /** log₁₀ of the Holm-adjusted p-value, however small. */
  log10_p_holm?: number | null;
  /**
   * Minimum detectable difference at 80% power, α = 0.05, percentage points: Connor's formula
   * for McNemar's test at the observed discordance; null when nothing is detectable.
   */
  mdd: number | null;
  /** "mcnemar-exact", or "sign-exact" when epochs make scores fractional. */
  test: string;
}

/** Two runs compared on one benchmark. */
export interface RunComparison {
  /** Run A. */
  run_a: string;
  /** Run B. */
  run_b: string;
  /** The benchmark both runs were compared on. */
  benchmark: string;
  /** Every paired example of every task. */
  overall: PairedRow;
  /** One row per task with paired examples. */
  tasks: PairedRow[];
  /** Examples only A scored. */
  unpaired_a: number;
  /** Examples only B scored. */
  unpaired_b: number;
}

/** A pair (on a benchmark, when known) that could not be compared, and why. */
export interface NotCompared {
  /** Run A. */
  run_a: string;
  /** Run B. */
  run_b: string;
  /** Null when the runs share no benchmark or one has no scored row. */
  benchmark: string | null;
  /** Why the pair could not be compared. */
  reason: "no-scored-rows" | "no-common-benchmark" | "no-common-example";
  /** The reason in words, naming the runs. */
  detail: string;
}

/** The Holm families of a set of comparisons: how many tests, in words. */
export interface HolmFamilies {
  /** The per-task tests of all comparisons: how many, in words. */
  tasks: { tests: number; description: string };
  /** The overall tests, one per comparison: how many, in words. */
  overall: { tests: number; description: string };
}

/** Every requested pair: compared, or listed with the reason it was not. */
export interface ComparisonSet {
  /** The pairs compared, one per pair and shared benchmark. */
  comparisons: RunComparison[];
  /** The pairs that could not be compared, each with its reason. */
  not_compared: NotCompared[];
  /** The families the Holm adjustment of `p_holm` runs over. */
  holm: HolmFamilies;
}

/** A number or null when it is not finite (e.g. the SE of one pair). */
const finite = (x: number) => Number.isFinite(x) ? x : null;

/** A {@link PairedComparison} as a report row in percent. */
function rowOf(
  scope: string,
  c: PairedComparison,
  holm?: { p: number; log10: number } | null,
): PairedRow {
  const pp = (x: number) => finite(x * 100);
  return {
    scope,
    n_paired: c.n,
    acc_a: c.meanA * 100,
    acc_b: c.meanB * 100,
    diff: c.estimate * 100,
    se: pp(c.se),
    ci_low: c.low * 100,
    ci_high: c.high * 100,
    ci_extended_to_zero: c.extendedToZero,
    a_only: c.aBetter,
    b_only: c.bBetter,
    ...pValueFields(c.pValue, c.log10PValue),
    ...(holm === undefined ? {} : holmFields(holm)),
    mdd: c.mde === null ? null : c.mde * 100,
    test: c.test,
  };
}

/** `p_value` (floored), `p_value_bound` and `log10_p_value` of an exact p-value. */
function pValueFields(p: number, log10: number) {
  const bound = !(p >= P_FLOOR);
  return { p_value: bound ? P_FLOOR : p, p_value_bound: bound, log10_p_value: log10 };
}

function holmFields(holm: { p: number; log10: number } | null) {
  if (holm === null) return { p_holm: null, log10_p_holm: null };
  return { p_holm: Math.max(holm.p, P_FLOOR), log10_p_holm: holm.log10 };
}

/**
 * Compare run `a` with run `b` on every benchmark both have rows of; `rows` has `run`,
 * `benchmark`, `task`, `example_index`, `correct` (and optionally `epoch`: rows of one example
 * are averaged). Throws when the two cannot be compared at all (a run without rows, no
 * benchmark or no example in common); a benchmark without a common example is left out.
 * Holm across the pair's tasks.
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
  const compare = pairComparer(rows);
  return (a, b) => {
    const { comparisons, not_compared } = compare(a, b);
    if (comparisons.length === 0) throw new Error(not_compared[0].detail);
    return comparisons.map((c) => withHolm([c]).comparisons[0]);
  };
}

/**
 * Compare every pair of `pairs` (run A, run B): the comparisons that can be made, the pairs
 * (per benchmark) that cannot with the reason, and Holm-adjusted p-values over the whole set
 * (module doc). Never throws for a pair that cannot be compared.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   run: ["a", "a", "b", "b", "c"], benchmark: Array(5).fill("bbh"), task: Array(5).fill("snarks"),
 *   example_index: [0, 1, 0, 1, 7], correct: [true, true, false, true, true],
 * });
 * const set = compareRunPairs(rows, [["a", "b"], ["a", "c"]]);
 * set.comparisons.length; // 1: a vs b
 * set.not_compared[0].reason; // "no-common-example": c answered only example 7
 * set.holm.tasks.description; // "1 per-task test(s) over 1 comparison(s) (a vs b on bbh)"
 * ```
 */
export function compareRunPairs(
  rows: pl.DataFrame,
  pairs: readonly (readonly [string, string])[],
): ComparisonSet {
  const compare = pairComparer(rows);
  const comparisons: RawComparison[] = [];
  const notCompared: NotCompared[] = [];
  for (const [a, b] of pairs) {
    const r = compare(a, b);
    comparisons.push(...r.comparisons);
    notCompared.push(...r.not_compared);
  }
  return { ...withHolm(comparisons), not_compared: notCompared };
}

/** Per-pair comparisons before Holm: the task rows keep their raw p-values for now. */
interface RawComparison extends RunComparison {
  /** The log₁₀ p-values of the task rows, in order (Holm needs them unfloored). */
  taskLog10: number[];
  taskP: number[];
  overallLog10: number;
  overallP: number;
}

/** Compares two runs of the frame, listing what cannot be compared. */
function pairComparer(
  rows: pl.DataFrame,
): (a: string, b: string) => { comparisons: RawComparison[]; not_compared: NotCompared[] } {
  const byRun = scoresByRun(rows);
  return (a, b) => {
    const inA = byRun.get(a), inB = byRun.get(b);
    const not = (benchmark: string | null, reason: NotCompared["reason"], detail: string) => ({
      comparisons: [],
      not_compared: [{ run_a: a, run_b: b, benchmark, reason, detail }],
    });
    if (!inA || !inB) {
      return not(null, "no-scored-rows", `no scored rows for run "${!inA ? a : b}"`);
    }
    const shared = [...inA.keys()].filter((x) => inB.has(x)).sort();
    if (shared.length === 0) {
      return not(
        null,
        "no-common-benchmark",
        `runs "${a}" and "${b}" share no benchmark (${[...inA.keys()]} vs ${[...inB.keys()]})`,
      );
    }
    const comparisons: RawComparison[] = [];
    const notCompared: NotCompared[] = [];
    for (const benchmark of shared) {
      const c = compareOn(a, b, benchmark, inA.get(benchmark)!, inB.get(benchmark)!);
      if (c) comparisons.push(c);
      else {
        notCompared.push(
          not(
            benchmark,
            "no-common-example",
            `runs "${a}" and "${b}" share no example of ` +
              benchmark,
          ).not_compared[0],
        );
      }
    }
    return { comparisons, not_compared: notCompared };
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

/** The comparison on one benchmark, from both runs' per-task scores; null: nothing paired. */
function compareOn(
  a: string,
  b: string,
  benchmark: string,
  sa: Map<string, KeyedScore[]>,
  sb: Map<string, KeyedScore[]>,
): RawComparison | null {
  const taskNames = [...new Set([...sa.keys(), ...sb.keys()])].sort();
  const result = compareTasks(taskNames.map((task) => ({
    task,
    a: sa.get(task) ?? [],
    b: sb.get(task) ?? [],
  })));
  if (result.overall === null) return null;
  const tested = result.tasks.filter((t) => t.comparison !== null);
  return {
    run_a: a,
    run_b: b,
    benchmark,
    overall: rowOf("overall", result.overall),
    tasks: tested.map((t) => rowOf(t.task, t.comparison!)),
    unpaired_a: result.overall.unpaired.a,
    unpaired_b: result.overall.unpaired.b,
    taskLog10: tested.map((t) => t.comparison!.log10PValue),
    taskP: tested.map((t) => t.comparison!.pValue),
    overallLog10: result.overall.log10PValue,
    overallP: result.overall.pValue,
  };
}

/**
 * Holm over the set: one family of every task row of every comparison, one of the overall
 * rows; the adjusted values computed in log space (no underflow) and, where representable,
 * directly (so that ordinary values are exactly statsmodels' and R's).
 */
function withHolm(raw: readonly RawComparison[]): Omit<ComparisonSet, "not_compared"> {
  const tasks = holmBoth(raw.flatMap((c) => c.taskP), raw.flatMap((c) => c.taskLog10));
  const overall = holmBoth(raw.map((c) => c.overallP), raw.map((c) => c.overallLog10));
  let k = 0;
  const comparisons = raw.map((c, i): RunComparison => ({
    run_a: c.run_a,
    run_b: c.run_b,
    benchmark: c.benchmark,
    overall: { ...c.overall, ...holmFields(overall[i]) },
    tasks: c.tasks.map((t) => ({ ...t, ...holmFields(tasks[k++]) })),
    unpaired_a: c.unpaired_a,
    unpaired_b: c.unpaired_b,
  }));
  const names = raw.map((c) => `${c.run_a} vs ${c.run_b} on ${c.benchmark}`);
  const listed = names.length <= 3 ? ` (${names.join("; ")})` : "";
  return {
    comparisons,
    holm: {
      tasks: {
        tests: tasks.length,
        description: `${tasks.length} per-task test(s) over ${raw.length} comparison(s)${listed}`,
      },
      overall: {
        tests: overall.length,
        description: `${overall.length} overall test(s), one per comparison${listed}`,
      },
    },
  };
}

function holmBoth(p: number[], log10: number[]): { p: number; log10: number }[] {
  const direct = holmAdjust(p);
  const inLogs = holmAdjustLog10(log10);
  return direct.map((x, i) => ({ p: x > 0 ? x : 10 ** inLogs[i], log10: inLogs[i] }));
}
