/**
 * The report's paired comparisons (`analyses/compare.ts`): every run with the baseline, else
 * every pair of runs of one benchmark, with a forest plot of each pair's per-task differences
 * (the first {@link MAX_PAIR_FIGURES} pairs of each benchmark) and, with several pairs, one of every pair's
 * overall difference. A row's dot is filled when its Holm-adjusted p-value is below 0.05.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import type { LoadedRuns } from "@runlens/pipeline/load.ts";
 * const rows = pl.DataFrame({
 *   run: ["a", "a", "a", "b", "b", "b"],
 *   benchmark: Array(6).fill("bbh"),
 *   task: ["navigate", "navigate", "snarks", "navigate", "navigate", "snarks"],
 *   example_index: [0, 1, 0, 0, 1, 0],
 *   correct: [true, true, false, false, true, true],
 * });
 * const runs = [{ run: "a", rows_scored: 3 }, { run: "b", rows_scored: 3 }];
 * const c = reportComparisons({ rows, runs } as unknown as LoadedRuns, null, (r) => r)!;
 * // one pair: its forest plot (with several, one of every pair's overall difference first)
 * assert.deepEqual([c.pairs.length, c.figures!.map((f) => f.id)], [1, ["forest-a-b-bbh"]]);
 * assert.deepEqual([c.pairs[0].overall.a_only, c.pairs[0].overall.b_only], [1, 1]);
 * ```
 * @module
 */
import { compareRunPairs } from "../analyses/compare.ts";
import { getBenchmark } from "../benchmarks/registry.ts";
import type { LoadedRuns } from "../pipeline/load.ts";
import { toStandaloneSvg } from "../render/figure.ts";
import { forestFigure, type ForestRow } from "../render/interval_figures.ts";
import type { ReportFigure } from "../render/document.ts";
import type { PairedComparison, PairedRow, ReportDocument } from "./html/document.ts";
import type { RunLabel } from "./analyses.ts";

/** Pairs of a benchmark drawn task by task; more are drawn by their overall difference only. */
export const MAX_PAIR_FIGURES = 6;

/** The Holm-adjusted level at which a dot is filled. */
const ALPHA = 0.05;

/** Paired comparisons: every run with the baseline, else every pair of one benchmark. */
export function reportComparisons(
  loaded: LoadedRuns,
  baseline: string | null,
  label: RunLabel,
): ReportDocument["comparisons"] {
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
      `p-values (task rows: over ${set.holm.tasks.tests} per-task tests, every task of every ` +
      `pair; overall rows: over ${set.holm.overall.tests} overall test(s), one per pair) and ` +
      "the minimum detectable difference at 80% power (Connor's formula)." +
      (disjoint.length > 0 ? ` Not compared (no example in common): ${disjoint.join(", ")}.` : "") +
      (empty.length > 0 ? ` Not compared (no scored row): ${empty.join(", ")}.` : ""),
    pairs: out,
    figures: comparisonFigures(out, label),
  };
}

/**
 * A forest plot per pair (the first few of each benchmark), and one of the overall rows when
 * there are several pairs.
 */
function comparisonFigures(pairs: PairedComparison[], label: RunLabel): ReportFigure[] {
  const drawn = new Map<string, number>();
  const figures = pairs.filter((p) => {
    const k = (drawn.get(p.benchmark) ?? 0) + 1;
    drawn.set(p.benchmark, k);
    return k <= MAX_PAIR_FIGURES;
  }).map((p) => pairFigure(p, label));
  if (pairs.length > 1) figures.unshift(overallFigure(pairs, label));
  return figures;
}

/** A row of a forest plot from a paired row. */
function forestRow(r: PairedRow, rowLabel: string, overall = false): ForestRow {
  return {
    label: rowLabel,
    diff: r.diff,
    ci_low: r.ci_low,
    ci_high: r.ci_high,
    significant: r.p_holm !== undefined && r.p_holm !== null && r.p_holm < ALPHA,
    ...(overall ? { overall } : {}),
  };
}

/** One pair's tasks and overall row. */
function pairFigure(p: PairedComparison, label: RunLabel): ReportFigure {
  const [a, b] = [label(p.run_a), label(p.run_b)];
  const name = getBenchmark(p.benchmark)?.label ?? p.benchmark;
  const rows = [
    ...p.tasks.map((t) => forestRow(t, t.scope)),
    forestRow(p.overall, "overall (all tasks)", true),
  ];
  return {
    kind: "figure",
    id: `forest-${a}-${b}-${p.benchmark}`,
    title: `${name}: ${a} − ${b}, per task`,
    caption: "Difference in accuracy (percentage points) with Tango's 95% score interval; " +
      "filled: Holm-adjusted McNemar p < 0.05 (over every task of every pair); diamond: all " +
      "tasks together. Tasks sorted by the difference.",
    svg: toStandaloneSvg(forestFigure(rows, { xLabel: `${a} − ${b} (percentage points)` })),
  };
}

/** Every pair's overall difference. */
function overallFigure(pairs: PairedComparison[], label: RunLabel): ReportFigure {
  const several = new Set(pairs.map((p) => p.benchmark)).size > 1;
  const rows = pairs.map((p) =>
    forestRow(
      p.overall,
      `${label(p.run_a)} − ${label(p.run_b)}${several ? ` (${p.benchmark})` : ""}`,
    )
  );
  return {
    kind: "figure",
    id: "forest-overall",
    title: "Every pair, all tasks",
    caption: "Overall difference of each pair (percentage points) with Tango's 95% score " +
      "interval; filled: Holm-adjusted p < 0.05 over the pairs' overall tests.",
    svg: toStandaloneSvg(forestFigure(rows, { xLabel: "A − B (percentage points)" })),
  };
}
