/**
 * Read an EleutherAI lm-evaluation-harness `--log_samples` file
 * (`<out>/<model_sanitized>/samples_<task>_<date_id>.jsonl`) into the raw form
 * ({@link RawLog}), one row per (doc, filter).
 *
 * Every generation of the format is accepted: ≤ v0.4.2 (the file is ONE JSON array), May–June
 * 2024 (`.json` name, JSON lines inside), and ≥ v0.4.7 (lines carry `filter` and `metrics`).
 * Row fields: `task` from the file name (a BBEH task gets its canonical name and benchmark
 * `bbeh`; `bbh_*` and `leaderboard_bbh_*` get benchmark `bbh`), `example_index` = `doc_id`,
 * `input` = `doc.input`, `target` = `target` (else `doc.target`), `response` = the raw text
 * `resps[0][0]` (multiple-choice: the continuation with the highest log-probability), `model`
 * from the sibling `results_<date_id>.json` (`model_name`, else `pretrained=` of
 * `config.model_args`), else the folder name. `run` = `<folder>_<date_id>`, so all task files
 * of one invocation form one run. `extra` keeps the tool's extraction (`filtered_resps[0]`), the
 * filter, its metric values and `stored_correct` (the tool's own verdict). A task run with
 * `repeats: N` (`resps[0]` holding N texts) gives one row per repeat (epoch = repeat number,
 * no stored verdict: the tool scored the repeats' filtered answer as a whole). Line numbers: the
 * file line (JSON lines) or the 1-based position in the array (≤ v0.4.2). JSON lines are read
 * from the bytes in blocks, polars parsing each block of the common shape.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLmEvalLog } from "@runlens/logs/lm_eval.ts";
 * const dir = "tests/fixtures/logs/bbh/lm_eval/org__tiny-model"; // beside results_<date_id>.json
 * const file = "samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.622918.jsonl";
 * const raw = readLmEvalLog(`${dir}/${file}`);
 * raw.frame.select("task", "example_index", "response");
 * assert.deepEqual(raw.frame.select("run", "model", "benchmark", "task", "example_index").row(0), [
 *   "org__tiny-model_2025-01-25T04-48-43.622918",
 *   "org/tiny-model",
 *   "bbh",
 *   "snarks",
 *   "0",
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { basename, dirname, join } from "node:path";
import { lmEvalTask } from "./tool_names.ts";
import { decodeLine, forEachLineBlock, type LineBlock, scanBlock } from "./lines.ts";
import {
  lmEvalBlockFrame,
  type LmEvalFileContext,
  VERDICT_FALLBACK_METRICS,
} from "./lm_eval_block.ts";
import { asText, frameFromRecords, type RawLog } from "./raw.ts";
import { jsonLineReason, TRUNCATED_LAST_LINE } from "./quarantine.ts";
import { decodeUtf8, NOT_UTF8, rejectUtf16 } from "./encoding.ts";

/** The parts of a samples file name. */
export interface LmEvalFileName {
  /** The lm-eval task name, e.g. `bbeh_zeroshot_nycc`. */
  task: string;
  /** The invocation id shared with `results_<date_id>.json`, e.g. `2025-01-25T04-48-43.622918`. */
  dateId: string;
}

