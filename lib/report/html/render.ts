/**
 * `report.html`: one self-contained page from a {@link ReportDocument}. Inline CSS, inline
 * script, inline SVG figures, the example data embedded as JSON; no request leaves the file —
 * a Content-Security-Policy (`default-src 'none'`, the one script allowed by its sha256) makes
 * the browser refuse any load even if a figure or a response tried one. Deterministic: the same
 * document and options give byte-identical HTML (no clock, no randomness; sampling is seeded).
 *
 * The page: title, table of contents, runs summary, leaderboard, paired comparisons, analyses,
 * the example browser (filters by run, task, subset, verdict, failure class and scorer
 * disagreement; case-insensitive search over question, response, extracted answer and target;
 * a live "N of M rows"; a paged list of expandable rows; keyboard: Tab/Enter/Space, `/` to
 * search, Escape to clear it), provenance. Data reaches the page only as text (`textContent`),
 * never as markup. The script sets the performance mark `report-ready` (and
 * `<html data-ready="true">`) after its first render.
 *
 * @example
 * ```ts
 * import { renderReportHtml } from "@runlens/report/html/render.ts";
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const doc = syntheticReportDocument({ runs: 3, examplesPerRun: 100 });
 * const out = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${out}/report.html`, renderReportHtml(doc));
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import { formatTable, MARKDOWN_NULL } from "../../render/table.ts";
import type {
  ReportFigure,
  ReportItem,
  ReportSection,
  ReportTable,
} from "../../render/document.ts";
import {
  estimateText,
  fixedText,
  intervalDigits,
  intervalText,
} from "../../render/interval_text.ts";
import { formatPValue } from "../../analyses/compare.ts";
import {
  type Headline,
  type PairedComparison,
  type PairedRow,
  type ReportComparisons,
  type ReportDocument,
  type RunSummary,
  validateReportDocument,
} from "./document.ts";
import {
  DEFAULT_BUDGET_CHARS,
  DEFAULT_SAMPLE_SEED,
  type ExamplePayload,
  examplePayload,
  type PayloadBlocks,
  payloadBlocks,
  type PayloadEncoding,
} from "./examples.ts";

/** Options of {@link renderReportHtml}. */
export interface HtmlOptions {
  /** Response characters above which example rows are sampled (default 50,000,000). */
  budgetChars?: number;
  /** Seed of the sampling order (default 1). */
  sampleSeed?: number;
  /** How the texts of the examples are embedded (default `auto`: gzip from 2 MB; see `examples.ts`). */
  encoding?: PayloadEncoding;
}

const PAGE_JS = Deno.readTextFileSync(new URL("./page.js", import.meta.url));
const PAGE_CSS = Deno.readTextFileSync(new URL("./page.css", import.meta.url));
if (/<\/(script|style)|<!--/i.test(PAGE_JS + PAGE_CSS)) {
  throw new Error("page.js/page.css must not contain </script, </style or <!--");
}

/**
 * Escape text for HTML text and double-quoted attribute values.
 *
 * @example
 * ```ts
 * escapeHtml(`<a href="x">&</a>`); // "&lt;a href=&quot;x&quot;&gt;&amp;&lt;/a&gt;"
 * ```
 */
export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) =>
      c === "&"
        ? "&amp;"
        : c === "<"
        ? "&lt;"
        : c === ">"
        ? "&gt;"
        : c === '"'
        ? "&quot;"
        : "&#39;",
  );
}

/**
 * Allocates unique element ids from titles (deterministic: in call order), and carries the
 * runs' short names that every table prints.
 */
