/// <reference lib="dom" />
/**
 * Figure output: turn what `Plot.plot` returns into one standalone, deterministic SVG, render it
 * to PNG with resvg (no browser), and write both next to each other.
 *
 * Plot draws into a jsdom document ({@link plotDocument}, with a tiny canvas shim so continuous
 * colour legends work). With a title, subtitle, caption or legend Plot returns an HTML `<figure>`;
 * {@link toStandaloneSvg} lays it out as SVG: headings and captions become `<text>`, swatch
 * legends `<rect>` + `<text>`, child `<svg>`s (the plot, ramp legends) are placed with
 * `<g transform>`, on a white background, with every font mapped to DejaVu Sans (measured from the
 * font files, so wrapping and legend spacing match what resvg draws).
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
 * saveFigure(el, "figures", "accuracy"); // figures/accuracy.svg + figures/accuracy.png
 * ```
 * @module
 */
import { join } from "node:path";
import { JSDOM } from "jsdom";
import { Resvg } from "@resvg/resvg-js";
import { REPO_ROOT } from "../core/data_dir.ts";
import { JUPYTER_DISPLAY } from "./table.ts";

export { JUPYTER_DISPLAY };

const SVG_NS = "http://www.w3.org/2000/svg";
const XLINK_NS = "http://www.w3.org/1999/xlink";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";

/** The concrete font families output SVGs use (all shipped by `dejavu-fonts-ttf`). */
export const FONT_SANS = "DejaVu Sans";
const FONT_MONO = "DejaVu Sans Mono";
const FONT_SERIF = "DejaVu Serif";

// ---------------------------------------------------------------------------------------------
// jsdom document + canvas shim

let dom: JSDOM | undefined;

/**
 * The shared jsdom document to pass as Plot's `document` option (one JSDOM, created lazily,
 * with the canvas shim installed).
 *
 * @example
 * ```ts
 * const el = Plot.plot({ document: plotDocument(), marks: [Plot.dot([1, 2], { x: (d) => d })] });
 * ```
 */
