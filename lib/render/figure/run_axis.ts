/**
 * Run (or model) names as axis tick labels: labels as long as fit a share of the figure's
 * width, measured in DejaVu, shortened by {@link shortRunLabels} when they do not, the margin
 * they need, and the legend line for the caption — so the plot keeps most of the width
 * whatever names lm-eval or a user gave the runs.
 *
 * @module
 */
import { legendText, type RunLabels, shortRunLabels } from "../run_labels.ts";
import { textWidth } from "./fonts.ts";

/** Options of {@link runAxis}. */
export interface RunAxisOptions {
  /** The figure's width, px. */
  width: number;
  /** The most of the width the labels may take (default 0.3). */
  share?: number;
  /** Font size of the tick labels (default 10, Plot's). */
  fontSize?: number;
}

/** Tick labels for runs: the label of each, the margin they need, the caption's legend. */
export interface RunAxis {
  label: (run: string) => string;
  /** Width of the longest label plus Plot's tick and padding (9 px) and 6 px to spare. */
  margin: number;
  /** `Runs: label = name; …` for the caption, or "" when no name was shortened. */
  legend: string;
}

/**
 * Tick labels for run names on a figure `width` px wide.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const runs = ["meta-llama__Llama-3.2-3B-Instruct_2026-01-08T17-20-31.984236", "gpt-4o"];
 * const axis = runAxis(runs, { width: 720 });
 * assert.equal(axis.label(runs[0]), "Llama-3.2-3B-Instruct");
 * assert.ok(axis.margin <= 0.3 * 720 + 15);
 * assert.match(axis.legend, /^Runs: Llama-3.2-3B-Instruct = meta-llama__/);
 * ```
 */
export function runAxis(runs: readonly string[], opts: RunAxisOptions): RunAxis {
  const size = opts.fontSize ?? 10, room = (opts.share ?? 0.3) * opts.width;
  const { label, legend } = shortRunLabels(runs, {
    maxChars: 200,
    fits: (l) => textWidth(l, size) <= room,
  });
  const widest = Math.max(0, ...runs.map((r) => textWidth(label(r), size)));
  return {
    label,
    margin: Math.ceil(widest) + 15,
    legend: runLegend(legend),
  };
}

/**
 * The caption line of a run legend: `Runs: label = name; …`, or "" when nothing was shortened.
 *
 * @example
 * ```ts
 * runLegend([{ label: "R1", run: "exp1/gpt4o" }]); // "Runs: R1 = exp1/gpt4o"
 * runLegend([]); // ""
 * ```
 */
export function runLegend(legend: RunLabels["legend"]): string {
  return legend.length ? `Runs: ${legendText(legend)}` : "";
}

/**
 * A caption with a legend line after it (either may be empty or missing).
 *
 * @example
 * ```ts
 * withLegend("Bars: 95% Wilson CI.", "Runs: A = exp1/gpt4o"); // "Bars: 95% Wilson CI. Runs: A = exp1/gpt4o"
 * withLegend(undefined, ""); // undefined
 * ```
 */
export function withLegend(caption: string | undefined, legend: string): string | undefined {
  return [caption, legend].filter(Boolean).join(" ") || undefined;
}
