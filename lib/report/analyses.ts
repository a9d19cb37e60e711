/**
 * The analysis sections of a report: per-task accuracy of every run with 95% Wilson
 * intervals (a figure per benchmark, the table collapsed under it); how often verdicts flip
 * between epochs (runs with several); each benchmark's own
 * analyses (e.g. BBEH: the failure modes and subsets of the paper's Section 5 and Appendix A)
 * on its rows, with the figures its `report.analysisFigures` draws of them; and, for the runs
 * of each benchmark whose `report.formatSensitivity` asks for it, the answer-format
 * sensitivity — accuracy under every applicable rule — when the rules disagree by at least a
 * point on some task (otherwise it says nothing a reader needs). Runs are named by their short
 * labels (`RunSummary.label`) in figures.
 *
 * @example
 * ```ts
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const dataDir = resolveDataDir();
 * const loaded = await loadRuns(["tests/fixtures/logs/tree"], dataDir);
 * const sections = await analysesSections(loaded, dataDir, (run) => run);
 * sections[0].title; // "Per-task accuracy"
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { benchmarks } from "../benchmarks/registry.ts";
import type { Benchmark } from "../benchmarks/types.ts";
import type { LoadedRuns } from "../pipeline/load.ts";
import type { TaskScore } from "../pipeline/summarise.ts";
import { formatSensitivity, LENIENT } from "../analyses/format_sensitivity.ts";
import { epochStability } from "../analyses/stability.ts";
import { toStandaloneSvg } from "../render/figure.ts";
import { intervalText } from "../render/interval_text.ts";
import { ruleHeatmapFigure, taskIntervalFigure } from "../render/interval_figures.ts";
import type { ReportFigure, ReportItem, ReportSection } from "../render/document.ts";
import { tableOf } from "../render/table_of.ts";

/** A run's short label (tables and figures), as the runs table shows it. */
export type RunLabel = (run: string) => string;

/** Every analysis section that applies to the loaded runs. */
export async function analysesSections(
  loaded: LoadedRuns,
  dataDir: string,
  label: RunLabel,
): Promise<ReportSection[]> {
  const perTask = perTaskSection(loaded, label);
  const sections = perTask ? [perTask] : [];
  const stability = stabilitySection(loaded);
  if (stability) sections.push(stability);
  for (const b of benchmarks()) {
    const rows = loaded.rows.filter(pl.col("benchmark").eq(pl.lit(b.name)));
    const own = rows.height > 0 ? await ownAnalyses(b, rows, dataDir, label) : null;
    if (own) sections.push(own);
  }
  for (const b of benchmarks()) {
    const format = b.report?.formatSensitivity ? formatSection(loaded, b, label) : null;
    if (format) sections.push(format);
  }
  return sections;
}

/** A benchmark's analyses of its rows: its figures of them, then the tables; null: none. */
async function ownAnalyses(
  b: Benchmark,
  rows: pl.DataFrame,
  dataDir: string,
  label: RunLabel,
): Promise<ReportSection | null> {
  if (!b.analyses) return null;
  const tables = b.analyses.tables(rows, { dataDir });
  const items: ReportItem[] = Object.entries(tables)
    .filter((e): e is [string, pl.DataFrame] => e[1] !== null && e[1].height > 0)
    .map(([key, df]) =>
      tableOf(df, { id: `${b.name}-${key}`, title: b.analyses!.titles?.[key] ?? key, digits: 1 })
    );
  if (items.length === 0) return null;
  const figures = await b.report?.analysisFigures?.(tables, { dataDir }, label) ?? [];
  return {
    id: `${b.name}-analyses`,
    title: `${b.label}: failure modes and subsets`,
    intro: "Shares come with their count, n and a 95% Wilson interval.",
    items: [...figures, ...items],
  };
}

/** One row of the per-task table: a run's task score. */
type PerTaskRow = TaskScore & { run: string; benchmark: string; task: string };

/**
 * Accuracy per run and task with 95% Wilson intervals: a figure per benchmark, and the table
 * of all (collapsed); null when no row was scored.
 */
