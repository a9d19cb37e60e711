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
 * What to read and how to score comes from the {@link LoadPlan} (`load_plan.ts`), resolved
 * before: the engine resolves no option itself.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { resolveLoadPlan } from "@runlens/pipeline/load_plan.ts";
 * const plan = await resolveLoadPlan(resolveDataDir());
 * const load = await runEngine(["tests/fixtures/logs/mixed.jsonl"], plan);
 * assert.equal(load.merged.rows.n + load.merged.quarantine.length, load.merged.rowsIn[0]);
 * assert.deepEqual(load.errors, []);
 * ```
 * @module
 */
import { logFormats } from "../benchmarks/registry.ts";
import type { Benchmark } from "../benchmarks/types.ts";
import { NO_PROGRESS, type Progress } from "../core/progress.ts";
import { discover, type Discovery, GENERIC_FORMATS } from "../logs/discover.ts";
import type { FieldMapping } from "../logs/sources/types.ts";
import { readInRanges } from "../logs/sources/all.ts";
import type { LoadPlan } from "./load_plan.ts";
import { type MergedLoad, mergeResults } from "./merge.ts";
import { contentDecides, mapsColumns } from "./field_choice.ts";
import { planFiles, type PlannedFile } from "./plan.ts";
import { WorkerPool } from "./pool.ts";
import { scoreUnitSafely } from "./score_units.ts";
import {
  buildScoringState,
  prepareScoring,
  type ScoringSetup,
  type Unavailable,
} from "./scoring_state.ts";
import {
  groupUnits,
  planUnits,
  RANGE_BYTES,
  TASK_BYTES,
  type UnitResult,
  type WorkUnit,
} from "./units.ts";

/** How {@link runEngine} runs, besides its plan. */
export interface EngineOptions {
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

/** The files of a load planned: what discovery found, the files with their fields and runs. */
export interface PlannedLoad {
  plan: LoadPlan;
  found: Discovery;
  files: PlannedFile[];
  /** The planned benchmarks the Workers load. */
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
export async function planLoad(paths: readonly string[], plan: LoadPlan): Promise<PlannedLoad> {
  const { read } = plan;
  const found = discover(paths, {
    format: read.format,
    map: Boolean(read.map),
    formats: logFormats(),
  });
  if (read.strict && found.errors.length > 0) throw strictError(found.errors[0]);
  const ignored = mapIgnoredBy(found, read.map);
  if (ignored !== null) {
    if (found.files.every((f) => !GENERIC_FORMATS.has(f.format))) throw new Error(ignored);
    found.warnings.push(ignored);
  }
  const scored = plan.benchmarks.map((p) => p.benchmark);
  const named = scoringSetup(plan);
  const built = mayChooseByContent(found, plan)
    ? await buildScoringState(named, (s) => plan.dataSets.examples(s.name))
    : undefined;
  const files = planFiles(found.files, {
    benchmarks: scored,
    map: read.map,
    runBy: read.runBy,
    limits: named.limits,
    targets: built?.state.identifier,
    records: read.records,
  });
  const setup = { ...named, prepare: preparedFor(plan, files) };
  if (built) await prepareScoring(setup); // this thread scores with the state it built
  return { plan, found, files, scored, setup, built };
}

/**
 * What `--map` cannot do here, or null: its field mappings (`response=output`) name columns
 * and keys of JSON-lines and CSV logs; a log whose format names its own fields (inspect,
 * lm-eval, …) takes only its literals (`benchmark==NAME`). Never ignored in silence: an error
 * when no file could take them, else a warning naming the files that do not.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const found = { files: [{ name: "a.eval", format: "inspect-eval" }] };
 * const map = { fields: { response: "output" }, constants: { benchmark: "x" } };
 * assert.match(mapIgnoredBy(found as never, map)!, /^--map response=output: .* a\.eval \(inspect-eval\)/);
 * assert.equal(mapIgnoredBy(found as never, { fields: {}, constants: { benchmark: "x" } }), null);
 * ```
 */
export function mapIgnoredBy(
  found: Pick<Discovery, "files">,
  map: FieldMapping | null | undefined,
): string | null {
  const named = Object.entries(map?.fields ?? {}).map(([k, v]) => `${k}=${v}`);
  if (map?.chat) named.push(`chat=${map.chat}`);
  const structured = found.files.filter((f) => !GENERIC_FORMATS.has(f.format));
  if (named.length === 0 || structured.length === 0) return null;
  const shown = structured.slice(0, 3).map((f) => `${f.name} (${f.format})`).join(", ");
  const more = structured.length > 3 ? ` and ${structured.length - 3} more` : "";
  return `--map ${named.join(",")}: field mappings apply to JSON-lines and CSV logs only ` +
    `(formats ${[...GENERIC_FORMATS].join(", ")}), not to ${shown}${more}, whose format names ` +
    "its own fields; only --map literals apply to those (--map benchmark==NAME, task==…, model==…)";
}

/**
 * Whether a generic log's columns may be chosen by content (a headerless CSV, names that leave a
 * choice): the data sets are then indexed before planning.
 */
function mayChooseByContent(found: Discovery, plan: LoadPlan): boolean {
  return !mapsColumns(plan.read.map) && contentDecides(found.files, { limits: plan.read.limits });
}

/**
 * Score and merge a planned load. A row tied to a benchmark the plan gives no scorer throws
 * its `UnscoredRowsError` (unless the plan quarantines such rows).
 */
