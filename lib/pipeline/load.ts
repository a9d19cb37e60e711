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
import pl from "nodejs-polars";
import { isDeepStrictEqual } from "node:util";
import type { DataSetsView } from "../benchmarks/types.ts";
import { getBenchmark } from "../benchmarks/registry.ts";
import { sha256Hex, sourceDigest, treeStamp } from "../core/digest.ts";
import { distinctValues } from "../core/frames.ts";
import { NO_PROGRESS, type Progress, terminalProgress } from "../core/progress.ts";
import { type QuarantineEntry, sortQuarantine } from "../logs/quarantine.ts";
import {
  type CachedLoad,
  type FileFingerprint,
  fileFingerprint,
  loadKey,
  readCache,
  readCacheSide,
  staleReason,
  writeCache,
  writeCacheSide,
} from "./cache.ts";
import { compactColumns, compactFrame } from "./compact_frame.ts";
import { planLoad, type PlannedLoad, scoreLoad } from "./engine.ts";
import {
  type LoadPlan,
  type PlanOptions,
  resolveLoadPlan,
  ScorerChoiceError,
  scorerName,
  UnscoredRowsError,
} from "./load_plan.ts";
import type { LoadQuarantine, MergedLoad } from "./merge.ts";
import type { PlannedFile, RunBy } from "./plan.ts";
import type { RunNaming } from "./run_names.ts";
import { checkRenames, renamer } from "./rename_runs.ts";
import { type ResponseFiles, responses as readBack } from "./responses.ts";
import { rowsFrame } from "./rows_frame.ts";
import { type RunSummary, summariseRuns, type SummaryInput } from "./summarise.ts";
import { type Advice, adviseRunsChecked } from "./advice.ts";
import { count } from "../core/count.ts";

export type { RunSummary, StoredAgreement, StoredDisagreement, TaskScore } from "./summarise.ts";
export { MAX_DISAGREEMENTS } from "./summarise.ts";
export { checkScorerName } from "./scorer_choice.ts";
export { type LoadPlan, resolveLoadPlan, ScorerChoiceError, UnscoredRowsError };

/**
 * Options of {@link loadRuns}: how to read the logs, which scorer, what to keep and show. All
 * but what to keep and show are resolved into the load's plan first (`load_plan.ts`).
 */
export interface LoadOptions extends PlanOptions {
  /**
   * Read each row's response text into `rows.response` (default true). With false the rows
   * keep only where each response is (`ptr_*`; `responses.ts` reads them on demand): a big
   * log then needs little memory. `runlens score` uses false.
   */
  responses?: boolean;
  /** Join each row's example (`input`, `target`, `input_chars`); default: as `responses`. */
  examples?: boolean;
  /** Show progress: true = on stderr when it is a terminal; or a {@link Progress}. */
  progress?: boolean | Progress;
  /**
   * Run names to change, old → new (`rename_runs.ts`): applied right after the rows are read
   * (or taken from the cache), so every summary, row and report carries the new names. An old
   * name that is no run, or a rename that would merge runs, throws a `RenameError`.
   */
  rename?: ReadonlyMap<string, string>;
}

/** One log file of a load, as reports list it. */
export interface FileSummary {
  /** The file's path. */
  file: string;
  /** The format it was read as (see `logs/discover.ts`). */
  format: string;
  /** Records read from it (scored or quarantined). */
  rows_in: number;
  /** Canonical field → where it was read from (generic logs whose fields were detected). */
  fields: Record<string, string> | null;
  /** Why the columns are these, when the rows' content chose them (null: names did). */
  fields_evidence: string | null;
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
  /** Whether the cache was used, and why not (null: no cache asked for). */
  cache: CacheUse | null;
  /**
   * Run × tasks whose answers were mostly not found and runs whose stored verdicts disagree
   * with the scorer, each with the scorer to try instead (`advice.ts`).
   */
  advice: Advice;
  /**
   * The data sets the load read, each once (`data_sets.ts`): analyses, reports and `rescore`
   * read examples and data-set frames from here rather than from the files again.
   */
  dataSets?: DataSetsView;
  /**
   * What the summaries were computed from besides the rows: `rescore` (`rescore.ts`) scores
   * the rows with another rule and summarises them again from it. Absent: not a load of
   * {@link loadRuns}.
   */
  basis?: LoadBasis;
  /** The runs renamed by the `rename` option, old name → new name (absent: none). */
  renamed?: Record<string, string>;
}