function perTaskSection(loaded: LoadedRuns, label: RunLabel): ReportSection | null {
  const rows: PerTaskRow[] = loaded.runs.flatMap((r) =>
    Object.entries(r.tasks).map(([task, t]) => ({
      run: r.run,
      benchmark: r.benchmark,
      task,
      ...t,
    }))
  );
  if (rows.length === 0) return null;
  const figures = [...new Set(rows.map((r) => r.benchmark))].map((b) =>
    perTaskFigure(rows.filter((r) => r.benchmark === b), b, label)
  );
  return {
    id: "per-task",
    title: "Per-task accuracy",
    intro: "Each run's accuracy on each task with its 95% Wilson interval; tasks sorted by " +
      "the runs' mean accuracy.",
    items: [...figures, { ...perTaskTable(rows), collapsed: true }],
  };
}

/** The figure of one benchmark's per-task accuracies. */
function perTaskFigure(rows: PerTaskRow[], benchmark: string, label: RunLabel): ReportFigure {
  const name = benchmarkLabel(benchmark);
  return {
    kind: "figure",
    id: `per-task-${benchmark}`,
    title: `${name}: accuracy per task`,
    caption: "Dots: accuracy; lines: 95% Wilson intervals (Newcombe 1998, method 3). " +
      "Tasks sorted by the runs' mean accuracy.",
    svg: toStandaloneSvg(taskIntervalFigure(rows, { runLabel: label })),
  };
}

/** The per-task table (integer counts; the interval as one text column). */
function perTaskTable(rows: PerTaskRow[]) {
  const col = <T>(name: string, get: (r: PerTaskRow) => T, type: pl.DataType) =>
    pl.Series(name, rows.map(get), type);
  const df = pl.DataFrame([
    col("run", (r) => r.run, pl.Utf8),
    col("benchmark", (r) => r.benchmark, pl.Utf8),
    col("task", (r) => r.task, pl.Utf8),
    col("n", (r) => r.n, pl.Int64),
    col("correct", (r) => r.correct, pl.Int64),
    col("no_answer", (r) => r.no_answer, pl.Int64),
    col("accuracy", (r) => r.accuracy, pl.Float64),
    col("95% CI", (r) => intervalText(r.ci_low, r.ci_high), pl.Utf8),
  ]);
  return tableOf(df, {
    id: "per-task-accuracy",
    title: "Accuracy (%) per run and task",
    caption: "no_answer: responses in which the scorer found no answer (scored as wrong). " +
      "95% CI: Wilson interval (Newcombe 1998, method 3).",
    digits: 1,
  });
}

/** How often a verdict flips between epochs, per run; null when no run repeats an example. */
function stabilitySection(loaded: LoadedRuns): ReportSection | null {
  const table = epochStability(loaded.rows);
  if (table.height === 0) return null;
  const ci = table.toRecords().map((r) => intervalText(r.ci_low as number, r.ci_high as number));
  return {
    id: "stability",
    title: "Stability across epochs",
    intro: "Examples answered in two epochs or more whose verdict flips (right in some, " +
      "wrong in others): the example browser marks them and filters to them.",
    items: [tableOf(
      table.drop("ci_low", "ci_high").withColumns(pl.Series("95% CI", ci, pl.Utf8)),
      {
        id: "epoch-stability",
        title: "Examples whose verdict flips between epochs",
        caption: "repeated: examples answered in two epochs or more; epochs: the most of one " +
          "example; unstable_share: % of the repeated examples, with a 95% Wilson interval.",
        digits: 1,
      },
    )],
  };
}

/** How tables and titles name a benchmark: its registered label, else its name. */
function benchmarkLabel(name: string): string {
  return benchmarks().find((b) => b.name === name)?.label ?? name;
}

/**
 * A benchmark's answer-format sensitivity, when its rules disagree by a point or more
 * somewhere: a figure of the tasks where they do, each run's accuracy per rule over all its
 * tasks, and the full table (collapsed).
 */
