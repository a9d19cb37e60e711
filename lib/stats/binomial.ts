/**
 * Exact Binomial(n, p) sampling by inversion of a precomputed CDF table, for drawing the same
 * distribution many times (a bootstrap draws each task's Binomial(n, c/n) thousands of times).
 *
 * Method: inversion (Devroye 1986, "Non-Uniform Random Variate Generation", §III.2; the BINV
 * branch of Kachitvichyanukul & Schmeiser 1988, "Binomial random variate generation", CACM
 * 31(2):216–222, without its sequential search). The table holds F(k) = P(X ≤ k) for
 * k = 0..n, built once in O(n) from the log-pmf recurrence
 * ln f(k+1) = ln f(k) + ln((n − k)/(k + 1)) + ln(p/(1 − p)), exponentiated relative to its
 * maximum (no underflow for large n) and normalised to sum 1. A draw takes one uniform u in
 * [0, 1) and returns the smallest k with u < F(k), found from a guide table (Chen & Asau
 * 1974, "On generating random variates from an empirical distribution", AIIE Trans.
 * 6(2):163–166; Devroye §III.2.4): O(1) expected per draw, whatever n and p. The result is exact up to the floating-point rounding of the table
 * (about 1e−15 per probability); in particular it does not depend on a normal or Poisson
 * approximation, unlike cheap "binomial" shortcuts.
 *
 * The uniform has 53 random bits, made from two calls of the 32-bit generator:
 * u = r₁ + ⌊r₂·2²¹⌋/2⁵³. With a single 32-bit draw every outcome probability would be rounded
 * to a multiple of 2⁻³² (2.3e−10).
 *
 * Memory is about 1.5·(n + 1) doubles, which is fine for strata of up to millions of examples.
 *
 * @example
 * ```ts
 * import { mulberry32 } from "@runlens/core/rng.ts";
 * import { binomialSampler } from "@runlens/stats/binomial.ts";
 * const draw = binomialSampler(200, 0.3);
 * const rng = mulberry32(7);
 * [draw(rng), draw(rng), draw(rng)]; // [46, 73, 60]
 * ```
 * @module
 */
import type { Rng } from "../core/rng.ts";

/** A uniform on [0, 1) with 53 random bits, from two draws of `rng` (32 bits each). */
export function uniform53(rng: Rng): number {
  return rng() + Math.floor(rng() * 2097152) / 9007199254740992;
}

/**
 * The CDF table F(0..n) of Binomial(n, p); the last entry is exactly 1.
 *
 * @example
 * ```ts
 * Array.from(binomialCdf(2, 0.5)); // [0.25, 0.75, 1]
 * ```
 */
export function binomialCdf(n: number, p: number): Float64Array {
  checkParams(n, p, "binomialCdf");
  const cdf = new Float64Array(n + 1);
  if (p === 0 || p === 1) {
    if (p === 0) cdf.fill(1);
    else cdf[n] = 1;
    return cdf;
  }
  const logOdds = Math.log(p) - Math.log1p(-p);
  const logPmf = new Float64Array(n + 1);
  let max = -Infinity;
  logPmf[0] = 0; // ln f(0) up to the constant n·ln(1 − p), removed by the normalisation
  for (let k = 0; k < n; k++) {
    logPmf[k + 1] = logPmf[k] + Math.log((n - k) / (k + 1)) + logOdds;
  }
  for (let k = 0; k <= n; k++) if (logPmf[k] > max) max = logPmf[k];
  let total = 0;
  for (let k = 0; k <= n; k++) {
    const f = Math.exp(logPmf[k] - max);
    total += f;
    cdf[k] = total;
  }
  for (let k = 0; k < n; k++) cdf[k] /= total;
  cdf[n] = 1;
  return cdf;
}

/**
 * A sampler of Binomial(n, p): precomputes the CDF table once, then each call draws one
 * value with `rng` (two 32-bit draws per value). `n` must be a non-negative integer and `p`
 * in [0, 1]; p = 0 and p = 1 are deterministic and draw nothing from `rng`.
 *
 * @example
 * ```ts
 * import { mulberry32 } from "@runlens/core/rng.ts";
 * const rng = mulberry32(1);
 * binomialSampler(10, 0)(rng); // 0
 * binomialSampler(10, 1)(rng); // 10
 * binomialSampler(1, 0.5)(rng); // 1 (a fair coin)
 * ```
 */
export function binomialSampler(n: number, p: number): (rng: Rng) => number {
  checkParams(n, p, "binomialSampler");
  if (n === 0 || p === 0) return () => 0;
  if (p === 1) return () => n;
  const cdf = binomialCdf(n, p);
  // Guide table (Chen & Asau 1974): guide[j] = smallest k with cdf[k] > j/m, so the search
  // for u ∈ [j/m, (j+1)/m) can start there; about one step per draw on average.
  const m = n + 1;
  const guide = new Int32Array(m);
  for (let j = 0, k = 0; j < m; j++) {
    while (cdf[k] <= j / m) k++;
    guide[j] = k;
  }
  return (rng) => {
    const u = uniform53(rng);
    let k = guide[Math.min(Math.floor(u * m), m - 1)];
    while (u >= cdf[k]) k++; // up to the smallest k with u < cdf[k]; cdf[n] = 1 > u ends it
    while (k > 0 && u < cdf[k - 1]) k--; // only if u·m was rounded up across a guide boundary
    return k;
  };
}

function checkParams(n: number, p: number, fn: string): void {
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(`${fn}: n must be a non-negative integer (got ${n})`);
  }
  if (!(p >= 0 && p <= 1)) throw new RangeError(`${fn}: p must be in [0, 1] (got ${p})`);
}