/** What {@link LoadedRuns.basis} keeps. */
export interface LoadBasis {
  /** The data directory the rows' examples came from. */
  dataDir: string;
  /** The summaries' input but for the scored rows and the scorers. */
  summary: Omit<SummaryInput, "scored" | "scorerOf">;
}

/** What the cache did for a load. */
export interface CacheUse {
  /** The cache folder. */
  dir: string;
  /** The load's cache key (empty when the load was not keyed). */
  key: string;
  /** The rows came from the cache. */
  hit: boolean;
  /** Why it was not used (or could not be written); null on a hit or a clean write. */
  reason: string | null;
}

/**
 * Read the logs under `paths` (files, or directories searched for run logs of every format
 * `logs/discover.ts` knows), tie each record to an example of a registered benchmark's data
 * set in `dataDir` (by index, question text, file name), score, and summarise per run and
 * benchmark. A file that cannot be read is listed in `errors` (with `strict`, it throws);
 * throws with a clear message on a missing data set or no logs at all, and
 * {@link ScorerChoiceError} on a wrong `scorer`, `scorers` or `answerPattern` — the options are
 * resolved into the load's plan before anything is read (`load_plan.ts`); rows of a benchmark
 * the plan gives no scorer stop the load at the first one ({@link UnscoredRowsError}), before
 * anything is summarised or cached.
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
  const plan = await resolveLoadPlan(dataDir, options);
  const progress = options.progress === true ? terminalProgress() : options.progress || NO_PROGRESS;
  try {
    return await load(paths, plan, options, progress);
  } finally {
    progress.done();
  }
}

/** files → (cache or engine) → frame → summaries, as the plan says. */
async function load(
  paths: readonly string[],
  plan: LoadPlan,
  options: LoadOptions,
  progress: Progress,
): Promise<LoadedRuns> {
  const { dataDir } = plan;
  const planned = await planLoad(paths, plan);
  if (planned.files.length === 0 && planned.found.errors.length === 0) throw noLogs(paths);
  const rename = options.rename ?? new Map<string, string>();
  const scored = renameScored(await scoredOrCached(planned, progress), rename);
  const to = renamer(rename);
  const responses = options.responses ?? true;
  progress.phase(`summarising ${count(scored.compact.height)} rows…`);
  let rows = rowsFrame(scored.compact, plan.dataSets, {
    examples: options.examples ?? responses,
  });
  const fileSummaries = planned.files.map((f) => fileSummary(f, scored.rowsIn[f.id], to));
  const basis: LoadBasis = { dataDir, summary: summaryBasis(fileSummaries, scored) };
  const { dataSets } = plan;
  const scorerOf = (benchmark: string) => scorerName(plan, benchmark);
  const runs = await keptOrMade(scored.cache, "runs", rename, isRunSummaries, () => ({
    value: summariseRuns({ ...basis.summary, scored: rows, scorerOf }),
    keep: true,
  }));
  const sources = new Map(planned.files.map((f) => [f.path, f]));
  if (responses && rows.height > 0) rows = readBack(rows, sources);
  const advice = await keptOrMade(scored.cache, "advice", rename, isAdvice, async () => {
    // the advice scores samples again: the scorers of the rows' benchmarks must be ready
    await Promise.all(
      [...new Set(runs.map((r) => r.benchmark))].map((b) => getBenchmark(b)?.prepare?.()),
    );
    const made = adviseRunsChecked({ runs, rows, sources, dataDir, dataSets });
    return { value: made.advice, keep: made.complete };
  });
  dataSets.release(); // the frames stay; the texts read for scoring need not
  return {
    files: planned.files.map((f) => f.path),
    fileSummaries,
    rows,
    quarantine: sortQuarantine(
      scored.quarantine.map(({ file, line, reason }) => ({ file, line, reason })),
    ),
    runs,
    errors: scored.errors,
    skipped: planned.found.skipped,
    warnings: [...loadWarnings(scored, runs, plan.read.runBy), ...unscoredWarnings(plan, scored)],
    sources,
    cache: scored.cache,
    advice,
    basis,
    dataSets,
    ...rename.size > 0 ? { renamed: Object.fromEntries(rename) } : {},
  };
}

