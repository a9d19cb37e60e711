/**
 * Plot specifications of the BBH-vs-BBEH notebook: Figure 4 (output lengths), Table 10 as a
 * dumbbell chart, the BBH release's CoT vs direct comparison, and the format-sensitivity
 * figure (official vs lenient accuracy per task and run). Like every figure function of
 * runlens, each takes its data frame first and one options object ({@link FigureOptions} and
 * its own options), and returns the element Plot draws; write it with `saveFigure` from
 * lib/render/figure.ts.
 *
 * @example
 * ```ts
 * import { table10Figure } from "@runlens/benchmarks/bbh/compare/figures.ts";
 * import { publishedTable10 } from "@runlens/benchmarks/bbh/compare/table10.ts";
 * const el = table10Figure(publishedTable10(), { paper: true });
 * ```
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import { type FigureOptions, plotDocument, textWidth } from "../../../render/figure.ts";
import { runLegend, withLegend } from "../../../render/figure/run_axis.ts";
import { shortRunLabels } from "../../../render/run_labels.ts";

const GREY = "#9e9e9e", BLUE = "#4f81bd", RED = "#c0504d";
/** Font size of the run name heading each panel of the format-sensitivity figure. */
const PANEL_TITLE = 11;

/** A two-point-per-row chart: one row per label, a link between the two values. */
function dumbbell(
  rows: { label: string; a: number | null; b: number | null }[],
  o: FigureOptions & {
    a: string;
    b: string;
    x: Plot.ScaleOptions;
  },
): Element {
  const long = rows.flatMap((r) => [
    { label: r.label, set: o.a, v: r.a },
    { label: r.label, set: o.b, v: r.b },
  ]).filter((r) => r.v !== null);
  const labels = [...new Set(rows.map((r) => r.label))];
  return Plot.plot({
    document: plotDocument(),
    title: o.title,
    subtitle: o.subtitle,
    caption: o.caption,
    width: 760,
    height: 50 + rows.length * 20,
    marginLeft: 230,
    x: { grid: true, ...o.x },
    y: { label: null, domain: labels },
    color: { legend: true, domain: [o.a, o.b], range: [GREY, BLUE] },
    marks: [
      Plot.link(rows.filter((r) => r.a !== null && r.b !== null), {
        x1: "a",
        x2: "b",
        y1: "label",
        y2: "label",
        stroke: "#bbb",
      }),
      Plot.dot(long, { x: "v", y: "label", fill: "set", r: 4 }),
    ],
  });
}

/**
 * Options of {@link outputLengthFigure}. Title by default: "Average output length per task:
 * BBEH vs its BBH counterpart ({model})"; caption: a pointer to the paper's Figure 4.
 */
export interface OutputLengthFigureOptions extends FigureOptions {
  /** The model of the frame to draw. */
  model: string;
}

/**
 * Figure 4: mean response length (characters, log scale) per BBEH task and its BBH counterpart,
 * for ONE model of an `outputLengthComparison` frame (model, display, bbh, bbeh).
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const cmp = pl.DataFrame({
 *   model: ["gemini-2.0-flash", "gemini-2.0-flash", "other"],
 *   display: ["Dyck Languages", "Zebra Puzzles", "Dyck Languages"],
 *   bbh: [412.5, 1310.2, 380.1],
 *   bbeh: [2980.4, 9120.7, 2400.3],
 * });
 * const el = outputLengthFigure(cmp, {
 *   model: "gemini-2.0-flash",
 *   caption: "Macro average: BBEH 6051 vs BBH 861 characters (7.0×).",
 * });
 * el.querySelectorAll("circle").length; // 4: two tasks, both benchmarks
 * ```
 */
