/// <reference lib="dom" />
/**
 * Speed benchmark of `report.html` (a script, not a timed test): builds a SYNTHETIC document of
 * `--runs` runs × every BBEH question (real questions from the data directory; 20 × 4,520 rows
 * by default), renders and writes the page, then opens it in headless Chromium (fresh page per
 * repeat) and reads:
 * - `interactive`: the page's `report-ready` mark — ms from navigation start until the example
 *   browser has parsed its index and drawn its first page: filters, pager and counts work (the
 *   target is ≤ 2,000 ms);
 * - `texts ready`: the `report-texts-ready` mark — the question texts and responses are read
 *   too, so search and expanding a row answer at once (before it they wait for it);
 * - `domContentLoaded` and `load` from the navigation timing entry;
 * - the time of a task filter, a verdict filter, a first and a second search, and expanding a
 *   row (the page's synchronous handlers, measured in the page);
 * - DOM node count after load.
 *
 * Its command line: `deno run --allow-all lib/bench/report_page.ts --help`.
 *
 * Measured (Chromium 156, Deno 2.9.6, this 2-core machine; 20 synthetic runs × 4,520 real
 * BBEH questions; times in ms; the first set with a load average of about 1.6 from other
 * work, 3 page loads each, the second under a load average of 10–15, 5 loads each):
 *
 * | responses (mean chars) | rows embedded | texts | file | render + write | interactive | texts ready | first / next search |
 * | --- | --- | --- | --- | --- | --- | --- | --- |
 * | 2,095 (sampled to 50M chars) | 23,800 of 90,400 | gzip | 17.5 MB | 1,751 | 547 | 1,570 | 129 / 21 |
 * | 549 (all fit) | 90,400 of 90,400 | gzip | 22.6 MB | 2,436 | 444 | 1,757 | 144 / 37 |
 * | 2,095 (sampled) | 23,800 | plain JSON | 56.3 MB | 788 | 1,912 | 2,059 | 109 / 19 |
 * | under load: 2,095 (sampled) | 23,800 | gzip | 17.5 MB | 4,473 | 794 | 2,488 | 631 / 45 |
 * | under load: 549 (all fit) | 90,400 | gzip | 22.6 MB | 4,678 | 714 | 3,153 | 916 / 131 |
 * | under load: 2,095 (sampled) | 23,800 | plain JSON | 56.3 MB | 2,244 | 2,038 | 2,216 | 137 / 60 |
 *
 * Filters answer in 3–9 ms and expanding a row in 9–36 ms; the page holds ~8,700 DOM nodes
 * (the tables and figures; the list shows one page of 50 rows); no request but the file. Gzip
 * makes the file 3.2× smaller and the page interactive 3.5× sooner than plain JSON, so texts of
 * 2 MB or more are gzipped (`auto`).
 *
 * @example
 * ```ts
 * import { benchReportHtml } from "@runlens/bench/report_page.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const dataDir = resolveDataDir(); // --data, $RUNLENS_DATA, else .runlens/data
 * const r = await benchReportHtml({ dataDir, runs: 20, responseChars: 2000 });
 * console.log(r.write_ms, r.interactive_ms);
 * ```
 * @module
 */
import { type Command, countOption, runCommand } from "../core/command.ts";
import { join } from "node:path";
import { loadBbehDataset } from "../benchmarks/bbeh/dataset.ts";
import { DATA_OPTION, resolveDataDir } from "../core/data_dir.ts";
import { ensureChromium } from "../setup/chromium.ts";
import type { BrowserContext } from "playwright-core";
import { launchChromium, PageLog } from "../setup/chromium_browser.ts";
import { DEFAULT_BUDGET_CHARS, type PayloadEncoding } from "../report/html/examples.ts";
import { renderReportHtml } from "../report/html/render.ts";
import { type SourceQuestion, syntheticReportDocument } from "./synthetic_report.ts";

/** Options of {@link benchReportHtml}. */
export interface BenchOptions {
  /** Data directory holding the BBEH release. */
  dataDir: string;
  /** Runs (default 20). */
  runs?: number;
  /** Mean response length (default 2,000 characters). */
  responseChars?: number;
  /** Texts encoding (default `auto`). */
  encoding?: PayloadEncoding;
  /** Sampling budget in response characters (default: the renderer's, 50,000,000). */
  budgetChars?: number;
  /** Page loads to measure (default 3; the median is reported). */
  repeats?: number;
  /** Where report.html is written (default a temp dir, removed). */
  outDir?: string;
}

