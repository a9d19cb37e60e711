/**
 * Fonts of figure output: the DejaVu TTF files resvg loads, the same files parsed with fontkit
 * (advance widths, so wrapping and legend spacing match what resvg draws; shaped runs and ink
 * bounds for the label-collision check, `labels.ts`), and the mapping of CSS font-family lists
 * to DejaVu families.
 *
 * @module
 */
import { join } from "node:path";
import * as fontkit from "fontkit";
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

/** The part of a fontkit font runlens uses (fontkit ships no type declarations). */
export interface Font {
  unitsPerEm: number;
  /** The hhea ascent and descent (descent negative), in font units. */
  ascent: number;
  descent: number;
  /** The OS/2 x-height, in font units (0 when the table has none). */
  xHeight: number;
  glyphForCodePoint(cp: number): { advanceWidth: number };
  layout(text: string, features?: string[] | Record<string, boolean>): GlyphRun;
}

/** A shaped run of glyphs (fontkit's `GlyphRun`), in font units. */
export interface GlyphRun {
  /** The pen advance of the whole run (kerning and ligatures applied). */
  advanceWidth: number;
  /** The ink bounds of the run's outlines (y up); infinite for a run without ink. */
  bbox: { minX: number; minY: number; maxX: number; maxY: number };
}

const fontCache = new Map<string, Font>();

/**
 * The fontkit font of a DejaVu face (loaded once): family {@link FONT_SANS}, {@link FONT_MONO}
 * or {@link FONT_SERIF} (anything else is Sans), bold and/or oblique when the face exists —
 * the faces resvg draws figures with ({@link fontFiles}).
 *
 * @example
 * ```ts
 * const font = dejavuFont(FONT_SANS, true);
 * font.layout("Accuracy").advanceWidth / font.unitsPerEm > 4; // true: in em
 * ```
 */
export function dejavuFont(family: string, bold = false, oblique = false): Font {
  const base = family === FONT_MONO
    ? "DejaVuSansMono"
    : family === FONT_SERIF
    ? "DejaVuSerif"
    : "DejaVuSans";
  const styles = [`${bold ? "Bold" : ""}${oblique ? "Oblique" : ""}`, bold ? "Bold" : "", ""];
  const files = fontFiles();
  const path =
    styles.map((st) => files.find((f) => f.endsWith(`/${base}${st ? `-${st}` : ""}.ttf`)))
      .find((f) => f !== undefined) ?? files[0];
  let font = fontCache.get(path);
  if (!font) fontCache.set(path, font = fontkit.create(Deno.readFileSync(path)) as Font);
  return font;
}

/**
 * Width in px of `text` set in DejaVu Sans: the sum of the glyphs' advance widths, no kerning
 * (a little wider than resvg's shaped text, so text wrapped by it never overflows).
 *
 * @example
 * ```ts
 * Math.round(textWidth("Accuracy", 10)); // 46
 * textWidth("Accuracy", 10, true) > textWidth("Accuracy", 10); // true: bold is wider
 * ```
 */
export function textWidth(text: string, size: number, bold = false): number {
  const font = dejavuFont(FONT_SANS, bold);
  let units = 0;
  for (const ch of text) units += font.glyphForCodePoint(ch.codePointAt(0)!).advanceWidth;
  return (units / font.unitsPerEm) * size;
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
