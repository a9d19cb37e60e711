/// <reference lib="dom" />
/**
 * A tiny 2D canvas for jsdom, which has none: just enough for Plot's continuous colour legends
 * (ramps), which paint a 256 × 1 canvas and embed it as a PNG data URL.
 *
 * @module
 */
import { encodeRgbaPng } from "./rgba_png.ts";

/** Pixel buffers of shimmed canvases (RGBA, row-major). */
const canvasPixels = new WeakMap<object, Uint8Array>();

function pixelsOf(canvas: HTMLCanvasElement): Uint8Array {
  const w = Math.max(0, canvas.width | 0), h = Math.max(0, canvas.height | 0);
  let px = canvasPixels.get(canvas);
  if (!px || px.length !== w * h * 4) {
    px = new Uint8Array(w * h * 4);
    canvasPixels.set(canvas, px);
  }
  return px;
}

/**
 * Give jsdom's `<canvas>` just enough of a 2D context for Plot's ramp legends: `fillStyle` +
 * `fillRect` into an RGBA buffer, and `toDataURL()` encoding it as a PNG (stored deflate blocks,
 * so the bytes never depend on a compressor). Everything else is a no-op.
 *
 * @example
 * ```ts
 * import { JSDOM } from "jsdom";
 * const { window } = new JSDOM("");
 * installCanvasShim(window); // plotDocument() does this already
 * const canvas = window.document.createElement("canvas");
 * canvas.width = 2, canvas.height = 1;
 * const ctx = canvas.getContext("2d")!;
 * ctx.fillStyle = "#4269d0";
 * ctx.fillRect(0, 0, 2, 1);
 * canvas.toDataURL().startsWith("data:image/png;base64,"); // true
 * ```
 */
export function installCanvasShim(window: Window & typeof globalThis): void {
  const proto = window.HTMLCanvasElement.prototype;
  proto.getContext = function (this: HTMLCanvasElement, kind: string) {
    return kind === "2d" ? context2d(this) : null;
  } as typeof proto.getContext;
  proto.toDataURL = function (this: HTMLCanvasElement) {
    const png = encodeRgbaPng(this.width, this.height, pixelsOf(this));
    let bin = "";
    for (let i = 0; i < png.length; i += 8192) {
      bin += String.fromCharCode(...png.subarray(i, i + 8192));
    }
    return `data:image/png;base64,${btoa(bin)}`;
  };
}

/** The fake 2D context: `fillStyle` + `fillRect`, every other method a no-op. */
function context2d(canvas: HTMLCanvasElement): CanvasRenderingContext2D {
  let fill: [number, number, number, number] = [0, 0, 0, 255];
  let fillStyle = "#000000";
  const ctx = {
    canvas,
    get fillStyle() {
      return fillStyle;
    },
    set fillStyle(v: string) {
      const c = parseColor(String(v));
      if (c) (fill = c), (fillStyle = String(v));
    },
    fillRect(x: number, y: number, w: number, h: number) {
      const px = pixelsOf(canvas), cw = canvas.width, ch = canvas.height;
      const x0 = Math.max(0, Math.round(x)), x1 = Math.min(cw, Math.round(x + w));
      const y0 = Math.max(0, Math.round(y)), y1 = Math.min(ch, Math.round(y + h));
      for (let j = y0; j < y1; j++) {
        for (let i = x0; i < x1; i++) px.set(fill, (j * cw + i) * 4);
      }
    },
  };
  // deno-lint-ignore no-explicit-any
  return new Proxy(ctx as any, { get: (t, k) => (k in t ? t[k] : () => undefined) });
}

/** Parse `#rgb`, `#rrggbb`, `rgb(…)` and `rgba(…)` (what d3 interpolators produce). */
function parseColor(s: string): [number, number, number, number] | undefined {
  s = s.trim().toLowerCase();
  let m = /^#([0-9a-f]{3})$/.exec(s);
  if (m) return [...[...m[1]].map((c) => parseInt(c + c, 16)), 255] as never;
  m = /^#([0-9a-f]{6})$/.exec(s);
  if (m) {
    const n = parseInt(m[1], 16);
    return [n >> 16, (n >> 8) & 255, n & 255, 255];
  }
  m = /^rgba?\(([^)]*)\)$/.exec(s);
  if (m) {
    const p = m[1].split(/[\s,/]+/).filter(Boolean).map(Number);
    if (p.length >= 3 && p.every(Number.isFinite)) {
      const a = p.length > 3 ? p[3] : 1;
      const clamp = (v: number) => Math.max(0, Math.min(255, Math.round(v)));
      return [clamp(p[0]), clamp(p[1]), clamp(p[2]), clamp(a * 255)];
    }
  }
  if (s === "white") return [255, 255, 255, 255];
  if (s === "black") return [0, 0, 0, 255];
  if (s === "transparent") return [0, 0, 0, 0];
  return undefined;
}
