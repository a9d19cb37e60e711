/**
 * Deterministic result tables: one polars DataFrame (or an array of row objects) written as
 * CSV (RFC 4180), a GitHub Markdown pipe table and a LaTeX booktabs table, with numbers at fixed
 * digits (`toFixed`, never locale-dependent) so reruns give the same bytes.
 *
 * Number columns: integer columns (polars integer dtypes, or rows whose values are all
 * integers) print without decimals, other number columns with `digits` (default 3); a
 * `digits` record sets columns by name (`{ acc: 1, n: 0 }`). Nulls are empty in CSV, `–` in
 * Markdown and HTML, `--` in LaTeX.
 *
 * The CSV and Markdown writers stay hand-written (issue 25, item 5), measured on the 34
 * committed `results/*.csv|md` tables: markdown-table 3.1.0 writes an alignment cell at least
 * 2 wide (`-:`) where these are at least 3 (`--:`), so 6 of the 34 Markdown tables would
 * change, and the escaping of `|`, `\` and line breaks would stay ours anyway; csv-stringify
 * 6.9.0 writes all 34 CSV files byte-identically, but it would replace one RFC 4180 regex
 * (`csvField`) with a dependency whose quoting of a lone CR follows its `record_delimiter`
 * option: not simpler.
 *
 * @example
 * ```ts
 * import { writeTable } from "@runlens/render/table.ts";
 * const rows = [{ model: "a_1", acc: 0.51234, n: 200 }, { model: "b", acc: null, n: 10 }];
 * const dir = Deno.makeTempDirSync(); // a notebook passes ctx.resultsDir
 * writeTable(rows, dir, "accuracy", { caption: "Accuracy", label: "tab:acc", digits: 2 });
 * // <dir>/accuracy.csv, <dir>/accuracy.md, <dir>/accuracy.tex
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import { join } from "node:path";
import type { DataFrame } from "nodejs-polars";
import type { ShortNames } from "./latex/grid.ts";
import { renderLatexTable } from "./latex/render.ts";
export { latexEscape } from "./latex/text.ts";

/** A table: a polars DataFrame or row objects (columns in first-seen key order). */
export type TableInput = DataFrame | Record<string, unknown>[];

/** How a table is captioned and its numbers formatted. */
export interface TableOptions {
  /** Caption: above the Markdown table, `\caption` in LaTeX, `<caption>` in HTML. */
  caption?: string;
  /** Decimals for non-integer number columns (default 3), or per column by name. */
  digits?: number | Record<string, number>;
  /** LaTeX `\label` (e.g. `tab:accuracy`; cut to 40 characters; {@link writeTable}: `tab:<name>`). */
  label?: string;
  /** A note printed below the table (Markdown, LaTeX, HTML; not CSV). */
  note?: string;
  /**
   * LaTeX only: columns of names that may become codes with a legend when the table is too
   * wide (default: `run` → R1, R2, …; `model` → M1, M2, …).
   */
  shortNames?: ShortNames[];
  /**
   * LaTeX only: set the table transposed when it can be (its leading text columns as headers,
   * its number columns as rows): runs × tasks printed as tasks × runs.
   */
  transpose?: boolean;
}

/** A table with every cell already formatted as text (`null` for a missing value). */
export interface FormattedTable {
  /** Column names, in output order. */
  columns: string[];
  /** Whether each column holds numbers (right-aligned). */
  numeric: boolean[];
  /** Formatted cells, row by row. */
  rows: (string | null)[][];
}

/** Default decimals of non-integer number columns. */
export const DEFAULT_DIGITS = 3;

/**
 * Whether `x` is a polars DataFrame. Not `instanceof pl.DataFrame`: nodejs-polars builds frames
 * with a factory, so that test is always false.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * assert.equal(isDataFrame(pl.DataFrame({ a: [1] })), true);
 * assert.equal(pl.DataFrame({ a: [1] }) instanceof pl.DataFrame, false); // why this exists
 * assert.equal(isDataFrame([{ a: 1 }]), false);
 * ```
 */
export function isDataFrame(x: unknown): x is DataFrame {
  return typeof x === "object" && x !== null && !Array.isArray(x) &&
    typeof (x as DataFrame).toRecords === "function";
}

/**
 * Format every cell of a table (the common step of all writers).
 *
 * @example
 * ```ts
 * formatTable([{ a: 1, b: 0.5 }], { digits: 2 }).rows; // [["1", "0.50"]]
 * ```
 */
