/**
 * Cell text measured for layout: a text cut into **pieces** — the units a line may break
 * between: at spaces, and after `_`, `-` and `/` inside a word (run names such as
 * `meta-llama__Llama-3.1-8B` have no spaces). A piece wider than its column is cut between
 * glyphs. Widths come from `metrics.ts`; line breaking is greedy, as TeX's ragged-right
 * setting of a narrow column is close to it.
 *
 * @example
 * ```ts
 * import { measuredText, lineCount } from "@runlens/render/latex/cells.ts";
 * const t = measuredText("tracking_shuffled_objects", "normalsize");
 * lineCount(t, 60) > 1; // true: it breaks after the underscores
 * ```
 * @module
 */
import { atomsWidth, atomWidth, type LatexSize } from "./metrics.ts";
import { type Atom, latexAtoms } from "./text.ts";

/** A unit of text no line breaks inside (unless it is wider than the column). */
export interface Piece {
  atoms: Atom[];
  /** Natural width (pt). */
  width: number;
  /** Width of the space before it (0: joined to the previous piece, or the first piece). */
  gap: number;
}

/** A text measured at one size. */
export interface MeasuredText {
  size: LatexSize;
  pieces: Piece[];
  /** Width set on one line (pt). */
  natural: number;
  /** Width of the widest piece (pt). */
  widest: number;
}

/** Widths are compared with this tolerance (pt): layout rounds widths down to 0.01 pt. */
export const SLACK = 0.02;

/** Atoms a line may break after, inside a word. */
const BREAK_AFTER = new Set(["\\_", "-", "/"]);

/**
 * Measure a text at a size: its pieces, natural width and widest piece.
 *
 * @example
 * ```ts
 * measuredText("a b_c", "normalsize").pieces.length; // 3: "a", "b_", "c"
 * ```
 */
export function measuredText(text: string, size: LatexSize): MeasuredText {
  const pieces: Piece[] = [];
  const words = splitAtoms(latexAtoms(text), (a) => a.key === " ");
  for (const [w, word] of words.entries()) {
    const parts = splitAfter(word, (a) => BREAK_AFTER.has(a.key));
    for (const [p, atoms] of parts.entries()) {
      const prev = pieces.at(-1)?.atoms.at(-1)?.key ?? "";
      const gap = w > 0 && p === 0
        ? atomsWidth([{ tex: prev, key: prev }, SPACE], size) -
          atomWidth(prev, size)
        : 0;
      pieces.push({ atoms, width: atomsWidth(atoms, size), gap });
    }
  }
  const natural = pieces.reduce((s, p) => s + p.gap + p.width, 0);
  const widest = pieces.reduce((m, p) => Math.max(m, p.width), 0);
  return { size, pieces, natural, widest };
}

const SPACE: Atom = { tex: " ", key: " " };

function splitAtoms(atoms: Atom[], isSep: (a: Atom) => boolean): Atom[][] {
  const out: Atom[][] = [[]];
  for (const a of atoms) isSep(a) ? out.push([]) : out.at(-1)!.push(a);
  return out.filter((w) => w.length > 0);
}

function splitAfter(atoms: Atom[], breaksAfter: (a: Atom) => boolean): Atom[][] {
  const out: Atom[][] = [[]];
  for (const [i, a] of atoms.entries()) {
    out.at(-1)!.push(a);
    if (breaksAfter(a) && i < atoms.length - 1) out.push([]);
  }
  return out;
}

/** Pieces no wider than `width`: wider pieces cut between glyphs. */
function fitted(t: MeasuredText, width: number): Piece[] {
  const out: Piece[] = [];
  for (const p of t.pieces) {
    if (p.width <= width + SLACK) {
      out.push(p);
      continue;
    }
    let chunk: Atom[] = [];
    let w = 0;
    let gap = p.gap;
    for (const a of p.atoms) {
      const aw = atomWidth(a.key, t.size);
      if (chunk.length > 0 && w + aw > width + SLACK) {
        out.push({ atoms: chunk, width: w, gap });
        chunk = [];
        w = 0;
        gap = 0;
      }
      chunk.push(a);
      w += aw;
    }
    out.push({ atoms: chunk, width: w, gap });
  }
  return out;
}

