/**
 * A formatted table as LaTeX a paper can `\input`: booktabs rules, ASCII-only text
 * (`text.ts`), laid out to fit a plain article's `\textwidth` (`layout.ts`) — a `table` float,
 * or a `longtable` when it is taller than a page. The first lines say which packages it needs
 * (`booktabs`; `array` for wrapping columns; `longtable`).
 *
 * @example
 * ```ts
 * import { renderLatexTable } from "@runlens/render/latex/render.ts";
 * const grid = { columns: ["task", "acc"], numeric: [false, true], rows: [["nycc", "51.2"]] };
 * renderLatexTable(grid, { caption: "Accuracy", label: "tab:acc" }).startsWith("% Packages: booktabs\n"); // true
 * ```
 * @module
 */
import { linesTex, lineTex, measuredText, proseTex, SLACK, wrappedTex } from "./cells.ts";
import type { LatexGrid } from "./grid.ts";
import { latexLabel } from "./label.ts";
import { type LaidColumn, type Layout, type LayoutOptions, layoutTable } from "./layout.ts";
import { ARTICLE_TEXTWIDTH } from "./metrics.ts";

/** Options of {@link renderLatexTable}. */
export interface LatexTableOptions extends LayoutOptions {
  /** `\caption` text. */
  caption?: string;
  /** `\label` key (cut to 40 characters). */
  label?: string;
  /** A note under the table; legends and folded columns are added to it. */
  note?: string;
}

/** A number as text: `12.5`, `-3`, `45%`, `<0.001`, `< 1e-300`, or an interval `[1.0, 2.5]`. */
const NUMBER_LIKE =
  /^(?:[<>\u2264\u2265]\s?)?[-+\u2212]?\d[\d.,]*(?:e[-+\u2212]?\d+)?%?$|^\[\s*[-\u2212]?[\d.]+,\s*[-\u2212]?[\d.]+\s*\]$/i;

/** Text columns of numbers (pre-formatted p-values, intervals) count as numbers: right-aligned. */
function withNumberLikeColumns(g: LatexGrid): LatexGrid {
  const numeric = g.numeric.map((n, j) => {
    const cells = g.rows.map((r) => r[j]).filter((c) => c !== null);
    return n || (cells.length > 0 && cells.every((c) => NUMBER_LIKE.test(c!)));
  });
  return { ...g, numeric };
}

const pt = (w: number) => `${w.toFixed(2)}pt`;

function columnSpec(c: LaidColumn): string {
  if (c.wrapped) return `>{\\raggedright\\arraybackslash}p{${pt(c.width)}}`;
  return c.numeric ? "r" : "l";
}

function headerTex(c: LaidColumn): string {
  if (c.header.natural <= c.width + SLACK) return lineTex(c.header);
  const lines = linesTex(c.header, c.width);
  if (lines.length === 1) return lines[0];
  const stack = lines.map(afterRowEnd).join("\\\\");
  return `\\begin{tabular}[b]{@{}${c.numeric ? "r" : "l"}@{}}${stack}\\end{tabular}`;
}

/**
 * A row's first cell made safe after `\\` and booktabs' rules, which read a `[` or `*` that
 * follows them as their own optional argument.
 */