export function formatTable(input: TableInput, opts: TableOptions = {}): FormattedTable {
  let columns: string[];
  let records: Record<string, unknown>[];
  let intDtype: (c: string) => boolean | undefined = () => undefined;
  let numDtype: (c: string) => boolean | undefined = () => undefined;
  if (isDataFrame(input)) {
    columns = [...input.columns];
    records = input.toRecords() as Record<string, unknown>[];
    const dtype = (c: string) => String(input.getColumn(c).dtype);
    intDtype = (c) => /^DataType\(U?Int\d+\)$/.test(dtype(c));
    numDtype = (c) => input.getColumn(c).isNumeric();
  } else {
    const seen = new Set<string>();
    for (const r of input) for (const k of Object.keys(r)) seen.add(k);
    columns = [...seen];
    records = input;
  }
  const numeric: boolean[] = [];
  const cols = columns.map((c) => {
    const values = records.map((r) => r[c]);
    const present = values.filter((v) => v !== null && v !== undefined);
    const isNum = numDtype(c) ??
      (present.length > 0 && present.every((v) => typeof v === "number" || typeof v === "bigint"));
    const isInt = intDtype(c) ??
      present.every((v) => typeof v === "bigint" || Number.isInteger(v));
    numeric.push(isNum);
    const d = typeof opts.digits === "object"
      ? opts.digits[c] ?? (isInt ? 0 : DEFAULT_DIGITS)
      : isInt
      ? 0
      : opts.digits ?? DEFAULT_DIGITS;
    return values.map((v) => formatValue(v, d));
  });
  const rows = records.map((_, i) => cols.map((col) => col[i]));
  return { columns, numeric, rows };
}

/** One value as text: numbers with `toFixed(digits)` (no `-0.00`), dates as ISO strings. */
function formatValue(v: unknown, digits: number): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === "number") {
    if (!Number.isFinite(v)) return Number.isNaN(v) ? "NaN" : v > 0 ? "Infinity" : "-Infinity";
    const s = v.toFixed(digits);
    return /^-[0.]+$/.test(s) ? s.slice(1) : s;
  }
  if (typeof v === "bigint") return digits > 0 ? formatValue(Number(v), digits) : String(v);
  if (v instanceof Date) return v.toISOString();
  if (typeof v === "object") return JSON.stringify(v);
  return String(v);
}

// ---------------------------------------------------------------------------------------------
// CSV

