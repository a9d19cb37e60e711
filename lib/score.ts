/**
 * Scoring: the scorer interface every rule implements ({@link Scorer}), your own rule from an
 * `extract` and a `match` ({@link defineScorer}) or a pattern ({@link patternScorer}), the
 * generic answer finders and matchers, re-scoring loaded runs with another rule
 * ({@link rescore}), and the registry of benchmarks and scorers.
 *
 * @example Your own rule: the last line of a response, compared with the target
 * ```ts
 * import assert from "node:assert/strict";
 * import { defineScorer, findFinalAnswer, getScorer } from "runlens/score";
 *
 * const lastLine = defineScorer({
 *   name: "last-line-demo",
 *   extract: (response) => response.trim().split("\n").at(-1) ?? null,
 * });
 * assert.equal(lastLine.score("Thinking...\nblue", "blue").correct, true);
 * assert.equal(findFinalAnswer("So the answer is (B).")?.text, "(B)");
 * assert.equal(getScorer("bbeh-official").name, "bbeh-official");
 * ```
 * @module
 */
export {
  ANY_BENCHMARK,
  type AnyBenchmark,
  appliesTo,
  type ScalarScorer,
  type ScoreContext,
  type Scorer,
  type ScorerColumns,
  type ScorerNeed,
  type Verdict,
} from "./scorers/types.ts";
export {
  defineScorer,
  type ScorerDefinition,
  ScorerDefinitionError,
  ScorerRuleError,
} from "./scorers/define.ts";
export { patternScorer } from "./scorers/pattern.ts";
export { DEFAULT_SCORER_COLUMNS, scoreFrame } from "./scorers/frame.ts";
export {
  ANSWER_CONVENTIONS,
  type AnswerConvention,
  findFinalAnswer,
  type FoundAnswer,
} from "./scorers/answer_conventions.ts";
export {
  type AnswerType,
  answerType,
  matchAnswer,
  readAnswer,
  type ReadOptions,
} from "./scorers/answer_match.ts";
export type { DataSource, PinnedSource } from "./data/fetch.ts";
export { rescore, RESCORE_PART_ROWS } from "./pipeline/rescore.ts";
export {
  benchmarks,
  getBenchmark,
  getScorer,
  registerBenchmark,
  scoredBenchmarks,
  SCORER_NAMES,
  SCORERS,
} from "./benchmarks/registry.ts";
export type {
  AnalysisContext,
  Benchmark,
  BenchmarkAggregate,
  BenchmarkAnalyses,
  BenchmarkReport,
  BenchmarkScoring,
  BenchmarkTask,
  DataVersion,
  Example,
  ExampleSet,
  MistakeFinding,
  RecordField,
  RecordRules,
  ToolNames,
} from "./benchmarks/types.ts";
