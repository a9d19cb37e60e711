/// <reference lib="dom" />
/**
 * Where the text of a figure lands: the ink box of every `<text>` of an SVG, in the SVG's own
 * pixels, and the label problems a reader sees — two labels overlapping, or a label cut off
 * by the edge of the figure (or of the plot's own `<svg>`, which clips what overflows it).
 *
 * How a box is found: the text is shaped with fontkit from the DejaVu file resvg draws it with
 * (kerning and ligatures as resvg's shaper applies them), its ink bounds are placed by
 * `x`/`y`/`dx`/`dy` (lengths in px or em), `text-anchor` (on the shaped advance) and
 * `dominant-baseline`, then carried through every `transform` of the text and its ancestors and
 * every nested `<svg>`'s position and `viewBox`. Font size, family, weight, style, anchor and
 * baseline are inherited as CSS does, from attributes or `style`. `<tspan>`s continue the pen,
 * and one with its own `x` or `y` starts a new line (a text chunk, anchored on its own). The
 * boxes are rotated rectangles; overlap is tested with the separating axis theorem, so rotated
 * tick labels side by side do not count as overlapping because their axis-aligned boxes would.
 * Not modelled (a figure using them should not rely on this check): `textPath`, per-glyph
 * coordinate lists (only the first value counts), `letter-spacing`, vertical writing.
 *
 * @example
 * ```ts
 * const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="40" font-size="10">' +
 *   '<text x="10" y="20">Geometric Shapes</text><text x="60" y="24">Web of Lies</text></svg>';
 * import assert from "node:assert/strict";
 * assert.deepEqual(labelProblems(svg).map((p) => p.message), [
 *   '"Geometric Shapes" overlaps "Web of Lies" by 5.7 px',
 * ]);
 * ```
 * @module
 */
import {
  apply,
  IDENTITY,
  type Matrix,
  multiply,
  overlapDepth,
  parseTransform,
  type Point,
} from "./_affine.ts";
import { dejavuFont, type Font, FONT_MONO, FONT_SANS, FONT_SERIF } from "./fonts.ts";
import { plotDocument } from "./dom.ts";

export type { Point } from "./_affine.ts";

/** One line of a `<text>` (a text chunk): its characters and ink box in the root's pixels. */
export interface TextBox {
  /** The characters of this line. */
  text: string;
  /** The index of its `<text>` element in document order (lines of one label share it). */
  element: number;
  /** The corners of the ink box, in order around it. */
  corners: Point[];
  /** The viewports that clip it (the root `<svg>`, nested ones), as corner lists. */
  clips: Point[][];
}

/** Inherited text properties. */
interface Style {
  size: number;
  family: string;
  bold: boolean;
  oblique: boolean;
  anchor: string;
  baseline: string;
  preserve: boolean;
}

const ROOT_STYLE: Style = {
  size: 16,
  family: "sans-serif",
  bold: false,
  oblique: false,
  anchor: "start",
  baseline: "auto",
  preserve: false,
};

/**
 * The ink box of every line of every visible `<text>` of an SVG document (in document order).
 *
 * @example
 * ```ts
 * const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">' +
 *   '<g transform="translate(50,50) rotate(-90)" font-size="10">' +
 *   '<text text-anchor="middle">Up</text></g></svg>';
 * import assert from "node:assert/strict";
 * const [box] = textBoxes(svg);
 * const ys = box.corners.map(([, y]) => Math.round(y));
 * assert.deepEqual([Math.min(...ys), Math.max(...ys)], [44, 56]); // runs upwards, centred on 50
 * ```
 */
export function textBoxes(svg: string): TextBox[] {
  const doc = new (plotDocument().defaultView!.DOMParser)().parseFromString(svg, "image/svg+xml");
  const err = doc.querySelector("parsererror");
  if (err) throw new Error(`not a well-formed SVG: ${err.textContent?.slice(0, 200)}`);
  const boxes: TextBox[] = [];
  const count = { texts: 0 };
  walk(doc.documentElement, IDENTITY, ROOT_STYLE, [], boxes, count);
  return boxes;
}

