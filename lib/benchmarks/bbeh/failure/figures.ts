/**
 * Plot specifications of the failure-mode notebook: shares with 95% Wilson intervals per model
 * (optionally beside the paper's value), Zebra accuracy by size (Table 9), the no-answer heat
 * map and the Figure 7 gain-vs-length scatter. Like every figure function of runlens, each
 * takes its data frame first and one options object ({@link FigureOptions} and its own
 * options), and returns the element Plot draws; write it with `saveFigure`
 * (lib/render/figure.ts).
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * import { shareFigure } from "@runlens/benchmarks/bbeh/failure/figures.ts";
 * import { shareMeasures } from "@runlens/benchmarks/bbeh/failure/shares.ts";
 * const rows = pl.DataFrame({
 *   run: ["a", "a", "a", "b", "b", "b"],
 *   model: ["model-a", "model-a", "model-a", "model-b", "model-b", "model-b"],
 *   task: Array(6).fill("boardgame_qa"),
 *   predicted: ["unknown", "proved", "unknown", "disproved", "unknown", "proved"],
 * });
 * const table = shareMeasures(rows, [
 *   { measure: "unknown_share", hit: pl.col("predicted").eq(pl.lit("unknown")), of: pl.lit(true) },
 * ]);
 * const el = shareFigure(table, {
 *   measure: "unknown_share",
 *   title: "BoardgameQA: share of unknown predictions",
 *   reference: 100 / 3,
 * });
 * ```
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import { type FigureOptions, plotDocument, textWidth } from "../../../render/figure.ts";
import { runAxis, withLegend } from "../../../render/figure/run_axis.ts";
import { pointLabels, type ScaleDomains } from "../../../render/figure/label_layout.ts";

/** Options of {@link shareFigure}. Title by default: "{measure} by model". */
export interface ShareFigureOptions extends FigureOptions {
  /** The measure of the share table to draw. */
  measure: string;
  /** Group of the share table to draw (default "all"). */
  group?: string;
  /** Task filter (for tables that span tasks). */
  task?: string;
  /** A reference line (e.g. the gold rate) in percent. */
  reference?: number;
  /** The reference line's label. */
  referenceLabel?: string;
  /** Published values per model name (drawn as black ticks). */
  published?: Record<string, number>;
  /** Map a run's model name to a published model name. */
  publishedName?: (model: string) => string;
  /** The x-axis label. */
  xLabel?: string;
}

/**
 * Horizontal bars: one measure of a share table per model, with its 95% Wilson interval and the
 * count / n as text.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * import { shareMeasures } from "@runlens/benchmarks/bbeh/failure/shares.ts";
 * const rows = pl.DataFrame({
 *   run: ["a", "a", "b", "b"],
 *   model: ["model-a", "model-a", "model-b", "model-b"],
 *   task: Array(4).fill("shuffled_objects"),
 *   answered: [true, false, true, true],
 * });
 * const table = shareMeasures(rows, [
 *   { measure: "no_final_answer_share", hit: pl.col("answered").not(), of: pl.lit(true) },
 * ]);
 * const el = shareFigure(table, {
 *   measure: "no_final_answer_share",
 *   title: "Shuffled Objects: responses without a final answer",
 *   published: { "model-a": 40 },
 * });
 * el.querySelectorAll("g[aria-label='bar'] rect").length; // 2: one bar per model
 * ```
 */
