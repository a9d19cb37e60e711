/**
 * Plot specifications of the BBH-vs-BBEH notebook: Figure 4 (output lengths), Table 10 as a
 * dumbbell chart, the BBH release's CoT vs direct comparison, and the format-sensitivity
 * figure (official vs lenient accuracy per task and run). Each returns the element Plot
 * draws; write it with `saveFigure` from lib/render/figure.ts.
 *
 * @example
 * ```ts
 * import { cotVsDirectFigure } from "@runlens/benchmarks/bbh/compare/figures.ts";
 * import { cotVsDirect } from "@runlens/benchmarks/bbh/compare/cot_vs_direct.ts";
 * const el = cotVsDirectFigure(cotVsDirect(rows));
 * ```
 * @module
 */
import * as Plot from "@observablehq/plot";
import pl from "nodejs-polars";
import { plotDocument } from "../../../render/figure.ts";

const GREY = "#9e9e9e", BLUE = "#4f81bd", RED = "#c0504d";

/** A two-point-per-row chart: one row per label, a link between the two values. */
function dumbbell(
  rows: { label: string; a: number | null; b: number | null }[],
  o: {
    title: string;
    caption?: string;
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
 * Figure 4: mean response length (characters, log scale) per BBEH task and its BBH counterpart,
 * for ONE model of an `outputLengthComparison` frame.
 *
 * @example
 * ```ts
 * outputLengthFigure(outputLengthComparison(rows), "gemini-2.0-flash", "BBEH/BBH macro ratio 6.9×");
 * ```
 */
export function outputLengthFigure(cmp: pl.DataFrame, model: string, caption?: string): Element {
  const recs = cmp.filter(pl.col("model").eq(pl.lit(model))).sort("bbeh")
    .toRecords() as { display: string; bbh: number; bbeh: number }[];
  return dumbbell(recs.map((r) => ({ label: r.display, a: r.bbh, b: r.bbeh })), {
    title: `Average output length per task: BBEH vs its BBH counterpart (${model})`,
    caption: caption ?? "As in the BBEH paper's Figure 4 (there: Gemini 2.0 Flash).",
    a: "BBH counterpart",
    b: "BBEH",
    x: { type: "log", label: "mean response length (characters, log scale)" },
  });
}

/**
 * Table 10 as a chart: per BBEH task, the model's BBH-counterpart and BBEH accuracy (one
 * model of a `table10` frame), or the paper's Gemini 2.0 Flash columns with `paper: true`.
 *
 * @example
 * ```ts
 * table10Figure(publishedTable10(), { paper: true });
 * ```
 */
export function table10Figure(
  t10: pl.DataFrame,
  opts: { model?: string; paper?: boolean; caption?: string } = {},
): Element {
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
    title: `Accuracy on each BBH counterpart vs the BBEH task (${who})`,
    caption: opts.caption,
    a: "BBH counterpart",
    b: "BBEH",
    x: { label: "accuracy (%)", domain: [0, 100] },
  });
}

/**
 * The BBH release's comparison: per task, code-davinci-002 answer-only vs chain-of-thought
 * accuracy (a `cotVsDirect` frame), tasks sorted by the CoT gain.
 *
 * @example
 * ```ts
 * cotVsDirectFigure(cotVsDirect(rows), "Macro average: direct 52.8, CoT 73.7");
 * ```
 */
export function cotVsDirectFigure(t: pl.DataFrame, caption?: string): Element {
  const recs = t.sort("gain").toRecords() as { task: string; direct: number; cot: number }[];
  return dumbbell(recs.map((r) => ({ label: r.task, a: r.direct, b: r.cot })), {
    title: "BBH release: code-davinci-002, answer-only vs chain-of-thought, per task",
    caption,
    a: "answer-only (direct)",
    b: "chain-of-thought",
    x: { label: "accuracy (%)", domain: [0, 100] },
  });
}

/**
 * Format sensitivity: per task, accuracy under each run's official rule vs `lenient`, one panel
 * row per run (a `formatSensitivity` frame). Tasks sorted by name.
 *
 * @example
 * ```ts
 * formatSensitivityFigure(formatSensitivity(rows));
 * ```
 */
export function formatSensitivityFigure(long: pl.DataFrame, caption?: string): Element {
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
  return Plot.plot({
    document: plotDocument(),
    title: "Answer-format sensitivity: official rule vs lenient extractor, per task",
    caption: caption ??
      "Official: the run's own rule (bbeh-official / bbh-release-*). Lenient: analysis only.",
    width: 760,
    height: 60 + rows.length * 18,
    marginLeft: 260,
    marginRight: 10 + Math.max(0, ...runs.map((r) => r.length)) * 6.5,
    x: { grid: true, label: "accuracy (%)", domain: [0, 100] },
    y: { label: null },
    fy: { label: null, domain: runs },
    color: { legend: true, domain: ["official", "lenient"], range: [GREY, RED] },
    marks: [
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
