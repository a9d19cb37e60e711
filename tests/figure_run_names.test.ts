/**
 * Figures that name runs stay readable with run names as lm-eval writes them (issue 24, item
 * 4): 60 characters of organisation, model and date-time stamp. Through the format-sensitivity
 * figure (real BBH release outputs, scored by every rule, the runs renamed) and every figure
 * that puts run or model names on an axis: no label overlaps or is cut off (the label check,
 * itself checked against resvg in figure_labels.test.ts), the data keep at least 60% of the
 * width (measured on the drawn SVG: the span of the x axis' ticks), and every full run name is
 * in the figure (a heading, a tick label, or the caption's legend).
 * @module
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { dataTest } from "./_data.ts";
import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
import { formatSensitivityFigure } from "@runlens/benchmarks/bbh/compare/figures.ts";
import { shareFigure, taskHeatmapFigure } from "@runlens/benchmarks/bbeh/failure/figures.ts";
import { leaderboardFigure } from "@runlens/benchmarks/bbeh/figures.ts";
import { formatSensitivity } from "@runlens/analyses/format_sensitivity.ts";
import { labelProblems, textBoxes, toStandaloneSvg } from "@runlens/render/figure.ts";

const LM_EVAL_RUNS = [
  "meta-llama__Llama-3.2-3B-Instruct_2026-01-08T17-20-31.984236",
  "Qwen__Qwen2.5-7B-Instruct_2026-01-09T09-02-11.120345",
  "meta-llama__Llama-3.2-3B-Instruct_2026-01-10T08-00-00.500000",
  "mistralai__Mistral-7B-Instruct-v0.3_2026-01-09T11-45-03.000017",
];

/** The drawn width of the x axis: from its first tick to its last (`x-axis tick` paths). */
function xAxisSpan(svg: string): number {
  const xs = [...svg.matchAll(/<g aria-label="x-axis tick"[^>]*>(.*?)<\/g>/gs)]
    .flatMap((m) => [...m[1].matchAll(/transform="translate\(([-\d.]+),/g)].map((t) => +t[1]));
  assert.ok(xs.length >= 2, "no x-axis ticks");
  return Math.max(...xs) - Math.min(...xs);
}

function figureWidth(svg: string): number {
  return +/^<svg[^>]* width="([\d.]+)"/.exec(svg)![1];
}

/** Every check of this file on one figure; `runs` must all be named in it. */
function assertReadable(svg: string, runs: string[], name: string): void {
  assert.deepEqual(labelProblems(svg).map((p) => p.message), [], name);
  const share = xAxisSpan(svg) / figureWidth(svg);
  assert.ok(share >= 0.6, `${name}: the x axis spans ${(100 * share).toFixed(0)}% of the width`);
  // lines joined without spaces: a caption may break a long name between two lines
  const text = textBoxes(svg).map((b) => b.text.replaceAll(" ", "")).join("");
  for (const run of runs) assert.ok(text.includes(run), `${name}: ${run} is not in the figure`);
}

dataTest("format sensitivity with lm-eval run names: wide axis, no collision", (data) => {
  const { rows } = loadBbhReleaseOutputs(data, { tasks: ["navigate", "date_understanding"] });
  const runs = [...new Set(rows.getColumn("run").toArray() as string[])].sort();
  assert.equal(runs.length, 2);
  const renamed = rows.withColumns(
    pl.col("run").replace(runs, LM_EVAL_RUNS.slice(0, 2)).alias("run"),
  );
  const long = formatSensitivity(renamed);
  const svg = toStandaloneSvg(formatSensitivityFigure(long));
  assertReadable(svg, LM_EVAL_RUNS.slice(0, 2), "format sensitivity");
  // before: the run names took a right margin of 6.5 px a character, leaving the axis 115 px
  assert.ok(xAxisSpan(svg) > 400);
});

dataTest("format sensitivity with many runs and names longer than a panel", (data) => {
  const { rows } = loadBbhReleaseOutputs(data, { tasks: ["navigate"] });
  const runs = [...new Set(rows.getColumn("run").toArray() as string[])].sort();
  const huge = runs.map((_, i) => `${"experiments/".repeat(8)}sweep-${i}/${LM_EVAL_RUNS[i]}`);
  const long = formatSensitivity(rows.withColumns(pl.col("run").replace(runs, huge).alias("run")));
  const svg = toStandaloneSvg(formatSensitivityFigure(long));
  // too long for a heading: shortened, and the caption's legend gives the full names
  assertReadable(svg, huge, "format sensitivity, 150-character names");
});

/** A share table as `shareMeasures` makes it, one row per run. */
function shareTable(runs: string[]): pl.DataFrame {
  return pl.DataFrame({
    model: runs,
    measure: runs.map(() => "no_answer_share"),
    group: runs.map(() => "all"),
    count: runs.map((_, i) => 150 + i),
    n: runs.map(() => 154),
    share: runs.map((_, i) => (100 * (150 + i)) / 154),
    ci_low: runs.map((_, i) => (100 * (150 + i)) / 154 - 3),
    ci_high: runs.map(() => 100),
  });
}

Deno.test("share, heat map and leaderboard figures with lm-eval run names", () => {
  const share = toStandaloneSvg(
    shareFigure(shareTable(LM_EVAL_RUNS), { measure: "no_answer_share", caption: "Bars: CI." }),
  );
  assertReadable(share, LM_EVAL_RUNS, "share figure");

  const tasks = ["boardgame_qa", "dyck_languages", "zebra_puzzles"];
  const heat = pl.DataFrame(
    LM_EVAL_RUNS.flatMap((model, i) =>
      tasks.map((task, j) => ({ model, task, measure: "no_answer_share", share: 10 * (i + j) }))
    ),
  );
  const heatSvg = toStandaloneSvg(taskHeatmapFigure(heat, { measure: "no_answer_share" }));
  assert.deepEqual(labelProblems(heatSvg).map((p) => p.message), [], "heat map");
  const heatText = textBoxes(heatSvg).map((b) => b.text).join("\n");
  for (const run of LM_EVAL_RUNS) assert.ok(heatText.includes(run), `heat map: ${run}`);

  const board = pl.DataFrame({
    model: ["o3-mini (high)", ...LM_EVAL_RUNS],
    source: ["paper (Tables 2, 4)", ...LM_EVAL_RUNS.map((r) => `run ${r}`)],
    harmonic_mean: [44.8, 12.1, 10.3, 11.9, 8.4],
    ci_low: [null, 10.2, 8.8, 10.1, 6.9],
    ci_high: [null, 14.3, 12.0, 13.8, 10.1],
  });
  assertReadable(toStandaloneSvg(leaderboardFigure(board)), LM_EVAL_RUNS, "leaderboard");
});
