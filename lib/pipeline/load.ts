/**
 * Load run logs, re-score them (BBEH with the official scorer, BBH with the release's CoT rule,
 * or any registered scorer chosen with `scorer`) and summarise each run: the entry point for
 * the CLI (`runlens score`) and the notebooks.
 *
 * A run's rows of BBEH and of BBH are summarised apart (one {@link RunSummary} per run and
 * benchmark): the two share task names. Every input row is either scored or quarantined; the
 * counts are checked per file and per summary (`rows_in = rows_scored + rows_quarantined`),
 * and a violation throws. Rows of other benchmarks count against the run's benchmark (BBEH
 * when the run has rows of both or of neither); unreadable lines against the benchmark of
 * their file's rows when it has one, else likewise.
 *
 * @example
 * ```ts
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * const { rows, quarantine, runs } = loadRuns(["runs/"], "../shared/data");
 * console.log(runs[0].benchmark, runs[0].scorer, runs[0].aggregate.micro, quarantine.length);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { extname } from "node:path";
import { type BbehAggregate, bbehAggregate, taskAccuracy } from "../benchmarks/bbeh/aggregate.ts";
import { type BbhAggregate, bbhAggregate } from "../benchmarks/bbh/aggregate.ts";
import { PY_WHITESPACE } from "../core/python.ts";
import { checkRawLog, readCanonicalLog } from "../logs/canonical.ts";
import type { LogFormat } from "../logs/detect.ts";
import { findLogFiles } from "../logs/files.ts";
import { readLmEvalFiles } from "../logs/lm_eval_batch.ts";
import { pickLmEvalFilter } from "../logs/lm_eval_filter.ts";
import { NO_PROGRESS, type Progress, terminalProgress } from "../core/progress.ts";
import {
  checkRowBalance,
  type QuarantineEntry,
  type RunQuarantine,
  sortQuarantine,
} from "../logs/quarantine.ts";
import { chooseFormat, type FormatLog, type ReadOptions, readRunLog } from "../logs/read_log.ts";
import {
  bbehSpec,
  bbhSpec,
  type BenchmarkSpec,
  DEFAULT_SCORERS,
  leanRows,
  scoreRows,
} from "./score_rows.ts";
import { getScorer, SCORERS } from "../scorers/registry.ts";

/** The benchmarks {@link loadRuns} scores. */
export const SCORED_BENCHMARKS = ["bbeh", "bbh"] as const;
/** One of {@link SCORED_BENCHMARKS}. */
export type ScoredBenchmark = (typeof SCORED_BENCHMARKS)[number];

/** Options of {@link loadRuns}: how to read the logs, which scorer, what to keep and show. */
export interface LoadOptions extends ReadOptions {
  /**
   * Keep each row's raw `response` in `rows` (default true). With false, the BBEH scorer's
   * extraction runs as each file (each block of a big canonical JSONL file) is read and the
   * response of BBEH rows is dropped at once ({@link leanRows}): verdicts, `extracted`,
   * `response_chars`, quarantine and summaries are the same, `rows.response` is null, and a
   * big log needs far less memory. `runlens score` uses false (it never prints responses).
   */
  responses?: boolean;
  /**
   * A registered scorer (`scorers/registry.ts`) for every row; it must apply to every
   * benchmark the logs hold. Default: each benchmark's official rule ({@link DEFAULT_SCORERS}:
   * `bbeh-official`, `bbh-release-cot`). `stored` keeps the log's own verdict.
   */
  scorer?: string;
  /**
   * lm-eval logs with several filters per response: the filter whose lines (and stored
   * verdicts) are kept ({@link pickLmEvalFilter}). Default: the one the scorer reproduces
   * (`lm-eval-strict` → `strict-match`, …), else each file's first filter.
   */
  lmEvalFilter?: string;
  /** Show progress: true = on stderr when it is a terminal; or a {@link Progress}. */
  progress?: boolean | Progress;
}

/**
 * A wrong `scorer` option: an unknown name, or a scorer that does not apply to a benchmark
 * the logs hold. The CLI turns it into a usage error (exit 2).
 */
export class ScorerChoiceError extends Error {}

