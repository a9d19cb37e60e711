/**
 * Tango's score interval for the difference of two paired proportions: T. Tango (1998),
 * "Equivalence test and confidence interval for the difference in proportions for the
 * paired-sample design", Statistics in Medicine 17:891–908; recommended by Fagerland,
 * Lydersen & Laake (2014), "Recommended tests and confidence intervals for paired binomial
 * proportions", Statistics in Medicine 33:2850–2875.
 *
 * With n pairs, b where only A is right and c where only B is, δ = p₁₀ − p₀₁ (A minus B) and
 * the score statistic
 *
 *   T(δ) = (b − c − nδ) / √( n (2 q̃(δ) + δ(1 − δ)) ),
 *
 * where q̃(δ) is the maximum-likelihood estimate of p₀₁ under the constraint p₁₀ − p₀₁ = δ,
 * the positive root of 2n q² + B q + C = 0 with B = −b − c + (2n − b + c)δ and
 * C = −c δ(1 − δ), the 95% interval is {δ : |T(δ)| ≤ z}: the lower bound solves T(L) = z, the
 * upper T(U) = −z, found here by bisection to double precision (T decreases in δ).
 *
 * Properties that matter for runlens: the bounds stay in [−1, 1]; at δ = 0, T is McNemar's
 * statistic (b − c)/√(b + c), so the interval excludes 0 exactly when McNemar's asymptotic test
 * rejects; with no discordant pair at all it is ±z²/(n + z²), the Wilson bound of 0 of n,
 * not a zero-width interval.
 *
 * b and c may be fractional: for per-example mean scores (epochs), b = Σ(aᵢ − bᵢ)⁺ and
 * c = Σ(bᵢ − aᵢ)⁺. The statistic then uses p₁₀ + p₀₁ = E|d| as the variance bound of a
 * difference d in [−1, 1] (E d² ≤ E|d|), which makes the interval conservative there.
 *
 * @example
 * ```ts
 * import { tangoInterval } from "@runlens/stats/tango.ts";
 * tangoInterval(0, 0, 4520); // ±3.8415/(4520 + 3.8415): { low: -0.000849…, high: 0.000849… }
 * tangoInterval(3, 0, 3).low > 0; // false: 3 of 3 is not significant, and neither is McNemar
 * ```
 * @module
 */
import { Z95 } from "./wilson.ts";

/** An interval of a difference, in score units (−1 to 1). */
export interface DifferenceInterval {
  /** Lower bound. */
  low: number;
  /** Upper bound. */
  high: number;
}

/**
 * Tango's score interval for the paired difference (module doc). `b`, `c` ≥ 0 with
 * b + c ≤ n, n > 0. Throws a RangeError otherwise.
 *
 * @example
 * ```ts
 * const { low, high } = tangoInterval(1, 7, 21); // Bentur et al. (2009): A − B = −6/21
 * [low < -6 / 21, -6 / 21 < high]; // [true, true]
high < 0; // true: |T(0)| = 6/√8 = 2.12 > 1.96, though the exact McNemar p is 0.070
 * ```
 */
export function tangoInterval(
  b: number,
  c: number,
  n: number,
  z: number = Z95,
): DifferenceInterval {
  if (!(b >= 0 && c >= 0 && n > 0 && b + c <= n * (1 + 1e-12))) {
    throw new RangeError(`tangoInterval: need b, c ≥ 0, b + c ≤ n, n > 0 (got ${b}, ${c}, ${n})`);
  }
  if (!(z > 0 && Number.isFinite(z))) throw new RangeError(`tangoInterval: z must be > 0`);
  const estimate = (b - c) / n;
  const t = (delta: number) => tangoStatistic(b, c, n, delta);
  const low = estimate <= -1 ? -1 : bisect((d) => t(d) - z, -1, estimate);
  const high = estimate >= 1 ? 1 : bisect((d) => t(d) + z, estimate, 1);
  return { low, high };
}

/**
 * Tango's score statistic T(δ) (module doc).
 *
 * @example
 * ```ts
 * tangoStatistic(7, 1, 21, 0); // McNemar's (7 − 1)/√8 = 2.1213…
 * ```
 */
export function tangoStatistic(b: number, c: number, n: number, delta: number): number {
  const q = restrictedQ01(b, c, n, delta);
  const variance = n * (2 * q + delta * (1 - delta));
  const num = b - c - n * delta;
  if (num === 0) return 0;
  return variance > 0 ? num / Math.sqrt(variance) : num > 0 ? Infinity : -Infinity;
}

/** q̃(δ): the restricted MLE of p₀₁, the stable form of the quadratic's positive root. */
function restrictedQ01(b: number, c: number, n: number, delta: number): number {
  const a2 = 2 * n;
  const bq = -b - c + (2 * n - b + c) * delta;
  const cq = -c * delta * (1 - delta);
  const root = Math.sqrt(Math.max(0, bq * bq - 4 * a2 * cq));
  // (−B + √D)/2A cancels when B > 0: use the equal −2C/(B + √D) there
  return bq > 0 ? (-2 * cq) / (bq + root) : (-bq + root) / (2 * a2);
}

/** The root of a decreasing `f` between `lo` (f > 0 side) and `hi` (f < 0 side). */
function bisect(f: (x: number) => number, lo: number, hi: number): number {
  for (let i = 0; i < 200; i++) {
    const mid = (lo + hi) / 2;
    if (mid <= lo || mid >= hi) break;
    if (f(mid) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}
