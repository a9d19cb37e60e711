/**
 * `report.md` and the LaTeX tables from a {@link ReportDocument}: the same tables as
 * `report.html` (runs summary, leaderboard, paired comparisons, analyses, provenance), written
 * with `lib/render/table.ts` (GitHub pipe tables; booktabs LaTeX), figures as image links when
 * the caller says where they are, and a per-run count of the scored rows in place of the
 * example browser. Deterministic, like the page.
 *
 * Text from the document (run names, task names, answers) is untrusted: `&`, `<` and `>` are
 * written as HTML entities so no Markdown renderer takes them for markup.
 *
 * @example
 * ```ts
 * import { renderReportMarkdown, reportLatexTables } from "@runlens/report/html/markdown.ts";
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const doc = syntheticReportDocument({ runs: 2, examplesPerRun: 40, figures: false });
 * const out = Deno.makeTempDirSync();
 * const md = renderReportMarkdown(doc, { figureLink: (_f, id) => `figures/${id}.svg` });
 * Deno.writeTextFileSync(`${out}/report.md`, md);
 * for (const t of reportLatexTables(doc)) Deno.writeTextFileSync(`${out}/${t.name}.tex`, t.tex);
 * ```
 * @module
 */
import type { ShortNames } from "../../render/latex/grid.ts";
import { MAX_LABEL, shortId } from "../../render/latex/label.ts";
import { latexTable, markdownTable } from "../../render/table.ts";
import type { Cell, ReportFigure, ReportSection, ReportTable } from "../../render/document.ts";
import type { Provenance, ReportComparisons, ReportDocument, RunSummary } from "./document.ts";
import { validateReportDocument } from "./document.ts";
import {
  comparisonsOverviewTable,
  grouped,
  pairTaskTable,
  runLabelsTable,
  runsSummaryTable,
} from "./render.ts";

/** Options of {@link renderReportMarkdown}. */
export interface MarkdownOptions {
  /** Where a figure's file is, relative to report.md (no link when absent or null). */
  figureLink?: (figure: ReportFigure, id: string) => string | null;
}

/**
 * Escape text for Markdown prose: HTML-significant characters as entities, line breaks as
 * spaces, and a leading `#`, `>`, `-`, `+`, `*` or `1.` so it cannot start a block.
 *
 * @example
 * ```ts
 * markdownText("<b>run</b> & co"); // "&lt;b&gt;run&lt;/b&gt; &amp; co"
 * ```
 */
