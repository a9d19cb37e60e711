/**
 * Exact Binomial(n, p) sampling by inversion of a precomputed CDF table, for drawing the same
 * distribution many times (a bootstrap draws each task's Binomial(n, c/n) thousands of times).
 *
 * Method: inversion (Devroye 1986, "Non-Uniform Random Variate Generation", §III.2; the BINV
 * branch of Kachitvichyanukul & Schmeiser 1988, "Binomial random variate generation", CACM
 * 31(2):216–222, without its sequential search). The table holds F(k) = P(X ≤ k) for
 * k = 0..n, built once in O(n) from the ratio recurrence
 * f(k+1) = f(k) · (n − k)/(k + 1) · p/(1 − p), run outwards from the mode ⌊(n + 1)p⌋ (where
 * it starts at 1, so nothing overflows for large n) and normalised to sum 1. A draw takes one uniform u in
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
  // pmf up to a constant, by the ratio recurrence outwards from the mode (value 1 there), so
  // nothing overflows; far tails underflow to 0, far below any drawable probability
  const odds = p / (1 - p);
  const mode = Math.min(n, Math.floor((n + 1) * p));
  const pmf = new Float64Array(n + 1);
  pmf[mode] = 1;
  for (let k = mode; k < n; k++) pmf[k + 1] = pmf[k] * ((n - k) / (k + 1)) * odds;
  for (let k = mode; k > 0; k--) pmf[k - 1] = pmf[k] * (k / (n - k + 1)) / odds;
  let total = 0;
  for (let k = 0; k <= n; k++) {
    total += pmf[k];
    cdf[k] = total;
  }
  for (let k = 0; k < n; k++) cdf[k] /= total;
  cdf[n] = 1;
  return cdf;
}

/**
 * Binomial(n, p) by inversion of its CDF table (module doc): build once, then `draw` as often
 * as needed. A class rather than a closure so that a loop over many tables stays fast (one
 * hidden class, so the engine can inline `draw`).
 *
 * @example
 * ```ts
 * import { mulberry32 } from "@runlens/core/rng.ts";
 * const t = new BinomialTable(200, 0.3);
 * const rng = mulberry32(7);
 * [t.draw(rng), t.draw(rng)]; // [46, 73]
 * ```
 */
export class BinomialTable {
  readonly n: number;
  readonly p: number;
  /** F(0..n); empty when the distribution is a point (n = 0, p = 0 or p = 1). */
  readonly cdf: Float64Array;
  /** guide[j] = smallest k with F(k) > j/(n + 1) (Chen & Asau 1974). */
  readonly guide: Int32Array;
  /** The value of a point distribution, or −1. */
  readonly #point: number;

  constructor(n: number, p: number) {
    checkParams(n, p, "BinomialTable");
    this.n = n;
    this.p = p;
    this.#point = n === 0 || p === 0 ? 0 : p === 1 ? n : -1;
    if (this.#point >= 0) {
      this.cdf = new Float64Array(0);
      this.guide = new Int32Array(0);
      return;
    }
    const cdf = binomialCdf(n, p);
    // The search for u ∈ [j/m, (j+1)/m) can start at guide[j]: about one step per draw.
    const m = n + 1;
    const guide = new Int32Array(m);
    for (let j = 0, k = 0; j < m; j++) {
      while (cdf[k] <= j / m) k++;
      guide[j] = k;
    }
    this.cdf = cdf;
    this.guide = guide;
  }

  /** One variate, from two draws of `rng` (none for a point distribution). */
  draw(rng: Rng): number {
    if (this.#point >= 0) return this.#point;
    const cdf = this.cdf, m = this.n + 1;
    const u = uniform53(rng);
    let k = this.guide[Math.min(Math.floor(u * m), m - 1)];
    while (u >= cdf[k]) k++; // up to the smallest k with u < cdf[k]; cdf[n] = 1 > u ends it
    while (k > 0 && u < cdf[k - 1]) k--; // only if u·m was rounded up across a guide boundary
    return k;
  }
}

/**
 * A sampler of Binomial(n, p): a {@link BinomialTable}'s `draw` as a function. `n` must be a
 * non-negative integer and `p` in [0, 1]; p = 0 and p = 1 are deterministic and draw nothing
 * from `rng`.
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
  const table = new BinomialTable(n, p);
  return (rng) => table.draw(rng);
}

function checkParams(n: number, p: number, fn: string): void {
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(`${fn}: n must be a non-negative integer (got ${n})`);
  }
  if (!(p >= 0 && p <= 1)) throw new RangeError(`${fn}: p must be in [0, 1] (got ${p})`);
}
