/**
 * Analyses of loaded runs across benchmarks: how much a run's accuracy depends on the answer
 * format each rule accepts ({@link formatSensitivity}), paired comparisons of two runs on the
 * same examples ({@link compareRuns}), and the headline tables with their intervals.
 *
 * @example Every rule that applies, on one loaded log
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns, resolveDataDir } from "runlens/load";
 * import { formatSensitivity } from "runlens/analyses";
 *
 * const loaded = await loadRuns(["tests/fixtures/logs/mixed.jsonl"], resolveDataDir());
 * const table = formatSensitivity(loaded.rows); // run, task, scorer, n, correct, accuracy, …
 * // BBEH rows: the official rule and runlens's forgiving `lenient` (analysis only)
 * assert.deepEqual([...new Set(table.getColumn("scorer").toArray())], ["bbeh-official", "lenient"]);
 * ```
 * @module
 */
export {
  compareRunPairs,
  compareRuns,
  type ComparisonSet,
  formatPValue,
  type HolmFamilies,
  type NotCompared,
  P_FLOOR,
  type PairedRow,
  runComparer,
  type RunComparison,
} from "./analyses/compare.ts";
export {
  DISAGREEMENT_CLASSES,
  type Disagreements,
  type FormatCell,
  formatDisagreements,
  formatRules,
  formatSensitivity,
  formatSensitivityByRun,
  formatSensitivityJson,
  LENIENT,
  officialScorer,
  scoreAllRules,
  summarizeFormatSensitivity,
} from "./analyses/format_sensitivity.ts";
export { comparisonTable, headlineTable } from "./analyses/headlines.ts";
export { epochStability } from "./analyses/stability.ts";
export { classifyMistakes, type MistakesInLogs } from "./analyses/mistake_finding.ts";
