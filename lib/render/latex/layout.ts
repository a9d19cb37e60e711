/**
 * Fit a table to `\textwidth`: choose the font size, the column widths, which columns wrap,
 * and, when nothing else fits, rewrite the table (`grid.ts`) or stack it in panels. Tried in
 * this order, the first that fits wins:
 *
 * 1. as it is, headers wrapped at spaces and `_` (at most three lines), at `\normalsize`,
 *    then `\small`;
 * 2. `\small`, columns with one value on every row folded into the note;
 * 3. the same with text columns wrapped (`p{}` columns; names wrap to two lines at most);
 * 4. run and model names as codes with a legend, at `\small`, then `\footnotesize`;
 * 5. a short table of numbers transposed (tasks as rows), headers as they are, then as codes
 *    (first, with the `transpose` option);
 * 6. panels: the columns split into groups stacked one under the other, each with the key
 *    columns (the leading text columns that identify a row).
 *
 * A table taller than a page becomes a `longtable`. Everything is computed from the text, so
 * the same table always gets the same layout.
 *
 * @example
 * ```ts
 * import { layoutTable } from "@runlens/render/latex/layout.ts";
 * const grid = { columns: ["task", "accuracy"], numeric: [false, true], rows: [["nycc", "51.2"]] };
 * layoutTable(grid).size; // "normalsize"
 * ```
 * @module
 */
import {
  lineCount,
  type MeasuredText,
  measuredText,
  narrowestWidth,
  SLACK,
  wrapLines,
} from "./cells.ts";
import {
  DEFAULT_SHORT_NAMES,
  foldColumns,
  type LatexGrid,
  nameColumnHeaders,
  type Rewritten,
  shortenNames,
  type ShortNames,
  transposed,
} from "./grid.ts";
import { ARTICLE_TEXTWIDTH, type LatexSize } from "./metrics.ts";

/** Options of {@link layoutTable}. */
export interface LayoutOptions {
  /** Name columns that may become codes (default: `run`/`Run` → R1…, `model`/`Model` → M1…). */
  shortNames?: ShortNames[];
  /** The width to fit (pt; default: a plain article's 345 pt). */
  textWidth?: number;
  /**
   * Prefer the table transposed when it is a table of numbers with more number columns than
   * rows (e.g. runs × tasks set as tasks × runs, the BBEH paper's Table 2 shape).
   */
  transpose?: boolean;
  /** Caption and note (their height decides between a float and a longtable). */
  caption?: string;
  note?: string;
}

/** A column as laid out. */
export interface LaidColumn {
  header: MeasuredText;
  numeric: boolean;
  cells: (MeasuredText | null)[];
  /** Width of the column's text (pt), without the space between columns. */
  width: number;
  /** Whether its cells wrap (a `p{width}` column); otherwise `l` or `r`. */
  wrapped: boolean;
}

/** A table as laid out: one panel, or several stacked. */
export interface Layout {
  size: LatexSize;
  /** `\tabcolsep` (pt). */
  tabcolsep: number;
  panels: LaidColumn[][];
  /** Number of body rows. */
  rows: number;
  /** Taller than a page: a `longtable`. */
  longtable: boolean;
  /** Sentences for the note: folded columns and legends. */
  notes: string[];
}

/** `\tabcolsep` by size: the default 6 pt, tighter in smaller type. */
const TABCOLSEP: Record<LatexSize, number> = { normalsize: 6, small: 4, footnotesize: 3 };

/** Baselines (pt) of a plain 10 pt article. */
const BASELINE: Record<LatexSize, number> = { normalsize: 12, small: 11, footnotesize: 9.5 };

/** Height of a page's text (pt) a float may fill (of a plain article's 550 pt). */
const FLOAT_HEIGHT = 500;

/** Lines a header may wrap to. */
const HEADER_LINES = 3;

/** A wrapped text column is never narrower than this (pt), nor than its widest word up to… */
const MIN_WRAP = 40;
/** …this width (pt): longer words (hashes, paths) are cut. */
const MAX_WORD = 100;

/** The null marker (an en dash). */
const NULL_TEXT = "\u2013";