export function markdownText(s: string): string {
  return s.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;"))
    .replace(/\s*(\r?\n|\r)\s*/g, " ")
    .replace(/^(\s*)([#>+*-]|\d+\.)/, "$1\\$2");
}

function records(t: ReportTable): Record<string, unknown>[] {
  const cell = (
    c: Cell,
  ) => (typeof c === "string"
    ? c.replace(/[&<>]/g, (x) => (x === "&" ? "&amp;" : x === "<" ? "&lt;" : "&gt;"))
    : c);
  return t.rows.map((r) => Object.fromEntries(t.columns.map((c, j) => [c.label, cell(r[j])])));
}

function digits(t: ReportTable): Record<string, number> {
  const d: Record<string, number> = {};
  for (const c of t.columns) if (c.digits !== undefined) d[c.label] = c.digits;
  return d;
}

function mdTable(t: ReportTable, heading: string | null): string {
  const out: string[] = [];
  if (heading) out.push(`${heading} ${markdownText(t.title)}`, "");
  if (t.caption) out.push(markdownText(t.caption), "");
  if (t.rows.length === 0) out.push("(no rows)");
  else out.push(markdownTable(records(t), { digits: digits(t) }).trimEnd());
  if (t.note) out.push("", markdownText(t.note));
  return out.join("\n");
}

/** Unique ids (anchors, file names) from titles: lower-case slugs, at most `max` characters. */
class Ids {
  #used = new Set<string>();
  constructor(readonly max = Infinity) {}
  take(want: string): string {
    const base = want.normalize("NFKD").toLowerCase().replace(/[^a-z0-9_-]+/g, "-")
      .replace(/^-+|-+$/g, "") || "table";
    let id = shortId(base, this.max);
    for (let k = 2; this.#used.has(id); k++) id = shortId(`${base}-${k}`, this.max);
    this.#used.add(id);
    return id;
  }
}

function mdSection(s: ReportSection, level: string, ids: Ids, opts: MarkdownOptions): string {
  const out = [`${level} ${markdownText(s.title)}`, ""];
  if (s.intro) out.push(markdownText(s.intro), "");
  for (const item of s.items) {
    const id = ids.take(item.id ?? `${item.kind}-${item.title}`);
    if (item.kind === "table") out.push(mdTable(item, `${level}#`), "");
    else {
      const link = opts.figureLink?.(item, id) ?? null;
      const cap = item.caption ? ` ${markdownText(item.caption)}` : "";
      out.push(
        link === null
          ? `*Figure: ${markdownText(item.title)}* (in report.html).${cap}`
          : `![${markdownText(item.alt ?? item.title)}](${
            link.replace(/[()\s]/g, encodeURIComponent)
          })\n\n*${markdownText(item.title)}.*${cap}`,
        "",
      );
    }
  }
  return out.join("\n");
}

/**
 * Scored rows per run (all rows of the document, not a sample).
 *
 * @example
 * ```ts
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const doc = syntheticReportDocument({ runs: 3, examplesPerRun: 40, figures: false });
 * rowsByRunTable(doc).rows[0]; // ["synthetic-model-01", 40, 1, correct, wrong, …]
 * ```
 */
export function rowsByRunTable(doc: ReportDocument): ReportTable {
  const by = new Map<
    string,
    { n: number; ok: number; failure: number; disagree: number; epochs: Set<number> }
  >();
  for (const r of doc.examples.rows) {
    let s = by.get(r.run);
    if (!s) by.set(r.run, s = { n: 0, ok: 0, failure: 0, disagree: 0, epochs: new Set() });
    s.n++;
    if (r.verdict === "correct") s.ok++;
    if (r.failure !== null) s.failure++;
    if (r.disagreement === true) s.disagree++;
    s.epochs.add(r.epoch);
  }
  return {
    kind: "table",
    id: "rows-by-run",
    title: "Scored rows by run",
    columns: [
      { label: "Run" },
      { label: "Rows" },
      { label: "Epochs" },
      { label: "Correct" },
      { label: "Wrong" },
      { label: "With a failure class" },
      { label: "Scorers disagree" },
    ],
    rows: [...by].map((
      [run, s],
    ) => [run, s.n, s.epochs.size, s.ok, s.n - s.ok, s.failure, s.disagree]),
  };
}

/** Title, subtitle and the runlens commit and date. */
function mdHeader(doc: ReportDocument): string[] {
  const p = doc.provenance;
  const out: string[] = [`# ${markdownText(doc.title)}`, ""];
  if (doc.subtitle) out.push(markdownText(doc.subtitle), "");
  out.push(
    `runlens \`${p.runlens_commit}\`${p.date !== undefined ? ` · ${markdownText(p.date)}` : ""}`,
    "",
  );
  return out;
}

function mdComparisons(c: ReportComparisons, ids: Ids, opts: MarkdownOptions): string[] {
  const out = ["## Paired comparisons", ""];
  if (c.intro) out.push(markdownText(c.intro), "");
  if (c.pairs.length === 0) out.push("No pair of runs to compare.", "");
  else {
    out.push(mdTable(comparisonsOverviewTable(c.pairs), "###"), "");
    for (const pair of c.pairs) out.push(mdTable(pairTaskTable(pair), "###"), "");
  }
  if (c.figures?.length) {
    out.push(mdSection({ title: "Comparison figures", items: c.figures }, "###", ids, opts));
  }
  return out;
}

/** The examples live in report.html; here, their counts and the rows by run. */
function mdExamples(doc: ReportDocument): string[] {
  const out = ["## Examples", ""];
  out.push(
    `report.html holds an example browser over the ${
      grouped(doc.examples.rows.length)
    } scored rows ` +
      `(${grouped(doc.examples.questions.length)} questions): filters, search, full responses.`,
    "",
  );
  if (doc.examples.rows.length) out.push(mdTable(rowsByRunTable(doc), null), "");
  return out;
}

/** One row per data set file (a data set without files: one row with no file). */
function datasetsTable(p: Provenance): ReportTable {
  return {
    kind: "table",
    title: "Data sets",
    columns: [
      { label: "Data set" },
      { label: "Source" },
      { label: "Commit" },
      { label: "File" },
      { label: "sha256" },
    ],
    rows: p.datasets.flatMap((d) => {
      const files = Object.entries(d.sha256);
      if (files.length === 0) return [[d.name, d.source ?? null, d.commit, null, null]];
      return files.map(([f, h]) => [d.name, d.source ?? null, d.commit, f, h]);
    }),
  };
}

function mdProvenance(p: Provenance): string[] {
  const out = ["## Provenance", ""];
  out.push(`- runlens commit: \`${p.runlens_commit}\``);
  out.push(`- command: \`${p.command.replaceAll("`", "'")}\``);
  out.push(`- scorers: ${markdownText(p.scorers.join(", ") || "–")}`);
  if (p.date !== undefined) out.push(`- date: ${markdownText(p.date)}`);
  if (p.seeds && Object.keys(p.seeds).length) {
    out.push(
      `- seeds: ${markdownText(Object.entries(p.seeds).map(([k, v]) => `${k} ${v}`).join("; "))}`,
    );
  }
  out.push("");
  out.push(mdTable(datasetsTable(p), "###"), "");
  if (p.inputs && Object.keys(p.inputs).length) {
    out.push(
      mdTable({
        kind: "table",
        title: "Input logs",
        columns: [{ label: "File" }, { label: "sha256" }],
        rows: Object.entries(p.inputs),
      }, "###"),
      "",
    );
  }
  return out;
}

/**
 * The report as Markdown (see the module doc). Ends with `"\n"`.
 *
 * @example
 * ```ts
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const doc = syntheticReportDocument({ runs: 2, examplesPerRun: 40, figures: false });
 * console.assert(renderReportMarkdown(doc).startsWith("# runlens report"));
 * ```
 */
export function renderReportMarkdown(doc: ReportDocument, opts: MarkdownOptions = {}): string {
  validateReportDocument(doc);
  const ids = new Ids();
  const out = mdHeader(doc);
  out.push("## Runs", "");
  out.push(doc.runs.length ? mdTable(runsSummaryTable(doc.runs), null) : "No runs.", "");
  // the figures call runs by their short names
  const legend = runLabelsTable(doc.runs);
  if (legend) out.push(mdTable(legend, "###"), "");
  if (doc.advice?.length) {
    out.push("**Check these numbers:**", "", ...doc.advice.map((a) => `- ${markdownText(a)}`), "");
  }
  if (doc.leaderboard) out.push(mdSection(doc.leaderboard, "##", ids, opts));
  if (doc.comparisons) out.push(...mdComparisons(doc.comparisons, ids, opts));
  if (doc.analyses.length) {
    out.push("## Analyses", "");
    for (const s of doc.analyses) out.push(mdSection(s, "###", ids, opts));
  }
  out.push(...mdExamples(doc), ...mdProvenance(doc.provenance));
  return out.join("\n").replace(/\n{3,}/g, "\n\n").trimEnd() + "\n";
}

/** One LaTeX table file. */
export interface LatexTableFile {
  /** File name without `.tex` (unique; from the table's id or title). */
  name: string;
  /** The booktabs table (`lib/render/table.ts`). */
  tex: string;
}

/** The id `report/analyses.ts` gives the per-task accuracy table (run, benchmark, task, …). */
const PER_TASK_ID = "per-task-accuracy";

/** The longest LaTeX file name (without `.tex`): `tab:<name>` stays within 40 characters. */
const MAX_LATEX_NAME = MAX_LABEL - "tab:".length;

/** Run codes `R1`, `R2`, … in the runs summary's order (the same in every table). */
function runCodes(doc: ReportDocument): Map<string, string> {
  return new Map([...new Set(doc.runs.map((r) => r.run))].map((r, i) => [r, `R${i + 1}`]));
}

/**
 * Run names as their codes and model names as `M1`, … when a table is too wide for them.
 */
function reportShortNames(codes: Map<string, string>): ShortNames[] {
  return [
    {
      columns: ["Run", "run", "A", "B"],
      prefix: "R",
      what: "Runs",
      codes: Object.fromEntries(codes),
    },
    { columns: ["Model", "model"], prefix: "M", what: "Models" },
  ];
}

/** The legend of the run codes: code, run, model, benchmarks. */
function runCodesTable(doc: ReportDocument, codes: Map<string, string>): ReportTable {
  return {
    kind: "table",
    id: "run-codes",
    title: "Run codes",
    caption: "The short names tables use for runs too long to print in full.",
    columns: [{ label: "Code" }, { label: "Run" }, { label: "Model" }, { label: "Benchmarks" }],
    rows: [...codes].map(([run, code]) => {
      const of = doc.runs.filter((r) => r.run === run);
      return [code, run, of[0].model, [...new Set(of.map((r) => r.benchmark))].join(", ")];
    }),
  };
}

/**
 * The per-task accuracy table in the BBEH paper's Table 2 shape, one per benchmark: a row per
 * run and a column per task plus the run's headline, set transposed (tasks as rows, runs as
 * columns). Empty when `perTask` lacks a `run`, `benchmark`, `task` or `accuracy` column.
 */
function accuracyByTaskTables(perTask: ReportTable, runs: readonly RunSummary[]): ReportTable[] {
  const at = (label: string) => perTask.columns.findIndex((c) => c.label === label);
  const [run, benchmark, task, accuracy] = ["run", "benchmark", "task", "accuracy"].map(at);
  if ([run, benchmark, task, accuracy].some((j) => j < 0)) return [];
  const digits = perTask.columns[accuracy].digits;
  const benchmarks = [...new Set(perTask.rows.map((r) => String(r[benchmark])))];
  return benchmarks.map((b) => {
    const rows = perTask.rows.filter((r) => r[benchmark] === b);
    const tasks = [...new Set(rows.map((r) => String(r[task])))];
    const summaries = runs.filter((r) => r.benchmark === b && rows.some((x) => x[run] === r.run));
    const metrics = [...new Set(summaries.flatMap((r) => (r.headline ? [r.headline.metric] : [])))];
    const value = (r: string, t: string) =>
      (rows.find((x) => x[run] === r && x[task] === t)?.[accuracy] ?? null) as Cell;
    return {
      kind: "table",
      id: `accuracy-by-task-${b}`,
      title: `${b}: accuracy (%) by task and run`,
      caption: "Tasks as rows, runs as columns (the shape of the papers' leaderboard tables); " +
        "the last rows: each run's headline aggregate.",
      columns: [
        { label: "run" },
        ...[...tasks, ...metrics].map((label) => ({ label, digits })),
      ],
      rows: summaries.map((s) => [
        s.run,
        ...tasks.map((t) => value(s.run, t)),
        ...metrics.map((m) => (s.headline?.metric === m ? s.headline.value : null)),
      ]),
    } satisfies ReportTable;
  });
}

/**
 * Every table of the report as LaTeX a paper can `\input` (`lib/render/table.ts`: booktabs,
 * ASCII-only, fitted to a plain article's `\textwidth`): runs summary, leaderboard and analysis
 * tables, per-task accuracy also in the BBEH paper's Table 2 shape (tasks × runs), the
 * comparisons overview and each pair's per-task table (`pair-r1-vs-r2-<benchmark>`). Runs
 * have codes `R1`, `R2`, … in the runs summary's order (table `run-codes`); a table too wide
 * for the names prints the codes, with a legend under it. Labels are `tab:<name>`, at most
 * 40 characters.
 *
 * @example
 * ```ts
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const doc = syntheticReportDocument({ runs: 2, examplesPerRun: 40, figures: false });
 * reportLatexTables(doc).map((t) => t.name); // ["runs-summary", "leaderboard-tasks", …]
 * ```
 */
export function reportLatexTables(doc: ReportDocument): LatexTableFile[] {
  validateReportDocument(doc);
  const ids = new Ids(MAX_LATEX_NAME);
  const codes = runCodes(doc);
  const tables: [ReportTable, { transpose?: boolean; shortNames?: ShortNames[] }][] = [];
  if (doc.runs.length) {
    // The legend of the codes prints the names, never the codes.
    tables.push([runsSummaryTable(doc.runs), {}], [runCodesTable(doc, codes), { shortNames: [] }]);
  }
  const fromSection = (s: ReportSection) => {
    for (const i of s.items) {
      if (i.kind !== "table") continue;
      tables.push([i, {}]);
      if (i.id !== PER_TASK_ID) continue;
      for (const t of accuracyByTaskTables(i, doc.runs)) tables.push([t, { transpose: true }]);
    }
  };
  if (doc.leaderboard) fromSection(doc.leaderboard);
  if (doc.comparisons?.pairs.length) {
    tables.push([comparisonsOverviewTable(doc.comparisons.pairs), {}]);
    for (const p of doc.comparisons.pairs) {
      // Named by the runs' codes: run names make file names of 120 characters.
      const id = `pair-${codes.get(p.run_a)}-vs-${codes.get(p.run_b)}-${p.benchmark}`;
      tables.push([{ ...pairTaskTable(p), id }, {}]);
    }
  }
  doc.analyses.forEach(fromSection);
  const shortNames = reportShortNames(codes);
  return tables.map(([t, layout]) => {
    const name = ids.take(t.id ?? t.title);
    const rows = t.rows.map((r) => Object.fromEntries(t.columns.map((c, j) => [c.label, r[j]])));
    return {
      name,
      tex: latexTable(
        rows.length ? rows : [Object.fromEntries(t.columns.map((c) => [c.label, null]))],
        {
          caption: t.caption ? `${t.title}. ${t.caption}` : t.title,
          label: `tab:${name}`,
          digits: digits(t),
          note: t.note,
          shortNames,
          ...layout,
        },
      ),
    };
  });
}
