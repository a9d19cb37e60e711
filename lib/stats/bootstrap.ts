/**
 * Seeded stratified bootstrap of any statistic of per-stratum totals — e.g. the BBEH
 * harmonic mean of per-task accuracies (headline_bootstrap.ts) — with percentile, basic or
 * BCa intervals.
 *
 * Resampling scheme (Davison & Hinkley 1997, "Bootstrap Methods and their Application", §3.2,
 * several samples / strata): in each resample, every stratum (task) keeps its size n_k and its n_k examples
 * are drawn with replacement from that stratum's examples; the statistic is evaluated on the
 * resampled per-stratum sums S_k (for 0/1 scores, the correct counts) and sizes n_k. Strata
 * are never mixed, so each task keeps its weight, as in the headline metrics.
 *
 * Exact shortcut for 0/1 scores: drawing n items with replacement from a stratum with c
 * correct out of n gives a number of correct draws distributed exactly Binomial(n, c/n) (each
 * draw is independently correct with probability c/n). Such strata draw one binomial variate
 * (binomial.ts, exact inversion of a table built once per stratum) instead of n uniforms.
 * Strata whose per-example scores take other values (means over epochs) are resampled
 * directly, n uniform indices per resample (⌊u·n⌋ of a 32-bit u: each index within n/2³² of
 * probability 1/n).
 *
 * Several samples per example (epochs): pass each example's mean score (see
 * {@link strataFromRows}); examples are the resampling units (clusters) and the epochs of an
 * example stay together, as the cluster bootstrap requires (Davison & Hinkley §3.8,
 * resampling the first stage of hierarchical data). With unequal epoch counts this weighs
 * examples equally, not rows.
 *
 * Intervals at level 1 − α from the B sorted replicates t*_(1..B), quantiles Q by
 * simple-statistics' `quantileSorted`:
 * - "percentile": [Q(α/2), Q(1 − α/2)] (Efron & Tibshirani 1993, "An Introduction to the
 *   Bootstrap", ch. 13);
 * - "basic": [2t̂ − Q(1 − α/2), 2t̂ − Q(α/2)] (Davison & Hinkley §5.2), clipped to
 *   `bounds` when given;
 * - "bca": [Q(α₁), Q(α₂)] with αᵢ = Φ(z₀ + (z₀ + z_{αᵢ'})/(1 − a(z₀ + z_{αᵢ'}))), bias
 *   correction z₀ = Φ⁻¹((#{t* < t̂} + ½#{t* = t̂})/B) (Efron & Tibshirani ch. 14) and the
 *   acceleration a = Σ_k n_k⁻³ Σ_j l_kj³ / (6 (Σ_k n_k⁻² Σ_j l_kj²)^{3/2}), the skewness
 *   term of the linear approximation t ≈ t̂ + Σ_k n_k⁻¹ Σ_j l_kj with stratified jackknife
 *   influence values l_kj = (n_k − 1)(t̄_k − t_(kj)), t_(kj) leaving example j of stratum k
 *   out and t̄_k their mean (Davison & Hinkley §5.3 with the stratified influence values of
 *   §3.2; with one stratum this is Efron & Tibshirani's jackknife formula for a).
 * `se` is the standard deviation of the replicates.
 *
 * Determinism: the replicates depend only on the strata (their order too), the statistic,
 * `resamples` and `seed`; one mulberry32 stream (core/rng.ts) seeded with `seed`
 * (default {@link DEFAULT_BOOTSTRAP_SEED}) is consumed resample by resample, stratum by
 * stratum. Pass strata in a fixed order (e.g. sorted by task name).
 *
 * @example
 * ```ts
 * import { stratifiedBootstrap } from "@runlens/stats/bootstrap.ts";
 * // micro accuracy (%) over two tasks given correct counts
 * const micro = (sums: ArrayLike<number>, ns: ArrayLike<number>) =>
 *   100 * (sums[0] + sums[1]) / (ns[0] + ns[1]);
 * stratifiedBootstrap([{ correct: 30, n: 200 }, { correct: 150, n: 200 }], micro);
 * // { estimate: 45, low: 41.25, high: 49, se: 1.9738170726521722, method: "percentile",
 * //   level: 0.95, resamples: 2000, seed: 20240601 }
 * ```
 * @module
 */
import { quantileSorted, sampleStandardDeviation } from "simple-statistics";
import { mulberry32, type Rng } from "../core/rng.ts";
import { BinomialTable } from "./binomial.ts";
import { normalCdf, normalQuantile } from "./normal.ts";

