/// <reference lib="dom" />
/**
 * Figures out of the process: `saveFigure` writes the standalone SVG and its PNG side by side,
 * `figureBundle` makes a notebook cell show the figure.
 *
 * @module
 */
import { join } from "node:path";
import { JUPYTER_DISPLAY } from "../table.ts";
import { type StandaloneOptions, toStandaloneSvg } from "./svg.ts";
import { type PngOptions, svgToPng } from "./png.ts";

/**
 * Write `<dir>/<name>.svg` and `<dir>/<name>.png` (creating `dir`); returns both paths.
 *
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * import { plotDocument } from "./dom.ts";
 * const el = Plot.plot({ document: plotDocument(), title: "Accuracy", marks: [Plot.frame()] });
 * const dir = Deno.makeTempDirSync();
 * const { svg, png } = saveFigure(el, dir, "accuracy"); // <dir>/accuracy.svg, <dir>/accuracy.png
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function saveFigure(
  el: Element,
  dir: string,
  name: string,
  opts: StandaloneOptions & PngOptions = {},
): { svg: string; png: string } {
  const text = toStandaloneSvg(el, opts);
  Deno.mkdirSync(dir, { recursive: true });
  const paths = { svg: join(dir, `${name}.svg`), png: join(dir, `${name}.png`) };
  Deno.writeTextFileSync(paths.svg, text);
  Deno.writeFileSync(paths.png, svgToPng(text, opts));
  return paths;
}

/** Something a Deno Jupyter cell displays as an image. */
export interface FigureBundle {
  /** The standalone SVG. */
  svg: string;
  /** The MIME bundle a Deno Jupyter cell shows. */
  [JUPYTER_DISPLAY](): Record<string, string>;
}

/**
 * Wrap an SVG string (or a Plot element) so a notebook cell shows it as `image/svg+xml`.
 *
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * import { plotDocument } from "./dom.ts";
 * const el = Plot.plot({ document: plotDocument(), marks: [Plot.frame()] });
 * const bundle = figureBundle(el); // as a cell's last expression: the figure
 * bundle.svg.startsWith("<svg"); // true
 * ```
 */
export function figureBundle(svg: string | Element): FigureBundle {
  const text = typeof svg === "string" ? svg : toStandaloneSvg(svg);
  return {
    svg: text,
    [JUPYTER_DISPLAY]: () => ({ "image/svg+xml": text }),
  };
}
