/**
 * Tables for notebooks and reports: each run's headline numbers with their 95% intervals, and
 * a paired comparison as rows (tasks, then overall).
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * import { compareRuns } from "@runlens/analyses/compare.ts";
 * const rows = pl.DataFrame({
 *   run: ["a", "a", "b", "b"],
 *   benchmark: ["bbeh", "bbeh", "bbeh", "bbeh"],
 *   task: ["nycc", "nycc", "nycc", "nycc"],
 *   example_index: [0, 1, 0, 1],
 *   correct: [true, false, false, false],
 * });
 * comparisonTable(compareRuns(rows, "a", "b")[0]).getColumn("scope").toArray(); // ["nycc", "overall"]
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { getBenchmark } from "../benchmarks/registry.ts";
import { formatPValue, type RunComparison } from "./compare.ts";
import type { RunSummary } from "../pipeline/summarise.ts";

/**
 * One row per run and aggregate that has a value: run, model, benchmark, metric, value,
 * ci_low, ci_high, se, method, and `no_answer` (the run's scored rows whose scorer found no
 * answer: many of them make the value a statement about answer format, not reasoning).
 *
 * @example
 * ```ts ignore
 * headlineTable((await loadRuns(["runs/"], dataDir)).runs);
 * ```
 */
export function headlineTable(runs: readonly RunSummary[]): pl.DataFrame {
  const rows = runs.flatMap((r) =>
    (getBenchmark(r.benchmark)?.aggregateKeys ?? [])
      .filter(({ key }) => typeof r.aggregate[key] === "number")
      .map(({ key, label }) => ({
        run: r.run,
        model: r.model,
        benchmark: r.benchmark,
        metric: label,
        value: r.aggregate[key] as number,
        ci_low: r.intervals[key]?.ci_low ?? null,
        ci_high: r.intervals[key]?.ci_high ?? null,
        se: r.intervals[key]?.se ?? null,
        method: r.intervals[key]?.method ?? null,
        no_answer: r.no_answer,
      }))
  );
  return pl.DataFrame({
    run: pl.Series("run", rows.map((r) => r.run), pl.Utf8),
    model: pl.Series("model", rows.map((r) => r.model), pl.Utf8),
    benchmark: pl.Series("benchmark", rows.map((r) => r.benchmark), pl.Utf8),
    metric: pl.Series("metric", rows.map((r) => r.metric), pl.Utf8),
    value: pl.Series("value", rows.map((r) => r.value), pl.Float64),
    ci_low: pl.Series("ci_low", rows.map((r) => r.ci_low), pl.Float64),
    ci_high: pl.Series("ci_high", rows.map((r) => r.ci_high), pl.Float64),
    se: pl.Series("se", rows.map((r) => r.se), pl.Float64),
    method: pl.Series("method", rows.map((r) => r.method), pl.Utf8),
    no_answer: pl.Series("no_answer", rows.map((r) => r.no_answer), pl.Int32),
  });
}

/**
 * A comparison's rows (tasks, then `overall`), percentage points, as a frame; the p-values as
 * text (`formatPValue`: "2.3e-26", never a "0.0000" that fixed decimals would print).
 */
export function comparisonTable(c: RunComparison): pl.DataFrame {
  const rows = [...c.tasks, c.overall];
  const num = (k: keyof (typeof rows)[number]) =>
    pl.Series(k, rows.map((r) => (r[k] ?? null) as number | null), pl.Float64);
  const p = (k: "p_value" | "p_holm") =>
    pl.Series(
      k,
      rows.map((r) =>
        r[k] === undefined || r[k] === null
          ? null
          : formatPValue(r[k], k === "p_value" && r.p_value_bound)
      ),
      pl.Utf8,
    );
  return pl.DataFrame([
    pl.Series("scope", rows.map((r) => r.scope), pl.Utf8),
    pl.Series("n_paired", rows.map((r) => r.n_paired), pl.Int32),
    num("acc_a"),
    num("acc_b"),
    num("diff"),
    num("ci_low"),
    num("ci_high"),
    pl.Series("a_only", rows.map((r) => r.a_only), pl.Int32),
    pl.Series("b_only", rows.map((r) => r.b_only), pl.Int32),
    p("p_value"),
    p("p_holm"),
    num("mdd"),
  ]);
}
