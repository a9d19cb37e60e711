/**
 * The mean of per-question scores (0/1 verdicts or scores in [0, 1]) with its Central Limit
 * Theorem standard error and a normal 95% interval — E. Miller (2024), "Adding Error Bars to
 * Evals: A Statistical Approach to Language Model Evaluations", arXiv:2411.00640, the CLT
 * standard error for independent questions:
 *
 *   s̄ = (1/n) Σ sᵢ,   SE_CLT = √( Σ (sᵢ − s̄)² / (n (n − 1)) ),   CI = s̄ ± z·SE,
 *
 * i.e. the sample standard deviation (n − 1 denominator) over √n; for 0/1 scores this is
 * √(p̂(1 − p̂)/(n − 1)). The interval is the plain normal one, not clipped to [0, 1]: at
 * 0/n or n/n the SE is 0 and the interval degenerate, which is why per-task accuracies use
 * Wilson intervals (wilson.ts) instead. The result is in the units of the scores (multiply by
 * 100 for percent). When several scores share a question (epochs), use
 * clustered_se.ts instead.
 *
 * @example
 * ```ts
 * import { meanWithSe } from "@runlens/stats/mean_se.ts";
 * meanWithSe([1, 0, 1, 1]);
 * // { estimate: 0.75, se: 0.25, low: 0.2600090038649865, high: 1.2399909961350135,
 * //   n: 4, method: "clt" }
 * ```
 * @module
 */
import { Z95 } from "./wilson.ts";

/** A mean with its standard error and a normal interval (estimate ± z·SE). */
export interface MeanEstimate {
  /** The mean of the scores (row-weighted when there are clusters). */
  estimate: number;
  /** Its standard error; NaN when it is not defined (one score, or one cluster). */
  se: number;
  /** estimate − z·se. */
  low: number;
  /** estimate + z·se. */
  high: number;
  /** Number of scores. */
  n: number;
  /** Number of clusters, when clustered. */
  clusters?: number;
  /** "clt": independent scores (Miller's CLT SE); "clustered": CR1 cluster-robust (clustered_se.ts). */
  method: "clt" | "clustered";
}

/** Options of {@link meanWithSe}. */
export interface MeanOptions {
  /** Normal quantile of the interval; default {@link Z95} (95%). */
  z?: number;
}

/**
 * Mean, CLT standard error and normal interval of independent scores. Null for no scores;
 * for one score the SE and the bounds are NaN. Throws a RangeError on a non-finite score.
 *
 * @example
 * ```ts
 * meanWithSe([]); // null
 * meanWithSe([1, 1, 1]); // { estimate: 1, se: 0, low: 1, high: 1, n: 3, method: "clt" }
 * meanWithSe([0, 1], { z: 1 }); // { estimate: 0.5, se: 0.5, low: 0, high: 1, n: 2, method: "clt" }
 * ```
 */
export function meanWithSe(
  scores: readonly number[],
  options: MeanOptions = {},
): MeanEstimate | null {
  const z = checkZ(options.z, "meanWithSe");
  const n = scores.length;
  if (n === 0) return null;
  let sum = 0;
  for (const s of scores) {
    if (!Number.isFinite(s)) throw new RangeError(`meanWithSe: score ${s} is not a finite number`);
    sum += s;
  }
  const mean = sum / n;
  let ss = 0;
  for (const s of scores) ss += (s - mean) * (s - mean);
  const se = n > 1 ? Math.sqrt(ss / (n * (n - 1))) : NaN;
  return { estimate: mean, se, low: mean - z * se, high: mean + z * se, n, method: "clt" };
}

/** The interval's z (default 95%), checked. */
export function checkZ(z: number | undefined, fn: string): number {
  const v = z ?? Z95;
  if (!Number.isFinite(v) || v <= 0) throw new RangeError(`${fn}: z must be > 0 (got ${v})`);
  return v;
}
