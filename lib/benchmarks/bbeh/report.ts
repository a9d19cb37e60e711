/**
 * What BBEH adds to `runlens report` (`Benchmark.report`): its leaderboard beside the paper's
 * models with the runs' 95% intervals, the "degenerate output" failure class of the example
 * browser (Section 5.2 of the paper: no final answer, and a response that loops), and the
 * subset label of each example (`subsets.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const dataDir = resolveDataDir();
 * const { rows } = await loadRuns(["tests/fixtures/logs/tree"], dataDir);
 * const own = rows.filter(pl.col("benchmark").eq(pl.lit("bbeh")));
 * const [board] = await bbehReport.sections!(own, { dataDir });
 * assert.equal(board.title, "Leaderboard");
 * const labels = bbehReport.subsetLabels!({ dataDir }); // task, example_index, subset
 * assert.equal(labels.filter(pl.col("task").eq(pl.lit("zebra_puzzles"))).row(0)[2], "7x7");
 * ```
 * @module
 */
import pl from "nodejs-polars";
import type { BenchmarkReport } from "../types.ts";
// Upward imports until the report's section types and tableOf move to render/ (design23.md
// §1.1, step 4).
import type { ReportFigure, ReportSection } from "../../render/document.ts";
import { tableOf } from "../../render/table_of.ts";
import { leaderboard } from "./leaderboard.ts";
import { loadBbehDataset } from "./dataset.ts";
import { bbehSubsets } from "./subsets.ts";
import { isDegenerate } from "./failure/labels.ts";
import type * as Figures from "./figures.ts";
import type * as FailureFigures from "./failure/figures.ts";
import type * as Render from "../../render/figure.ts";

/** BBEH's report hooks. */
export const bbehReport: BenchmarkReport = {
  sections: async (rows) => rows.height === 0 ? [] : [await leaderboardSection(rows)],
  analysisFigures: (tables, _ctx, runLabel) => failureFigures(tables.noAnswer ?? null, runLabel),
  failureLabel: () =>
    pl.when(isDegenerate()).then(pl.lit("degenerate output")).otherwise(pl.lit(null).cast(pl.Utf8)),
  subsetLabels: (ctx) =>
    bbehSubsets(loadBbehDataset(ctx.dataDir))
      // an example with labels of several kinds shows the first
      .unique({ subset: ["task", "example_index"], keep: "first", maintainOrder: true })
      .select(
        pl.col("task"),
        pl.col("example_index").cast(pl.Int32),
        pl.col("subset").cast(pl.Utf8),
      ),
};

/** BBEH runs beside the paper's models, with the runs' 95% intervals. */
async function leaderboardSection(rows: pl.DataFrame): Promise<ReportSection> {
  // The figure modules load Plot and jsdom: only a report draws them, and the registry (which
  // `runlens score` loads) must not pay for them. Deno fetches and compiles the graph of every
  // literal import specifier, dynamic ones too, before the program starts: so, URLs.
  const [{ leaderboardFigure }, { toStandaloneSvg }] = await Promise.all([
    import(new URL("./figures.ts", import.meta.url).href) as Promise<typeof Figures>,
    import(new URL("../../render/figure.ts", import.meta.url).href) as Promise<typeof Render>,
  ]);
  const withCi = leaderboard(rows).select(
    "model",
    "source",
    "harmonic_mean",
    "micro",
    "ci_low",
    "ci_high",
  );
  const figure = leaderboardFigure(withCi, {
    title: "BBEH harmonic mean: your runs beside the paper's models",
    caption: "Bars: 95% intervals of the runs (seeded bootstrap over examples, stratified by " +
      "task). The paper's numbers (Table 2) have none.",
  });
  return {
    id: "leaderboard",
    title: "Leaderboard",
    intro: "BBEH headline (harmonic mean of accuracy + 1 over the 23 tasks) and micro average, " +
      "runs with full coverage beside the models of the BBEH paper.",
    items: [
      tableOf(withCi, { id: "bbeh-leaderboard", title: "BBEH leaderboard", digits: 1 }),
      {
        kind: "figure",
        id: "bbeh-leaderboard-figure",
        title: "BBEH leaderboard with 95% intervals",
        svg: toStandaloneSvg(figure),
      },
    ],
  };
}

/** The failure modes of Section 5.2 drawn per task and run, each where some run shows it. */
const FAILURE_SHARES = [
  {
    measure: "no_answer_share",
    title: "BBEH: responses without a final answer (%), per task and run",
    caption: "Share of each run's responses to a task in which the official scorer found no " +
      "final answer (the paper's Section 5.2); the table below gives counts and 95% Wilson " +
      "intervals.",
  },
  {
    measure: "degenerate_share",
    title: "BBEH: degenerate outputs (%), per task and run",
    caption: "Share of responses without a final answer that loop (the paper's Section 5.2: " +
      "a repeated tail); counts and intervals in the table below.",
  },
];

/** Heat maps of the no-answer and degenerate-output shares (the `noAnswer` table). */
async function failureFigures(
  table: pl.DataFrame | null,
  runLabel: (run: string) => string,
): Promise<ReportFigure[]> {
  if (table === null || table.height === 0) return [];
  const [{ taskHeatmapFigure }, { toStandaloneSvg }] = await Promise.all([
    import(new URL("./failure/figures.ts", import.meta.url).href) as Promise<
      typeof FailureFigures
    >,
    import(new URL("../../render/figure.ts", import.meta.url).href) as Promise<typeof Render>,
  ]);
  // the heat map's columns are `model`: the runs, by the report's short names
  const runs = table.getColumn("run").toArray() as string[];
  const labelled = table.withColumns(pl.Series("model", runs.map(runLabel), pl.Utf8));
  return FAILURE_SHARES.filter((f) =>
    labelled.filter(pl.col("measure").eq(pl.lit(f.measure)).and(pl.col("count").gt(0))).height > 0
  ).map((f) => ({
    kind: "figure",
    id: `bbeh-${f.measure.replaceAll("_", "-")}`,
    title: f.title,
    caption: f.caption,
    svg: toStandaloneSvg(taskHeatmapFigure(labelled, { measure: f.measure, title: "" })),
  }));
}
