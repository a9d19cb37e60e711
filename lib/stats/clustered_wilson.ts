/**
 * The Wilson score interval (wilson.ts) of an accuracy whose rows come in clusters — several
 * epochs of one example — with the effective sample size of Korn & Graubard (1998),
 * "Confidence intervals for proportions with small expected number of positive counts
 * estimated from survey data", Survey Methodology 24:193–201, in the form Dean & Pagano (2015),
 * "Evaluating confidence interval methods for binomial proportions in clustered surveys",
 * J. Survey Statistics and Methodology 3:484–503, assess for the Wilson interval.
 *
 * One definition of the accuracy for every number runlens reports: each example's mean over
 * its rows, then the mean over the G examples (inspect_ai's default epoch reducer, "mean"):
 *
 *   p̂ = (1/G) Σ_g m_g,    V = (1/G²) Σ_g (m_g − p̂)²        (the CR0 variance of p̂)
 *   n_eff = p̂(1 − p̂) / V,  bounded to [G, N]               (N rows in all)
 *
 * and the interval is Wilson's with p̂ and n_eff trials. Why this n_eff:
 * - one row per example gives V = p̂(1 − p̂)/G, so n_eff = G and the plain Wilson interval;
 * - the same verdicts logged twice (epochs 1 and 2) leave every m_g, p̂ and V unchanged: the
 *   same interval as once (epochs that agree are one observation, not two);
 * - epochs that disagree within examples carry information beyond G, up to N for rows that
 *   behave like independent trials (Korn & Graubard truncate n_eff at N the same way); since
 *   each m_g is in [0, 1], V ≤ p̂(1 − p̂)/G, so n_eff is never below G;
 * - at p̂ = 0 or 1 (V = 0) n_eff is G: no example disagrees, and Wilson stays non-degenerate
 *   ([0, 100·z²/(G + z²)] at 0/G).
 *
 * @example
 * ```ts
 * import { clusteredWilson } from "@runlens/stats/clustered_wilson.ts";
 * // 4 examples, each logged twice with the same verdict: Wilson of 3 of 4
 * clusteredWilson([[1, 1], [1, 1], [0, 0], [1, 1]]);
 * // { estimate: 75, low: 30.0641…, high: 95.4412…, examples: 4, rows: 8, effectiveN: 4 }
 * ```
 * @module
 */
import { type PercentInterval, wilsonInterval, type WilsonOptions } from "./wilson.ts";

/** Per-example means summarised: what the interval needs. */
export interface ExampleSummary {
  /** G: examples (clusters). */
  examples: number;
  /** N: rows (epochs) over all examples. */
  rows: number;
  /** p̂: the mean over examples of each example's mean score, in [0, 1]. */
  mean: number;
  /** (1/G) Σ (m_g − p̂)²: the population variance of the per-example means. */
  variance: number;
}

/** A clustered Wilson interval (percent), with the accuracy and the effective n. */
export interface ClusteredWilson extends PercentInterval {
  /** 100·p̂. */
  estimate: number;
  /** Distinct examples (clusters). */
  examples: number;
  /** Rows over all examples (epochs counted each). */
  rows: number;
  /** The n of the Wilson interval (module doc). */
  effectiveN: number;
}

/**
 * n_eff of the module doc: p̂(1 − p̂)/V bounded to [G, N]; G when p̂ is 0 or 1.
 *
 * @example
 * ```ts
 * // 2 examples × 2 epochs, each example right once: rows like independent trials
 * effectiveSampleSize({ examples: 2, rows: 4, mean: 0.5, variance: 0 }); // 4
 * effectiveSampleSize({ examples: 5, rows: 10, mean: 0, variance: 0 }); // 5
 * ```
 */
export function effectiveSampleSize(s: ExampleSummary): number {
  const { examples: g, rows: n, mean: p, variance: v } = s;
  if (p <= 0 || p >= 1) return g;
  if (!(v > 0)) return n;
  const ratio = (p * (1 - p)) / v; // n_eff / G
  // within rounding of 1 (every example's rows agree) it is exactly G: the plain Wilson interval
  return ratio <= 1 + 1e-9 ? g : Math.min(n, g * ratio);
}

/**
 * The clustered Wilson interval of {@link ExampleSummary} (module doc); null when G is 0.
 * Throws a RangeError on inconsistent counts or a mean outside [0, 1].
 *
 * @example
 * ```ts
 * wilsonOfExamples({ examples: 20, rows: 20, mean: 0, variance: 0 });
 * // { estimate: 0, low: 0, high: 16.1125…, examples: 20, rows: 20, effectiveN: 20 }
 * ```
 */
export function wilsonOfExamples(
  s: ExampleSummary,
  options: WilsonOptions = {},
): ClusteredWilson | null {
  if (!Number.isInteger(s.examples) || !Number.isInteger(s.rows) || s.rows < s.examples) {
    throw new RangeError(
      `wilsonOfExamples: need integers rows ≥ examples (got ${s.rows}, ${s.examples})`,
    );
  }
  if (!(s.mean >= 0 && s.mean <= 1) || !(s.variance >= 0)) {
    throw new RangeError(`wilsonOfExamples: mean ${s.mean} or variance ${s.variance} invalid`);
  }
  if (s.examples === 0) return null;
  const effectiveN = effectiveSampleSize(s);
  // p̂·G is a count when every example's rows agree: k/G·G can miss k by an ulp
  const x = s.mean * effectiveN, k = Math.round(x);
  const successes = Number.isInteger(effectiveN) && Math.abs(x - k) < 1e-9 ? k : x;
  const ci = wilsonInterval(successes, effectiveN, options)!;
  return { estimate: 100 * s.mean, ...ci, examples: s.examples, rows: s.rows, effectiveN };
}

/**
 * The {@link ExampleSummary} of scores grouped by example (one array of scores in [0, 1]
 * per example).
 *
 * @example
 * ```ts
 * summariseExamples([[1, 0], [1]]); // { examples: 2, rows: 3, mean: 0.75, variance: 0.0625 }
 * ```
 */
export function summariseExamples(clusters: readonly (readonly number[])[]): ExampleSummary {
  const means = clusters.map((scores, i) => {
    if (scores.length === 0) throw new RangeError(`summariseExamples: example ${i} has no row`);
    let sum = 0;
    for (const s of scores) {
      if (!(s >= 0 && s <= 1)) throw new RangeError(`summariseExamples: score ${s} not in [0, 1]`);
      sum += s;
    }
    return sum / scores.length;
  });
  const g = means.length;
  let total = 0, rows = 0;
  for (const m of means) total += m;
  for (const c of clusters) rows += c.length;
  const mean = g > 0 ? total / g : 0;
  let ss = 0;
  for (const m of means) ss += (m - mean) * (m - mean);
  return { examples: g, rows, mean, variance: g > 0 ? ss / g : 0 };
}

/**
 * {@link wilsonOfExamples} of scores grouped by example; null for no example.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const once = clusteredWilson([[1], [0], [1]])!;
 * const twice = clusteredWilson([[1, 1], [0, 0], [1, 1]])!;
 * assert.deepEqual([twice.low, twice.high], [once.low, once.high]);
 * ```
 */
export function clusteredWilson(
  clusters: readonly (readonly number[])[],
  options: WilsonOptions = {},
): ClusteredWilson | null {
  return wilsonOfExamples(summariseExamples(clusters), options);
}
