/**
 * Load run logs: the streaming engine (`engine.ts`: discover → plan → score in Workers →
 * merge), then the rows as a frame and the summaries ({@link loadRuns}) — the entry point for
 * the CLI (`runlens score`) and the notebooks. Each registered benchmark's rows are scored with
 * its own rule (BBEH: the official scorer; BBH: the release's CoT rule) or with any registered
 * scorer chosen with `scorer`.
 *
 * A run's rows of different benchmarks are summarised apart (one {@link RunSummary} per run
 * and benchmark): BBEH and BBH share task names. Every input row is either scored or
 * quarantined; the counts are checked per file and per summary (`rows_in = rows_scored +
 * rows_quarantined`), and a violation throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const logs = ["tests/fixtures/logs/mixed.jsonl"];
 * const { rows, quarantine, runs } = await loadRuns(logs, resolveDataDir());
 * console.log(runs[0].benchmark, runs[0].scorer, runs[0].aggregate.micro, quarantine.length);
 * // bbeh bbeh-official null 17
 * assert.deepEqual(runs.map((r) => [r.benchmark, r.rows_in, r.rows_scored, r.rows_quarantined]), [
 *   ["bbeh", 20, 4, 16],
 *   ["bbh", 1, 0, 1],
 * ]);
 * assert.equal(rows.height, 4);
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import { getBenchmark, getScorer, scoredBenchmarks, SCORERS } from "../benchmarks/registry.ts";
import { NO_PROGRESS, type Progress, terminalProgress } from "../core/progress.ts";
import type { Format } from "../logs/discover.ts";
import { type ColumnMap } from "../logs/mapped.ts";
import { type QuarantineEntry, sortQuarantine } from "../logs/quarantine.ts";
import { fromColumnMap } from "../logs/sources/fields.ts";
import type { SourceLimits } from "../logs/sources/types.ts";
import { type EngineLoad, runEngine } from "./engine.ts";
import type { PlannedFile, RunBy } from "./plan.ts";
import { type ResponseFiles, responses as readBack } from "./responses.ts";
import { rowsFrame } from "./rows_frame.ts";
import { type RunSummary, summariseRuns } from "./summarise.ts";

export type { RunSummary, StoredAgreement, StoredDisagreement, TaskScore } from "./summarise.ts";
export { MAX_DISAGREEMENTS } from "./summarise.ts";

/** Options of {@link loadRuns}: how to read the logs, which scorer, what to keep and show. */
export interface LoadOptions {
  /** A forced reader format, or `auto` (detect each file; the default). */
  format?: Format | "auto";
  /** `--map`: fields of generic JSONL/CSV logs, over the detected ones. */
  map?: ColumnMap;
  /**
   * Read each row's response text into `rows.response` (default true). With false the rows
   * keep only where each response is (`ptr_*`; `responses.ts` reads them on demand): a big
   * log then needs little memory. `runlens score` uses false.
   */
  responses?: boolean;
  /** Join each row's example (`input`, `target`, `input_chars`); default: as `responses`. */
  examples?: boolean;
  /**
   * A registered scorer (`benchmarks/registry.ts`) for every row; it must apply to every
   * benchmark the logs hold. Default: each benchmark's own rule (`defaultScorer`).
   * `stored` keeps the log's own verdict.
   */
  scorer?: string;
  /**
   * lm-eval logs with several filters per response: the filter whose lines (and stored
   * verdicts) are kept. Default: the one the scorer reproduces (`lm-eval-strict` →
   * `strict-match`, …), else each file's first filter.
   */
  lmEvalFilter?: string;
  /** Only these benchmarks (`--benchmark`). */
  benchmarks?: readonly string[];
  /** How records without a `run` field get theirs (`plan.ts`; default `auto`). */
  runBy?: RunBy;
  /** Scoring Workers (default: one per core; small loads are scored in this thread). */
  workers?: number;
  /** Limits of the readers (`logs/limits.ts`), over the defaults. */
  limits?: Partial<SourceLimits>;
  /** Throw at the first file that cannot be read (default: list it in `errors`). */
  strict?: boolean;
  /** Show progress: true = on stderr when it is a terminal; or a {@link Progress}. */
  progress?: boolean | Progress;
}

/**
 * A wrong `scorer` option: an unknown name, or a scorer that does not apply to a benchmark
 * the logs hold. The CLI turns it into a usage error (exit 2).
 */
