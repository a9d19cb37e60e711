/**
 * The example browser's data as the page embeds it: a column-oriented JSON payload (runs,
 * tasks, subsets, failure classes and targets as dictionaries; each question text once; one
 * entry per row for epoch, verdict, extracted answer and response), sampled deterministically
 * when the responses exceed a size budget, and encoded for a `<script type="application/json">`
 * block (every `<` written `\u003c`, so no `</script` or `<!--` can end the block, and U+2028/9
 * escaped).
 *
 * Sampling, when the responses total more than `budgetChars` characters: examples
 * (benchmark, task, example_index) are ordered by a seeded FNV-1a hash of their key, and whole
 * examples — every run's and epoch's row of each — are taken in that order until the next one
 * would exceed the budget. That is a uniform random sample of examples (not biased towards short
 * responses), identical for identical input, and keeps runs paired on the same questions.
 *
 * @example
 * ```ts
 * import { examplePayload, payloadBlocks } from "@runlens/report/html/examples.ts";
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const doc = syntheticReportDocument({ runs: 2, examplesPerRun: 20, figures: false });
 * const payload = examplePayload(doc.examples, { budgetChars: 50_000_000 });
 * payload.sample; // null, or what was sampled and how
 * const { index, texts } = payloadBlocks(payload); // safe inside <script type="application/json">
 * ```
 * @module
 */
import { gzipSync } from "node:zlib";
import { Buffer } from "node:buffer";
import {
  type ExampleQuestion,
  type ExampleRow,
  questionKey,
  type ReportExamples,
} from "./document.ts";

/** Default budget: 50 million characters of response text. */
export const DEFAULT_BUDGET_CHARS = 50_000_000;

/** Default seed of the sampling order. */
export const DEFAULT_SAMPLE_SEED = 1;

/** How the rows were sampled (null in the payload when every row is embedded). */
export interface SampleInfo {
  /** Rows in the document. */
  rows_total: number;
  /** Rows embedded. */
  rows_kept: number;
  /** Examples (benchmark, task, example_index) with rows in the document. */
  examples_total: number;
  /** Examples embedded (with all their rows). */
  examples_kept: number;
  /** Characters of response text in the document. */
  response_chars_total: number;
  /** Characters of response text embedded. */
  response_chars_kept: number;
  /** The budget that was exceeded. */
  budget_chars: number;
  /** Seed of the hash order. */
  seed: number;
  /** One sentence saying how. */
  method: string;
}

/** The embedded data (column-oriented; `-1` stands for null in index columns). */
export interface ExamplePayload {
  /** Format version. */
  version: 1;
  /** The sample, or null when all rows are embedded. */
  sample: SampleInfo | null;
  /** Run names (row column `run` indexes it). */
  runs: string[];
  /** The runs' short names, as the report's tables print them (the names, unless given). */
  run_labels: string[];
  /** Benchmarks. */
  benchmarks: string[];
  /** Tasks as `[benchmark index, task name]`. */
  tasks: [number, string][];
  /** Subset labels. */
  subsets: string[];
  /** Failure classes. */
  failures: string[];
  /** Distinct targets. */
  targets: string[];
  /** Per question: task index. */
  q_task: number[];
  /** Per question: example index. */
  q_index: number[];
  /** Per question: text. */
  q_text: string[];
  /** Per row: run index. */
  run: number[];
  /** Per row: question index. */
  q: number[];
  /** Per row: epoch. */
  epoch: number[];
  /** Per row: 1 correct, 0 wrong. */
  correct: number[];
  /** Per row: 1 the scorer found an answer, 0 it found none, -1 not known. */
  found: number[];
  /** Per row: subset index or -1. */
  subset: number[];
  /** Per row: failure class index or -1. */
  failure: number[];
  /** Per row: 1 scorers disagree, 0 agree, -1 not checked. */
  disagree: number[];
  /** Per row: target index. */
  target: number[];
  /** Per row: extracted answer (null: none). */
  extracted: (string | null)[];
  /** Per row: the full response. */
  response: string[];
}

/** Options of {@link examplePayload}. */
export interface PayloadOptions {
  /** Run name → its short label (absent: the name). */
  runLabels?: ReadonlyMap<string, string>;
  /** Response characters above which rows are sampled (default 50,000,000). */
  budgetChars?: number;
  /** Seed of the sampling order (default 1). */
  seed?: number;
}

