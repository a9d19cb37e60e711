/**
 * Identify: tie each checked log row to one example of its benchmark's data set, or set it
 * apart with the problem (quarantined by `score.ts`). The benchmarks come from the registry
 * ({@link BenchmarkSpec}: a registered benchmark, its data set and the scorer chosen).
 *
 * A row is tied:
 * - by `example_index` (the target and input, when given, must agree with the data set; an
 *   input that embeds the question, see `input_match.ts`, agrees);
 * - else by its exact `input` text within the task;
 * - else by the question embedded at the end of the logged prompt (few-shot prompt, chat
 *   template, answer cue: the rule of `input_match.ts`), when exactly one question of the task
 *   fits.
 * A given `target` picks among examples that share the input; identical repeats are handed out
 * in file order. Rows that cannot be tied to exactly one example are set apart: unsupported
 * benchmark, unknown task, index out of range, target (or input) differing from the data set,
 * input not found or ambiguous, repeats of the same (run, benchmark, task, example_index,
 * epoch) — the first row wins, later ones name it.
 *
 * Everything runs in polars over the whole frame; JavaScript only formats the reasons.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { benchmarkSpec, identifyRows } from "@runlens/pipeline/identify.ts";
 * import { readLogs } from "@runlens/pipeline/read.ts";
 * import { getBenchmark } from "@runlens/benchmarks/registry.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const spec = benchmarkSpec(getBenchmark("bbeh")!, resolveDataDir());
 * const log = readLogs(["tests/fixtures/logs/mixed.jsonl"]); // 10 rows pass the reader's checks
 * const { rows, failed } = identifyRows(log.rows, [spec]);
 * assert.equal(rows.height, 4); // tied to an example each
 * assert.equal(failed.reduce((n, df) => n + df.height, 0), 6); // set apart
 * ```
 * @module
 */
import pl from "nodejs-polars";
import type { Benchmark } from "../benchmarks/types.ts";
import { PY_WHITESPACE } from "../core/python.ts";
import { embeddedExpr, questionKeyExpr, startsLastQuestion } from "./input_match.ts";
import { quoteValue, type RunQuarantine } from "../logs/quarantine.ts";

/** One benchmark as the pipeline scores it: the registered value, its data set, the scorer. */
export interface BenchmarkSpec {
  /** The `benchmark` value of its rows (compared trimmed and lower-cased). */
  name: string;
  /** How reasons name it, e.g. "BBEH". */
  label: string;
  /** Columns `task`, `example_index`, `input`, `target`, `input_chars`. */
  dataset: pl.DataFrame;
  /** Canonical task name of a task label as logs write it; null when unknown. */
  canonicalTask(label: string): string | null;
  /** Examples in a task (for the out-of-range message). */
  taskSize(task: string): number;
  /** The registered scorer applied to its rows. */
  scorer: string;
  /**
   * Examples whose data-set input is known to be cut short: a logged input whose last
   * question starts with it passes the input check ({@link startsLastQuestion}).
   */
  truncatedInputs?: readonly { task: string; index: number }[];
}

/**
 * The spec of a registered benchmark: its data set from `dataDir`, scored with `scorer`
 * (default: the benchmark's own rule). Throws when the benchmark has no data set or scorer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getBenchmark } from "@runlens/benchmarks/registry.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const spec = benchmarkSpec(getBenchmark("bbh")!, resolveDataDir(), "last-line");
 * assert.equal(spec.dataset.height, 6511);
 * assert.equal(spec.taskSize("snarks"), 178);
 * assert.throws(() => benchmarkSpec(getBenchmark("arb")!, resolveDataDir()), /has no data set/);
 * ```
 */
export function benchmarkSpec(
  benchmark: Benchmark,
  dataDir: string,
  scorer: string | undefined = benchmark.defaultScorer,
): BenchmarkSpec {
  if (!benchmark.loadDataset || !scorer) {
    throw new Error(`benchmark ${benchmark.name} has no data set or scorer the pipeline can use`);
  }
  const sizes = new Map(benchmark.tasks.map((t) => [t.name, t.size ?? 0]));
  const dataset = benchmark.loadDataset(dataDir);
  return {
    name: benchmark.name,
    label: benchmark.label,
    dataset: dataset.columns.includes("input_chars")
      ? dataset
      : dataset.withColumns(pl.col("input").str.lengths().cast(pl.Int32).alias("input_chars")),
    canonicalTask: (label) => benchmark.canonicalTask(label),
    taskSize: (task) => sizes.get(task) ?? 0,
    scorer,
    truncatedInputs: benchmark.truncatedInputs,
  };
}