/** Visit an element: its transform, viewport and style, then its text or its children. */
function walk(
  el: Element,
  parent: Matrix,
  parentStyle: Style,
  parentClips: Point[][],
  out: TextBox[],
  count: { texts: number },
): void {
  if (hidden(el)) return;
  const style = styleOf(el, parentStyle);
  let m = multiply(parent, parseTransform(el.getAttribute("transform")));
  let clips = parentClips;
  if (el.localName === "svg") {
    const port = viewport(el, style);
    if (el.getAttribute("overflow") !== "visible" || el === el.ownerDocument.documentElement) {
      clips = [...clips, port.rect.map((p) => apply(m, p))];
    }
    m = multiply(m, port.inner);
  }
  if (el.localName === "text") {
    for (const line of layoutText(el, style)) {
      out.push({
        ...line,
        element: count.texts,
        corners: line.corners.map((p) => apply(m, p)),
        clips,
      });
    }
    count.texts++;
    return;
  }
  const skip = ["defs", "title", "desc", "clipPath", "mask", "symbol", "style", "metadata"];
  if (skip.includes(el.localName)) return;
  for (const child of el.children) walk(child, m, style, clips, out, count);
}

function hidden(el: Element): boolean {
  const prop = (name: string) => cssProp(el, name);
  return prop("display") === "none" || prop("visibility") === "hidden" || prop("opacity") === "0";
}

/** An attribute or the same property in the `style` attribute (which wins). */
function cssProp(el: Element, name: string): string | null {
  const inline = new RegExp(`(?:^|;)\\s*${name}\\s*:\\s*([^;]+)`).exec(
    el.getAttribute("style") ?? "",
  );
  return inline ? inline[1].trim() : el.getAttribute(name);
}

function styleOf(el: Element, p: Style): Style {
  const v = (name: string) => {
    const s = cssProp(el, name);
    return s === null || s === "inherit" ? null : s;
  };
  const weight = v("font-weight"), fontStyle = v("font-style");
  const space = el.getAttribute("xml:space");
  return {
    size: fontSize(v("font-size"), p.size),
    family: v("font-family") ?? p.family,
    bold: weight === null ? p.bold : weight === "bold" || weight === "bolder" || +weight >= 600,
    oblique: fontStyle === null ? p.oblique : fontStyle === "italic" || fontStyle === "oblique",
    anchor: v("text-anchor") ?? p.anchor,
    baseline: v("alignment-baseline") ?? v("dominant-baseline") ?? p.baseline,
    preserve: space === null ? p.preserve : space === "preserve",
  };
}

/** px per unit of a font size: `em` and `%` are relative to the parent's size. */
function fontSize(s: string | null, parent: number): number {
  const m = s === null ? null : /^([+-]?[\d.]+(?:e[+-]?\d+)?)\s*(px|pt|em|%)?$/i.exec(s.trim());
  if (!m) return parent;
  const per: Record<string, number> = { px: 1, pt: 4 / 3, em: parent, "%": parent / 100 };
  return parseFloat(m[1]) * per[(m[2] ?? "px").toLowerCase()];
}

/** A length attribute (first value of a list) in px: plain numbers, px, pt, em. */
function length(s: string | null, size: number): number | null {
  if (s === null || s.trim() === "") return null;
  const first = s.trim().split(/[\s,]+/)[0];
  const m = /^([+-]?[\d.]+(?:e[+-]?\d+)?)(px|pt|em)?$/i.exec(first);
  if (!m) return null;
  const n = parseFloat(m[1]);
  const unit = (m[2] ?? "px").toLowerCase();
  return unit === "em" ? n * size : unit === "pt" ? (n * 4) / 3 : n;
}

/**
 * A nested `<svg>`'s viewport (its `x`, `y`, `width`, `height`, as corners in its parent's
 * coordinates) and the transform into its content (`viewBox`, `xMidYMid meet`).
 */
function viewport(el: Element, style: Style): { rect: Point[]; inner: Matrix } {
  const x = length(el.getAttribute("x"), style.size) ?? 0;
  const y = length(el.getAttribute("y"), style.size) ?? 0;
  const vb = (el.getAttribute("viewBox") ?? "").split(/[\s,]+/).filter(Boolean).map(Number);
  const w = length(el.getAttribute("width"), style.size) ?? vb[2] ?? 0;
  const h = length(el.getAttribute("height"), style.size) ?? vb[3] ?? 0;
  const rect: Point[] = [[x, y], [x + w, y], [x + w, y + h], [x, y + h]];
  if (vb.length !== 4 || !(vb[2] > 0 && vb[3] > 0)) return { rect, inner: [1, 0, 0, 1, x, y] };
  const k = Math.min(w / vb[2], h / vb[3]);
  const tx = x + (w - vb[2] * k) / 2 - vb[0] * k, ty = y + (h - vb[3] * k) / 2 - vb[1] * k;
  return { rect, inner: [k, 0, 0, k, tx, ty] };
}

/** One run of characters with one style, and the pen moves before it. */
interface Piece {
  text: string;
  style: Style;
  x: number | null;
  y: number | null;
  dx: number;
  dy: number;
}

