/**
 * Paired comparison of two runs on the same examples (E. Miller 2024, "Adding Error Bars to
 * Evals", arXiv:2411.00640, paired differences and power analysis).
 *
 * 1. Pairing ({@link pairScores}): each run gives (key, score) rows; rows with the same key
 *    are epochs of one example and are averaged first. Keys present in only one run are
 *    counted and listed as unpaired, never dropped silently.
 * 2. Difference ({@link pairedDifference}): dᵢ = aᵢ − bᵢ per paired example,
 *
 *      d̄ = (1/n) Σ dᵢ = ā − b̄,   SE = √( Σ (dᵢ − d̄)² / (n (n − 1)) ),   CI = d̄ ± z·SE,
 *
 *    the CLT on the differences; equivalently SE² = (s_a² + s_b² − 2 s_ab)/n with sample
 *    variances and covariance (n − 1 denominators), so the positive correlation of two
 *    models' per-question scores shrinks the SE compared with unpaired runs.
 * 3. Test: McNemar's exact test (mcnemar.ts) on the discordant examples, b = #{dᵢ > 0} and
 *    c = #{dᵢ < 0}. With 0/1 scores those are the examples only A (only B) got right; with
 *    epoch means it is the exact sign test on the differences.
 * 4. Power: the minimum detectable difference at 80% power and α = 0.05 for this n,
 *    (z_{0.975} + z_{0.8})·SE, and for 0/1 scores Connor's version from the discordance rate
 *    (b + c)/n (mde.ts).
 *
 * Differences are in score units (0–1; × 100 for percentage points), A minus B.
 *
 * @example
 * ```ts
 * import { pairedComparison } from "@runlens/stats/paired.ts";
 * const a: [string, number][] = [["q1", 1], ["q2", 1], ["q3", 0], ["q4", 1], ["q5", 1]];
 * const b: [string, number][] = [["q1", 1], ["q2", 0], ["q3", 0], ["q4", 0], ["q6", 1]];
 * const cmp = pairedComparison(a, b);
 * // { n: 4, meanA: 0.75, meanB: 0.25, estimate: 0.5, se: 0.28867513459481287,
 * //   low: -0.06579286703808584, high: 1.0657928670380858, method: "paired-clt",
 * //   aBetter: 2, bBetter: 0, pValue: 0.5, test: "mcnemar-exact", mde: 0.8087479899175992,
 * //   mdeDiscordance: null, unpaired: { a: 1, b: 1 } }
 * ```
 * @module
 */
import { mcnemarExact } from "./mcnemar.ts";
import { checkZ } from "./mean_se.ts";
import { mdeFromDiscordance, minimumDetectableDifference, type PowerOptions } from "./mde.ts";
import { holmAdjust } from "./holm.ts";

/** One scored row of a run: (example key, score). Rows sharing a key are epochs. */
export type KeyedScore = readonly [key: string, score: number];

/** An example scored by both runs: each side's mean over its epochs. */
export interface PairedExample {
  key: string;
  a: number;
  b: number;
  /** Rows (epochs) averaged on each side. */
  epochsA: number;
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
  /** Mean score of A and of B over the paired examples. */
  meanA: number;
  meanB: number;
  /** d̄ = meanA − meanB. */
  estimate: number;
  /** CLT standard error of d̄ (NaN when n = 1). */
  se: number;
  low: number;
  high: number;
  method: "paired-clt";
  /** Examples where A scored higher (b of McNemar) and where B did (c). */
  aBetter: number;
  bBetter: number;
  /** Two-sided exact p-value of McNemar's test (0/1 scores) or the sign test (means). */
  pValue: number;
  test: "mcnemar-exact" | "sign-exact";
  /** (z_{1−α/2} + z_{power})·SE (NaN when the SE is). */
  mde: number;
  /** Connor's MDE from the discordance rate; null for non-binary scores or when undetectable. */
  mdeDiscordance: number | null;
}

/**
 * Difference, SE, interval, exact test and MDE of paired scores. Null when there are no pairs.
 *
 * @example
 * ```ts
 * pairedDifference([{ a: 1, b: 0 }, { a: 1, b: 1 }, { a: 0, b: 0 }]);
 * // { n: 3, meanA: 0.6666666666666666, meanB: 0.3333333333333333,
 * //   estimate: 0.3333333333333333, se: 0.33333333333333337, low: -0.3199879948466848,
 * //   high: 0.9866546615133513, method: "paired-clt", aBetter: 1, bBetter: 0, pValue: 1,
 * //   test: "mcnemar-exact", mde: 0.9338617393709894, mdeDiscordance: null }
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
  let sa = 0, sb = 0, aBetter = 0, bBetter = 0, binary = true;
  for (const { a, b } of pairs) {
    if (!Number.isFinite(a) || !Number.isFinite(b)) {
      throw new RangeError(`pairedDifference: scores must be finite (got ${a}, ${b})`);
    }
    sa += a, sb += b;
    if (a > b) aBetter++;
    else if (b > a) bBetter++;
    if ((a !== 0 && a !== 1) || (b !== 0 && b !== 1)) binary = false;
  }
  const meanA = sa / n, meanB = sb / n;
  const estimate = meanA - meanB;
  let ss = 0;
  for (const { a, b } of pairs) ss += (a - b - estimate) ** 2;
  const se = n > 1 ? Math.sqrt(ss / (n * (n - 1))) : NaN;
  return {
    n,
    meanA,
    meanB,
    estimate,
    se,
    low: estimate - z * se,
    high: estimate + z * se,
    method: "paired-clt",
    aBetter,
    bBetter,
    pValue: mcnemarExact(aBetter, bBetter),
    test: binary ? "mcnemar-exact" : "sign-exact",
    mde: minimumDetectableDifference(se, options),
    mdeDiscordance: binary ? mdeFromDiscordance((aBetter + bBetter) / n, n, options) : null,
  };
}

/** A paired comparison with the unpaired counts. */
export interface PairedComparison extends PairedDifference {
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
 * // r.tasks[0]: comparison { n: 2, estimate: 1, se: 0, pValue: 0.5, … }, pHolm: 1
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
  const holm = new Map(tested.map((r, i) => [r, adjusted[i]]));
  const key = (task: string, rs: readonly KeyedScore[]) =>
    rs.map(([k, s]) => [`${task}\u0000${k}`, s] as const);
  const overall = pairedComparison(
    tasks.flatMap((t) => key(t.task, t.a)),
    tasks.flatMap((t) => key(t.task, t.b)),
    options,
  );
  return { tasks: rows.map((r) => ({ ...r, pHolm: holm.get(r) ?? null })), overall };
}