/** Seed used when none is given (an arbitrary fixed number; reports should print it). */
export const DEFAULT_BOOTSTRAP_SEED = 20240601;
/** Resamples used when none is given. */
export const DEFAULT_RESAMPLES = 2000;

/**
 * One stratum: either counts of 0/1 scores (`correct` of `n`), or one score per example in
 * [0, 1] (for several epochs, each example's mean).
 */
export type StratumInput =
  | { readonly correct: number; readonly n: number }
  | { readonly scores: readonly number[] };

/**
 * A statistic of the per-stratum totals: `sums[k]` is the sum of the scores drawn in stratum
 * k (the correct count for 0/1 scores), `ns[k]` its size. Must return a finite number.
 */
export type StratumStatistic = (sums: ArrayLike<number>, ns: ArrayLike<number>) => number;

/** Interval construction from the replicates. */
export type BootstrapMethod = "percentile" | "basic" | "bca";

/** Options of {@link stratifiedBootstrap}. */
export interface BootstrapOptions {
  /** Number of resamples B; default {@link DEFAULT_RESAMPLES} (2,000). */
  resamples?: number;
  /** Seed of the mulberry32 stream; default {@link DEFAULT_BOOTSTRAP_SEED}. */
  seed?: number;
  /** Confidence level; default 0.95. */
  level?: number;
  /** Interval method; default "percentile". */
  method?: BootstrapMethod;
  /**
   * The statistic's range [min, max]; the interval is clipped to it (the basic interval can
   * otherwise leave it). Default: no clipping.
   */
  bounds?: readonly [number, number];
}

/** A bootstrap interval and how it was made. */
export interface BootstrapInterval {
  /** The statistic on the observed data. */
  estimate: number;
  low: number;
  high: number;
  /** Standard deviation of the replicates (bootstrap standard error). */
  se: number;
  method: BootstrapMethod;
  level: number;
  resamples: number;
  seed: number;
}

/** Draws a stratum's resampled total. */
interface Resampler {
  draw(rng: Rng): number;
}

/** Resampling n examples with replacement from a stratum of arbitrary scores in [0, 1]. */
class DirectResampler implements Resampler {
  constructor(readonly pool: Float64Array) {}
  draw(rng: Rng): number {
    const pool = this.pool, n = pool.length;
    let t = 0;
    for (let i = 0; i < n; i++) t += pool[Math.floor(rng() * n)];
    return t;
  }
}

/** A stratum ready to resample: the observed total, its size and a resampler. */
interface Prepared {
  n: number;
  sum: number;
  /** Distinct per-example values and how many examples have each (for the jackknife). */
  values: number[];
  counts: number[];
  resampler: Resampler;
}

function prepare(input: StratumInput, k: number): Prepared {
  if ("correct" in input) {
    const { correct, n } = input;
    if (!Number.isInteger(n) || n < 1 || !Number.isInteger(correct) || correct < 0 || correct > n) {
      throw new RangeError(
        `stratifiedBootstrap: stratum ${k} needs integers 0 ≤ correct ≤ n, n ≥ 1 (got ${correct}/${n})`,
      );
    }
    return binary(correct, n);
  }
  const scores = input.scores;
  if (scores.length === 0) throw new RangeError(`stratifiedBootstrap: stratum ${k} is empty`);
  const tally = new Map<number, number>();
  for (const s of scores) {
    if (!(s >= 0 && s <= 1)) {
      throw new RangeError(`stratifiedBootstrap: stratum ${k} has score ${s} outside [0, 1]`);
    }
    tally.set(s, (tally.get(s) ?? 0) + 1);
  }
  if ([...tally.keys()].every((v) => v === 0 || v === 1)) {
    return binary(tally.get(1) ?? 0, scores.length);
  }
  const values = [...tally.keys()].sort((a, b) => a - b);
  const counts = values.map((v) => tally.get(v)!);
  const pool = Float64Array.from(scores).sort();
  let sum = 0;
  for (const s of pool) sum += s;
  return { n: pool.length, sum, values, counts, resampler: new DirectResampler(pool) };
}

function binary(correct: number, n: number): Prepared {
  const values: number[] = [], counts: number[] = [];
  if (n - correct > 0) values.push(0), counts.push(n - correct);
  if (correct > 0) values.push(1), counts.push(correct);
  return { n, sum: correct, values, counts, resampler: new BinomialTable(n, correct / n) };
}