function afterRowEnd(tex: string): string {
  return /^[[*]/.test(tex) ? `{}${tex}` : tex;
}

/** Cells as a row: `a & b \\`. */
function rowTex(cells: string[]): string {
  return `${cells.map((c, j) => (j === 0 ? afterRowEnd(c) : c)).join(" & ")} \\\\`;
}

function cellTex(c: LaidColumn, i: number): string {
  const m = c.cells[i];
  if (m === null) return "--";
  return c.wrapped ? wrappedTex(m, c.width) : lineTex(m);
}

/** Header row and body rows of one panel. */
function panelRows(cols: LaidColumn[], rows: number): { head: string; body: string[] } {
  const head = rowTex(cols.map(headerTex));
  const body = [...Array(rows).keys()].map((i) => rowTex(cols.map((c) => cellTex(c, i))));
  return { head, body };
}

function spec(cols: LaidColumn[]): string {
  return `@{}${cols.map(columnSpec).join("")}@{}`;
}

function floatTex(l: Layout, caption: string[], note: string[]): string[] {
  const out = ["\\begin{table}[htbp]", "\\centering", ...caption, ...sizeTex(l)];
  for (const [k, cols] of l.panels.entries()) {
    const { head, body } = panelRows(cols, l.rows);
    if (k > 0) out.push("\\par\\medskip");
    out.push(
      `\\begin{tabular}{${spec(cols)}}`,
      "\\toprule",
      head,
      "\\midrule",
      ...body,
      "\\bottomrule",
      "\\end{tabular}",
    );
  }
  return [...out, ...note, "\\end{table}"];
}

function longTex(l: Layout, caption: string[], note: string[]): string[] {
  const out = ["\\begingroup", ...sizeTex(l)];
  for (const [k, cols] of l.panels.entries()) {
    const { head, body } = panelRows(cols, l.rows);
    const continued = caption.length > 0 ? "\\tablename~\\thetable{} (continued)" : "(continued)";
    const more = `\\multicolumn{${cols.length}}{@{}l}{${continued}} \\\\`;
    // A longtable steps the table counter even without a caption: only the first one counts.
    if (k > 0 || caption.length === 0) out.push("\\addtocounter{table}{-1}");
    out.push(
      `\\begin{longtable}{${spec(cols)}}`,
      ...(k === 0 && caption.length ? [`${caption.join("")}\\\\`] : k > 0 ? [more] : []),
      "\\toprule",
      head,
      "\\midrule",
      "\\endfirsthead",
      more,
      "\\toprule",
      head,
      "\\midrule",
      "\\endhead",
      "\\bottomrule",
      "\\endfoot",
      ...body,
      "\\end{longtable}",
    );
  }
  return [...out, ...note, "\\endgroup"];
}

function sizeTex(l: Layout): string[] {
  const out: string[] = [];
  if (l.size !== "normalsize") out.push(`\\${l.size}`);
  if (l.tabcolsep !== 6) out.push(`\\setlength{\\tabcolsep}{${l.tabcolsep}pt}`);
  return out;
}

/**
 * The table as LaTeX (see the module doc). Ends with `"\n"`.
 *
 * @example
 * ```ts
 * const grid = { columns: ["run", "acc"], numeric: [false, true], rows: [["a_b", "-1.5"]] };
 * renderLatexTable(grid).includes("a\\_b & $-$1.5 \\\\"); // true
 * ```
 */
export function renderLatexTable(g: LatexGrid, opts: LatexTableOptions = {}): string {
  const width = opts.textWidth ?? ARTICLE_TEXTWIDTH;
  // A table without columns is still a table: one empty column.
  const grid = g.columns.length
    ? g
    : { columns: [""], numeric: [false], rows: g.rows.map(() => [null]) };
  const l = layoutTable(withNumberLikeColumns(grid), opts);
  // A longtable takes its label with its caption; a float takes one anyway.
  const caption: string[] = [];
  if (opts.caption) {
    caption.push(`\\caption{${proseTex(measuredText(opts.caption, "normalsize"), width)}}`);
  }
  if (opts.label && (opts.caption || !l.longtable)) {
    caption.push(`\\label{${latexLabel(opts.label)}}`);
  }
  const noteText = [opts.note, ...l.notes].filter((s) => s).join(" ");
  const note = noteText
    ? [
      `\\par\\smallskip{\\footnotesize\\raggedright ${
        proseTex(measuredText(noteText, "footnotesize"), width)
      }\\par}`,
    ]
    : [];
  const packages = ["booktabs"];
  if (l.panels.some((p) => p.some((c) => c.wrapped))) packages.push("array");
  if (l.longtable) packages.push("longtable");
  const body = l.longtable ? longTex(l, caption, note) : floatTex(l, caption, note);
  return [
    `% Packages: ${packages.join(", ")}`,
    `% (in the preamble: \\usepackage{${packages.join(",")}})`,
    ...body,
    "",
  ].join("\n");
}