/** 32-bit FNV-1a of a string's UTF-16 code units, continuing from `h`. */
function fnv1a(s: string, h = 0x811c9dc5): number {
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Index of each distinct value, in first-seen order. */
class Dict<T> {
  readonly values: T[] = [];
  #index = new Map<T, number>();
  id(v: T): number {
    let i = this.#index.get(v);
    if (i === undefined) {
      i = this.values.length;
      this.values.push(v);
      this.#index.set(v, i);
    }
    return i;
  }
}

/** Total response characters, and those of each example (every run and epoch of it). */
function responseChars(rows: readonly ExampleRow[]): {
  total: number;
  perExample: Map<string, number>;
} {
  let total = 0;
  const perExample = new Map<string, number>();
  for (const r of rows) {
    total += r.response.length;
    const k = questionKey(r.benchmark, r.task, r.example_index);
    perExample.set(k, (perExample.get(k) ?? 0) + r.response.length);
  }
  return { total, perExample };
}

/**
 * The examples kept under the budget: whole examples in seeded-hash order (ties by key) until
 * the next would exceed it; `used` is their response characters.
 */
function sampleExamples(
  perExample: ReadonlyMap<string, number>,
  budget: number,
  seed: number,
): { keep: Set<string>; used: number } {
  const seedPrefix = fnv1a(`runlens-sample:${seed}:`);
  const order = [...perExample.keys()].map((k) => ({ k, h: fnv1a(k, seedPrefix) }))
    .sort((a, b) => a.h - b.h || (a.k < b.k ? -1 : a.k > b.k ? 1 : 0));
  const keep = new Set<string>();
  let used = 0;
  for (const { k } of order) {
    const c = perExample.get(k)!;
    if (used + c > budget) break;
    used += c;
    keep.add(k);
  }
  return { keep, used };
}

/** The rows to embed: all when their responses fit the budget, else a sample of examples. */
function selectRows(
  ex: ReportExamples,
  budget: number,
  seed: number,
): { rows: readonly ExampleRow[]; sample: SampleInfo | null } {
  const { total, perExample } = responseChars(ex.rows);
  if (total <= budget) return { rows: ex.rows, sample: null };
  const { keep, used } = sampleExamples(perExample, budget, seed);
  const rows = ex.rows.filter((r) => keep.has(questionKey(r.benchmark, r.task, r.example_index)));
  const sample: SampleInfo = {
    rows_total: ex.rows.length,
    rows_kept: rows.length,
    examples_total: perExample.size,
    examples_kept: keep.size,
    response_chars_total: total,
    response_chars_kept: used,
    budget_chars: budget,
    seed,
    method: "whole examples (every run and epoch of each) in the order of a seeded FNV-1a " +
      "hash of (benchmark, task, example_index), until the next example would exceed the " +
      "budget: a uniform random sample of examples",
  };
  return { rows, sample };
}

/** Runs, benchmarks, tasks and questions of the embedded rows, with their payload ids. */
interface PayloadTables {
  runs: Dict<string>;
  benchmarks: Dict<string>;
  /** `[benchmark id, task]` by task id. */
  taskPairs: [number, string][];
  /** Payload question index by question key. */
  qIndex: Map<string, number>;
  q_task: number[];
  q_index: number[];
  q_text: string[];
}

/**
 * Ids of runs and tasks in first-seen row order (the document's order, so filters list them
 * so), then the questions of the rows in the document's question order (each once).
 */
function payloadTables(
  rows: readonly ExampleRow[],
  questions: readonly ExampleQuestion[],
): PayloadTables {
  const runs = new Dict<string>(), benchmarks = new Dict<string>(), tasks = new Dict<string>();
  const taskPairs: [number, string][] = [];
  const taskId = (b: string, t: string) => {
    const key = `${b}\u0000${t}`;
    const before = tasks.values.length;
    const id = tasks.id(key);
    if (id === before) taskPairs.push([benchmarks.id(b), t]);
    return id;
  };
  for (const r of rows) {
    runs.id(r.run);
    taskId(r.benchmark, r.task);
  }
  const used = new Set(rows.map((r) => questionKey(r.benchmark, r.task, r.example_index)));
  const qIndex = new Map<string, number>();
  const q_task: number[] = [], q_index: number[] = [], q_text: string[] = [];
  for (const q of questions) {
    const k = questionKey(q.benchmark, q.task, q.example_index);
    if (!used.has(k) || qIndex.has(k)) continue;
    qIndex.set(k, q_text.length);
    q_task.push(taskId(q.benchmark, q.task));
    q_index.push(q.example_index);
    q_text.push(q.text);
  }
  return { runs, benchmarks, taskPairs, qIndex, q_task, q_index, q_text };
}

/** Fill the payload's per-row columns and the dictionaries (subsets, failures, targets) they use. */
function fillRowColumns(p: ExamplePayload, rows: readonly ExampleRow[], t: PayloadTables): void {
  const subsets = new Dict<string>(), failures = new Dict<string>(), targets = new Dict<string>();
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i];
    const qi = t.qIndex.get(questionKey(r.benchmark, r.task, r.example_index));
    if (qi === undefined) {
      throw new Error(`example row ${r.run}/${r.task}/${r.example_index}: no question`);
    }
    p.run[i] = t.runs.id(r.run);
    p.q[i] = qi;
    p.epoch[i] = r.epoch;
    p.correct[i] = r.verdict === "correct" ? 1 : 0;
    p.found[i] = r.found === true ? 1 : r.found === false ? 0 : -1;
    p.subset[i] = r.subset === null ? -1 : subsets.id(r.subset);
    p.failure[i] = r.failure === null ? -1 : failures.id(r.failure);
    p.disagree[i] = r.disagreement === null ? -1 : r.disagreement ? 1 : 0;
    p.target[i] = targets.id(r.target);
    p.extracted[i] = r.extracted;
    p.response[i] = r.response;
  }
  p.subsets = subsets.values;
  p.failures = failures.values;
  p.targets = targets.values;
}