/** Counts and accuracy (percent) of one task in one run. */
export interface TaskScore {
  n: number;
  correct: number;
  accuracy: number;
}

/** One row whose stored verdict differs from the re-score. */
export interface StoredDisagreement {
  file: string;
  line: number;
  task: string;
  example_index: number;
  /** Our scorer's extracted answer. */
  extracted: string | null;
  /** The tool's own extraction, when the log keeps it (`tool_extracted`). */
  tool_extracted: string | null;
  /** The tool's verdict. */
  stored: boolean;
  /** Our verdict. */
  ours: boolean;
}

/** How the log's own verdicts compare with the re-score, over rows that carry one. */
export interface StoredAgreement {
  /** Scored rows with a stored verdict. */
  n: number;
  agree: number;
  disagree: number;
  /** The disagreements in file and line order, at most {@link MAX_DISAGREEMENTS}. */
  examples: StoredDisagreement[];
}

/** Disagreements listed per run summary (the counts cover all). */
export const MAX_DISAGREEMENTS = 100;

/**
 * A summary's aggregate: {@link BbehAggregate} for BBEH, {@link BbhAggregate} for BBH (whose
 * BBEH-only keys read as undefined, so BBEH code can read `harmonic_mean` without narrowing).
 */
export type RunAggregate =
  | BbehAggregate
  | (BbhAggregate & { harmonic_mean?: undefined; mini_micro?: undefined });

/** One run's rows of one benchmark: where they came from, what happened, the scores. */
export interface RunSummary {
  run: string;
  /** The model name; several distinct names in one run are joined with ", ". */
  model: string;
  benchmark: ScoredBenchmark;
  scorer: string;
  /** Log files that contributed rows (scored or quarantined). */
  files: string[];
  /** The format(s) of those files (see `logs/detect.ts`), sorted, joined with ", ". */
  format: string;
  rows_in: number;
  rows_scored: number;
  rows_quarantined: number;
  /**
   * Scored rows whose response is empty: counted as wrong, as the official scorers do (an
   * empty answer is the model's failure; leaving it out would raise the accuracy).
   */
  empty_responses: number;
  /** Per task, keys sorted by task name. */
  tasks: Record<string, TaskScore>;
  /** BBEH: {@link BbehAggregate}; BBH: {@link BbhAggregate}. */
  aggregate: RunAggregate;
  stored_agreement: StoredAgreement;
}

/** Everything {@link loadRuns} found. */
export interface LoadedRuns {
  /** The log files read, in order. */
  files: string[];
  /** Scored rows of all runs, in the row schema, in file and line order. */
  rows: pl.DataFrame;
  /** Rows not scored, sorted by file and line. */
  quarantine: QuarantineEntry[];
  /** One summary per run and benchmark, sorted by run name, then benchmark. */
  runs: RunSummary[];
}

const BENCH = pl.col("benchmark").str.stripChars(PY_WHITESPACE).str.toLowerCase();

/**
 * Check a scorer name: registered, and applicable to at least one benchmark runlens scores.
 * Throws {@link ScorerChoiceError} listing the valid names otherwise.
 *
 * @example
 * ```ts
 * checkScorerName("last-line"); // ok
 * checkScorerName("exact"); // throws: unknown scorer "exact"; scorers: bbh-release-cot, …
 * ```
 */
export function checkScorerName(name: string): void {
  if (!SCORERS.some((s) => s.name === name)) {
    throw new ScorerChoiceError(
      `unknown scorer "${name}"; scorers: ${SCORERS.map((s) => s.name).join(", ")}`,
    );
  }
  const s = getScorer(name);
  if (!SCORED_BENCHMARKS.some((b) => s.benchmarks.includes(b))) {
    throw new ScorerChoiceError(
      `scorer ${name} applies to none of ${SCORED_BENCHMARKS.join(", ")}; ` +
        SCORED_BENCHMARKS.map(scorersFor).join("; "),
    );
  }
}

/** "scorers for bbh: a, b, c". */
function scorersFor(benchmark: string): string {
  const names = SCORERS.filter((s) => (s.benchmarks as readonly string[]).includes(benchmark))
    .map((s) => s.name);
  return `scorers for ${benchmark}: ${names.join(", ")}`;
}

