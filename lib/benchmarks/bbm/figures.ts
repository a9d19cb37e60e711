/**
 * Plot specifications of the first-mistakes notebook: where the first mistake falls (relative
 * and absolute), answer correctness × mistake presence, and the outcome breakdown of
 * mistake-finding runs. Like every figure function of runlens, each takes its data frame first
 * and one options object ({@link FigureOptions} and its own options), and returns the element
 * Plot draws; write it with `saveFigure` from lib/render/figure.ts.
 *
 * @example
 * ```ts
 * import { relativePositionFigure } from "@runlens/benchmarks/bbm/figures.ts";
 * import { relativePositionBins } from "@runlens/benchmarks/bbm/traces.ts";
 * import pl from "nodejs-polars";
 * const traces = pl.DataFrame({
 *   task: ["word_sorting", "word_sorting", "dyck_languages"],
 *   trace_index: [0, 1, 0],
 *   n_steps: [5, 4, 8],
 *   mistake_index: [2, null, 6],
 *   answer: ["apple pear", "fig kiwi", ") ]"],
 *   target: ["apple pear", "fig kiwi", "] )"],
 * });
 * const el = relativePositionFigure(relativePositionBins(traces));
 * ```
 * @module
 */
import * as Plot from "@observablehq/plot";
import type pl from "nodejs-polars";
import { type FigureOptions, plotDocument } from "../../render/figure.ts";
import { MISTAKE_OUTCOMES } from "./classify.ts";

const WIDTH = 720;

/**
 * Histogram of the first mistake's relative position (mistake_index / n_steps) per task, as
 * the share of the task's traces with a mistake. Input: `relativePositionBins` (task,
 * bin_start, bin_end, share). Title and subtitle by default say so.
 *
 * @example
 * ```ts
 * import { relativePositionBins } from "@runlens/benchmarks/bbm/traces.ts";
 * import pl from "nodejs-polars";
 * const traces = pl.DataFrame({
 *   task: ["word_sorting", "word_sorting", "dyck_languages"],
 *   trace_index: [0, 1, 0],
 *   n_steps: [5, 4, 8],
 *   mistake_index: [2, null, 6],
 *   answer: ["apple pear", "fig kiwi", ") ]"],
 *   target: ["apple pear", "fig kiwi", "] )"],
 * });
 * const el = relativePositionFigure(relativePositionBins(traces), { caption: "toy traces" });
 * el.querySelectorAll("g[aria-label='rect'] rect").length; // 20: 10 bins × 2 tasks
 * ```
 */
export function relativePositionFigure(bins: pl.DataFrame, opts: FigureOptions = {}): Element {
  const rows = bins.toRecords() as {
    task: string;
    bin_start: number;
    bin_end: number;
    share: number;
  }[];
  const tasks = [...new Set(rows.map((r) => r.task))].sort();
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ?? "Where the first mistake falls: relative position in the trace",
    subtitle: opts.subtitle ??
      "mistake index / number of steps; share of each task's traces with a mistake",
    caption: opts.caption,
    width: WIDTH,
    height: 60 + tasks.length * 90,
    marginLeft: 50,
    marginRight: 170,
    x: { domain: [0, 1], label: "relative position of the first mistake" },
    y: { label: "share of traces (%)", grid: true, percent: true },
    fy: { domain: tasks, label: null, padding: 0.2 },
    marks: [
      Plot.rectY(rows, {
        x1: "bin_start",
        x2: "bin_end",
        y: "share",
        fy: "task",
        fill: "#4f81bd",
        inset: 1,
      }),
      Plot.ruleY([0]),
    ],
  });
}

/**
 * Count of first mistakes per step number ("Thought N", 1-based) per task. Input:
 * `firstMistakePositions` (task, mistake_step).
 *
 * @example
 * ```ts
 * import { firstMistakePositions } from "@runlens/benchmarks/bbm/traces.ts";
 * import pl from "nodejs-polars";
 * const traces = pl.DataFrame({
 *   task: ["word_sorting", "word_sorting", "dyck_languages"],
 *   trace_index: [0, 1, 0],
 *   n_steps: [5, 4, 8],
 *   mistake_index: [2, null, 6],
 *   answer: ["apple pear", "fig kiwi", ") ]"],
 *   target: ["apple pear", "fig kiwi", "] )"],
 * });
 * const el = mistakeStepFigure(firstMistakePositions(traces));
 * el.querySelector("h2")?.textContent; // "Step of the first mistake (Thought N)"
 * ```
 */
export function mistakeStepFigure(positions: pl.DataFrame, opts: FigureOptions = {}): Element {
  const counts = new Map<string, { task: string; step: number; traces: number }>();
  for (const r of positions.select("task", "mistake_step").toRecords()) {
    const key = `${r.task}\u0000${r.mistake_step}`;
    const hit = counts.get(key) ??
      { task: r.task as string, step: r.mistake_step as number, traces: 0 };
    hit.traces++;
    counts.set(key, hit);
  }
  const rows = [...counts.values()];
  const tasks = [...new Set(rows.map((r) => r.task))].sort();
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ?? "Step of the first mistake (Thought N)",
    subtitle: opts.subtitle,
    caption: opts.caption,
    width: WIDTH,
    height: 60 + tasks.length * 90,
    marginLeft: 50,
    marginRight: 170,
    x: { label: "step of the first mistake (1-based)" },
    y: { label: "traces", grid: true },
    fy: { domain: tasks, label: null, padding: 0.2 },
    marks: [
      Plot.rectY(rows, {
        x1: (r: { step: number }) => r.step - 0.45,
        x2: (r: { step: number }) => r.step + 0.45,
        y: "traces",
        fy: "task",
        fill: "#4f81bd",
      }),
      Plot.ruleY([0]),
    ],
  });
}