/** Rows tied to examples, the rows set apart, and the data sets they were tied to. */
export interface IdentifiedRows {
  /**
   * One row per tied log row, in input order: `__rid` (input row number), `source_file`,
   * `source_line`, `run`, `model`, `__bench`, `__task`, `example_index`, `epoch`,
   * `response_tokens`, `extra`, and the log's text columns (`response`, or for lean rows
   * `extracted` and `response_chars`).
   */
  rows: pl.DataFrame;
  /** Rows set apart, with `__problem` and the columns {@link quarantineOf} needs. */
  failed: pl.DataFrame[];
  /** The specs' data sets in one frame: `__bench`, `task`, `example_index`, `input`, … */
  dataset: pl.DataFrame;
}

const NULL_TEXT = pl.lit(null).cast(pl.Utf8);
/** The row's benchmark as compared with {@link BenchmarkSpec.name}. */
const BENCH = pl.col("benchmark").str.stripChars(PY_WHITESPACE).str.toLowerCase();

/** Columns every tied row carries into scoring. */
const RESOLVED = [
  "__rid",
  "source_file",
  "source_line",
  "run",
  "model",
  "__bench",
  "__task",
  "example_index",
  "epoch",
  "response_tokens",
  "extra",
];

/**
 * Tie rows (as the log readers return them, several files concatenated) to the data sets of
 * `specs`; rows of a benchmark without a spec are set apart as unsupported.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLogs } from "@runlens/pipeline/read.ts";
 * import { getBenchmark } from "@runlens/benchmarks/registry.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const spec = benchmarkSpec(getBenchmark("bbeh")!, resolveDataDir());
 * const log = readLogs(["tests/fixtures/logs/mixed.jsonl"]);
 * const { rows } = identifyRows(log.rows, [spec]);
 * rows.select("__task", "example_index"); // one example per row (linguini 3: two epochs)
 * assert.deepEqual(rows.getColumn("__task").toArray(), ["linguini", "temporal_sequence",
 *   "linguini", "nycc"]); // "Temporal Sequences" and "bbeh_nycc" as the log writes them
 * ```
 */
export function identifyRows(rows: pl.DataFrame, specs: readonly BenchmarkSpec[]): IdentifiedRows {
  // The heavy text columns stay out of the joins and sorts: `response` (or, for lean rows,
  // `extracted` and `response_chars`) is joined back by row id at the end.
  const withId = rows.withRowIndex("__rid");
  const textCols = ["response", "extracted", "response_chars"].filter((c) =>
    rows.columns.includes(c)
  );
  const texts = withId.select("__rid", ...textCols);
  const dataset = combinedDataset(specs);
  const all = withCanonicalTask(
    withId.select(...withId.columns.filter((c) => !textCols.includes(c))),
    specs,
  );
  const failed: pl.DataFrame[] = [];
  const known = splitProblems(
    all.withColumns(
      pl.when(pl.col("__bench").isNull()).then(pl.lit("unsupported_benchmark"))
        .when(pl.col("__task").isNull()).then(pl.lit("unknown_task"))
        .otherwise(NULL_TEXT).alias("__problem"),
    ),
    failed,
  );
  const byIndex = resolveByIndex(
    known.filter(pl.col("example_index").isNotNull()),
    dataset,
    failed,
  );
  const byInput = resolveByInput(known.filter(pl.col("example_index").isNull()), dataset, failed);
  const resolved = pl.concat([byIndex.select(...RESOLVED), byInput.select(...RESOLVED)])
    .sort("__rid");
  const unique = splitProblems(markDuplicates(resolved), failed);
  return { rows: unique.join(texts, { on: "__rid", how: "left" }), failed, dataset };
}

/**
 * The quarantine entries of the rows set apart (by identification or scoring), in input
 * order, each with its run, benchmark (null: none) and reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLogs } from "@runlens/pipeline/read.ts";
 * import { getBenchmark } from "@runlens/benchmarks/registry.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const specs = [benchmarkSpec(getBenchmark("bbeh")!, resolveDataDir())];
 * const { failed } = identifyRows(readLogs(["tests/fixtures/logs/mixed.jsonl"]).rows, specs);
 * const q = quarantineOf(failed, specs);
 * assert.deepEqual(q.map((x) => x.entry.line), [4, 5, 10, 11, 13, 15]); // in input order
 * assert.equal(q[2].entry.reason, 'unknown task "not_a_task" (not a BBEH task)');
 * ```
 */
