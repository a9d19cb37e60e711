/**
 * Build the report document of loaded runs (`html/document.ts`): the runs with their headline
 * number and its 95% interval, each benchmark's own sections (`Benchmark.report.sections`,
 * e.g. BBEH's leaderboard beside the paper's models with error bars), the paired comparisons
 * between runs, the analyses that apply (per-task accuracy, each benchmark's analyses, the
 * answer-format sensitivity of the benchmarks that ask for it), the example browser's rows,
 * and the provenance. The same library functions the notebooks call produce every number;
 * nothing here computes statistics of its own, and no benchmark is named here.
 *
 * @example
 * ```ts
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const dataDir = resolveDataDir();
 * const loaded = await loadRuns(["tests/fixtures/logs/tree"], dataDir);
 * const doc = await buildReport(loaded, { dataDir, command: "runlens report tests/fixtures/logs/tree" });
 * doc.runs.length; // 2
 * doc.examples.rows.length === loaded.rows.height; // true
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { benchmarks, getBenchmark } from "../benchmarks/registry.ts";
import type { LoadedRuns } from "../pipeline/load.ts";
import { adviceText } from "../pipeline/advice.ts";
import type { RunSummary as LoadSummary } from "../pipeline/summarise.ts";
import { microCI } from "../stats/headline_ci.ts";
import { DEFAULT_BOOTSTRAP_SEED } from "../stats/bootstrap.ts";
import type { ReportSection } from "../render/document.ts";
import type { Headline, ReportDocument, RunSummary } from "./html/document.ts";
import { analysesSections, type RunLabel } from "./analyses.ts";
import { reportComparisons } from "./comparisons.ts";
import { shortRunLabels } from "../render/run_labels.ts";
import { reportExamples } from "./examples.ts";
import { datasetProvenance, gitCommit, sourceDigest } from "./provenance.ts";
import { count } from "../core/count.ts";

/**
 * The longest run name the report prints as it is (longer names get short labels, with a
 * legend): a table cell or a legend entry holds this much.
 */
const RUN_LABEL_CHARS = 36;

/** Options of {@link buildReport}. */
export interface ReportOptions {
  /** The data directory the runs were scored against. */
  dataDir: string;
  /** The command line, as the report should show it. */
  command: string;
  /** Compare every run with this one (default: every pair of runs of one benchmark). */
  baseline?: string | null;
  /** A date to show (never read from the clock). */
  date?: string;
  /**
   * How the report names runlens's code: `git` (the checkout's commit, the default) or
   * `source` (a digest of lib/, for reports committed in the repository itself).
   */
  provenance?: "git" | "source";
  /** Page title. */
  title?: string;
}

/** Build the whole document. */
export async function buildReport(
  loaded: LoadedRuns,
  opts: ReportOptions,
): Promise<ReportDocument> {
  const benchmarks = [...new Set(loaded.runs.map((r) => r.benchmark))].sort();
  // one short name per run, the same in the runs table, every other table and every figure
  const { label } = shortRunLabels(loaded.runs.map((r) => r.run), { maxChars: RUN_LABEL_CHARS });
  const code = opts.provenance === "source"
    ? await sourceDigest()
    : gitCommit() ?? await sourceDigest();
  return {
    title: opts.title ?? "runlens report",
    subtitle: `${loaded.runs.length} run(s) from ${loaded.files.length} log file(s); ` +
      `${count(loaded.rows.height)} rows scored, ` +
      `${count(loaded.quarantine.length)} quarantined.`,
    provenance: {
      runlens_commit: code,
      datasets: datasetProvenance(opts.dataDir, benchmarks),
      scorers: [...new Set(loaded.runs.map((r) => r.scorer))].sort(),
      command: opts.command,
      ...(opts.date ? { date: opts.date } : {}),
      seeds: { bootstrap: DEFAULT_BOOTSTRAP_SEED },
    },
    runs: loaded.runs.map((r) => runSummary(r, loaded, label)),
    ...adviceOf(loaded),
    leaderboard: await leaderboardOf(loaded, opts.dataDir),
    comparisons: reportComparisons(loaded, opts.baseline ?? null, label),
    analyses: await analysesSections(loaded, opts.dataDir, label),
    examples: reportExamples(loaded, opts.dataDir),
  };
}

