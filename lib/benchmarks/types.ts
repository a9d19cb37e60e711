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
 *   readExamples: () => ({ add: [{ input: "1+1?", target: "2" }, { input: "2+2?", target: "4" }] }),
 *   defaultScorer: "stored",
 *   scorers: [],
 * };
 * assert.equal(toy.canonicalTask(" add "), "add");
 * assert.equal(toy.readExamples!("unused").add.length, toy.tasks[0].size); // 2
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import type { ScalarScorer, Scorer } from "../scorers/types.ts";
import type { HeadlineCI } from "../stats/headline_ci.ts";
import type { ReportFigure, ReportSection } from "../render/document.ts";
import type { DataSource } from "../data/fetch.ts";
import type { LogFormat } from "../logs/discover.ts";
import type { Command } from "../core/command.ts";
import type { QuarantineEntry } from "../logs/quarantine.ts";

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
  /** The benchmark's own aggregates by name (a number, or null when it cannot be computed). */
  [aggregate: string]: number | string | null;
}

/** Where the analyses of a benchmark find what they need besides the rows. */
export interface AnalysisContext {
  /** The data directory (data sets of this and other benchmarks). */
  dataDir: string;
  /** The load's data sets, each read once (`pipeline/data_sets.ts`); absent: read `dataDir`. */
  dataSets?: DataSetsView;
}

/** The data sets of one load, each read once: examples and their frame, by benchmark name. */
export interface DataSetsView {
  /** The benchmark's released examples (throws naming a missing or bad file). */
  examples(benchmark: string): ExampleSet;
  /** Its examples as a frame (`task`, `example_index`, `input`, `target`, `input_chars`, …). */
  frame(benchmark: string): pl.DataFrame;
  /**
   * Its examples of `tasks` alone, with at least `frame`'s first five columns (absent: the
   * caller filters `frame`): a few rows' examples need not make the whole frame.
   */
  tasksFrame?(benchmark: string, tasks: readonly string[]): pl.DataFrame;
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
  /**
   * The shares `runlens analyze` prints per run: the key of {@link summary} that holds them
   * (each a share with its count, n and 95% interval), and the measures to print, in order.
   */
  headline?: { key: string; measures: readonly string[] };
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
   * Figures of the benchmark's analysis tables (`BenchmarkAnalyses.tables` of its rows, as
   * computed for the report), shown before those tables: e.g. failure-mode shares per task
   * and run; `runLabel` names the runs as the report's tables do. Asynchronous for the reason
   * `sections` is.
   */
  analysisFigures?(
    tables: Record<string, pl.DataFrame | null>,
    ctx: AnalysisContext,
    runLabel: (run: string) => string,
  ): Promise<ReportFigure[]>;
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
  /** The question text. */
  input: string;
  /** The target answer. */
  target: string;
  /** A label of a part of its task, when the file gives one (BBEH spatial items' `subtask`). */
  subset?: string;
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
 * A field of a benchmark's own records beyond the canonical ones (an id, a subject, an
 * annotation): generic logs' readers read it by name (or where `--map` says), the check step
 * runs its `parse`, and the row keeps the parsed value in its `extra` JSON — or, with `as`, in
 * the field it is another name of.
 */
export interface RecordField {
  /** The key or column name it is read from by default; also a `--map` key. */
  name: string;
  /**
   * The field it is another name of: a canonical field (`subject` → `task`, `reference` →
   * `target`) or a row column (`example_id`, `subset`).
   */
  as?: string;
  /** A record carrying it is this benchmark's (a file whose records carry it, too). */
  implies?: true;
  /** The value normalised; throws when it is not one (the message is the quarantine reason). */
  parse?(value: unknown): unknown;
}

/**
 * How a benchmark's records are read and tied to examples beyond the generic rules; every
 * field is optional, and absent means the generic rule.
 */
export interface RecordRules {
  /**
   * `position` (default): rows are tied to the released examples (by index or question);
   * `id`: rows carry an `example_id` and their own input and target (no released data set is
   * consulted: tied by task and id).
   */
  identity?: "position" | "id";
  /** Fields of its records beyond the canonical ones. */
  recordFields?: readonly RecordField[];
  /** Fields whose presence in a file's first records makes the file this benchmark's. */
  recordSignature?: readonly string[];
  /** `row`: a record without a response is a row (scored as such), not quarantined. */
  nullResponse?: "quarantine" | "row";
  /**
   * `row`: a row its scorer gives no verdict for (`correct` null: graded by hand, e.g. a proof)
   * is a row with `correct` null, not quarantined.
   */
  nullVerdict?: "quarantine" | "row";
  /**
   * Whether a record of this subset may lack a target (rows tied by id carry their own; a
   * proof graded by hand has none): its target is then "". Absent: a target is required.
   */
  targetOptional?(subset: string | null): boolean;
  /** Whether a logged target is the released one (default: `pipeline/examples.ts` sameTarget). */
  sameTarget?(logged: string, released: string): boolean;
}

/**
 * The polars-free part of a benchmark: what the streaming path's scoring Workers load to tie
 * rows to examples and score them (a Worker must not import polars: it costs ~0.4 s each).
 */
export interface BenchmarkScoring extends RecordRules {
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
  /**
   * The benchmark's own rule, used unless another scorer is chosen. Absent: the user must
   * choose one (`--scorer <benchmark>=NAME`), e.g. when the rule depends on a convention of the
   * logs the benchmark cannot guess.
   */
  defaultScorer?: string;
  /** Its scorers' scalar forms. */
  scorers: readonly ScalarScorer[];
  /**
   * Load what its scorers need before they score (a library too costly to load with the
   * registry); the scoring state awaits it. Absent: nothing to load.
   */
  prepare?(): Promise<void>;
  /**
   * The benchmark of records that name none when several benchmarks fit them equally (an
   * index into a task name two benchmarks share): the canonical format's documented default.
   * At most one registered benchmark sets it.
   */
  canonicalDefault?: true;
}

