/**
 * Paired comparison of two runs on the same examples (E. Miller 2024, "Adding Error Bars to
 * Evals", arXiv:2411.00640, paired differences and power analysis).
 *
 * 1. Pairing ({@link pairScores}): each run gives (key, score) rows; rows with the same key
 *    are epochs of one example and are averaged first. Keys present in only one run are
 *    counted and listed as unpaired, never dropped silently.
 * 2. Difference ({@link pairedDifference}): dᵢ = aᵢ − bᵢ per paired example, d̄ = ā − b̄,
 *    with Tango's score interval (tango.ts) from b = Σ dᵢ⁺ and c = Σ dᵢ⁻ (with 0/1 scores:
 *    the examples only A, only B got right). Unlike the Wald interval d̄ ± z·SE it stays in
 *    [−1, 1], is not degenerate when the runs agree everywhere (±z²/(n + z²) then) and, at
 *    δ = 0, is McNemar's asymptotic test. `se` is still the CLT SE of d̄,
 *    √(Σ (dᵢ − d̄)² / (n (n − 1))), for information.
 * 3. Test: McNemar's exact test (mcnemar.ts) on the discordant examples, b = #{dᵢ > 0} and
 *    c = #{dᵢ < 0}. With 0/1 scores those are the examples only A (only B) got right; with
 *    epoch means it is the exact sign test on the differences. The exact test never rejects
 *    where the asymptotic one does not (b + c ≤ 2,000: tests/reference/stats_reference.py), but can keep 0 where
 *    the asymptotic one rejects (e.g. 7 vs 1); then the interval is extended to 0
 *    (`extendedToZero`): the confidence set of the exact test at δ = 0 and Tango's elsewhere,
 *    so the interval excludes 0 exactly when the printed p-value is below α.
 * 4. Power: the minimum detectable difference at 80% power and α = 0.05 for this n, from
 *    Connor's (1987) sample-size formula for McNemar's test at the discordance rate
 *    ψ = Σ|dᵢ|/n ((b + c)/n for 0/1 scores; mde.ts). Not (z_{0.975} + z_{0.8})·SE of the
 *    observed differences: that SE² ≈ (ψ − d̄²)/n shrinks with the observed effect itself
 *    and makes a large effect's MDE far too optimistic.

 * Differences are in score units (0–1; × 100 for percentage points), A minus B.
 *
 * @example
 * ```ts
 * import { pairedComparison } from "@runlens/stats/paired.ts";
 * const a: [string, number][] = [["q1", 1], ["q2", 1], ["q3", 0], ["q4", 1], ["q5", 1]];
 * const b: [string, number][] = [["q1", 1], ["q2", 0], ["q3", 0], ["q4", 0], ["q6", 1]];
 * const cmp = pairedComparison(a, b);
 * // { n: 4, meanA: 0.75, meanB: 0.25, estimate: 0.5, se: 0.28867513459481287,
 * //   low: -0.2348…, high: 0.8499…, method: "tango-score", extendedToZero: false,
 * //   aBetter: 2, bBetter: 0, pValue: 0.5, log10PValue: -0.3010…, test: "mcnemar-exact",
 * //   mde: null (4 pairs at ψ = 0.5 cannot detect anything ≤ ψ), unpaired: { a: 1, b: 1 } }
 * ```
 * @module
 */
import { mcnemarExact, mcnemarExactLog10 } from "./mcnemar.ts";
import { checkZ } from "./mean_se.ts";
import { mdeFromDiscordance, type PowerOptions } from "./mde.ts";
import { holmAdjust, holmAdjustLog10 } from "./holm.ts";
import { normalCdf } from "./normal.ts";
import { tangoInterval } from "./tango.ts";

/** One scored row of a run: (example key, score). Rows sharing a key are epochs. */
export type KeyedScore = readonly [key: string, score: number];

/** An example scored by both runs: each side's mean over its epochs. */
export interface PairedExample {
  /** The example's key. */
  key: string;
  /** A's mean score on it. */
  a: number;
  /** B's mean score on it. */
  b: number;
  /** Rows (epochs) averaged on A's side. */
  epochsA: number;
  /** Rows (epochs) averaged on B's side. */
  epochsB: number;
}

/** The result of {@link pairScores}. */
export interface Pairing {
  /** Examples of both runs, in the order of their first row in `a`. */
  pairs: PairedExample[];
  /** Keys only in run A, in first-seen order. */
  unpairedA: string[];
  /** Keys only in run B, in first-seen order. */
  unpairedB: string[];
}

/**
 * Pair two runs' rows by key, averaging each side's epochs. Throws a RangeError on a
 * non-finite score.
 *
 * @example
 * ```ts
 * pairScores([["x", 1], ["x", 0], ["y", 1]], [["x", 1], ["z", 0]]);
 * // { pairs: [{ key: "x", a: 0.5, b: 1, epochsA: 2, epochsB: 1 }],
 * //   unpairedA: ["y"], unpairedB: ["z"] }
 * ```
 */
