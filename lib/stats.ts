/**
 * Statistics with honest error bars: Wilson intervals for an accuracy, clustered when a run
 * repeats its examples; intervals of the headline aggregates; paired comparisons of two runs
 * on the same examples (McNemar's exact test, Tango's interval, Holm's adjustment, the
 * minimum detectable difference); Krippendorff's alpha for agreement between scorers.
 *
 * @example 45 correct of 60: the accuracy in percent with its 95% interval
 * ```ts
 * import assert from "node:assert/strict";
 * import { mcnemarExact, wilsonInterval } from "runlens/stats";
 *
 * const ci = wilsonInterval(45, 60)!; // null only when n is 0
 * assert.ok(ci.low < 75 && 75 < ci.high);
 * assert.ok(mcnemarExact(2, 12) < 0.05); // 2 vs 12 discordant pairs: a real difference
 * ```
 * @module
 */
export { type PercentInterval, wilsonInterval, type WilsonOptions, Z95 } from "./stats/wilson.ts";
export {
  type ClusteredWilson,
  clusteredWilson,
  type ExampleSummary,
  summariseExamples,
} from "./stats/clustered_wilson.ts";
export { harmonicMeanCI, type HeadlineCI, microCI, type ScoredRow } from "./stats/headline_ci.ts";
export { DEFAULT_BOOTSTRAP_SEED } from "./stats/bootstrap.ts";
export { type MeanEstimate, type MeanOptions, meanWithSe } from "./stats/mean_se.ts";
export { mcnemarExact } from "./stats/mcnemar.ts";
export { holmAdjust } from "./stats/holm.ts";
export { type DifferenceInterval, tangoInterval } from "./stats/tango.ts";
export { minimumDetectableDifference, type PowerOptions } from "./stats/mde.ts";
export {
  type KeyedScore,
  type PairedComparison,
  pairedComparison,
  type PairedDifference,
  type PairedExample,
  type PairedOptions,
  type Pairing,
  pairScores,
} from "./stats/paired.ts";
export {
  type AlphaLevel,
  type AlphaOptions,
  type Coincidences,
  coincidences,
  krippendorffAlpha,
  type Label,
} from "./stats/krippendorff.ts";
