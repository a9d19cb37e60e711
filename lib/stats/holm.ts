/**
 * Holm's step-down adjusted p-values (S. Holm 1979, "A simple sequentially rejective multiple
 * test procedure", Scand. J. Statist. 6:65–70; adjusted p-values as in Wright 1992, "Adjusted
 * P-values for simultaneous inference", Biometrics 48:1005–1013). With the m p-values sorted
 * ascending, p₍₁₎ ≤ … ≤ p₍ₘ₎:
 *
 *   p̃₍ᵢ₎ = min(1, max_{j ≤ i} (m − j + 1) · p₍ⱼ₎)
 *
 * returned in the input order. Rejecting where p̃ ≤ α controls the family-wise error rate at
 * α under any dependence between the tests; the adjusted values are monotone in the raw ones
 * and never below them. Same as R's `p.adjust(p, "holm")`.
 *
 * @example
 * ```ts
 * import { holmAdjust } from "@runlens/stats/holm.ts";
 * holmAdjust([0.01, 0.04, 0.03, 0.005]); // [0.03, 0.06, 0.06, 0.02]
 * ```
 * @module
 */

/**
 * Holm-adjusted p-values, in the order given. Throws a RangeError on a value outside [0, 1].
 *
 * @example
 * ```ts
 * holmAdjust([]); // []
 * holmAdjust([0.5]); // [0.5]
 * holmAdjust([0.6, 0.7]); // [1, 1]
 * ```
 */
export function holmAdjust(pValues: readonly number[]): number[] {
  const m = pValues.length;
  for (const p of pValues) {
    if (!(p >= 0 && p <= 1)) throw new RangeError(`holmAdjust: p-value ${p} is not in [0, 1]`);
  }
  const order = pValues.map((_, i) => i).sort((a, b) => pValues[a] - pValues[b] || a - b);
  const adjusted = new Array<number>(m);
  let running = 0;
  order.forEach((idx, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * pValues[idx]));
    adjusted[idx] = running;
  });
  return adjusted;
}

/**
 * {@link holmAdjust} on log₁₀ p-values, for p-values too small for a double (McNemar's
 * p on thousands of discordant examples): log₁₀ p̃₍ᵢ₎ = min(0, max_{j≤i} log₁₀(m − j + 1) +
 * log₁₀ p₍ⱼ₎), in the order given. Throws a RangeError on a value above 0 or NaN.
 *
 * @example
 * ```ts
 * holmAdjustLog10([-700, -2]); // [-699.698…, -2]: 2·10⁻⁷⁰⁰, then max(10⁻², 2·10⁻⁷⁰⁰)
 * holmAdjustLog10([Math.log10(0.01), Math.log10(0.04)]).map((x) => 10 ** x); // [0.02, 0.04]
 * ```
 */
export function holmAdjustLog10(log10PValues: readonly number[]): number[] {
  const m = log10PValues.length;
  for (const l of log10PValues) {
    if (!(l <= 0)) throw new RangeError(`holmAdjustLog10: log10 p ${l} is not ≤ 0`);
  }
  const order = log10PValues.map((_, i) => i)
    .sort((a, b) => log10PValues[a] - log10PValues[b] || a - b);
  const adjusted = new Array<number>(m);
  let running = -Infinity;
  order.forEach((idx, rank) => {
    running = Math.max(running, Math.min(0, Math.log10(m - rank) + log10PValues[idx]));
    adjusted[idx] = running;
  });
  return adjusted;
}
