/**
 * The streaming scoring path (issues 13–15): discover the logs, plan them (fields, task hints,
 * runs), cut them into units (byte ranges of line-format files, whole documents), score the
 * units in a pool of Workers — or in this thread when the load is small — and merge what came
 * back into one load. Polars-free: the caller turns the merged compact rows into a frame
 * (`load.ts`).
 *
 * A file that cannot be read is an error of the load (`errors`), never of the others; with
 * `strict` the first one throws {@link LoadFileError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const load = await runEngine(["tests/fixtures/logs/mixed.jsonl"], resolveDataDir());
 * assert.equal(load.merged.rows.n + load.merged.quarantine.length, load.merged.rowsIn[0]);
 * assert.deepEqual(load.errors, []);
 * ```
 * @module
 */
import { getBenchmark, logFormats, scoredBenchmarks } from "../benchmarks/registry.ts";
import type { Benchmark } from "../benchmarks/types.ts";
import { NO_PROGRESS, type Progress } from "../core/progress.ts";
import { discover, type Discovery, type Format } from "../logs/discover.ts";
import { withLimits } from "../logs/limits.ts";
import { readInRanges } from "../logs/sources/all.ts";
import type { FieldMapping, SourceLimits } from "../logs/sources/types.ts";
import type { RuleSpec } from "../scorers/user_rule.ts";
import { type MergedLoad, mergeResults } from "./merge.ts";
import { contentDecides } from "./field_choice.ts";
import { planFiles, type PlannedFile, type RunBy } from "./plan.ts";
import { WorkerPool } from "./pool.ts";
import { scoreUnitSafely } from "./score_units.ts";
import { buildScoringState, type ScoringSetup, type Unavailable } from "./scoring_state.ts";
import {
  groupUnits,
  planUnits,
  RANGE_BYTES,
  TASK_BYTES,
  type UnitResult,
  type WorkUnit,
} from "./units.ts";

/** How {@link runEngine} reads and scores. */
export interface EngineOptions {
  /** A forced format, or `auto` (detect each file). */
  format?: Format | "auto";
  /** The parsed `--map`, over detected fields. */
  map?: FieldMapping | null;
  /** The scorer of a benchmark's rows. */
  scorerOf(benchmark: string): string;
  /** A user's rule that `scorerOf` may name (Workers load it from this plain data). */
  rule?: RuleSpec | null;
  /** The lm-eval filter kept when a file has several (null: each file's first). */
  lmEvalFilter?: string | null;
  /** Only these benchmarks (`--benchmark`). */
  benchmarks?: readonly string[];
  runBy?: RunBy;
  /** Scoring Workers (default: one per core); 1 scores in this thread. */
  workers?: number;
  limits?: Partial<SourceLimits>;
  /** Stop at the first file that cannot be read. */
  strict?: boolean;
  /** Largest byte range of a line-format file (default `units.ts` RANGE_BYTES; tests use less). */
  rangeBytes?: number;
  progress?: Progress;
}

/** A file that cannot be read, under `strict`. */
export class LoadFileError extends Error {}

/** What {@link runEngine} found. */
export interface EngineLoad {
  files: PlannedFile[];
  merged: MergedLoad;
  /** Files that could not be read (discovery's and the readers'), in path order. */
  errors: { file: string; reason: string }[];
  /** Files deliberately not read (special files, links leaving the folder, …). */
  skipped: { file: string; reason: string }[];
  /** Companion files read alongside logs (results files, metrics files, …). */
  companions: { file: string; reason: string }[];
  warnings: string[];
  /** Benchmarks whose data set could not be read. */
  unavailable: Unavailable[];
}

/** Loads smaller than this are scored in this thread (a Worker costs more than it saves). */
const IN_THREAD_BYTES = 16 << 20;

/** A load planned: what discovery found, the files with their fields and runs, the setup. */
export interface LoadPlan {
  found: Discovery;
  files: PlannedFile[];
  /** The scored benchmarks the Workers load. */
  scored: Benchmark[];
  setup: ScoringSetup;
  /** The scoring state, when planning built it (a CSV's columns found by content). */
  built?: Awaited<ReturnType<typeof buildScoringState>>;
}

/**
 * Discover the logs under `paths` and plan them (names, heads of files; with a generic log and
 * no `--map`, the examples are indexed first, so that a headerless CSV's columns, or fields
 * names leave open, can be chosen by each row's own evidence). Under `strict`, a path discovery cannot read throws
 * {@link LoadFileError}.
 */
export async function planLoad(
  paths: readonly string[],
  dataDir: string,
  options: EngineOptions = { scorerOf: defaultScorerOf },
): Promise<LoadPlan> {
  const found = discover(paths, {
    format: options.format,
    map: Boolean(options.map),
    formats: logFormats(),
  });
  if (options.strict && found.errors.length > 0) throw strictError(found.errors[0]);
  const scored = scoredBenchmarks().filter((b) =>
    b.scoringModule && (!options.benchmarks || options.benchmarks.includes(b.name))
  );
  const setup = scoringSetup(scored, dataDir, options);
  const built = mayChooseByContent(found, options, setup.limits)
    ? await buildScoringState(setup)
    : undefined;
  const files = planFiles(found.files, {
    benchmarks: scored,
    map: options.map,
    runBy: options.runBy,
    limits: setup.limits,
    targets: built?.state.identifier,
  });
  return { found, files, scored, setup, built };
}

