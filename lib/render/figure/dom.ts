/// <reference lib="dom" />
/**
 * The jsdom document Plot draws into on the server (Plot's `document` option), with the canvas
 * shim installed so continuous colour legends work.
 *
 * @module
 */
import { JSDOM } from "jsdom";
import { installCanvasShim } from "./canvas.ts";

let dom: JSDOM | undefined;

/**
 * The shared jsdom document to pass as Plot's `document` option (one JSDOM, created lazily,
 * with the canvas shim installed).
 *
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * const el = Plot.plot({ document: plotDocument(), marks: [Plot.dot([1, 2], { x: (d) => d })] });
 * el.tagName; // "svg"
 * ```
 */
export function plotDocument(): Document {
  if (!dom) {
    dom = new JSDOM("<!DOCTYPE html><html><head></head><body></body></html>");
    installCanvasShim(dom.window);
  }
  return dom.window.document;
}
