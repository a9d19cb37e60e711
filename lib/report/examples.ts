/**
 * The example browser's rows of a report: every scored row with its verdict, whether the scorer
 * found an answer (`answer_found`), the extracted answer,
 * target and full response, the subset label of its example (from its benchmark's
 * `report.subsetLabels`, when it has them), a failure class and whether the log's own verdict
 * disagrees with the re-score; the question text once per example. Failure classes of wrong
 * rows: the benchmark's own class where its `report.failureLabel` gives one (e.g. BBEH's
 * `degenerate output`), else `no final answer` (the scorer found no answer: `answer_found`
 * false), else `wrong answer` (also when the scorer cannot tell, as `stored`).
 *
 * @example
 * ```ts
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const dataDir = resolveDataDir();
 * const ex = reportExamples(await loadRuns(["tests/fixtures/logs/tree"], dataDir), dataDir);
 * ex.rows.every((r) => ex.questions.some((q) => q.task === r.task && q.example_index === r.example_index)); // true
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { benchmarks } from "../benchmarks/registry.ts";
import type { LoadedRuns } from "../pipeline/load.ts";
import type { ExampleQuestion, ExampleRow, ReportExamples } from "./html/document.ts";

/** The rows and questions of the example browser. */
export function reportExamples(loaded: LoadedRuns, dataDir: string): ReportExamples {
  const rows = withLabels(loaded.rows, dataDir);
  const records = rows.select(
    "run",
    "benchmark",
    "task",
    "example_index",
    "epoch",
    "subset",
    "correct",
    "answer_found",
    "extracted",
    "target",
    "failure",
    "disagreement",
    pl.col("response").fillNull(""),
  ).toRecords() as Record<string, unknown>[];
  const exampleRows: ExampleRow[] = records.map((r) => ({
    run: r.run as string,
    benchmark: r.benchmark as string,
    task: r.task as string,
    example_index: r.example_index as number,
    epoch: r.epoch as number,
    subset: (r.subset as string | null) ?? null,
    verdict: r.correct ? "correct" : "wrong",
    found: (r.answer_found as boolean | null) ?? null,
    extracted: (r.extracted as string | null) ?? null,
    target: r.target as string,
    failure: (r.failure as string | null) ?? null,
    disagreement: (r.disagreement as boolean | null) ?? null,
    response: r.response as string,
  }));
  return { questions: questionsOf(rows), rows: exampleRows };
}

/** One question per (benchmark, task, example_index) of the rows. */
function questionsOf(rows: pl.DataFrame): ExampleQuestion[] {
  return (rows.select("benchmark", "task", "example_index", "input")
    .unique({ subset: ["benchmark", "task", "example_index"], maintainOrder: true })
    .toRecords() as Record<string, unknown>[])
    .map((q) => ({
      benchmark: q.benchmark as string,
      task: q.task as string,
      example_index: q.example_index as number,
      text: (q.input as string | null) ?? "",
    }));
}

/** The rows with `subset`, `failure` and `disagreement`. */
function withLabels(rows: pl.DataFrame, dataDir: string): pl.DataFrame {
  const own = ownFailureLabel();
  const labelled = rows.withColumns(
    pl.when(pl.col("correct")).then(pl.lit(null).cast(pl.Utf8))
      .when(own.isNotNull()).then(own)
      .when(pl.col("answer_found").eq(false)).then(pl.lit("no final answer"))
      .otherwise(pl.lit("wrong answer")).alias("failure"),
    pl.when(pl.col("stored_correct").isNull()).then(pl.lit(null).cast(pl.Bool))
      .otherwise(pl.col("stored_correct").neq(pl.col("correct"))).alias("disagreement"),
  );
  // Rows carry a `subset` column (null unless the log or the loader set one): it wins, and the
  // benchmark's label fills the nulls. (A plain join would add `subset_right`, unseen.)
  return labelled.join(subsetLabels(rows, dataDir), {
    on: ["benchmark", "task", "example_index"],
    how: "left",
  }).withColumns(
    pl.when(pl.col("subset").isNull()).then(pl.col("__subset")).otherwise(pl.col("subset"))
      .alias("subset"),
  ).drop("__subset");
}

/** Each row's failure class of its benchmark's own (`report.failureLabel`), else null. */
function ownFailureLabel(): pl.Expr {
  return benchmarks().reduce(
    (rest, b) =>
      b.report?.failureLabel
        ? pl.when(pl.col("benchmark").eq(pl.lit(b.name))).then(b.report.failureLabel())
          .otherwise(rest)
        : rest,
    pl.lit(null).cast(pl.Utf8),
  );
}

/**
 * The subset label (`__subset`) of each example of the benchmarks the rows name, from their
 * `report.subsetLabels`.
 */
function subsetLabels(rows: pl.DataFrame, dataDir: string): pl.DataFrame {
  const parts = benchmarks()
    .filter((b) => b.report?.subsetLabels && hasRows(rows, b.name))
    .map((b) =>
      b.report!.subsetLabels!({ dataDir }).select(
        pl.lit(b.name).alias("benchmark"),
        pl.col("task"),
        pl.col("example_index").cast(pl.Int32),
        pl.col("subset").cast(pl.Utf8).alias("__subset"),
      )
    );
  if (parts.length > 0) return pl.concat(parts);
  return pl.DataFrame([
    pl.Series("benchmark", [], pl.Utf8),
    pl.Series("task", [], pl.Utf8),
    pl.Series("example_index", [], pl.Int32),
    pl.Series("__subset", [], pl.Utf8),
  ]);
}

/** Whether some row is of `benchmark`. */
function hasRows(rows: pl.DataFrame, benchmark: string): boolean {
  return rows.filter(pl.col("benchmark").eq(pl.lit(benchmark))).height > 0;
}