/** A run's row of the runs table: its first aggregate with an interval, else its accuracy. */
function runSummary(r: LoadSummary, loaded: LoadedRuns, label: RunLabel): RunSummary {
  const keys = getBenchmark(r.benchmark)?.aggregateKeys ?? [];
  const key = keys.find((k) => typeof r.aggregate[k.key] === "number");
  return {
    run: r.run,
    ...(label(r.run) !== r.run ? { label: label(r.run) } : {}),
    model: r.model,
    benchmark: r.benchmark,
    scorer: r.scorer,
    coverage: r.aggregate.coverage,
    headline: key
      ? {
        ...headlineOf(key.label, r.aggregate[key.key] as number, r.intervals[key.key]),
        ...(key.unit !== undefined ? { unit: key.unit } : {}),
      }
      : rowsAccuracy(r, loaded),
    rows_in: r.rows_in,
    rows_scored: r.rows_scored,
    rows_quarantined: r.rows_quarantined,
    no_answer: r.no_answer,
    quarantine: r.quarantine_reasons,
    ...(r.aggregate.note ? { note: r.aggregate.note } : {}),
  };
}

/** The load's advice as the report's lines (absent when there is none). */
function adviceOf(loaded: LoadedRuns): { advice?: string[] } {
  const lines = adviceText(loaded.advice);
  return lines.length > 0 ? { advice: lines } : {};
}

function headlineOf(
  metric: string,
  value: number,
  ci: { ci_low: number; ci_high: number; se: number; method: string } | undefined,
): Headline {
  return {
    metric,
    value,
    ci_low: ci?.ci_low ?? null,
    ci_high: ci?.ci_high ?? null,
    se: ci?.se ?? null,
    method: ci?.method ?? null,
  };
}

/** A partial run: the accuracy of its scored rows with its Wilson interval (not a benchmark score) */
function rowsAccuracy(r: LoadSummary, loaded: LoadedRuns): Headline | null {
  const rows = loaded.rows.filter(
    pl.col("run").eq(pl.lit(r.run)).and(pl.col("benchmark").eq(pl.lit(r.benchmark))),
  );
  const tasks = rows.getColumn("task").toArray() as string[];
  const index = rows.getColumn("example_index").toArray() as number[];
  const correct = rows.getColumn("correct").toArray() as boolean[];
  const ci = microCI(
    tasks.map((t, i) => ({ stratum: t, example: index[i], score: correct[i] ? 1 : 0 })),
  );
  if (ci === null) return null;
  return headlineOf("accuracy of the rows scored (partial run)", ci.estimate, ci);
}

/**
 * The benchmarks' own sections (`Benchmark.report.sections`) of the loaded rows, shown after
 * the runs as the leaderboard: the one section, or, when several benchmarks give sections,
 * one "Leaderboards" section holding their tables and figures in registry order.
 */
async function leaderboardOf(
  loaded: LoadedRuns,
  dataDir: string,
): Promise<ReportSection | undefined> {
  const sections: ReportSection[] = [];
  for (const b of benchmarks()) {
    const rows = loaded.rows.filter(pl.col("benchmark").eq(pl.lit(b.name)));
    if (b.report?.sections && rows.height > 0) {
      sections.push(...await b.report.sections(rows, { dataDir }));
    }
  }
  if (sections.length <= 1) return sections[0];
  return {
    id: "leaderboard",
    title: "Leaderboards",
    intro: sections.flatMap((s) => s.intro ?? []).join(" "),
    items: sections.flatMap((s) => s.items),
  };
}