function csvField(s: string | null): string {
  if (s === null) return "";
  return /[",\r\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

/**
 * The table as CSV: RFC 4180 quoting, `"\n"` line endings (also after the last row), nulls empty.
 *
 * @example
 * ```ts
 * csvTable([{ a: 'x,"y"', b: null }]); // 'a,b\n"x,""y""",\n'
 * ```
 */
export function csvTable(input: TableInput, opts: TableOptions = {}): string {
  return renderCsv(formatTable(input, opts));
}

function renderCsv(t: FormattedTable): string {
  return [t.columns.map(csvField), ...t.rows.map((r) => r.map(csvField))]
    .map((r) => r.join(",") + "\n").join("");
}

// ---------------------------------------------------------------------------------------------
// Markdown

/** Text shown for a missing value in Markdown and HTML. */
export const MARKDOWN_NULL = "–";

function mdCell(s: string | null): string {
  if (s === null) return MARKDOWN_NULL;
  return s.replaceAll("\\", "\\\\").replaceAll("|", "\\|").replace(/\r?\n|\r/g, "<br>");
}

function len(s: string): number {
  return [...s].length;
}

/**
 * The table as a GitHub pipe table (columns padded; numbers right-aligned, text left-aligned),
 * the caption as a paragraph above and the note below. Ends with `"\n"`.
 *
 * @example
 * ```ts
 * markdownTable([{ m: "a", acc: 0.5 }], { digits: 1 });
 * // "| m   | acc |\n| :-- | --: |\n| a   | 0.5 |\n"
 * ```
 */
export function markdownTable(input: TableInput, opts: TableOptions = {}): string {
  return renderMarkdown(formatTable(input, opts), opts);
}

function renderMarkdown(t: FormattedTable, opts: TableOptions): string {
  const head = t.columns.map(mdCell);
  const body = t.rows.map((r) => r.map(mdCell));
  const widths = head.map((h, j) => Math.max(3, len(h), ...body.map((r) => len(r[j]))));
  const pad = (s: string, j: number) => {
    const fill = " ".repeat(widths[j] - len(s));
    return t.numeric[j] ? fill + s : s + fill;
  };
  const line = (cells: string[]) => `| ${cells.map(pad).join(" | ")} |`;
  const rule = `| ${
    widths.map((w, j) => t.numeric[j] ? "-".repeat(w - 1) + ":" : ":" + "-".repeat(w - 1))
      .join(" | ")
  } |`;
  const parts: string[] = [];
  if (opts.caption) parts.push(opts.caption, "");
  parts.push(line(head), rule, ...body.map(line));
  if (opts.note) parts.push("", opts.note);
  return parts.join("\n") + "\n";
}

// ---------------------------------------------------------------------------------------------
// LaTeX

/**
 * The table as LaTeX a paper can `\input` (`latex/render.ts`): booktabs, ASCII-only, fitted to
 * a plain article's `\textwidth` (wrapped headers and columns, smaller type, folded constant
 * columns, run names as codes with a legend, transposed or stacked panels — the least that
 * fits), a `longtable` when taller than a page; the packages it needs in a comment on top.
 *
 * @example
 * ```ts
 * latexTable([{ m: "a", acc: 0.5 }], { caption: "Acc", label: "tab:acc", digits: 1 });
 * ```
 */
export function latexTable(input: TableInput, opts: TableOptions = {}): string {
  return renderLatex(formatTable(input, opts), opts);
}

function renderLatex(t: FormattedTable, opts: TableOptions): string {
  return renderLatexTable(t, {
    caption: opts.caption,
    label: opts.label,
    note: opts.note,
    shortNames: opts.shortNames,
    transpose: opts.transpose,
  });
}

// ---------------------------------------------------------------------------------------------
// HTML, files, notebook display

function htmlEscape(s: string): string {
  return s.replace(
    /[&<>"]/g,
    (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!,
  );
}

/**
 * The table as an HTML `<table>` (numbers right-aligned), for notebook display.
 *
 * @example
 * ```ts
 * htmlTable([{ a: 1 }]).startsWith("<table>"); // true
 * ```
 */
export function htmlTable(input: TableInput, opts: TableOptions = {}): string {
  return renderHtml(formatTable(input, opts), opts);
}

function renderHtml(t: FormattedTable, opts: TableOptions): string {
  const align = (j: number) => (t.numeric[j] ? ` style="text-align: right"` : "");
  const cell = (tag: string, s: string | null, j: number) =>
    `<${tag}${align(j)}>${htmlEscape(s ?? MARKDOWN_NULL)}</${tag}>`;
  const out = ["<table>"];
  if (opts.caption) out.push(`<caption>${htmlEscape(opts.caption)}</caption>`);
  out.push(`<thead><tr>${t.columns.map((c, j) => cell("th", c, j)).join("")}</tr></thead>`);
  out.push("<tbody>");
  for (const r of t.rows) out.push(`<tr>${r.map((c, j) => cell("td", c, j)).join("")}</tr>`);
  out.push("</tbody>", "</table>");
  if (opts.note) out.push(`<p><small>${htmlEscape(opts.note)}</small></p>`);
  return out.join("\n") + "\n";
}

/** Paths written by {@link writeTable}. */
export interface TablePaths {
  /** `<dir>/<name>.csv` */
  csv: string;
  /** `<dir>/<name>.md` */
  md: string;
  /** `<dir>/<name>.tex` */
  tex: string;
}

/**
 * Write `<dir>/<name>.csv`, `.md` and `.tex` (creating `dir`); returns the three paths.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ task: ["dyck_languages", "zebra_puzzles"], accuracy: [12.5, 30] });
 * const dir = Deno.makeTempDirSync();
 * const paths = writeTable(df, dir, "accuracy", { caption: "Accuracy by task", label: "tab:acc" });
 * Deno.readTextFileSync(paths.csv);
 * // "task,accuracy\ndyck_languages,12.500\nzebra_puzzles,30.000\n" (default: 3 digits)
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function writeTable(
  input: TableInput,
  dir: string,
  name: string,
  opts: TableOptions = {},
): TablePaths {
  Deno.mkdirSync(dir, { recursive: true });
  const paths = {
    csv: join(dir, `${name}.csv`),
    md: join(dir, `${name}.md`),
    tex: join(dir, `${name}.tex`),
  };
  const t = formatTable(input, opts);
  Deno.writeTextFileSync(paths.csv, renderCsv(t));
  Deno.writeTextFileSync(paths.md, renderMarkdown(t, opts));
  Deno.writeTextFileSync(paths.tex, renderLatex(t, { label: `tab:${name}`, ...opts }));
  return paths;
}

/** The key of the Deno Jupyter display protocol (`Symbol.for("Jupyter.display")`). */
export const JUPYTER_DISPLAY: unique symbol = Symbol.for("Jupyter.display") as never;

/** Something a Deno Jupyter cell displays as a formatted table. */
export interface TableBundle {
  /** The Markdown table ({@link markdownTable}). */
  markdown: string;
  /** The HTML table ({@link htmlTable}). */
  html: string;
  /** The MIME bundle a Deno Jupyter cell shows. */
  [JUPYTER_DISPLAY](): Record<string, string>;
}

/**
 * Wrap a table so a notebook cell shows it formatted (`text/html`, `text/markdown`, and the
 * Markdown as `text/plain`).
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ model: ["a", "b"], accuracy: [51.234, 48.5] });
 * const bundle = tableBundle(df, { digits: 2 }); // as a cell's last expression: the table
 * bundle.html.startsWith("<table>"); // true
 * ```
 */
export function tableBundle(input: TableInput, opts: TableOptions = {}): TableBundle {
  const t = formatTable(input, opts);
  const markdown = renderMarkdown(t, opts), html = renderHtml(t, opts);
  return {
    markdown,
    html,
    [JUPYTER_DISPLAY]: () => ({
      "text/html": html,
      "text/markdown": markdown,
      "text/plain": markdown,
    }),
  };
}
