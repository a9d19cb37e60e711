/**
 * The parts a report is made of — sections holding tables and figures — as plain typed data,
 * below every layer that builds them: the report (`report/build.ts`, `report/analyses.ts`)
 * and, through their report hooks, the benchmarks. `report/html/document.ts` assembles them
 * into a page's document; `report/html/render.ts` and `markdown.ts` render them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const section: ReportSection = {
 *   title: "Accuracy",
 *   items: [{ kind: "table", title: "Per task", columns: [{ label: "task" }, { label: "%" }],
 *     rows: [["nycc", 51.25]] }],
 * };
 * assert.deepEqual(section.items.flatMap(itemProblems), []);
 * ```
 * @module
 */

/** A table cell: text, a number (formatted with the column's digits), or missing. */
export type Cell = string | number | null;

/** A column of a {@link ReportTable}. */
export interface ReportColumn {
  /** Header text (unique within the table). */
  label: string;
  /**
   * Decimals for numbers in this column. Default: integers print bare, other numbers with 3
   * decimals (the rule of `lib/render/table.ts`).
   */
  digits?: number;
}

/** A data table, rendered as an HTML `<table>`, a Markdown pipe table and booktabs LaTeX. */
export interface ReportTable {
  /** What the item is. */
  kind: "table";
  /** Stable id (anchors, LaTeX file names); default: from the title. */
  id?: string;
  /** Short title, shown as a heading. */
  title: string;
  /** One or two sentences under the title (what the table shows, how it was computed). */
  caption?: string;
  /** The columns, in order. */
  columns: ReportColumn[];
  /** The rows; each has one cell per column. */
  rows: Cell[][];
  /** A note below the table (sources, footnotes). */
  note?: string;
  /**
   * Shown closed, under its title, in the HTML page (a long table whose figure or summary
   * comes first); Markdown and LaTeX print it as any other.
   */
  collapsed?: boolean;
}

/** A figure: a standalone SVG document as text (e.g. from `toStandaloneSvg`), inlined. */
export interface ReportFigure {
  /** What the item is. */
  kind: "figure";
  /** Stable id; default: from the title. */
  id?: string;
  /** Short title, shown as the figure's caption heading. */
  title: string;
  /**
   * The SVG (`<svg …>…</svg>`; an XML prolog is dropped). No scripts, event handlers or
   * external references (checked by {@link validateReportDocument}).
   */
  svg: string;
  /** Caption text under the figure. */
  caption?: string;
  /** Text alternative for screen readers (default: the title). */
  alt?: string;
}

/** One item of a section. */
export type ReportItem = ReportTable | ReportFigure;

/** A section of the report: a heading, an optional intro paragraph, tables and figures. */
export interface ReportSection {
  /** Stable id (anchor); default: from the title. */
  id?: string;
  /** Heading text. */
  title: string;
  /** A paragraph under the heading. */
  intro?: string;
  /** Tables and figures, in order. */
  items: ReportItem[];
}

/**
 * What {@link itemProblems} rejects in a figure's SVG (a page must run no code and
 * load nothing): scripts, foreign content, event handlers, `javascript:`, and references that
 * are not local (`#id`) or an inline raster image (`data:image/png;base64,…`, which Plot's colour
 * legends use).
 */
const UNSAFE_SVG =
  /<\s*(script|foreignObject|iframe|object|embed|audio|video)\b|\son[a-z]+\s*=|javascript:|(?:href|src)\s*=\s*["'](?!#|data:image\/(?:png|jpeg|gif|webp);base64,)|url\(\s*["']?(?!#)|@import/i;

/**
 * What is wrong with one table or figure (empty: nothing): table rows of the wrong width,
 * duplicate column labels, a figure that is not plain SVG (scripts, event handlers, external
 * references).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(
 *   itemProblems({ kind: "table", title: "T", columns: [{ label: "x" }], rows: [[1, 2]] }),
 *   ['table "T" row 0 has 2 cells, expected 1'],
 * );
 * assert.deepEqual(
 *   itemProblems({ kind: "figure", title: "F", svg: '<svg><script>alert(1)</script></svg>' }),
 *   ['figure "F": unsafe SVG content "<script"'],
 * );
 * ```
 */
export function itemProblems(item: ReportItem): string[] {
  const problems: string[] = [];
  if (item.kind === "table") {
    const labels = new Set<string>();
    for (const c of item.columns) {
      if (labels.has(c.label)) {
        problems.push(`table "${item.title}": duplicate column "${c.label}"`);
      }
      labels.add(c.label);
    }
    item.rows.forEach((r, i) => {
      if (r.length !== item.columns.length) {
        problems.push(
          `table "${item.title}" row ${i} has ${r.length} cells, expected ${item.columns.length}`,
        );
      }
    });
  } else {
    const svg = item.svg.replace(/^\s*<\?xml[^>]*\?>\s*/, "");
    if (!/^<svg[\s>]/.test(svg) || !/<\/svg>\s*$/.test(svg)) {
      problems.push(`figure "${item.title}": not an <svg> element`);
    }
    const bad = UNSAFE_SVG.exec(svg);
    if (bad) problems.push(`figure "${item.title}": unsafe SVG content "${bad[0]}"`);
  }
  return problems;
}