export function shareFigure(table: pl.DataFrame, opts: ShareFigureOptions): Element {
  let df = table.filter(
    pl.col("measure").eq(pl.lit(opts.measure)).and(pl.col("group").eq(pl.lit(opts.group ?? "all"))),
  );
  if (opts.task) df = df.filter(pl.col("task").eq(pl.lit(opts.task)));
  const rows = df.toRecords() as {
    model: string;
    count: number;
    n: number;
    share: number | null;
    ci_low: number | null;
    ci_high: number | null;
  }[];
  const drawn = rows.filter((r) => r.share !== null);
  const published = opts.published
    ? drawn.flatMap((r) => {
      const v = opts.published![opts.publishedName ? opts.publishedName(r.model) : r.model];
      return v === undefined ? [] : [{ model: r.model, value: v }];
    })
    : [];
  const text = (r: { share: number | null; count: number; n: number }) =>
    `${r.share!.toFixed(1)}% (${r.count}/${r.n})`;
  const axis = runAxis(drawn.map((r) => r.model), { width: 720 });
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ?? `${opts.measure} by model`,
    subtitle: opts.subtitle,
    caption: withLegend(opts.caption, axis.legend),
    width: 720,
    height: 60 + Math.max(1, drawn.length) * 30,
    marginLeft: axis.margin,
    // the count text right of 100% is measured: "100.0% (154/154)" was cut at a fixed margin
    marginRight: Math.ceil(Math.max(0, ...drawn.map((r) => textWidth(text(r), 10)))) + 12,
    x: { label: opts.xLabel ?? "share (%)", domain: [0, 100], grid: true },
    y: { label: null, domain: drawn.map((r) => r.model), tickFormat: axis.label },
    marks: [
      Plot.barX(drawn, { x: "share", y: "model", fill: "#4f81bd" }),
      Plot.ruleY(drawn, { x1: "ci_low", x2: "ci_high", y: "model", stroke: "#222" }),
      Plot.text(drawn, {
        x: 100,
        y: "model",
        text,
        textAnchor: "start",
        dx: 4,
        fontSize: 10,
      }),
      ...(published.length > 0
        ? [Plot.tickX(published, { x: "value", y: "model", stroke: "black", strokeWidth: 3 })]
        : []),
      ...(opts.reference !== undefined
        ? [Plot.ruleX([opts.reference], { stroke: "#c0504d", strokeDasharray: "4,3" })]
        : []),
    ],
  });
}

/** Options of {@link subsetLineFigure}. Title by default: "{task}: accuracy by subset". */
export interface SubsetLineFigureOptions extends FigureOptions {
  /** The task whose subsets are drawn. */
  task: string;
  /** Subset labels in x order (e.g. Zebra Puzzles' sizes). */
  subsets: readonly string[];
}

/**
 * Lines: accuracy per subset label (x, in the given order) per model, with Wilson intervals —
 * e.g. Zebra Puzzles by size (the paper's Table 9). Input: an `allSubsetAccuracy` frame
 * (model, task, subset, accuracy, ci_low, ci_high).
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const subsets = pl.DataFrame({
 *   model: ["model-a", "model-a", "model-b", "model-b"],
 *   task: Array(4).fill("zebra_puzzles"),
 *   subset: ["5x5", "8x8", "5x5", "8x8"],
 *   accuracy: [60, 20, 45, 10],
 *   ci_low: [45.2, 10.1, 31.1, 4.0],
 *   ci_high: [73.1, 35.6, 59.7, 23.2],
 * });
 * const el = subsetLineFigure(subsets, {
 *   task: "zebra_puzzles",
 *   subsets: ["5x5", "6x6", "7x7", "8x8"],
 *   title: "Zebra Puzzles accuracy by puzzle size",
 * });
 * ```
 */
export function subsetLineFigure(subsets: pl.DataFrame, opts: SubsetLineFigureOptions): Element {
  const { task } = opts;
  const rows = subsets.filter(pl.col("task").eq(pl.lit(task))).toRecords() as {
    model: string;
    subset: string;
    accuracy: number;
    ci_low: number;
    ci_high: number;
  }[];
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ?? `${task}: accuracy by subset`,
    subtitle: opts.subtitle,
    caption: opts.caption,
    width: 720,
    height: 380,
    x: { label: null, domain: [...opts.subsets], padding: 0.4 },
    y: { label: "accuracy (%)", domain: [0, 100], grid: true },
    color: { legend: true },
    marks: [
      Plot.ruleX(rows, { x: "subset", y1: "ci_low", y2: "ci_high", stroke: "model", dx: 0 }),
      Plot.line(rows, { x: "subset", y: "accuracy", stroke: "model" }),
      Plot.dot(rows, { x: "subset", y: "accuracy", fill: "model", r: 4 }),
    ],
  });
}

/** Options of {@link taskHeatmapFigure}. Title by default: "{measure} (%) by task and model". */
export interface TaskHeatmapFigureOptions extends FigureOptions {
  /** The measure of the share table to draw. */
  measure: string;
}

/**
 * Heat map: a measure of a per-task share table (e.g. `no_answer_share`) by task × model.
 *
 * @example
 * ```ts
 * import { noAnswerByTask } from "@runlens/benchmarks/bbeh/failure/no_answer.ts";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   run: ["a", "a", "b", "b"],
 *   model: ["model-a", "model-a", "model-b", "model-b"],
 *   task: ["dyck_languages", "zebra_puzzles", "dyck_languages", "zebra_puzzles"],
 *   response: ["The answer is: ) ]", "I am not sure.", "The answer is: ]", "The answer is: 3"],
 *   extracted: [") ]", "", "]", "3"],
 * });
 * const el = taskHeatmapFigure(noAnswerByTask(rows), {
 *   measure: "no_answer_share",
 *   title: "Responses without a final answer (%) per task",
 * });
 * el.querySelectorAll("g[aria-label='cell'] rect").length; // 4: task × model
 * ```
 */
