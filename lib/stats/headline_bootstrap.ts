/**
 * Bootstrap intervals of the headline numbers: the BBEH harmonic mean of per-task accuracy
 * + 1 (Kazemi et al. 2025, arXiv:2502.19187, Table 2; lib/benchmarks/bbeh/aggregate.ts) and the micro
 * average (BBEH Table 4, BBH), both in percent, by the seeded stratified bootstrap of
 * bootstrap.ts with tasks as strata (2,000 resamples and seed {@link DEFAULT_BOOTSTRAP_SEED}
 * unless given).
 *
 *   harmonic mean: H = K / Σ_k 1/(100·S_k/n_k + 1)    (nothing subtracted afterwards)
 *   micro:         M = 100 · Σ_k S_k / Σ_k n_k
 *
 * Interval methods, chosen on simulated runs with known per-task rates (23 tasks of the BBEH
 * sizes, each example a Bernoulli draw; coverage of the true value by the 95% interval,
 * tests/stats_coverage_study.ts — 4,000 runs for the first two rows, 1,000 for the others):
 *
 *   true per-task rates                 percentile        basic          BCa    default
 *   evenly spaced 40–90%                     92.6%        95.5%        95.4%      94.8%
 *   evenly spaced 5–40% (BBEH-like)          80.5%        96.6%        94.8%      96.2%
 *   evenly spaced 2–40%                      81.7%        90.6%        93.5%      90.8%
 *   all tasks 5%                             39.2%        95.2%        84.4%      95.2%
 *   all tasks 2%                             15.5%        83.2%        60.1%      83.2%
 *   one task 0.5%, rest 20–60%               64.6%        61.0%        63.7%      96.2%
 *   paper Table 2, o3-mini (high)            91.8%        95.8%        94.5%      95.8%
 *   paper Table 2, the 11 other models   48.4–85.2%   57.5–90.4%   60.3–92.8%  90.5–98.4%
 *
 * ("default": what {@link harmonicMeanBootstrap} returns, the basic interval widened for
 * tasks at 0% or 100% as described below; 1,000 runs in every row, where basic also gives
 * 94.8% and 96.2% for the first two.)
 *
 * - Harmonic mean: the **basic** bootstrap, clipped to [1, 101]. The estimator is biased
 *   downwards at low accuracies (1/(x + 1) is convex), by about one standard error when all
 *   tasks are at 5%, and the percentile interval repeats that bias instead of correcting it. The basic
 *   interval reflects it back. BCa corrects it too, but when the bias is large its adjusted
 *   quantile falls beyond the largest of the 2,000 replicates (all tasks at 5%: 84%);
 *   on the paper's own Table 2 rates basic was the closer to 95% for 9 of 12 models.
 * - Micro average: the **percentile** interval (a mean; 94–95% in the two scenarios of
 *   tests/stats_bootstrap_coverage.test.ts).
 *
 * Known limit: when tasks have only a handful of correct answers (true rates of 0.5–3% with
 * n = 200, as for the paper's weaker models), one example moves a task's 1/(x + 1) term by up
 * to a third, a task with no correct answer shows no variation at all, and no bootstrap
 * interval holds its level (the basic column above). {@link harmonicMeanBootstrap} counts such
 * strata (fewer than {@link SPARSE_CORRECT} correct) and says so in `note`.
 *
 * Tasks at 0% or 100% (every example scoring alike): the bootstrap cannot vary them at all,
 * so a run with every answer wrong got the zero-width interval [1, 1]. Such a task's accuracy
 * is not known to be exactly 0: its Wilson interval is [0, 1.88%] at 0 of 200. So the
 * interval is widened to cover the harmonic mean with every such task at its Wilson bound
 * (the others at their observed accuracy), {@link constantEnvelope}: [1, 2.88] when every
 * answer is wrong, [99.12, 101] when every one is right. Moving all of them to their bounds
 * at once is conservative; the widening is named in `constantStrata` and in the method. It
 * also repairs most of the weak models' coverage (the default column: tasks the simulation
 * leaves at 0 correct were the ones the bootstrap could not vary); tasks with 1–4 correct
 * answers and none at 0 (all tasks at 2%) remain below 95%.
 *
 * @example
 * ```ts
 * import { harmonicMeanBootstrap, microBootstrap } from "@runlens/stats/headline_bootstrap.ts";
 * const tasks = [{ correct: 10, n: 200 }, { correct: 60, n: 200 }, { correct: 120, n: 200 }];
 * harmonicMeanBootstrap(tasks);
 * // { estimate: 13.93286942284077, low: 8.732231300200937, high: 19.96885168614847,
 * //   se: 2.7667142714500006, method: "basic", level: 0.95, resamples: 2000, seed: 20240601,
 * //   sparseStrata: 0, constantStrata: 0, note: null }
 * microBootstrap(tasks);
 * // { estimate: 31.666666666666668, low: 28.5, high: 34.833333333333336, se: 1.66523…,
 * //   method: "percentile", … }
 * ```
 * @module
 */
import {
  type BootstrapInterval,
  type BootstrapOptions,
  DEFAULT_BOOTSTRAP_SEED,
  stratifiedBootstrap,
  type StratumInput,
} from "./bootstrap.ts";
import { wilsonOfExamples } from "./clustered_wilson.ts";

export { DEFAULT_BOOTSTRAP_SEED };

/** Strata with fewer correct answers than this are "sparse" (see the module doc). */
export const SPARSE_CORRECT = 5;

