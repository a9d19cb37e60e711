/**
 * Figures of estimates with intervals, for any benchmark: per-task accuracy of several runs
 * (a dot and its 95% interval per run and task), a forest plot of paired differences with the
 * Holm-adjusted verdict of each row, and the spread of accuracy across answer-extraction
 * rules (a heat map). Like every figure function of runlens, each takes its data first and one options
 * object ({@link FigureOptions} and its own), and returns the element Plot draws; runs are
 * named by the labels the caller gives (`shortRunLabels`), whose legend the caller prints.
 *
 * @example
 * ```ts
 * import { toStandaloneSvg } from "@runlens/render/figure.ts";
 * const el = taskIntervalFigure([
 *   { run: "a", task: "navigate", accuracy: 96.4, ci_low: 93.3, ci_high: 98.1 },
 *   { run: "b", task: "navigate", accuracy: 50.4, ci_low: 44.2, ci_high: 56.6 },
 * ], { runLabel: (r) => r.toUpperCase() });
 * toStandaloneSvg(el).includes("navigate"); // true
 * ```
 * @module
 */
import * as Plot from "@observablehq/plot";
import { type FigureOptions, plotDocument, textWidth } from "./figure.ts";

/** The width of every figure here, px (the report's column holds it at 1,400 px). */
export const INTERVAL_FIGURE_WIDTH = 860;

/** Categorical colours (Tableau 10), one per run, in the runs' order. */
const RUN_COLOURS = [
  "#4e79a7",
  "#f28e2b",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc948",
  "#b07aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ac",
];

/** Tick labels' font size (Plot's default). */
const TICK_FONT = 10;

/** What every figure here sets alike: document, headings, width, height and margins. */
function common(opts: FigureOptions, height: number, marginLeft: number): Plot.PlotOptions {
  return {
    document: plotDocument(),
    title: opts.title,
    subtitle: opts.subtitle,
    caption: opts.caption,
    width: INTERVAL_FIGURE_WIDTH,
    height,
    marginLeft,
    marginRight: 20,
    marginTop: 10,
  };
}

/** The left margin that fits the longest of `labels` as tick labels. */
function labelMargin(labels: readonly string[]): number {
  return Math.ceil(Math.max(40, ...labels.map((l) => textWidth(l, TICK_FONT)))) + 14;
}

/** One run's accuracy on one task with its 95% interval (percent). */
export interface TaskInterval {
  /** The run. */
  run: string;
  /** The task. */
  task: string;
  /** Accuracy, percent. */
  accuracy: number;
  /** Lower bound of the 95% interval, percent (null: none). */
  ci_low: number | null;
  /** Upper bound of the 95% interval, percent (null: none). */
  ci_high: number | null;
}

/** Options of {@link taskIntervalFigure}. */
export interface TaskIntervalFigureOptions extends FigureOptions {
  /** The label of a run in the colour legend (default: its name). */
  runLabel?: (run: string) => string;
  /** The runs in legend order (default: first-seen order). */
  runs?: readonly string[];
}

/**
 * Per-task accuracy of several runs: one row per task, sorted by the runs' mean accuracy
 * (highest first); in it, per run, a dot at its accuracy and a line over its 95% interval,
 * the runs side by side in the row and coloured with a legend.
 *
 * @example
 * ```ts
 * const el = taskIntervalFigure([
 *   { run: "a", task: "snarks", accuracy: 61.2, ci_low: 53.9, ci_high: 68.1 },
 *   { run: "a", task: "navigate", accuracy: 96.4, ci_low: 93.3, ci_high: 98.1 },
 * ]);
 * el.querySelectorAll("circle").length; // 2
 * ```
 */
export function taskIntervalFigure(
  rows: readonly TaskInterval[],
  opts: TaskIntervalFigureOptions = {},
): Element {
  const runs = opts.runs ?? [...new Set(rows.map((r) => r.run))];
  const label = opts.runLabel ?? ((r: string) => r);
  const tasks = byMean(rows);
  const step = Math.min(7, 16 / runs.length);
  const band = Math.max(16, runs.length * step + 8);
  const offset = (run: string) => (runs.indexOf(run) - (runs.length - 1) / 2) * step;
  const perRun = runs.map((run) => rows.filter((r) => r.run === run));
  return Plot.plot({
    ...common(opts, 40 + tasks.length * band, labelMargin(tasks)),
    x: { domain: [0, 100], grid: true, label: "accuracy (%) with 95% interval" },
    y: { domain: tasks, label: null, padding: 0.6 },
    color: {
      legend: runs.length > 1,
      domain: runs.map(label),
      range: RUN_COLOURS,
    },
    marks: [
      Plot.frame({ stroke: "#ddd" }),
      ...perRun.flatMap((rs) => {
        if (rs.length === 0) return [];
        const dy = offset(rs[0].run), colour = label(rs[0].run);
        return [
          Plot.ruleY(rs.filter((r) => r.ci_low !== null && r.ci_high !== null), {
            y: "task",
            x1: "ci_low",
            x2: "ci_high",
            dy,
            stroke: () => colour,
            strokeWidth: 1.5,
          }),
          Plot.dot(rs, { y: "task", x: "accuracy", dy, fill: () => colour, r: 2.6 }),
        ];
      }),
    ],
  });
}

