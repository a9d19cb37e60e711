/**
 * The lm-evaluation-harness `--log_samples` source of the streaming path
 * (`<out>/<model_sanitized>/samples_<task>_<date_id>.jsonl`), every generation of the format:
 * ≥ v0.4.7 and May–June 2024 JSON lines (a {@link LineSource}: {@link lmEvalSource}; lines with
 * or without `filter`/`metrics`, `.jsonl` or `.json`), and ≤ v0.4.2 files holding ONE JSON array
 * (a {@link DocumentSource}: {@link lmEvalArraySource}; the line source reads such a file too,
 * whole, in the range that starts at byte 0, so a planner need not tell them apart).
 *
 * Per sample line (or array element), what `lm_eval.ts` reads, as raw JSON values:
 * `task` and `benchmark` = the lm-eval task name of the file name, as written
 * (`bbh_cot_fewshot_snarks`: `pipeline/labels.ts` resolves it), `run` = `<folder>_<date_id>`, `model` = `SourceFile.defaultModel`, else the sibling
 * `results_<date_id>.json`'s model, else the folder; `example_index` = `doc_id`, `input` =
 * `doc.input` (else `doc.question`: tasks whose documents name it so), `target` = `target`
 * (else `doc.target`), `response` = `resps[0][0]` (a
 * {@link Span} when it is a text; a multiple-choice line — `resps[i][0] = [logprob, is_greedy]`
 * — gives the continuation with the highest log-probability, trimmed, as today), `epoch` 1;
 * `resps[0]` holding N ≥ 2 texts (`repeats: N`) gives N records, epochs 1..N, no stored verdict;
 * `stored_correct` = the first of the line's `metrics` (else `exact_match`, `acc`, `acc_norm`)
 * holding a boolean or a finite number (≥ 1: true); `tool_extracted` = `filtered_resps[0]` (a
 * list or object as JSON text); `filter` = the line's `filter`. Lines without `filter` (before
 * v0.4.7) are grouped by filter in the results file's YAML order: when the range is the whole
 * file, their filter is named here by their position among the lines of their doc; otherwise
 * it is left null and the caller names it ({@link assignLmEvalFilters}). The choice of ONE
 * filter per file (`pickLmEvalFilter`) stays with the caller: every line is emitted.
 *
 * Bad lines as in `lines.ts` (the `JSON.parse` message of the line as decoded, CR kept), each
 * counted against the file's run; a line that is not an object → `not a JSON object`. A name
 * that is not `samples_<task>_<date_id>.json[l]` gives records without task (identified from
 * their content) instead of an error. Polars-free.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * import { textOf } from "../record.ts";
 * import type { LogRecord } from "./types.ts";
 * const dir = "tests/fixtures/logs/bbh/lm_eval/org__tiny-model";
 * const path = `${dir}/samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.622918.jsonl`;
 * const file = { id: 0, path, name: path, format: "lm-eval", gzip: false, defaultRun: "x",
 *   size: Deno.statSync(path).size };
 * const records: LogRecord[] = [];
 * lmEvalSource.readRange(file, 0, file.size, { record: (r) => records.push(r), bad: () => {} },
 *   DEFAULT_LIMITS);
 * const r = records[0];
 * assert.deepEqual([r.run, r.model, r.task, r.example_index, r.filter], [
 *   "org__tiny-model_2025-01-25T04-48-43.622918", "org/tiny-model", "bbh_cot_fewshot_snarks", 0,
 *   "get-answer",
 * ]);
 * assert.equal(r.benchmark, r.task); // one label for both, resolved by the pipeline
 * assert.deepEqual([r.stored_correct, r.tool_extracted], [true, "(B)"]);
 * assert.equal(r.pointer?.kind, "span");
 * assert.ok(textOf(r.response)!.length > 0);
 * ```
 * @module
 */