export class ScorerChoiceError extends Error {}

/** One log file of a load, as reports list it. */
export interface FileSummary {
  file: string;
  format: string;
  rows_in: number;
  /** Canonical field → where it was read from (generic logs whose fields were detected). */
  fields: Record<string, string> | null;
  /** How its records without a `run` field got theirs. */
  grouping: "folder" | "file";
  /** The run of records without a `run` field. */
  default_run: string;
  /** The task its name gives, when it names one. */
  task_hint: string | null;
}

/** Everything {@link loadRuns} found. */
export interface LoadedRuns {
  /** The log files read, in order. */
  files: string[];
  /** Each file read, with its format, records, fields and run grouping. */
  fileSummaries: FileSummary[];
  /** Scored rows of all runs, in the row schema, in file and line order. */
  rows: pl.DataFrame;
  /** Rows not scored, sorted by file and line. */
  quarantine: QuarantineEntry[];
  /** One summary per run and benchmark, sorted by run name, then benchmark. */
  runs: RunSummary[];
  /** Files that could not be read, with the reason (the others were read). */
  errors: { file: string; reason: string }[];
  /** Files deliberately not read (special files, links leaving the folder, loops). */
  skipped: { file: string; reason: string }[];
  /** Warnings for the report (skipped files, names that are not UTF-8, missing data sets). */
  warnings: string[];
  /**
   * What the load knew of each file, for reading responses back later:
   * `responses(rows.filter(…), loaded.sources)` (`responses.ts`) fills `response` for the rows
   * asked for (a load with `responses: false` keeps only the pointers).
   */
  sources: ResponseFiles;
}

/**
 * Check a scorer name: registered, and applicable to at least one benchmark runlens scores.
 * Throws {@link ScorerChoiceError} listing the valid names otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * checkScorerName("last-line"); // ok
 * assert.throws(() => checkScorerName("exact"), /unknown scorer "exact"; scorers: bbeh-official/);
 * assert.throws(() => checkScorerName("exact"), ScorerChoiceError);
 * ```
 */
export function checkScorerName(name: string): void {
  if (!SCORERS.some((s) => s.name === name)) {
    throw new ScorerChoiceError(
      `unknown scorer "${name}"; scorers: ${SCORERS.map((s) => s.name).join(", ")}`,
    );
  }
  const s = getScorer(name);
  const scored = scoredBenchmarks();
  if (!scored.some((b) => s.benchmarks.includes(b.name))) {
    throw new ScorerChoiceError(
      `scorer ${name} applies to none of ${scored.map((b) => b.name).join(", ")}; ` +
        scored.map((b) => scorersFor(b.name)).join("; "),
    );
  }
}

/** "scorers for bbh: a, b, c". */
function scorersFor(benchmark: string): string {
  const names = SCORERS.filter((s) => s.benchmarks.includes(benchmark)).map((s) => s.name);
  return `scorers for ${benchmark}: ${names.join(", ")}`;
}

/**
 * Read the logs under `paths` (files, or directories searched for run logs of every format
 * `logs/discover.ts` knows), tie each record to an example of a registered benchmark's data
 * set in `dataDir` (by index, question text, file name), score, and summarise per run and
 * benchmark. A file that cannot be read is listed in `errors` (with `strict`, it throws);
 * throws with a clear message on a missing data set or no logs at all, and
 * {@link ScorerChoiceError} on a wrong `scorer`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const logs = ["tests/fixtures/logs/bbh/lm_eval"]; // an lm-eval run: 5 snarks samples
 * const { runs } = await loadRuns(logs, resolveDataDir(), { scorer: "lm-eval-strict" });
 * const r = runs[0];
 * assert.deepEqual([r.run, r.benchmark, r.aggregate.coverage], [
 *   "org__tiny-model_2025-01-25T04-48-43.622918", "bbh", "partial"]);
 * const { n, correct, accuracy } = r.tasks.snarks;
 * assert.deepEqual({ n, correct, accuracy }, { n: 5, correct: 4, accuracy: 80 });
 * // 4 samples store lm-eval's verdict; the fixture's doc 1 stores a wrong one
 * assert.deepEqual([r.stored_agreement.n, r.stored_agreement.disagree], [4, 1]);
 * ```
 */
