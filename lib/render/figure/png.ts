/**
 * SVG → PNG with resvg (native, no browser), fonts limited to the DejaVu files so the bytes
 * do not depend on the machine's fonts.
 *
 * @module
 */
import { Resvg } from "@resvg/resvg-js";
import { FONT_MONO, FONT_SANS, FONT_SERIF, fontFiles } from "./fonts.ts";

/** Options of {@link svgToPng}. */
export interface PngOptions {
  /** Zoom factor (default 2: a 656 px wide SVG gives a 1312 px wide PNG). */
  scale?: number;
}

/**
 * Render an SVG string to PNG bytes with resvg (DejaVu fonts only, no system fonts, white
 * background). Deterministic: the same SVG gives the same bytes.
 *
 * @example
 * ```ts
 * const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="40" height="20">' +
 *   '<text y="15">Hi</text></svg>';
 * const png = svgToPng(svg, { scale: 1 });
 * new DataView(png.buffer).getUint32(16); // 40: the width in the PNG header
 * ```
 */
export function svgToPng(svg: string, opts: PngOptions = {}): Uint8Array {
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: opts.scale ?? 2 },
    background: "white",
    font: resvgFonts(),
    logLevel: "off",
  });
  const png = resvg.render().asPng();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength).slice();
}

/**
 * The font options figures are rendered with: the DejaVu files only, generic families mapped
 * to them (for anything else drawing or measuring text as resvg does, e.g. the label checks).
 *
 * @example
 * ```ts
 * resvgFonts().monospaceFamily; // "DejaVu Sans Mono"
 * ```
 */
export function resvgFonts() {
  return {
    fontFiles: fontFiles(),
    loadSystemFonts: false,
    defaultFontFamily: FONT_SANS,
    sansSerifFamily: FONT_SANS,
    serifFamily: FONT_SERIF,
    monospaceFamily: FONT_MONO,
  };
}