/** A headline interval, with a warning when sparse strata make it unreliable. */
export interface HeadlineInterval extends BootstrapInterval {
  /** Strata with fewer than {@link SPARSE_CORRECT} correct (summed scores). */
  sparseStrata: number;
  /**
   * Strata whose examples all score the same (0% or 100%), which the bootstrap cannot vary:
   * the interval is widened to cover each of them at its Wilson bound (module doc).
   */
  constantStrata: number;
  /** Why the interval may be too narrow; null when nothing to say. */
  note: string | null;
}

/**
 * The BBEH headline on per-stratum totals: K / Σ 1/(100·S_k/n_k + 1), accuracies in percent.
 * The same number as `harmonicMeanPlusOne` of lib/benchmarks/bbeh/aggregate.ts on the accuracies.
 *
 * @example
 * ```ts
 * harmonicMeanOfTotals([0, 99], [10, 100]); // 2 / (1/1 + 1/100) = 1.9801980198019802
 * ```
 */
export function harmonicMeanOfTotals(sums: ArrayLike<number>, ns: ArrayLike<number>): number {
  let inv = 0;
  for (let k = 0; k < sums.length; k++) inv += 1 / ((100 * sums[k]) / ns[k] + 1);
  return sums.length / inv;
}

/**
 * The micro average on per-stratum totals: 100 · Σ S_k / Σ n_k.
 *
 * @example
 * ```ts
 * microOfTotals([1, 3], [4, 4]); // 50
 * ```
 */
export function microOfTotals(sums: ArrayLike<number>, ns: ArrayLike<number>): number {
  let s = 0, n = 0;
  for (let k = 0; k < sums.length; k++) s += sums[k], n += ns[k];
  return (100 * s) / n;
}

/**
 * Stratified bootstrap interval of the BBEH harmonic mean (percent): method "basic" clipped
 * to [1, 101] unless `options` say otherwise. One stratum per task, in a fixed order.
 *
 * @example
 * ```ts
 * const all = Array.from({ length: 23 }, () => ({ correct: 200, n: 200 }));
 * // every task at 100%: the bootstrap cannot vary, the Wilson bounds (98.12%) can
 * harmonicMeanBootstrap(all); // { estimate: 100.99999999999997, low: 99.1154…, high: 101, se: 0, … }
 * ```
 */
export function harmonicMeanBootstrap(
  strata: readonly StratumInput[],
  options: BootstrapOptions = {},
): HeadlineInterval {
  const ci = stratifiedBootstrap(strata, harmonicMeanOfTotals, {
    method: "basic",
    bounds: [1, 101],
    ...options,
  });
  const sparse = strata.filter((s) => correctOf(s) < SPARSE_CORRECT).length;
  const note = sparse === 0 ? null : `${sparse} task(s) with fewer than ${SPARSE_CORRECT} ` +
    "correct answers: the harmonic mean is very sensitive there and the interval may be " +
    "too narrow (83–93% coverage in simulations with every task at 1–2%)";
  const envelope = constantEnvelope(strata);
  const widen = envelope.strata > 0;
  return {
    ...ci,
    low: widen ? Math.min(ci.low, envelope.low) : ci.low,
    high: widen ? Math.max(ci.high, envelope.high) : ci.high,
    sparseStrata: sparse,
    constantStrata: envelope.strata,
    note,
  };
}

/**
 * The harmonic mean with every constant stratum (all its examples scoring alike: 0% or 100%)
 * moved to the low (high) bound of its Wilson interval and the others at their observed
 * accuracy; `strata` counts the constant ones. With none, both bounds are the estimate.
 *
 * @example
 * ```ts
 * // every answer wrong: 1 (the estimate) to the harmonic mean of 23 tasks at 0 of 200's
 * // Wilson upper bound 1.8846% → 2.8846
 * constantEnvelope(Array.from({ length: 23 }, () => ({ correct: 0, n: 200 })));
 * // { low: 1, high: 2.8846…, strata: 23 }
 * ```
 */
export function constantEnvelope(
  strata: readonly StratumInput[],
): { low: number; high: number; strata: number } {
  let constant = 0;
  const bounds = strata.map((s) => {
    const { n, values } = "correct" in s
      ? { n: s.n, values: s.correct === 0 ? [0] : s.correct === s.n ? [1] : [0, 1] }
      : { n: s.scores.length, values: [...new Set(s.scores)] };
    const p = "correct" in s ? s.correct / s.n : s.scores[0];
    if (values.length > 1) return { low: 100 * p, high: 100 * p, p };
    constant++;
    const w = wilsonOfExamples({ examples: n, rows: n, mean: p, variance: 0 })!;
    return { low: w.low, high: w.high, p };
  });
  const hm = (acc: number[]) => acc.length / acc.reduce((t, a) => t + 1 / (a + 1), 0);
  return {
    low: hm(bounds.map((b) => b.low)),
    high: hm(bounds.map((b) => b.high)),
    strata: constant,
  };
}

/**
 * Stratified bootstrap interval of the micro average (percent): method "percentile" clipped
 * to [0, 100] unless `options` say otherwise.
 *
 * @example
 * ```ts
 * microBootstrap([{ correct: 0, n: 50 }]); // { estimate: 0, low: 0, high: 0, se: 0, … }
 * ```
 */
export function microBootstrap(
  strata: readonly StratumInput[],
  options: BootstrapOptions = {},
): BootstrapInterval {
  return stratifiedBootstrap(strata, microOfTotals, {
    method: "percentile",
    bounds: [0, 100],
    ...options,
  });
}

function correctOf(s: StratumInput): number {
  return "correct" in s ? s.correct : s.scores.reduce((a, b) => a + b, 0);
}