export function taskHeatmapFigure(table: pl.DataFrame, opts: TaskHeatmapFigureOptions): Element {
  const { measure } = opts;
  const rows = table.filter(pl.col("measure").eq(pl.lit(measure))).toRecords() as {
    model: string;
    task: string;
    share: number;
  }[];
  const tasks = [...new Set(rows.map((r) => r.task))].sort();
  const axis = runAxis(rows.map((r) => r.model), { width: 720 });
  const longest = Math.max(0, ...rows.map((r) => textWidth(axis.label(r.model), 10)));
  const marginBottom = Math.ceil(longest * Math.sin(Math.PI / 9)) + 30;
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ?? `${measure} (%) by task and model`,
    subtitle: opts.subtitle,
    caption: withLegend(opts.caption, axis.legend),
    width: 720,
    // model names are tilted by 20°: the margin below holds the longest one, rows keep 20 px
    height: 30 + tasks.length * 20 + marginBottom,
    marginLeft: 170,
    marginBottom,
    x: { label: null, tickRotate: -20, tickFormat: axis.label },
    y: { label: null, domain: tasks },
    color: { type: "linear", scheme: "blues", domain: [0, 100], legend: true, label: "%" },
    marks: [
      Plot.cell(rows, { x: "model", y: "task", fill: "share" }),
      Plot.text(rows, {
        x: "model",
        y: "task",
        text: (r) => r.share.toFixed(0),
        fontSize: 9,
        fill: (r) => r.share > 60 ? "white" : "black",
      }),
    ],
  });
}

/** Options of {@link gainLengthFigure}. Title by default: "Gain vs input length" (or output). */
export interface GainLengthFigureOptions extends FigureOptions {
  /** The length on the x axis: mean input or mean output characters per task. */
  x: "input_chars" | "output_chars";
}

/**
 * Figure 7 (one panel): per-task gain against `x` ("input_chars" or "output_chars") with a
 * least-squares line. Input: a `gainVsLength` frame (display, gain, input_chars, output_chars).
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * import { gainVsLengthPublished } from "@runlens/benchmarks/bbeh/lengths.ts";
 * const dataset = pl.DataFrame({
 *   task: ["boardgame_qa", "dyck_languages", "zebra_puzzles", "boardgame_qa"],
 *   input_chars: [3100, 1700, 4300, 2900],
 * });
 * const data = gainVsLengthPublished(dataset, "GPT4o", "o3-mini (high)");
 * const el = gainLengthFigure(data, {
 *   x: "input_chars",
 *   title: "Gain of o3-mini (high) over GPT4o vs input length",
 *   caption: "Accuracies: BBEH paper Table 2.",
 * });
 * el.querySelectorAll("circle").length; // 3: one dot per task
 * ```
 */
export function gainLengthFigure(data: pl.DataFrame, opts: GainLengthFigureOptions): Element {
  const { x } = opts;
  const rows = (data.toRecords() as Record<string, number | string | null>[])
    .filter((r) => r[x] !== null && r.gain !== null);
  const plot = (marks: Plot.Markish[], domains: ScaleDomains = {}) =>
    Plot.plot({
      document: plotDocument(),
      title: opts.title ?? `Gain vs ${x === "input_chars" ? "input" : "output"} length`,
      subtitle: opts.subtitle,
      caption: opts.caption,
      width: 720,
      height: 420,
      marginLeft: 50,
      marginRight: 70,
      x: {
        type: "log",
        label: x === "input_chars"
          ? "mean input length (characters, log)"
          : "mean output length (characters, log)",
        grid: true,
        domain: domains.x,
      },
      y: { label: "gain (accuracy points)", grid: true, domain: domains.y },
      marks,
    });
  const marks = [
    Plot.ruleY([0]),
    Plot.linearRegressionY(rows, { x, y: "gain", stroke: "#c0504d", ci: 0 }),
    Plot.dot(rows, { x, y: "gain", fill: "#4f81bd", r: 4 }),
  ];
  // drawn once for its scales, then again with the task names placed where they collide with
  // nothing (Figure 7's labels overlapped when each sat above its dot)
  const labels = pointLabels(
    rows,
    { x, y: "gain", text: "display", r: 4, fontSize: 9 },
    plot(marks),
  );
  return plot([...labels.leaders, ...marks, ...labels.texts], labels.domains);
}
