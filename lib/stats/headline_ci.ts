/**
 * Intervals of the headline numbers runlens reports, from scored rows (one 0/1 score per row,
 * several rows per example when a run has epochs), in percent:
 * - {@link microCI}: the mean score with its CLT standard error (E. Miller, "Adding Error Bars
 *   to Evals", arXiv 2411.00640, §2), clustered by example when an example has several rows
 *   (CR1 cluster-robust SE, `clustered_se.ts`), and the normal 95% interval clipped to
 *   [0, 100];
 * - {@link harmonicMeanCI}: the BBEH headline (harmonic mean of accuracy % + 1 over tasks, a
 *   non-linear aggregate) with a seeded bootstrap over examples stratified by task (2,000
 *   resamples, the basic interval clipped to [1, 101]; each example resampled as a unit with
 *   its mean over epochs) — see `headline_bootstrap.ts` for why the basic interval.
 * Each interval names its method, so a report can say how it was made.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const rows = [1, 0, 1, 1].map((score, i) => ({ stratum: "t", example: i, score }));
 * const ci = microCI(rows)!;
 * assert.equal(ci.estimate, 75);
 * assert.equal(ci.method, "CLT");
 * ```
 * @module
 */
import {
  DEFAULT_BOOTSTRAP_SEED,
  DEFAULT_RESAMPLES,
  type RowStrata,
  strataFromRows,
} from "./bootstrap.ts";
import { clusteredMeanWithSe } from "./clustered_se.ts";
import { harmonicMeanBootstrap } from "./headline_bootstrap.ts";

/** One scored row: its stratum (task), example key and score in [0, 1]. */
export interface ScoredRow {
  stratum: string;
  example: string | number;
  score: number;
}

/** A headline number with its 95% interval, in percent, and how it was made. */
export interface HeadlineCI {
  estimate: number;
  ci_low: number;
  ci_high: number;
  /** Standard error (bootstrap: of the replicates). */
  se: number;
  /** e.g. "CLT", "CLT clustered by example (2 rows per example)", "bootstrap …". */
  method: string;
  /** Why the interval may mislead; null when nothing to say. */
  note: string | null;
}

/**
 * The mean score of `rows` in percent with its CLT (or clustered) 95% interval; null when
 * there are no rows. One cluster per (stratum, example).
 *
 * @example
 * ```ts
 * const twice = [1, 1, 0, 0].map((score, i) => ({ stratum: "t", example: i >> 1, score }));
 * microCI(twice)!.method; // "CLT clustered by example (2 rows per example)"
 * ```
 */
export function microCI(rows: Iterable<ScoredRow>): HeadlineCI | null {
  const clusters = new Map<string, number[]>();
  for (const r of rows) {
    const key = `${r.stratum}\u0000${r.example}`;
    const c = clusters.get(key);
    if (c) c.push(r.score);
    else clusters.set(key, [r.score]);
  }
  return microCIOfClusters([...clusters.values()]);
}

/**
 * {@link microCI} of scores already grouped by example (one array per example, in the order
 * the examples first occur) — for callers that group by numeric ids instead of text keys.
 *
 * @example
 * ```ts
 * microCIOfClusters([[1, 1], [0, 0]])!.method; // "CLT clustered by example (2 rows per example)"
 * microCIOfClusters([]); // null
 * ```
 */
export function microCIOfClusters(clusters: readonly (readonly number[])[]): HeadlineCI | null {
  const est = clusteredMeanWithSe(clusters);
  if (est === null) return null;
  let least = Infinity, most = 0;
  for (const c of clusters) least = Math.min(least, c.length), most = Math.max(most, c.length);
  const method = most === 1
    ? "CLT"
    : `CLT clustered by example (${least === most ? most : `1–${most}`} rows per ` +
      "example)";
  return {
    estimate: est.estimate * 100,
    ci_low: Math.max(0, est.low * 100),
    ci_high: Math.min(100, est.high * 100),
    se: est.se * 100,
    method,
    note: null,
  };
}

/**
 * The harmonic mean over strata of (accuracy % + 1) with its seeded stratified bootstrap
 * interval; null when there are no rows.
 *
 * @example
 * ```ts
 * const rows = ["a", "b"].flatMap((stratum) =>
 *   [...Array(50).keys()].map((i) => ({ stratum, example: i, score: i % 2 }))
 * );
 * const ci = harmonicMeanCI(rows)!;
 * ci.estimate; // 51: each task at 50%
 * ci.method; // "bootstrap (basic, 2000 resamples stratified by task, seed 20240601)"
 * ```
 */
export function harmonicMeanCI(
  rows: Iterable<ScoredRow>,
  seed = DEFAULT_BOOTSTRAP_SEED,
): HeadlineCI | null {
  return harmonicMeanCIOfStrata(strataFromRows(rows), seed);
}

/**
 * {@link harmonicMeanCI} of rows already grouped into strata of per-example mean scores
 * (`strataFromRows`' result: strata in name order, examples in the order they first occur).
 *
 * @example
 * ```ts
 * const strata = [{ scores: [1, 0] }, { scores: [0, 1] }];
 * harmonicMeanCIOfStrata({ names: ["a", "b"], strata, epochs: { min: 1, max: 1 } })!.estimate; // 51
 * ```
 */
export function harmonicMeanCIOfStrata(
  { strata, epochs }: RowStrata,
  seed = DEFAULT_BOOTSTRAP_SEED,
): HeadlineCI | null {
  if (strata.length === 0) return null;
  const b = harmonicMeanBootstrap(strata, { seed, resamples: DEFAULT_RESAMPLES });
  const unit = epochs.max > 1 ? "; each example resampled with its mean over epochs" : "";
  return {
    estimate: b.estimate,
    ci_low: b.low,
    ci_high: b.high,
    se: b.se,
    method: `bootstrap (${b.method}, ${b.resamples} resamples stratified by task, seed ` +
      `${b.seed}${unit})`,
    note: b.note,
  };
}