export function quarantineOf(
  failed: readonly pl.DataFrame[],
  specs: readonly BenchmarkSpec[],
): ScoredQuarantine[] {
  const names = specs.map((s) => s.name);
  return failed.flatMap((df) => df.toRecords() as unknown as FailedRow[])
    .sort((a, b) => a.__rid - b.__rid)
    .map((f) => ({
      run: f.run,
      benchmark: f.__bench,
      entry: { file: f.source_file, line: f.source_line, reason: reasonOf(f, specs, names) },
    }));
}

/** A quarantined row, its run and the benchmark it was tied to (null: none). */
export interface ScoredQuarantine extends RunQuarantine {
  benchmark: string | null;
}

/** The data sets of `specs` in one frame, with `__bench`. */
function combinedDataset(specs: readonly BenchmarkSpec[]): pl.DataFrame {
  const parts = specs.map((s) =>
    s.dataset.select(
      pl.lit(s.name).alias("__bench"),
      pl.col("task"),
      pl.col("example_index").cast(pl.Int64),
      pl.col("input"),
      pl.col("target"),
      pl.col("input_chars").cast(pl.Int32),
      truncatedExpr(s.truncatedInputs ?? []).alias("__truncated"),
    )
  );
  if (parts.length > 0) return pl.concat(parts, { how: "vertical" });
  return pl.DataFrame([
    pl.Series("__bench", [], pl.Utf8),
    pl.Series("task", [], pl.Utf8),
    pl.Series("example_index", [], pl.Int64),
    pl.Series("input", [], pl.Utf8),
    pl.Series("target", [], pl.Utf8),
    pl.Series("input_chars", [], pl.Int32),
    pl.Series("__truncated", [], pl.Bool),
  ]);
}

/** True on the listed (task, index) examples. */
function truncatedExpr(examples: readonly { task: string; index: number }[]): pl.Expr {
  return examples.reduce(
    (e: pl.Expr, x) =>
      e.or(pl.col("task").eq(pl.lit(x.task)).and(pl.col("example_index").eq(pl.lit(x.index)))),
    pl.lit(false),
  );
}

/**
 * Add `__bench` (the spec the row's benchmark names; null: none) and `__task` (the canonical
 * name of the row's task label in that benchmark; null: unknown).
 */
function withCanonicalTask(df: pl.DataFrame, specs: readonly BenchmarkSpec[]): pl.DataFrame {
  // Null labels become "\0" so that they join (and map to nothing).
  const labels = [
    BENCH.fillNull("\0").alias("__bench_label"),
    pl.col("task").fillNull("\0")
      .alias("__task_label"),
  ];
  const pairs = df.select(...labels).unique()
    .toRecords() as { __bench_label: string; __task_label: string }[];
  const bySpec = new Map(specs.map((s) => [s.name as string, s]));
  const rows = pairs.map((p) => {
    const spec = bySpec.get(p.__bench_label);
    return {
      ...p,
      __bench: spec?.name ?? null,
      __task: spec && p.__task_label !== "\0" ? spec.canonicalTask(p.__task_label) : null,
    };
  });
  const mapping = pl.DataFrame([
    pl.Series("__bench_label", rows.map((r) => r.__bench_label), pl.Utf8),
    pl.Series("__task_label", rows.map((r) => r.__task_label), pl.Utf8),
    pl.Series("__bench", rows.map((r) => r.__bench), pl.Utf8),
    pl.Series("__task", rows.map((r) => r.__task), pl.Utf8),
  ]);
  return df.withColumns(...labels)
    .join(mapping, { on: ["__bench_label", "__task_label"], how: "left" })
    .drop("__bench_label", "__task_label");
}

/** Move rows with a non-null `__problem` to `failed` (message columns only); return the rest. */
export function splitProblems(df: pl.DataFrame, failed: pl.DataFrame[]): pl.DataFrame {
  const cols = [
    "__rid",
    "source_file",
    "source_line",
    "run",
    "__problem",
    "task",
    "__bench",
    "__task",
    "benchmark",
    "example_index",
    "target",
    "__detail",
    "__indices",
    "__targets",
  ];
  const bad = df.filter(pl.col("__problem").isNotNull());
  if (bad.height > 0) {
    failed.push(
      bad.select(
        ...cols.map((c) => bad.columns.includes(c) ? pl.col(c) : NULL_TEXT.alias(c)),
      ).withColumns(pl.col("example_index").cast(pl.Utf8)),
    );
  }
  return df.filter(pl.col("__problem").isNull()).drop("__problem");
}