/** Tasks by the mean of their runs' accuracies, highest first (ties by name). */
function byMean(rows: readonly TaskInterval[]): string[] {
  const sums = new Map<string, [number, number]>();
  for (const r of rows) {
    const s = sums.get(r.task) ?? [0, 0];
    sums.set(r.task, [s[0] + r.accuracy, s[1] + 1]);
  }
  const mean = (t: string) => sums.get(t)![0] / sums.get(t)![1];
  return [...sums.keys()].sort((a, b) => mean(b) - mean(a) || (a < b ? -1 : 1));
}

/** One row of a forest plot: a difference with its interval and the adjusted test's verdict. */
export interface ForestRow {
  /** Row label (a task, or the overall row). */
  label: string;
  /** The difference, percentage points. */
  diff: number;
  /** Lower bound of its interval, percentage points (null: none). */
  ci_low: number | null;
  /** Upper bound of its interval, percentage points (null: none). */
  ci_high: number | null;
  /** Whether the Holm-adjusted test rejects at 5%. */
  significant: boolean;
  /** The row summarising the others (drawn last, as a diamond). */
  overall?: boolean;
}

/** Options of {@link forestFigure}. */
export interface ForestFigureOptions extends FigureOptions {
  /** The x axis label (default "A − B (percentage points), 95% interval"). */
  xLabel?: string;
}

/** The legend entries of a forest plot's marks. */
const SIGNIFICANT = "Holm-adjusted p < 0.05", NOT_SIGNIFICANT = "not significant after Holm";

/**
 * A forest plot: one row per difference (sorted, the overall row last and drawn as a
 * diamond), a line over its 95% interval, a dot filled when the Holm-adjusted test rejects at
 * 5% and hollow when it does not, and a rule at 0.
 *
 * @example
 * ```ts
 * const el = forestFigure([
 *   { label: "navigate", diff: -46, ci_low: -52.7, ci_high: -39, significant: true },
 *   { label: "snarks", diff: 1.7, ci_low: -7.4, ci_high: 10.7, significant: false },
 *   { label: "overall", diff: -21.6, ci_low: -23.1, ci_high: -20.2, significant: true, overall: true },
 * ]);
 * el.querySelectorAll("circle").length; // 2 (and a diamond)
 * ```
 */
export function forestFigure(rows: readonly ForestRow[], opts: ForestFigureOptions = {}): Element {
  const parts = [...rows.filter((r) => !r.overall)].sort((a, b) => b.diff - a.diff);
  const overall = rows.filter((r) => r.overall);
  const labels = [...parts, ...overall].map((r) => r.label);
  const verdict = (r: ForestRow) => r.significant ? SIGNIFICANT : NOT_SIGNIFICANT;
  const bounds = rows.flatMap((r) => [0, r.diff, r.ci_low ?? r.diff, r.ci_high ?? r.diff]);
  const [lo, hi] = [Math.min(...bounds), Math.max(...bounds)];
  const pad = Math.max(2, (hi - lo) * 0.05);
  const withCi = rows.filter((r) => r.ci_low !== null && r.ci_high !== null);
  return Plot.plot({
    ...common(opts, 50 + labels.length * 18, labelMargin(labels)),
    x: {
      domain: [Math.max(-100, lo - pad), Math.min(100, hi + pad)],
      grid: true,
      label: opts.xLabel ?? "A − B (percentage points), 95% interval",
    },
    y: { domain: labels, label: null },
    color: {
      legend: true,
      domain: [SIGNIFICANT, NOT_SIGNIFICANT],
      range: ["#2b4c7e", "#8a8a8a"],
    },
    marks: [
      Plot.ruleX([0], { stroke: "#444" }),
      Plot.ruleY(withCi, {
        y: "label",
        x1: "ci_low",
        x2: "ci_high",
        stroke: verdict,
        strokeWidth: 1.5,
      }),
      Plot.dot(parts.filter((r) => r.significant), {
        y: "label",
        x: "diff",
        fill: verdict,
        r: 3.5,
      }),
      Plot.dot(parts.filter((r) => !r.significant), {
        y: "label",
        x: "diff",
        stroke: verdict,
        fill: "white",
        r: 3.5,
        strokeWidth: 1.5,
      }),
      Plot.dot(overall, {
        y: "label",
        x: "diff",
        symbol: "diamond",
        fill: verdict,
        stroke: "black",
        r: 6,
      }),
    ],
  });
}

