/**
 * The first-mistakes figures draw from the fixture release: one facet per task, one bar
 * segment per non-empty cell, the expected legend entries.
 *
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
import {
  answerMistakeTable,
  firstMistakePositions,
  relativePositionBins,
} from "@runlens/benchmarks/bbm/traces.ts";
import {
  ANSWER_MISTAKE_LABELS,
  answerMistakeFigure,
  mistakeOutcomeFigure,
  mistakeStepFigure,
  relativePositionFigure,
} from "@runlens/benchmarks/bbm/figures.ts";
import { classifyMistakeRuns, MISTAKE_OUTCOMES } from "@runlens/benchmarks/bbm/classify.ts";
import { mistakeOutcomeLong } from "@runlens/benchmarks/bbm/metrics.ts";
import pl from "nodejs-polars";

const FIXTURES = fileURLToPath(new URL("./fixtures/bbm", import.meta.url));
const traces = () => loadBbmDataset(FIXTURES);

Deno.test("position figures: a facet per task", () => {
  for (
    const el of [
      relativePositionFigure(relativePositionBins(traces())),
      mistakeStepFigure(firstMistakePositions(traces())),
    ]
  ) {
    const text = el.outerHTML;
    assert.match(text, /multistep_arithmetic/);
    assert.match(text, /word_sorting/);
  }
});

Deno.test("answerMistakeFigure: legend and one bar per cell", () => {
  const el = answerMistakeFigure(answerMistakeTable(traces()));
  for (const label of ANSWER_MISTAKE_LABELS) assert.ok(el.outerHTML.includes(label), label);
  // 2 tasks × 4 cells; empty cells (multistep_arithmetic has 2) are drawn with zero width
  const bars = el.querySelectorAll("g[aria-label='bar'] rect");
  assert.equal(bars.length, 8);
});

Deno.test("mistakeOutcomeFigure: every outcome in the legend", () => {
  const runs = pl.DataFrame({
    model: ["m", "m"],
    task: ["word_sorting", "multistep_arithmetic"],
    trace_index: [1, 0],
    response: ["The answer is: 2", "The answer is: No"],
  });
  const c = classifyMistakeRuns(runs, traces(), { numbering: "one-based" });
  const el = mistakeOutcomeFigure(mistakeOutcomeLong(c, ["model"]), { by: ["model"] });
  for (const o of MISTAKE_OUTCOMES) assert.ok(el.outerHTML.includes(o), o);
});