/**
 * Build the payload from the document's examples: all rows when their responses fit the budget,
 * else a deterministic sample of whole examples (see the module doc). Row order is the
 * document's; questions keep the document's order (only those with embedded rows).
 *
 * @example
 * ```ts
 * const q = { benchmark: "bbeh", task: "nycc", example_index: 3, text: "Which caption…?" };
 * const row = {
 *   run: "a", benchmark: "bbeh", task: "nycc", example_index: 3, epoch: 0, subset: null,
 *   verdict: "wrong" as const, extracted: "(B)", target: "(C)", failure: null,
 *   disagreement: null, response: "… The answer is: (B)",
 * };
 * const p = examplePayload({ questions: [q], rows: [row] });
 * console.assert(p.q_text[p.q[0]] === q.text && p.sample === null);
 * ```
 */
export function examplePayload(ex: ReportExamples, opts: PayloadOptions = {}): ExamplePayload {
  const budget = opts.budgetChars ?? DEFAULT_BUDGET_CHARS;
  const seed = opts.seed ?? DEFAULT_SAMPLE_SEED;
  const { rows, sample } = selectRows(ex, budget, seed);
  const t = payloadTables(rows, ex.questions);
  const n = rows.length;
  // The key order here is the order of the index JSON: keep it.
  const p: ExamplePayload = {
    version: 1,
    sample,
    runs: t.runs.values,
    run_labels: t.runs.values.map((r) => opts.runLabels?.get(r) ?? r),
    benchmarks: t.benchmarks.values,
    tasks: t.taskPairs,
    subsets: [],
    failures: [],
    targets: [],
    q_task: t.q_task,
    q_index: t.q_index,
    q_text: t.q_text,
    run: new Array(n),
    q: new Array(n),
    epoch: new Array(n),
    correct: new Array(n),
    found: new Array(n),
    subset: new Array(n),
    failure: new Array(n),
    disagree: new Array(n),
    target: new Array(n),
    extracted: new Array(n),
    response: new Array(n),
  };
  fillRowColumns(p, rows, t);
  return p;
}

/**
 * JSON text that is safe as the content of `<script type="application/json">`: `<` is written
 * `\u003c` (so neither `</script` nor `<!--` can appear), U+2028/U+2029 as escapes. `JSON.parse`
 * gives back the same value.
 *
 * @example
 * ```ts
 * jsonScriptText({ s: "</script><!--" }); // '{"s":"\\u003c/script>\\u003c!--"}'
 * ```
 */
export function jsonScriptText(value: unknown): string {
  return JSON.stringify(value).replace(
    /[<\u2028\u2029]/g,
    (c) => c === "<" ? "\\u003c" : c === "\u2028" ? "\\u2028" : "\\u2029",
  );
}

/** How the texts block is written: plain JSON, gzip in base64, or `auto` (gzip above 2 MB). */
export type PayloadEncoding = "json" | "gzip-base64" | "auto";

/** The texts block is gzipped from this many characters of JSON on, under `auto`. */
export const AUTO_GZIP_FROM = 2_000_000;

/** The two `<script type="application/json">` blocks of the page. */
export interface PayloadBlocks {
  /** Everything but the texts, as safe JSON (parsed first: enough to draw the list). */
  index: string;
  /** `{"q_text": [...], "response": [...]}` as safe JSON or gzip+base64. */
  texts: string;
  /** How `texts` is encoded. */
  encoding: "json" | "gzip-base64";
}

/**
 * The payload as the texts of the page's two data blocks: the **index** (every field but the
 * question texts and responses) as JSON, and the **texts** as JSON ({@link jsonScriptText}) or
 * gzip (level 6, no timestamp or name in the header: the same input gives the same bytes with
 * the pinned Deno) in base64, which the page inflates with the browser's
 * `DecompressionStream` after its first render. `auto` (the default) gzips texts of 2 MB or more.
 *
 * @example
 * ```ts
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const doc = syntheticReportDocument({ runs: 2, examplesPerRun: 20, figures: false });
 * const { texts, encoding } = payloadBlocks(examplePayload(doc.examples), "gzip-base64");
 * console.assert(encoding === "gzip-base64" && texts.startsWith("H4sI")); // gzip magic in base64
 * ```
 */
export function payloadBlocks(
  payload: ExamplePayload,
  encoding: PayloadEncoding = "auto",
): PayloadBlocks {
  const { q_text, response, ...rest } = payload;
  const index = jsonScriptText(rest);
  const json = jsonScriptText({ q_text, response });
  const enc = encoding === "auto"
    ? (json.length >= AUTO_GZIP_FROM ? "gzip-base64" : "json")
    : encoding;
  if (enc === "json") return { index, texts: json, encoding: enc };
  const gz = gzipSync(new TextEncoder().encode(json), { level: 6 });
  return {
    index,
    texts: Buffer.from(gz.buffer, gz.byteOffset, gz.byteLength).toString("base64"),
    encoding: enc,
  };
}
