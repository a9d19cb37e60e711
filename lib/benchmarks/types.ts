/**
 * What defines a benchmark for runlens: one value of type {@link Benchmark} per folder of
 * `lib/benchmarks/`, registered in `registry.ts`. The pipeline (`lib/pipeline/`) knows no
 * benchmark by name: it reads a row's `benchmark`, looks it up in the registry, and uses what
 * the value provides — task names, the data set, scorers, aggregates, analyses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import type { Benchmark } from "@runlens/benchmarks/types.ts";
 * const toy: Benchmark = {
 *   name: "toy",
 *   label: "Toy",
 *   description: "Two arithmetic questions.",
 *   tasks: [{ name: "add", size: 2 }],
 *   canonicalTask: (label) => label.trim() === "add" ? "add" : null,
 *   loadDataset: () =>
 *     pl.DataFrame({
 *       task: ["add", "add"],
 *       example_index: [0, 1],
 *       input: ["1+1?", "2+2?"],
 *       target: ["2", "4"],
 *     }),
 *   defaultScorer: "stored",
 *   scorers: [],
 * };
 * assert.equal(toy.canonicalTask(" add "), "add");
 * assert.equal(toy.loadDataset!("unused").height, toy.tasks[0].size); // 2
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import type { ScalarScorer, Scorer } from "../scorers/types.ts";
import type { HeadlineCI } from "../stats/headline_ci.ts";
import type { ReportSection } from "../render/document.ts";
import type { DataSource } from "../data/fetch.ts";
import type { LogFormat } from "../logs/discover.ts";

/** One task of a benchmark. */
export interface BenchmarkTask {
  /** Canonical name, as rows carry it (e.g. `boardgame_qa`). */
  name: string;
  /** Name in the paper's tables, when it differs (e.g. "BoardgameQA"). */
  display?: string;
  /** Examples in the released data set (null: not known offline). */
  size: number | null;
}

/**
 * The headline numbers of one run of a benchmark. `coverage` and `note` are always present;
 * the other keys are the benchmark's own (e.g. BBEH: `harmonic_mean`, `micro`, `mini_micro`).
 */
export interface BenchmarkAggregate {
  /** Which part of the data set the run covers (e.g. "full", "mini", "partial"). */
  coverage: string;
  /** Why aggregates are missing, or how repeated rows were counted; null when nothing to say. */
  note: string | null;
  [aggregate: string]: number | string | null;
}

/** Where the analyses of a benchmark find what they need besides the rows. */
export interface AnalysisContext {
  /** The data directory (data sets of this and other benchmarks). */
  dataDir: string;
}

/** A benchmark's analyses of scored rows: tables, and a per-run summary of them. */
export interface BenchmarkAnalyses {
  /** Every analysis table of the rows (DataFrame → DataFrames), keyed by analysis name. */
  tables(rows: pl.DataFrame, ctx: AnalysisContext): Record<string, pl.DataFrame | null>;
  /** Per run, the headline measures of `tables` (what `runlens analyze --json` prints). */
  summary(tables: Record<string, pl.DataFrame | null>): Record<string, object>;
  /** Notes on what was skipped and why (e.g. a data set missing from the data directory). */
  notes?(ctx: AnalysisContext): string[];
  /** A title for each table of {@link tables} (reports show it; default: the key). */
  titles?: Readonly<Record<string, string>>;
}

/**
 * What a benchmark adds to `runlens report` (`lib/report/`), which names no benchmark: every
 * hook is optional, and without them a benchmark's runs get the generic sections (runs,
 * per-task accuracy, comparisons, its {@link BenchmarkAnalyses}, the example browser).
 */