/**
 * The scored part under the runs' new names (`rename_runs.ts`): rows, quarantine, models and
 * naming; checked first against the runs read (an unknown run, two runs made one: thrown).
 */
function renameScored(scored: Scored, rename: ReadonlyMap<string, string>): Scored {
  if (rename.size === 0) return scored;
  const runs = new Set([
    ...distinctValues(scored.compact, "run") as string[],
    ...scored.quarantine.map((q) => q.run),
  ]);
  checkRenames(rename, [...runs]);
  const to = renamer(rename);
  let run = pl.col("run");
  for (const [from, name] of rename) {
    run = pl.when(pl.col("run").eq(pl.lit(from))).then(pl.lit(name)).otherwise(run);
  }
  return {
    ...scored,
    compact: scored.compact.withColumns(run.alias("run")),
    quarantine: scored.quarantine.map((q) => ({ ...q, run: to(q.run) })),
    models: new Map([...scored.models].map(([r, m]) => [to(r), m])),
    names: {
      ...scored.names,
      naming: new Map([...scored.names.naming].map(([r, h]) => [to(r), h])),
    },
  };
}

/** What the summaries of a load are computed from, besides its scored rows and scorers. */
function summaryBasis(
  fileSummaries: readonly FileSummary[],
  scored: Scored,
): LoadBasis["summary"] {
  // nothing of a file that could not be read is kept (merge.ts): its records count nowhere
  const failed = new Set(scored.errors.map((e) => e.file));
  return {
    files: fileSummaries.filter((f) => !failed.has(f.file)).map((f) => ({
      file: f.file,
      format: f.format,
      rowsIn: f.rows_in,
      defaultRun: f.default_run,
      grouping: f.grouping,
      fields: f.fields,
    })),
    quarantined: scored.quarantine,
    models: scored.models,
    naming: scored.names.naming,
  };
}

/** The load's warnings: reading and data sets, run naming, then what the summaries show. */
function loadWarnings(scored: Scored, runs: readonly RunSummary[], runBy?: RunBy): string[] {
  return [
    ...scored.warnings,
    ...scored.names.warnings,
    ...mixedModels(scored.models, runBy),
    ...lookalikeRuns(runs.map((r) => r.run)),
  ];
}

/**
 * One warning per planned benchmark without a scorer whose rows a load with `unscored:
 * "quarantine"` set apart: how many, and why (each row's quarantine entry says it too).
 */
function unscoredWarnings(plan: LoadPlan, scored: Scored): string[] {
  return plan.benchmarks.flatMap(({ benchmark, unscored }) => {
    const n = unscored === null ? 0 : scored.quarantine.filter((q) => q.reason === unscored).length;
    return n === 0 ? [] : [`${count(n)} ${benchmark.name} rows not scored: ${unscored}`];
  });
}

/**
 * A warning for each run whose records name several models when `runBy` is `file` or
 * `folder`: those ignore the `model` field, so two models' rows are summarised (or
 * quarantined as duplicates) under one run. (By default a `model` field names the run of a
 * generic log's records; a run that still names several models was named by its records' own
 * `run` field, or by a reader that knows the format's runs.)
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const models = new Map([["r", new Set(["llama", "gpt-4o"])], ["s", new Set(["x"])]]);
 * assert.deepEqual(mixedModels(models, "file"), [
 *   "run r: its records name 2 models (gpt-4o, llama); --run-by file ignores the model field " +
 *   "(by default it names the run of records without a run field)",
 * ]);
 * assert.deepEqual(mixedModels(models), []);
 * ```
 */