export function pairScores(a: readonly KeyedScore[], b: readonly KeyedScore[]): Pairing {
  const ma = meansByKey(a, "A");
  const mb = meansByKey(b, "B");
  const pairs: PairedExample[] = [];
  const unpairedA: string[] = [];
  for (const [key, va] of ma) {
    const vb = mb.get(key);
    if (vb) {
      pairs.push({
        key,
        a: va.sum / va.count,
        b: vb.sum / vb.count,
        epochsA: va.count,
        epochsB: vb.count,
      });
    } else unpairedA.push(key);
  }
  const unpairedB = [...mb.keys()].filter((k) => !ma.has(k));
  return { pairs, unpairedA, unpairedB };
}

function meansByKey(rows: readonly KeyedScore[], side: string) {
  const m = new Map<string, { sum: number; count: number }>();
  for (const [key, score] of rows) {
    if (!Number.isFinite(score)) {
      throw new RangeError(`pairScores: run ${side} has score ${score} for "${key}"`);
    }
    const e = m.get(key);
    if (e) e.sum += score, e.count++;
    else m.set(key, { sum: score, count: 1 });
  }
  return m;
}

/** Options of {@link pairedDifference} and {@link pairedComparison}. */
export interface PairedOptions extends PowerOptions {
  /** Normal quantile of the interval; default 95% (1.959963984540054). */
  z?: number;
}

/** The paired difference A − B of per-example scores, its test and power. */
export interface PairedDifference {
  /** Paired examples. */
  n: number;
  /** Mean score of A over the paired examples. */
  meanA: number;
  /** Mean score of B over the paired examples. */
  meanB: number;
  /** d̄ = meanA − meanB. */
  estimate: number;
  /** CLT standard error of d̄ (NaN when n = 1); for information, the interval is Tango's. */
  se: number;
  /** Lower bound of Tango's score interval (tango.ts), within [−1, 1]. */
  low: number;
  /** Upper bound of Tango's score interval. */
  high: number;
  /** How the interval was made. */
  method: "tango-score";
  /**
   * True when Tango's interval excluded 0 but the exact test does not reject, and the interval
   * was extended to 0 so that the two never disagree (module doc).
   */
  extendedToZero: boolean;
  /** Examples where A scored higher (b of McNemar). */
  aBetter: number;
  /** Examples where B scored higher (c of McNemar). */
  bBetter: number;
  /** Two-sided exact p-value of McNemar's test (0/1 scores) or the sign test (means). */
  pValue: number;
  /** log₁₀ of `pValue`, finite where `pValue` underflows to 0. */
  log10PValue: number;
  /** The exact test: McNemar's on 0/1 scores, the sign test on means over epochs. */
  test: "mcnemar-exact" | "sign-exact";
  /**
   * Minimum detectable difference: Connor's (1987) formula at the discordance Σ|dᵢ|/n (mde.ts);
   * null when nothing is detectable (no discordance, or n ≤ 3).
   */
  mde: number | null;
}

/**
 * Difference, Tango's interval, exact test and MDE of paired scores. Null when there are no
 * pairs.
 *
 * @example
 * ```ts
 * const d = pairedDifference([{ a: 1, b: 0 }, { a: 1, b: 1 }, { a: 0, b: 0 }])!;
 * // { n: 3, estimate: 1/3, low: -0.4153…, high: 0.7923…, method: "tango-score",
 * //   extendedToZero: false, aBetter: 1, bBetter: 0, pValue: 1, log10PValue: 0,
 * //   test: "mcnemar-exact", mde: null, … }
 * d.low > -1 && d.high < 1; // true: never outside [−1, 1]
 * pairedDifference([]); // null
 * ```
 */
export function pairedDifference(
  pairs: readonly { a: number; b: number }[],
  options: PairedOptions = {},
): PairedDifference | null {
  const z = checkZ(options.z, "pairedDifference");
  const n = pairs.length;
  if (n === 0) return null;
  let sa = 0, sb = 0, aBetter = 0, bBetter = 0, aMore = 0, bMore = 0, binary = true;
  for (const { a, b } of pairs) {
    if (!Number.isFinite(a) || !Number.isFinite(b)) {
      throw new RangeError(`pairedDifference: scores must be finite (got ${a}, ${b})`);
    }
    sa += a, sb += b;
    if (a > b) aBetter++, aMore += a - b;
    else if (b > a) bBetter++, bMore += b - a;
    if ((a !== 0 && a !== 1) || (b !== 0 && b !== 1)) binary = false;
  }
  const meanA = sa / n, meanB = sb / n;
  const estimate = meanA - meanB;
  let ss = 0;
  for (const { a, b } of pairs) ss += (a - b - estimate) ** 2;
  const se = n > 1 ? Math.sqrt(ss / (n * (n - 1))) : NaN;
  const pValue = mcnemarExact(aBetter, bBetter);
  const tango = tangoInterval(aMore, bMore, n, z);
  // the exact test is the more conservative: where it does not reject, 0 stays in the interval
  const keepsZero = pValue > 2 * normalCdf(-z);
  const extendedToZero = keepsZero && (tango.low > 0 || tango.high < 0);
  return {
    n,
    meanA,
    meanB,
    estimate,
    se,
    low: extendedToZero ? Math.min(tango.low, 0) : tango.low,
    high: extendedToZero ? Math.max(tango.high, 0) : tango.high,
    method: "tango-score",
    extendedToZero,
    aBetter,
    bBetter,
    pValue,
    log10PValue: mcnemarExactLog10(aBetter, bBetter),
    test: binary ? "mcnemar-exact" : "sign-exact",
    mde: mdeFromDiscordance(Math.min(1, (aMore + bMore) / n), n, options),
  };
}