/**
 * The lines of a text set greedily in `width` pt (each a list of pieces).
 *
 * @example
 * ```ts
 * wrapLines(measuredText("aa bb cc", "normalsize"), 25).length; // 2
 * ```
 */
export function wrapLines(t: MeasuredText, width: number): Piece[][] {
  const lines: Piece[][] = [];
  let line: Piece[] = [];
  let used = 0;
  for (const p of fitted(t, width)) {
    if (line.length > 0 && used + p.gap + p.width > width + SLACK) {
      lines.push(line);
      line = [];
      used = 0;
    }
    used += (line.length > 0 ? p.gap : 0) + p.width;
    line.push(p);
  }
  if (line.length > 0 || lines.length === 0) lines.push(line);
  return lines;
}

/**
 * How many lines the text takes in `width` pt.
 *
 * @example
 * ```ts
 * lineCount(measuredText("one", "normalsize"), 100); // 1
 * ```
 */
export function lineCount(t: MeasuredText, width: number): number {
  return wrapLines(t, width).length;
}

/**
 * The narrowest width (pt) at which the text takes at most `maxLines` lines (never below its
 * widest piece).
 *
 * @example
 * ```ts
 * const t = measuredText("mean_response_chars", "normalsize");
 * narrowestWidth(t, 1) === t.natural; // true
 * ```
 */
export function narrowestWidth(t: MeasuredText, maxLines: number): number {
  let lo = t.widest, hi = Math.max(t.natural, t.widest);
  if (lineCount(t, lo) <= maxLines) return lo;
  for (let k = 0; k < 30 && hi - lo > 0.5; k++) {
    const mid = (lo + hi) / 2;
    if (lineCount(t, mid) <= maxLines) hi = mid;
    else lo = mid;
  }
  return hi;
}

function piecesTex(pieces: Piece[], breakable: boolean): string {
  return pieces.map((p, i) => {
    const tex = p.atoms.map((a) => a.tex).join("");
    if (i === 0) return tex;
    return (p.gap > 0 ? " " : breakable ? "\\allowbreak{}" : "") + tex;
  }).join("");
}

/**
 * The text as LaTeX for a paragraph column `width` pt wide: a break allowed after `_`, `-`,
 * `/` and inside pieces wider than the column (`\allowbreak`), so no line overflows.
 *
 * @example
 * ```ts
 * wrappedTex(measuredText("a_b", "normalsize"), 100); // "a\\_\\allowbreak{}b"
 * ```
 */
export function wrappedTex(t: MeasuredText, width: number): string {
  return piecesTex(fitted(t, width), true);
}

/**
 * Prose (a caption, a note) as LaTeX for lines `width` pt wide: breaks are TeX's own at spaces,
 * and `\allowbreak` only inside a word too long to sit well on a line (over a third of it),
 * after `_`, `-`, `/` and at least every third of a line.
 *
 * @example
 * ```ts
 * proseTex(measuredText("see run_a", "normalsize"), 300); // "see run\\_a"
 * ```
 */
export function proseTex(t: MeasuredText, width: number): string {
  const words: Piece[][] = [];
  for (const p of t.pieces) {
    p.gap > 0 || words.length === 0 ? words.push([p]) : words.at(-1)!.push(p);
  }
  // A third of the line: the narrowest place prose goes (a list of tables' entries) still fits.
  const long = width / 3;
  return words.map((word) => {
    const pieces = word.map((p) => ({ ...p, gap: 0 }));
    const w = pieces.reduce((s, p) => s + p.width, 0);
    return w > long ? wrappedTex({ ...t, pieces }, long) : piecesTex(pieces, false);
  }).join(" ");
}

/**
 * The text as LaTeX on one line.
 *
 * @example
 * ```ts
 * lineTex(measuredText("a_b c", "normalsize")); // "a\\_b c"
 * ```
 */
export function lineTex(t: MeasuredText): string {
  return piecesTex(t.pieces, false);
}

/**
 * The text as LaTeX lines broken greedily at `width` pt (for headers, set as a stack of lines).
 *
 * @example
 * ```ts
 * linesTex(measuredText("mean_response", "normalsize"), 40); // ["mean\\_", "response"]
 * ```
 */
export function linesTex(t: MeasuredText, width: number): string[] {
  return wrapLines(t, width).map((line) => piecesTex(line, false));
}
