/**
 * What a SYNTHETIC run plants: exact per-task (and per-stratum) correct counts, exact counts of
 * answer-less and degenerate responses, and exact counts of each task's failure modes.
 *
 * All numbers are counts of examples (of the 200, or 120 for disambiguation_qa), never rates;
 * the planner picks exactly that many examples, so analyses recover them exactly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * import type { SyntheticModelSpec } from "@runlens/benchmarks/bbeh/synthetic/spec.ts";
 * import { generateSyntheticRuns } from "@runlens/benchmarks/bbeh/synthetic/generate.ts";
 * // 80 of 200 BoardgameQA items right, 120 responses answer "unknown"
 * const spec: SyntheticModelSpec = {
 *   model: "synthetic-a",
 *   correct: { boardgame_qa: 80 },
 *   boardgame: { unknownPredictions: 120 },
 * };
 * const [run] = generateSyntheticRuns(loadBbehDataset(resolveDataDir()), [spec]);
 * const boardgame = run.plan.filter((p) => p.task === "boardgame_qa");
 * assert.equal(boardgame.filter((p) => p.correct).length, 80);
 * assert.equal(boardgame.filter((p) => p.answer === "unknown").length, 120);
 * ```
 * @module
 */

/** How examples of a task are split into strata for exact per-stratum correct counts. */
export type StratumKey =
  /** a subset kind of `subsets/rules.ts`, e.g. "subset:size" */
  | `subset:${string}`
  /** the gold target */
  | "target"
  /** causal_understanding: variant, with causal_judgement split by gold ("causal_judgement/Yes") */
  | "causal";

/** Exact correct counts per stratum of one task. */
export interface StrataSpec {
  /** What the task's strata are. */
  by: StratumKey;
  /** label → correct count; every stratum of the task must be listed. */
  correct: Record<string, number>;
}

/**
 * Mistake-finding outcomes among wrong rows whose trace has a mistake: steps flagged before the
 * first mistake (`early`) and after it (`late`). The other wrong rows with a mistake say "No"
 * (or have no answer); wrong rows of clean traces flag a step (false alarm).
 */
export interface MistakeSpec {
  /** Wrong rows that flag a step before the first mistake. */
  early: number;
  /** Wrong rows that flag a step after the first mistake. */
  late: number;
}

/** One synthetic model (one run). */
export interface SyntheticModelSpec {
  /** Model name; {@link syntheticName} makes sure it says "synthetic". */
  model: string;
  /** Run id (default: the model name). */
  run?: string;
  /** Correct examples per task (default 0). */
  correct: Record<string, number>;
  /** Exact per-stratum correct counts (sum = the task's `correct`). */
  strata?: Record<string, StrataSpec>;
  /** Wrong rows without a final answer per task. */
  noAnswer?: Record<string, number>;
  /** Of those, rows that degenerate into repeated lines. */
  degenerate?: Record<string, number>;
  /** BoardgameQA: rows predicting "unknown" (counted over answered rows). */
  boardgame?: { unknownPredictions: number };
  /** Object Counting: wrong numeric answers above / below the gold count. */
  objectCounting?: { over: number; under: number };
  /** Object Properties: wrong rows answering "unknown". */
  objectProperties?: { undetermined: number };
  /** Dyck Languages / Word Sorting first-mistake items. */
  mistakeFinding?: { dyck_languages?: MistakeSpec; word_sorting?: MistakeSpec };
  /** Word Sorting new-alphabet items: wrong rows answering the standard English sort. */
  wordSorting?: { englishSort: number };
  /** Hyperbaton: wrong rows that add an option following standard English order. */
  hyperbaton?: { englishPicks: number };
  /** Web of Lies cyclic items: wrong rows whose error is on the last person of the chain. */
  webOfLies?: { flipLast: number };
  /** Temporal Sequences: wrong rows with the right longest length X (wrong count Y). */
  temporal?: { longestOnly: number };
  /** Mean response length multiplier (1 = about 1,200 characters of reasoning). */
  verbosity?: number;
}

/**
 * The model name with a "(synthetic)" mark unless it already says "synthetic".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(syntheticName("GPT4o"), "GPT4o (synthetic)");
 * assert.equal(syntheticName("my-synthetic-model"), "my-synthetic-model");
 * ```
 */
export function syntheticName(model: string): string {
  return /synthetic/i.test(model) ? model : `${model} (synthetic)`;
}