/** The narrowest a wrapped column may be, given its widest word (longer words are cut). */
function wordLimit(widest: number): number {
  return Math.max(MIN_WRAP, Math.min(widest, MAX_WORD));
}

/** Measures of one column at one size. */
interface ColumnMeasure {
  header: MeasuredText;
  numeric: boolean;
  cells: (MeasuredText | null)[];
  /** Narrowest width with the header wrapped and data on one line; widest useful width. */
  lo: number;
  hi: number;
  /** Narrowest width with the data wrapped too. */
  floor: number;
}

type Measure = (text: string, size: LatexSize) => MeasuredText;

function memoMeasure(): Measure {
  const cache = new Map<string, MeasuredText>();
  return (text, size) => {
    const k = `${size}\u0000${text}`;
    let m = cache.get(k);
    if (!m) cache.set(k, m = measuredText(text, size));
    return m;
  };
}

function measureColumns(
  g: LatexGrid,
  size: LatexSize,
  names: Set<string>,
  measure: Measure,
): ColumnMeasure[] {
  return g.columns.map((c, j) => {
    const header = measure(c, size);
    const cells = g.rows.map((r) => (r[j] === null ? null : measure(r[j]!, size)));
    const shown = cells.map((m) => m ?? measure(NULL_TEXT, size));
    const data = Math.max(0, ...shown.map((m) => m.natural));
    const headerLo = narrowestWidth(header, HEADER_LINES);
    // With the data wrapped, a header may take more lines too, down to its widest word.
    const headerFloor = Math.min(headerLo, wordLimit(header.widest));
    const lo = Math.max(data, headerLo);
    const hi = Math.max(data, header.natural);
    if (g.numeric[j]) {
      return { header, numeric: true, cells, lo, hi, floor: Math.max(data, headerFloor) };
    }
    const widest = Math.max(0, ...shown.map((m) => m.widest));
    let floor = Math.min(data, wordLimit(widest));
    if (names.has(c)) {
      floor = Math.max(floor, ...[...new Set(shown)].map((m) => narrowestWidth(m, 2)));
    }
    return {
      header,
      numeric: false,
      cells,
      lo,
      hi,
      floor: Math.max(Math.min(floor, data), headerFloor),
    };
  });
}

/** Widths clamp(L, lo, hi) for the largest level L whose sum stays within `total`. */
function fill(lo: number[], hi: number[], total: number): number[] {
  const at = (level: number) => lo.map((l, j) => Math.min(hi[j], Math.max(l, level)));
  const sum = (ws: number[]) => ws.reduce((a, b) => a + b, 0);
  let a = 0, b = Math.max(0, ...hi);
  if (sum(at(b)) <= total) return at(b);
  for (let k = 0; k < 60; k++) {
    const mid = (a + b) / 2;
    if (sum(at(mid)) <= total) a = mid;
    else b = mid;
  }
  return at(a).map((w) => Math.floor(w * 100) / 100);
}

/** Column widths that fit `avail` pt, or null; `wrap`: text columns may wrap their data. */
function fitWidths(cols: ColumnMeasure[], avail: number, wrap: boolean): number[] | null {
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  const lo = cols.map((c) => c.lo);
  if (sum(lo) <= avail) return fill(lo, cols.map((c) => c.hi), avail);
  if (!wrap) return null;
  const floor = cols.map((c) => c.floor);
  if (sum(floor) > avail) return null;
  return fill(floor, lo, avail);
}

/** The panel's columns laid out at `widths`. */
function laid(cols: ColumnMeasure[], widths: number[]): LaidColumn[] {
  return cols.map((c, j) => {
    const data = Math.max(0, ...c.cells.map((m) => m?.natural ?? 0));
    return {
      header: c.header,
      numeric: c.numeric,
      cells: c.cells,
      width: widths[j],
      wrapped: !c.numeric && data > widths[j] + SLACK,
    };
  });
}