function formatSection(loaded: LoadedRuns, b: Benchmark, label: RunLabel): ReportSection | null {
  const rows = loaded.rows.filter(pl.col("benchmark").eq(pl.lit(b.name)));
  if (rows.height === 0 || rows.getColumn("response").nullCount() === rows.height) return null;
  const table = formatSensitivity(rows);
  const spread = table.groupBy(["run", "task"]).agg(
    pl.col("accuracy").max().sub(pl.col("accuracy").min()).alias("spread"),
  );
  const sensitive = new Set(
    spread.filter(pl.col("spread").gtEq(1)).getColumn("task").toArray() as string[],
  );
  if (sensitive.size === 0) return null;
  const tasks = [...new Set(table.getColumn("task").toArray() as string[])];
  return {
    id: "format-sensitivity",
    title: `${b.label}: answer-format sensitivity`,
    intro: `Accuracy and no-answer share under every rule that applies to ${b.label}; ` +
      `${LENIENT} is runlens's forgiving extractor, for this analysis only. The official ` +
      "rule stays the headline.",
    items: [
      formatFigure(table, tasks.filter((t) => sensitive.has(t)), tasks.length, b, label),
      tableOf(formatOverall(table), {
        id: `${b.name}-format-overall`,
        title: "Accuracy (%) per run and rule, all tasks",
        caption: "Correct / n over all of a run's tasks under each rule; Δ: percentage points " +
          "above the run's official rule; no answer: % of responses in which the rule found " +
          "none.",
        digits: 1,
      }),
      {
        ...tableOf(table.rename({ no_answer: "no answer (%)" }), {
          id: `${b.name}-format-sensitivity`,
          title: "Accuracy (%) per run, task and rule",
          digits: 1,
        }),
        collapsed: true,
      },
    ],
  };
}

/** The figure of the tasks whose rules disagree by a point or more. */
function formatFigure(
  table: pl.DataFrame,
  tasks: string[],
  allTasks: number,
  b: Benchmark,
  label: RunLabel,
): ReportFigure {
  const recs = table.filter(pl.col("task").isIn(tasks)).toRecords() as {
    run: string;
    task: string;
    scorer: string;
    accuracy: number;
    official: boolean;
  }[];
  const rows = recs.map((r) => ({ ...r, rule: r.scorer }));
  const order = tasks.toSorted();
  const left = allTasks - tasks.length;
  return {
    kind: "figure",
    id: `${b.name}-format-figure`,
    title: `${b.label}: accuracy under each answer-extraction rule`,
    caption: "Accuracy (%) of each run on each task under each rule that applies; " +
      "outlined: the run's official rule. A pale column is a rule that finds no answer in " +
      "the run's responses." +
      (left > 0 ? ` ${left} task(s) where every rule agrees within a point are left out.` : ""),
    svg: toStandaloneSvg(
      ruleHeatmapFigure(
        rows.sort((x, y) => order.indexOf(x.task) - order.indexOf(y.task)),
        { runLabel: label },
      ),
    ),
  };
}

/** Per run and rule over all tasks: n, correct, accuracy, Δ vs official, no-answer share. */
function formatOverall(table: pl.DataFrame): pl.DataFrame {
  // rules in the table's order (each benchmark's formatRules), runs sorted
  const overall = table.withRowIndex("__i").groupBy(["run", "scorer"]).agg(
    pl.col("__i").min(),
    pl.col("official").any().alias("official"),
    pl.col("n").sum().cast(pl.Int64).alias("n"),
    pl.col("correct").sum().cast(pl.Int64).alias("correct"),
    pl.col("no_answer").mul(pl.col("n")).sum().div(pl.col("n").sum()).alias("no_answer"),
  ).withColumns(
    pl.col("correct").cast(pl.Float64).mul(100).div(pl.col("n")).alias("accuracy"),
  ).sort(["run", "__i"]);
  const base = overall.filter(pl.col("official")).select(
    "run",
    pl.col("accuracy").alias("__official"),
  );
  return overall.join(base, { on: "run", how: "left" }).select(
    "run",
    pl.col("scorer").alias("rule"),
    pl.when(pl.col("official")).then(pl.lit("official")).otherwise(pl.lit("")).alias("role"),
    "n",
    "correct",
    "accuracy",
    pl.col("accuracy").sub(pl.col("__official")).alias("Δ"),
    pl.col("no_answer").alias("no answer (%)"),
  );
}