class Ids {
  #used = new Set<string>();
  /** Run name → its short label (only runs whose label differs). */
  constructor(readonly runLabels: ReadonlyMap<string, string> = new Map()) {}
  take(want: string): string {
    const base = want.normalize("NFKD").toLowerCase().replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "section";
    let id = base;
    for (let k = 2; this.#used.has(id); k++) id = `${base}-${k}`;
    this.#used.add(id);
    return id;
  }
}

/**
 * The numbers of a thousand as `12,345` (en-US grouping, locale-independent).
 *
 * @example
 * ```ts
 * grouped(90400); // "90,400"
 * ```
 */
export function grouped(n: number): string {
  return String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/** A headline's value with its unit, at the decimals its interval needs. */
function headlineValue(h: Headline): string {
  const d = h.ci_low !== null && h.ci_high !== null ? intervalDigits(h.ci_low, h.ci_high) : 1;
  return `${fixedText(h.value, d)}${h.unit ?? "%"}`;
}

/**
 * Quarantine counts as `reason 3; other 1` (by count, then name).
 *
 * @example
 * ```ts
 * quarantineText({ duplicate: 1, "unknown task": 3 }); // "unknown task 3; duplicate 1"
 * ```
 */
export function quarantineText(q: Record<string, number>): string {
  const e = Object.entries(q).filter(([, n]) => n > 0)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
  return e.length === 0 ? "none" : e.map(([k, n]) => `${k} ${grouped(n)}`).join("; ");
}

/**
 * How the headlines' intervals were made, once per metric: `95% CI of <metric>: <method>.`,
 * and when runs of one metric differ in method, each method with its runs. Null: no interval.
 *
 * @example
 * ```ts
 * const h = (method: string) => ({ metric: "micro", value: 50, ci_low: 45, ci_high: 55, method });
 * intervalMethodsNote([
 *   { run: "a", headline: h("Wilson") },
 *   { run: "b", headline: h("Wilson") },
 * ]); // "95% CI of micro: Wilson."
 * intervalMethodsNote([
 *   { run: "a", headline: h("bootstrap") },
 *   { run: "b", headline: h("bootstrap, widened") },
 * ]); // "95% CI of micro: bootstrap (a); bootstrap, widened (b)."
 * ```
 */
export function intervalMethodsNote(
  runs: readonly Pick<RunSummary, "run" | "headline">[],
): string | null {
  const byMetric = new Map<string, Map<string, string[]>>();
  for (const r of runs) {
    if (!r.headline?.method) continue;
    const methods = byMetric.get(r.headline.metric) ?? new Map<string, string[]>();
    byMetric.set(r.headline.metric, methods);
    methods.set(r.headline.method, [...methods.get(r.headline.method) ?? [], r.run]);
  }
  const parts = [...byMetric].map(([metric, methods]) => {
    const list = methods.size === 1
      ? [...methods.keys()]
      : [...methods].map(([m, rs]) => `${m} (${rs.join(", ")})`);
    return `95% CI of ${metric}: ${list.join("; ")}.`;
  });
  return parts.length > 0 ? parts.join(" ") : null;
}

/**
 * The runs summary as a {@link ReportTable} (used by the HTML and Markdown renderers).
 *
 * @example
 * ```ts
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const doc = syntheticReportDocument({ runs: 3, examplesPerRun: 40, figures: false });
 * runsSummaryTable(doc.runs).rows.length; // 3
 * ```
 */
export function runsSummaryTable(runs: readonly RunSummary[]): ReportTable {
  const note = intervalMethodsNote(runs);
  return {
    kind: "table",
    id: "runs-summary",
    title: "Runs",
    caption: "One row per run and benchmark: the scorer, what the run covers, the headline " +
      "aggregate with its 95% interval, and what happened to every input row (no answer " +
      "found: scored, as wrong, with no answer the scorer could read).",
    columns: [
      { label: "Run" },
      { label: "Model" },
      { label: "Benchmark" },
      { label: "Scorer" },
      { label: "Coverage" },
      { label: "Metric" },
      { label: "Value" },
      { label: "95% CI" },
      { label: "Rows in" },
      { label: "Scored" },
      { label: "No answer found" },
      { label: "Quarantined" },
      { label: "Quarantine by reason" },
    ],
    rows: runs.map((r) => [
      r.run,
      r.model,
      r.benchmark,
      r.scorer,
      r.note ? `${r.coverage} (${r.note})` : r.coverage,
      r.headline?.metric ?? null,
      r.headline ? headlineValue(r.headline) : null,
      r.headline ? intervalText(r.headline.ci_low, r.headline.ci_high) : null,
      r.rows_in,
      r.rows_scored,
      r.no_answer,
      r.rows_quarantined,
      quarantineText(r.quarantine),
    ]),
    ...(note ? { note } : {}),
  };
}

/** The columns of a paired row; `se`: with the standard error. */
function pairColumns(se: boolean): ReportTable["columns"] {
  return [
    { label: "n paired" },
    { label: "Acc. A (%)", digits: 1 },
    { label: "Acc. B (%)", digits: 1 },
    { label: "A − B (pp)", digits: 1 },
    ...(se ? [{ label: "SE (pp)", digits: 2 }] : []),
    { label: "95% CI (pp)" },
    { label: "A only" },
    { label: "B only" },
    { label: "p (McNemar)" },
    { label: "p Holm" },
    { label: "MDD (pp)", digits: 1 },
  ];
}

/** The cells of {@link pairColumns}. */
function pairCells(r: PairedRow, se: boolean): (string | number | null)[] {
  return [
    r.n_paired,
    r.acc_a,
    r.acc_b,
    r.diff,
    ...(se ? [r.se] : []),
    intervalText(r.ci_low, r.ci_high),
    r.a_only,
    r.b_only,
    formatPValue(r.p_value, r.p_value_bound),
    r.p_holm === undefined || r.p_holm === null ? null : formatPValue(r.p_holm),
    r.mdd ?? null,
  ];
}

/**
 * The overall row of every pair as one table.
 *
 * @example
 * ```ts
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const doc = syntheticReportDocument({ runs: 3, examplesPerRun: 40, figures: false });
 * comparisonsOverviewTable(doc.comparisons!.pairs).rows.length; // 3 pairs
 * ```
 */
export function comparisonsOverviewTable(pairs: readonly PairedComparison[]): ReportTable {
  return {
    kind: "table",
    id: "comparisons-overall",
    title: "Paired differences, overall",
    caption: "Each pair on the examples both runs scored (several epochs: mean per example " +
      "first). A only / B only: discordant examples; p: McNemar's exact test on them; p Holm: " +
      "adjusted over every pair's overall test; MDD: the smallest difference detectable with " +
      "80% power at this n; unpaired: examples only one run scored.",
    columns: [
      { label: "A" },
      { label: "B" },
      { label: "Benchmark" },
      ...pairColumns(false),
      { label: "Unpaired A / B" },
    ],
    rows: pairs.map((p) => [
      p.run_a,
      p.run_b,
      p.benchmark,
      ...pairCells(p.overall, false),
      `${grouped(p.unpaired_a)} / ${grouped(p.unpaired_b)}`,
    ]),
  };
}

/**
 * One pair's per-task table (tasks, then the overall row).
 *
 * @example
 * ```ts
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const doc = syntheticReportDocument({ runs: 3, examplesPerRun: 40, figures: false });
 * pairTaskTable(doc.comparisons!.pairs[0]).rows.at(-1)![0]; // "overall"
 * ```
 */
export function pairTaskTable(
  p: PairedComparison,
  label: (run: string) => string = (run) => run,
): ReportTable {
  return {
    kind: "table",
    id: `pair-${p.run_a}-vs-${p.run_b}`,
    title: `${label(p.run_a)} vs ${label(p.run_b)} by task`,
    caption: p.note,
    columns: [{ label: "Task" }, ...pairColumns(true)],
    rows: [...p.tasks, p.overall].map((r) => [r.scope, ...pairCells(r, true)]),
  };
}

/**
 * Table cells as text (the rules of `lib/render/table.ts`) and which columns are numeric
 * (numbers, and text that reads as a number, percentage or interval).
 *
 * @example
 * ```ts
 * formatReportTable({
 *   kind: "table", title: "T", columns: [{ label: "m" }, { label: "acc", digits: 1 }, { label: "ci" }],
 *   rows: [["a", 51.234, "[48.1, 54.3]"]],
 * }); // { columns: ["m", "acc", "ci"], numeric: [false, true, true], rows: [["a", "51.2", "[48.1, 54.3]"]] }
 * ```
 */
export function formatReportTable(
  t: ReportTable,
): { columns: string[]; numeric: boolean[]; rows: (string | null)[][] } {
  const records = t.rows.map((r) => Object.fromEntries(t.columns.map((c, j) => [c.label, r[j]])));
  const digits: Record<string, number> = {};
  for (const c of t.columns) if (c.digits !== undefined) digits[c.label] = c.digits;
  if (records.length === 0) {
    return {
      columns: t.columns.map((c) => c.label),
      numeric: t.columns.map(() => false),
      rows: [],
    };
  }
  const f = formatTable(records, { digits });
  // Columns of pre-formatted numbers ("12.3%", "[1.0, 2.0]", "<0.001") align right too.
  const numberLike = /^[-+−<>≤≥]?[\d.,]+(?:e[-+]?\d+)?%?$|^\[[-\d., ]+\]$/;
  const numeric = f.numeric.map((isNum, j) =>
    isNum ||
    (f.rows.some((r) => r[j] !== null) &&
      f.rows.every((r) => r[j] === null || r[j] === MARKDOWN_NULL || numberLike.test(r[j]!)))
  );
  return { columns: f.columns, numeric, rows: f.rows };
}

/** Columns whose cells are run names: they print the runs' short labels (as LaTeX does). */
const RUN_COLUMNS = new Set(["Run", "run", "A", "B"]);

/** Tables of this many columns or more are set closer (smaller type, less padding). */
const WIDE = 10;

/** A cell holding one unbroken token this long or longer may break anywhere (hashes, paths). */
const LONG_TOKEN = 28;

/** A cell's HTML: a run's short label with its name as a tooltip, else the text. */
function cellHtml(text: string, runColumn: boolean, labels: ReadonlyMap<string, string>): string {
  const label = runColumn ? labels.get(text) : undefined;
  if (label !== undefined) return `<span title="${escapeHtml(text)}">${escapeHtml(label)}</span>`;
  return escapeHtml(text);
}

/** A table's `<table>` element (inside its scroll box). */
function tableElementHtml(
  t: ReportTable,
  id: string,
  labels: ReadonlyMap<string, string>,
  rowClass?: (i: number) => string,
): string {
  const f = formatReportTable(t);
  const runColumn = f.columns.map((c) => RUN_COLUMNS.has(c));
  const cls = (j: number, text?: string) => {
    const c = [
      ...(f.numeric[j] ? ["num"] : []),
      ...(text !== undefined && longestToken(text) >= LONG_TOKEN ? ["long"] : []),
    ];
    return c.length > 0 ? ` class="${c.join(" ")}"` : "";
  };
  const out = [
    `<div class="table-wrap" role="region" aria-labelledby="${id}-cap" tabindex="0">`,
    `<table${f.columns.length >= WIDE ? ` class="wide"` : ""}><caption id="${id}-cap" class="sr">${
      escapeHtml(t.title)
    }</caption>`,
    `<thead><tr>${
      f.columns.map((c, j) => `<th scope="col"${cls(j)}>${headerHtml(c)}</th>`).join("")
    }</tr></thead>`,
    "<tbody>",
  ];
  f.rows.forEach((r, i) => {
    const rc = rowClass?.(i);
    const cells = r.map((c, j) => {
      const text = c ?? MARKDOWN_NULL;
      return `<td${cls(j, text)}>${cellHtml(text, runColumn[j], labels)}</td>`;
    });
    out.push(`<tr${rc ? ` class="${rc}"` : ""}>${cells.join("")}</tr>`);
  });
  out.push("</tbody></table></div>");
  return out.join("\n");
}

/** A column header: it may wrap after an underscore (`mean_response_chars_no_answer`). */
function headerHtml(label: string): string {
  return escapeHtml(label).replaceAll("_", "_<wbr>");
}

/** The longest run of characters without white space in `s`. */
function longestToken(s: string): number {
  return Math.max(0, ...s.split(/\s+/).map((w) => w.length));
}

/**
 * A table with its heading, caption and note; a `collapsed` table waits closed under its
 * title, its rows parsed only when it is first opened (a `<template>`, as the pairs' tables).
 */
function tableHtml(
  t: ReportTable,
  id: string,
  opts: {
    rowClass?: (i: number) => string;
    heading?: boolean;
    labels?: ReadonlyMap<string, string>;
  } = {},
): string {
  const table = tableElementHtml(t, id, opts.labels ?? new Map(), opts.rowClass);
  const out: string[] = [`<div class="report-table" id="${id}">`];
  if (t.collapsed) {
    out.push(
      `<details class="table-more lazy"><summary>${escapeHtml(t.title)} (${
        grouped(t.rows.length)
      } rows)</summary><template>`,
    );
  } else if (opts.heading ?? true) out.push(`<h4>${escapeHtml(t.title)}</h4>`);
  if (t.caption) out.push(`<p class="caption">${escapeHtml(t.caption)}</p>`);
  out.push(table);
  if (t.note) out.push(`<p class="note">${escapeHtml(t.note)}</p>`);
  if (t.collapsed) out.push("</template></details>");
  out.push("</div>");
  return out.join("\n");
}

/**
 * A figure's SVG ready to inline: XML prolog and comments dropped, element ids (and their
 * `url(#…)` / `href="#…"` references) prefixed with `prefix` so figures cannot clash, and an
 * accessible name on the root.
 *
 * @example
 * ```ts
 * inlineSvg('<svg><clipPath id="c1"/><g clip-path="url(#c1)"/></svg>', "f1-", "Chart");
 * // '<svg role="img" aria-label="Chart"><clipPath id="f1-c1"/><g clip-path="url(#f1-c1)"/></svg>'
 * ```
 */
export function inlineSvg(svg: string, prefix: string, label: string): string {
  const s = svg.replace(/^\s*<\?xml[^>]*\?>\s*/, "").replace(/<!--[\s\S]*?-->/g, "").trim()
    .replace(/(\sid\s*=\s*["'])([^"']+)/g, (_, a, id) => a + prefix + id)
    .replace(/url\(\s*(["']?)#/g, (_, q) => `url(${q}#${prefix}`)
    .replace(/(\s(?:xlink:)?href\s*=\s*["'])#/g, (_, a) => `${a}#${prefix}`);
  return s.replace(/^<svg\b/, `<svg role="img" aria-label="${escapeHtml(label)}"`);
}

/** How much a figure may grow past its own width to fill the column (its text with it). */
const FIGURE_ZOOM = 1.25;

function figureHtml(f: ReportFigure, id: string): string {
  const svg = inlineSvg(f.svg, `${id}-`, f.alt ?? f.title);
  const cap = [`<strong>${escapeHtml(f.title)}</strong>`];
  if (f.caption) cap.push(escapeHtml(f.caption));
  // Plot's 10 px type reads small on a page of 16 px: a figure fills the column, up to
  // FIGURE_ZOOM times its own width
  const width = Number(/^<svg\b[^>]*?\swidth="(\d+(?:\.\d+)?)"/.exec(f.svg.trim())?.[1] ?? 0);
  const grow = width > 0 ? ` style="max-width: ${Math.round(width * FIGURE_ZOOM)}px"` : "";
  return [
    `<figure class="fig" id="${id}">`,
    `<div class="fig-box"${grow}>${svg}</div>`,
    `<figcaption>${cap.join(" ")}</figcaption>`,
    "</figure>",
  ].join("\n");
}

function itemHtml(item: ReportItem, ids: Ids): string {
  const id = ids.take(item.id ?? `${item.kind}-${item.title}`);
  return item.kind === "table"
    ? tableHtml(item, id, { labels: ids.runLabels })
    : figureHtml(item, id);
}

interface TocEntry {
  id: string;
  title: string;
  children?: TocEntry[];
}

function sectionHtml(s: ReportSection, id: string, ids: Ids, level: 2 | 3): string {
  const out = [`<section id="${id}" aria-labelledby="${id}-h">`];
  out.push(`<h${level} id="${id}-h">${escapeHtml(s.title)}</h${level}>`);
  if (s.intro) out.push(`<p class="intro">${escapeHtml(s.intro)}</p>`);
  for (const item of s.items) out.push(itemHtml(item, ids));
  out.push("</section>");
  return out.join("\n");
}

function provenanceHtml(doc: ReportDocument): string {
  const p = doc.provenance;
  const dl: [string, string][] = [
    ["runlens commit", `<code>${escapeHtml(p.runlens_commit)}</code>`],
    ["Command", `<code>${escapeHtml(p.command)}</code>`],
    ["Scorers", escapeHtml(p.scorers.join(", ") || MARKDOWN_NULL)],
  ];
  if (p.date !== undefined) dl.push(["Date", escapeHtml(p.date)]);
  if (p.seeds && Object.keys(p.seeds).length > 0) {
    dl.push([
      "Seeds",
      escapeHtml(Object.entries(p.seeds).map(([k, v]) => `${k} ${v}`).join("; ")),
    ]);
  }
  const out = [`<dl class="prov">`];
  for (const [k, v] of dl) out.push(`<dt>${escapeHtml(k)}</dt><dd>${v}</dd>`);
  out.push("</dl>");
  const ids = new Ids();
  const datasets: ReportTable = {
    kind: "table",
    title: "Data sets",
    columns: [{ label: "Data set" }, { label: "Source" }, { label: "Commit" }, { label: "File" }, {
      label: "sha256",
    }],
    rows: p.datasets.flatMap((d) => {
      const files = Object.entries(d.sha256);
      if (files.length === 0) return [[d.name, d.source ?? null, d.commit, null, null]];
      return files.map(([f, h]) => [d.name, d.source ?? null, d.commit, f, h]);
    }),
  };
  out.push(tableHtml(datasets, ids.take("prov-datasets")));
  if (p.inputs && Object.keys(p.inputs).length > 0) {
    out.push(tableHtml(
      {
        kind: "table",
        title: "Input logs",
        columns: [{ label: "File" }, { label: "sha256" }],
        rows: Object.entries(p.inputs),
      },
      ids.take("prov-inputs"),
    ));
  }
  out.push(
    `<p class="note">This page is self-contained: styles, script, figures and data are in the ` +
      `file, and it loads nothing from the network.${
        p.date === undefined ? " It carries no date: the output is deterministic." : ""
      }</p>`,
  );
  return out.join("\n");
}

function sampleNoticeHtml(p: ExamplePayload): string {
  const s = p.sample;
  if (!s) return "";
  const mchars = (c: number) => `${grouped(c)} characters`;
  return `<p class="notice" id="ex-sample-note" role="note"><strong>Sampled:</strong> the ` +
    `responses total ${mchars(s.response_chars_total)}, over this report's budget of ` +
    `${mchars(s.budget_chars)}, so the browser holds ${grouped(s.rows_kept)} of ` +
    `${grouped(s.rows_total)} rows (${grouped(s.examples_kept)} of ${grouped(s.examples_total)} ` +
    `examples, ${mchars(s.response_chars_kept)}): ${escapeHtml(s.method)} (seed ${s.seed}). ` +
    `The tables above count every row.</p>`;
}

const BROWSER_HTML =
  `<div class="ex-modes" id="ex-modes" role="radiogroup" aria-label="View of the examples">
<label><input type="radio" name="ex-mode" value="rows" checked> Every row</label>
<label><input type="radio" name="ex-mode" value="pairs" id="ex-mode-pairs"> Two runs side by side</label>
</div>
<form class="ex-filters" id="ex-filters" role="search" aria-label="Filter the examples" data-mode="rows">
<label class="rows-only">Run<select id="ex-run"><option value="">All runs</option></select></label>
<label class="pairs-only">Run A<select id="ex-run-a"></select></label>
<label class="pairs-only">Run B<select id="ex-run-b"></select></label>
<label class="pairs-only">Pairs<select id="ex-pair"><option value="">All examples both runs answered</option></select></label>
<label>Task<select id="ex-task"><option value="">All tasks</option></select></label>
<label>Subset<select id="ex-subset"><option value="">All subsets</option></select></label>
<label class="rows-only">Verdict<select id="ex-verdict"><option value="">All verdicts</option></select></label>
<label class="rows-only">Failure class<select id="ex-failure"><option value="">All classes</option></select></label>
<label class="rows-only">Scorers<select id="ex-disagree"><option value="">Agree or not</option></select></label>
<label class="epochs-only">Epochs<select id="ex-stability"><option value="">Stable or not</option></select></label>
<label class="search">Search question, response, answer, target (case-insensitive; press / to focus)<input type="search" id="ex-search" autocomplete="off" spellcheck="false" placeholder="text to find"></label>
<button type="submit">Search</button>
<button type="reset">Clear</button>
</form>
<div class="ex-status">
<p class="ex-count" id="ex-count" role="status" aria-live="polite">Loading the examples…</p>
<div class="ex-pager" role="navigation" aria-label="Pages of examples (top)"><button type="button" class="ex-prev">← Previous</button><span class="ex-page"></span><button type="button" class="ex-next">Next →</button>
<label>Rows per page <select id="ex-size"><option>25</option><option selected>50</option><option>100</option><option>200</option></select></label></div>
</div>
<ol class="ex-list" id="ex-list" aria-label="Example rows"></ol>
<div class="ex-status"><div class="ex-pager" role="navigation" aria-label="Pages of examples (bottom)"><button type="button" class="ex-prev">← Previous</button><span class="ex-page"></span><button type="button" class="ex-next">Next →</button></div></div>
<noscript><p class="notice">The example browser needs JavaScript.</p></noscript>`;

function tocHtml(entries: TocEntry[]): string {
  const list = (es: TocEntry[]): string =>
    `<ol>${
      es.map((e) =>
        `<li><a href="#${e.id}">${escapeHtml(e.title)}</a>${
          e.children && e.children.length > 0 ? list(e.children) : ""
        }</li>`
      ).join("")
    }</ol>`;
  return `<nav class="toc" aria-label="Contents"><h2>Contents</h2>${list(entries)}</nav>`;
}

function sha256Base64(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("base64");
}

/** Section ids the page itself uses; reserved before any section or table takes an id. */
const FIXED_IDS = [
  "main",
  "summary",
  "leaderboard",
  "comparisons",
  "analyses",
  "examples",
  "provenance",
] as const;

/** A rendered top-level section: its HTML and its entry in the table of contents. */
interface PageSection {
  toc: TocEntry;
  html: string;
}

/**
 * The legend of the runs' short labels: label, full name and model of every run whose label
 * differs from its name; null when none does.
 *
 * @example
 * ```ts
 * const t = runLabelsTable([
 *   { run: "org__m_2026-01-08T17-20-31.984236", label: "m", model: "org/m" },
 *   { run: "gpt-4o", model: "gpt-4o" },
 * ]);
 * t?.rows; // [["m", "org__m_2026-01-08T17-20-31.984236", "org/m"]]
 * ```
 */
export function runLabelsTable(
  runs: readonly Pick<RunSummary, "run" | "label" | "model">[],
): ReportTable | null {
  const named = new Map<string, Pick<RunSummary, "run" | "label" | "model">>();
  for (const r of runs) if (r.label !== undefined && r.label !== r.run) named.set(r.run, r);
  if (named.size === 0) return null;
  return {
    kind: "table",
    id: "run-names",
    title: "Run names",
    caption: "The page's tables and the figures call the runs by these short names.",
    columns: [{ label: "Short name" }, { label: "Full name" }, { label: "Model" }],
    rows: [...named.values()].map((r) => [r.label!, r.run, r.model]),
  };
}

/** Run name → short label, for the runs whose label differs. */
function runLabelMap(runs: readonly RunSummary[]): Map<string, string> {
  return new Map(runs.flatMap((r) => r.label !== undefined ? [[r.run, r.label]] : []));
}

/** A cell of two lines: the value, and a smaller line under it (omitted when empty). */
function twoLines(main: string, sub: string | null, title?: string): string {
  const t = title !== undefined ? ` title="${escapeHtml(title)}"` : "";
  return `<span class="main"${t}>${escapeHtml(main)}</span>` +
    (sub ? `<span class="sub">${escapeHtml(sub)}</span>` : "");
}

/**
 * The runs table of the page: the columns of {@link runsSummaryTable} folded into eight, each
 * cell a value with its context under it (run and model, benchmark and scorer, headline and
 * metric, quarantined rows and their reasons), so that it fits the page; the interval
 * methods in a note.
 */
function runsTableHtml(runs: readonly RunSummary[], id: string): string {
  const th = (label: string, num = false) =>
    `<th scope="col"${num ? ` class="num"` : ""}>${escapeHtml(label)}</th>`;
  const head = [
    th("Run"),
    th("Benchmark"),
    th("Headline (95% CI)", true),
    th("Coverage"),
    th("Rows in", true),
    th("Scored", true),
    th("No answer found", true),
    th("Quarantined", true),
  ];
  const body = runs.map((r) => {
    const h = r.headline;
    const cells = [
      twoLines(r.label ?? r.run, r.model !== (r.label ?? r.run) ? r.model : null, r.run),
      twoLines(r.benchmark, r.scorer),
      h
        ? twoLines(estimateText(h.value, h.ci_low, h.ci_high, h.unit ?? "%"), h.metric)
        : twoLines(MARKDOWN_NULL, "no headline for this coverage"),
      twoLines(r.coverage, r.note ?? null),
      grouped(r.rows_in),
      grouped(r.rows_scored),
      grouped(r.no_answer),
      twoLines(
        grouped(r.rows_quarantined),
        r.rows_quarantined > 0 ? quarantineText(r.quarantine) : null,
      ),
    ];
    const num = [false, false, true, false, true, true, true, true];
    return `<tr>${
      cells.map((c, j) => `<td${num[j] ? ` class="num"` : ""}>${c}</td>`).join("")
    }</tr>`;
  });
  const t = runsSummaryTable(runs);
  return [
    `<div class="report-table runs" id="${id}">`,
    `<p class="caption">${escapeHtml(t.caption!)}</p>`,
    `<div class="table-wrap" role="region" aria-labelledby="${id}-cap" tabindex="0">`,
    `<table><caption id="${id}-cap" class="sr">Runs</caption>`,
    `<thead><tr>${head.join("")}</tr></thead>`,
    `<tbody>${body.join("\n")}</tbody></table></div>`,
    ...(t.note ? [`<p class="note">${escapeHtml(t.note)}</p>`] : []),
    "</div>",
  ].join("\n");
}

function runsSectionHtml(doc: ReportDocument, ids: Ids): PageSection {
  const legend = runLabelsTable(doc.runs);
  const html = [
    `<section id="summary" aria-labelledby="summary-h"><h2 id="summary-h">Runs</h2>`,
    doc.runs.length > 0
      ? runsTableHtml(doc.runs, ids.take("runs-summary"))
      : `<p class="muted">No runs.</p>`,
    ...(legend ? [tableHtml(legend, ids.take("run-names"))] : []),
    ...adviceHtml(doc.advice ?? []),
    "</section>",
  ].join("\n");
  return { toc: { id: "summary", title: "Runs" }, html };
}

/** The advice under the runs table: a warning list, each line naming its remedy. */
function adviceHtml(advice: readonly string[]): string[] {
  if (advice.length === 0) return [];
  return [
    `<div class="advice" role="note"><p><strong>Check these numbers:</strong></p><ul>`,
    ...advice.map((a) => `<li>${escapeHtml(a)}</li>`),
    "</ul></div>",
  ];
}

/** One pair's per-task table, collapsed (its rows are parsed only when opened). */
function pairDetailsHtml(p: PairedComparison, ids: Ids): string {
  const t = pairTaskTable(p, (run) => ids.runLabels.get(run) ?? run);
  const id = ids.take(t.id!);
  return [
    `<details class="pair lazy"><summary>${
      escapeHtml(t.title)
    } (${p.tasks.length} tasks)</summary><template>`,
    tableHtml(t, id, {
      rowClass: (i) => (i === p.tasks.length ? "overall" : ""),
      heading: false,
      labels: ids.runLabels,
    }),
    "</template></details>",
  ].join("\n");
}

function comparisonsSectionHtml(c: ReportComparisons, ids: Ids): PageSection {
  const out = [
    `<section id="comparisons" aria-labelledby="comparisons-h"><h2 id="comparisons-h">Paired comparisons</h2>`,
  ];
  if (c.intro) out.push(`<p class="intro">${escapeHtml(c.intro)}</p>`);
  if (c.pairs.length === 0) out.push(`<p class="muted">No pair of runs to compare.</p>`);
  else {
    out.push(tableHtml(comparisonsOverviewTable(c.pairs), ids.take("comparisons-overall"), {
      labels: ids.runLabels,
    }));
    for (const f of c.figures ?? []) out.push(itemHtml(f, ids));
    for (const p of c.pairs) out.push(pairDetailsHtml(p, ids));
  }
  out.push("</section>");
  return { toc: { id: "comparisons", title: "Paired comparisons" }, html: out.join("\n") };
}

function analysesSectionHtml(analyses: readonly ReportSection[], ids: Ids): PageSection {
  const children: TocEntry[] = [];
  const out = [
    `<section id="analyses" aria-labelledby="analyses-h"><h2 id="analyses-h">Analyses</h2>`,
  ];
  for (const s of analyses) {
    const id = ids.take(s.id ?? s.title);
    children.push({ id, title: s.title });
    out.push(sectionHtml(s, id, ids, 3));
  }
  out.push("</section>");
  return { toc: { id: "analyses", title: "Analyses", children }, html: out.join("\n") };
}

function examplesSectionHtml(payload: ExamplePayload): PageSection {
  const html = [
    `<section id="examples" aria-labelledby="examples-h"><h2 id="examples-h">Example browser</h2>`,
    `<p class="intro">Every scored row: filter, search, and open a row to read the question, the ` +
    `full response, the extracted answer beside the target. A wrong row is a wrong answer, or ` +
    `no answer found (the scorer found none to read). Two runs side by side: both responses to ` +
    `each example, filtered to the examples where one run is right and the other wrong. With ` +
    `several epochs, an example whose verdict flips between epochs is marked.</p>`,
    sampleNoticeHtml(payload),
    BROWSER_HTML,
    "</section>",
  ].join("\n");
  return { toc: { id: "examples", title: "Example browser" }, html };
}

function provenanceSectionHtml(doc: ReportDocument): PageSection {
  const html = [
    `<section id="provenance" aria-labelledby="provenance-h"><h2 id="provenance-h">Provenance</h2>`,
    provenanceHtml(doc),
    "</section>",
  ].join("\n");
  return { toc: { id: "provenance", title: "Provenance" }, html };
}

/** The page's Content-Security-Policy: only its own script (by hash), inline styles, data images. */
function pageCsp(): string {
  return [
    "default-src 'none'",
    `script-src 'sha256-${sha256Base64(PAGE_JS)}'`,
    "style-src 'unsafe-inline'",
    "img-src data:",
    "base-uri 'none'",
    "form-action 'none'",
  ].join("; ");
}

/** The page around the sections: head, header, contents, the example payload and the script. */
function pageHtml(doc: ReportDocument, sections: PageSection[], blocks: PayloadBlocks): string {
  const subtitle = doc.subtitle ? `<p>${escapeHtml(doc.subtitle)}</p>` : "";
  const stamp = `runlens ${doc.provenance.runlens_commit}${
    doc.provenance.date !== undefined ? ` · ${doc.provenance.date}` : ""
  }`;
  return [
    "<!DOCTYPE html>",
    `<html lang="en">`,
    "<head>",
    `<meta charset="utf-8">`,
    `<meta name="viewport" content="width=device-width, initial-scale=1">`,
    `<meta http-equiv="Content-Security-Policy" content="${pageCsp()}">`,
    `<meta name="referrer" content="no-referrer">`,
    `<meta name="generator" content="runlens">`,
    `<title>${escapeHtml(doc.title)}</title>`,
    `<style>${PAGE_CSS}.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}</style>`,
    "</head>",
    "<body>",
    `<a class="skip" href="#main">Skip to the content</a>`,
    `<header class="page"><h1>${escapeHtml(doc.title)}</h1>${subtitle}<p>${
      escapeHtml(stamp)
    }</p></header>`,
    `<div class="layout">`,
    tocHtml(sections.map((s) => s.toc)),
    `<main id="main">`,
    ...sections.map((s) => s.html),
    "</main>",
    "</div>",
    `<script type="application/json" id="report-index">${blocks.index}</script>`,
    `<script type="application/json" id="report-texts" data-encoding="${blocks.encoding}">${blocks.texts}</script>`,
    `<script>${PAGE_JS}</script>`,
    "</body>",
    "</html>",
    "",
  ].join("\n");
}

/**
 * Render the report as one self-contained HTML page (see the module doc). Validates the
 * document first ({@link validateReportDocument}).
 *
 * @example
 * ```ts
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const doc = syntheticReportDocument({ runs: 2, examplesPerRun: 40, figures: false });
 * const html = renderReportHtml(doc, { budgetChars: 50_000_000 });
 * console.assert(html.startsWith("<!DOCTYPE html>"));
 * ```
 */
export function renderReportHtml(doc: ReportDocument, opts: HtmlOptions = {}): string {
  validateReportDocument(doc);
  const ids = new Ids(runLabelMap(doc.runs));
  for (const fixedId of FIXED_IDS) ids.take(fixedId);
  // Sections take their ids in page order, so the order of these calls fixes every id.
  const sections: PageSection[] = [runsSectionHtml(doc, ids)];
  if (doc.leaderboard) {
    sections.push({
      toc: { id: "leaderboard", title: doc.leaderboard.title },
      html: sectionHtml(doc.leaderboard, "leaderboard", ids, 2),
    });
  }
  if (doc.comparisons) sections.push(comparisonsSectionHtml(doc.comparisons, ids));
  if (doc.analyses.length > 0) sections.push(analysesSectionHtml(doc.analyses, ids));
  const payload = examplePayload(doc.examples, {
    runLabels: ids.runLabels,
    budgetChars: opts.budgetChars ?? DEFAULT_BUDGET_CHARS,
    seed: opts.sampleSeed ?? DEFAULT_SAMPLE_SEED,
  });
  sections.push(examplesSectionHtml(payload), provenanceSectionHtml(doc));
  return pageHtml(doc, sections, payloadBlocks(payload, opts.encoding ?? "auto"));
}
