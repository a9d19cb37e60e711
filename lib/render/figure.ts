/**
 * Figure output: turn what `Plot.plot` returns into one standalone, deterministic SVG, render it
 * to PNG with resvg (no browser), and write both next to each other. This module gathers the
 * parts, one concern per file under `figure/`:
 *
 * - `figure/dom.ts`: {@link plotDocument}, the jsdom document Plot draws into;
 * - `figure/canvas.ts`: {@link installCanvasShim}, the 2D canvas continuous colour legends need
 *   (its PNG data URLs from `figure/rgba_png.ts`);
 * - `figure/fonts.ts`: the DejaVu font files ({@link fontFiles}), parsed with fontkit for
 *   their advance widths ({@link textWidth});
 * - `figure/svg.ts`: {@link toStandaloneSvg}, an HTML `<figure>` laid out as one SVG (text and
 *   swatch-legend blocks from `figure/svg_blocks.ts`);
 * - `figure/png.ts`: {@link svgToPng} with resvg;
 * - `figure/labels.ts`: {@link labelProblems}, labels of a figure that overlap or are cut off
 *   (ink boxes of every `<text>`, {@link textBoxes});
 * - `figure/save.ts`: {@link saveFigure} (SVG + PNG files) and {@link figureBundle} (notebook
 *   display);
 * - `figure/options.ts`: {@link FigureOptions}, the title/subtitle/caption every figure
 *   function of `lib/benchmarks/` takes in its options object.
 *
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * import { plotDocument, saveFigure } from "@runlens/render/figure.ts";
 * const el = Plot.plot({
 *   document: plotDocument(),
 *   title: "Accuracy by model",
 *   color: { legend: true },
 *   marks: [Plot.barY([{ m: "a", acc: 0.4 }], { x: "m", y: "acc", fill: "m" })],
 * });
 * const dir = Deno.makeTempDirSync();
 * saveFigure(el, dir, "accuracy"); // <dir>/accuracy.svg + <dir>/accuracy.png
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
export { JUPYTER_DISPLAY } from "./table.ts";
export { plotDocument } from "./figure/dom.ts";
export { installCanvasShim } from "./figure/canvas.ts";
export { FONT_DIRS, FONT_SANS, fontFiles, textWidth } from "./figure/fonts.ts";
export { type StandaloneOptions, toStandaloneSvg } from "./figure/svg.ts";
export { type PngOptions, svgToPng } from "./figure/png.ts";
export {
  type LabelCheckOptions,
  type LabelProblem,
  labelProblems,
  type TextBox,
  textBoxes,
} from "./figure/labels.ts";
export { type FigureBundle, figureBundle, saveFigure } from "./figure/save.ts";
export type { FigureOptions } from "./figure/options.ts";
