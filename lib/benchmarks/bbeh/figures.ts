/**
 * Plot specifications of the leaderboard notebook's figures (the BBEH paper's Figures 3, 5, 6).
 * Like every figure function of runlens, each takes its data frame first and one options
 * object ({@link FigureOptions} and its own options), and returns the element Plot draws;
 * write it with `saveFigure` from lib/render/figure.ts.
 *
 * @example
 * ```ts
 * import { gainFigure } from "@runlens/benchmarks/bbeh/figures.ts";
 * import { taskGain } from "@runlens/benchmarks/bbeh/gain.ts";
 * import { BBEH_TABLE2 } from "@runlens/benchmarks/bbeh/published.ts";
 * const a = BBEH_TABLE2.accuracy;
 * const el = gainFigure(taskGain(a["GPT4o"], a["o3-mini (high)"]), {
 *   title: "o3-mini (high) over GPT4o",
 *   base: "GPT4o",
 *   other: "o3-mini (high)",
 * });
 * ```
 * @module
 */
import * as Plot from "@observablehq/plot";
import type pl from "nodejs-polars";
import { type FigureOptions, plotDocument } from "../../render/figure.ts";
import { runAxis, withLegend } from "../../render/figure/run_axis.ts";

/** Options of {@link gainFigure}: the two models' labels (the title defaults to them). */
export interface GainFigureOptions extends FigureOptions {
  /** Label of the model the gain is measured from. */
  base: string;
  /** Label of the model whose gain is drawn. */
  other: string;
}

/**
 * Horizontal bars: per-task gain of `other` over `base` (frame from `taskGain`: display, gain).
 * Title by default: "Gain of {other} over {base} per BBEH task".
 *
 * @example
 * ```ts
 * import { taskGain } from "@runlens/benchmarks/bbeh/gain.ts";
 * import { BBEH_TABLE2 } from "@runlens/benchmarks/bbeh/published.ts";
 * const acc = BBEH_TABLE2.accuracy;
 * const el = gainFigure(taskGain(acc["Gemini 2.0 Flash-Lite"], acc["Gemini 2.0 Flash"]), {
 *   base: "Flash-Lite",
 *   other: "Flash",
 *   caption: "Accuracies from the paper's Table 2.",
 * });
 * el.querySelector("h2")?.textContent; // "Gain of Flash over Flash-Lite per BBEH task"
 * ```
 */
export function gainFigure(gain: pl.DataFrame, opts: GainFigureOptions): Element {
  const rows = gain.toRecords() as { display: string; gain: number }[];
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ?? `Gain of ${opts.other} over ${opts.base} per BBEH task`,
    subtitle: opts.subtitle,
    caption: opts.caption,
    width: 720,
    height: 34 + rows.length * 22,
    marginLeft: 160,
    marginRight: 48,
    x: { label: `${opts.other} − ${opts.base} (accuracy points)`, grid: true },
    y: { label: null, domain: rows.map((r) => r.display) },
    color: { domain: [false, true], range: ["#c0504d", "#4f81bd"] },
    marks: [
      Plot.barX(rows, { x: "gain", y: "display", fill: (r) => r.gain >= 0 }),
      Plot.text(rows, {
        x: "gain",
        y: "display",
        text: (r) => r.gain.toFixed(1),
        textAnchor: "start",
        dx: 4,
        fontSize: 10,
      }),
      Plot.ruleX([0]),
    ],
  });
}

/** The columns of an `inputLengthComparison` frame that {@link inputLengthFigure} draws. */
export interface InputLengthRow {
  /** The task's display name. */
  display: string;
  /** Mean input length of the BBEH task, characters. */
  bbeh: number;
  /** Mean input length of the BBH task(s) it replaces, characters. */
  bbh: number;
}

