/**
 * Load run logs: read → identify → score → summarise ({@link loadRuns}), the entry point for
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
 * const { rows, quarantine, runs } = loadRuns(logs, resolveDataDir());
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
import { getBenchmark, getScorer, scoredBenchmarks, SCORERS } from "../benchmarks/registry.ts";
import type { Benchmark } from "../benchmarks/types.ts";
import { PY_WHITESPACE } from "../core/python.ts";
import { NO_PROGRESS, type Progress, terminalProgress } from "../core/progress.ts";
import { sortQuarantine } from "../logs/quarantine.ts";
import type { QuarantineEntry } from "../logs/quarantine.ts";
import { type BenchmarkSpec, benchmarkSpec } from "./identify.ts";
import { readLogs, type ReadLogsOptions } from "./read.ts";
import { leanRows, scoreRows } from "./score.ts";
import { type RunSummary, summariseRuns } from "./summarise.ts";

export type { RunSummary, StoredAgreement, StoredDisagreement, TaskScore } from "./summarise.ts";
export { MAX_DISAGREEMENTS } from "./summarise.ts";

/** Options of {@link loadRuns}: how to read the logs, which scorer, what to keep and show. */
export interface LoadOptions extends Pick<ReadLogsOptions, "format" | "map"> {
  /**
   * Keep each row's raw `response` in `rows` (default true). With false, the BBEH scorer's
   * extraction runs as each file (each block of a big canonical JSONL file) is read and the
   * response of BBEH rows is dropped at once ({@link leanRows}): verdicts, `extracted`,
   * `response_chars`, quarantine and summaries are the same, `rows.response` is null, and a
   * big log needs far less memory. `runlens score` uses false (it never prints responses).
   */
  responses?: boolean;
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
  /** Show progress: true = on stderr when it is a terminal; or a {@link Progress}. */
  progress?: boolean | Progress;
}

/**
 * A wrong `scorer` option: an unknown name, or a scorer that does not apply to a benchmark
 * the logs hold. The CLI turns it into a usage error (exit 2).
 */
export class ScorerChoiceError extends Error {}

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
 * `logs/detect.ts` knows), tie each row of a registered benchmark to its data set in
 * `dataDir`, score, and summarise per run and benchmark. `options` (`--format`, `--map`, see
 * `logs/read_log.ts`; `scorer`; `progress`) apply to every file. Throws with a clear message
 * (naming the file) on unreadable files, a missing data set, or no logs at all, and
 * {@link ScorerChoiceError} on a wrong `scorer`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const logs = ["tests/fixtures/logs/bbh/lm_eval"]; // an lm-eval run: 5 snarks samples
 * const { runs } = loadRuns(logs, resolveDataDir(), { scorer: "lm-eval-strict" });
 * const r = runs[0];
 * assert.deepEqual([r.run, r.benchmark, r.aggregate.coverage], [
 *   "org__tiny-model_2025-01-25T04-48-43.622918", "bbh", "partial"]);
 * const { n, correct, accuracy } = r.tasks.snarks;
 * assert.deepEqual({ n, correct, accuracy }, { n: 5, correct: 4, accuracy: 80 });
 * // 4 samples store lm-eval's verdict; the fixture's doc 1 stores a wrong one
 * assert.deepEqual([r.stored_agreement.n, r.stored_agreement.disagree], [4, 1]);
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

/** read → identify and score → summarise. */
function load(
  paths: readonly string[],
  dataDir: string,
  options: LoadOptions,
  progress: Progress,
): LoadedRuns {
  const scorerOf = (benchmark: string) =>
    options.scorer ?? getBenchmark(benchmark)?.defaultScorer ?? "";
  const read = readLogs(paths, {
    format: options.format,
    map: options.map,
    lmEvalFilter: options.lmEvalFilter ??
      (options.scorer ? getScorer(options.scorer).lmEvalFilter : undefined) ?? null,
    mapRows: options.responses === false ? (rows) => leanRows(rows, scorerOf("bbeh")) : undefined,
    progress,
  });
  const specs = specsFor(read.rows, dataDir, scorerOf);
  progress.phase(`scoring ${read.rows.height.toLocaleString("en-US")} rows…`);
  const scored = scoreRows(read.rows, specs);
  const quarantined = [
    ...read.quarantine.map((q) => ({ ...q, benchmark: null })),
    ...scored.quarantine,
  ];
  const runs = summariseRuns({
    files: read.reads.map(({ file, format, rowsIn }) => ({ file, format, rowsIn })),
    scored: scored.rows.withColumns(
      pl.col("extra").str.jsonPathMatch("$.tool_extracted").alias("tool_extracted"),
    ),
    quarantined: quarantined.map((q) => ({ ...q.entry, run: q.run, benchmark: q.benchmark })),
    models: modelsByRun(read.rows),
    scorerOf,
  });
  return {
    files: read.files,
    // lean: other benchmarks' responses were kept for their scorer; drop them now too
    rows: options.responses === false
      ? scored.rows.withColumns(pl.lit(null).cast(pl.Utf8).alias("response"))
      : scored.rows,
    quarantine: sortQuarantine(quarantined.map((q) => q.entry)),
    runs,
  };
}

/**
 * The specs of the scored benchmarks the rows name, each with its scorer; throws
 * {@link ScorerChoiceError} when the chosen scorer does not apply to one of them.
 */
function specsFor(
  rows: pl.DataFrame,
  dataDir: string,
  scorerOf: (benchmark: string) => string,
): BenchmarkSpec[] {
  const present = new Set(
    rows.select(BENCH.alias("b")).unique().getColumn("b").toArray() as (string | null)[],
  );
  return scoredBenchmarks().filter((b) => present.has(b.name)).map((b: Benchmark) => {
    const scorer = scorerOf(b.name);
    if (!getScorer(scorer).benchmarks.includes(b.name)) {
      throw new ScorerChoiceError(
        `scorer ${scorer} does not apply to the ${b.name} rows of these logs; ${
          scorersFor(b.name)
        }`,
      );
    }
    return benchmarkSpec(b, dataDir, scorer);
  });
}

/** Per run, the model names its rows carry. */
function modelsByRun(rows: pl.DataFrame): Map<string, Set<string>> {
  const pairs = rows.select("run", "model").unique().toRecords() as {
    run: string;
    model: string;
  }[];
  const byRun = new Map<string, Set<string>>();
  for (const { run, model } of pairs) byRun.set(run, (byRun.get(run) ?? new Set()).add(model));
  return byRun;
}