export interface BenchmarkReport {
  /**
   * The benchmark's own sections, from its scored rows (only its own): e.g. its leaderboard
   * beside the paper's models. They are shown after the runs, as the report's leaderboard.
   * Asynchronous, so that the modules that draw figures load only when a report is built.
   */
  sections?(rows: pl.DataFrame, ctx: AnalysisContext): Promise<ReportSection[]>;
  /**
   * A failure class of the benchmark's own for the example browser, over its wrong rows
   * (`response`, `extracted`, `answer_found`, …): the class's label where it applies (e.g.
   * "degenerate output"), null where the generic classes do ("no final answer" when the scorer
   * found no answer, else "wrong answer").
   */
  failureLabel?(): pl.Expr;
  /**
   * The subset label of each released example, for the example browser: columns `task`,
   * `example_index` (Int32), `subset` (Utf8), one row per example.
   */
  subsetLabels?(ctx: AnalysisContext): pl.DataFrame;
  /**
   * Whether the report shows the answer-format sensitivity of the benchmark's runs (accuracy
   * under every rule that applies, `lib/analyses/format_sensitivity.ts`) when the rules
   * disagree by a point or more on some task.
   */
  formatSensitivity?: boolean;
}

/** One released example: the question text and the target, as the task file holds them. */
export interface Example {
  input: string;
  target: string;
}

/** A benchmark's released examples by canonical task name, in task-file order. */
export type ExampleSet = Record<string, readonly Example[]>;

/**
 * Another published version of some examples of a benchmark: e.g. the copy of BBH that
 * lm-evaluation-harness reads, which repairs three items of the GitHub release. A logged row
 * whose question and target match an item of a known version is scored against that version
 * and flagged with its name (`data_version`).
 */
export interface DataVersion {
  /** Short name, recorded on rows (e.g. `lm-eval`). */
  name: string;
  /** Where this version is published and where the differences were read from. */
  source: string;
  /** The examples that differ from the release: both versions' input and target. */
  items: readonly {
    task: string;
    index: number;
    input: string;
    target: string;
    /** What differs, in a sentence. */
    note: string;
  }[];
}

/**
 * How evaluation tools name a benchmark and its tasks: lm-evaluation-harness task names
 * (`bbh_cot_fewshot_snarks`), inspect eval names (`bbeh_mini`), OpenCompass dataset
 * abbreviations (`bbh-navigate`), mcpbr instance ids and OpenAI evals names without their index.
 * Log readers keep these labels as the tool wrote them; `pipeline/labels.ts` resolves them.
 */
export interface ToolNames {
  /** Names of the whole benchmark besides its own (an inspect eval, a `benchmark` value). */
  aliases?: readonly string[];
  /**
   * Task labels as tools write them, each pattern with a named group `task` (the label
   * `canonicalTask` then reads), the most specific first. Of the patterns of all benchmarks
   * that match a label, the first whose task `canonicalTask` knows wins, else the first.
   */
  tasks?: readonly RegExp[];
}

/**
 * The polars-free part of a benchmark: what the streaming path's scoring Workers load to tie
 * rows to examples and score them (a Worker must not import polars: it costs ~0.4 s each).
 */
export interface BenchmarkScoring {
  /** Registry name and the `benchmark` value of its rows, lower case (e.g. `bbeh`). */
  name: string;
  /** How messages and tables name it (e.g. "BBEH"). */
  label: string;
  /** Its tasks, in the order of its release. */
  tasks: readonly BenchmarkTask[];
  /** The canonical task name of a label as logs write it (display names too); null: none. */
  canonicalTask(label: string): string | null;
  /** The released examples from a data directory; throws naming a missing or bad file. */
  readExamples(dataDir: string): ExampleSet;
  /** How evaluation tools name it and its tasks. */
  toolNames?: ToolNames;
  /** Log formats of its own (e.g. its release's model outputs): detector and reader each. */
  formats?: readonly LogFormat[];
  /** Examples whose released input is cut short (a logged input may hold the whole question). */
  truncatedInputs?: readonly { task: string; index: number }[];
  /** Other published versions of some examples. */
  dataVersions?: readonly DataVersion[];
  /** Whether a logged target is the released one (default: `pipeline/examples.ts` sameTarget). */
  sameTarget?(logged: string, released: string): boolean;
  /** The benchmark's own rule, used unless another scorer is chosen. */
  defaultScorer: string;
  /** Its scorers' scalar forms. */
  scorers: readonly ScalarScorer[];
  /**
   * The benchmark of records that name none when several benchmarks fit them equally (an
   * index into a task name two benchmarks share): the canonical format's documented default.
   * At most one registered benchmark sets it.
   */
  canonicalDefault?: true;
}