/** Rows with an index: check range, target and input against the data set. */
function resolveByIndex(
  df: pl.DataFrame,
  dataset: pl.DataFrame,
  failed: pl.DataFrame[],
): pl.DataFrame {
  const ds = dataset.select(
    "__bench",
    pl.col("task").alias("__task"),
    pl.col("example_index").alias("__ds_index"),
    pl.col("input").alias("__ds_input"),
    pl.col("target").alias("__ds_target"),
    "__truncated",
  );
  const joined = df.join(ds, {
    leftOn: ["__bench", "__task", "example_index"],
    rightOn: ["__bench", "__task", "__ds_index"],
    how: "left",
  });
  // Inputs that differ from the data set's may still embed its question: check those only.
  const differs = pl.col("input").isNotNull().and(pl.col("input").neq(pl.col("__ds_input")))
    .fillNull(false);
  const same = joined.filter(differs.not()).withColumns(pl.lit(true).alias("__input_ok"));
  const other = joined.filter(differs);
  const checked = other.height === 0 ? same : pl.concat([
    same,
    acceptTruncated(other.withColumns(
      embeddedExpr(questionKeyExpr(pl.col("input")), questionKeyExpr(pl.col("__ds_input")))
        .alias("__input_ok"),
    )),
  ], { how: "vertical" });
  return splitProblems(
    checked.withColumns(
      pl.when(pl.col("__ds_target").isNull()).then(pl.lit("out_of_range"))
        .when(pl.col("target").isNotNull().and(pl.col("target").neq(pl.col("__ds_target"))))
        .then(pl.lit("target_mismatch"))
        .when(pl.col("__input_ok").not()).then(pl.lit("input_mismatch"))
        .otherwise(NULL_TEXT).alias("__problem"),
      pl.col("__ds_target").alias("__detail"),
    ),
    failed,
  );
}

/**
 * Rows that failed the input check on an example whose data-set input is known to be cut
 * short: accepted when the logged input's last question starts with it (checked in JS: such
 * rows are a handful at most).
 */
function acceptTruncated(df: pl.DataFrame): pl.DataFrame {
  const suspect = df.filter(pl.col("__input_ok").not().and(pl.col("__truncated").fillNull(false)));
  if (suspect.height === 0) return df;
  const ok = (suspect.select("__rid", "input", "__ds_input").toRecords() as {
    __rid: number;
    input: string;
    __ds_input: string;
  }[]).filter((r) => startsLastQuestion(r.input, r.__ds_input)).map((r) => r.__rid);
  if (ok.length === 0) return df;
  const accepted = pl.DataFrame([
    pl.Series("__rid", ok, pl.UInt32),
    pl.Series("__accepted", ok.map(() => true), pl.Bool),
  ]);
  return df.join(accepted, { on: "__rid", how: "left" }).withColumns(
    pl.col("__input_ok").or(pl.col("__accepted").fillNull(false)).alias("__input_ok"),
  ).drop("__accepted");
}

/**
 * Rows without an index: find the examples of the task with exactly this input — or, for
 * inputs no example has, the one question embedded at the end ({@link resolveEmbedded}); a
 * given target filters them. One distinct target left → resolved (the k-th such row of a run
 * and epoch takes the k-th matching example); none or several → quarantined.
 */
