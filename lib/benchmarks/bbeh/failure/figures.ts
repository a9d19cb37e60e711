/**
 * Plot specifications of the failure-mode notebook: shares with 95% Wilson intervals per model
 * (optionally beside the paper's value), Zebra accuracy by size (Table 9), the no-answer heat
 * map and the Figure 7 gain-vs-length scatter. Each returns the element Plot draws; write it
 * with `saveFigure` (lib/render/figure.ts).
 *
 * @example
 * ```ts
 * import { shareFigure } from "@runlens/benchmarks/bbeh/failure/figures.ts";
 * const el = shareFigure(boardgameUnknownShare(rows), {
 *   measure: "unknown_share",
 *   title: "BoardgameQA: share of unknown predictions",
 *   reference: 33.3,
 * });
 * ```
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import { plotDocument } from "../../../render/figure.ts";

/** Options of {@link shareFigure}. */
export interface ShareFigureOptions {
  measure: string;
  title: string;
  /** Group of the share table to draw (default "all"). */
  group?: string;
  /** Task filter (for tables that span tasks). */
  task?: string;
  subtitle?: string;
  caption?: string;
  /** A reference line (e.g. the gold rate) in percent. */
  reference?: number;
  referenceLabel?: string;
  /** Published values per model name (drawn as black ticks). */
  published?: Record<string, number>;
  /** Map a run's model name to a published model name. */
  publishedName?: (model: string) => string;
  xLabel?: string;
}

/**
 * Horizontal bars: one measure of a share table per model, with its 95% Wilson interval and the
 * count / n as text.
 *
 * @example
 * ```ts
 * shareFigure(table, { measure: "no_final_answer_share", title: "Shuffled Objects" });
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
  return Plot.plot({
    document: plotDocument(),
    title: opts.title,
    subtitle: opts.subtitle,
    caption: opts.caption,
    width: 720,
    height: 60 + Math.max(1, drawn.length) * 30,
    marginLeft: 220,
    marginRight: 90,
    x: { label: opts.xLabel ?? "share (%)", domain: [0, 100], grid: true },
    y: { label: null, domain: drawn.map((r) => r.model) },
    marks: [
      Plot.barX(drawn, { x: "share", y: "model", fill: "#4f81bd" }),
      Plot.ruleY(drawn, { x1: "ci_low", x2: "ci_high", y: "model", stroke: "#222" }),
      Plot.text(drawn, {
        x: 100,
        y: "model",
        text: (r) => `${r.share!.toFixed(1)}% (${r.count}/${r.n})`,
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

/**
 * Lines: accuracy per subset label (x, in the given order) per model, with Wilson intervals —
 * e.g. Zebra Puzzles by size (the paper's Table 9).
 *
 * @example
 * ```ts
 * subsetLineFigure(allSubsetAccuracy(rows), "zebra_puzzles", ["5x5", "6x6", "7x7", "8x8"], "…");
 * ```
 */
export function subsetLineFigure(
  subsets: pl.DataFrame,
  task: string,
  labels: readonly string[],
  title: string,
  caption?: string,
): Element {
  const rows = subsets.filter(pl.col("task").eq(pl.lit(task))).toRecords() as {
    model: string;
    subset: string;
    accuracy: number;
    ci_low: number;
    ci_high: number;
  }[];
  return Plot.plot({
    document: plotDocument(),
    title,
    caption,
    width: 720,
    height: 380,
    x: { label: null, domain: [...labels], padding: 0.4 },
    y: { label: "accuracy (%)", domain: [0, 100], grid: true },
    color: { legend: true },
    marks: [
      Plot.ruleX(rows, { x: "subset", y1: "ci_low", y2: "ci_high", stroke: "model", dx: 0 }),
      Plot.line(rows, { x: "subset", y: "accuracy", stroke: "model" }),
      Plot.dot(rows, { x: "subset", y: "accuracy", fill: "model", r: 4 }),
    ],
  });
}

/**
 * Heat map: a measure of a per-task share table (e.g. `no_answer_share`) by task × model.
 *
 * @example
 * ```ts
 * taskHeatmapFigure(noAnswerByTask(rows), "no_answer_share", "No final answer (%)");
 * ```
 */
export function taskHeatmapFigure(
  table: pl.DataFrame,
  measure: string,
  title: string,
  caption?: string,
): Element {
  const rows = table.filter(pl.col("measure").eq(pl.lit(measure))).toRecords() as {
    model: string;
    task: string;
    share: number;
  }[];
  const tasks = [...new Set(rows.map((r) => r.task))].sort();
  return Plot.plot({
    document: plotDocument(),
    title,
    caption,
    width: 720,
    height: 60 + tasks.length * 20,
    marginLeft: 170,
    marginBottom: 90,
    x: { label: null, tickRotate: -20 },
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

/**
 * Figure 7 (one panel): per-task gain against `x` ("input_chars" or "output_chars") with a
 * least-squares line.
 *
 * @example
 * ```ts
 * gainLengthFigure(gainVsLengthPublished(ds, "GPT4o", "o3-mini (high)"), "input_chars", "…");
 * ```
 */
export function gainLengthFigure(
  data: pl.DataFrame,
  x: "input_chars" | "output_chars",
  title: string,
  caption?: string,
): Element {
  const rows = (data.toRecords() as Record<string, number | string | null>[])
    .filter((r) => r[x] !== null && r.gain !== null);
  return Plot.plot({
    document: plotDocument(),
    title,
    caption,
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
    },
    y: { label: "gain (accuracy points)", grid: true },
    marks: [
      Plot.ruleY([0]),
      Plot.linearRegressionY(rows, { x, y: "gain", stroke: "#c0504d", ci: 0 }),
      Plot.dot(rows, { x, y: "gain", fill: "#4f81bd", r: 4 }),
      Plot.text(rows, { x, y: "gain", text: "display", dy: -8, fontSize: 9 }),
    ],
  });
}