/** Try one rewritten grid at one size; the laid-out columns or null. */
function attempt(
  r: Rewritten,
  size: LatexSize,
  wrap: boolean,
  width: number,
  measure: Measure,
): LaidColumn[] | null {
  const cols = measureColumns(r.grid, size, r.names, measure);
  const avail = width - 2 * TABCOLSEP[size] * (cols.length - 1);
  const widths = fitWidths(cols, avail, wrap);
  return widths ? laid(cols, widths) : null;
}

/** Indices of the key columns: leading text columns, as few as identify every row (≤ 3). */
function keyColumns(g: LatexGrid): number[] {
  const text = g.numeric.findIndex((n) => n);
  const lead = Math.min(text < 0 ? g.columns.length : text, 3);
  if (lead === 0) return [0];
  for (let k = 1; k <= lead; k++) {
    const seen = new Set(g.rows.map((r) => JSON.stringify(r.slice(0, k))));
    if (seen.size === g.rows.length) return [...Array(k).keys()];
  }
  return [...Array(lead).keys()];
}

/** The grid's columns `cols` only. */
function pick(r: Rewritten, cols: number[]): Rewritten {
  const g = r.grid;
  return {
    ...r,
    grid: {
      columns: cols.map((j) => g.columns[j]),
      numeric: cols.map((j) => g.numeric[j]),
      rows: g.rows.map((row) => cols.map((j) => row[j])),
    },
  };
}

/** Greedy groups of `items` in order, each accepted by `fits`; null if one item alone is not. */
function greedyGroups(items: number[], fits: (group: number[]) => boolean): number[][] | null {
  const groups: number[][] = [];
  for (const j of items) {
    const last = groups.at(-1);
    if (last && fits([...last, j])) last.push(j);
    else if (fits([j])) groups.push([j]);
    else return null;
  }
  return groups;
}

/** `items` in `k` groups of nearly equal size, in order. */
function evenGroups(items: number[], k: number): number[][] {
  return [...Array(k).keys()].map((i) =>
    items.slice(Math.round((i * items.length) / k), Math.round(((i + 1) * items.length) / k))
  );
}

/**
 * The columns in panels, each with the key columns: as few panels as greedy packing needs,
 * the columns shared evenly among them when that fits too. Null if the key and one column do
 * not fit.
 */
function panels(
  r: Rewritten,
  size: LatexSize,
  wrap: boolean,
  width: number,
  measure: Measure,
): LaidColumn[][] | null {
  // The key columns, or the first alone when they leave no room.
  for (const key of [keyColumns(r.grid), [0]]) {
    const rest = r.grid.columns.map((_, j) => j).filter((j) => !key.includes(j));
    const fit = (group: number[]) =>
      attempt(pick(r, [...key, ...group]), size, wrap, width, measure);
    const greedy = greedyGroups(rest, (group) => fit(group) !== null);
    if (greedy === null) continue;
    const even = evenGroups(rest, greedy.length).map(fit);
    if (even.every((p) => p !== null)) return even as LaidColumn[][];
    return greedy.map((group) => fit(group)!);
  }
  return null;
}

/** Lines of a panel: the header's, then each row's. */
function panelLines(cols: LaidColumn[], rows: number): number {
  const header = Math.max(
    1,
    ...cols.map((c) => (c.header.natural > c.width ? wrapLines(c.header, c.width).length : 1)),
  );
  let body = 0;
  for (let i = 0; i < rows; i++) {
    body += Math.max(
      1,
      ...cols.map((c) => (c.wrapped && c.cells[i] ? lineCount(c.cells[i]!, c.width) : 1)),
    );
  }
  return header + body;
}

/** Estimated height (pt) of the table as a float. */
function floatHeight(l: Omit<Layout, "longtable">, opts: LayoutOptions, width: number): number {
  const lines = l.panels.reduce((s, p) => s + panelLines(p, l.rows), 0);
  const text = (s: string | undefined, size: LatexSize) =>
    s ? lineCount(measuredText(s, size), width) : 0;
  const notes = text([opts.note, ...l.notes].filter(Boolean).join(" "), "footnotesize");
  return lines * BASELINE[l.size] + 14 * l.panels.length + 12 * text(opts.caption, "normalsize") +
    20 + 9.5 * notes;
}