/**
 * Whether a generic log's columns may be chosen by content (a headerless CSV, names that leave a
 * choice): the data sets are then indexed before planning.
 */
function mayChooseByContent(
  found: Discovery,
  options: EngineOptions,
  limits: SourceLimits,
): boolean {
  return !options.map && contentDecides(found.files, { limits });
}

/** Score and merge a planned load. */
export async function scoreLoad(plan: LoadPlan, options: EngineOptions): Promise<EngineLoad> {
  const progress = options.progress ?? NO_PROGRESS;
  const { found, files, scored, setup } = plan;
  const rangeBytes = options.rangeBytes ?? RANGE_BYTES;
  const units = planUnits(files, readInRanges, rangeBytes);
  const { results, unavailable } = await scoreAll(
    units,
    setup,
    options.workers,
    rangeBytes,
    progress,
    plan.built,
  );
  if (needsData(units) && unavailable.length === scored.length && scored.length > 0) {
    throw new Error(unavailable[0].reason);
  }
  progress.phase("merging…");
  const merged = mergeResults(files, units, results, {
    lmEvalFilter: options.lmEvalFilter ?? null,
  });
  const errors = [...found.errors, ...merged.errors].sort((a, b) => a.file < b.file ? -1 : 1);
  if (options.strict && errors.length > 0) throw strictError(errors[0]);
  return {
    files,
    merged,
    errors,
    skipped: found.skipped,
    companions: found.companions,
    warnings: [
      ...found.warnings,
      ...unavailable.map((u) => `no ${u.benchmark} data set: ${u.reason}`),
    ],
    unavailable,
  };
}

/**
 * Whether scoring needs a data set: not when no file could be read (a mistyped path is then
 * the error to report, also without a data directory).
 */
function needsData(units: readonly WorkUnit[]): boolean {
  return units.length > 0;
}

/** Discover, plan, score and merge the logs under `paths`. */
export async function runEngine(
  paths: readonly string[],
  dataDir: string,
  options: EngineOptions = { scorerOf: defaultScorerOf },
): Promise<EngineLoad> {
  return scoreLoad(await planLoad(paths, dataDir, options), options);
}

/** Each benchmark's default scorer. */
export function defaultScorerOf(benchmark: string): string {
  return getBenchmark(benchmark)?.defaultScorer ?? "";
}

function strictError(e: { file: string; reason: string }): LoadFileError {
  return new LoadFileError(`${e.file}: ${e.reason} (--strict stops at the first file that fails)`);
}

/** The plain-data setup every Worker builds its scoring state from. */
function scoringSetup(
  scored: readonly Benchmark[],
  dataDir: string,
  options: EngineOptions,
): ScoringSetup {
  return {
    dataDir,
    benchmarks: scored.map((b) => ({ module: b.scoringModule!, scorer: options.scorerOf(b.name) })),
    only: options.benchmarks,
    limits: withLimits(options.limits ?? {}),
    ...options.rule ? { rule: options.rule } : {},
  };
}

/**
 * Score every unit: in this thread for a small load or one Worker (with the state planning
 * built, if it did), else in a pool.
 */
async function scoreAll(
  units: readonly WorkUnit[],
  setup: ScoringSetup,
  workers: number | undefined,
  rangeBytes: number,
  progress: Progress,
  built?: LoadPlan["built"],
): Promise<{ results: UnitResult[]; unavailable: Unavailable[] }> {
  const bytes = units.reduce((s, u) => s + u.end - u.start, 0);
  const n = Math.max(1, workers ?? navigator.hardwareConcurrency ?? 1);
  const tasks = groupUnits(units, taskBytes(bytes, n, rangeBytes));
  if (n === 1 || (workers === undefined && bytes < IN_THREAD_BYTES) || tasks.length === 1) {
    const { state, unavailable } = built ?? await buildScoringState(setup);
    const results = tasks.flatMap((task, i) => {
      progress.file(i, tasks.length, task[0].file.name);
      return task.map((u) => scoreUnitSafely(state, u));
    });
    return { results, unavailable };
  }
  const pool = new WorkerPool(Math.min(n, tasks.length), setup);
  try {
    const { unavailable } = await pool.ready;
    const results = await pool.run(
      tasks,
      (done, total) => progress.file(done, total, `${tasks.length} parts`),
    );
    return { results, unavailable };
  } finally {
    pool.close();
  }
}

/** Task size: about four tasks per Worker keeps them busy to the end without many messages. */
function taskBytes(bytes: number, workers: number, rangeBytes: number): number {
  const least = Math.min(1 << 20, rangeBytes);
  return Math.max(least, Math.min(TASK_BYTES, Math.ceil(bytes / (workers * 4))));
}
