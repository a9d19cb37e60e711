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
import { reasonKind } from "../logs/quarantine.ts";
import { compareRunPairs } from "../analyses/compare.ts";
import type { LoadedRuns } from "../pipeline/load.ts";
import { adviceText } from "../pipeline/advice.ts";
import type { RunSummary as LoadSummary } from "../pipeline/summarise.ts";
import { microCI } from "../stats/headline_ci.ts";
import { DEFAULT_BOOTSTRAP_SEED } from "../stats/bootstrap.ts";
import type { ReportSection } from "../render/document.ts";
import type { Headline, PairedComparison, ReportDocument, RunSummary } from "./html/document.ts";
import { analysesSections } from "./analyses.ts";
import { reportExamples } from "./examples.ts";
import { datasetProvenance, gitCommit, sourceDigest } from "./provenance.ts";
import { count } from "../core/count.ts";

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
    runs: loaded.runs.map((r) => runSummary(r, loaded)),
    ...adviceOf(loaded),
    leaderboard: await leaderboardOf(loaded, opts.dataDir),
    comparisons: comparisons(loaded, opts.baseline ?? null),
    analyses: analysesSections(loaded, opts.dataDir),
    examples: reportExamples(loaded, opts.dataDir),
  };
}

/** A run's row of the runs table: its first aggregate with an interval, else its accuracy. */
function runSummary(r: LoadSummary, loaded: LoadedRuns): RunSummary {
  const keys = getBenchmark(r.benchmark)?.aggregateKeys ?? [];
  const key = keys.find((k) => typeof r.aggregate[k.key] === "number");
  const quarantine: Record<string, number> = {};
  for (const q of loaded.quarantine) {
    if (!r.files.includes(q.file)) continue;
    const kind = reasonKind(q.reason);
    quarantine[kind] = (quarantine[kind] ?? 0) + 1;
  }
  return {
    run: r.run,
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
    quarantine: r.files.length > 1 ? {} : quarantine,
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

/** Paired comparisons: every run with the baseline, else every pair of one benchmark. */
function comparisons(loaded: LoadedRuns, baseline: string | null): ReportDocument["comparisons"] {
  const runs = [...new Set(loaded.runs.map((r) => r.run))].sort();
  const pairs: [string, string][] = baseline !== null
    ? runs.filter((r) => r !== baseline).map((r) => [r, baseline])
    : runs.flatMap((a, i) => runs.slice(i + 1).map((b): [string, string] => [a, b]));
  // Runs of different benchmarks are not a pair; a run whose rows were all quarantined, or
  // runs with no example in common, are named, not compared.
  const set = compareRunPairs(loaded.rows, pairs);
  const out = set.comparisons as unknown as PairedComparison[];
  const empty = runs.filter((r) => !loaded.runs.some((s) => s.run === r && s.rows_scored > 0));
  const disjoint = set.not_compared.filter((n) => n.reason === "no-common-example")
    .map((n) => `${n.run_a} vs ${n.run_b} (${n.benchmark})`);
  if (out.length === 0) return undefined;
  return {
    intro: "A − B in percentage points on the examples both runs scored (epochs averaged per " +
      "example), with Tango's 95% score interval, McNemar's exact p-value, Holm-adjusted " +
      `p-values (task rows: ${set.holm.tasks.description}; overall rows: ` +
      `${set.holm.overall.description}) and the minimum detectable difference at 80% power ` +
      "(Connor's formula)." +
      (disjoint.length > 0 ? ` Not compared (no example in common): ${disjoint.join(", ")}.` : "") +
      (empty.length > 0 ? ` Not compared (no scored row): ${empty.join(", ")}.` : ""),
    pairs: out,
  };
}