export function mixedModels(
  models: ReadonlyMap<string, ReadonlySet<string>>,
  runBy?: string,
): string[] {
  if (runBy !== "file" && runBy !== "folder") return [];
  return [...models].filter(([, names]) => names.size > 1).map(([run, names]) =>
    `run ${run}: its records name ${names.size} models (${[...names].sort().join(", ")}); ` +
    `--run-by ${runBy} ignores the model field (by default it names the run of records ` +
    "without a run field)"
  );
}

/**
 * A warning for each set of run names that are one name but for case, Unicode normal form or
 * surrounding whitespace (`GPT-4o`, `gpt-4o`): they stay separate runs — a log may mean them
 * apart — but are probably one model spelled two ways.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(lookalikeRuns(["GPT-4o", "gpt-4o", "gpt-4o", "caf\u00e9", "cafe\u0301", "x"]), [
 *   'runs "GPT-4o", "gpt-4o" differ only in case, Unicode form or surrounding spaces: ' +
 *   "kept as separate runs",
 *   'runs "caf\u00e9", "cafe\u0301" differ only in case, Unicode form or surrounding spaces: ' +
 *   "kept as separate runs",
 * ]);
 * ```
 */
export function lookalikeRuns(runs: readonly string[]): string[] {
  const byKey = new Map<string, Set<string>>();
  for (const run of runs) {
    const k = run.normalize("NFC").trim().toLowerCase();
    byKey.set(k, (byKey.get(k) ?? new Set()).add(run));
  }
  return [...byKey.values()].filter((names) => names.size > 1).map((names) =>
    `runs ${[...names].map((n) => JSON.stringify(n)).join(", ")} differ only in case, ` +
    "Unicode form or surrounding spaces: kept as separate runs"
  );
}

/**
 * What a load derives from its rows — its summaries, its advice — kept beside its cache entry
 * once made, per set of run names (`--rename`), and read back by later loads of the entry: its
 * inputs are the entry's (files, settings, data sets and code are all in the key). A
 * million-row re-analysis spent 0.57 s on the summaries and 1.2 s and 300 MB on the advice,
 * which scores samples of the responses again with every applicable rule. `make` says whether
 * its value may be kept (`keep`); it is kept only if it reads back from JSON as itself (no
 * NaN, Infinity, undefined or class), and a side file that is not `valid` is made again.
 */
async function keptOrMade<T>(
  cache: CacheUse | null,
  what: "runs" | "advice",
  rename: ReadonlyMap<string, string>,
  valid: (x: unknown) => x is T,
  make: () => { value: T; keep: boolean } | Promise<{ value: T; keep: boolean }>,
): Promise<T> {
  const entry = cache !== null && cache.key !== "" ? cache : null;
  const name = `${what}-${sha256Hex(JSON.stringify([...rename].sort()))}`;
  const kept = entry === null ? null : readCacheSide(entry.dir, entry.key, name);
  if (valid(kept)) return kept;
  const { value, keep } = await make();
  if (entry === null || !keep) return value;
  const json = JSON.stringify(value);
  if (isDeepStrictEqual(JSON.parse(json), value)) writeCacheSide(entry.dir, entry.key, name, json);
  return value;
}

/** Whether `x` has the shape of run summaries (a side file is read back as JSON). */
function isRunSummaries(x: unknown): x is RunSummary[] {
  return Array.isArray(x) &&
    x.every((r) =>
      r !== null && typeof r === "object" && typeof r.run === "string" &&
      typeof r.benchmark === "string" && r.tasks !== null && typeof r.tasks === "object"
    );
}

/** Whether `x` has the shape of an {@link Advice} (a side file is read back as JSON). */
function isAdvice(x: unknown): x is Advice {
  const a = x as Advice | null;
  return a !== null && typeof a === "object" &&
    [a.no_answer, a.stored, a.disagree].every(Array.isArray);
}

