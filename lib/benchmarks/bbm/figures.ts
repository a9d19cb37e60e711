/**
 * Plot specifications of the first-mistakes notebook: where the first mistake falls (relative
 * and absolute), answer correctness × mistake presence, and the outcome breakdown of
 * mistake-finding runs. Each returns the element Plot draws; write it with `saveFigure`.
 *
 * @example
 * ```ts
 * import { relativePositionFigure } from "@runlens/benchmarks/bbm/figures.ts";
 * import { firstMistakePositions } from "@runlens/benchmarks/bbm/traces.ts";
 * const el = relativePositionFigure(firstMistakePositions(traces));
 * ```
 * @module
 */
import * as Plot from "@observablehq/plot";
import type pl from "nodejs-polars";
import { plotDocument } from "../../render/figure.ts";
import { MISTAKE_OUTCOMES } from "./classify.ts";

const WIDTH = 720;

/**
 * Histogram of the first mistake's relative position (mistake_index / n_steps) per task, as
 * the share of the task's traces with a mistake. Input: `relativePositionBins`.
 *
 * @example
 * ```ts
 * saveFigure(relativePositionFigure(relativePositionBins(traces)), "figures", "bbm_relative_position");
 * ```
 */
export function relativePositionFigure(bins: pl.DataFrame, caption?: string): Element {
  const rows = bins.toRecords() as {
    task: string;
    bin_start: number;
    bin_end: number;
    share: number;
  }[];
  const tasks = [...new Set(rows.map((r) => r.task))].sort();
  return Plot.plot({
    document: plotDocument(),
    title: "Where the first mistake falls: relative position in the trace",
    subtitle: "mistake index / number of steps; share of each task's traces with a mistake",
    caption,
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
 * `firstMistakePositions`.
 *
 * @example
 * ```ts
 * saveFigure(mistakeStepFigure(positions), "figures", "bbm_mistake_step");
 * ```
 */
export function mistakeStepFigure(positions: pl.DataFrame, caption?: string): Element {
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
    title: "Step of the first mistake (Thought N)",
    caption,
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
 * Input: `answerMistakeTable`.
 *
 * @example
 * ```ts
 * saveFigure(answerMistakeFigure(answerMistakeTable(traces)), "figures", "bbm_answer_mistake");
 * ```
 */
export function answerMistakeFigure(table: pl.DataFrame, caption?: string): Element {
  const rows = table.toRecords().map((r) => ({
    task: r.task as string,
    cell: cellLabel(r.answer_correct as boolean, r.has_mistake as boolean),
    traces: r.traces as number,
    share: r.share as number,
  }));
  const tasks = [...new Set(rows.map((r) => r.task))].sort();
  return Plot.plot({
    document: plotDocument(),
    title: "Answer correctness vs. a marked mistake, per task",
    caption,
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

/**
 * Stacked bars of the outcome classes per group (e.g. model · task). Input:
 * `mistakeOutcomeLong(classified, by)`; `by` names the columns joined into the bar label.
 *
 * @example
 * ```ts
 * const long = mistakeOutcomeLong(classified, ["model", "task"]);
 * saveFigure(mistakeOutcomeFigure(long, ["model", "task"]), "figures", "bbm_outcomes");
 * ```
 */
export function mistakeOutcomeFigure(
  long: pl.DataFrame,
  by: readonly string[],
  caption?: string,
): Element {
  const rows = long.toRecords().map((r) => ({
    group: by.map((c) => String(r[c])).join(" · "),
    outcome: r.outcome as string,
    share: (r.share as number | null) ?? 0,
    count: r.count as number,
  }));
  const groups = [...new Set(rows.map((r) => r.group))];
  return Plot.plot({
    document: plotDocument(),
    title: "First-mistake answers by outcome",
    subtitle: "early: flagged a correct step before the first mistake; late: flagged a later step",
    caption,
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
