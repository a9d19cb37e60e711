/// <reference lib="dom" />
/**
 * The blocks a standalone figure SVG is stacked from, besides Plot's own `<svg>`s: wrapped text
 * (title, subtitle, caption) and swatch legends, each laid out with the DejaVu advance widths
 * and returned as a `<g>` with its height.
 *
 * @module
 */
import { textWidth } from "./fonts.ts";

/** The SVG namespace. */
export const SVG_NS = "http://www.w3.org/2000/svg";

/** Font size, line height, weight and colour of a text block. */
export interface TextStyle {
  size: number;
  line: number;
  weight: string;
  fill: string;
}

/** Plot's `<h2>` (title). */
export const TITLE: TextStyle = { size: 16, line: 20, weight: "bold", fill: "currentColor" };
/** Plot's `<h3>` (subtitle). */
export const SUBTITLE: TextStyle = { size: 12, line: 16, weight: "normal", fill: "#555555" };
/** Plot's `<figcaption>` and any other text. */
export const CAPTION: TextStyle = { size: 11, line: 15, weight: "normal", fill: "#555555" };

/**
 * A number from an attribute value, or `dflt` when it is missing or not a number.
 *
 * @example
 * ```ts
 * num("640", 0); // 640
 * num(null, 15); // 15
 * ```
 */
export function num(s: string | null, dflt: number): number {
  const n = s === null ? NaN : parseFloat(s);
  return Number.isFinite(n) ? n : dflt;
}

/**
 * Whitespace runs as one space, trimmed (`""` for null).
 *
 * @example
 * ```ts
 * collapse("  Figure\n  1. "); // "Figure 1."
 * ```
 */
export function collapse(s: string | null): string {
  return (s ?? "").replace(/\s+/g, " ").trim();
}

/**
 * A coordinate as written into the SVG: rounded to 2 decimals, no trailing zeros.
 *
 * @example
 * ```ts
 * fmt(12.3456); // "12.35"
 * fmt(4); // "4"
 * ```
 */
export function fmt(n: number): string {
  return String(Math.round(n * 100) / 100);
}

/** Greedy word wrap by measured width; a word wider than a line is broken between characters. */
function wrap(text: string, width: number, size: number, bold: boolean): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(" ").flatMap((w) => breakWord(w, width, size, bold))) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, size, bold) > width) lines.push(line), (line = word);
    else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** A word as pieces that each fit the width (a 150-character run name in a caption). */
function breakWord(word: string, width: number, size: number, bold: boolean): string[] {
  if (textWidth(word, size, bold) <= width) return [word];
  const pieces = [""];
  for (const ch of word) {
    const last = pieces[pieces.length - 1];
    if (last && textWidth(last + ch, size, bold) > width) pieces.push(ch);
    else pieces[pieces.length - 1] = last + ch;
  }
  return pieces;
}

/**
 * Text wrapped to `width` as a `<g>` of `<text>` lines, and its height (0 for empty text).
 *
 * @example
 * ```ts
 * import { JSDOM } from "jsdom";
 * const doc = new JSDOM("").window.document;
 * const [g, height] = textBlock(doc, "A caption long enough to wrap onto two lines", 150, CAPTION);
 * [g.querySelectorAll("text").length, height]; // [2, 30]
 * ```
 */