/** The pieces of a `<text>`, its `<tspan>`s flattened in order. */
function pieces(el: Element, style: Style, out: Piece[] = []): Piece[] {
  const pos = (name: string) => length(el.getAttribute(name), style.size);
  let first = true;
  const take = () => {
    const p = first
      ? { x: pos("x"), y: pos("y"), dx: pos("dx") ?? 0, dy: pos("dy") ?? 0 }
      : { x: null, y: null, dx: 0, dy: 0 };
    first = false;
    return p;
  };
  for (const node of el.childNodes) {
    if (node.nodeType === 3) out.push({ text: node.textContent ?? "", style, ...take() });
    else if (node.nodeType === 1 && (node as Element).localName === "tspan") {
      const t = node as Element;
      if (hidden(t)) continue;
      const at = take();
      if (at.x !== null || at.y !== null || at.dx || at.dy) out.push({ text: "", style, ...at });
      pieces(t, styleOf(t, style), out);
    }
  }
  if (first) out.push({ text: "", style, ...take() });
  return out;
}

/** SVG's whitespace rule: newlines dropped, tabs as spaces, runs collapsed unless preserved. */
function whitespace(list: Piece[]): void {
  for (const p of list) {
    p.text = p.style.preserve
      ? p.text.replace(/[\n\r\t]/g, " ")
      : p.text.replace(/[\n\r]/g, "").replace(/\t/g, " ").replace(/ +/g, " ");
  }
  const kept = list.filter((p) => !p.style.preserve);
  if (kept.length) {
    kept[0].text = kept[0].text.trimStart();
    kept[kept.length - 1].text = kept[kept.length - 1].text.trimEnd();
  }
}

/** The lines (text chunks) of a `<text>`, each with its ink box in the text's coordinates. */
function layoutText(el: Element, style: Style): { text: string; corners: Point[] }[] {
  const list = pieces(el, style);
  whitespace(list);
  const lines: Line[] = [];
  let pen: [number, number] = [0, 0];
  for (const p of list) {
    if (p.x !== null || p.y !== null || lines.length === 0) {
      pen = [p.x ?? pen[0], p.y ?? pen[1]];
      lines.push({ text: "", anchor: p.style.anchor, begin: null, end: 0, boxes: [] });
    }
    pen = [pen[0] + p.dx, pen[1] + p.dy];
    const line = lines[lines.length - 1];
    if (!p.text) continue;
    line.begin ??= pen[0];
    const run = shape(p.text, p.style);
    if (run.ink) line.boxes.push(offset(run.ink, pen[0], pen[1] + run.baseline));
    pen[0] += run.advance;
    (line.text += p.text), (line.end = pen[0]);
  }
  return lines.filter((l) => l.boxes.length && l.text.trim()).map(anchored);
}

/** A text chunk being laid out: where its first glyph starts and its last one ends. */
interface Line {
  text: string;
  anchor: string;
  begin: number | null;
  end: number;
  boxes: Box[];
}

/** A chunk's ink box moved by its `text-anchor` (on the shaped advance), as corners. */
function anchored(l: Line): { text: string; corners: Point[] } {
  const width = l.end - l.begin!;
  const s = l.anchor === "middle" ? -width / 2 : l.anchor === "end" ? -width : 0;
  const b = union(l.boxes);
  const corners: Point[] = [[b.x0 + s, b.y0], [b.x1 + s, b.y0], [b.x1 + s, b.y1], [b.x0 + s, b.y1]];
  return { text: l.text.trim(), corners };
}

/** An axis-aligned box, y down. */
interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
}

function offset(b: Box, x: number, y: number): Box {
  return { x0: b.x0 + x, y0: b.y0 + y, x1: b.x1 + x, y1: b.y1 + y };
}