const NAME = /^samples_(.+)_(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.jsonl?$/;

/**
 * Split `samples_<task>_<date_id>.jsonl` (or `.json`); null for other names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const file = "samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.622918.jsonl";
 * const name = parseLmEvalFileName(file);
 * assert.deepEqual(name, { task: "bbh_cot_fewshot_snarks", dateId: "2025-01-25T04-48-43.622918" });
 * assert.equal(parseLmEvalFileName("results_2025-01-25T04-48-43.622918.json"), null);
 * ```
 */
export function parseLmEvalFileName(name: string): LmEvalFileName | null {
  const m = NAME.exec(basename(name));
  return m ? { task: m[1], dateId: m[2] } : null;
}

/** What the sibling results file says about the run. */
interface ResultsInfo {
  model: string | null;
  /** Filter names per task, in YAML order (for lines without `filter`, before v0.4.7). */
  filters: Record<string, string[]>;
}

/**
 * The model of an lm-eval run from its results document: `model_name`, else the `pretrained=`
 * (or `model=`) value of `config.model_args` (a string or an object); null if neither.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lmEvalModel({ config: { model_args: "pretrained=org/m,dtype=bf16" } }), "org/m");
 * assert.equal(lmEvalModel({ model_name: "org/n", config: {} }), "org/n");
 * ```
 */
export function lmEvalModel(results: Record<string, unknown>): string | null {
  if (typeof results.model_name === "string" && results.model_name.trim() !== "") {
    return results.model_name;
  }
  const args = (results.config as Record<string, unknown> | undefined)?.model_args;
  if (typeof args === "string") {
    const m = /(?:^|,)\s*(?:pretrained|model)=([^,]+)/.exec(args);
    return m ? m[1].trim() : null;
  }
  if (args && typeof args === "object") {
    const a = args as Record<string, unknown>;
    const v = a.pretrained ?? a.model;
    return typeof v === "string" ? v : null;
  }
  return null;
}

/** Results files already read, by path (valid while size and mtime hold). */
const resultsCache = new Map<string, { stamp: string; info: ResultsInfo }>();

/** What `<dir>/results_<dateId>.json` says; nothing when it is missing or unreadable. */
function readResults(dir: string, dateId: string): ResultsInfo {
  const path = join(dir, `results_${dateId}.json`);
  let stamp: string;
  try {
    const info = Deno.statSync(path);
    stamp = `${info.size}:${info.mtime?.getTime() ?? ""}`;
  } catch {
    return { model: null, filters: {} };
  }
  const known = resultsCache.get(path);
  if (known?.stamp === stamp) return known.info;
  let doc: Record<string, unknown>;
  try {
    doc = JSON.parse(decodeUtf8(Deno.readFileSync(path)));
  } catch {
    return { model: null, filters: {} };
  }
  const filters: Record<string, string[]> = {};
  const configs = (doc.configs ?? {}) as Record<string, { filter_list?: { name?: string }[] }>;
  for (const [task, config] of Object.entries(configs)) {
    const names = (config?.filter_list ?? []).map((f) => f?.name).filter((n) =>
      typeof n === "string"
    );
    if (names.length > 0) filters[task] = names as string[];
  }
  const info = { model: lmEvalModel(doc), filters };
  resultsCache.set(path, { stamp, info });
  return info;
}

/**
 * The raw response of one sample line: `resps[0][0]` when it is text; for a multiple-choice
 * request (`resps[i][0] = [logprob, is_greedy]`) the continuation (`arguments.gen_args_<i>.arg_1`)
 * with the highest log-probability, trimmed. Null when there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lmEvalResponse({ resps: [["The answer is (A)."]] }), "The answer is (A).");
 * const choice = { // multiple choice: the continuation with the highest log-probability
 *   resps: [[["-2.5", "False"]], [["-0.5", "False"]]],
 *   arguments: { gen_args_0: { arg_1: " no" }, gen_args_1: { arg_1: " yes" } },
 * };
 * assert.equal(lmEvalResponse(choice), "yes");
 * ```
 */
export function lmEvalResponse(line: Record<string, unknown>): string | null {
  const resps = line.resps;
  if (!Array.isArray(resps) || resps.length === 0) return null;
  const first = Array.isArray(resps[0]) ? resps[0][0] : resps[0];
  if (typeof first === "string") return first;
  if (!Array.isArray(first)) return asText(first);
  // multiple choice: one request per choice
  let best = -1;
  let bestLp = -Infinity;
  resps.forEach((r, i) => {
    const lp = Number(Array.isArray(r) && Array.isArray(r[0]) ? r[0][0] : NaN);
    if (lp > bestLp) [best, bestLp] = [i, lp];
  });
  const args = line.arguments as Record<string, Record<string, unknown>> | unknown[] | undefined;
  const choice = Array.isArray(args) ? args[best] : args?.[`gen_args_${best}`];
  const cont = Array.isArray(choice) ? choice[1] : (choice as Record<string, unknown>)?.arg_1;
  return typeof cont === "string" ? cont.trim() : null;
}

/**
 * The tool's own verdict of a line: the first of its `metrics` (else `exact_match`, `acc`,
 * `acc_norm`) holding a number or boolean; true when ≥ 1. Null when there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lmEvalVerdict({ metrics: ["exact_match"], exact_match: 1.0 }), true);
 * assert.equal(lmEvalVerdict({ acc: 0 }), false); // a fallback metric
 * assert.equal(lmEvalVerdict({ resps: [["x"]] }), null);
 * ```
 */
export function lmEvalVerdict(line: Record<string, unknown>): boolean | null {
  const names = Array.isArray(line.metrics) ? line.metrics as string[] : [];
  for (const name of [...names, ...VERDICT_FALLBACK_METRICS]) {
    const v = line[name];
    if (typeof v === "boolean") return v;
    if (typeof v === "number" && Number.isFinite(v)) return v >= 1;
  }
  return null;
}

/** One parsed line (or array element) and its 1-based number. */
interface Item {
  line: number;
  value: unknown;
}

/**
 * The rows of one parsed line: one, or one per repeat when `resps[0]` holds several texts (a
 * task with `repeats: N`; epoch = repeat number, and no stored verdict, since the tool's
 * metric scores the filtered answer of all repeats together). Updates `filterCounts`.
 */
function recordsOf(
  s: Record<string, unknown>,
  context: LmEvalFileContext,
  filterCounts: Map<string, number>,
): Record<string, unknown>[] {
  const doc = (s.doc ?? {}) as Record<string, unknown>;
  const k = filterCounts.get(String(s.doc_id)) ?? 0;
  filterCounts.set(String(s.doc_id), k + 1);
  const filtered = Array.isArray(s.filtered_resps) ? s.filtered_resps[0] : s.filtered_resps;
  const metrics = Object.fromEntries(
    (Array.isArray(s.metrics) ? s.metrics as string[] : []).map((m) => [m, s[m]]),
  );
  const base = {
    run: context.run,
    model: context.model,
    benchmark: context.benchmark,
    task: context.task,
    example_index: typeof s.doc_id === "number" ? s.doc_id : asText(s.doc_id),
    input: asText(doc.input),
    target: asText(s.target ?? doc.target),
    response: lmEvalResponse(s),
    epoch: 1,
    lm_eval_task: context.lmEvalTask,
    filter: typeof s.filter === "string" ? s.filter : context.filterNames[k] ?? null,
    filter_index: k,
    tool_extracted: Array.isArray(filtered) ? JSON.stringify(filtered) : asText(filtered),
    tool_metrics: Object.keys(metrics).length > 0 ? metrics : null,
    stored_correct: lmEvalVerdict(s),
  };
  const first = Array.isArray(s.resps) ? s.resps[0] : null;
  if (!Array.isArray(first) || first.length < 2 || !first.every((r) => typeof r === "string")) {
    return [base];
  }
  return first.map((response, i) => ({
    ...base,
    response,
    epoch: i + 1,
    stored_correct: null,
    lm_eval_repeats: first.length,
  }));
}

/** Rows and bad lines of parsed items, appended to `out`. */
function collectItems(
  items: readonly Item[],
  context: LmEvalFileContext,
  filterCounts: Map<string, number>,
  out: { frames: pl.DataFrame[]; bad: RawLog["bad"]; rowsIn: number },
): void {
  const records: Record<string, unknown>[] = [];
  const lines: number[] = [];
  for (const { line, value } of items) {
    if (value === null || typeof value !== "object" || Array.isArray(value)) {
      out.bad.push({ line, reason: "not a JSON object" });
      out.rowsIn++;
      continue;
    }
    for (const record of recordsOf(value as Record<string, unknown>, context, filterCounts)) {
      records.push(record);
      lines.push(line);
    }
  }
  out.rowsIn += records.length;
  if (records.length > 0) out.frames.push(frameFromRecords(records, lines));
}

/** The block's lines parsed one at a time with `JSON.parse`; bad ones go to `out.bad`. */
function collectBlockLines(
  block: LineBlock,
  context: LmEvalFileContext,
  filterCounts: Map<string, number>,
  out: { frames: pl.DataFrame[]; bad: RawLog["bad"]; rowsIn: number },
): void {
  const items: Item[] = [];
  block.lines.forEach((n, i) => {
    if (block.badUtf8.has(n)) {
      out.bad.push({ line: n, reason: NOT_UTF8 });
      out.rowsIn++;
      return;
    }
    let text = decodeLine(block.bytes.subarray(block.starts[i], block.ends[i]));
    if (n === 1) text = text.replace(/^\ufeff/, "");
    try {
      items.push({ line: n, value: JSON.parse(text) });
    } catch (e) {
      out.bad.push({ line: n, reason: jsonLineReason(e, false) });
      out.rowsIn++;
    }
  });
  collectItems(items, context, filterCounts, out);
}

/** The first byte that is not JSON whitespace (or a UTF-8 byte order mark), -1 if none. */
function firstByte(bytes: Uint8Array): number {
  let i = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (i < bytes.length && [0x20, 0x09, 0x0a, 0x0d].includes(bytes[i])) i++;
  return i < bytes.length ? bytes[i] : -1;
}

/** The first 64 KB of a file. */
function head(path: string): Uint8Array {
  const file = Deno.openSync(path, { read: true });
  try {
    const buf = new Uint8Array(65536);
    const n = file.readSync(buf) ?? 0;
    return buf.subarray(0, n);
  } finally {
    file.close();
  }
}

/** A ≤ v0.4.2 file: one JSON array of samples (element numbers stand for line numbers). */
function arrayItems(text: string): Item[] {
  let array: unknown;
  try {
    array = JSON.parse(text.replace(/^\ufeff/, ""));
  } catch (e) {
    throw new Error(`not a JSON array of samples (${(e as Error).message})`);
  }
  if (!Array.isArray(array)) throw new Error("not a JSON array of samples");
  return array.map((value, i) => ({ line: i + 1, value }));
}

/**
 * What every row of a samples file shares, from its name, folder and sibling results file.
 * Throws when the name is not `samples_<task>_<date_id>.json[l]`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const path = "out/org__m/samples_bbeh_zeroshot_nycc_2025-01-25T04-48-43.jsonl";
 * assert.deepEqual(lmEvalFileContext(path), {
 *   benchmark: "bbeh",
 *   task: "nycc",
 *   run: "org__m_2025-01-25T04-48-43",
 *   model: "org__m", // no results_<date_id>.json beside it: the folder
 *   lmEvalTask: "bbeh_zeroshot_nycc",
 *   filterNames: [],
 * });
 * ```
 */
export function lmEvalFileContext(path: string): LmEvalFileContext {
  const name = parseLmEvalFileName(path);
  if (!name) throw new Error("not an lm-eval samples file name (samples_<task>_<date_id>.jsonl)");
  const folder = basename(dirname(path)) || "lm-eval";
  const results = readResults(dirname(path), name.dateId);
  return {
    ...lmEvalTask(name.task),
    run: `${folder}_${name.dateId}`,
    model: results.model ?? folder,
    lmEvalTask: name.task,
    filterNames: results.filters[name.task] ?? [],
  };
}

/** Bytes per block when a samples file is read in blocks. */
export const LM_EVAL_BLOCK_BYTES = 64 * 1024 * 1024;

/**
 * Read one lm-eval samples file. `source` is its content (text or bytes, e.g. decompressed
 * gzip data) when it is not to be read from `path`; `path` still gives the file name
 * conventions and the sibling results file. JSON lines are read in blocks from the bytes (files
 * past V8's string limit work), each block parsed by polars when it has the common shape
 * ({@link lmEvalBlockFrame}), else line by line. Throws when the name is not
 * `samples_<task>_<date_id>.json[l]` or a ≤ v0.4.2 array does not parse; bad lines go to `bad`.
 * `blockBytes` sets the block size (tests use small ones).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = "tests/fixtures/logs/bbh/lm_eval/org__tiny-model";
 * const path = `${dir}/samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.622918.jsonl`;
 * const { frame, bad, rowsIn } = readLmEvalLog(path);
 * assert.deepEqual([rowsIn, frame.height, bad], [5, 5, []]);
 * const extra = JSON.parse(frame.getColumn("extra").get(0));
 * const tool = [extra.filter, extra.tool_extracted, extra.stored_correct];
 * assert.deepEqual(tool, ["get-answer", "(B)", true]);
 * ```
 */
export function readLmEvalLog(
  path: string,
  source?: string | Uint8Array,
  blockBytes: number = LM_EVAL_BLOCK_BYTES,
): RawLog {
  const context = lmEvalFileContext(path);
  const bytes = typeof source === "string" ? new TextEncoder().encode(source) : source;
  if (bytes) rejectUtf16(path, bytes);
  const filterCounts = new Map<string, number>();
  const out = { frames: [] as pl.DataFrame[], bad: [] as RawLog["bad"], rowsIn: 0 };
  let ending: { lastNonBlank: number; endsWithNewline: boolean };
  if (firstByte(bytes ?? head(path)) === 0x5b) { // "[": ≤ v0.4.2
    const text = decodeUtf8(bytes ?? Deno.readFileSync(path));
    collectItems(arrayItems(text), context, filterCounts, out);
    ending = { lastNonBlank: 0, endsWithNewline: true };
  } else {
    const onBlock = (block: LineBlock) => {
      const fast = lmEvalBlockFrame(block, context, filterCounts);
      if (fast) {
        out.frames.push(fast);
        out.rowsIn += fast.height;
      } else collectBlockLines(block, context, filterCounts, out);
    };
    if (bytes) {
      const block = scanBlock(bytes, 1);
      onBlock(block);
      ending = {
        lastNonBlank: block.lines.at(-1) ?? 0,
        endsWithNewline: bytes[bytes.length - 1] === 0x0a,
      };
    } else ending = forEachLineBlock(path, blockBytes, onBlock)!;
  }
  out.bad.sort((a, b) => a.line - b.line); // parse errors and non-objects were collected apart
  const lastBad = out.bad.at(-1);
  if (
    lastBad && lastBad.line === ending.lastNonBlank && !ending.endsWithNewline &&
    lastBad.reason.startsWith("malformed JSON (")
  ) {
    lastBad.reason = TRUNCATED_LAST_LINE;
  }
  for (const b of out.bad) b.run ??= context.run;
  const frame = out.frames.length > 0
    ? pl.concat(out.frames, { how: "vertical" })
    : frameFromRecords([], []);
  return { frame, bad: out.bad, rowsIn: out.rowsIn };
}
