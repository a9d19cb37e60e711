/**
 * The BBEH paper's published failure-mode numbers (Kazemi et al. 2025, arXiv:2502.19187,
 * Appendix A), transcribed for comparison with runs: Table 5 (BoardgameQA "unknown" %),
 * Table 8 (Object Counting over/under-count %), Table 9 (Zebra Puzzles accuracy by size) and
 * the numbers given in prose (A.4, A.6, A.7, A.13, A.16, A.17, A.19, A.21). Model names are
 * spelled as in the paper's tables (see `published.ts`).
 *
 * Notes: Table 8's values are multiples of 0.5 and, with Table 2's accuracy, sum to at most
 * 100, so they are shares of all 200 Object Counting items although the text speaks of the sum
 * subset. A.4's Gemini 2.0 Flash error counts (78 + 17 errors) give 105 correct, Table 2's
 * 52.0% is 104.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BBEH_TABLE5, BBEH_TABLE9 } from "@runlens/benchmarks/bbeh/failure/paper.ts";
 * assert.equal(BBEH_TABLE5.values["GPT4o"], 82.4);
 * assert.equal(BBEH_TABLE9.values["o3-mini (high)"]["8x8"], 74.0);
 * ```
 * @module
 */

const SOURCE = "Kazemi et al. 2025, BBEH paper (arXiv:2502.19187)";

/** Table 5: % "unknown" among BoardgameQA predictions that are one of the three labels. */
export const BBEH_TABLE5 = {
  source: `${SOURCE}, Table 5`,
  values: {
    "Gemma2 27b IT": 77.6,
    "Gemini 2.0 Flash-Lite": 67.4,
    "Gemini 2.0 Flash": 73.3,
    "GPT4o": 82.4,
    "DeepSeek R1": 39.7,
    "o3-mini (high)": 65.5,
  } as Record<string, number>,
};

/** Table 8: % of Object Counting items over- / under-counted. */
export const BBEH_TABLE8 = {
  source: `${SOURCE}, Table 8`,
  values: {
    "Gemini 2.0 Flash-Lite": { over: 53.0, under: 43.0 },
    "Gemini 2.0 Flash": { over: 50.5, under: 38.5 },
    "GPT4o": { over: 17.5, under: 66.5 },
    "DeepSeek R1": { over: 6.0, under: 15.5 },
    "o3-mini (high)": { over: 1.5, under: 8.5 },
  } as Record<string, { over: number; under: number }>,
};

/** Table 9: Zebra Puzzles accuracy (%) by puzzle size (labels of the `size` subset kind). */
export const BBEH_TABLE9 = {
  source: `${SOURCE}, Table 9`,
  values: {
    "Gemini 2.0 Flash-Lite": { "5x5": 37.5, "6x6": 38.9, "7x7": 36.5, "8x8": 16.0 },
    "Gemini 2.0 Flash": { "5x5": 60.0, "6x6": 33.3, "7x7": 36.5, "8x8": 52.0 },
    "GPT4o": { "5x5": 37.5, "6x6": 30.6, "7x7": 37.8, "8x8": 20.0 },
    "o3-mini (high)": { "5x5": 90.0, "6x6": 58.3, "7x7": 55.4, "8x8": 74.0 },
  } as Record<string, Record<string, number>>,
};

/** Numbers stated in Appendix A prose. */
export const BBEH_APPENDIX_CLAIMS = {
  source: `${SOURCE}, Appendix A`,
  /** A.6: % of Dyck errors (a mistake exists and a wrong step is flagged) that missed the first. */
  dyckMissedFirst: {
    "o3-mini (high)": 98.7,
    "Gemini 2.0 Flash": 100.0,
    "Gemini 2.0 Flash-Lite": 94.9,
    "GPT4o": 96.8,
  } as Record<string, number>,
  /** A.13: % of Object Properties items where the model says the count cannot be determined. */
  objectPropertiesUndetermined: {
    "o3-mini (high)": 8.0,
    "Gemini 2.0 Flash": 93.5,
    "GPT4o": 96.5,
  } as Record<string, number>,
  /** A.16: % of Shuffled Objects problems where Gemini 2.0 Flash runs out of output tokens. */
  shuffledNoAnswer: { "Gemini 2.0 Flash": 25.0 } as Record<string, number>,
  /** A.19: Temporal Sequences accuracy if only the longest meeting length were asked. */
  temporalLongestOnly: {
    "o3-mini (high)": 78.0,
    "Gemini 2.0 Flash": 5.0,
    "Gemini 2.0 Flash-Lite": 7.0,
  } as Record<string, number>,
  /** A.21: Web of Lies accuracy on the LiveBench / new cyclic subsets. */
  webOfLiesSubsets: {
    "o3-mini (high)": { livebench: 100.0, cyclic: 28.8 },
    "Gemini 2.0 Flash": { livebench: 77.5, cyclic: 3.8 },
  } as Record<string, Record<string, number>>,
  /**
   * A.21: Web of Lies cyclic items, accuracy (%) for the person at the end of the chain
   * (earlier person: o3-mini 41.2, Flash 30, Flash-Lite 25.6, GPT4o 19.4).
   */
  webOfLiesLastPerson: {
    "o3-mini (high)": 41.2,
    "Gemini 2.0 Flash": 27.5,
    "Gemini 2.0 Flash-Lite": 21.2,
    "GPT4o": 25.0,
  } as Record<string, number>,
  /** A.17: Spatial Reasoning accuracy forward / backward. */
  spatialDirection: {
    "o3-mini (high)": { forward: 58.8, backward: 19.2 },
    "DeepSeek R1": { forward: 48.6, backward: 3.8 },
  } as Record<string, Record<string, number>>,
  /** A.4: Gemini 2.0 Flash causal understanding errors / items. */
  causalFlashErrors: {
    "causal_judgement/Ambiguous": [44, 45],
    "causal_judgement/No": [24, 49],
    "causal_judgement/Yes": [10, 48],
    necessary: [6, 30],
    sufficient: [11, 28],
  } as Record<string, [number, number]>,
} as const;