export function outputLengthFigure(cmp: pl.DataFrame, opts: OutputLengthFigureOptions): Element {
  const { model } = opts;
  const recs = cmp.filter(pl.col("model").eq(pl.lit(model))).sort("bbeh")
    .toRecords() as { display: string; bbh: number; bbeh: number }[];
  return dumbbell(recs.map((r) => ({ label: r.display, a: r.bbh, b: r.bbeh })), {
    title: opts.title ?? `Average output length per task: BBEH vs its BBH counterpart (${model})`,
    subtitle: opts.subtitle,
    caption: opts.caption ?? "As in the BBEH paper's Figure 4 (there: Gemini 2.0 Flash).",
    a: "BBH counterpart",
    b: "BBEH",
    x: { type: "log", label: "mean response length (characters, log scale)" },
  });
}

/**
 * Options of {@link table10Figure}. Title by default: "Accuracy on each BBH counterpart vs the
 * BBEH task ({model, or the paper})".
 */
export interface Table10FigureOptions extends FigureOptions {
  /** The model of a `table10` frame to draw (default: every row of the frame). */
  model?: string;
  /** Draw the paper's Gemini 2.0 Flash columns (`paper_bbh`, `paper_bbeh`) instead. */
  paper?: boolean;
}

/**
 * Table 10 as a chart: per BBEH task, the model's BBH-counterpart and BBEH accuracy (one
 * model of a `table10` frame), or the paper's Gemini 2.0 Flash columns with `paper: true`.
 *
 * @example
 * ```ts
 * import { publishedTable10 } from "@runlens/benchmarks/bbh/compare/table10.ts";
 * const el = table10Figure(publishedTable10(), { paper: true });
 * el.querySelector("h2")?.textContent;
 * // "Accuracy on each BBH counterpart vs the BBEH task (Gemini 2.0 Flash, BBEH paper Table 10)"
 * ```
 */
export function table10Figure(t10: pl.DataFrame, opts: Table10FigureOptions = {}): Element {
  const df = opts.model ? t10.filter(pl.col("model").eq(pl.lit(opts.model))) : t10;
  const [a, b] = opts.paper ? ["paper_bbh", "paper_bbeh"] : ["bbh", "bbeh"];
  const recs = (df.toRecords() as Record<string, unknown>[])
    .map((r) => ({
      label: r.display as string,
      a: r[a] as number | null,
      b: r[b] as number | null,
    }))
    .sort((x, y) => (x.b ?? -1) - (y.b ?? -1) || x.label.localeCompare(y.label));
  const who = opts.paper ? "Gemini 2.0 Flash, BBEH paper Table 10" : opts.model ?? "run";
  return dumbbell(recs, {
    title: opts.title ?? `Accuracy on each BBH counterpart vs the BBEH task (${who})`,
    subtitle: opts.subtitle,
    caption: opts.caption,
    a: "BBH counterpart",
    b: "BBEH",
    x: { label: "accuracy (%)", domain: [0, 100] },
  });
}

/**
 * The BBH release's comparison: per task, code-davinci-002 answer-only vs chain-of-thought
 * accuracy (a `cotVsDirect` frame: task, direct, cot, gain), tasks sorted by the CoT gain.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * import { cotVsDirect } from "@runlens/benchmarks/bbh/compare/cot_vs_direct.ts";
 * const rows = pl.DataFrame({
 *   run: ["code-davinci-002-cot", "code-davinci-002-cot", "code-davinci-002-direct"],
 *   task: ["navigate", "navigate", "navigate"],
 *   correct: [true, true, false],
 * });
 * const el = cotVsDirectFigure(cotVsDirect(rows), { caption: "Macro average: direct 0, CoT 100" });
 * el.querySelectorAll("circle").length; // 2: answer-only and chain-of-thought
 * ```
 */
export function cotVsDirectFigure(t: pl.DataFrame, opts: FigureOptions = {}): Element {
  const recs = t.sort("gain").toRecords() as { task: string; direct: number; cot: number }[];
  return dumbbell(recs.map((r) => ({ label: r.task, a: r.direct, b: r.cot })), {
    title: opts.title ?? "BBH release: code-davinci-002, answer-only vs chain-of-thought, per task",
    subtitle: opts.subtitle,
    caption: opts.caption,
    a: "answer-only (direct)",
    b: "chain-of-thought",
    x: { label: "accuracy (%)", domain: [0, 100] },
  });
}