export async function loadRuns(
  paths: readonly string[],
  dataDir: string,
  options: LoadOptions = {},
): Promise<LoadedRuns> {
  if (options.scorer !== undefined) checkScorerName(options.scorer);
  const progress = options.progress === true ? terminalProgress() : options.progress || NO_PROGRESS;
  try {
    return await load(paths, dataDir, options, progress);
  } finally {
    progress.done();
  }
}

/** The scorer of a benchmark's rows: the chosen one where it applies, else the benchmark's. */
function scorerChoice(options: LoadOptions): (benchmark: string) => string {
  return (benchmark) => {
    const chosen = options.scorer;
    if (chosen !== undefined && getScorer(chosen).benchmarks.includes(benchmark)) return chosen;
    return getBenchmark(benchmark)?.defaultScorer ?? "";
  };
}

/** engine → frame → summaries. */
async function load(
  paths: readonly string[],
  dataDir: string,
  options: LoadOptions,
  progress: Progress,
): Promise<LoadedRuns> {
  const scorerOf = scorerChoice(options);
  const engine = await runEngine(paths, dataDir, {
    format: options.format,
    map: options.map ? fromColumnMap(options.map) : null,
    scorerOf,
    lmEvalFilter: options.lmEvalFilter ??
      (options.scorer ? getScorer(options.scorer).lmEvalFilter : undefined) ?? null,
    benchmarks: options.benchmarks,
    runBy: options.runBy,
    workers: options.workers,
    limits: options.limits,
    strict: options.strict,
    progress,
  });
  if (engine.files.length === 0 && engine.errors.length === 0) throw noLogs(paths);
  if (options.scorer !== undefined) checkScorerApplies(options.scorer, engine);
  const responses = options.responses ?? true;
  progress.phase(`summarising ${engine.merged.rows.n.toLocaleString("en-US")} rows…`);
  const paths_ = engine.files.map((f) => f.path);
  let rows = rowsFrame(engine.merged.rows, paths_, dataDir, {
    examples: options.examples ?? responses,
  });
  const fileSummaries = engine.files.map((f) => fileSummary(f, engine.merged.rowsIn[f.id]));
  const runs = summariseRuns({
    files: fileSummaries
      .filter((_, i) => !engine.merged.errors.some((e) => e.file === engine.files[i].path))
      .map((f) => ({
        file: f.file,
        format: f.format,
        rowsIn: f.rows_in,
        defaultRun: f.default_run,
        grouping: f.grouping,
        fields: f.fields,
      })),
    scored: rows,
    quarantined: engine.merged.quarantine,
    models: engine.merged.models,
    scorerOf,
  });
  const sources = new Map(engine.files.map((f) => [f.path, f]));
  if (responses && rows.height > 0) rows = readBack(rows, sources);
  return {
    files: paths_,
    fileSummaries,
    rows,
    quarantine: sortQuarantine(
      engine.merged.quarantine.map(({ file, line, reason }) => ({ file, line, reason })),
    ),
    runs,
    errors: engine.errors,
    skipped: engine.skipped,
    warnings: engine.warnings,
    sources,
  };
}

/** The error of paths that hold no log at all. */
function noLogs(paths: readonly string[]): Error {
  return new Error(
    `no run logs found in ${paths.join(", ")} (looked for .jsonl, .json, .csv, .eval and ` +
      ".log files, also gzip-compressed)",
  );
}

/** The chosen scorer must apply to every benchmark the logs' rows were tied to. */
function checkScorerApplies(scorer: string, engine: EngineLoad): void {
  const tied = new Set([
    ...engine.merged.rows.strings.benchmark,
    ...engine.merged.quarantine.map((q) => q.benchmark).filter((b): b is string => b !== null),
  ]);
  for (const b of scoredBenchmarks()) {
    if (tied.has(b.name) && !getScorer(scorer).benchmarks.includes(b.name)) {
      throw new ScorerChoiceError(
        `scorer ${scorer} does not apply to the ${b.name} rows of these logs; ${
          scorersFor(b.name)
        }`,
      );
    }
  }
}

/** A file as reports list it. */
function fileSummary(f: PlannedFile, rowsIn: number): FileSummary {
  return {
    file: f.path,
    format: f.format,
    rows_in: rowsIn,
    fields: f.fieldsUsed,
    grouping: f.grouping,
    default_run: f.defaultRun,
    task_hint: f.taskHint ? f.taskHint.task : null,
  };
}
