/**
 * Plot specifications of the ARB notebook: accuracy with Wilson intervals per model, subject and
 * answer type (Figure 1 of the paper), and human vs model rubric scores (Table 5 as a scatter).
 * Each returns the element Plot draws; write it with `saveFigure`.
 *
 * @example
 * ```ts
 * import { arbAccuracyFigure } from "@runlens/benchmarks/arb/figures.ts";
 * saveFigure(arbAccuracyFigure(arbAccuracy(rows)), "figures", "arb_accuracy");
 * ```
 * @module
 */
import * as Plot from "@observablehq/plot";
import type pl from "nodejs-polars";
import { plotDocument, textWidth } from "../../render/figure.ts";

const WIDTH = 720;

const category = (r: Record<string, unknown>) =>
  `${r.subject} · ${r.answer_type}${r.image ? " (image)" : ""}`;

/**
 * Accuracy (dot) and Wilson 95% interval (bar) per model, one row per subject · answer type.
 * Input: `arbAccuracy` (groups without auto-scored rows are left out).
 *
 * @example
 * ```ts
 * arbAccuracyFigure(arbAccuracy(rows), "illustrative fixture data");
 * ```
 */
export function arbAccuracyFigure(acc: pl.DataFrame, caption?: string): Element {
  const rows = (acc.toRecords() as Record<string, unknown>[])
    .filter((r) => r.accuracy !== null)
    .map((r): Record<string, unknown> => ({ ...r, category: category(r) }));
  const categories = [...new Set(rows.map((r) => String(r.category)))];
  const models = [...new Set(rows.map((r) => String(r.model)))].sort();
  return Plot.plot({
    document: plotDocument(),
    title: "ARB: accuracy by subject and answer type",
    subtitle: "auto-scored rows; bars: Wilson 95% interval",
    caption,
    width: WIDTH,
    height: 60 + categories.length * (20 + 18 * models.length),
    // Room for the longest facet label (Plot's default 10 px font), measured in DejaVu Sans.
    marginLeft: Math.ceil(Math.max(...categories.map((c) => textWidth(c, 10)))) + 16,
    x: { domain: [0, 100], label: "accuracy (%)", grid: true },
    y: { domain: models, label: null, axis: null },
    fy: { domain: categories, label: null },
    color: { domain: models, legend: true },
    marks: [
      Plot.ruleY(rows, {
        fy: "category",
        y: "model",
        x1: "ci_low",
        x2: "ci_high",
        stroke: "model",
      }),
      Plot.dot(rows, { fy: "category", y: "model", x: "accuracy", fill: "model", r: 4 }),
      Plot.axisFy({ anchor: "left", label: null }),
    ],
  });
}

/**
 * Human vs model rubric scores (0–10), one panel per subject · answer type, with the y = x line.
 * Input: scored rows with `human_score` and `model_score`.
 *
 * @example
 * ```ts
 * arbRubricScatter(rows, "illustrative fixture data");
 * ```
 */
export function arbRubricScatter(rows: pl.DataFrame, caption?: string): Element {
  const points = (rows.toRecords() as Record<string, unknown>[])
    .filter((r) => r.human_score !== null && r.model_score !== null)
    .map((r): Record<string, unknown> => ({ ...r, category: category(r) }));
  const categories = [...new Set(points.map((r) => r.category))];
  return Plot.plot({
    document: plotDocument(),
    title: "ARB: human vs model rubric scores",
    subtitle: "one dot per graded response; line: equal scores",
    caption,
    width: WIDTH,
    height: 320,
    marginBottom: 40,
    x: { domain: [0, 10], label: "human score" },
    y: { domain: [0, 10], label: "model score", grid: true },
    fx: { domain: categories, label: null },
    color: { legend: true },
    marks: [
      Plot.line([[0, 0], [10, 10]], { stroke: "#999", strokeDasharray: "4 3" }),
      Plot.dot(points, { fx: "category", x: "human_score", y: "model_score", stroke: "model" }),
      Plot.frame({ stroke: "#ddd" }),
    ],
  });
}