/**
 * Figure 3: mean input length (characters, log scale) per task, BBH vs BBEH, from an
 * `inputLengthComparison` frame (display, bbeh, bbh). Title by default the paper's.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const lengths = pl.DataFrame({
 *   display: ["Dyck Languages", "Zebra Puzzles"],
 *   bbeh: [1702.4, 4329.8],
 *   bbh: [206.8, 748.9],
 * });
 * const el = inputLengthFigure(lengths, { caption: "Macro average: BBEH 3016 vs BBH 478" });
 * el.querySelectorAll("circle").length; // 4: a dot per task and data set
 * ```
 */
export function inputLengthFigure(lengths: pl.DataFrame, opts: FigureOptions = {}): Element {
  const rows = lengths.toRecords() as unknown as InputLengthRow[];
  const sorted = [...rows].sort((a, b) => a.bbeh - b.bbeh || a.display.localeCompare(b.display));
  const long = sorted.flatMap((r) => [
    { display: r.display, set: "BBH counterpart", chars: r.bbh },
    { display: r.display, set: "BBEH", chars: r.bbeh },
  ]);
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ??
      "Average input length per task: BBEH vs its BBH counterpart (BBEH paper, Figure 3)",
    subtitle: opts.subtitle,
    caption: opts.caption,
    width: 720,
    height: 40 + sorted.length * 22,
    marginLeft: 160,
    x: { type: "log", label: "mean input length (characters, log scale)", grid: true },
    y: { label: null, domain: sorted.map((r) => r.display) },
    color: { legend: true, domain: ["BBH counterpart", "BBEH"], range: ["#9e9e9e", "#4f81bd"] },
    marks: [
      Plot.link(sorted, { x1: "bbh", x2: "bbeh", y1: "display", y2: "display", stroke: "#bbb" }),
      Plot.dot(long, { x: "chars", y: "display", fill: "set", r: 4 }),
    ],
  });
}

/** Options of {@link leaderboardFigure}. */
export interface LeaderboardFigureOptions extends FigureOptions {
  /** The column drawn (default `harmonic_mean`, the paper's headline). */
  measure?: string;
}

/**
 * The leaderboard as a dot per model (best first), the runs' 95% intervals as error bars
 * (`ci_low`, `ci_high`; the paper's models have none), coloured by source (paper or run).
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const board = pl.DataFrame({
 *   model: ["o3-mini (high)", "my-model"],
 *   source: ["paper (Tables 2, 4)", "run my-run (full set)"],
 *   harmonic_mean: [44.8, 12.1],
 *   ci_low: [null, 10.2],
 *   ci_high: [null, 14.3],
 * });
 * leaderboardFigure(board, { title: "BBEH" }).tagName; // "FIGURE"
 * ```
 */
export function leaderboardFigure(
  board: pl.DataFrame,
  opts: LeaderboardFigureOptions = {},
): Element {
  const measure = opts.measure ?? "harmonic_mean";
  const rows = (board.toRecords() as Record<string, unknown>[])
    .filter((r) => typeof r[measure] === "number")
    .map((r) => ({
      model: String(r.model),
      kind: String(r.source).startsWith("paper") ? "paper" : "your runs",
      value: r[measure] as number,
      low: (r.ci_low ?? null) as number | null,
      high: (r.ci_high ?? null) as number | null,
    }));
  const withBars = rows.filter((r) => r.low !== null && r.high !== null);
  const axis = runAxis(rows.map((r) => r.model), { width: 720 });
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ?? `BBEH ${measure.replace("_", " ")} per model`,
    subtitle: opts.subtitle,
    caption: withLegend(opts.caption, axis.legend),
    width: 720,
    height: 40 + rows.length * 24,
    marginLeft: Math.max(60, axis.margin),
    x: { label: `${measure.replace("_", " ")} →`, grid: true },
    y: { label: null, domain: rows.map((r) => r.model), tickFormat: axis.label },
    color: { legend: true, domain: ["paper", "your runs"], range: ["#9ca3af", "#2563eb"] },
    marks: [
      Plot.ruleY(withBars, { y: "model", x1: "low", x2: "high", stroke: "kind", strokeWidth: 2 }),
      Plot.dot(rows, { y: "model", x: "value", fill: "kind", r: 4 }),
    ],
  });
}