/**
 * Stratified bootstrap interval of `statistic` (see the module doc for the scheme and the
 * methods). Throws a RangeError on no strata, an empty stratum, bad counts or options, or a
 * non-finite statistic.
 *
 * @example
 * ```ts
 * const hm = (s: ArrayLike<number>, n: ArrayLike<number>) =>
 *   2 / (1 / (100 * s[0] / n[0] + 1) + 1 / (100 * s[1] / n[1] + 1));
 * const strata = [{ correct: 10, n: 200 }, { correct: 80, n: 200 }];
 * const a = stratifiedBootstrap(strata, hm, { seed: 1 });
 * const b = stratifiedBootstrap(strata, hm, { seed: 1 });
 * a.low === b.low && a.high === b.high; // true: same seed, same interval
 * stratifiedBootstrap(strata, hm, { seed: 1, method: "bca" }).method; // "bca"
 * ```
 */
export function stratifiedBootstrap(
  strata: readonly StratumInput[],
  statistic: StratumStatistic,
  options: BootstrapOptions = {},
): BootstrapInterval {
  const resamples = options.resamples ?? DEFAULT_RESAMPLES;
  const seed = options.seed ?? DEFAULT_BOOTSTRAP_SEED;
  const level = options.level ?? 0.95;
  const method = options.method ?? "percentile";
  if (!Number.isInteger(resamples) || resamples < 2) {
    throw new RangeError(
      `stratifiedBootstrap: resamples must be an integer ≥ 2 (got ${resamples})`,
    );
  }
  if (!(level > 0 && level < 1)) {
    throw new RangeError(`stratifiedBootstrap: level must be in (0, 1) (got ${level})`);
  }
  if (!["percentile", "basic", "bca"].includes(method)) {
    throw new RangeError(`stratifiedBootstrap: unknown method "${method}"`);
  }
  if (strata.length === 0) throw new RangeError("stratifiedBootstrap: no strata");
  const prepared = strata.map(prepare);
  const k = prepared.length;
  const ns = Float64Array.from(prepared, (p) => p.n);
  const observed = Float64Array.from(prepared, (p) => p.sum);
  const estimate = checked(statistic(observed, ns), "the observed data");

  const rng = mulberry32(seed);
  const resamplers = prepared.map((p) => p.resampler);
  const sums = new Float64Array(k);
  const reps = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    for (let j = 0; j < k; j++) sums[j] = resamplers[j].draw(rng);
    const t = statistic(sums, ns);
    if (!Number.isFinite(t)) checked(t, `resample ${b}`);
    reps[b] = t;
  }
  reps.sort();
  const se = sampleStandardDeviation(reps as unknown as number[]);
  const alpha = 1 - level;
  const q = (p: number) => quantileSorted(reps as unknown as number[], p);
  let low: number, high: number;
  if (reps[0] === reps[resamples - 1]) {
    low = high = reps[0];
  } else if (method === "percentile") {
    low = q(alpha / 2);
    high = q(1 - alpha / 2);
  } else if (method === "basic") {
    low = 2 * estimate - q(1 - alpha / 2);
    high = 2 * estimate - q(alpha / 2);
  } else {
    const [a1, a2] = bcaLevels(reps, estimate, accelerationOf(prepared, statistic), alpha);
    low = q(a1);
    high = q(a2);
  }
  if (options.bounds) {
    low = Math.max(low, options.bounds[0]);
    high = Math.min(high, options.bounds[1]);
  }
  return { estimate, low, high, se, method, level, resamples, seed };
}

function checked(v: number, what: string): number {
  if (!Number.isFinite(v)) {
    throw new RangeError(`stratifiedBootstrap: the statistic is ${v} on ${what}`);
  }
  return v;
}

/** BCa's adjusted quantile levels α₁, α₂ (Efron & Tibshirani ch. 14). */
function bcaLevels(
  sorted: Float64Array,
  estimate: number,
  a: number,
  alpha: number,
): [number, number] {
  const b = sorted.length;
  let below = 0, equal = 0;
  for (const t of sorted) {
    if (t < estimate) below++;
    else if (t === estimate) equal++;
  }
  // Mid-rank for ties (discrete statistics); kept inside (0, 1) so z₀ stays finite.
  const share = Math.min(Math.max((below + equal / 2) / b, 0.5 / b), 1 - 0.5 / b);
  const z0 = normalQuantile(share);
  const adjust = (p: number) => {
    const zp = z0 + normalQuantile(p);
    return normalCdf(z0 + zp / (1 - a * zp));
  };
  const clamp = (p: number) => Math.min(Math.max(p, 0), 1);
  return [clamp(adjust(alpha / 2)), clamp(adjust(1 - alpha / 2))];
}