/**
 * Read the logs under `paths` (files, or directories searched for `.jsonl`/`.csv` and for
 * lm-eval / inspect_ai `.json`/`.eval` logs; formats per `logs/detect.ts`), tie each BBEH or
 * BBH row to its data set in `dataDir`, score, and summarise per run and benchmark. `options`
 * (`--format`, `--map`, see `logs/read_log.ts`; `scorer`; `progress`) apply to every file.
 * Throws with a clear message (naming the file) on unreadable files, a missing data set, or
 * no logs at all, and {@link ScorerChoiceError} on a wrong `scorer`.
 *
 * @example
 * ```ts
 * const { runs } = loadRuns(["a.jsonl", "b.csv"], resolveDataDir(), { scorer: "stored" });
 * runs.map((r) => [r.run, r.benchmark, r.aggregate.coverage, r.stored_agreement.disagree]);
 * ```
 */
export function loadRuns(
  paths: readonly string[],
  dataDir: string,
  options: LoadOptions = {},
): LoadedRuns {
  if (options.scorer !== undefined) checkScorerName(options.scorer);
  const progress = options.progress === true ? terminalProgress() : options.progress || NO_PROGRESS;
  try {
    return load(paths, dataDir, options, progress);
  } finally {
    progress.done();
  }
}

