/**
 * Summarise: one {@link RunSummary} per run and benchmark from the rows read, the rows scored
 * and the rows quarantined — row counts (checked: `rows_in = rows_scored + rows_quarantined`
 * per file, per summary and overall), per-task accuracy, the benchmark's aggregates, and how
 * the log's own verdicts compare with the re-score.
 *
 * A quarantined row that was never tied to a benchmark counts against the benchmark of its
 * file's other rows of the run when they have exactly one, else of the run's rows, else the
 * first scored benchmark of the registry.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { summariseRuns } from "@runlens/pipeline/summarise.ts";
 * import { readLogs } from "@runlens/pipeline/read.ts";
 * import { benchmarkSpec } from "@runlens/pipeline/identify.ts";
 * import { scoreRows } from "@runlens/pipeline/score.ts";
 * import { getBenchmark } from "@runlens/benchmarks/registry.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const read = readLogs(["tests/fixtures/logs/tree"]);
 * const spec = benchmarkSpec(getBenchmark("bbeh")!, resolveDataDir());
 * const { rows, quarantine } = scoreRows(read.rows, [spec]);
 * const quarantined = [...read.quarantine.map((q) => ({ ...q, benchmark: null })), ...quarantine];
 * const runs = summariseRuns({ read, scored: rows, quarantined, scorerOf: () => "bbeh-official" });
 * assert.ok(runs.every((r) => r.rows_in === r.rows_scored + r.rows_quarantined));
 * assert.deepEqual(runs[0].tasks, { boardgame_qa: { n: 2, correct: 1, accuracy: 50 } }); // alpha
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { taskAccuracy } from "../benchmarks/bbeh/aggregate.ts";
import { getBenchmark, scoredBenchmarks } from "../benchmarks/registry.ts";
import type { BenchmarkAggregate } from "../benchmarks/types.ts";
import { PY_WHITESPACE } from "../core/python.ts";
import type { HeadlineCI } from "../stats/headline_ci.ts";
import { wilsonInterval } from "../stats/wilson.ts";
import { checkRowBalance, type QuarantineEntry } from "../logs/quarantine.ts";
import type { ScoredQuarantine } from "./identify.ts";
import type { ReadLogs } from "./read.ts";

/** Counts and accuracy (percent) of one task in one run, with its 95% Wilson interval. */
export interface TaskScore {
  n: number;
  correct: number;
  accuracy: number;
  ci_low: number;
  ci_high: number;
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

/** One run's rows of one benchmark: where they came from, what happened, the scores. */
export interface RunSummary {
  run: string;
  /** The model name; several distinct names in one run are joined with ", ". */
  model: string;
  /** The registered benchmark (`benchmarks/registry.ts`). */
  benchmark: string;
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
  /** The benchmark's aggregates (e.g. BBEH: harmonic_mean, micro, mini_micro). */
  aggregate: BenchmarkAggregate;
  /** The 95% interval of each aggregate that has a value, naming its method. */
  intervals: Record<string, HeadlineCI>;
  stored_agreement: StoredAgreement;
}

/** What {@link summariseRuns} summarises. */
export interface SummaryInput {
  /** The logs as read (files, records per file, rows before scoring, read quarantine). */
  read: ReadLogs;
  /** Scored rows (row schema). */
  scored: pl.DataFrame;
  /** Every quarantined row: the read quarantine (benchmark null) and the scoring one. */
  quarantined: ScoredQuarantine[];
  /** The scorer a benchmark's rows were scored with. */
  scorerOf(benchmark: string): string;
}

const BENCH = pl.col("benchmark").str.stripChars(PY_WHITESPACE).str.toLowerCase();
const key = (run: string, bench: string) => `${run}\u0000${bench}`;

/**
 * The summaries, sorted by run name, then benchmark. Throws (an internal error) when the row
 * counts do not balance for a file, a summary or in all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLogs } from "@runlens/pipeline/read.ts";
 * import { benchmarkSpec } from "@runlens/pipeline/identify.ts";
 * import { scoreRows } from "@runlens/pipeline/score.ts";
 * import { getBenchmark } from "@runlens/benchmarks/registry.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const read = readLogs(["tests/fixtures/logs/tree"]); // no record quarantined while reading
 * const scored = scoreRows(read.rows, [benchmarkSpec(getBenchmark("bbeh")!, resolveDataDir())]);
 * const scorerOf = () => "bbeh-official";
 * const input = { read, scored: scored.rows, quarantined: scored.quarantine, scorerOf };
 * assert.deepEqual(summariseRuns(input).map((r) => [r.run, r.benchmark, r.aggregate.coverage]), [
 *   ["alpha", "bbeh", "partial"],
 *   ["b", "bbeh", "partial"],
 *   ["beta", "bbeh", "partial"],
 * ]);
 * ```
 */
export function summariseRuns(input: SummaryInput): RunSummary[] {
  const quarantine = input.quarantined.map((q) => q.entry);
  checkFiles(input.read, input.scored, quarantine);
  const counts = countRows(input);
  const scoredRows = input.scored;
  const accuracy = taskAccuracy(scoredRows, ["run", "benchmark"]).toRecords() as unknown as ({
    run: string;
    benchmark: string;
    task: string;
  } & TaskScore)[];
  const aggregates = aggregateByRun(scoredRows);
  const agreements = storedAgreements(scoredRows);
  const empties = countBy(scoredRows.filter(pl.col("response_chars").eq(0)), "run", "benchmark");
  const models = modelsByRun(input.read.rows);
  const runs = [...counts.keys()]
    .map((k) => k.split("\u0000") as [string, string])
    .sort(([r1, b1], [r2, b2]) => r1 < r2 ? -1 : r1 > r2 ? 1 : b1 < b2 ? -1 : b1 > b2 ? 1 : 0)
    .map(([run, benchmark]): RunSummary => {
      const k = key(run, benchmark);
      const c = counts.get(k)!;
      const runFiles = input.read.files.filter((f) => c.files.has(f));
      const summary: RunSummary = {
        run,
        model: models.get(run) ?? run,
        benchmark,
        scorer: input.scorerOf(benchmark),
        files: runFiles,
        format: formatsOf(input.read, runFiles),
        rows_in: c.rowsIn,
        rows_scored: c.scored,
        rows_quarantined: c.quarantined,
        empty_responses: empties.get(k) ?? 0,
        tasks: Object.fromEntries(
          accuracy.filter((a) => a.run === run && a.benchmark === benchmark)
            .sort((a, b) => a.task < b.task ? -1 : 1)
            .map((a) => [a.task, taskScore(a.n, a.correct, a.accuracy)]),
        ),
        aggregate: aggregates.get(k)?.aggregate ?? emptyAggregate(benchmark),
        intervals: aggregates.get(k)?.intervals ?? {},
        stored_agreement: agreements.get(k) ?? { n: 0, agree: 0, disagree: 0, examples: [] },
      };
      checkRowBalance(`run ${run} (${benchmark})`, c.rowsIn, c.scored, c.quarantined);
      return summary;
    });
  const totalIn = runs.reduce((s, r) => s + r.rows_in, 0);
  checkRowBalance("all runs", totalIn, scoredRows.height, quarantine.length);
  return runs;
}

/** Rows in, scored and quarantined, and the files, of one (run, benchmark). */
interface RunCounts {
  rowsIn: number;
  scored: number;
  quarantined: number;
  files: Set<string>;
}

/** The counts of every (run, benchmark) that has rows in, scored or quarantined. */
function countRows(input: SummaryInput): Map<string, RunCounts> {
  const inCounts = input.read.rows.select("run", "source_file", BENCH.alias("b"))
    .groupBy("run", "source_file", "b").agg(pl.len().alias("n"))
    .toRecords() as { run: string; source_file: string; b: string | null; n: number }[];
  const benchmarkOf = rowBenchmark(inCounts);
  const counts = new Map<string, RunCounts>();
  const at = (run: string, bench: string) => {
    const k = key(run, bench);
    if (!counts.has(k)) counts.set(k, { rowsIn: 0, scored: 0, quarantined: 0, files: new Set() });
    return counts.get(k)!;
  };
  for (const { run, b, n } of inCounts) at(run, benchmarkOf(run, b)).rowsIn += Number(n);
  for (const q of input.quarantined) {
    const c = at(q.run, benchmarkOf(q.run, q.benchmark, q.entry.file));
    c.quarantined++;
    c.files.add(q.entry.file);
  }
  for (const q of input.read.quarantine) at(q.run, benchmarkOf(q.run, null, q.entry.file)).rowsIn++;
  const scored = input.scored.groupBy("run", "benchmark", "source_file").agg(pl.len().alias("n"))
    .toRecords() as { run: string; benchmark: string; source_file: string; n: number }[];
  for (const r of scored) {
    const c = at(r.run, r.benchmark);
    c.scored += Number(r.n);
    c.files.add(r.source_file);
  }
  return counts;
}

/**
 * The benchmark a row (or a quarantined record) of a run counts against: its own when it
 * names a scored benchmark; else the only benchmark of its file's rows of the run; else the
 * only one of the run's rows; else the registry's first scored benchmark.
 */
function rowBenchmark(
  inCounts: readonly { run: string; source_file: string; b: string | null }[],
): (run: string, bench: string | null, file?: string) => string {
  const scoredNames = new Set(scoredBenchmarks().map((b) => b.name));
  const byRun = new Map<string, Set<string>>();
  const byFile = new Map<string, Set<string>>();
  const note = (m: Map<string, Set<string>>, k: string, b: string | null) => {
    if (!m.has(k)) m.set(k, new Set());
    if (b !== null && scoredNames.has(b)) m.get(k)!.add(b);
  };
  for (const { run, source_file, b } of inCounts) {
    note(byRun, run, b);
    note(byFile, `${run}\u0000${source_file}`, b);
  }
  const only = (set: Set<string> | undefined) => set?.size === 1 ? [...set][0] : null;
  const fallback = scoredBenchmarks()[0]?.name ?? "unknown";
  return (run, bench, file) => {
    if (bench !== null && scoredNames.has(bench)) return bench;
    const fromFile = file === undefined ? null : only(byFile.get(`${run}\u0000${file}`));
    return fromFile ?? only(byRun.get(run)) ?? fallback;
  };
}

/** Per file: records in the file = scored rows from it + quarantined rows from it. */
function checkFiles(read: ReadLogs, rows: pl.DataFrame, quarantine: QuarantineEntry[]): void {
  const scoredByFile = countBy(rows, "source_file");
  const quarantinedByFile = new Map<string, number>();
  for (const q of quarantine) {
    quarantinedByFile.set(q.file, (quarantinedByFile.get(q.file) ?? 0) + 1);
  }
  for (const { file, rowsIn } of read.reads) {
    checkRowBalance(file, rowsIn, scoredByFile.get(file) ?? 0, quarantinedByFile.get(file) ?? 0);
  }
}

/** The formats `files` were read as, sorted, joined with ", ". */
function formatsOf(read: ReadLogs, files: string[]): string {
  const formats = new Set(read.reads.filter((f) => files.includes(f.file)).map((f) => f.format));
  return [...formats].sort().join(", ");
}

/** Row counts by the values of `cols` (joined with NUL). */
function countBy(df: pl.DataFrame, ...cols: string[]): Map<string, number> {
  const counts = df.groupBy(...cols).agg(pl.len().alias("__n")).toRecords() as Record<
    string,
    unknown
  >[];
  return new Map(counts.map((r) => [cols.map((c) => r[c]).join("\u0000"), Number(r.__n)]));
}

/** The aggregate of a benchmark's summary without scored rows. */
function emptyAggregate(benchmark: string): BenchmarkAggregate {
  const none = pl.DataFrame({
    task: pl.Series("task", [], pl.Utf8),
    example_index: pl.Series("example_index", [], pl.Int32),
    correct: pl.Series("correct", [], pl.Bool),
  });
  return getBenchmark(benchmark)!.aggregate!(none);
}

/** Task counts with the accuracy's 95% Wilson interval (percent). */
function taskScore(n: number, correct: number, accuracy: number): TaskScore {
  const ci = wilsonInterval(correct, n)!;
  return { n, correct, accuracy, ci_low: ci.low, ci_high: ci.high };
}

/** The aggregate (and its intervals) of every (run, benchmark), from one partition of the rows. */
function aggregateByRun(
  rows: pl.DataFrame,
): Map<string, { aggregate: BenchmarkAggregate; intervals: Record<string, HeadlineCI> }> {
  const out = new Map<
    string,
    { aggregate: BenchmarkAggregate; intervals: Record<string, HeadlineCI> }
  >();
  if (rows.height === 0) return out;
  const parts = rows.select("run", "benchmark", "task", "example_index", "correct")
    .partitionBy(["run", "benchmark"], true, true);
  for (const part of parts) {
    const run = part.getColumn("run").get(0) as string;
    const benchmark = part.getColumn("benchmark").get(0) as string;
    const b = getBenchmark(benchmark)!;
    const cols = part.select("task", "example_index", "correct");
    const aggregate = b.aggregate!(cols);
    const intervals = b.aggregateIntervals?.(cols, aggregate) ?? {};
    out.set(key(run, benchmark), { aggregate, intervals });
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
    const examples = differ
      .filter(pl.col("run").eq(pl.lit(c.run)).and(pl.col("benchmark").eq(pl.lit(c.benchmark))))
      .head(MAX_DISAGREEMENTS)
      .drop("run", "benchmark")
      .toRecords() as unknown as StoredDisagreement[];
    const n = Number(c.n);
    const agree = Number(c.agree);
    out.set(key(c.run, c.benchmark), {
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