export function textBlock(
  doc: Document,
  text: string,
  width: number,
  s: TextStyle,
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

const SWATCH = { size: 10, gapIcon: 5, gapItem: 10, rowGap: 1 } as const;

/** One legend entry: its icon (`<svg>`, if any), icon size, label and total width. */
interface SwatchItem {
  icon: SVGSVGElement | null;
  iw: number;
  ih: number;
  label: string;
  w: number;
}

/**
 * Swatch legends (wrap or columns layout) as `<rect>`/`<svg>` + `<text>` rows, and the
 * legend's height.
 *
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * import { plotDocument } from "./dom.ts";
 * const el = Plot.plot({
 *   document: plotDocument(),
 *   color: { legend: true, domain: ["BBH", "BBEH"] },
 *   marks: [Plot.dot([{ x: 1, set: "BBH" }], { x: "x", fill: "set" })],
 * });
 * const legend = el.querySelector('div[class*="-swatches"]')!;
 * const [g, height] = swatchBlock(el.ownerDocument, legend, 640);
 * [g.querySelectorAll("rect").length, height]; // [2, 38]
 * ```
 */
export function swatchBlock(doc: Document, div: Element, width: number): [Element, number] {
  const g = doc.createElementNS(SVG_NS, "g");
  g.setAttribute("font-size", `${SWATCH.size}`);
  const items = [...div.querySelectorAll(`[class$="-swatch"]`)].map(swatchItem);
  const rowH = Math.max(15, ...items.map((i) => i.ih));
  const { pos, height } = swatchLayout(div, items, width, rowH);
  items.forEach((it, i) => {
    const [x, y] = pos[i];
    const cy = y + rowH / 2;
    if (it.icon) g.append(swatchIcon(doc, it, x, cy));
    const t = doc.createElementNS(SVG_NS, "text");
    t.setAttribute("x", fmt(x + it.iw + (it.iw ? SWATCH.gapIcon : 0)));
    t.setAttribute("y", fmt(cy + 0.32 * SWATCH.size));
    t.setAttribute("fill", "currentColor");
    t.textContent = it.label;
    g.append(t);
  });
  return [g, height];
}

function swatchItem(item: Element): SwatchItem {
  const icon = item.querySelector("svg");
  const iw = icon ? num(icon.getAttribute("width"), 15) : 0;
  const ih = icon ? num(icon.getAttribute("height"), 15) : 0;
  const label = collapse(item.textContent);
  return {
    icon,
    iw,
    ih,
    label,
    w: iw + (iw ? SWATCH.gapIcon : 0) + textWidth(label, SWATCH.size),
  };
}

/**
 * Top-left corner of each item and the legend's height: Plot's columns layout (`columns: n`)
 * or its wrapping layout (rows vertically centred in a 33 px minimum, 0.5em bottom margin).
 */
function swatchLayout(
  div: Element,
  items: SwatchItem[],
  width: number,
  rowH: number,
): { pos: [number, number][]; height: number } {
  const colsAttr = (div as HTMLElement).style?.columns ?? "";
  const columns = /columns/.test(div.getAttribute("class") ?? "")
    ? Math.max(1, parseInt(colsAttr) || 1)
    : 0;
  const pos: [number, number][] = [];
  if (columns) {
    const perCol = Math.ceil(items.length / columns), colW = width / columns;
    items.forEach((_, i) => pos.push([Math.floor(i / perCol) * colW, (i % perCol) * (rowH + 1)]));
    return { pos, height: Math.min(items.length, perCol) * (rowH + 1) };
  }
  let x = 0, row = 0;
  for (const it of items) {
    if (x > 0 && x + it.w > width) (x = 0), row++;
    pos.push([x, row * (rowH + SWATCH.rowGap)]);
    x += it.w + SWATCH.gapItem;
  }
  const content = (row + 1) * rowH + row * SWATCH.rowGap;
  const full = Math.max(33, content);
  for (const p of pos) p[1] += (full - content) / 2;
  return { pos, height: full + 5 }; // margin-bottom: 0.5em
}

/** A swatch's icon at (x, cy − height/2): a plain `<rect>` when it is one, else a copy. */
function swatchIcon(doc: Document, it: SwatchItem, x: number, cy: number): Element {
  const icon = it.icon!;
  const simple = icon.children.length === 1 &&
    icon.children[0].localName === "rect" && !icon.getAttribute("viewBox");
  if (simple) {
    const shape = doc.createElementNS(SVG_NS, "rect");
    for (const a of ["fill", "fill-opacity", "stroke", "stroke-opacity", "stroke-width"]) {
      const v = icon.getAttribute(a);
      if (v !== null) shape.setAttribute(a, v);
    }
    shape.setAttribute("x", fmt(x));
    shape.setAttribute("y", fmt(cy - it.ih / 2));
    shape.setAttribute("width", fmt(it.iw));
    shape.setAttribute("height", fmt(it.ih));
    return shape;
  }
  const shape = doc.createElementNS(SVG_NS, "g");
  shape.setAttribute("transform", `translate(${fmt(x)},${fmt(cy - it.ih / 2)})`);
  const copy = icon.cloneNode(true) as Element;
  copy.setAttribute("overflow", "visible");
  shape.append(copy);
  return shape;
}