function load(
  paths: readonly string[],
  dataDir: string,
  options: LoadOptions,
  progress: Progress,
): LoadedRuns {
  const files = findLogFiles(paths, options);
  if (files.length === 0) {
    throw new Error(`no .jsonl or .csv run logs found in ${paths.join(", ")}`);
  }
  const bbehScorer = scorerOf("bbeh", options);
  const filter = options.lmEvalFilter ??
    (options.scorer ? getScorer(options.scorer).lmEvalFilter : undefined) ?? null;
  const logs = readGroups(files, options, bbehScorer, filter, progress);
  const input = pl.concat(logs.map((l) => l.rows), { how: "vertical" });
  const present = new Set(
    input.select(BENCH.alias("b")).unique().getColumn("b").toArray() as (string | null)[],
  );
  const specs: BenchmarkSpec[] = [];
  for (const b of SCORED_BENCHMARKS.filter((b) => present.has(b))) {
    const scorer = scorerOf(b, options);
    if (!(getScorer(scorer).benchmarks as readonly string[]).includes(b)) {
      throw new ScorerChoiceError(
        `scorer ${scorer} does not apply to the ${b} rows of these logs; ${scorersFor(b)}`,
      );
    }
    specs.push(b === "bbeh" ? bbehSpec(dataDir, scorer) : bbhSpec(dataDir, scorer));
  }
  progress.phase(`scoring ${input.height.toLocaleString("en-US")} rows…`);
  const scored = scoreRows(input, specs);
  const readQuarantine = logs.flatMap((l) => l.quarantine.map((q) => ({ ...q, benchmark: null })));
  const quarantined = [...readQuarantine, ...scored.quarantine];
  checkFiles(logs, scored.rows, quarantined.map((q) => q.entry));

  // Each run's benchmarks: rows of other benchmarks join the run's only benchmark, else bbeh;
  // unreadable lines join the only benchmark of their file's rows of the run, else likewise.
  const runBenches = new Map<string, Set<string>>();
  const fileBenches = new Map<string, Set<string>>();
  const inCounts = input.select("run", "source_file", BENCH.alias("b"))
    .groupBy("run", "source_file", "b").agg(pl.len().alias("n"))
    .toRecords() as { run: string; source_file: string; b: string | null; n: number }[];
  const note = (m: Map<string, Set<string>>, k: string, b: string | null) => {
    if (!m.has(k)) m.set(k, new Set());
    if (b === "bbeh" || b === "bbh") m.get(k)!.add(b);
  };
  for (const { run, source_file, b } of inCounts) {
    note(runBenches, run, b);
    note(fileBenches, `${run}\u0000${source_file}`, b);
  }
  const only = (set: Set<string> | undefined) =>
    set?.size === 1 ? [...set][0] as ScoredBenchmark : null;
  const groupOf = (run: string, bench: string | null, file?: string): ScoredBenchmark => {
    if (bench === "bbeh" || bench === "bbh") return bench;
    const byFile = file === undefined ? null : only(fileBenches.get(`${run}\u0000${file}`));
    return byFile ?? only(runBenches.get(run)) ?? "bbeh";
  };
  const key = (run: string, bench: string) => `${run}\u0000${bench}`;
  const rowsIn = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, n: number) => m.set(k, (m.get(k) ?? 0) + n);
  for (const { run, b, n } of inCounts) add(rowsIn, key(run, groupOf(run, b)), Number(n));
  const quarantineBy = new Map<string, QuarantineEntry[]>();
  for (const q of quarantined) {
    const k = key(q.run, groupOf(q.run, q.benchmark, q.entry.file));
    if (!quarantineBy.has(k)) quarantineBy.set(k, []);
    quarantineBy.get(k)!.push(q.entry);
  }
  for (const q of readQuarantine) add(rowsIn, key(q.run, groupOf(q.run, null, q.entry.file)), 1);
  const scoredBy = new Map<string, number>();
  const filesBy = new Map<string, Set<string>>();
  for (
    const r of scored.rows.groupBy("run", "benchmark", "source_file").agg(pl.len().alias("n"))
      .toRecords() as { run: string; benchmark: string; source_file: string; n: number }[]
  ) {
    const k = key(r.run, r.benchmark);
    add(scoredBy, k, Number(r.n));
    if (!filesBy.has(k)) filesBy.set(k, new Set());
    filesBy.get(k)!.add(r.source_file);
  }
  for (const [k, entries] of quarantineBy) {
    if (!filesBy.has(k)) filesBy.set(k, new Set());
    for (const e of entries) filesBy.get(k)!.add(e.file);
  }

  const accuracy = taskAccuracy(scored.rows, ["run", "benchmark"]).toRecords() as unknown as ({
    run: string;
    benchmark: string;
    task: string;
  } & TaskScore)[];
  const aggregates = aggregateByRun(scored.rows);
  const agreements = storedAgreements(scored.rows);
  const empties = new Map(
    (scored.rows.filter(pl.col("response_chars").eq(0)).groupBy("run", "benchmark")
      .agg(pl.len().alias("n")).toRecords() as { run: string; benchmark: string; n: number }[])
      .map((r) => [key(r.run, r.benchmark), Number(r.n)]),
  );
  const models = modelsByRun(input);
  const groups = [...new Set([...rowsIn.keys(), ...quarantineBy.keys()])]
    .map((k) => k.split("\u0000") as [string, ScoredBenchmark])
    .sort(([r1, b1], [r2, b2]) => r1 < r2 ? -1 : r1 > r2 ? 1 : b1 < b2 ? -1 : b1 > b2 ? 1 : 0);
  const runs = groups.map(([run, benchmark]): RunSummary => {
    const k = key(run, benchmark);
    const runFiles = files.filter((f) => filesBy.get(k)?.has(f));
    const summary: RunSummary = {
      run,
      model: models.get(run) ?? run,
      benchmark,
      scorer: scorerOf(benchmark, options),
      files: runFiles,
      format: formatsOf(logs, runFiles),
      rows_in: rowsIn.get(k) ?? 0,
      rows_scored: scoredBy.get(k) ?? 0,
      rows_quarantined: quarantineBy.get(k)?.length ?? 0,
      empty_responses: empties.get(k) ?? 0,
      tasks: Object.fromEntries(
        accuracy.filter((a) => a.run === run && a.benchmark === benchmark)
          .sort((a, b) => a.task < b.task ? -1 : 1)
          .map((a) => [a.task, { n: a.n, correct: a.correct, accuracy: a.accuracy }]),
      ),
      aggregate: aggregates.get(k) ?? emptyAggregate(benchmark),
      stored_agreement: agreements.get(k) ?? { n: 0, agree: 0, disagree: 0, examples: [] },
    };
    checkRowBalance(
      `run ${run} (${benchmark})`,
      summary.rows_in,
      summary.rows_scored,
      summary.rows_quarantined,
    );
    return summary;
  });
  const totalIn = runs.reduce((s, r) => s + r.rows_in, 0);
  checkRowBalance("all runs", totalIn, scored.rows.height, quarantined.length);
  return {
    files,
    // lean: other benchmarks' responses were kept for their scorer; drop them now too
    rows: options.responses === false
      ? scored.rows.withColumns(pl.lit(null).cast(pl.Utf8).alias("response"))
      : scored.rows,
    quarantine: sortQuarantine(quarantined.map((q) => q.entry)),
    runs,
  };
}