/**
 * Lay out a table (see the module doc).
 *
 * @example
 * ```ts
 * const wide = {
 *   columns: ["model", ...Array.from({ length: 30 }, (_, i) => `task_${i}`)],
 *   numeric: [false, ...Array(30).fill(true)],
 *   rows: ["a", "b"].map((m, i) => [m, ...Array.from({ length: 30 }, (_, j) => `${i * j}.5`)]),
 * };
 * layoutTable(wide).panels[0][0].header.pieces.length; // 0: transposed, an empty corner
 * ```
 */
export function layoutTable(g: LatexGrid, opts: LayoutOptions = {}): Layout {
  const width = opts.textWidth ?? ARTICLE_TEXTWIDTH;
  const specs = opts.shortNames ?? DEFAULT_SHORT_NAMES;
  const measure = memoMeasure();
  const plain: Rewritten = { grid: g, notes: [], names: new Set() };
  const f = foldColumns(g);
  const folded: Rewritten = { ...f, names: nameColumnHeaders(f.grid, specs) };
  const coded = shortenNames(folded.grid, specs);
  coded.notes = [...folded.notes, ...coded.notes];
  // Transposed, number columns become rows: none is folded away (a task row stays a row).
  const textFolded = foldColumns(g, "text");
  const turned = (short: boolean): Rewritten | null => {
    const t = transposed(textFolded.grid, specs, short);
    return t && { ...t, notes: [...textFolded.notes, ...t.notes] };
  };
  // Tiers of candidates, in order. Within a tier the first that fits with little wrapping (at
  // most a quarter more lines than rows) wins, else the one that fits in the fewest lines.
  type Try = [Rewritten | null, LatexSize, boolean];
  const asIs: Try[][] = [
    [[plain, "normalsize", false]],
    [[plain, "small", false]],
    [[folded, "small", false]],
    [
      [folded, "small", true],
      [coded, "small", true],
      [coded, "footnotesize", false],
      [coded, "footnotesize", true],
    ],
  ];
  // Names as headers while they wrap little, else codes.
  const turnedTries: Try[][] = [[
    [turned(false), "normalsize", true],
    [turned(false), "small", true],
    [turned(true), "normalsize", true],
    [turned(true), "small", true],
    [turned(true), "footnotesize", true],
  ]];
  const tiers = opts.transpose ? [...turnedTries, ...asIs] : [...asIs, ...turnedTries];
  const done = (r: Rewritten, size: LatexSize, ps: LaidColumn[][]): Layout => {
    const l = {
      size,
      tabcolsep: TABCOLSEP[size],
      panels: ps,
      rows: r.grid.rows.length,
      notes: r.notes,
    };
    return { ...l, longtable: floatHeight(l, opts, width) > FLOAT_HEIGHT };
  };
  for (const tier of tiers) {
    let best: [Rewritten, LatexSize, LaidColumn[], number] | null = null;
    for (const [r, size, wrap] of tier) {
      const cols = r && attempt(r, size, wrap, width, measure);
      if (!r || !cols) continue;
      const lines = panelLines(cols, r.grid.rows.length);
      if (lines <= 1.25 * r.grid.rows.length + 3) return done(r, size, [cols]);
      if (best === null || lines < best[3]) best = [r, size, cols, lines];
    }
    if (best) return done(best[0], best[1], [best[2]]);
  }
  // Panels: the fewest; then the larger type, data unwrapped, as preferred (transposed or not).
  const shapes = opts.transpose ? [turned(true), coded] : [coded, turned(true)];
  let best: [Rewritten, LatexSize, LaidColumn[][]] | null = null;
  for (const size of ["small", "footnotesize"] as const) {
    for (const wrap of [false, true]) {
      for (const r of shapes) {
        const ps = r && panels(r, size, wrap, width, measure);
        if (r && ps && (best === null || ps.length < best[2].length)) best = [r, size, ps];
      }
    }
  }
  if (best) return done(...best);
  // Not even the key and one column fit: set it as narrow as it goes (the compile test fails).
  const cols = measureColumns(coded.grid, "footnotesize", new Set(), measure);
  return done(coded, "footnotesize", [laid(cols, cols.map((c) => c.floor))]);
}