import { basename, dirname, join } from "node:path";
import { isUtf8 } from "node:buffer";
import { invalidUtf8Lines, NOT_UTF8 } from "../../codecs/encoding.ts";
import { E_DEPTH, E_KEYS, scanErrorReason, scanValue, skipValue } from "../../codecs/json_scan.ts";
import type { PointerKind } from "../record.ts";
import {
  isObject,
  JsonLinesReader,
  K_ARRAY,
  K_FALSE,
  K_NULL,
  K_NUMBER,
  K_OBJECT,
  K_STRING,
  K_TRUE,
  MESSAGE_BYTES,
  readJsonLinesBytes,
  readJsonLinesRange,
} from "./lines.ts";
import {
  type DocumentSource,
  FileError,
  type LineSource,
  type LogRecord,
  type RecordSink,
  type SourceFile,
  type SourceLimits,
} from "./types.ts";

/** The parts of a samples file name. */
export interface LmEvalFileName {
  /** The lm-eval task name, e.g. `bbeh_zeroshot_nycc`. */
  task: string;
  /** The invocation id shared with `results_<date_id>.json`. */
  dateId: string;
}

const NAME = /^samples_(.+)_(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.jsonl?$/;

/**
 * Split `samples_<task>_<date_id>.jsonl` (or `.json`); null for other names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const name = parseLmEvalFileName("samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.622918.jsonl");
 * assert.deepEqual(name, { task: "bbh_cot_fewshot_snarks", dateId: "2025-01-25T04-48-43.622918" });
 * ```
 */
export function parseLmEvalFileName(name: string): LmEvalFileName | null {
  const m = NAME.exec(basename(name));
  return m ? { task: m[1], dateId: m[2] } : null;
}

/**
 * The model of an lm-eval run from its results document: `model_name`, else the `pretrained=`
 * (or `model=`) value of `config.model_args`; null if neither.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lmEvalModel({ config: { model_args: "pretrained=org/m,dtype=bf16" } }), "org/m");
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

/** What a samples file's name, folder and sibling results file say about its lines. */
export interface LmEvalFileInfo {
  /** The lm-eval task name (from the file name). */
  lmEvalTask: string;
  dateId: string;
  /** `<folder>_<date_id>`: all task files of one invocation form one run. */
  run: string;
  /** The results file's model, null when it has none (or is missing). */
  model: string | null;
  /** The folder name (the model name as lm-eval sanitised it). */
  folder: string;
  /** The task's filter names in the results file's YAML order (for lines without `filter`). */
  filterNames: string[];
}

/** Results files read, by path (valid while size and mtime hold). */
const resultsCache = new Map<
  string,
  { stamp: string; model: string | null; filters: Record<string, string[]> }
>();

/** Results files larger than this are not read (a results file is a few KB). */
const MAX_RESULTS_BYTES = 64 << 20;

function readResults(dir: string, dateId: string) {
  const path = join(dir, `results_${dateId}.json`);
  const none = { model: null, filters: {} as Record<string, string[]> };
  let stamp: string;
  try {
    const st = Deno.statSync(path);
    if (!st.isFile || st.size > MAX_RESULTS_BYTES) return none;
    stamp = `${st.size}:${st.mtime?.getTime() ?? ""}`;
  } catch {
    return none;
  }
  const known = resultsCache.get(path);
  if (known?.stamp === stamp) return known;
  let doc: Record<string, unknown>;
  try {
    const bytes = Deno.readFileSync(path);
    if (!isUtf8(bytes)) return none;
    doc = JSON.parse(new TextDecoder().decode(bytes));
    if (!isObject(doc)) return none;
  } catch {
    return none;
  }
  const filters: Record<string, string[]> = {};
  const configs = isObject(doc.configs) ? doc.configs : {};
  for (const [task, config] of Object.entries(configs)) {
    const list = isObject(config) && Array.isArray(config.filter_list) ? config.filter_list : [];
    const names = list.map((f) => isObject(f) ? f.name : undefined)
      .filter((n): n is string => typeof n === "string");
    if (names.length > 0) filters[task] = names;
  }
  const info = { stamp, model: lmEvalModel(doc), filters };
  resultsCache.set(path, info);
  return info;
}

/**
 * What every line of the samples file at `path` (its log name: without `.gz`) shares; null
 * when the name is not `samples_<task>_<date_id>.json[l]`. Reads the sibling results file
 * (cached).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const info = lmEvalFileInfo("out/org__m/samples_bbeh_zeroshot_nycc_2025-01-25T04-48-43.jsonl");
 * assert.deepEqual(info, {
 *   lmEvalTask: "bbeh_zeroshot_nycc", dateId: "2025-01-25T04-48-43",
 *   run: "org__m_2025-01-25T04-48-43", model: null, folder: "org__m", filterNames: [],
 * });
 * ```
 */
export function lmEvalFileInfo(path: string): LmEvalFileInfo | null {
  const name = parseLmEvalFileName(path);
  if (!name) return null;
  const folder = basename(dirname(path)) || "lm-eval";
  const results = readResults(dirname(path), name.dateId);
  return {
    lmEvalTask: name.task,
    dateId: name.dateId,
    run: `${folder}_${name.dateId}`,
    model: results.model,
    folder,
    filterNames: results.filters[name.task] ?? [],
  };
}

/**
 * Name the filter of lines without one, as lm-eval wrote them before v0.4.7 (one line per doc
 * and filter, filters in YAML order): a line's filter is `filterNames[k]`, `k` its position
 * among the earlier lines of the same `doc_id` in the file. `records` are one file's records
 * in file order (several records of one line — repeats — count once); records whose `filter`
 * is set are counted but kept. Returns the records with their filters named (the same
 * objects, changed).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const rs = [0, 0, 1].map((id, i) => ({ line: i + 1, example_index: id, filter: null }));
 * assignLmEvalFilters(rs, ["strict-match", "flexible-extract"]);
 * assert.deepEqual(rs.map((r) => r.filter), ["strict-match", "flexible-extract", "strict-match"]);
 * ```
 */
export function assignLmEvalFilters<
  T extends { line: number; example_index?: unknown; filter?: string | null },
>(
  records: T[],
  filterNames: readonly string[],
): T[] {
  const counts = new Map<string, number>();
  let lastLine = -1;
  let k = 0;
  for (const r of records) {
    if (r.line !== lastLine) {
      const key = String(r.example_index);
      k = counts.get(key) ?? 0;
      counts.set(key, k + 1);
      lastLine = r.line;
    }
    if (r.filter === null || r.filter === undefined) r.filter = filterNames[k] ?? null;
  }
  return records;
}

const enc = new TextEncoder();
const K = {
  doc_id: enc.encode("doc_id"),
  doc: enc.encode("doc"),
  input: enc.encode("input"),
  question: enc.encode("question"),
  target: enc.encode("target"),
  resps: enc.encode("resps"),
  filtered_resps: enc.encode("filtered_resps"),
  filter: enc.encode("filter"),
  metrics: enc.encode("metrics"),
};

/**
 * The metrics the verdict is read from after the line's own `metrics`.
 *
 * @example
 * ```ts
 * VERDICT_FALLBACK_METRICS[0]; // "exact_match"
 * ```
 */
export const VERDICT_FALLBACK_METRICS = ["exact_match", "acc", "acc_norm"] as const;

/** What the records of one file share. */
interface Context {
  run: string;
  model: string;
  benchmark: string | undefined;
  task: string | undefined;
  filterNames: readonly string[];
}

function contextOf(file: SourceFile): Context {
  const info = lmEvalFileInfo(file.name);
  if (!info) {
    return {
      run: file.defaultRun,
      model: file.defaultModel ?? file.defaultRun,
      benchmark: undefined,
      task: undefined,
      filterNames: [],
    };
  }
  return {
    run: info.run,
    model: file.defaultModel ?? info.model ?? info.folder,
    benchmark: info.lmEvalTask,
    task: info.lmEvalTask,
    filterNames: info.filterNames,
  };
}

/**
 * The raw response of a parsed sample (`lm_eval.ts`'s `lmEvalResponse`, values kept raw):
 * `resps[0][0]` (or `resps[0]`); a multiple-choice line's best continuation, trimmed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const choice = {
 *   resps: [[["-2.5", "False"]], [["-0.5", "False"]]],
 *   arguments: { gen_args_0: { arg_1: " no" }, gen_args_1: { arg_1: " yes" } },
 * };
 * assert.equal(lmEvalResponseValue(choice), "yes");
 * assert.equal(lmEvalResponseValue({ resps: [[7]] }), 7);
 * ```
 */
export function lmEvalResponseValue(line: Record<string, unknown>): unknown {
  const resps = line.resps;
  if (!Array.isArray(resps) || resps.length === 0) return null;
  const first = Array.isArray(resps[0]) ? resps[0][0] : resps[0];
  if (!Array.isArray(first)) return first ?? null;
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

/** The tool's verdict of a parsed sample (`lmEvalVerdict`). */
function verdictOf(line: Record<string, unknown>): boolean | null {
  const names = Array.isArray(line.metrics) ? line.metrics : [];
  for (const name of [...names, ...VERDICT_FALLBACK_METRICS]) {
    const key = String(name);
    const v = Object.hasOwn(line, key) ? line[key] : undefined;
    if (typeof v === "boolean") return v;
    if (typeof v === "number" && Number.isFinite(v)) return v >= 1;
  }
  return null;
}

/** `filtered_resps[0]` (or `filtered_resps`) as text: a list or object as JSON. */
function extractedOf(v: unknown): string | null {
  const filtered = Array.isArray(v) ? v[0] : v;
  if (filtered === null || filtered === undefined) return null;
  return typeof filtered === "string" ? filtered : JSON.stringify(filtered);
}

/**
 * Reads lm-eval sample lines (or array elements); `slow`: every line through `JSON.parse`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * const file = { id: 0, path: "s.json", name: "samples_bbh_zeroshot_snarks_2024-01-01T00-00-00.json",
 *   format: "lm-eval", gzip: false, defaultRun: "x", size: 0 };
 * const epochs: unknown[] = [];
 * const reader = new LmEvalReader(file, { record: (r) => epochs.push(r.epoch), bad: () => {} },
 *   DEFAULT_LIMITS);
 * reader.readArray(new TextEncoder().encode('[{"doc_id": 0, "resps": [["a", "b"]]}]'));
 * assert.deepEqual(epochs, [1, 2]); // repeats
 * ```
 */
export class LmEvalReader extends JsonLinesReader {
  readonly context: Context;
  /** Name the filters of lines without one (the reader sees the whole file). */
  assignFilters = false;
  #counts = new Map<string, number>();
  #keys = new Map<string, Uint8Array>();

  constructor(
    file: SourceFile,
    sink: RecordSink,
    limits: SourceLimits,
    pointerKind: PointerKind = file.gzip ? "gz-span" : "span",
    readonly slow = false,
  ) {
    super(file, sink, limits, pointerKind);
    this.stripCr = false;
    this.context = contextOf(file);
  }

  protected override badRun(): string {
    return this.context.run;
  }

  #notObject(line: number): void {
    this.bad(line, "not a JSON object", this.context.run);
  }

  /** The filter of a line: its own, else (whole file) the one its position names. */
  #filter(own: string | null, docId: unknown): string | null {
    if (!this.assignFilters) return own;
    const key = String(docId);
    const k = this.#counts.get(key) ?? 0;
    this.#counts.set(key, k + 1);
    return own ?? this.context.filterNames[k] ?? null;
  }

  #key(name: string): Uint8Array {
    let k = this.#keys.get(name);
    if (!k) this.#keys.set(name, k = enc.encode(name));
    return k;
  }

  protected onValue(line: number): void {
    if (this.slow) return this.onParsed(line, this.parsed());
    const tape = this.tape;
    if (tape.rootKind !== K_OBJECT) return this.#notObject(line);
    // the response(s): resps[0][0], resps[0] holding repeats, or other shapes
    const respsE = this.member(K.resps, "resps");
    let respE = -1;
    let respValue: unknown = null;
    let repeats: number[] | null = null;
    if (this.kind(respsE) === K_ARRAY) {
      const first = this.element(respsE, 0);
      const fk = this.kind(first);
      if (fk === K_ARRAY) {
        const f0 = this.element(first, 0);
        const k0 = this.kind(f0);
        if (k0 === K_ARRAY) return this.onParsed(line, this.parsed()); // multiple choice
        if (k0 === K_STRING) {
          respE = f0;
          const texts = [f0];
          let allText = true;
          for (let i = 1;; i++) {
            const el = this.element(first, i);
            if (el < 0) break;
            if (this.kind(el) !== K_STRING) allText = false;
            texts.push(el);
          }
          if (texts.length >= 2 && allText) repeats = texts;
        } else respValue = this.value(f0) ?? null;
      } else if (fk === K_STRING) respE = first;
      else if (first >= 0) respValue = this.value(first);
    }
    const docE = this.member(K.doc, "doc");
    const docIsObject = this.kind(docE) === K_OBJECT;
    const idE = this.member(K.doc_id, "doc_id");
    const docId = this.value(idE);
    const inputE = docIsObject ? this.member(K.input, "input", docE) : -1;
    const input = inputE >= 0
      ? this.value(inputE)
      : docIsObject
      ? this.value(this.member(K.question, "question", docE))
      : undefined;
    let targetE = this.member(K.target, "target");
    if (targetE < 0 || this.kind(targetE) === K_NULL) {
      targetE = docIsObject ? this.member(K.target, "target", docE) : -1;
    }
    const target = this.value(targetE);
    const filterE = this.member(K.filter, "filter");
    const filter = this.#filter(this.kind(filterE) === K_STRING ? this.text(filterE) : null, docId);
    const frE = this.member(K.filtered_resps, "filtered_resps");
    const fE = this.kind(frE) === K_ARRAY ? this.element(frE, 0) : frE;
    const fk = this.kind(fE);
    const toolExtracted = fE < 0 || fk === K_NULL
      ? null
      : fk === K_STRING
      ? this.text(fE)
      : JSON.stringify(this.value(fE));
    const c = this.context;
    const record = (response: unknown, e: number, epoch: number, stored: boolean | null) => {
      const r: LogRecord = {
        line,
        run: c.run,
        model: c.model,
        benchmark: c.benchmark,
        task: c.task,
        example_index: docId,
        input,
        target,
        response,
        epoch,
        stored_correct: stored,
        tool_extracted: toolExtracted,
        filter,
      };
      if (e >= 0) r.pointer = this.pointer(e);
      this.emit(r);
    };
    if (repeats) {
      for (let i = 0; i < repeats.length; i++) {
        record(this.spanOrValue(repeats[i]), repeats[i], i + 1, null);
      }
    } else if (respE >= 0) record(this.spanOrValue(respE), respE, 1, this.#verdict());
    else record(respValue, -1, 1, this.#verdict());
  }

  /** The line's own verdict (tape). */
  #verdict(): boolean | null {
    const metricsE = this.member(K.metrics, "metrics");
    const names: string[] = [];
    if (this.kind(metricsE) === K_ARRAY) {
      for (let i = 0;; i++) {
        const el = this.element(metricsE, i);
        if (el < 0) break;
        names.push(this.kind(el) === K_STRING ? this.text(el) : String(this.value(el)));
      }
    }
    for (const name of [...names, ...VERDICT_FALLBACK_METRICS]) {
      const e = this.member(this.#key(name), name);
      const k = this.kind(e);
      if (k === K_TRUE) return true;
      if (k === K_FALSE) return false;
      if (k === K_NUMBER) {
        const v = Number(this.raw(e));
        if (Number.isFinite(v)) return v >= 1;
      }
    }
    return null;
  }

  protected onParsed(line: number, value: unknown): void {
    if (!isObject(value)) return this.#notObject(line);
    const s = value;
    const doc = isObject(s.doc) ? s.doc : {};
    const own = (o: Record<string, unknown>, k: string) => Object.hasOwn(o, k) ? o[k] : undefined;
    const c = this.context;
    const docId = own(s, "doc_id");
    const top = own(s, "target");
    const filterValue = own(s, "filter");
    const r: LogRecord = {
      line,
      run: c.run,
      model: c.model,
      benchmark: c.benchmark,
      task: c.task,
      example_index: docId,
      input: own(doc, "input") ?? own(doc, "question"),
      target: top ?? own(doc, "target"),
      response: lmEvalResponseValue(s),
      epoch: 1,
      stored_correct: verdictOf(s),
      tool_extracted: extractedOf(own(s, "filtered_resps")),
      filter: this.#filter(typeof filterValue === "string" ? filterValue : null, docId),
    };
    const first = Array.isArray(s.resps) ? s.resps[0] : null;
    if (!Array.isArray(first) || first.length < 2 || !first.every((t) => typeof t === "string")) {
      return this.emit(r);
    }
    first.forEach((response, i) =>
      this.emit({ ...r, response, epoch: i + 1, stored_correct: null })
    );
  }

  /**
   * Read a ≤ v0.4.2 samples file: `bytes` holding one JSON array (a byte order mark allowed);
   * element `i` is "line" `i + 1`. An element past a limit is quarantined; anything else that
   * is not a JSON array of values is a {@link FileError}.
   */
  readArray(bytes: Uint8Array): void {
    const path = this.file.path;
    const fail = (detail: string) => {
      throw new FileError(path, `lm-eval log: not a JSON array of samples${detail}`);
    };
    if (!isUtf8(bytes)) {
      const [line] = invalidUtf8Lines(bytes);
      throw new FileError(path, `lm-eval log: line ${line} is ${NOT_UTF8}`);
    }
    const message = () => {
      if (bytes.length > MESSAGE_BYTES * 4) return fail("");
      const text = new TextDecoder().decode(bytes).replace(/^\ufeff/, "");
      try {
        JSON.parse(text);
      } catch (e) {
        return fail(` (${(e as Error).message})`);
      }
      return fail("");
    };
    const end = bytes.length;
    const ws = (p: number) => {
      while (
        p < end &&
        (bytes[p] === 0x20 || bytes[p] === 0x09 || bytes[p] === 0x0a || bytes[p] === 0x0d)
      ) p++;
      return p;
    };
    let p = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    p = ws(p);
    if (bytes[p] !== 0x5b) return message();
    p = ws(p + 1);
    const { maxDepth, maxKeys } = this.limits;
    if (bytes[p] === 0x5d) p++;
    else {
      for (let line = 1;; line++) {
        const q = scanValue(bytes, p, end, this.tape, maxDepth - 1, maxKeys);
        if (q >= 0) this.handle(bytes, ws(p), q, 0, line);
        else {
          const error = this.tape.error;
          if (q === -2 || (error !== E_DEPTH && error !== E_KEYS)) return message();
          if (error === E_DEPTH) this.tape.errorLimit = maxDepth;
          this.bad(line, scanErrorReason(this.tape, p), this.context.run);
          const skipped = skipValue(bytes, p, end);
          if (skipped < 0) return message();
          p = skipped;
        }
        if (q >= 0) p = q;
        p = ws(p);
        if (bytes[p] === 0x2c) {
          p = ws(p + 1);
          continue;
        }
        if (bytes[p] === 0x5d) {
          p++;
          break;
        }
        return message();
      }
    }
    if (ws(p) !== end) return message();
    this.finish({ lines: 0, unterminatedLast: false }, () => false);
  }
}

/**
 * Whether the bytes of a samples file (its first 64 KiB suffice) start, after a byte order
 * mark and whitespace, with `[`: a ≤ v0.4.2 file, read whole.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isArrayFile(new TextEncoder().encode('\ufeff\n [{"doc_id": 0}]')), true);
 * assert.equal(isArrayFile(new TextEncoder().encode('{"doc_id": 0}\n')), false);
 * ```
 */
export function isArrayFile(head: Uint8Array): boolean {
  let i = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  while (i < head.length && [0x20, 0x09, 0x0a, 0x0d].includes(head[i])) i++;
  return head[i] === 0x5b;
}

/**
 * Whether the samples file at `path` is a ≤ v0.4.2 one (a JSON array): its first byte that is
 * not whitespace (after a byte order mark) is `[`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const path = Deno.makeTempFileSync({ suffix: ".jsonl" });
 * Deno.writeTextFileSync(path, '\n  [{"doc_id": 0}]');
 * assert.equal(isLmEvalArrayFile(path), true);
 * Deno.removeSync(path);
 * ```
 */
export function isLmEvalArrayFile(path: string): boolean {
  const file = Deno.openSync(path, { read: true });
  try {
    const head = new Uint8Array(1 << 16);
    let n = 0;
    for (;;) {
      const got = file.readSync(head.subarray(n)) ?? 0;
      if (got === 0) break;
      n += got;
      let i = 0;
      while (i < n && [0x20, 0x09, 0x0a, 0x0d, 0xef, 0xbb, 0xbf].includes(head[i])) i++;
      if (i < n || n === head.length) break;
    }
    return isArrayFile(head.subarray(0, n));
  } finally {
    file.close();
  }
}

function readWhole(path: string): Uint8Array {
  try {
    return Deno.readFileSync(path);
  } catch (e) {
    throw new FileError(path, `cannot read (${(e as Error).message})`);
  }
}

/**
 * lm-eval JSON lines (and, whole in the range starting at byte 0, ≤ v0.4.2 arrays).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lmEvalSource.kind, "lines");
 * ```
 */
export const lmEvalSource: LineSource = {
  kind: "lines",
  readRange(file, start, end, sink, limits) {
    let array: boolean;
    try {
      array = isLmEvalArrayFile(file.path);
    } catch (e) {
      throw new FileError(file.path, `cannot read (${(e as Error).message})`);
    }
    if (array) {
      if (start === 0) lmEvalArraySource.read(file, sink, limits);
      return { lines: 0, unterminatedLast: false };
    }
    const reader = new LmEvalReader(file, sink, limits, "span");
    reader.assignFilters = start === 0 && end >= file.size;
    return readJsonLinesRange(reader, start, end);
  },
};

/**
 * ≤ v0.4.2 samples files: one JSON array, read whole.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * const dir = Deno.makeTempDirSync();
 * const path = `${dir}/samples_bbh_zeroshot_snarks_2024-01-01T00-00-00.jsonl`;
 * Deno.writeTextFileSync(path, '[\n {"doc_id": 0, "resps": [["(A)"]]},\n 5\n]');
 * const file = { id: 0, path, name: path, format: "lm-eval", gzip: false, defaultRun: "x", size: 0 };
 * const got: unknown[] = [];
 * lmEvalArraySource.read(file, { record: (r) => got.push(r.line), bad: (b) => got.push(b.reason) },
 *   DEFAULT_LIMITS);
 * assert.deepEqual(got, [1, "not a JSON object"]);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export const lmEvalArraySource: DocumentSource = {
  kind: "document",
  read(file, sink, limits) {
    const reader = new LmEvalReader(file, sink, limits, "span");
    reader.assignFilters = true;
    reader.readArray(readWhole(file.path));
  },
};

/**
 * Read an lm-eval samples file held in memory (e.g. decompressed gzip data; pointer kind
 * `gz-span`, offsets into `bytes`): JSON lines or a ≤ v0.4.2 array, the whole file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * const file = { id: 0, path: "s.jsonl.gz", name: "samples_bbh_zeroshot_snarks_2024-01-01T00-00-00.jsonl",
 *   format: "lm-eval", gzip: true, defaultRun: "x", size: 0 };
 * const got: unknown[] = [];
 * const bytes = new TextEncoder().encode('{"doc_id": 0, "resps": [["(A)"]]}\n');
 * readLmEvalBytes(file, bytes, { record: (r) => got.push(r.task), bad: () => {} }, DEFAULT_LIMITS);
 * assert.deepEqual(got, ["bbh_zeroshot_snarks"]); // the task name as written
 * ```
 */
export function readLmEvalBytes(
  file: SourceFile,
  bytes: Uint8Array,
  sink: RecordSink,
  limits: SourceLimits,
  pointerKind: PointerKind = "gz-span",
): void {
  const reader = new LmEvalReader(file, sink, limits, pointerKind);
  reader.assignFilters = true;
  if (isArrayFile(bytes.subarray(0, 1 << 16))) reader.readArray(bytes);
  else readJsonLinesBytes(reader, bytes);
}