function union(boxes: Box[]): Box {
  return {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
}

/**
 * The family resvg draws a `font-family` list with: the first DejaVu family it names, else its
 * default, DejaVu Sans (resvg does not map generic names such as `monospace`; the standalone
 * SVGs name DejaVu families, `mapFontFamily`).
 */
function resvgFamily(list: string): string {
  const names = list.split(",").map((f) => f.trim().replace(/^["']|["']$/g, "").toLowerCase());
  const loaded = [FONT_SANS, FONT_MONO, FONT_SERIF];
  for (const n of names) {
    const hit = loaded.find((f) => f.toLowerCase() === n);
    if (hit) return hit;
  }
  return FONT_SANS;
}

/** The shaped run's advance and ink box (px, y down, origin on the baseline at the pen). */
function shape(text: string, s: Style): { advance: number; ink: Box | null; baseline: number } {
  const font = dejavuFont(resvgFamily(s.family), s.bold, s.oblique);
  const run = font.layout(text);
  const k = s.size / font.unitsPerEm;
  const b = run.bbox;
  const ink = Number.isFinite(b.minX) && b.maxX > b.minX
    ? { x0: b.minX * k, y0: -b.maxY * k, x1: b.maxX * k, y1: -b.minY * k }
    : null;
  return { advance: run.advanceWidth * k, ink, baseline: baselineShift(s, font) };
}

/**
 * How far the baseline moves the glyphs down from the alphabetic one, in px: resvg's rule
 * (usvg's `alignment_baseline_shift`) on the font's ascent, descent and x-height — the x-height
 * of the OS/2 table, else 45% of ascent − descent, as resvg and Firefox take it.
 */
function baselineShift(s: Style, font: Font): number {
  const k = s.size / font.unitsPerEm, asc = font.ascent * k, desc = font.descent * k;
  const xHeight = font.xHeight > 0
    ? font.xHeight * k
    : Math.floor(0.45 * (font.ascent - font.descent)) * k;
  switch (s.baseline) {
    case "text-before-edge":
    case "before-edge":
      return asc;
    case "middle":
      return xHeight / 2;
    case "central":
      return asc - (asc - desc) / 2;
    case "text-after-edge":
    case "after-edge":
    case "ideographic":
      return desc;
    case "hanging":
      return asc * 0.8;
    case "mathematical":
      return asc / 2;
  }
  return 0;
}

/** A label problem: two labels overlapping, or one cut off by a viewport's edge. */
export interface LabelProblem {
  kind: "overlap" | "clipped";
  /** The label(s) concerned: two for an overlap, one when clipped. */
  labels: string[];
  /** By how much, in px (overlap depth, or how far the ink passes the edge). */
  px: number;
  /** One line saying it. */
  message: string;
}

/** Options of {@link labelProblems}. */
export interface LabelCheckOptions {
  /**
   * The clearance two labels' ink boxes need, in px (default 1): closer than that they read
   * as one (Figure 7's "Buggy Tables" 0.7 px above "Object Properties" did).
   */
  gap?: number;
  /** How far ink may pass a clipping edge, in px (default 0.5: one pixel of a 2× PNG). */
  clipTolerance?: number;
}

/**
 * The label problems of an SVG: every pair of text lines of different `<text>` elements whose
 * ink boxes come closer than the gap (or overlap), and every line whose ink passes the edge of
 * a viewport that clips it (the figure, or the plot's `<svg>`). `px` is the overlap depth
 * (negative: how far apart two labels that are too close are) or how far the ink is cut.
 *
 * @example
 * ```ts
 * const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="60" height="40" font-size="10">' +
 *   '<text x="58" y="12" text-anchor="end">fits</text><text x="40" y="35">cut off</text></svg>';
 * import assert from "node:assert/strict";
 * assert.deepEqual(labelProblems(svg).map((p) => p.message), ['"cut off" is clipped by 12.1 px']);
 * ```
 */
export function labelProblems(svg: string, opts: LabelCheckOptions = {}): LabelProblem[] {
  const gap = opts.gap ?? 1, tol = opts.clipTolerance ?? 0.5;
  const boxes = textBoxes(svg);
  const problems: LabelProblem[] = [];
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      const depth = a.element === b.element ? -Infinity : overlapDepth(a.corners, b.corners);
      if (depth > -gap) {
        const labels = [a.text, b.text];
        const how = depth > 0
          ? `overlaps "${labels[1]}" by`
          : `is within ${gap} px of "${labels[1]}":`;
        const message = `"${labels[0]}" ${how} ${depth.toFixed(1)} px`;
        problems.push({ kind: "overlap", labels, px: depth, message });
      }
    }
    const out = Math.max(0, ...a.clips.map((c) => overflow(a.corners, c)));
    if (out > tol) {
      const message = `"${a.text}" is clipped by ${out.toFixed(1)} px`;
      problems.push({ kind: "clipped", labels: [a.text], px: out, message });
    }
  }
  return problems;
}

/** How far the corners pass outside the clip polygon's bounding box, in px (0 when inside). */
function overflow(corners: Point[], clip: Point[]): number {
  const xs = clip.map(([x]) => x), ys = clip.map(([, y]) => y);
  const [x0, x1, y0, y1] = [Math.min(...xs), Math.max(...xs), Math.min(...ys), Math.max(...ys)];
  return Math.max(0, ...corners.map(([x, y]) => Math.max(x0 - x, x - x1, y0 - y, y - y1)));
}
