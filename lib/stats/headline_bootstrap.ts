/**
 * Bootstrap intervals of the headline numbers: the BBEH harmonic mean of per-task accuracy
 * + 1 (Kazemi et al. 2025, arXiv:2502.19187, Table 2; lib/bbeh/aggregate.ts) and the micro
 * average (BBEH Table 4, BBH), both in percent, by the seeded stratified bootstrap of
 * bootstrap.ts with tasks as strata (2,000 resamples and seed {@link DEFAULT_BOOTSTRAP_SEED}
 * unless given).
 *
 *   harmonic mean: H = K / Σ_k 1/(100·S_k/n_k + 1)    (nothing subtracted afterwards)
 *   micro:         M = 100 · Σ_k S_k / Σ_k n_k
 *
 * Interval methods, chosen on simulated runs with known per-task rates (23 tasks of the BBEH
 * sizes; tests/stats_bootstrap_coverage.test.ts and tests/stats_coverage_study.ts):
 * - Harmonic mean: the **basic** bootstrap, clipped to [1, 101]. The estimator is biased
 *   downwards at low accuracies (1/(x + 1) is convex) by as much as its standard error, and
 *   the percentile interval, which repeats that bias, covered the truth in only 79% of runs
 *   with rates 5–40% (basic 96.5%, BCa 95.4%, 4,000 runs); with rates 40–90% percentile
 *   92.7%, basic 95.8%, BCa 95.4%. The basic interval reflects the bias back. BCa needs
 *   quantiles beyond the largest replicate when the bias is large (all tasks at 5%: BCa 84%,
 *   basic 96%), and on the paper's own Table 2 rates basic was closer to 95% for 8 of 12
 *   models.
 * - Micro average: the **percentile** interval (a mean: 95.0%, 94.8% and 95.1% coverage in
 *   the three scenarios above).
 *
 * Known limit: when tasks have only a handful of correct answers (true rates of 0.5–3% with
 * n = 200, as for the paper's weaker models), a single example moves a task's 1/(x + 1) term
 * by up to a third, a task with no correct answer shows no variation at all, and no
 * bootstrap interval holds its level: on the paper's Table 2 rates for its 11 models with
 * tasks below 3%, basic covered 58–90%. {@link harmonicMeanBootstrap} counts such strata
 * (fewer than {@link SPARSE_CORRECT} correct) and says so in `note`.
 *
 * @example
 * ```ts
 * import { harmonicMeanBootstrap, microBootstrap } from "@runlens/stats/headline_bootstrap.ts";
 * const tasks = [{ correct: 10, n: 200 }, { correct: 60, n: 200 }, { correct: 120, n: 200 }];
 * harmonicMeanBootstrap(tasks);
 * // { estimate: 13.93286942284077, low: 8.732231300200937, high: 19.96885168614847,
 * //   se: 2.7667142714500006, method: "basic", level: 0.95, resamples: 2000, seed: 20240601,
 * //   sparseStrata: 0, note: null }
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

export { DEFAULT_BOOTSTRAP_SEED };

/** Strata with fewer correct answers than this are "sparse" (see the module doc). */
export const SPARSE_CORRECT = 5;

/** A headline interval, with a warning when sparse strata make it unreliable. */
export interface HeadlineInterval extends BootstrapInterval {
  /** Strata with fewer than {@link SPARSE_CORRECT} correct (summed scores). */
  sparseStrata: number;
  /** Why the interval may be too narrow; null when nothing to say. */
  note: string | null;
}

/**
 * The BBEH headline on per-stratum totals: K / Σ 1/(100·S_k/n_k + 1), accuracies in percent.
 * The same number as `harmonicMeanPlusOne` of lib/bbeh/aggregate.ts on the accuracies.
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
 * harmonicMeanBootstrap(all); // estimate = low = high = 100.99999999999997 (101 rounded), se 0
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
    "correct answers: the harmonic mean is very sensitive there and the interval is likely " +
    "too narrow (58–90% coverage in simulations of the paper's weaker models)";
  return { ...ci, sparseStrata: sparse, note };
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
