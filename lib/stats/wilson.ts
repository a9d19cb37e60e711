/**
 * Wilson score interval for a binomial proportion (Wilson 1927), without continuity correction
 * — "method 3" of Newcombe (1998), "Two-sided confidence intervals for the single proportion:
 * comparison of seven methods", Statistics in Medicine 17:857–872.
 *
 * For `x` successes out of `n` trials, p = x/n and z the normal quantile:
 * (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n). Unlike the Wald interval it never leaves
 * [0, 1] and is not degenerate at 0/n or n/n. Bounds are returned in percent, like the
 * accuracies runlens reports.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wilsonInterval } from "@runlens/stats/wilson.ts";
 * const ci = wilsonInterval(15, 148)!; // { low: 6.2386…, high: 16.0487… }
 * assert.equal(ci.low.toFixed(4), "6.2386");
 * assert.equal(ci.high.toFixed(4), "16.0487");
 * ```
 * @module
 */

/** The two-sided 95% normal quantile, Φ⁻¹(0.975). */
export const Z95 = 1.959963984540054;

/** A confidence interval in percent (0–100). */
export interface PercentInterval {
  /** Lower bound. */
  low: number;
  /** Upper bound. */
  high: number;
}

/** Options of {@link wilsonInterval}. */
export interface WilsonOptions {
  /** Normal quantile; default {@link Z95} (95%). E.g. 2.5758293035489 for 99%. */
  z?: number;
}

/**
 * Wilson score interval for `successes` out of `n`, in percent; null when `n` is 0.
 * The lower bound is exactly 0 for 0/n and the upper bound exactly 100 for n/n.
 * Throws on negative or non-finite counts and on `successes > n`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(wilsonInterval(0, 20)!.low, 0); // { low: 0, high: 16.1125… }
 * assert.equal(wilsonInterval(0, 0), null);
 * wilsonInterval(81, 263, { z: 2.5758293035489 }); // 99%: { low: 24.0136…, high: 38.5282… }
 * assert.throws(() => wilsonInterval(3, 2), RangeError); // more successes than trials
 * ```
 */
export function wilsonInterval(
  successes: number,
  n: number,
  options: WilsonOptions = {},
): PercentInterval | null {
  const z = options.z ?? Z95;
  if (!Number.isFinite(successes) || !Number.isFinite(n) || successes < 0 || n < 0) {
    throw new RangeError(`wilsonInterval: counts must be finite and ≥ 0 (got ${successes}/${n})`);
  }
  if (successes > n) {
    throw new RangeError(`wilsonInterval: successes ${successes} exceed trials ${n}`);
  }
  if (!Number.isFinite(z) || z <= 0) throw new RangeError(`wilsonInterval: z must be > 0`);
  if (n === 0) return null;
  const p = successes / n;
  const z2n = (z * z) / n;
  const denom = 1 + z2n;
  const centre = (p + z2n / 2) / denom;
  const half = (z * Math.sqrt(p * (1 - p) / n + z2n / (4 * n))) / denom;
  const low = successes === 0 ? 0 : Math.max(0, centre - half);
  const high = successes === n ? 1 : Math.min(1, centre + half);
  return { low: 100 * low, high: 100 * high };
}