/** The scorer of a benchmark's rows under `options`. */
function scorerOf(benchmark: ScoredBenchmark, options: LoadOptions): string {
  return options.scorer ?? DEFAULT_SCORERS[benchmark];
}

/** Per file: records in the file = scored rows from it + quarantined rows from it. */
function checkFiles(logs: LogGroup[], rows: pl.DataFrame, quarantine: QuarantineEntry[]) {
  const scoredByFile = countBy(rows, "source_file");
  const quarantinedByFile = new Map<string, number>();
  for (const q of quarantine) {
    quarantinedByFile.set(q.file, (quarantinedByFile.get(q.file) ?? 0) + 1);
  }
  for (const { file, rowsIn } of logs.flatMap((l) => l.files)) {
    checkRowBalance(
      file,
      rowsIn,
      scoredByFile.get(file) ?? 0,
      quarantinedByFile.get(file) ?? 0,
    );
  }
}

function formatsOf(logs: LogGroup[], files: string[]): string {
  const formats = new Set(
    logs.flatMap((l) => l.files).filter((f) => files.includes(f.file)).map((f) => f.format),
  );
  return [...formats].sort().join(", ");
}

function countBy(df: pl.DataFrame, col: string): Map<string, number> {
  const counts = df.groupBy(col).agg(pl.len().alias("__n")).toRecords() as Record<
    string,
    unknown
  >[];
  return new Map(counts.map((r) => [r[col] as string, Number(r.__n)]));
}

/** Logs read together: their files (records in each, format), checked rows and quarantine. */
interface LogGroup {
  files: { file: string; rowsIn: number; format: LogFormat }[];
  rows: pl.DataFrame;
  quarantine: RunQuarantine[];
}

/**
 * Read every file, in order: runs of consecutive plain lm-eval samples files together
 * ({@link readLmEvalFiles}: one polars parse per ~64 MB instead of per file), the others one
 * by one ({@link readLog}). lm-eval rows keep one filter per response ({@link pickLmEvalFilter}).
 */
function readGroups(
  files: readonly string[],
  options: LoadOptions,
  bbehScorer: string,
  filter: string | null,
  progress: Progress,
): LogGroup[] {
  const position = new Map(files.map((f, i) => [f, i]));
  const groups: LogGroup[] = [];
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const { raw, files: read } = readLmEvalFiles(pending, {
      onFile: (f) => progress.file(position.get(f)!, files.length, f),
      onRows: (n) => progress.rows(n),
    });
    const checked = checkRawLog(pending[0], raw);
    const rows = options.responses === false ? leanRows(checked.rows, bbehScorer) : checked.rows;
    groups.push({
      files: read.map((f) => ({ ...f, format: "lm-eval" })),
      ...pickLmEvalFilter({ rows, quarantine: checked.quarantine }, filter),
    });
    pending = [];
  };
  for (const [i, file] of files.entries()) {
    const { format, gzip } = chooseFormat(file, options);
    if (format === "lm-eval" && !gzip) {
      pending.push(file);
      continue;
    }
    flush();
    progress.file(i, files.length, file);
    const log = readLog(file, options, bbehScorer, progress);
    const kept = log.format.startsWith("lm-eval") ? pickLmEvalFilter(log, filter) : log;
    groups.push({
      files: [{ file: log.file, rowsIn: log.rowsIn, format: log.format }],
      rows: kept.rows,
      quarantine: kept.quarantine,
    });
  }
  flush();
  return groups;
}

/**
 * Read one log. With `responses: false`, lean rows ({@link leanRows}), block by block for big
 * canonical JSONL files.
 */