/** One benchmark: everything the pipeline, the CLI and the notebooks need to know about it. */
export interface Benchmark {
  /** Registry name and the `benchmark` value of its rows, lower case (e.g. `bbeh`). */
  name: string;
  /** How messages and tables name it (e.g. "BBEH"). */
  label: string;
  /** One sentence: what it is and where it comes from. */
  description: string;
  /**
   * Where its released data comes from (the folder `runlens fetch-data` fills, the pinned
   * repositories, its manifest). Absent: no public data set to fetch.
   */
  data?: DataSource;
  /** Its tasks, in the order of its release. */
  tasks: readonly BenchmarkTask[];
  /**
   * Where it is listed among the benchmarks (`benchmarks()`, scorer lists, reports): lower
   * first; benchmarks without one come after, by name.
   */
  listOrder?: number;
  /** The canonical task name of a label as logs write it (display names too); null: none. */
  canonicalTask(label: string): string | null;
  /** See {@link BenchmarkScoring.canonicalDefault}. */
  canonicalDefault?: true;
  /** How evaluation tools name it and its tasks. */
  toolNames?: ToolNames;
  /** See {@link BenchmarkScoring.formats}. */
  formats?: readonly LogFormat[];
  /**
   * The released examples from a data directory: columns `task`, `example_index` (0-based
   * position in the task file), `input`, `target` (and `input_chars` when known). Absent when
   * the data set is not available offline (rows then cannot be tied to examples).
   */
  loadDataset?(dataDir: string): pl.DataFrame;
  /**
   * Examples whose released input is known to be cut short: a logged input whose last
   * question starts with it still matches.
   */
  truncatedInputs?: readonly { task: string; index: number }[];
  /** Other published versions of some examples (rows that match one carry its name). */
  dataVersions?: readonly DataVersion[];
  /**
   * The scorer used unless another is asked for: the benchmark's official rule. Absent when
   * the pipeline does not score its rows (they need a command of their own, e.g. `runlens arb`).
   */
  defaultScorer?: string;
  /** Scorers defined with this benchmark (official rules, ports of tools' rules). */
  scorers: readonly Scorer[];
  /**
   * Where the benchmark's polars-free scoring part is: the absolute URL of a module whose
   * `scoring` export is a {@link BenchmarkScoring} (e.g. `lib/benchmarks/bbeh/scoring.ts`). A
   * scoring Worker does `(await import(url)).scoring`, so it needs no per-benchmark code and
   * never loads this module's polars parts. Absent: the benchmark is not scored in Workers.
   */
  scoringModule?: string;
  /** Headline aggregates of ONE run's scored rows (`task`, `example_index`, `correct`). */
  aggregate?(rows: pl.DataFrame): BenchmarkAggregate;
  /**
   * {@link aggregate} of every run of rows that carry a `run` column, by run — the same
   * values, in a few passes (a folder of thousands of runs). Absent: `aggregate` per run.
   */
  aggregateRuns?(rows: pl.DataFrame): Map<string, BenchmarkAggregate>;
  /**
   * The numeric keys of {@link aggregate}'s result, in the order reports show them, each with
   * the label the text report prints (e.g. `micro` → "BBH micro (correct / 6,511)").
   */
  aggregateKeys?: readonly { key: string; label: string; unit?: string }[];
  /**
   * 95% intervals of the aggregates `aggregate` gave for the same rows (keys of
   * {@link aggregateKeys} with a value), each naming its method.
   */
  aggregateIntervals?(
    rows: pl.DataFrame,
    aggregate: BenchmarkAggregate,
  ): Record<string, HeadlineCI>;
  /**
   * {@link aggregateIntervals} of every run of rows that carry a `run` column, given each
   * run's aggregate — the same values, in one pass over all rows. Absent: per run.
   */
  aggregateRunsIntervals?(
    rows: pl.DataFrame,
    aggregates: ReadonlyMap<string, BenchmarkAggregate>,
  ): Map<string, Record<string, HeadlineCI>>;
  /** Analyses of scored rows (failure modes, subsets, …). */
  analyses?: BenchmarkAnalyses;
  /** What the benchmark adds to the report. */
  report?: BenchmarkReport;
}
