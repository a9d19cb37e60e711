/**
 * Fonts of figure output: the DejaVu TTF files resvg loads, advance widths measured from those
 * files (so wrapping and legend spacing match what resvg draws), and the mapping of CSS
 * font-family lists to DejaVu families.
 *
 * @module
 */
import { join } from "node:path";
import { REPO_ROOT } from "../../core/data_dir.ts";

/** The concrete font families output SVGs use (all shipped by `dejavu-fonts-ttf`). */
export const FONT_SANS = "DejaVu Sans";
/** The monospace family output SVGs use. */
export const FONT_MONO = "DejaVu Sans Mono";
/** The serif family output SVGs use. */
export const FONT_SERIF = "DejaVu Serif";

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
 * fontFiles()[0].endsWith("/DejaVuSans.ttf"); // true (node_modules/dejavu-fonts-ttf/ttf/…)
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
 * Math.round(textWidth("Accuracy", 10)); // 46
 * textWidth("Accuracy", 10, true) > textWidth("Accuracy", 10); // true: bold is wider
 * ```
 */
export function textWidth(text: string, size: number, bold = false): number {
  return metrics(bold).measure(text, size);
}

/**
 * The DejaVu family standing in for a CSS font-family list.
 *
 * @example
 * ```ts
 * mapFontFamily("system-ui, sans-serif"); // "DejaVu Sans"
 * mapFontFamily("Georgia, serif"); // "DejaVu Serif"
 * mapFontFamily("ui-monospace, monospace"); // "DejaVu Sans Mono"
 * ```
 */
export function mapFontFamily(list: string): string {
  const l = list.toLowerCase();
  if (/mono|courier|consolas|menlo|code/.test(l)) return FONT_MONO;
  if (/(^|[\s,"'])serif\b|georgia|times/.test(l) && !/sans-serif/.test(l.split(",")[0])) {
    return FONT_SERIF;
  }
  return FONT_SANS;
}