export async function scoreLoad(
  planned: PlannedLoad,
  options: EngineOptions = {},
): Promise<EngineLoad> {
  const progress = options.progress ?? NO_PROGRESS;
  const { plan, found, files, scored } = planned;
  const rangeBytes = options.rangeBytes ?? RANGE_BYTES;
  const units = planUnits(files, readInRanges, rangeBytes);
  const { results, unavailable } = await scoreAll(units, planned, rangeBytes, progress);
  if (needsData(units) && noDataSet(scored, unavailable, files)) {
    throw new Error(unavailable[0].reason);
  }
  progress.phase("merging…");
  const merged = mergeResults(files, units, results, { lmEvalFilter: plan.read.lmEvalFilter });
  const errors = [...found.errors, ...merged.errors].sort((a, b) => a.file < b.file ? -1 : 1);
  if (plan.read.strict && errors.length > 0) throw strictError(errors[0]);
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
 * Whether no planned benchmark could tie the files' rows: every benchmark with a data set
 * lacks it, and no file is of a benchmark whose rows carry their own problem (tied by id, by
 * its record fields) — a missing data directory, the error to report rather than a load of
 * rows all quarantined as unknown tasks.
 */
function noDataSet(
  scored: readonly Benchmark[],
  unavailable: readonly Unavailable[],
  files: readonly PlannedFile[],
): boolean {
  const missing = new Set(unavailable.map((u) => u.benchmark));
  const withData = scored.filter((b) => b.identity !== "id");
  if (withData.length === 0 || withData.some((b) => !missing.has(b.name))) return false;
  const own = new Set(scored.filter((b) => b.identity === "id").map((b) => b.name));
  return !files.some((f) => f.benchmarkHint && own.has(f.benchmarkHint));
}

/**
 * Whether scoring needs a data set: not when no file could be read (a mistyped path is then
 * the error to report, also without a data directory).
 */
function needsData(units: readonly WorkUnit[]): boolean {
  return units.length > 0;
}

/** Discover, plan, score and merge the logs under `paths`, as `plan` says. */
export async function runEngine(
  paths: readonly string[],
  plan: LoadPlan,
  options: EngineOptions = {},
): Promise<EngineLoad> {
  return scoreLoad(await planLoad(paths, plan), options);
}

function strictError(e: { file: string; reason: string }): LoadFileError {
  return new LoadFileError(`${e.file}: ${e.reason} (--strict stops at the first file that fails)`);
}

/**
 * The planned benchmarks whose rows the files may hold, by what is known before scoring: named
 * by `--benchmark`, by a file's record signature (`benchmarkHint`) or by a `--map` literal.
 * Only their `prepare` runs (ARB's computer algebra costs ~0.1–0.3 s in every Worker); a row
 * of another benchmark whose scorer needs it is quarantined with that remedy (its scorer's
 * `UnscorableRow`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const plan = { only: null, benchmarks: [{ benchmark: { name: "arb" } }, { benchmark: { name: "bbh" } }] };
 * assert.deepEqual(preparedFor(plan as never, [{ benchmarkHint: "arb" }] as never), ["arb"]);
 * assert.deepEqual(preparedFor(plan as never, [{ fields: null }] as never), []);
 * ```
 */
export function preparedFor(
  plan: Pick<LoadPlan, "only" | "benchmarks">,
  files: readonly Pick<PlannedFile, "benchmarkHint" | "fields">[],
): string[] {
  const named = new Set<string>(plan.only ?? []);
  for (const f of files) {
    if (f.benchmarkHint) named.add(f.benchmarkHint);
    const literal = f.fields?.constants?.benchmark;
    if (literal) named.add(literal.trim().toLowerCase());
  }
  return plan.benchmarks.map((p) => p.benchmark.name).filter((name) => named.has(name));
}

/** The plain-data setup every Worker builds its scoring state from: the plan's. */
function scoringSetup(plan: LoadPlan): ScoringSetup {
  return {
    dataDir: plan.dataDir,
    benchmarks: plan.benchmarks.map((p) => ({
      module: p.benchmark.scoringModule!,
      scorer: p.scorer?.name ?? null,
      unscored: p.unscored,
    })),
    unscored: plan.unscored,
    ...plan.only ? { only: plan.only } : {},
    limits: plan.read.limits,
    ...plan.rule ? { rule: plan.rule } : {},
  };
}

/**
 * Score every unit: in this thread for a small load or one Worker (with the state planning
 * built, if it did), else in a pool.
 */
async function scoreAll(
  units: readonly WorkUnit[],
  planned: PlannedLoad,
  rangeBytes: number,
  progress: Progress,
): Promise<{ results: UnitResult[]; unavailable: Unavailable[] }> {
  const { setup, plan } = planned;
  const workers = plan.read.workers;
  const bytes = units.reduce((s, u) => s + u.end - u.start, 0);
  const n = Math.max(1, workers ?? navigator.hardwareConcurrency ?? 1);
  const tasks = groupUnits(units, taskBytes(bytes, n, rangeBytes));
  if (n === 1 || (workers === undefined && bytes < IN_THREAD_BYTES) || tasks.length === 1) {
    // in this thread, the load's data sets: read once, for scoring and the rows' examples
    const { state, unavailable } = planned.built ??
      await buildScoringState(setup, (s) => plan.dataSets.examples(s.name));
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
export function taskBytes(bytes: number, workers: number, rangeBytes: number): number {
  const least = Math.min(1 << 20, rangeBytes);
  return Math.max(least, Math.min(TASK_BYTES, Math.ceil(bytes / (workers * 4))));
}