function resolveByInput(
  df: pl.DataFrame,
  dataset: pl.DataFrame,
  failed: pl.DataFrame[],
): pl.DataFrame {
  const ds = dataset.select(
    "__bench",
    pl.col("task").alias("__task"),
    pl.col("input"),
    pl.col("example_index").alias("__cand_index"),
    pl.col("target").alias("__cand_target"),
  );
  const keys = ["__bench", "__task", "input"];
  const known = ds.select(...keys).unique();
  const exact = df.join(known, { on: keys, how: "semi" });
  const misses = df.join(known, { on: keys, how: "anti" });
  const rows = misses.height === 0
    ? exact
    : pl.concat([exact, resolveEmbedded(misses, dataset, failed)], { how: "vertical" });
  const cand = rows.select("__rid", ...keys, "target").join(ds, { on: keys });
  const byInput = cand.groupBy("__rid").agg(
    pl.col("__cand_index").sort().alias("__indices"),
    pl.col("__cand_target").unique().sort().alias("__targets"),
  );
  const match = cand.filter(
    pl.col("target").isNull().or(pl.col("target").eq(pl.col("__cand_target"))),
  );
  const byMatch = match.groupBy("__rid").agg(
    pl.len().alias("__n_match"),
    pl.col("__cand_target").nUnique().alias("__n_targets"),
  );
  const checked = splitProblems(
    rows.join(byInput, { on: "__rid", how: "left" })
      .join(byMatch, { on: "__rid", how: "left" })
      .withColumns(
        pl.when(pl.col("__indices").isNull()).then(pl.lit("input_not_found"))
          .when(pl.col("__n_match").isNull()).then(pl.lit("input_target_mismatch"))
          .when(pl.col("__n_targets").gt(1)).then(pl.lit("ambiguous_input"))
          .otherwise(NULL_TEXT).alias("__problem"),
      ),
    failed,
  ).sort("__rid");
  const occurrence = checked.withColumns(
    pl.col("__rid").rank("ordinal").over("run", "epoch", "__bench", "__task", "input")
      .cast(pl.Int64).sub(1).alias("__k"),
  );
  const ranked = match.select(
    "__rid",
    "__cand_index",
    pl.col("__cand_index").rank("ordinal").over("__rid").cast(pl.Int64).sub(1).alias("__r"),
  );
  return occurrence.join(ranked, { on: "__rid" })
    .filter(
      pl.col("__r").eq(
        pl.when(pl.col("__k").lt(pl.col("__n_match"))).then(pl.col("__k"))
          .otherwise(pl.col("__n_match").cast(pl.Int64).sub(1)),
      ),
    )
    .drop("example_index")
    .rename({ __cand_index: "example_index" });
}

/** Longest tail (characters) of the normalised texts used as the join key. */
const TAIL_KEY = 64;
/** Room for a question lead and spacer before the question ("Question:" + two spaces). */
const LEAD_ROOM = 16;

/**
 * Rows whose input is not a data-set input: find the questions of the task embedded at its end
 * (`input_match.ts`). Candidates come from a join on the last K characters of the normalised
 * texts (K = min(64, shortest normalised question of the task)), then the boundary rule is
 * checked on a window of the log text. Exactly one distinct question → the row's `input` becomes
 * it; none → `input_not_found`; several → `ambiguous_embedded` (quarantined).
 */
function resolveEmbedded(
  df: pl.DataFrame,
  dataset: pl.DataFrame,
  failed: pl.DataFrame[],
): pl.DataFrame {
  const dsKeys = dataset.select(
    "__bench",
    pl.col("task").alias("__task"),
    pl.col("input").alias("__ds_input"),
    pl.col("example_index").alias("__ds_index"),
    questionKeyExpr(pl.col("input")).alias("__ds_key"),
  ).withColumns(pl.col("__ds_key").str.lengths().alias("__ds_len"));
  const perTask = dsKeys.groupBy("__bench", "__task").agg(
    pl.col("__ds_len").min().clip(1, TAIL_KEY).cast(pl.Int64).alias("__k"),
    pl.col("__ds_len").max().add(LEAD_ROOM).cast(pl.Int64).alias("__w"),
  );
  const rows = df.join(perTask, { on: ["__bench", "__task"], how: "left" })
    .withColumns(questionKeyExpr(pl.col("input")).fillNull("").alias("__log_key"));
  const verified: pl.DataFrame[] = [];
  const ks = rows.getColumn("__k").unique().toArray().filter((k) => k !== null) as number[];
  for (const k of ks) {
    const part = rows.filter(pl.col("__k").eq(k));
    const w = Math.max(...part.getColumn("__w").toArray() as number[]);
    const logs = part.select(
      "__rid",
      "__bench",
      "__task",
      pl.col("__log_key").str.slice(-w).alias("__window"),
      pl.col("__log_key").str.slice(-k).alias("__tail"),
    );
    const cands = dsKeys.join(perTask.filter(pl.col("__k").eq(k)), { on: ["__bench", "__task"] })
      .select(
        "__bench",
        "__task",
        "__ds_input",
        "__ds_index",
        "__ds_key",
        pl.col("__ds_key").str.slice(-k).alias("__tail"),
      );
    verified.push(
      logs.join(cands, { on: ["__bench", "__task", "__tail"] })
        .filter(embeddedExpr(pl.col("__window"), pl.col("__ds_key")))
        .select("__rid", "__ds_input", "__ds_index"),
    );
  }
  const found = verified.length > 0
    ? pl.concat(verified, { how: "vertical" }).groupBy("__rid").agg(
      pl.col("__ds_input").nUnique().alias("__n_questions"),
      pl.col("__ds_input").first().alias("__question"),
      pl.col("__ds_index").sort().alias("__indices"),
    )
    : null;
  const joined = found
    ? rows.join(found, { on: "__rid", how: "left" })
    : rows.withColumns(pl.lit(null).alias("__n_questions"), NULL_TEXT.alias("__question"));
  return splitProblems(
    joined.withColumns(
      pl.when(pl.col("__n_questions").isNull()).then(pl.lit("input_not_found"))
        .when(pl.col("__n_questions").gt(1)).then(pl.lit("ambiguous_embedded"))
        .otherwise(NULL_TEXT).alias("__problem"),
    ),
    failed,
  )
    .withColumns(pl.col("__question").alias("input"))
    .select(...df.columns);
}

