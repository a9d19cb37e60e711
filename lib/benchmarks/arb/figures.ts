/**
 * Plot specifications of the ARB notebook: accuracy with Wilson intervals per model, subject and
 * answer type (Figure 1 of the paper), and human vs model rubric scores (Table 5 as a scatter).
 * Like every figure function of runlens, each takes its data frame first and one options object
 * ({@link FigureOptions}), and returns the element Plot draws; write it with `saveFigure` from
 * lib/render/figure.ts.
 *
 * @example
 * ```ts
 * import { arbAccuracyFigure } from "@runlens/benchmarks/arb/figures.ts";
 * import pl from "nodejs-polars";
 * const acc = pl.DataFrame({
 *   model: ["model-a", "model-b", "model-a", "model-b"],
 *   subject: ["Math", "Math", "Physics", "Physics"],
 *   answer_type: ["numerical", "numerical", "symbolic", "symbolic"],
 *   image: [false, false, false, false],
 *   accuracy: [62.5, 40, 50, null],
 *   ci_low: [30.6, 16.8, 15, null],
 *   ci_high: [86.3, 68.7, 85, null],
 * });
 * const el = arbAccuracyFigure(acc, { caption: "illustrative fixture data" });
 * ```
 * @module
 */
import * as Plot from "@observablehq/plot";
import type pl from "nodejs-polars";
import { type FigureOptions, plotDocument, textWidth } from "../../render/figure.ts";

const WIDTH = 720;

const category = (r: Record<string, unknown>) =>
  `${r.subject} · ${r.answer_type}${r.image ? " (image)" : ""}`;

/**
 * Accuracy (dot) and Wilson 95% interval (bar) per model, one row per subject · answer type.
 * Input: `arbAccuracy` (model, subject, answer_type, image, accuracy, ci_low, ci_high; groups
 * without auto-scored rows, a null accuracy, are left out). Title and subtitle by default say
 * what is drawn.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const acc = pl.DataFrame({
 *   model: ["model-a", "model-b", "model-a", "model-b"],
 *   subject: ["Math", "Math", "Physics", "Physics"],
 *   answer_type: ["numerical", "numerical", "symbolic", "symbolic"],
 *   image: [false, false, false, false],
 *   accuracy: [62.5, 40, 50, null],
 *   ci_low: [30.6, 16.8, 15, null],
 *   ci_high: [86.3, 68.7, 85, null],
 * });
 * const el = arbAccuracyFigure(acc, { caption: "illustrative fixture data" });
 * el.querySelectorAll("circle").length; // 3: the null accuracy is left out
 * ```
 */
export function arbAccuracyFigure(acc: pl.DataFrame, opts: FigureOptions = {}): Element {
  const rows = (acc.toRecords() as Record<string, unknown>[])
    .filter((r) => r.accuracy !== null)
    .map((r): Record<string, unknown> => ({ ...r, category: category(r) }));
  const categories = [...new Set(rows.map((r) => String(r.category)))];
  const models = [...new Set(rows.map((r) => String(r.model)))].sort();
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ?? "ARB: accuracy by subject and answer type",
    subtitle: opts.subtitle ?? "auto-scored rows; bars: Wilson 95% interval",
    caption: opts.caption,
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
 * Input: scored rows with `model`, `subject`, `answer_type`, `image`, `human_score` and
 * `model_score` (rows missing either score are left out). Title and subtitle by default say
 * what is drawn.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   model: ["model-a", "model-a", "model-b"],
 *   subject: ["Math", "Math", "Math"],
 *   answer_type: ["proof", "proof", "proof"],
 *   image: [false, false, false],
 *   human_score: [7, 3, 9],
 *   model_score: [8, 2, null],
 * });
 * const el = arbRubricScatter(rows, { caption: "illustrative fixture data" });
 * el.querySelectorAll("circle").length; // 2: one dot per response with both scores
 * ```
 */
export function arbRubricScatter(rows: pl.DataFrame, opts: FigureOptions = {}): Element {
  const points = (rows.toRecords() as Record<string, unknown>[])
    .filter((r) => r.human_score !== null && r.model_score !== null)
    .map((r): Record<string, unknown> => ({ ...r, category: category(r) }));
  const categories = [...new Set(points.map((r) => r.category))];
  return Plot.plot({
    document: plotDocument(),
    title: opts.title ?? "ARB: human vs model rubric scores",
    subtitle: opts.subtitle ?? "one dot per graded response; line: equal scores",
    caption: opts.caption,
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