/**
 * The BCa acceleration from the stratified jackknife (module doc). Leaving out one example
 * only changes its stratum's total, so each stratum needs one statistic evaluation per
 * distinct value, not per example. Strata of one example are skipped (they do not vary).
 */
function accelerationOf(prepared: readonly Prepared[], statistic: StratumStatistic): number {
  const ns = Float64Array.from(prepared, (p) => p.n);
  const sums = Float64Array.from(prepared, (p) => p.sum);
  let num = 0, den = 0;
  prepared.forEach((p, k) => {
    if (p.n < 2) return;
    ns[k] = p.n - 1;
    const loo = p.values.map((v) => {
      sums[k] = p.sum - v;
      return checked(statistic(sums, ns), `a jackknife sample of stratum ${k}`);
    });
    ns[k] = p.n;
    sums[k] = p.sum;
    let mean = 0;
    loo.forEach((t, i) => (mean += p.counts[i] * t));
    mean /= p.n;
    let s2 = 0, s3 = 0;
    loo.forEach((t, i) => {
      const l = (p.n - 1) * (mean - t);
      s2 += p.counts[i] * l * l;
      s3 += p.counts[i] * l * l * l;
    });
    num += s3 / p.n ** 3;
    den += s2 / p.n ** 2;
  });
  return den > 0 ? num / (6 * den ** 1.5) : 0;
}

/**
 * The BCa acceleration `a` of `statistic` on `strata` (module doc), from the stratified
 * jackknife; 0 when no stratum varies.
 *
 * @example
 * ```ts
 * const mean = (s: ArrayLike<number>, n: ArrayLike<number>) => s[0] / n[0];
 * jackknifeAcceleration([{ correct: 1, n: 4 }], mean); // 0.09622504486493764
 * ```
 */
export function jackknifeAcceleration(
  strata: readonly StratumInput[],
  statistic: StratumStatistic,
): number {
  return accelerationOf(strata.map(prepare), statistic);
}

/** Strata built from scored rows by {@link strataFromRows}. */
export interface RowStrata {
  /** Stratum names, sorted. */
  names: string[];
  /** One stratum per name: each example's mean score. */
  strata: StratumInput[];
  /** Rows per example: min and max over all examples (1/1 when there are no epochs). */
  epochs: { min: number; max: number };
}

/**
 * Group scored rows into strata (sorted by name) of per-example mean scores — the resampling
 * units when an example has several rows (epochs). Rows of one example share `stratum` and
 * `example`. Throws on a score outside [0, 1].
 *
 * @example
 * ```ts
 * const { names, strata, epochs } = strataFromRows([
 *   { stratum: "b", example: "1", score: 1 },
 *   { stratum: "a", example: "7", score: 1 },
 *   { stratum: "a", example: "7", score: 0 },
 * ]);
 * // names ["a", "b"]; strata [{ scores: [0.5] }, { scores: [1] }]; epochs { min: 1, max: 2 }
 * ```
 */
export function strataFromRows(
  rows: Iterable<{ stratum: string; example: string | number; score: number }>,
): RowStrata {
  const by = new Map<string, Map<string | number, { sum: number; count: number }>>();
  for (const { stratum, example, score } of rows) {
    if (!(score >= 0 && score <= 1)) {
      throw new RangeError(`strataFromRows: score ${score} outside [0, 1] (${stratum}/${example})`);
    }
    let examples = by.get(stratum);
    if (!examples) by.set(stratum, examples = new Map());
    const e = examples.get(example);
    if (e) e.sum += score, e.count++;
    else examples.set(example, { sum: score, count: 1 });
  }
  const names = [...by.keys()].sort();
  let min = Infinity, max = 0;
  const strata = names.map((name) => {
    const scores: number[] = [];
    for (const { sum, count } of by.get(name)!.values()) {
      scores.push(sum / count);
      min = Math.min(min, count);
      max = Math.max(max, count);
    }
    return { scores };
  });
  return { names, strata, epochs: { min: names.length ? min : 0, max } };
}
