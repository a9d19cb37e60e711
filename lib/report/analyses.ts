/**
 * The analysis sections of a report: per-task accuracy of every run with 95% Wilson
 * intervals; each benchmark's own analyses (e.g. BBEH: the failure modes and subsets of the
 * paper's Section 5 and Appendix A) on its rows; and, for the runs of each benchmark whose
 * `report.formatSensitivity` asks for it, the answer-format sensitivity — accuracy under every
 * applicable rule — when the rules disagree by at least a point on some task (otherwise it
 * says nothing a reader needs).
 *
 * @example
 * ```ts
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const dataDir = resolveDataDir();
 * const sections = analysesSections(await loadRuns(["tests/fixtures/logs/tree"], dataDir), dataDir);
 * sections[0].title; // "Per-task accuracy"
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { benchmarks } from "../benchmarks/registry.ts";
import type { Benchmark } from "../benchmarks/types.ts";
import type { LoadedRuns } from "../pipeline/load.ts";
import { formatSensitivity } from "../analyses/format_sensitivity.ts";
import type { ReportSection } from "../render/document.ts";
import { tableOf } from "../render/table_of.ts";

/** Every analysis section that applies to the loaded runs. */
export function analysesSections(loaded: LoadedRuns, dataDir: string): ReportSection[] {
  const perTask = perTaskSection(loaded);
  const sections = perTask ? [perTask] : [];
  for (const b of benchmarks()) {
    const rows = loaded.rows.filter(pl.col("benchmark").eq(pl.lit(b.name)));
    if (!b.analyses || rows.height === 0) continue;
    const tables = b.analyses.tables(rows, { dataDir, dataSets: loaded.dataSets });
    const items = Object.entries(tables)
      .filter((e): e is [string, pl.DataFrame] => e[1] !== null && e[1].height > 0)
      .map(([key, df]) =>
        tableOf(df, { id: `${b.name}-${key}`, title: b.analyses!.titles?.[key] ?? key, digits: 1 })
      );
    if (items.length === 0) continue;
    sections.push({
      id: `${b.name}-analyses`,
      title: `${b.label}: failure modes and subsets`,
      intro: "Shares come with their count, n and a 95% Wilson interval.",
      items,
    });
  }
  for (const b of benchmarks()) {
    const format = b.report?.formatSensitivity ? formatSection(loaded, b) : null;
    if (format) sections.push(format);
  }
  return sections;
}

/** Accuracy per run and task with 95% Wilson intervals; null when no row was scored. */
function perTaskSection(loaded: LoadedRuns): ReportSection | null {
  const rows = loaded.runs.flatMap((r) =>
    Object.entries(r.tasks).map(([task, t]) => ({
      run: r.run,
      benchmark: r.benchmark,
      task,
      n: t.n,
      correct: t.correct,
      no_answer: t.no_answer,
      accuracy: t.accuracy,
      ci_low: t.ci_low,
      ci_high: t.ci_high,
    }))
  );
  if (rows.length === 0) return null;
  return {
    id: "per-task",
    title: "Per-task accuracy",
    items: [tableOf(pl.DataFrame(rows), {
      id: "per-task-accuracy",
      title: "Accuracy (%) per run and task",
      caption: "no_answer: responses in which the scorer found no answer (scored as wrong). " +
        "ci_low, ci_high: 95% Wilson interval (Newcombe 1998, method 3).",
      digits: 1,
    })],
  };
}

/** A benchmark's answer-format sensitivity, when its rules disagree by a point or more somewhere. */
function formatSection(loaded: LoadedRuns, b: Benchmark): ReportSection | null {
  const rows = loaded.rows.filter(pl.col("benchmark").eq(pl.lit(b.name)));
  if (rows.height === 0 || rows.getColumn("response").nullCount() === rows.height) return null;
  const table = formatSensitivity(rows);
  const spread = table.groupBy(["run", "task"]).agg(
    pl.col("accuracy").max().sub(pl.col("accuracy").min()).alias("spread"),
  );
  if (spread.filter(pl.col("spread").gtEq(1)).height === 0) return null;
  return {
    id: "format-sensitivity",
    title: `${b.label}: answer-format sensitivity`,
    intro: `Accuracy and no-answer share under every rule that applies to ${b.label}; lenient ` +
      "is runlens's forgiving extractor, for this analysis only.",
    items: [
      tableOf(table, {
        id: `${b.name}-format-sensitivity`,
        title: "Accuracy (%) per rule",
        digits: 1,
      }),
    ],
  };
}
