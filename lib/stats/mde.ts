/**
 * Minimum detectable difference (MDE) of a paired comparison at a given power — the
 * smallest true difference a two-sided level-α test detects with probability `power`.
 *
 * From a standard error fixed in advance (E. Miller 2024, "Adding Error Bars to Evals",
 * arXiv:2411.00640, power analysis; the usual normal-approximation sample-size formula solved
 * for the effect):
 *
 *   MDE = (z_{1−α/2} + z_{power}) · SE      (α = 0.05, power 0.8: 2.8016 · SE)
 *
 * — for planning, with an SE that does not depend on the effect. Not for the SE observed in a
 * comparison: the observed SE of a paired difference, √((ψ − δ̂²)/n), shrinks as the observed
 * effect δ̂ grows, so that MDE is too optimistic exactly when the effect is large (with ψ = 0.8
 * and δ̂ = 0.74 it is about 56% of Connor's). `runlens compare` uses the next formula.
 *
 * From the discordance rate ψ (share of examples where exactly one run is right) of 0/1
 * scores, by solving Connor's sample-size formula for McNemar's test (R. J. Connor 1987,
 * "Sample size for testing differences in proportions for the paired-sample design",
 * Biometrics 43:207–211), n = ((z_{1−α/2}·√ψ + z_{power}·√(ψ − δ²)) / δ)², for δ:
 *
 *   δ = √ψ · (z_a·√n + z_b·√(n − z_a² + z_b²)) / (n + z_b²),  z_a = z_{1−α/2}, z_b = z_{power}
 *
 * (the root of the squared equation that solves the original one, which needs n > z_a²).
 * ψ enters as the variance of a difference under H₀ (E d² for d ∈ {−1, 0, 1}); for per-example
 * mean scores (epochs) `paired.ts` passes ψ = mean |dᵢ|, an upper bound of E d².
 * Both are in the units of the scores. Connor's formula is the normal approximation for
 * McNemar's test; the exact test, being conservative, has a little less power at this δ
 * (76–79% in the cases of tests/stats_paired.test.ts, computed with SciPy).
 *
 * @example
 * ```ts
 * import { mdeFromDiscordance, minimumDetectableDifference } from "@runlens/stats/mde.ts";
 * minimumDetectableDifference(0.02); // 0.056031704362259356 (2.8016 × 0.02)
 * mdeFromDiscordance(0.5, 23); // 0.392230487314606 (Connor's example: 23 pairs detect δ = 0.4)
 * ```
 * @module
 */
import { normalQuantile } from "./normal.ts";

/** Options of the MDE functions. */
export interface PowerOptions {
  /** Two-sided significance level; default 0.05. */
  alpha?: number;
  /** Power; default 0.8. */
  power?: number;
}

function quantiles(options: PowerOptions, fn: string): [number, number] {
  const alpha = options.alpha ?? 0.05;
  const power = options.power ?? 0.8;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`${fn}: alpha must be in (0, 1)`);
  if (!(power > 0 && power < 1)) throw new RangeError(`${fn}: power must be in (0, 1)`);
  return [normalQuantile(1 - alpha / 2), normalQuantile(power)];
}

/**
 * (z_{1−α/2} + z_{power}) · `se`: the MDE given the SE of the difference.
 *
 * @example
 * ```ts
 * minimumDetectableDifference(1, { alpha: 0.05, power: 0.5 }); // 1.9599639845400536
 * ```
 */
export function minimumDetectableDifference(se: number, options: PowerOptions = {}): number {
  const [za, zb] = quantiles(options, "minimumDetectableDifference");
  return (za + zb) * se;
}

/**
 * The MDE of McNemar's test for `n` pairs with discordance rate `discordance` (ψ in [0, 1]),
 * from Connor (1987). Null when no difference is detectable: ψ = 0, n too small
 * (n ≤ z_a² = 3.84 at α = 0.05), or the solution exceeds ψ (|p₁₀ − p₀₁| ≤ ψ always).
 *
 * @example
 * ```ts
 * mdeFromDiscordance(0.5, 22); // 0.4000916525959268 (22 pairs are not quite enough)
 * mdeFromDiscordance(0, 100); // null
 * ```
 */
export function mdeFromDiscordance(
  discordance: number,
  n: number,
  options: PowerOptions = {},
): number | null {
  if (!(discordance >= 0 && discordance <= 1)) {
    throw new RangeError(`mdeFromDiscordance: discordance must be in [0, 1] (got ${discordance})`);
  }
  if (!(n >= 0)) throw new RangeError(`mdeFromDiscordance: n must be ≥ 0 (got ${n})`);
  const [za, zb] = quantiles(options, "mdeFromDiscordance");
  // For n ≤ z_a² the quadratic's root does not solve the unsquared equation (z_b·√… < 0).
  if (discordance === 0 || n <= za * za) return null;
  const under = n - za * za + zb * zb;
  const delta = (Math.sqrt(discordance) * (za * Math.sqrt(n) + zb * Math.sqrt(under))) /
    (n + zb * zb);
  return delta <= discordance ? delta : null;
}