export function plotDocument(): Document {
  if (!dom) {
    dom = new JSDOM("<!DOCTYPE html><html><head></head><body></body></html>");
    installCanvasShim(dom.window);
  }
  return dom.window.document;
}

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
 * installCanvasShim(new JSDOM("").window); // plotDocument() does this already
 * ```
 */
export function installCanvasShim(window: Window & typeof globalThis): void {
  const proto = window.HTMLCanvasElement.prototype;
  proto.getContext = function (this: HTMLCanvasElement, kind: string) {
    return kind === "2d" ? context2d(this) : null;
  } as typeof proto.getContext;
  proto.toDataURL = function (this: HTMLCanvasElement) {
    const png = encodePng(this.width, this.height, pixelsOf(this));
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

const CRC_TABLE = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 255] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** A minimal RGBA PNG encoder with uncompressed (stored) deflate blocks. */
function encodePng(width: number, height: number, rgba: Uint8Array): Uint8Array {
  const raw = new Uint8Array(height * (width * 4 + 1));
  for (let y = 0; y < height; y++) {
    raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  }
  const blocks: number[] = [0x78, 0x01];
  for (let i = 0; i < raw.length || i === 0; i += 65535) {
    const chunk = raw.subarray(i, i + 65535);
    const last = i + 65535 >= raw.length ? 1 : 0;
    const n = chunk.length;
    blocks.push(last, n & 255, n >> 8, ~n & 255, (~n >> 8) & 255, ...chunk);
  }
  let a = 1, b = 0;
  for (const v of raw) (a = (a + v) % 65521), (b = (b + a) % 65521);
  blocks.push(b >> 8, b & 255, a >> 8, a & 255);
  const ihdr = new Uint8Array(13);
  const dv = new DataView(ihdr.buffer);
  dv.setUint32(0, width), dv.setUint32(4, height);
  ihdr.set([8, 6, 0, 0, 0], 8);
  const chunk = (type: string, data: Uint8Array) => {
    const out = new Uint8Array(12 + data.length);
    const v = new DataView(out.buffer);
    v.setUint32(0, data.length);
    out.set([...type].map((c) => c.charCodeAt(0)), 4);
    out.set(data, 8);
    v.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
    return out;
  };
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", ihdr),
    chunk("IDAT", new Uint8Array(blocks)),
    chunk("IEND", new Uint8Array(0)),
  ];
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let o = 0;
  for (const p of parts) out.set(p, o), (o += p.length);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Fonts: files for resvg, advance widths for layout

const FONT_FILES = [
  "DejaVuSans.ttf",
  "DejaVuSans-Bold.ttf",
  "DejaVuSans-Oblique.ttf",
  "DejaVuSans-BoldOblique.ttf",
  "DejaVuSansMono.ttf",
  "DejaVuSansMono-Bold.ttf",
  "DejaVuSerif.ttf",
  "DejaVuSerif-Bold.ttf",
];

/** Where the DejaVu TTF files are looked for, first match wins. */
export const FONT_DIRS = [
  join(REPO_ROOT, "node_modules", "dejavu-fonts-ttf", "ttf"),
  "/usr/share/fonts/truetype/dejavu",
];

let fontFileCache: string[] | undefined;

/**
 * Absolute paths of the DejaVu fonts resvg loads (Sans regular/bold/oblique, Mono, Serif).
 * Throws with a hint when `DejaVuSans.ttf` is nowhere to be found.
 *
 * @example
 * ```ts
 * fontFiles()[0]; // ".../node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf"
 * ```
 */
export function fontFiles(): string[] {
  if (fontFileCache) return fontFileCache;
  for (const dir of FONT_DIRS) {
    const files = FONT_FILES.map((f) => join(dir, f)).filter(isFile);
    if (files.length && files[0].endsWith("DejaVuSans.ttf")) return (fontFileCache = files);
  }
  throw new Error(
    `DejaVu fonts not found (looked for DejaVuSans.ttf in ${FONT_DIRS.join(", ")}); ` +
      "run `npx -y deno@2.9.6 install` in the repository to fetch the npm package dejavu-fonts-ttf",
  );
}

function isFile(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

/** Advance widths of one TrueType font (cmap format 4 + hmtx; no kerning). */
class FontMetrics {
  #cache = new Map<number, number>();
  #v: DataView;
  #upem: number;
  #numH: number;
  #hmtx: number;
  #cmap4 = -1;

  constructor(bytes: Uint8Array) {
    const v = (this.#v = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    const tables = new Map<string, number>();
    for (let i = 0, n = v.getUint16(4); i < n; i++) {
      const r = 12 + 16 * i;
      const tag = String.fromCharCode(...bytes.subarray(r, r + 4));
      tables.set(tag, v.getUint32(r + 8));
    }
    const need = (t: string) => {
      const o = tables.get(t);
      if (o === undefined) throw new Error(`font has no ${t} table`);
      return o;
    };
    this.#upem = v.getUint16(need("head") + 18);
    this.#numH = v.getUint16(need("hhea") + 34);
    this.#hmtx = need("hmtx");
    const cmap = need("cmap");
    for (let i = 0, n = v.getUint16(cmap + 2); i < n; i++) {
      const r = cmap + 4 + 8 * i;
      const [pid, eid, off] = [v.getUint16(r), v.getUint16(r + 2), v.getUint32(r + 4)];
      if (((pid === 3 && eid === 1) || pid === 0) && v.getUint16(cmap + off) === 4) {
        this.#cmap4 = cmap + off;
        break;
      }
    }
  }

  #glyph(cp: number): number {
    const v = this.#v, t = this.#cmap4;
    if (t < 0 || cp > 0xffff) return 0;
    const segs = v.getUint16(t + 6) / 2;
    const ends = t + 14, starts = ends + 2 * segs + 2, deltas = starts + 2 * segs;
    const ranges = deltas + 2 * segs;
    for (let s = 0; s < segs; s++) {
      if (v.getUint16(ends + 2 * s) < cp) continue;
      const start = v.getUint16(starts + 2 * s);
      if (start > cp) return 0;
      const delta = v.getInt16(deltas + 2 * s), ro = v.getUint16(ranges + 2 * s);
      if (ro === 0) return (cp + delta) & 0xffff;
      const g = v.getUint16(ranges + 2 * s + ro + 2 * (cp - start));
      return g === 0 ? 0 : (g + delta) & 0xffff;
    }
    return 0;
  }

  /** Advance width of one code point, in em. */
  advance(cp: number): number {
    let w = this.#cache.get(cp);
    if (w === undefined) {
      const g = Math.min(this.#glyph(cp), this.#numH - 1);
      w = this.#v.getUint16(this.#hmtx + 4 * g) / this.#upem;
      this.#cache.set(cp, w);
    }
    return w;
  }

  /** Width of a string at a font size, in px. */
  measure(text: string, size: number): number {
    let em = 0;
    for (const ch of text) em += this.advance(ch.codePointAt(0)!);
    return em * size;
  }
}

const metricsCache = new Map<string, FontMetrics>();

function metrics(bold: boolean): FontMetrics {
  const name = bold ? "DejaVuSans-Bold.ttf" : "DejaVuSans.ttf";
  let m = metricsCache.get(name);
  if (!m) {
    const path = fontFiles().find((f) => f.endsWith(`/${name}`)) ?? fontFiles()[0];
    m = new FontMetrics(Deno.readFileSync(path));
    metricsCache.set(name, m);
  }
  return m;
}

/**
 * Width in px of `text` set in DejaVu Sans (advance widths, no kerning).
 *
 * @example
 * ```ts
 * textWidth("Accuracy", 10); // ≈ 45
 * ```
 */
export function textWidth(text: string, size: number, bold = false): number {
  return metrics(bold).measure(text, size);
}

/** The DejaVu family standing in for a CSS font-family list. */
function mapFontFamily(list: string): string {
  const l = list.toLowerCase();
  if (/mono|courier|consolas|menlo|code/.test(l)) return FONT_MONO;
  if (/(^|[\s,"'])serif\b|georgia|times/.test(l) && !/sans-serif/.test(l.split(",")[0])) {
    return FONT_SERIF;
  }
  return FONT_SANS;
}

// ---------------------------------------------------------------------------------------------
// <figure> → one SVG

/** Options of {@link toStandaloneSvg}. */
export interface StandaloneOptions {
  /** Blank margin around everything, in px (default 8). */
  padding?: number;
}

const TITLE = { size: 16, line: 20, weight: "bold", fill: "currentColor" } as const;
const SUBTITLE = { size: 12, line: 16, weight: "normal", fill: "#555555" } as const;
const CAPTION = { size: 11, line: 15, weight: "normal", fill: "#555555" } as const;
const GAP = 6;

/**
 * One standalone SVG string from what `Plot.plot` returns (`<svg>` or `<figure>`): `xmlns` and
 * `xmlns:xlink` on the root, a white background, DejaVu fonts, no `<style>` sheets, element ids
 * renumbered in document order (Plot's clip ids come from a global counter), so the same plot
 * always gives the same bytes. The size is the plot's width + 2 × padding.
 *
 * @example
 * ```ts
 * const svg = toStandaloneSvg(Plot.plot({ document: plotDocument(), title: "T", marks: [] }));
 * svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"'); // true
 * ```
 */
export function toStandaloneSvg(el: Element, opts: StandaloneOptions = {}): string {
  const pad = opts.padding ?? 8;
  const doc = el.ownerDocument;
  const parts = isSvg(el) ? [el] : [...el.children];
  const svgs = parts.filter(isSvg);
  const width = Math.max(0, ...svgs.map((s) => num(s.getAttribute("width"), 0))) || 640;

  const root = doc.createElementNS(SVG_NS, "svg");
  root.setAttributeNS(XMLNS_NS, "xmlns:xlink", XLINK_NS);
  const body = doc.createElementNS(SVG_NS, "g");
  body.setAttribute("transform", `translate(${pad},${pad})`);
  let y = 0;
  const place = (g: Element, h: number) => {
    if (y > 0) y += GAP;
    if (g.getAttribute("transform") === null) g.setAttribute("transform", `translate(0,${y})`);
    body.append(g);
    y += h;
  };
  for (const part of parts) {
    const tag = part.tagName.toLowerCase();
    if (isSvg(part)) {
      const g = doc.createElementNS(SVG_NS, "g");
      const copy = part.cloneNode(true) as Element;
      if (part !== el && /-ramp\b/.test(part.getAttribute("class") ?? "")) {
        copy.setAttribute("overflow", "visible");
      }
      g.append(copy);
      place(g, num(part.getAttribute("height"), 0));
    } else if (tag === "h2" || tag === "h3" || tag === "figcaption") {
      const style = tag === "h2" ? TITLE : tag === "h3" ? SUBTITLE : CAPTION;
      const [g, h] = textBlock(doc, collapse(part.textContent), width, style);
      if (h) place(g, h);
    } else if (part.querySelector(`[class$="-swatch"]`)) {
      const [g, h] = swatchBlock(doc, part, width);
      place(g, h);
    } else if (tag !== "style" && collapse(part.textContent)) {
      const [g, h] = textBlock(doc, collapse(part.textContent), width, CAPTION);
      place(g, h);
    }
  }
  const W = width + 2 * pad, H = Math.ceil(y) + 2 * pad;
  root.setAttribute("width", `${W}`);
  root.setAttribute("height", `${H}`);
  root.setAttribute("viewBox", `0 0 ${W} ${H}`);
  root.setAttribute("font-family", FONT_SANS);
  root.setAttribute("font-size", "10");
  root.setAttribute("color", "black");
  root.setAttributeNS("http://www.w3.org/XML/1998/namespace", "xml:space", "preserve");
  const bg = doc.createElementNS(SVG_NS, "rect");
  for (const [k, v] of [["width", "100%"], ["height", "100%"], ["fill", "white"]]) {
    bg.setAttribute(k, v);
  }
  root.append(bg, body);
  normalize(root);
  const xml = new (doc.defaultView as Window & typeof globalThis).XMLSerializer()
    .serializeToString(root);
  return `${xml}\n`;
}

function isSvg(e: Element): boolean {
  return e.namespaceURI === SVG_NS && e.localName === "svg";
}

function num(s: string | null, dflt: number): number {
  const n = s === null ? NaN : parseFloat(s);
  return Number.isFinite(n) ? n : dflt;
}

function collapse(s: string | null): string {
  return (s ?? "").replace(/\s+/g, " ").trim();
}

function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** Greedy word wrap by measured width. */
function wrap(text: string, width: number, size: number, bold: boolean): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ")) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, size, bold) > width) lines.push(line), (line = word);
    else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

function textBlock(
  doc: Document,
  text: string,
  width: number,
  s: { size: number; line: number; weight: string; fill: string },
): [Element, number] {
  const g = doc.createElementNS(SVG_NS, "g");
  g.setAttribute("font-size", `${s.size}`);
  if (s.weight !== "normal") g.setAttribute("font-weight", s.weight);
  g.setAttribute("fill", s.fill);
  const lines = text ? wrap(text, width, s.size, s.weight === "bold") : [];
  lines.forEach((line, i) => {
    const t = doc.createElementNS(SVG_NS, "text");
    t.setAttribute("y", fmt(i * s.line + s.line / 2 + 0.35 * s.size));
    t.textContent = line;
    g.append(t);
  });
  return [g, lines.length * s.line];
}

/** Swatch legends (wrap or columns layout) as `<rect>`/`<svg>` + `<text>` rows. */
function swatchBlock(doc: Document, div: Element, width: number): [Element, number] {
  const size = 10, gapIcon = 5, gapItem = 10, rowGap = 1;
  const g = doc.createElementNS(SVG_NS, "g");
  g.setAttribute("font-size", `${size}`);
  const items = [...div.querySelectorAll(`[class$="-swatch"]`)].map((item) => {
    const icon = item.querySelector("svg");
    const iw = icon ? num(icon.getAttribute("width"), 15) : 0;
    const ih = icon ? num(icon.getAttribute("height"), 15) : 0;
    const label = collapse(item.textContent);
    return { icon, iw, ih, label, w: iw + (iw ? gapIcon : 0) + textWidth(label, size) };
  });
  const rowH = Math.max(15, ...items.map((i) => i.ih));
  const colsAttr = (div as HTMLElement).style?.columns ?? "";
  const columns = /columns/.test(div.getAttribute("class") ?? "")
    ? Math.max(1, parseInt(colsAttr) || 1)
    : 0;
  const pos: [number, number][] = [];
  let height: number;
  if (columns) {
    const perCol = Math.ceil(items.length / columns), colW = width / columns;
    items.forEach((_, i) => pos.push([Math.floor(i / perCol) * colW, (i % perCol) * (rowH + 1)]));
    height = Math.min(items.length, perCol) * (rowH + 1);
  } else {
    let x = 0, row = 0;
    for (const it of items) {
      if (x > 0 && x + it.w > width) (x = 0), row++;
      pos.push([x, row * (rowH + rowGap)]);
      x += it.w + gapItem;
    }
    const content = (row + 1) * rowH + row * rowGap;
    const full = Math.max(33, content);
    for (const p of pos) p[1] += (full - content) / 2;
    height = full + 5; // margin-bottom: 0.5em
  }
  items.forEach((it, i) => {
    const [x, y] = pos[i];
    const cy = y + rowH / 2;
    if (it.icon) {
      const simple = it.icon.children.length === 1 &&
        it.icon.children[0].localName === "rect" && !it.icon.getAttribute("viewBox");
      let shape: Element;
      if (simple) {
        shape = doc.createElementNS(SVG_NS, "rect");
        for (const a of ["fill", "fill-opacity", "stroke", "stroke-opacity", "stroke-width"]) {
          const v = it.icon.getAttribute(a);
          if (v !== null) shape.setAttribute(a, v);
        }
        shape.setAttribute("x", fmt(x));
        shape.setAttribute("y", fmt(cy - it.ih / 2));
        shape.setAttribute("width", fmt(it.iw));
        shape.setAttribute("height", fmt(it.ih));
      } else {
        shape = doc.createElementNS(SVG_NS, "g");
        shape.setAttribute("transform", `translate(${fmt(x)},${fmt(cy - it.ih / 2)})`);
        const copy = it.icon.cloneNode(true) as Element;
        copy.setAttribute("overflow", "visible");
        shape.append(copy);
      }
      g.append(shape);
    }
    const t = doc.createElementNS(SVG_NS, "text");
    t.setAttribute("x", fmt(x + it.iw + (it.iw ? gapIcon : 0)));
    t.setAttribute("y", fmt(cy + 0.32 * size));
    t.setAttribute("fill", "currentColor");
    t.textContent = it.label;
    g.append(t);
  });
  return [g, height];
}

/** Drop style sheets, map font families, renumber ids (and their `url(#…)`/`#…` references). */
function normalize(root: Element): void {
  for (const s of [...root.querySelectorAll("style")]) s.remove();
  const all = [root, ...root.querySelectorAll("*")];
  const ids = new Map<string, string>();
  for (const e of all) {
    const id = e.getAttribute("id");
    if (id !== null && !ids.has(id)) ids.set(id, `f${ids.size + 1}`);
  }
  const ref = (v: string) =>
    v.replace(/url\(\s*(['"]?)#([^'")]+)\1\s*\)/g, (m, _q, id) => {
      const n = ids.get(id);
      return n ? `url(#${n})` : m;
    });
  for (const e of all) {
    const id = e.getAttribute("id");
    if (id !== null) e.setAttribute("id", ids.get(id)!);
    for (const a of [...e.attributes]) {
      if (a.name === "font-family") e.setAttribute(a.name, mapFontFamily(a.value));
      else if (a.name === "style" && /font-family/.test(a.value)) {
        e.setAttribute(
          "style",
          a.value.replace(
            /font-family\s*:\s*([^;]+)/g,
            (_, f) => `font-family: ${mapFontFamily(f)}`,
          ),
        );
      } else if (/^(xlink:)?href$/.test(a.name) && a.value.startsWith("#")) {
        const n = ids.get(a.value.slice(1));
        if (n) a.value = `#${n}`;
      } else if (a.value.includes("url(")) a.value = ref(a.value);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// PNG, files, notebook display

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
 * const png = svgToPng(toStandaloneSvg(el), { scale: 1 });
 * ```
 */
export function svgToPng(svg: string, opts: PngOptions = {}): Uint8Array {
  const resvg = new Resvg(svg, {
    fitTo: { mode: "zoom", value: opts.scale ?? 2 },
    background: "white",
    font: {
      fontFiles: fontFiles(),
      loadSystemFonts: false,
      defaultFontFamily: FONT_SANS,
      sansSerifFamily: FONT_SANS,
      serifFamily: FONT_SERIF,
      monospaceFamily: FONT_MONO,
    },
    logLevel: "off",
  });
  const png = resvg.render().asPng();
  return new Uint8Array(png.buffer, png.byteOffset, png.byteLength).slice();
}

/**
 * Write `<dir>/<name>.svg` and `<dir>/<name>.png` (creating `dir`); returns both paths.
 *
 * @example
 * ```ts
 * const { svg, png } = saveFigure(el, "figures", "accuracy");
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
 * figureBundle(el); // as a cell's last expression: the figure
 * ```
 */
export function figureBundle(svg: string | Element): FigureBundle {
  const text = typeof svg === "string" ? svg : toStandaloneSvg(svg);
  return {
    svg: text,
    [JUPYTER_DISPLAY]: () => ({ "image/svg+xml": text }),
  };
}