/**
 * Format sensitivity: per task, accuracy under each run's official rule vs `lenient`, one panel
 * row per run (a `summarizeFormatSensitivity` frame: run, task, scorer, accuracy, official).
 * Tasks sorted by name. The caption by default says what "official" and "lenient" are.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const long = pl.DataFrame({
 *   run: ["code-davinci-002-cot", "code-davinci-002-cot"],
 *   task: ["navigate", "navigate"],
 *   scorer: ["bbh-release-cot", "lenient"],
 *   accuracy: [88.4, 91.2],
 *   official: [true, false],
 * });
 * const el = formatSensitivityFigure(long);
 * el.querySelector("figcaption")?.textContent?.startsWith("Official: the run's own rule"); // true
 * ```
 */
export function formatSensitivityFigure(long: pl.DataFrame, opts: FigureOptions = {}): Element {
  const recs = long.toRecords() as {
    run: string;
    task: string;
    scorer: string;
    accuracy: number;
    official: boolean;
  }[];
  const key = (r: { run: string; task: string }) => `${r.run}\u0000${r.task}`;
  const off = new Map(recs.filter((r) => r.official).map((r) => [key(r), r.accuracy]));
  const len = new Map(recs.filter((r) => r.scorer === "lenient").map((r) => [key(r), r.accuracy]));
  const pairs = [...new Set(recs.map(key))].sort().map((k) => {
    const [run, task] = k.split("\u0000");
    return { run, label: task, a: off.get(k) ?? null, b: len.get(k) ?? null };
  });
  const runs = [...new Set(pairs.map((p) => p.run))];
  const rows = runs.flatMap((run) => pairs.filter((p) => p.run === run));
  // run names head their panel (the whole width is theirs), shortened only past it; task
  // names get the left margin they measure, so the 0–100 axis keeps most of the width
  const width = 760, marginRight = 20;
  const marginLeft = Math.ceil(Math.max(0, ...pairs.map((p) => textWidth(p.label, 10)))) + 15;
  const { label, legend } = shortRunLabels(runs, {
    maxChars: 200,
    fits: (l) => textWidth(l, PANEL_TITLE, true) <= width - marginLeft - marginRight,
  });
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ?? "Answer-format sensitivity: official rule vs lenient extractor, per task",
    subtitle: opts.subtitle,
    caption: withLegend(
      opts.caption ??
        "Official: the run's own rule (bbeh-official / bbh-release-*). Lenient: analysis only.",
      runLegend(legend),
    ),
    width,
    height: 60 + rows.length * 18 + runs.length * 24,
    marginLeft,
    marginRight,
    marginTop: 24,
    x: { grid: true, label: "accuracy (%)", domain: [0, 100] },
    y: { label: null },
    fy: { label: null, domain: runs, axis: null, padding: 0.12 },
    color: { legend: true, domain: ["official", "lenient"], range: [GREY, RED] },
    marks: [
      Plot.text(runs, {
        fy: (r: string) => r,
        text: label,
        frameAnchor: "top-left",
        lineAnchor: "bottom",
        dy: -6,
        fontSize: PANEL_TITLE,
        fontWeight: "bold",
      }),
      Plot.link(rows.filter((r) => r.a !== null && r.b !== null), {
        x1: "a",
        x2: "b",
        y1: "label",
        y2: "label",
        fy: "run",
        stroke: "#bbb",
      }),
      Plot.dot(rows.filter((r) => r.a !== null), {
        x: "a",
        y: "label",
        fy: "run",
        fill: () => "official",
        r: 4,
      }),
      Plot.dot(rows.filter((r) => r.b !== null), {
        x: "b",
        y: "label",
        fy: "run",
        stroke: () => "lenient",
        r: 6,
        strokeWidth: 1.5,
      }),
    ],
  });
}