function readLog(
  file: string,
  options: LoadOptions,
  bbehScorer: string,
  progress: Progress,
): FormatLog {
  if (options.responses !== false) {
    const log = readRunLog(file, options);
    progress.rows(log.rows.height);
    return log;
  }
  const lean = (rows: pl.DataFrame) => {
    progress.rows(rows.height);
    return leanRows(rows, bbehScorer);
  };
  const { format, gzip } = chooseFormat(file, options);
  if (format === "canonical-jsonl" && !gzip && extname(file).toLowerCase() === ".jsonl") {
    return { ...readCanonicalLog(file, { mapRows: lean }), format };
  }
  const log = readRunLog(file, options);
  return { ...log, rows: lean(log.rows) };
}

/** The empty aggregate of a benchmark (a summary without scored rows). */
function emptyAggregate(benchmark: ScoredBenchmark): RunAggregate {
  const none = pl.DataFrame({
    task: pl.Series("task", [], pl.Utf8),
    example_index: pl.Series("example_index", [], pl.Int32),
    correct: pl.Series("correct", [], pl.Bool),
  });
  return benchmark === "bbh" ? bbhAggregate(none) : bbehAggregate(none);
}

/** The aggregate of every (run, benchmark), from one partition of the rows. */
function aggregateByRun(rows: pl.DataFrame): Map<string, RunAggregate> {
  const out = new Map<string, RunAggregate>();
  if (rows.height === 0) return out;
  const parts = rows.select("run", "benchmark", "task", "example_index", "correct")
    .partitionBy(["run", "benchmark"], true, true);
  for (const part of parts) {
    const run = part.getColumn("run").get(0) as string;
    const benchmark = part.getColumn("benchmark").get(0) as string;
    const cols = part.select("task", "example_index", "correct");
    out.set(
      `${run}\u0000${benchmark}`,
      benchmark === "bbh" ? bbhAggregate(cols) : bbehAggregate(cols),
    );
  }
  return out;
}

/** Stored-verdict agreement of every (run, benchmark) with rows that carry one. */
function storedAgreements(rows: pl.DataFrame): Map<string, StoredAgreement> {
  const out = new Map<string, StoredAgreement>();
  const withStored = rows.filter(pl.col("stored_correct").isNotNull());
  if (withStored.height === 0) return out;
  const counts = withStored.groupBy("run", "benchmark").agg(
    pl.len().alias("n"),
    pl.col("stored_correct").eq(pl.col("correct")).cast(pl.Int32).sum().alias("agree"),
  ).toRecords() as { run: string; benchmark: string; n: number; agree: number }[];
  const differ = withStored.filter(pl.col("stored_correct").neq(pl.col("correct")))
    .select(
      "run",
      "benchmark",
      pl.col("source_file").alias("file"),
      pl.col("source_line").alias("line"),
      "task",
      "example_index",
      "extracted",
      pl.col("extra").str.jsonPathMatch("$.tool_extracted").alias("tool_extracted"),
      pl.col("stored_correct").alias("stored"),
      pl.col("correct").alias("ours"),
    )
    .sort(["run", "benchmark", "file", "line"]);
  for (const c of counts) {
    const k = `${c.run}\u0000${c.benchmark}`;
    const examples = differ
      .filter(pl.col("run").eq(pl.lit(c.run)).and(pl.col("benchmark").eq(pl.lit(c.benchmark))))
      .head(MAX_DISAGREEMENTS)
      .drop("run", "benchmark")
      .toRecords() as unknown as StoredDisagreement[];
    const n = Number(c.n);
    const agree = Number(c.agree);
    out.set(k, {
      n,
      agree,
      disagree: n - agree,
      examples: examples.map((e) => ({ ...e, example_index: Number(e.example_index) })),
    });
  }
  return out;
}

/** Per run, its distinct model names, sorted and joined with ", ". */
function modelsByRun(input: pl.DataFrame): Map<string, string> {
  const models = input.select("run", "model").unique().toRecords() as {
    run: string;
    model: string;
  }[];
  const byRun = new Map<string, string[]>();
  for (const { run, model } of models) byRun.set(run, [...(byRun.get(run) ?? []), model]);
  return new Map([...byRun].map(([run, names]) => [run, names.sort().join(", ")]));
}