/** A load's scored part: what the engine gives, or what the cache kept of it. */
interface Scored {
  /** Compact rows (`compact_frame.ts`). */
  compact: pl.DataFrame;
  quarantine: LoadQuarantine[];
  /** Records per planned file (by id). */
  rowsIn: number[];
  errors: { file: string; reason: string }[];
  models: Map<string, Set<string>>;
  warnings: string[];
  /** How each run was named, and the warnings of naming (`run_names.ts`). */
  names: Pick<MergedLoad, "naming" | "warnings">;
  cache: CacheUse | null;
}

/** Read the load from the cache when an entry matches, else score it (and write the entry). */
async function scoredOrCached(planned: PlannedLoad, progress: Progress): Promise<Scored> {
  const dir = planned.plan.cache?.dir ?? null;
  const keyed = dir === null ? null : cacheKey(planned);
  if (dir !== null && keyed !== null) {
    // an entry of rows without a column this code makes is a miss, never rows to use
    const read = readCache(dir, keyed.key, compactColumns());
    if (read.load) {
      progress.phase(`cache: ${count(read.load.frame.height)} rows from ${dir}`);
      const hit = fromCache(planned, read.load, { dir, key: keyed.key, hit: true, reason: null });
      checkUnscored(planned.plan, hit);
      return hit;
    }
  }
  const engine = await scoreLoad(planned, { progress });
  const paths = planned.files.map((f) => f.path);
  const compact = compactFrame(engine.merged.rows, paths, { release: true });
  const scored: Scored = {
    compact,
    quarantine: engine.merged.quarantine,
    rowsIn: engine.merged.rowsIn,
    errors: engine.errors,
    models: engine.merged.models,
    warnings: engine.warnings,
    names: engine.merged,
    cache: null,
  };
  if (dir === null) return scored;
  const small = manySmallRuns(planned, scored.compact);
  if (small !== null) return { ...scored, cache: { dir, key: "", hit: false, reason: small } };
  if (keyed === null) {
    return {
      ...scored,
      cache: { dir, key: "", hit: false, reason: "a file could not be stat'ed" },
    };
  }
  const why = staleReason(dir, keyed.fingerprints, keyed.settings);
  const written = writeCache(dir, keyed.key, {
    frame: scored.compact,
    quarantine: scored.quarantine,
    meta: cacheMeta(scored, engine.merged.errors),
    fingerprints: keyed.fingerprints,
    settings: keyed.settings,
  });
  // a cache that could not be written costs the next load its speed: say so, not only in `cache`
  const warnings = written.reason
    ? [...scored.warnings, `${written.reason} (in ${dir})`]
    : scored.warnings;
  return {
    ...scored,
    warnings,
    cache: { dir, key: keyed.key, hit: false, reason: written.reason ?? why },
  };
}

/** A load of more runs than this is not cached when they average under the size below. */
export const CACHE_MANY_RUNS = 64;
/** Bytes of log per run under which scoring a run again is cheaper than its Parquet file. */
export const CACHE_MIN_RUN_BYTES = 256 * 1024;

/**
 * Why a load of many small runs is not cached (null: it is): the cache writes one Parquet file
 * per run (~2.5 ms each) and reads them back one by one, so 2,000 one-line logs took 4× longer
 * to load with the cache than without it, and a hit was slower than scoring them again.
 */
function manySmallRuns(plan: PlannedLoad, compact: pl.DataFrame): string | null {
  const runs = compact.height === 0 ? 0 : compact.select("benchmark", "run").unique().height;
  const bytes = plan.files.reduce((sum, f) => sum + f.size, 0);
  if (runs <= CACHE_MANY_RUNS || bytes >= runs * CACHE_MIN_RUN_BYTES) return null;
  return `not written: ${count(runs)} runs of ${count(Math.round(bytes / runs))} bytes of log ` +
    "on average (scoring them again is faster than a Parquet file per run)";
}

