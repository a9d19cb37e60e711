/**
 * Intervals of the headline numbers runlens reports, from scored rows (one 0/1 score per row,
 * several rows per example when a run has epochs), in percent:
 * - {@link microCI}: the accuracy — each example's mean over its rows, averaged over the
 *   examples (the one definition of every accuracy runlens reports) — with the Wilson score
 *   interval at the effective n of the examples (`clustered_wilson.ts`): the plain Wilson
 *   interval without epochs, the same interval when every row is logged twice, and never
 *   zero-width at 0% or 100% (the normal interval E. Miller, "Adding Error Bars to Evals",
 *   arXiv 2411.00640, §2, gives is [0, 0] there); `se` is the CLT standard error of the
 *   per-example means (Miller's clustered SE when every example has as many rows);
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
 * assert.equal(ci.method, "Wilson");
 * ```
 * @module
 */
import {
  DEFAULT_BOOTSTRAP_SEED,
  DEFAULT_RESAMPLES,
  type RowStrata,
  strataFromRows,
} from "./bootstrap.ts";
import { summariseExamples, wilsonOfExamples } from "./clustered_wilson.ts";
import { harmonicMeanBootstrap } from "./headline_bootstrap.ts";

/** One scored row: its stratum (task), example key and score in [0, 1]. */
export interface ScoredRow {
  /** The stratum, e.g. the task. */
  stratum: string;
  /** The example's key within its stratum. */
  example: string | number;
  /** The row's score in [0, 1]. */
  score: number;
}

/** A headline number with its 95% interval, in percent, and how it was made. */
export interface HeadlineCI {
  /** The headline number, percent. */
  estimate: number;
  /** Lower bound of the 95% interval, percent. */
  ci_low: number;
  /** Upper bound of the 95% interval, percent. */
  ci_high: number;
  /** Standard error (bootstrap: of the replicates). */
  se: number;
  /** e.g. "Wilson", "Wilson, clustered by example (2 rows per example, …)", "bootstrap …". */
  method: string;
  /** Why the interval may mislead; null when nothing to say. */
  note: string | null;
}

/**
 * The accuracy of `rows` in percent (per-example means, averaged) with its clustered Wilson
 * 95% interval; null when there are no rows. One cluster per (stratum, example).
 *
 * @example
 * ```ts
 * const twice = [1, 1, 0, 0].map((score, i) => ({ stratum: "t", example: i >> 1, score }));
 * microCI(twice)!.method; // "Wilson, clustered by example (2 rows per example, effective n 2 of 4)"
 * microCI([0, 0, 0].map((score, i) => ({ stratum: "t", example: i, score }))); // [0, 56.1…], not [0, 0]
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
 * microCIOfClusters([[1, 1], [0, 0]])!.ci_high; // 90.5…: Wilson of 1 of 2, not of 2 of 4
 * microCIOfClusters([]); // null
 * ```
 */
export function microCIOfClusters(clusters: readonly (readonly number[])[]): HeadlineCI | null {
  const summary = summariseExamples(clusters);
  const ci = wilsonOfExamples(summary);
  if (ci === null) return null;
  const { examples: g, rows } = summary;
  let least = Infinity, most = 0;
  for (const c of clusters) least = Math.min(least, c.length), most = Math.max(most, c.length);
  const method = most === 1
    ? "Wilson"
    : `Wilson, clustered by example (${
      least === most ? most : `${least}–${most}`
    } rows per example, effective n ${formatN(ci.effectiveN)} of ${rows})`;
  // the CLT SE of the per-example means: Miller's clustered SE (CR1) when epochs are equal
  const se = g > 1 ? Math.sqrt((summary.variance * g) / (g - 1) / g) * 100 : NaN;
  return { estimate: ci.estimate, ci_low: ci.low, ci_high: ci.high, se, method, note: null };
}

/** An effective n as text: an integer as is, else one decimal. */
function formatN(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(1);
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
  const widened = b.constantStrata > 0
    ? `; widened to ${b.constantStrata} task(s) at 0% or 100% at their Wilson bounds`
    : "";
  return {
    estimate: b.estimate,
    ci_low: b.low,
    ci_high: b.high,
    se: b.se,
    method: `bootstrap (${b.method}, ${b.resamples} resamples stratified by task, seed ` +
      `${b.seed}${unit}${widened})`,
    note: b.note,
  };
}