/** One run's accuracy on one task under one answer-extraction rule (percent). */
export interface RuleAccuracy {
  /** The run. */
  run: string;
  /** The task. */
  task: string;
  /** The rule (scorer) that extracted the answers. */
  rule: string;
  /** Accuracy, percent. */
  accuracy: number;
  /** Whether the rule is the run's official one. */
  official: boolean;
}

/** Options of {@link ruleHeatmapFigure}. */
export interface RuleHeatmapFigureOptions extends FigureOptions {
  /** The label of a run heading its panel (default: its name). */
  runLabel?: (run: string) => string;
}

/** The narrowest cell that holds its accuracy as text, px. */
const MIN_TEXT_CELL = 26;

/**
 * Answer-format sensitivity as a heat map: one panel per run, a row per task (in the order
 * given), a column per rule (in the order given), each cell coloured and labelled with the
 * accuracy the rule gives; the run's official rule outlined. A rule that finds no answer in
 * a run's responses shows as a pale column.
 *
 * @example
 * ```ts
 * const el = ruleHeatmapFigure([
 *   { run: "a", task: "navigate", rule: "strict", accuracy: 88.4, official: true },
 *   { run: "a", task: "navigate", rule: "lenient", accuracy: 91.2, official: false },
 * ]);
 * el.querySelectorAll("g[aria-label='cell'] rect").length; // 3: two cells, one outline
 * ```
 */
export function ruleHeatmapFigure(
  rows: readonly RuleAccuracy[],
  opts: RuleHeatmapFigureOptions = {},
): Element {
  const runs = [...new Set(rows.map((r) => r.run))];
  const tasks = [...new Set(rows.map((r) => r.task))];
  const rules = [...new Set(rows.map((r) => r.rule))];
  const label = opts.runLabel ?? ((r: string) => r);
  // each panel's run heads it in the left margin, above the task names: the rule names above
  // the first panel keep the top
  const marginLeft = Math.max(
    labelMargin(tasks),
    Math.ceil(Math.max(...runs.map((r) => textWidth(label(r), 11, true)))) + 14,
  );
  const marginTop = Math.ceil(Math.max(...rules.map((r) => textWidth(r, TICK_FONT))) * 0.71) + 16;
  const cell = (INTERVAL_FIGURE_WIDTH - marginLeft - 20) / Math.max(1, rules.length);
  return Plot.plot({
    ...common(opts, marginTop + 20 + runs.length * (tasks.length * 17 + 24), marginLeft),
    marginTop,
    marginBottom: 10,
    x: { domain: rules, label: null, tickRotate: -45, axis: "top" },
    y: { domain: tasks, label: null },
    fy: { domain: runs, label: null, axis: null, padding: 0.06 },
    color: {
      type: "linear",
      scheme: "blues",
      domain: [0, 100],
      legend: true,
      label: "accuracy (%)",
    },
    marks: [
      Plot.text(runs, {
        fy: (r: string) => r,
        text: label,
        frameAnchor: "top-left",
        textAnchor: "end",
        lineAnchor: "bottom",
        dx: -8,
        dy: -2,
        fontSize: 11,
        fontWeight: "bold",
      }),
      Plot.cell(rows, { x: "rule", y: "task", fy: "run", fill: "accuracy", inset: 0.5 }),
      Plot.cell(rows.filter((r) => r.official), {
        x: "rule",
        y: "task",
        fy: "run",
        fill: "none",
        stroke: "black",
        strokeWidth: 1.5,
      }),
      ...(cell >= MIN_TEXT_CELL
        ? [Plot.text(rows, {
          x: "rule",
          y: "task",
          fy: "run",
          text: (r: RuleAccuracy) => r.accuracy.toFixed(0),
          fontSize: 9,
          fill: (r: RuleAccuracy) => r.accuracy > 60 ? "white" : "black",
        })]
        : []),
    ],
  });
}