/** Legend labels of the answer × mistake cells, in stacking order. */
export const ANSWER_MISTAKE_LABELS = [
  "correct answer, no mistake",
  "correct answer, mistake",
  "wrong answer, mistake",
  "wrong answer, no mistake",
] as const;

function cellLabel(answerCorrect: boolean, hasMistake: boolean): string {
  return `${answerCorrect ? "correct" : "wrong"} answer, ${hasMistake ? "mistake" : "no mistake"}`;
}

/**
 * Stacked bars per task: shares of correct_ans/incorrect_ans × correct_mis/incorrect_mis.
 * Input: `answerMistakeTable` (task, answer_correct, has_mistake, traces, share).
 *
 * @example
 * ```ts
 * import { answerMistakeTable } from "@runlens/benchmarks/bbm/traces.ts";
 * import pl from "nodejs-polars";
 * const traces = pl.DataFrame({
 *   task: ["word_sorting", "word_sorting", "dyck_languages"],
 *   trace_index: [0, 1, 0],
 *   n_steps: [5, 4, 8],
 *   mistake_index: [2, null, 6],
 *   answer: ["apple pear", "fig kiwi", ") ]"],
 *   target: ["apple pear", "fig kiwi", "] )"],
 * });
 * const el = answerMistakeFigure(answerMistakeTable(traces));
 * el.querySelectorAll("g[aria-label='bar'] rect").length; // 8: 4 cells × 2 tasks
 * ```
 */
export function answerMistakeFigure(table: pl.DataFrame, opts: FigureOptions = {}): Element {
  const rows = table.toRecords().map((r) => ({
    task: r.task as string,
    cell: cellLabel(r.answer_correct as boolean, r.has_mistake as boolean),
    traces: r.traces as number,
    share: r.share as number,
  }));
  const tasks = [...new Set(rows.map((r) => r.task))].sort();
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ?? "Answer correctness vs. a marked mistake, per task",
    subtitle: opts.subtitle,
    caption: opts.caption,
    width: WIDTH,
    height: 70 + tasks.length * 34,
    marginLeft: 180,
    x: { label: "share of the task's traces", percent: true, domain: [0, 100] },
    y: { label: null, domain: tasks },
    color: {
      legend: true,
      domain: [...ANSWER_MISTAKE_LABELS],
      range: ["#4f81bd", "#9bbb59", "#c0504d", "#f79646"],
    },
    marks: [
      Plot.barX(
        rows,
        Plot.stackX({
          x: "share",
          y: "task",
          fill: "cell",
          order: [...ANSWER_MISTAKE_LABELS],
          title: (r: { cell: string; traces: number }) => `${r.cell}: ${r.traces}`,
        }),
      ),
    ],
  });
}

/** Options of {@link mistakeOutcomeFigure}. Title and subtitle by default say what is drawn. */
export interface MistakeOutcomeFigureOptions extends FigureOptions {
  /** The group columns of the frame, joined with " · " into each bar's label. */
  by: readonly string[];
}

/**
 * Stacked bars of the outcome classes per group (e.g. model · task). Input:
 * `mistakeOutcomeLong(classified, by)` (…by, outcome, count, share); `by` names the columns
 * joined into the bar label.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const long = pl.DataFrame({
 *   model: Array(6).fill("model-a"),
 *   task: Array(6).fill("dyck_languages"),
 *   outcome: ["correct", "early", "late", "said_no_mistake", "false_alarm", "no_answer"],
 *   count: [5, 2, 1, 1, 0, 1],
 *   share: [0.5, 0.2, 0.1, 0.1, 0, 0.1],
 * });
 * const el = mistakeOutcomeFigure(long, { by: ["model", "task"] });
 * el.querySelectorAll("g[aria-label='bar'] rect").length; // 6: one segment per outcome
 * ```
 */
export function mistakeOutcomeFigure(
  long: pl.DataFrame,
  opts: MistakeOutcomeFigureOptions,
): Element {
  const { by } = opts;
  const rows = long.toRecords().map((r) => ({
    group: by.map((c) => String(r[c])).join(" · "),
    outcome: r.outcome as string,
    share: (r.share as number | null) ?? 0,
    count: r.count as number,
  }));
  const groups = [...new Set(rows.map((r) => r.group))];
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ?? "First-mistake answers by outcome",
    subtitle: opts.subtitle ??
      "early: flagged a correct step before the first mistake; late: flagged a later step",
    caption: opts.caption,
    width: WIDTH,
    height: 80 + groups.length * 30,
    marginLeft: 240,
    x: { label: "share of answers", percent: true, domain: [0, 100] },
    y: { label: null, domain: groups },
    color: {
      legend: true,
      domain: [...MISTAKE_OUTCOMES],
      range: ["#4f81bd", "#f79646", "#c0504d", "#8064a2", "#9bbb59", "#9e9e9e"],
    },
    marks: [
      Plot.barX(
        rows,
        Plot.stackX({
          x: "share",
          y: "group",
          fill: "outcome",
          order: [...MISTAKE_OUTCOMES],
          title: (r: { outcome: string; count: number }) => `${r.outcome}: ${r.count}`,
        }),
      ),
    ],
  });
}
