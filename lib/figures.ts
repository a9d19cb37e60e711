/**
 * Figures and tables: standalone SVG and PNG files of Observable Plot figures, tables as CSV,
 * Markdown, LaTeX and HTML, interval figures, and the notebook context that writes them under
 * figures/ and results/ and shows them in a notebook ({@link notebookContext},
 * {@link openNotebook}).
 *
 * @example Accuracy per task with its interval, as an SVG and a PNG file, and as a table
 * ```ts
 * import assert from "node:assert/strict";
 * import { saveFigure, taskIntervalFigure, writeTable } from "runlens/figures";
 *
 * const rows = [
 *   { run: "a", task: "snarks", accuracy: 61.2, ci_low: 53.9, ci_high: 68.1 },
 *   { run: "a", task: "navigate", accuracy: 96.4, ci_low: 93.3, ci_high: 98.1 },
 * ];
 * const dir = Deno.makeTempDirSync();
 * const { svg, png } = saveFigure(taskIntervalFigure(rows), dir, "accuracy");
 * assert.ok(Deno.readTextFileSync(svg).startsWith("<svg"));
 * assert.ok(Deno.statSync(png).size > 0);
 * const paths = writeTable(rows, dir, "accuracy", { digits: 1 });
 * assert.ok(Deno.readTextFileSync(paths.csv).startsWith("run,task,accuracy,ci_low,ci_high\n"));
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
export {
  type FigureBundle,
  figureBundle,
  type FigureOptions,
  installCanvasShim,
  plotDocument,
  type PngOptions,
  saveFigure,
  type StandaloneOptions,
  svgToPng,
  toStandaloneSvg,
} from "./render/figure.ts";
export {
  csvTable,
  DEFAULT_DIGITS,
  formatTable,
  type FormattedTable,
  htmlTable,
  JUPYTER_DISPLAY,
  latexTable,
  markdownTable,
  type TableBundle,
  tableBundle,
  type TableInput,
  type TableOptions,
  type TablePaths,
  writeTable,
} from "./render/table.ts";
export type { ShortNames } from "./render/latex/grid.ts";
export {
  forestFigure,
  type ForestFigureOptions,
  type ForestRow,
  type RuleAccuracy,
  ruleHeatmapFigure,
  type RuleHeatmapFigureOptions,
  type TaskInterval,
  taskIntervalFigure,
  type TaskIntervalFigureOptions,
} from "./render/interval_figures.ts";
export {
  LOGS_ENV,
  type NotebookContext,
  notebookContext,
  OUT_ENV,
  SHOWN_ROWS,
} from "./notebook/context.ts";
export {
  benchmarkLabels,
  type OpenedNotebook,
  openNotebook,
  skippedNote,
} from "./notebook/open.ts";
export type {
  HeadlineFigure,
  HeadlineOutput,
  HeadlineSkipped,
  HeadlineTable,
  NotebookDemo,
  NotebookInput,
  NotebookOpening,
  NotebookSpec,
} from "./benchmarks/notebook.ts";