/** The cache key of a load: each file's fingerprint and every setting that changes the rows. */
function cacheKey(planned: PlannedLoad) {
  const { plan } = planned;
  let fingerprints: FileFingerprint[];
  try {
    fingerprints = planned.files.map((f) => fileFingerprint(f.path));
  } catch {
    return null; // a file vanished or is not regular: the readers will say so
  }
  const settings = {
    code: sourceDigest(),
    data: treeStamp(plan.dataDir),
    scorers: Object.fromEntries(
      plan.benchmarks.map((p) => [p.benchmark.name, p.scorer?.name ?? ""]),
    ),
    // rows of a benchmark without a scorer were quarantined (an error writes no entry)
    unscored: plan.unscored,
    // a user's rule: its pattern, or its module's URL, which carries the content's SHA-256
    rule: plan.rule,
    only: plan.only,
    lm_eval_filter: plan.read.lmEvalFilter,
    limits: plan.read.limits,
    // all that was planned for each file (its path and size are in its fingerprint): a field
    // left out makes a stale entry — `--map`'s literals gave the rows of the load before, and
    // `--run-by`'s grouping the kept summaries of it (review of issue 26)
    files: planned.files.map(({ id: _id, path: _path, size: _size, ...planned }) => planned),
  };
  return { fingerprints, settings, key: loadKey(fingerprints, settings) };
}

/** What the cache keeps besides the rows and the quarantine. */
interface CacheMeta {
  rowsIn: number[];
  readerErrors: { file: string; reason: string }[];
  models: Record<string, string[]>;
  naming: Record<string, RunNaming>;
  dataWarnings: string[];
  namingWarnings: string[];
}

function cacheMeta(scored: Scored, readerErrors: { file: string; reason: string }[]): CacheMeta {
  return {
    rowsIn: scored.rowsIn,
    readerErrors,
    models: Object.fromEntries([...scored.models].map(([run, m]) => [run, [...m].sort()])),
    naming: Object.fromEntries(scored.names.naming),
    dataWarnings: scored.warnings.filter((w) => w.startsWith("no ")),
    namingWarnings: scored.names.warnings,
  };
}

/** A cached load, with this plan's discovery around it. */
function fromCache(plan: PlannedLoad, cached: CachedLoad, cache: CacheUse): Scored {
  const meta = cached.meta as CacheMeta;
  return {
    compact: cached.frame,
    quarantine: cached.quarantine,
    rowsIn: meta.rowsIn,
    errors: [...plan.found.errors, ...meta.readerErrors].sort((a, b) => a.file < b.file ? -1 : 1),
    models: new Map(Object.entries(meta.models).map(([run, m]) => [run, new Set(m)])),
    warnings: [...plan.found.warnings, ...meta.dataWarnings],
    names: { naming: new Map(Object.entries(meta.naming)), warnings: meta.namingWarnings },
    cache,
  };
}

/** The error of paths that hold no log at all. */
function noLogs(paths: readonly string[]): Error {
  return new Error(
    `no run logs found in ${paths.join(", ")} (looked for .jsonl, .json, .csv, .tsv, .eval ` +
      "and .log files, also gzip-compressed)",
  );
}

/**
 * A cached load holds no row of a benchmark the plan gives no scorer (scoring them stopped the
 * load, and the entry was not written); with `unscored: "error"` its rows stop this load as
 * scoring them would. (With `quarantine`, the key says so and the entry holds the quarantine.)
 */
function checkUnscored(plan: LoadPlan, scored: Scored): void {
  if (plan.unscored !== "error") return;
  const tied = new Set(distinctValues(scored.compact, "benchmark") as string[]);
  const hit = plan.benchmarks.find((p) => p.unscored !== null && tied.has(p.benchmark.name));
  if (hit) throw new UnscoredRowsError(hit.unscored!);
}

/** A file as reports list it. */
function fileSummary(f: PlannedFile, rowsIn: number, to: (run: string) => string): FileSummary {
  return {
    file: f.path,
    format: f.format,
    rows_in: rowsIn,
    fields: f.fieldsUsed,
    fields_evidence: f.fieldsEvidence,
    grouping: f.grouping,
    default_run: to(f.defaultRun),
    task_hint: f.taskHint ? f.taskHint.task : null,
  };
}
