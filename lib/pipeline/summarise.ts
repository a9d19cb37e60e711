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
 * import pl from "nodejs-polars";
 * import { summariseRuns } from "@runlens/pipeline/summarise.ts";
 * const scored = pl.DataFrame({
 *   run: ["a", "a"], benchmark: ["bbeh", "bbeh"], task: ["nycc", "nycc"],
 *   example_index: [0, 1], correct: [true, false], answer_found: [true, false],
 *   extracted: ["(a)", "(c)"], response_chars: [10, 0], stored_correct: [null, null], tool_extracted: [null, null],
 *   source_file: ["a.jsonl", "a.jsonl"], source_line: [1, 2],
 * });
 * const runs = summariseRuns({
 *   files: [{ file: "a.jsonl", format: "canonical-jsonl", rowsIn: 3 }],
 *   scored,
 *   // never tied to a benchmark: counted under the file's only one
 *   quarantined: [{ file: "a.jsonl", line: 3, reason: "missing task", run: "a", benchmark: null }],
 *   models: new Map([["a", new Set(["m"])]]),
 *   scorerOf: () => "bbeh-official",
 * });
 * assert.deepEqual(
 *   runs.map((r) => [r.run, r.model, r.benchmark, r.rows_in, r.rows_scored, r.empty_responses]),
 *   [["a", "m", "bbeh", 3, 2, 1]],
 * );
 * assert.deepEqual([runs[0].tasks.nycc.n, runs[0].tasks.nycc.no_answer, runs[0].no_answer], [2, 1, 1]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { getBenchmark } from "../benchmarks/registry.ts";
import { loadableBenchmarks } from "./load_plan.ts";
import type { Benchmark, BenchmarkAggregate } from "../benchmarks/types.ts";
import type { HeadlineCI } from "../stats/headline_ci.ts";
import { firstValue, framesByRun } from "../core/frames.ts";
import { wilsonInterval } from "../stats/wilson.ts";
import { type ExampleSummary, wilsonOfExamples } from "../stats/clustered_wilson.ts";
import { checkRowBalance, reasonKind } from "../logs/quarantine.ts";
import { GENERIC_FORMATS } from "../logs/discover.ts";
import type { RunNaming } from "./run_names.ts";

/**
 * Counts and accuracy (percent) of one task in one run, with its 95% Wilson interval. With
 * several rows per example (epochs), `accuracy` is the mean over examples of each example's
 * share of correct rows (= `correct × 100 / n` when every example has as many rows) and the
 * interval is clustered by example (`stats/clustered_wilson.ts`): a verdict logged twice does
 * not narrow it.
 */
export interface TaskScore {
  /** Rows with a verdict. */
  n: number;
  /** Of those, correct. */
  correct: number;
  /**
   * Rows whose scorer found no answer (`answer_found` false): scored as wrong, and a sign
   * that the responses follow another answer convention (`advice.ts` names a remedy).
   */
  no_answer: number;
  /** Accuracy, percent (the mean over examples with epochs). */
  accuracy: number;
  /** Lower bound of the 95% Wilson interval, percent. */
  ci_low: number;
  /** Upper bound of the 95% Wilson interval, percent. */
  ci_high: number;
}

/** One row whose stored verdict differs from the re-score. */
export interface StoredDisagreement {
  /** The log file of the row. */
  file: string;
  /** Its line (1-based) in the file. */
  line: number;
  /** The row's task. */
  task: string;
  /** The example's index in its task. */
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
  /** Of those, rows where the stored verdict equals ours. */
  agree: number;
  /** Of those, rows where it differs. */
  disagree: number;
  /** The disagreements in file and line order, at most {@link MAX_DISAGREEMENTS}. */
  examples: StoredDisagreement[];
}

/** Disagreements listed per run summary (the counts cover all). */
export const MAX_DISAGREEMENTS = 100;

/** One run's rows of one benchmark: where they came from, what happened, the scores. */
export interface RunSummary {
  /** The run's name. */
  run: string;
  /** The model name; several distinct names in one run are joined with ", ". */
  model: string;
  /** The registered benchmark (`benchmarks/registry.ts`). */
  benchmark: string;
  /** The scorer that scored its rows. */
  scorer: string;
  /** Log files that contributed rows (scored or quarantined). */
  files: string[];
  /** The format(s) of those files (see `logs/discover.ts`), sorted, joined with ", ". */
  format: string;
  /**
   * How the run was formed: `field` (its records' `run` field, or their `model` field —
   * `<model>/<default run>` when sources of the model repeat examples, `run_names.ts`),
   * `reader` (the format's reader names it: lm-eval's model folder and date, …), `folder`
   * (one file per task in a folder, named after it) or `file` (its file's name).
   */
  grouping: "field" | "reader" | "folder" | "file";
  /** How its name was chosen (`run_names.ts`; null: not known, e.g. a summary of rows alone). */
  naming: RunNaming | null;
  /** Per file whose fields were detected or mapped: canonical field → where it was read from. */
  fields: Record<string, Record<string, string>>;
  /** Scored rows per data-set version other than the release (e.g. `{"lm-eval": 3}`). */
  data_versions: Record<string, number>;
  /** Its input rows: `rows_scored + rows_quarantined`. */
  rows_in: number;
  /** Rows scored (those with no answer found included, as wrong). */
  rows_scored: number;
  /** Rows set apart with a reason (see `quarantine_reasons`). */
  rows_quarantined: number;
  /**
   * Its quarantined rows by kind of reason (`reasonKind`: numbers and quoted values folded,
   * e.g. `{"example_index N out of range for nycc (N–N)": 3}`); they add up to
   * `rows_quarantined`, whatever number of files the run spans.
   */
  quarantine_reasons: Record<string, number>;
  /**
   * Scored rows whose response is empty: counted as wrong, as the official scorers do (an
   * empty answer is the model's failure; leaving it out would raise the accuracy).
   */
  empty_responses: number;
  /** Scored rows whose scorer found no answer (Σ of the tasks' `no_answer`). */
  no_answer: number;
  /** Per task, keys sorted by task name. */
  tasks: Record<string, TaskScore>;
  /** The benchmark's aggregates (e.g. BBEH: harmonic_mean, micro, mini_micro). */
  aggregate: BenchmarkAggregate;
  /** The 95% interval of each aggregate that has a value, naming its method. */
  intervals: Record<string, HeadlineCI>;
  /** How the log's own verdicts compare with ours. */
  stored_agreement: StoredAgreement;
}

/** A quarantined record as the summaries count it. */
export interface CountedQuarantine {
  file: string;
  line: number;
  reason: string;
  run: string;
  /** The benchmark it was tied to or names (null: none; see the module documentation). */
  benchmark: string | null;
}

/** A file as the summaries know it. */
export interface SummaryFile {
  file: string;
  format: string;
  rowsIn: number;
  /** The run of its records without a `run` field, and how it was chosen. */
  defaultRun?: string;
  grouping?: "folder" | "file";
  /** Canonical field → where it was read from (detected or `--map`). */
  fields?: Record<string, string> | null;
}

/**
 * What {@link summariseRuns} summarises.
 *
 * @internal `rescore` passes it back from `LoadedRuns.basis`; a script does not build one.
 */
export interface SummaryInput {
  /** Each file read: its format, the records it holds, how its runs were named. */
  files: readonly SummaryFile[];
  /**
   * Scored rows: `run`, `benchmark`, `task`, `example_index`, `correct`, `answer_found`,
   * `extracted`, `response_chars`, `stored_correct`, `tool_extracted`, `source_file`, `source_line`.
   */
  scored: pl.DataFrame;
  /** Every quarantined record. */
  quarantined: readonly CountedQuarantine[];
  /** Run → the model names its records carry (quarantined records too). */
  models: ReadonlyMap<string, ReadonlySet<string>>;
  /** Run → how it was named (`run_names.ts`); without it, runs named otherwise are `field`. */
  naming?: ReadonlyMap<string, RunNaming>;
  /** The scorer a benchmark's rows were scored with. */
  scorerOf(benchmark: string): string;
}

const key = (run: string, bench: string) => `${run}\u0000${bench}`;

/**
 * The summaries, sorted by run name, then benchmark. Throws (an internal error) when the row
 * counts do not balance for a file, a summary or in all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const file = "a.jsonl";
 * const input = {
 *   files: [{ file, format: "canonical-jsonl", rowsIn: 2 }],
 *   scored: pl.DataFrame({ run: ["a"], benchmark: ["bbh"], task: ["navigate"],
 *     example_index: [4], correct: [true], answer_found: [true], extracted: ["Yes"],
 *     response_chars: [40],
 *     stored_correct: [false], tool_extracted: ["No"], source_file: [file], source_line: [2] }),
 *   quarantined: [{ file, line: 1, reason: "missing response", run: "a", benchmark: "bbh" }],
 *   models: new Map([["a", new Set(["m2", "m1"])]]),
 *   scorerOf: () => "bbh-release-cot",
 * };
 * const [run] = summariseRuns(input);
 * assert.deepEqual([run.model, run.rows_in, run.stored_agreement.disagree], ["m1, m2", 2, 1]);
 * assert.equal(run.stored_agreement.examples[0].tool_extracted, "No");
 * // a file whose records do not add up is an internal error
 * assert.throws(() => summariseRuns({ ...input, files: [{ ...input.files[0], rowsIn: 3 }] }));
 * ```
 */
export function summariseRuns(input: SummaryInput): RunSummary[] {
  const scoredRows = input.scored;
  const counted = groupCounts(scoredRows);
  checkFiles(input, counted);
  const counts = countRows(input, counted);
  const accuracy = taskAccuracies(counted);
  const repeated = repeatedExamples(scoredRows);
  const aggregates = aggregateByRun(scoredRows, new Set(counted.map((g) => g.benchmark)).size);
  const agreements = storedAgreements(scoredRows);
  const empties = sumBy(counted, (g) => key(g.run, g.benchmark), (g) => g.empty);
  const noAnswers = sumBy(counted, (g) => key(g.run, g.benchmark), (g) => g.no_answer);
  const versions = dataVersions(scoredRows);
  const models = new Map(
    [...input.models].map(([run, names]) => [run, [...names].sort().join(", ")]),
  );
  // each run's task accuracies, found once (a filter per run took quadratic time: 2,848 runs)
  const accuracyOf = Map.groupBy(accuracy, (a) => key(a.run, a.benchmark));
  const runs = [...counts.keys()]
    .map((k) => k.split("\u0000") as [string, string])
    .sort(([r1, b1], [r2, b2]) => r1 < r2 ? -1 : r1 > r2 ? 1 : b1 < b2 ? -1 : b1 > b2 ? 1 : 0)
    .map(([run, benchmark]): RunSummary => {
      const k = key(run, benchmark);
      const c = counts.get(k)!;
      const runFiles = input.files.map((f) => f.file).filter((f) => c.files.has(f));
      const summary: RunSummary = {
        run,
        model: models.get(run) ?? run,
        benchmark,
        scorer: input.scorerOf(benchmark) || "none",
        files: runFiles,
        format: formatsOf(input, runFiles),
        grouping: groupingOf(input, run, runFiles),
        naming: input.naming?.get(run) ?? null,
        fields: fieldsOf(input, runFiles),
        data_versions: versions.get(k) ?? {},
        rows_in: c.rowsIn,
        rows_scored: c.scored,
        rows_quarantined: c.quarantined,
        quarantine_reasons: Object.fromEntries([...c.reasons].sort(byCountThenName)),
        empty_responses: empties.get(k) ?? 0,
        no_answer: noAnswers.get(k) ?? 0,
        tasks: Object.fromEntries(
          [...accuracyOf.get(k) ?? []].sort((a, b) => a.task < b.task ? -1 : 1)
            .map((a) => [
              a.task,
              taskScore(a, repeated.get(JSON.stringify([a.run, a.benchmark, a.task]))),
            ]),
        ),
        aggregate: aggregates.get(k)?.aggregate ?? emptyAggregate(benchmark),
        intervals: aggregates.get(k)?.intervals ?? {},
        stored_agreement: agreements.get(k) ?? { n: 0, agree: 0, disagree: 0, examples: [] },
      };
      checkRowBalance(`run ${run} (${benchmark})`, c.rowsIn, c.scored, c.quarantined);
      return summary;
    });
  const totalIn = runs.reduce((s, r) => s + r.rows_in, 0);
  checkRowBalance("all runs", totalIn, scoredRows.height, input.quarantined.length);
  return runs;
}

/** Rows in, scored and quarantined, and the files, of one (run, benchmark). */
interface RunCounts {
  rowsIn: number;
  scored: number;
  quarantined: number;
  /** Quarantined rows by {@link reasonKind}. */
  reasons: Map<string, number>;
  files: Set<string>;
}

/** The counts of every (run, benchmark) that has rows in, scored or quarantined. */
function countRows(input: SummaryInput, counted: readonly GroupCount[]): Map<string, RunCounts> {
  const benchmarkOf = rowBenchmark(
    counted.map((g) => ({ run: g.run, file: g.source_file, benchmark: g.benchmark })),
    input.quarantined,
  );
  const counts = new Map<string, RunCounts>();
  const at = (run: string, bench: string) => {
    const k = key(run, bench);
    if (!counts.has(k)) {
      counts.set(k, { rowsIn: 0, scored: 0, quarantined: 0, reasons: new Map(), files: new Set() });
    }
    return counts.get(k)!;
  };
  for (const q of input.quarantined) {
    const c = at(q.run, benchmarkOf(q.run, q.benchmark, q.file));
    c.rowsIn++;
    c.quarantined++;
    const kind = reasonKind(q.reason);
    c.reasons.set(kind, (c.reasons.get(kind) ?? 0) + 1);
    c.files.add(q.file);
  }
  for (const g of counted) {
    const c = at(g.run, g.benchmark);
    c.rowsIn += g.rows;
    c.scored += g.rows;
    c.files.add(g.source_file);
  }
  return counts;
}

/** Most frequent first, then by name (a deterministic order of reason counts). */
function byCountThenName(a: [string, number], b: [string, number]): number {
  return b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
}

/** The benchmark of a run whose records tie to none (all quarantined, nothing says which). */
export const UNKNOWN_BENCHMARK = "unknown";

/**
 * The benchmark a row (or a quarantined record) of a run counts against: its own when it
 * names a scored benchmark; else the only benchmark of the scored rows of its file and run
 * (else of all its records there that name one); else the same of its file (any run: a line
 * that is no record in a file of BBH rows is BBH's); else of its run; else
 * {@link UNKNOWN_BENCHMARK} — never a default benchmark, which would report a BBH log's
 * records under BBEH (issue 14, item 5). Exported for `keep_benchmarks.ts`, which must leave
 * out a quarantined record with the summary that counts it.
 */
export function rowBenchmark(
  scored: readonly { run: string; file: string; benchmark: string }[],
  quarantined: readonly { run: string; file: string; benchmark: string | null }[],
): (run: string, bench: string | null, file: string) => string {
  const scoredNames = new Set(loadableBenchmarks().map((b) => b.name));
  const seen = new Map<string, Set<string>>();
  const places = (run: string, file: string) => [`${run}\u0000${file}`, `\u0000${file}`, run];
  const note = (tier: string, rows: typeof quarantined) => {
    for (const { run, file, benchmark } of rows) {
      for (const place of places(run, file)) {
        const k = tier + place;
        if (!seen.has(k)) seen.set(k, new Set());
        if (benchmark !== null && scoredNames.has(benchmark)) seen.get(k)!.add(benchmark);
      }
    }
  };
  note("scored:", scored);
  note("any:", [...scored, ...quarantined]);
  const only = (set: Set<string> | undefined) => set?.size === 1 ? [...set][0] : null;
  return (run, bench, file) => {
    if (bench !== null && scoredNames.has(bench)) return bench;
    for (const place of places(run, file)) {
      for (const tier of ["scored:", "any:"]) {
        const b = only(seen.get(tier + place));
        if (b !== null) return b;
      }
    }
    return UNKNOWN_BENCHMARK;
  };
}

/** Per file: records in the file = scored rows from it + quarantined rows from it. */
function checkFiles(input: SummaryInput, counted: readonly GroupCount[]): void {
  const scoredByFile = sumBy(counted, (g) => g.source_file, (g) => g.rows);
  const quarantinedByFile = new Map<string, number>();
  for (const q of input.quarantined) {
    quarantinedByFile.set(q.file, (quarantinedByFile.get(q.file) ?? 0) + 1);
  }
  for (const { file, rowsIn } of input.files) {
    checkRowBalance(file, rowsIn, scoredByFile.get(file) ?? 0, quarantinedByFile.get(file) ?? 0);
  }
}

/** The formats `files` were read as, sorted, joined with ", ". */
function formatsOf(input: SummaryInput, files: string[]): string {
  const formats = new Set(input.files.filter((f) => files.includes(f.file)).map((f) => f.format));
  return [...formats].sort().join(", ");
}

/**
 * How a run was formed: `reader` when a reader's `run` named it (no generic log among its
 * files), `field` when a record field did, else `folder` or `file` (its files' default run).
 */
function groupingOf(input: SummaryInput, run: string, files: string[]): RunSummary["grouping"] {
  const of = input.files.filter((f) => files.includes(f.file));
  const how = input.naming?.get(run);
  if (how === "run" && of.length > 0 && of.every((f) => !GENERIC_FORMATS.has(f.format))) {
    return "reader";
  }
  if (how !== undefined && how !== "default") return "field";
  if (of.length === 0 || of.some((f) => f.defaultRun !== run)) return "field";
  return of.some((f) => f.grouping === "folder") ? "folder" : "file";
}

/** The detected or mapped fields of a run's files. */
function fieldsOf(input: SummaryInput, files: string[]): Record<string, Record<string, string>> {
  return Object.fromEntries(
    input.files.filter((f) => files.includes(f.file) && f.fields).map((f) => [f.file, f.fields!]),
  );
}

/** Scored rows per (run, benchmark) and data-set version other than the release. */
function dataVersions(rows: pl.DataFrame): Map<string, Record<string, number>> {
  const out = new Map<string, Record<string, number>>();
  if (!rows.columns.includes("data_version")) return out;
  const counts = rows.filter(pl.col("data_version").isNotNull())
    .groupBy("run", "benchmark", "data_version").agg(pl.len().alias("n"))
    .sort("data_version").toRecords() as {
      run: string;
      benchmark: string;
      data_version: string;
      n: number;
    }[];
  for (const c of counts) {
    const k = key(c.run, c.benchmark);
    out.set(k, { ...(out.get(k) ?? {}), [c.data_version]: Number(c.n) });
  }
  return out;
}

/** Scored rows of one (run, benchmark, source file, task). */
interface GroupCount {
  run: string;
  benchmark: string;
  source_file: string;
  task: string;
  /** Rows. */
  rows: number;
  /** Rows with a verdict, and of those correct. */
  n: number;
  correct: number;
  /** Rows with an empty response. */
  empty: number;
  /** Rows whose scorer found no answer. */
  no_answer: number;
}

/**
 * The counts per (run, benchmark, source file, task): the one group-by over all rows that the
 * row balance, the task accuracies and the empty responses share (three passes before).
 */
function groupCounts(scored: pl.DataFrame): GroupCount[] {
  return (scored.groupBy("run", "benchmark", "source_file", "task").agg(
    pl.len().alias("rows"),
    pl.col("correct").count().alias("n"),
    pl.col("correct").cast(pl.Int32).sum().alias("correct"),
    pl.col("response_chars").eq(0).cast(pl.Int32).sum().alias("empty"),
    pl.col("answer_found").eq(false).cast(pl.Int32).sum().alias("no_answer"),
  ).toRecords() as unknown as GroupCount[]).map((g) => ({
    ...g,
    rows: Number(g.rows),
    n: Number(g.n),
    correct: Number(g.correct),
    empty: Number(g.empty),
    no_answer: Number(g.no_answer),
  }));
}

/** Σ `value` over the groups with each `keyOf`. */
function sumBy(
  groups: readonly GroupCount[],
  keyOf: (g: GroupCount) => string,
  value: (g: GroupCount) => number,
): Map<string, number> {
  const out = new Map<string, number>();
  for (const g of groups) out.set(keyOf(g), (out.get(keyOf(g)) ?? 0) + value(g));
  return out;
}

/** The counts of one (run, benchmark, task). */
export interface TaskCounts {
  run: string;
  benchmark: string;
  task: string;
  n: number;
  correct: number;
  no_answer: number;
}

/**
 * Task accuracies per (run, benchmark, task) — `taskAccuracy` of lib/benchmarks/bbeh/aggregate.ts
 * (rows with a verdict, correct ones, `correct × 100 / n`) from the group counts.
 */
function taskAccuracies(
  groups: readonly GroupCount[],
): (TaskCounts & { accuracy: number })[] {
  const sums = new Map<string, TaskCounts>();
  for (const g of groups) {
    const k = JSON.stringify([g.run, g.benchmark, g.task]);
    const s = sums.get(k) ??
      { run: g.run, benchmark: g.benchmark, task: g.task, n: 0, correct: 0, no_answer: 0 };
    s.n += g.n, s.correct += g.correct, s.no_answer += g.no_answer;
    sums.set(k, s);
  }
  return [...sums.values()].map((s) => ({ ...s, accuracy: (s.correct * 100) / s.n }));
}

/** The aggregate of a benchmark's summary without scored rows. */
function emptyAggregate(benchmark: string): BenchmarkAggregate {
  const none = pl.DataFrame({
    task: pl.Series("task", [], pl.Utf8),
    example_index: pl.Series("example_index", [], pl.Int32),
    correct: pl.Series("correct", [], pl.Bool),
  });
  const aggregate = getBenchmark(benchmark)?.aggregate?.(none);
  return aggregate ?? { coverage: "none", note: "no record was scored or tied to a benchmark" };
}

/**
 * Task counts with the accuracy's 95% Wilson interval (percent); `examples` when some example
 * of the task has several rows: the accuracy and interval of its per-example means.
 */
function taskScore(
  a: { n: number; correct: number; no_answer: number; accuracy: number },
  examples: ExampleSummary | undefined,
): TaskScore {
  const counts = { n: a.n, correct: a.correct, no_answer: a.no_answer };
  if (examples) {
    const ci = wilsonOfExamples(examples)!;
    return { ...counts, accuracy: ci.estimate, ci_low: ci.low, ci_high: ci.high };
  }
  const ci = wilsonInterval(a.correct, a.n)!;
  return { ...counts, accuracy: a.accuracy, ci_low: ci.low, ci_high: ci.high };
}

/**
 * Whether no example can have several rows, known without grouping a million rows (280 ms):
 * the merge keeps one row per (run, benchmark, task, example, epoch), so rows that all share
 * one epoch and carry no example ids are one per example.
 */
function oneRowPerExample(scored: pl.DataFrame): boolean {
  if (!scored.columns.includes("epoch")) return false;
  const ids = scored.columns.includes("example_id") ? scored.getColumn("example_id") : null;
  if (ids !== null && ids.nullCount() < scored.height) return false;
  const epoch = scored.getColumn("epoch");
  return epoch.nullCount() === 0 && epoch.min() === epoch.max();
}

/**
 * The per-example summary of every (run, benchmark, task) — key `JSON.stringify([run,
 * benchmark, task])` — that has an example with several rows (epochs); tasks without are
 * left out (their rows are their examples).
 */
function repeatedExamples(scored: pl.DataFrame): Map<string, ExampleSummary> {
  const out = new Map<string, ExampleSummary>();
  if (scored.height === 0 || oneRowPerExample(scored)) return out;
  const keys = ["run", "benchmark", "task"];
  const m = pl.col("m");
  const perTask = scored.select(...keys, "example_index", "correct")
    .filter(pl.col("correct").isNotNull())
    .groupBy([...keys, "example_index"])
    .agg(pl.len().alias("rows"), pl.col("correct").cast(pl.Float64).mean().alias("m"))
    .groupBy(keys)
    .agg(
      pl.len().alias("examples"),
      pl.col("rows").sum().alias("rows"),
      m.mean().alias("mean"),
      m.sub(m.mean()).pow(2).mean().alias("variance"),
    )
    .filter(pl.col("rows").gt(pl.col("examples")));
  for (const r of perTask.toRecords() as Record<string, unknown>[]) {
    out.set(JSON.stringify([r.run, r.benchmark, r.task]), {
      examples: Number(r.examples),
      rows: Number(r.rows),
      mean: r.mean as number,
      variance: Math.max(0, r.variance as number),
    });
  }
  return out;
}

/** The aggregate (and its intervals) of every (run, benchmark); `benchmarks`: how many there are. */
function aggregateByRun(
  rows: pl.DataFrame,
  benchmarks: number,
): Map<string, { aggregate: BenchmarkAggregate; intervals: Record<string, HeadlineCI> }> {
  const out = new Map<
    string,
    { aggregate: BenchmarkAggregate; intervals: Record<string, HeadlineCI> }
  >();
  if (rows.height === 0) return out;
  const cols = rows.select("run", "benchmark", "task", "example_index", "correct");
  // one benchmark (the usual case): no partition, which copies every row
  for (const part of benchmarks === 1 ? [cols] : cols.partitionBy("benchmark", true, true)) {
    const benchmark = firstValue(part, "benchmark") as string;
    const b = getBenchmark(benchmark)!;
    // the same frame to aggregates and intervals: BBEH checks its rows once for both
    const runs = b.aggregateRuns?.(part) ?? perRun(part, b);
    // intervals only where there is a value to bound (never for a partial run)
    const bounded = new Map(
      [...runs].filter(([, aggregate]) =>
        (b.aggregateKeys ?? []).some(({ key }) => typeof aggregate[key] === "number")
      ),
    );
    const intervalsOf = runIntervals(part, b, bounded);
    for (const [run, aggregate] of runs) {
      const intervals = intervalsOf.get(run) ?? {};
      out.set(key(run, benchmark), { aggregate, intervals });
    }
  }
  return out;
}

const ROW_KEYS = ["task", "example_index", "correct"];

/** The intervals of each run of `aggregates`: all runs at once when the benchmark can. */
function runIntervals(
  rows: pl.DataFrame,
  b: Benchmark,
  aggregates: ReadonlyMap<string, BenchmarkAggregate>,
): Map<string, Record<string, HeadlineCI>> {
  if (aggregates.size === 0) return new Map();
  if (b.aggregateRunsIntervals) return b.aggregateRunsIntervals(rows, aggregates);
  const out = new Map<string, Record<string, HeadlineCI>>();
  if (!b.aggregateIntervals) return out;
  for (const [run, part] of framesByRun(rows, [...aggregates.keys()])) {
    out.set(run, b.aggregateIntervals(part.select(...ROW_KEYS), aggregates.get(run)!));
  }
  return out;
}

/** A benchmark's aggregate of each run, one run at a time. */
function perRun(rows: pl.DataFrame, b: Benchmark): Map<string, BenchmarkAggregate> {
  const out = new Map<string, BenchmarkAggregate>();
  for (const [run, part] of framesByRun(rows)) out.set(run, b.aggregate!(part.select(...ROW_KEYS)));
  return out;
}

/** Stored-verdict agreement of every (run, benchmark) with rows that carry one. */
function storedAgreements(rows: pl.DataFrame): Map<string, StoredAgreement> {
  const out = new Map<string, StoredAgreement>();
  // the columns first: an lm-eval load stores a verdict on every row, and filtering all
  // columns would copy the whole frame
  const withStored = rows.select(
    "run",
    "benchmark",
    "source_file",
    "source_line",
    "task",
    "example_index",
    "extracted",
    "tool_extracted",
    "stored_correct",
    "correct",
  ).filter(pl.col("stored_correct").isNotNull());
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
      "tool_extracted",
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
