/**
 * Loading run logs: find the log files, read every format runlens knows, tie each row to its
 * benchmark example, score it, and summarise each run — every input row loaded or quarantined
 * with a reason ({@link loadRuns}). Also the row schema every loader produces, the quarantine
 * entries, reading responses back, and the text of `runlens score` ({@link runsText}).
 *
 * @example A folder of logs, loaded, summarised and checked row for row
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns, resolveDataDir, runsText } from "runlens/load";
 *
 * const loaded = await loadRuns(["tests/fixtures/logs/mixed.jsonl"], resolveDataDir());
 * console.log(runsText(loaded)); // per run: rows in/scored/quarantined, tasks, aggregates
 * for (const run of loaded.runs) {
 *   assert.equal(run.rows_in, run.rows_scored + run.rows_quarantined);
 * }
 * assert.equal(loaded.rows.height, 4); // the other rows are quarantined, each with its reason
 * ```
 * @module
 */
export {
  CACHE_MANY_RUNS,
  CACHE_MIN_RUN_BYTES,
  type CacheUse,
  checkScorerName,
  type FileSummary,
  type LoadBasis,
  type LoadedRuns,
  type LoadOptions,
  loadRuns,
  lookalikeRuns,
  MAX_DISAGREEMENTS,
  mixedModels,
  type RunSummary,
  ScorerChoiceError,
  type StoredAgreement,
  type StoredDisagreement,
  type TaskScore,
  UnscoredRowsError,
} from "./pipeline/load.ts";
export { type PlanOptions } from "./pipeline/load_plan.ts";
export {
  keepBenchmarks,
  type KeptBenchmarks,
  type SkippedRows,
} from "./pipeline/keep_benchmarks.ts";
export { type ResponseFiles, type ResponseOptions, responses } from "./pipeline/responses.ts";
export {
  type Advice,
  adviceSections,
  adviceText,
  type AgreementCount,
  type AnswerCount,
  type DisagreeAdvice,
  type NoAnswerAdvice,
  type RunNamed,
  type StoredAdvice,
  type Tried,
} from "./pipeline/advice.ts";
export { type RunBy } from "./pipeline/plan.ts";
export { type RunNaming } from "./pipeline/run_names.ts";
export {
  discover,
  type DiscoverOptions,
  type Discovery,
  type FileNote,
  filesOf,
  type Format,
  type FoundFile,
  type LogFormat,
} from "./logs/discover.ts";
export {
  type ColumnMap,
  type ColumnMapping,
  type ColumnSource,
  type MappableField,
  parseColumnMap,
} from "./logs/mapped.ts";
export { UsageError } from "./core/command.ts";
export type { Separator } from "./logs/sources/csv.ts";
export type { SourceLimits } from "./codecs/errors.ts";
export type { Progress } from "./core/progress.ts";
export type { BenchmarkRuns, BenchmarkRunsFile, DataSetsView } from "./benchmarks/types.ts";
export {
  formatQuarantine,
  type QuarantineEntry,
  quarantineText,
  type RunQuarantine,
  sortQuarantine,
} from "./logs/quarantine.ts";
export {
  conformRows,
  emptyRows,
  OPTIONAL_COLUMNS,
  ROW_COLUMNS,
  ROW_DOCS,
  ROW_SCHEMA,
  type RunRow,
  schemaMarkdown,
} from "./core/schema.ts";
export { REPO_ROOT, resolveDataDir } from "./core/data_dir.ts";
export {
  type AggregateReport,
  type CiReport,
  type RunReport,
  runsReport,
  runsText,
  type ScoreReport,
} from "./report/runs_text.ts";