/** Set `__problem` on every row after the first with the same (run, bench, task, index, epoch). */
function markDuplicates(df: pl.DataFrame): pl.DataFrame {
  const key = ["run", "__bench", "__task", "example_index", "epoch"];
  const first = df.select(
    pl.col("__rid").alias("__first"),
    pl.concatString([pl.col("source_file"), pl.col("source_line").cast(pl.Utf8)], ":")
      .alias("__detail"),
  );
  return df
    .withColumns(pl.col("__rid").min().over(key[0], ...key.slice(1)).alias("__first"))
    .join(first, { on: "__first", how: "left" })
    .withColumns(
      pl.when(pl.col("__rid").neq(pl.col("__first"))).then(pl.lit("duplicate"))
        .otherwise(NULL_TEXT).alias("__problem"),
    )
    .sort("__rid");
}

interface FailedRow {
  __rid: number;
  source_file: string;
  source_line: number;
  run: string;
  __problem: string;
  task: string | null;
  __bench: string | null;
  __task: string | null;
  benchmark: string | null;
  example_index: string | null;
  target: string | null;
  __detail: string | null;
  __indices: number[] | null;
  __targets: string[] | null;
}

function listOf(values: readonly unknown[], max = 8): string {
  const shown = values.slice(0, max).map((v) => typeof v === "string" ? quoteValue(v, 30) : v);
  return shown.join(", ") + (values.length > max ? ", …" : "");
}

function reasonOf(f: FailedRow, specs: readonly BenchmarkSpec[], names: string[]): string {
  const spec = specs.find((s) => s.name === f.__bench);
  const label = spec?.label ?? "";
  const at = `${f.__task}[${f.example_index}]`;
  switch (f.__problem) {
    case "unsupported_benchmark":
      return `unsupported benchmark ${quoteValue(f.benchmark)} (supported: ${names.join(", ")})`;
    case "unknown_task":
      return `unknown task ${quoteValue(f.task)} (not a ${label} task)`;
    case "out_of_range":
      return `example_index ${f.example_index} out of range for ${f.__task} ` +
        `(0–${spec!.taskSize(f.__task!) - 1})`;
    case "target_mismatch":
      return `target ${quoteValue(f.target)} differs from the data set's target ` +
        `${quoteValue(f.__detail)} for ${at}`;
    case "input_mismatch":
      return `input differs from the data set's input for ${at}`;
    case "input_not_found":
      return `input not found in ${f.__task} (no example has exactly this text, ` +
        "nor is one the question at its end)";
    case "ambiguous_embedded":
      return `ambiguous input: it ends with several questions of ${f.__task} ` +
        `(example_index ${listOf(f.__indices ?? [])}); give example_index`;
    case "input_target_mismatch":
      return `target ${quoteValue(f.target)} differs from the data set's target(s) ` +
        `${listOf(f.__targets ?? [])} for this input in ${f.__task} ` +
        `(example_index ${listOf(f.__indices ?? [])})`;
    case "ambiguous_input":
      return `ambiguous input: ${f.__indices?.length} examples of ${f.__task} ` +
        `(example_index ${listOf(f.__indices ?? [])}) share it with different targets; ` +
        "give example_index or target";
    case "duplicate":
      return `duplicate of ${f.__detail} (same run, task, example_index and epoch)`;
    case "no_verdict":
      return `scorer ${spec?.scorer} gives no verdict for ${at}` +
        (spec?.scorer === "stored" ? " (the log stores none)" : "");
    default:
      throw new Error(`internal error: unknown problem ${f.__problem}`);
  }
}