/** A paired comparison with the unpaired counts. */
export interface PairedComparison extends PairedDifference {
  /** Examples scored by A only and by B only (not in the comparison). */
  unpaired: { a: number; b: number };
}

/**
 * Pair the rows of runs A and B ({@link pairScores}) and compare them
 * ({@link pairedDifference}). Null when no example is in both runs.
 *
 * @example
 * ```ts
 * pairedComparison([["q1", 1]], [["q2", 0]]); // null — nothing to pair
 * ```
 */
export function pairedComparison(
  a: readonly KeyedScore[],
  b: readonly KeyedScore[],
  options: PairedOptions = {},
): PairedComparison | null {
  const { pairs, unpairedA, unpairedB } = pairScores(a, b);
  const d = pairedDifference(pairs, options);
  return d && { ...d, unpaired: { a: unpairedA.length, b: unpairedB.length } };
}

/** One task's rows of both runs. */
export interface TaskRows {
  task: string;
  a: readonly KeyedScore[];
  b: readonly KeyedScore[];
}

/** One task's comparison, with its Holm-adjusted p-value. */
export interface TaskComparison {
  task: string;
  /** Null when the task has no example in both runs. */
  comparison: PairedComparison | null;
  /** Holm-adjusted over the tasks that have a comparison; null otherwise. */
  pHolm: number | null;
  /** log₁₀ of `pHolm`, finite where `pHolm` underflows to 0; null with `pHolm`. */
  log10PHolm: number | null;
}

/** Per-task and overall paired comparisons. */
export interface TasksComparison {
  tasks: TaskComparison[];
  /** All paired examples of all tasks pooled (keys are per task): the micro difference. */
  overall: PairedComparison | null;
}

/**
 * Compare two runs task by task — each task's paired difference and exact test, with
 * Holm-adjusted p-values across the tasks — and overall, pooling every paired example (the
 * difference of micro averages over the paired examples). Keys need only be unique within a
 * task.
 *
 * @example
 * ```ts
 * const r = compareTasks([
 *   { task: "t1", a: [["1", 1], ["2", 1]], b: [["1", 0], ["2", 0]] },
 *   { task: "t2", a: [["1", 0]], b: [["1", 0], ["9", 1]] },
 * ]);
 * // r.tasks[0]: comparison { n: 2, estimate: 1, low: -0.3152…, high: 1, pValue: 0.5, … },
 * //   pHolm: 1, log10PHolm: 0
 * // r.tasks[1]: comparison { n: 1, estimate: 0, se: NaN, pValue: 1, unpaired: { a: 0, b: 1 } }
 * // r.overall: { n: 3, estimate: 0.6666666666666666, pValue: 0.5, unpaired: { a: 0, b: 1 }, … }
 * ```
 */
export function compareTasks(
  tasks: readonly TaskRows[],
  options: PairedOptions = {},
): TasksComparison {
  const names = new Set<string>();
  for (const t of tasks) {
    if (names.has(t.task)) throw new RangeError(`compareTasks: task "${t.task}" given twice`);
    names.add(t.task);
  }
  const rows = tasks.map((t) => ({
    task: t.task,
    comparison: pairedComparison(t.a, t.b, options),
  }));
  const tested = rows.filter((r) => r.comparison !== null);
  const adjusted = holmAdjust(tested.map((r) => r.comparison!.pValue));
  const adjustedLog10 = holmAdjustLog10(tested.map((r) => r.comparison!.log10PValue));
  const holm = new Map(tested.map((r, i) => [r, [adjusted[i], adjustedLog10[i]]]));
  const key = (task: string, rs: readonly KeyedScore[]) =>
    rs.map(([k, s]) => [`${task}\u0000${k}`, s] as const);
  const overall = pairedComparison(
    tasks.flatMap((t) => key(t.task, t.a)),
    tasks.flatMap((t) => key(t.task, t.b)),
    options,
  );
  return {
    tasks: rows.map((r) => ({
      ...r,
      pHolm: holm.get(r)?.[0] ?? null,
      log10PHolm: holm.get(r)?.[1] ?? null,
    })),
    overall,
  };
}