/** One benchmark: everything the pipeline, the CLI and the notebooks need to know about it. */
export interface Benchmark extends RecordRules {
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
   * The released examples from a data directory (the scoring part's, see
   * {@link BenchmarkScoring.readExamples}). Absent when the data set is not available offline
   * (rows then cannot be tied to examples).
   */
  readExamples?(dataDir: string): ExampleSet;
  /**
   * Its examples as a frame, derived from what {@link readExamples} gave (never a second read):
   * `task`, `example_index`, `input`, `target`, `input_chars` and the benchmark's own columns.
   * Absent: those five columns.
   */
  datasetFrame?(examples: ExampleSet, dataDir: string): pl.DataFrame;
  /** Typed columns its rows' `extra` JSON expands to (`benchmarkRows`). */
  columns?: Readonly<Record<string, pl.DataType>>;
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
  /** See {@link BenchmarkScoring.prepare}: awaited before its scorers score in this thread. */
  prepare?(): Promise<void>;
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
  /**
   * First-mistake outcomes of the benchmark's scored rows (only its own, `response` read):
   * the answers to "where is the first mistake in this trace?" among them, classified against
   * the annotated traces (`runlens bbm`, `lib/analyses/mistake_finding.ts`). Null: none of
   * its rows is such an answer.
   */
  mistakeFinding?(rows: pl.DataFrame, ctx: AnalysisContext): MistakeFinding | null;
  /**
   * Commands of its own (`runlens <word>`): command word → URL of a module whose `command`
   * export is a {@link BenchmarkCommand}. URLs, so `runlens --help` loads no command's graph.
   */
  commands?: Readonly<Record<string, string>>;
}

/** The first-mistake answers among a benchmark's rows ({@link Benchmark.mistakeFinding}). */
export interface MistakeFinding {
  /**
   * One row per answer: `run`, `model`, `source` (the benchmark), `bbeh_task`,
   * `example_index`, `task` and `trace_index` (the annotated trace), `response`, then the
   * classification (`outcome`, `location_correct`, … of `bbm/classify.ts`), `source_file`,
   * `source_line`. Null: none could be classified.
   */
  classified: pl.DataFrame | null;
  /** Its rows that are no first-mistake answer or could not be classified, and why. */
  leftOut: QuarantineEntry[];
}

/**
 * What a benchmark command asks to load: its log paths, and the load choices it makes itself
 * (a scorer named by its own flag; rows without a scorer quarantined rather than an error).
 * The command line's load options (`--data`, `--map`, `--workers`, …) are added by the CLI.
 */
export interface BenchmarkLoadRequest {
  paths: readonly string[];
  /** The scorer of this benchmark's rows (default: the command line's, else the default). */
  scorer?: string;
  /** Rows no scorer applies to: quarantined with the reason instead of stopping the load. */
  unscored?: "quarantine";
  /**
   * How the user chooses the scorer of this benchmark's rows with this command (its own
   * flag), said when rows have none (default: `--scorer <benchmark>=NAME`).
   */
  scorerHint?: string;
  /**
   * Other benchmarks whose rows the logs may hold (default: none): rows are tied among this
   * one and these, row by row, and {@link BenchmarkRuns.others} holds theirs.
   */
  with?: readonly string[];
}

/** One file a benchmark command's load read. */
export interface BenchmarkRunsFile {
  /** Its path, as rows (`source_file`) and quarantine entries name it. */
  file: string;
  /** Records read from it (scored or quarantined). */
  rowsIn: number;
  /** The benchmark its records' own fields name (`Benchmark.recordSignature`), or null. */
  benchmark: string | null;
}

/** This benchmark's rows of the loaded logs, as a benchmark command receives them. */
export interface BenchmarkRuns {
  /** The scored rows of this benchmark (the row schema plus {@link Benchmark.columns}). */
  rows: pl.DataFrame;
  /** Every quarantined line of the logs, with its reason. */
  quarantine: readonly QuarantineEntry[];
  /** Records read from every file (rows of every benchmark + quarantine). */
  rowsIn: number;
  /** Each file read (not those of {@link errors}), in load order. */
  files: readonly BenchmarkRunsFile[];
  /** The files that could not be read, with the reason (the CLI prints them and exits 1). */
  errors: readonly { file: string; reason: string }[];
  /** The runs' summary as `runlens score` prints it (rows in/scored/quarantined, tasks). */
  summaryText: string;
  /** The rows of each benchmark of {@link BenchmarkLoadRequest.with} (with its columns, too). */
  others: readonly { benchmark: Benchmark; rows: pl.DataFrame }[];
  /** The data directory and the load's data sets, for the benchmarks' analyses. */
  context: AnalysisContext;
}

/**
 * A command a benchmark contributes: a {@link Command} whose `run` gets a loader of its logs
 * through the one pipeline. The benchmark folder imports nothing above its layer: the CLI adds
 * the shared load options to its help and parser (unless `logs` is `"none"`) and passes `load`.
 */
export interface BenchmarkCommand<Args> extends Omit<Command<Args>, "run"> {
  /** Whether it reads run logs: never (`"none"`), when paths are given, or always. */
  logs: "none" | "optional" | "required";
  /** Do the work; `load` reads logs into this benchmark's rows. Returns the exit code. */
  run(
    args: Args,
    load: (request: BenchmarkLoadRequest) => Promise<BenchmarkRuns>,
  ): number | Promise<number>;
}
