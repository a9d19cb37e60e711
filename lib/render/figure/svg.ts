/// <reference lib="dom" />
/**
 * What `Plot.plot` returns (`<svg>`, or an HTML `<figure>` when there is a title, subtitle,
 * caption or legend) as one standalone SVG: headings and captions become `<text>`, swatch
 * legends `<rect>` + `<text>`, child `<svg>`s (the plot, ramp legends) are placed with
 * `<g transform>`, on a white background, with every font mapped to DejaVu.
 *
 * @module
 */
import { FONT_SANS, mapFontFamily } from "./fonts.ts";
import {
  CAPTION,
  collapse,
  num,
  SUBTITLE,
  SVG_NS,
  swatchBlock,
  textBlock,
  TITLE,
} from "./svg_blocks.ts";

const XLINK_NS = "http://www.w3.org/1999/xlink";
const XMLNS_NS = "http://www.w3.org/2000/xmlns/";
const GAP = 6;

/** Options of {@link toStandaloneSvg}. */
export interface StandaloneOptions {
  /** Blank margin around everything, in px (default 8). */
  padding?: number;
}

/**
 * One standalone SVG string from what `Plot.plot` returns (`<svg>` or `<figure>`): `xmlns` and
 * `xmlns:xlink` on the root, a white background, DejaVu fonts, no `<style>` sheets, element ids
 * renumbered in document order (Plot's clip ids come from a global counter), so the same plot
 * always gives the same bytes. The size is the plot's width + 2 × padding.
 *
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * import { plotDocument } from "./dom.ts";
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
  const height = stackParts(el, parts, body, width);
  const W = width + 2 * pad, H = Math.ceil(height) + 2 * pad;
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

/**
 * Lay the figure's parts out top to bottom into `body` (a gap between blocks); returns the
 * total height. Child `<svg>`s are copied (ramp legends may overflow), headings and captions
 * become text blocks, swatch legends swatch blocks; `<style>` and empty parts are dropped.
 */
function stackParts(el: Element, parts: Element[], body: Element, width: number): number {
  const doc = el.ownerDocument;
  let y = 0;
  const place = ([g, h]: [Element, number]) => {
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
      place([g, num(part.getAttribute("height"), 0)]);
    } else if (tag === "h2" || tag === "h3" || tag === "figcaption") {
      const style = tag === "h2" ? TITLE : tag === "h3" ? SUBTITLE : CAPTION;
      const block = textBlock(doc, collapse(part.textContent), width, style);
      if (block[1]) place(block);
    } else if (part.querySelector(`[class$="-swatch"]`)) {
      place(swatchBlock(doc, part, width));
    } else if (tag !== "style" && collapse(part.textContent)) {
      place(textBlock(doc, collapse(part.textContent), width, CAPTION));
    }
  }
  return y;
}

function isSvg(e: Element): boolean {
  return e.namespaceURI === SVG_NS && e.localName === "svg";
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