/** What {@link benchReportHtml} measured (times in ms, sizes in bytes). */
export interface BenchResult {
  runs: number;
  rows: number;
  rows_embedded: number;
  response_chars_mean: number;
  encoding: PayloadEncoding;
  generate_ms: number;
  render_ms: number;
  write_ms: number;
  html_bytes: number;
  interactive_ms: number;
  interactive_all_ms: number[];
  texts_ready_ms: number;
  script_start_ms: number;
  dom_content_loaded_ms: number;
  load_ms: number;
  dom_nodes: number;
  filter_task_ms: number;
  filter_verdict_ms: number;
  first_search_ms: number;
  second_search_ms: number;
  expand_row_ms: number;
  requests_other_than_file: number;
  errors: string[];
  chromium: string;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * Real BBEH questions (task, example_index, input, target) from a data directory.
 *
 * @example
 * ```ts
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * bbehSourceQuestions(resolveDataDir()).length; // 4520
 * ```
 */
export function bbehSourceQuestions(dataDir: string): SourceQuestion[] {
  const ds = loadBbehDataset(dataDir);
  const task = ds.getColumn("task").toArray() as string[];
  const idx = ds.getColumn("example_index").toArray() as number[];
  const input = ds.getColumn("input").toArray() as string[];
  const target = ds.getColumn("target").toArray() as string[];
  return task.map((t, i) => ({
    task: t,
    example_index: Number(idx[i]),
    input: input[i],
    target: target[i],
  }));
}

/** What {@link measureReportPage} reads from a report page (times in ms). */
export type PageMeasurement = Omit<
  BenchResult,
  | "runs"
  | "rows"
  | "response_chars_mean"
  | "encoding"
  | "generate_ms"
  | "render_ms"
  | "write_ms"
  | "html_bytes"
>;

/** What one page load gives besides the three marks (the last load's are reported). */
type PageDetails = Omit<
  PageMeasurement,
  "interactive_ms" | "interactive_all_ms" | "texts_ready_ms" | "script_start_ms" | "chromium"
>;

/**
 * In the page (run by `page.evaluate`, so self-contained): the page's performance marks, the
 * navigation timings, the DOM size and the rows embedded (from the count line).
 */
function pageLoadMarks() {
  const nav = performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming;
  return {
    ready: performance.getEntriesByName("report-ready")[0].startTime,
    texts: performance.getEntriesByName("report-texts-ready")[0].startTime,
    script: performance.getEntriesByName("report-script-start")[0].startTime,
    dcl: nav.domContentLoadedEventEnd,
    load: nav.loadEventEnd,
    nodes: document.getElementsByTagName("*").length,
    embedded: Number(
      /of ([\d,]+) rows/.exec(document.getElementById("ex-count")!.textContent!)![1]
        .replaceAll(",", ""),
    ),
  };
}

/**
 * In the page (run by `page.evaluate`, so self-contained): time a task filter, a verdict
 * filter, two searches and opening a row, resetting the filters in between.
 */
function pageInteractionTimings() {
  const time = (f: () => void) => {
    const t = performance.now();
    f();
    return performance.now() - t;
  };
  const change = (id: string, value: string) => () => {
    const s = document.getElementById(id) as HTMLSelectElement;
    s.value = value;
    s.dispatchEvent(new Event("change"));
  };
  const task = document.getElementById("ex-task") as HTMLSelectElement;
  const filter_task_ms = time(change("ex-task", task.options[1].value));
  const filter_verdict_ms = time(change("ex-verdict", "1"));
  change("ex-task", "")();
  change("ex-verdict", "")();
  const form = document.getElementById("ex-filters") as HTMLFormElement;
  const search = document.getElementById("ex-search") as HTMLInputElement;
  const submit = (q: string) => () => {
    search.value = q;
    form.requestSubmit();
  };
  const first_search_ms = time(submit("The answer is: (A)"));
  const second_search_ms = time(submit("step 3: from"));
  submit("")(); // every row again, so there is one to expand
  const details = document.querySelector("#ex-list details") as HTMLDetailsElement;
  const expand_row_ms = time(() => {
    details.open = true;
    details.dispatchEvent(new Event("toggle"));
  });
  return {
    filter_task_ms,
    filter_verdict_ms,
    first_search_ms,
    second_search_ms,
    expand_row_ms,
  };
}

/** Load the page once in a new tab, wait for its texts, and measure it. */
async function measurePageLoad(
  browser: BrowserContext,
  url: string,
): Promise<{ ready: number; texts: number; script: number; details: PageDetails }> {
  const page = await browser.newPage();
  const log = new PageLog(page);
  await page.goto(url);
  await page.waitForFunction(() => document.documentElement.dataset.texts);
  const m = await page.evaluate(pageLoadMarks);
  const timings = await page.evaluate(pageInteractionTimings);
  const other = log.requests.filter((r) => r.url !== url);
  return {
    ready: m.ready,
    texts: m.texts,
    script: m.script,
    details: {
      rows_embedded: m.embedded,
      dom_content_loaded_ms: m.dcl,
      load_ms: m.load,
      dom_nodes: m.nodes,
      ...timings,
      requests_other_than_file: other.length,
      errors: log.errors(),
    },
  };
}

/**
 * Open the report page `path` in headless Chromium `repeats` times (default 3; a fresh page
 * each time) and measure it (see the module doc): the medians of `report-ready`,
 * `report-texts-ready` and `report-script-start`, and the rest from the last load.
 *
 * @example
 * ```ts ignore
 * const m = await measureReportPage("results/report/report.html", { repeats: 1 });
 * m.interactive_ms < 2000; // true on this machine
 * ```
 */
export async function measureReportPage(
  path: string,
  opts: { repeats?: number } = {},
): Promise<PageMeasurement> {
  const chromium = await ensureChromium();
  const browser = await launchChromium({ width: 1400, height: 1000, timeoutMs: 120_000 });
  const url = new URL(`file://${path}`).href;
  const interactive: number[] = [], texts: number[] = [], scriptStart: number[] = [];
  let last: PageDetails | null = null;
  try {
    for (let k = 0; k < (opts.repeats ?? 3); k++) {
      const m = await measurePageLoad(browser, url);
      interactive.push(m.ready);
      texts.push(m.texts);
      scriptStart.push(m.script);
      last = m.details;
    }
  } finally {
    await browser.close();
  }
  return {
    interactive_ms: median(interactive),
    interactive_all_ms: interactive,
    texts_ready_ms: median(texts),
    script_start_ms: median(scriptStart),
    ...last!,
    chromium,
  };
}

/**
 * Run the benchmark once (see the module doc).
 *
 * @example
 * ```ts
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const r = await benchReportHtml({ dataDir: resolveDataDir(), runs: 2, repeats: 1 });
 * ```
 */
export async function benchReportHtml(opts: BenchOptions): Promise<BenchResult> {
  const runs = opts.runs ?? 20;
  const encoding = opts.encoding ?? "auto";
  const questions = bbehSourceQuestions(opts.dataDir);
  let t0 = performance.now();
  const doc = syntheticReportDocument({
    runs,
    questions,
    responseChars: opts.responseChars ?? 2000,
    seed: 20251101,
  });
  const generate_ms = performance.now() - t0;
  const rows = doc.examples.rows.length;
  const respChars = doc.examples.rows.reduce((s, r) => s + r.response.length, 0);

  const dir = opts.outDir ?? Deno.makeTempDirSync({ prefix: "runlens_report_bench_" });
  Deno.mkdirSync(dir, { recursive: true });
  const path = join(dir, "report.html");
  t0 = performance.now();
  const html = renderReportHtml(doc, { encoding, budgetChars: opts.budgetChars });
  const render_ms = performance.now() - t0;
  Deno.writeTextFileSync(path, html);
  const write_ms = performance.now() - t0;
  const html_bytes = Deno.statSync(path).size;

  let page: PageMeasurement;
  try {
    page = await measureReportPage(path, { repeats: opts.repeats });
  } finally {
    if (!opts.outDir) Deno.removeSync(dir, { recursive: true });
  }
  return {
    runs,
    rows,
    response_chars_mean: respChars / rows,
    encoding,
    generate_ms,
    render_ms,
    write_ms,
    html_bytes,
    ...page,
  };
}

/** The result as a few lines of text (the CLI's output without `--json`). */
function benchSummaryText(r: BenchResult): string {
  const f = (x: number) => x.toFixed(0);
  return `${r.runs} runs × ${r.rows / r.runs} rows = ${r.rows} rows (mean response ` +
    `${f(r.response_chars_mean)} chars), ${r.rows_embedded} embedded, encoding ${r.encoding}\n` +
    `render ${f(r.render_ms)} ms, render + write ${f(r.write_ms)} ms, ` +
    `${(r.html_bytes / 1e6).toFixed(1)} MB\n` +
    `interactive (report-ready) ${f(r.interactive_ms)} ms (median of ` +
    `${r.interactive_all_ms.map(f).join(", ")}); script start ${f(r.script_start_ms)} ms; ` +
    `texts ready ${f(r.texts_ready_ms)} ms; DOMContentLoaded ${f(r.dom_content_loaded_ms)} ms; ` +
    `load ${f(r.load_ms)} ms; ${r.dom_nodes} DOM nodes\n` +
    `task filter ${f(r.filter_task_ms)} ms, verdict filter ${f(r.filter_verdict_ms)} ms, ` +
    `first search ${f(r.first_search_ms)} ms, second search ${f(r.second_search_ms)} ms, ` +
    `expand a row ${f(r.expand_row_ms)} ms\n` +
    `requests other than the file: ${r.requests_other_than_file}; errors: ${r.errors.length}\n` +
    `${r.chromium}`;
}

/** `lib/bench/report_page.ts`. */
export const reportPageCommand: Command<BenchOptions & { json: boolean }> = {
  name: "report-page",
  invocation: "deno run --allow-all lib/bench/report_page.ts",
  summary: "Time report.html in headless Chromium on a synthetic document of real BBEH " +
    "questions: until interactive, until its texts are ready, filters, search, expanding a row.",
  usage: "[--data DIR] [--runs N] [--response-chars N] [--encoding E] [--budget CHARS] " +
    "[--repeats K] [--out DIR] [--json]",
  options: {
    data: DATA_OPTION,
    runs: { type: "string", value: "N", description: "synthetic runs", default: "20" },
    "response-chars": {
      type: "string",
      value: "N",
      description: "mean response length in characters",
      default: "2000",
    },
    encoding: {
      type: "string",
      value: "auto|json|gzip-base64",
      description: "how the page embeds the texts",
      default: "auto",
    },
    budget: {
      type: "string",
      value: "CHARS",
      description: "characters of responses embedded before the page samples",
      default: String(DEFAULT_BUDGET_CHARS),
    },
    repeats: {
      type: "string",
      value: "K",
      description: "page loads (the median is reported)",
      default: "3",
    },
    out: {
      type: "string",
      value: "DIR",
      description: "where report.html is written",
      default: "a temporary folder, removed",
    },
    json: { type: "boolean", description: "print the measurements as JSON" },
  },
  prints: "The document's size and the page's timings (render, write, interactive, texts " +
    "ready, DOMContentLoaded, load, filters, searches, expanding a row), requests other than " +
    "the file, errors and the Chromium version; with --json the same as JSON.",
  examples: ["deno run --allow-all lib/bench/report_page.ts --data ../shared/data --runs 20"],
  failure: "the BBEH data set cannot be read or Chromium cannot be started",
  parse: ({ values, positionals }) => {
    if (positionals.length > 0) return `unexpected argument ${positionals[0]}`;
    const encoding = (values.encoding as string | undefined) ?? "auto";
    if (!["auto", "json", "gzip-base64"].includes(encoding)) {
      return `--encoding ${encoding}: auto, json or gzip-base64`;
    }
    return {
      dataDir: resolveDataDir(values.data as string | undefined),
      runs: countOption(values, "runs", 20),
      responseChars: countOption(values, "response-chars", 2000),
      encoding: encoding as PayloadEncoding,
      budgetChars: countOption(values, "budget", DEFAULT_BUDGET_CHARS),
      repeats: countOption(values, "repeats", 3),
      outDir: values.out as string | undefined,
      json: values.json === true,
    };
  },
  run: async ({ json, ...options }) => {
    const r = await benchReportHtml(options);
    console.log(json ? JSON.stringify(r, null, 2) : benchSummaryText(r));
    return 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(reportPageCommand, Deno.args));
