/**
 * Check: the format-independent rules every record of every log passes before a data set is
 * consulted — the same rules, reasons and order for all formats. A record is quarantined when
 * (in this order) a field holds a list or an object, an identifier (`run`, `model`,
 * `benchmark`, `task`; whitespace around it is dropped, and one of only whitespace is absent)
 * holds a control character or a lone surrogate (it would name a different run or task than
 * the log wrote, or break a table), it has no response, a response
 * over {@link MAX_RESPONSE_CHARS} characters, an `example_index` that is not an integer, neither
 * `example_index` nor `input`, an `epoch` that is not a positive integer, or
 * `response_tokens` that are not a non-negative integer, or any of the three beyond
 * {@link MAX_ROW_INT} (rows keep them as 32-bit integers). A record without a task passes: its
 * task is found from its question (`examples.ts`). Defaults: `run` = the record's `model` when
 * its file takes runs from models (`SourceFile.runFromModel`), else the file's default run;
 * `model` = the run; `epoch` = 1. Integers may be written `5`, `5.0`, `"5"` or `"+5"`.
 * A benchmark's record fields ({@link CheckOptions.parsers}) are then normalised by their
 * `parse` (its error is the reason), `example_id` and `subset` must be text; a record of a
 * benchmark whose rows may lack a response ({@link CheckOptions.nullResponse}) keeps a null one.
 * Polars-free (scoring Workers run it).
 *
 * @example
 * ```ts
 * const ok = checkRecord({ line: 1, task: "nycc", example_index: "7", response: "x" }, "run_a");
 * ok.ok && ok.record.example_index; // 7
 * const bad = checkRecord({ line: 2, task: "nycc", response: "x" }, "run_a");
 * // (no task is fine: it is found from the question)
 * !bad.ok && bad.reason; // "neither example_index nor input given"
 * ```
 * @module
 */
import { PY_WHITESPACE } from "../core/python.ts";
import { isSpan, type LogRecord, RECORD_FIELDS, textOf } from "../logs/record.ts";
import { quoteValue } from "../logs/quarantine.ts";
import { MAX_RESPONSE_CHARS } from "../logs/limits.ts";
import { count } from "../core/count.ts";
import type { ModelRuns } from "../logs/sources/types.ts";
import type { RunFrom } from "./compact.ts";

/** Responses longer than this are quarantined (`logs/limits.ts`). */
export { MAX_RESPONSE_CHARS };

/** A record that passed: typed fields, defaults applied. */
export interface CheckedRecord {
  line: number;
  run: string;
  /** Where the run came from: the record's `run` field, its `model` field, or the file. */
  runFrom: RunFrom;
  /**
   * The records among which identical questions are handed out in file order
   * (`examples.ts`): the run's, or for a run a `model` field names by default, the model's
   * within the file's default run — merge may keep those files apart (`run_names.ts`).
   */
  group: string;
  model: string;
  /** The benchmark label as written (trimmed, lower-cased), null when absent. */
  benchmark: string | null;
  /** The task label as written; "" when absent or blank (found from the question). */
  task: string;
  example_index: number | null;
  input: string | null;
  target: string | null;
  /** The response: text, or a span of the line's bytes (decoded when needed). */
  response: LogRecord["response"];
  /** Python `len` of the response. */
  chars: number;
  /** UTF-8 length of the response. */
  bytes: number;
  response_tokens: number | null;
  epoch: number;
  stored_correct: boolean | null;
  tool_extracted: string | null;
  filter: string | null;
  /** The record's own id (a record field; benchmarks tied by id); absent: null. */
  example_id?: string | null;
  /** A label of a part of the task (a record field); absent: null. */
  subset?: string | null;
  /** The other record fields, parsed; absent or null: none. */
  fields?: Record<string, unknown> | null;
}

/** How {@link checkRecord} treats a benchmark's own record fields. */
export interface CheckOptions {
  /** Record field (slot) → its `parse`: the value normalised, or a throw (the reason). */
  parsers?: ReadonlyMap<string, (value: unknown) => unknown>;
  /**
   * Whether a record without a response is a row: asked with the benchmark the record names
   * (lower-cased, null when none). Absent: never (quarantined, "missing response").
   */
  nullResponse?: (benchmark: string | null) => boolean;
}

/** The outcome of {@link checkRecord}. */
export type Checked =
  | { ok: true; record: CheckedRecord }
  | { ok: false; run: string; runFrom: RunFrom; reason: string };

const WS = new RegExp(`^[${escapeClass(PY_WHITESPACE)}]*$`);
const TRIM = new RegExp(`^[${escapeClass(PY_WHITESPACE)}]+|[${escapeClass(PY_WHITESPACE)}]+$`, "g");
const INT = /^[+-]?[0-9]+(\.0*)?$/;

function escapeClass(chars: string): string {
  return [...chars].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`).join("");
}

/** Blank: null, absent, or only Python whitespace. */
const isBlank = (t: string | null | undefined) => t === null || t === undefined || WS.test(t);

/**
 * The largest integer a row keeps: `example_index`, `epoch` and `response_tokens` are Int32
 * columns (`core/schema.ts`); a larger value would wrap around silently, so it is quarantined.
 */
export const MAX_ROW_INT = 2 ** 31 - 1;

/** A JSON number that is a safe integer, as it is (the common case: no text round trip). */
const safeInt = (v: unknown): number | null =>
  typeof v === "number" && Number.isSafeInteger(v) ? v : null;

/** An integer written as text (`5`, `5.0`, `+5`), or null when the text is not one. */
function intOf(text: string): number | null {
  const t = text.replace(TRIM, "");
  if (!INT.test(t)) return null;
  const n = Number(t.replace(/\.0*$/, ""));
  return Number.isSafeInteger(n) ? n : null;
}

const enc = new TextEncoder();

/** Python `len` and UTF-8 length of a text. */
function lengths(text: string): { chars: number; bytes: number } {
  let chars = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // a surrogate pair is one code point; a lone surrogate counts as one too
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    chars++;
  }
  return { chars, bytes: enc.encode(text).length };
}

/** Stands in for the text of a response span, which the check does not need. */
const UNDECODED = "";

/**
 * Check one record of a file whose records default to run `defaultRun` (or, with
 * `runFromModel`, to their `model` when they name one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * checkRecord({ line: 1, task: ["nycc"], response: "x", example_index: 0 }, "r");
 * // { ok: false, run: "r", runFrom: "default", reason: 'field "task" holds a list, not text' }
 * const rec = { line: 2, task: "nycc", example_index: 0, response: "x", model: "llama" };
 * const byModel = checkRecord(rec, "seed1", "auto");
 * assert.ok(byModel.ok);
 * assert.deepEqual([byModel.record.run, byModel.record.runFrom], ["llama", "model"]);
 * assert.equal(byModel.record.group, "llama\u0000seed1"); // hand-outs per file until merge
 * const byFile = checkRecord(rec, "seed1");
 * assert.ok(byFile.ok && byFile.record.run === "seed1" && byFile.record.model === "llama");
 * ```
 */
export function checkRecord(
  r: LogRecord,
  defaultRun: string,
  runFromModel: ModelRuns | null = null,
  options: CheckOptions = {},
): Checked {
  const texts = fieldTexts(r);
  if (typeof texts === "string") return notText(r, texts, defaultRun, runFromModel);
  for (const f of IDENTIFIERS) texts[f] = trimIdentifier(texts[f]);
  const named = runOf(texts.run, runFromModel ? texts.model : null, defaultRun);
  const odd = oddIdentifier(texts);
  if (odd !== null) {
    return { ok: false, ...oddRun(odd.field, named, defaultRun), reason: odd.reason };
  }
  const fail = (reason: string): Checked => ({ ok: false, ...named, reason });
  if (texts.response === null && !nullAllowed(texts.benchmark, options)) {
    return fail("missing response");
  }
  const len = isSpan(r.response)
    ? { chars: r.response.chars, bytes: r.response.utf8Bytes }
    : lengths(texts.response ?? "");
  if (len.chars > MAX_RESPONSE_CHARS) return fail(tooLong(len.chars));
  const ints = integerFields(r, texts);
  if (typeof ints === "string") return fail(ints);
  const own = r.example_id !== undefined || r.subset !== undefined || r.fields !== undefined
    ? recordFields(r, options.parsers)
    : NO_FIELDS;
  if (typeof own === "string") return fail(own);
  // a run its `model` field names by default hands out questions per model within the file's
  // default run: merge may keep such files apart (`run_names.ts`)
  const group = named.runFrom === "model" && runFromModel === "auto"
    ? `${named.run}\u0000${defaultRun}`
    : named.run;
  return {
    ok: true,
    record: { ...checkedRecord(r, texts, { ...named, group }, len, ints), ...own },
  };
}

/** A record's own fields: none (the usual case). */
const NO_FIELDS = { example_id: null, subset: null, fields: null } as const;

/** Whether a record without a response is kept, by the benchmark it names. */
function nullAllowed(benchmark: string | null, options: CheckOptions): boolean {
  if (!options.nullResponse) return false;
  return options.nullResponse(
    isBlank(benchmark) ? null : benchmark!.replace(TRIM, "").toLowerCase(),
  );
}

/**
 * A record's `example_id`, `subset` and other record fields, each parsed by its benchmark's
 * `parse` when it has one; or the reason one is not acceptable.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const parsers = new Map([["level", (v: unknown) => {
 *   if (typeof v !== "number") throw new Error(`level ${JSON.stringify(v)} is not a number`);
 *   return v;
 * }]]);
 * assert.deepEqual(recordFields({ line: 1, example_id: 7, fields: { level: 2 } }, parsers),
 *   { example_id: "7", subset: null, fields: { level: 2 } });
 * assert.equal(recordFields({ line: 1, fields: { level: "x" } }, parsers), 'level "x" is not a number');
 * assert.equal(recordFields({ line: 1, subset: ["a"] }), 'field "subset" holds a list, not text');
 * ```
 */
export function recordFields(
  r: LogRecord,
  parsers: ReadonlyMap<string, (value: unknown) => unknown> = new Map(),
): Pick<CheckedRecord, "example_id" | "subset" | "fields"> | string {
  const parse = (slot: string, v: unknown) => {
    const p = parsers.get(slot);
    return p ? p(v) : v;
  };
  const out: Pick<CheckedRecord, "example_id" | "subset" | "fields"> = { ...NO_FIELDS };
  try {
    for (const slot of ["example_id", "subset"] as const) {
      if (r[slot] === undefined || r[slot] === null) continue;
      const t = textOf(parse(slot, r[slot]));
      if (t === undefined) {
        return `field "${slot}" holds ${Array.isArray(r[slot]) ? "a list" : "an object"}, not text`;
      }
      out[slot] = trimIdentifier(t);
    }
    if (r.fields) {
      out.fields = {};
      for (const [slot, v] of Object.entries(r.fields)) out.fields[slot] = parse(slot, v) ?? null;
    }
  } catch (e) {
    return (e as Error).message;
  }
  return out;
}

/** A record's fields as text (null: absent). */
type Texts = Record<string, string | null>;

/** The run a record is counted under, where it came from, and its hand-out group. */
interface Named {
  run: string;
  runFrom: RunFrom;
  group: string;
}

/** A record's integer fields, checked. */
interface Integers {
  example_index: number | null;
  epoch: number;
  response_tokens: number | null;
}

/** Each field of the record as text, or the name of the first that holds a list or an object. */
function fieldTexts(r: LogRecord): Texts | (typeof RECORD_FIELDS)[number] {
  const texts: Texts = {};
  for (const f of RECORD_FIELDS) {
    // a response span is checked by its lengths; decoding it here would cost a third of the
    // record's time, and a scorer that works on the bytes never needs the text
    const t = f === "response" && isSpan(r.response) ? UNDECODED : textOf(r[f]);
    if (t === undefined) return f;
    texts[f] = t;
  }
  return texts;
}

/**
 * A record whose `field` is not text: quarantined under the run its own `run` (or `model`)
 * field names when that one is text, so that the run's counts still hold it.
 */
function notText(
  r: LogRecord,
  field: (typeof RECORD_FIELDS)[number],
  defaultRun: string,
  runFromModel: ModelRuns | null,
): Checked {
  const model = runFromModel ? trimIdentifier(textOf(r.model)) : null;
  const named = runOf(trimIdentifier(textOf(r.run)), model, defaultRun);
  const kind = Array.isArray(r[field]) ? "a list" : "an object";
  return { ok: false, ...named, reason: `field "${field}" holds ${kind}, not text` };
}

/**
 * The run of a record quarantined for an odd identifier: the file's default run when that
 * identifier is the one naming the run (it cannot name one), else the run named.
 */
function oddRun(
  field: string,
  named: { run: string; runFrom: RunFrom },
  defaultRun: string,
): { run: string; runFrom: RunFrom } {
  const own = field === "run" || (field === "model" && named.runFrom === "model");
  return own ? { run: defaultRun, runFrom: "default" } : named;
}

/** The reason a response of `chars` characters (over the limit) is not scored. */
function tooLong(chars: number): string {
  return `response of ${count(chars)} characters is longer than ` +
    `${count(MAX_RESPONSE_CHARS)} (over 10 MB: a runaway generation?); ` +
    "not scored";
}

/**
 * `example_index`, `epoch` (default 1) and `response_tokens` as integers, or the reason one is
 * not: a JSON integer is taken as it is, text is parsed (`5`, `5.0`, `"+5"`). Without an index
 * the record needs its `input` (its example is found from the question).
 */
function integerFields(r: LogRecord, texts: Texts): Integers | string {
  const index = safeInt(r.example_index) ??
    (texts.example_index === null ? null : intOf(texts.example_index));
  if (texts.example_index !== null && index === null) {
    return `example_index ${quoteValue(texts.example_index)} is not an integer`;
  }
  if (index !== null && Math.abs(index) > MAX_ROW_INT) {
    return outOfRange("example_index", texts.example_index, 0);
  }
  // a record tied by id (a benchmark's record field) needs neither
  const id = r.example_id !== undefined && r.example_id !== null;
  if (index === null && texts.input === null && !id) return "neither example_index nor input given";
  const epoch = safeInt(r.epoch) ?? (texts.epoch === null ? 1 : intOf(texts.epoch));
  if (epoch === null || epoch <= 0) {
    return `epoch ${quoteValue(texts.epoch)} is not a positive integer`;
  }
  if (epoch > MAX_ROW_INT) return outOfRange("epoch", texts.epoch, 1);
  const tokens = texts.response_tokens === null ? null : intOf(texts.response_tokens);
  if (texts.response_tokens !== null && (tokens === null || tokens < 0)) {
    return `response_tokens ${quoteValue(texts.response_tokens)} is not a non-negative integer`;
  }
  if (tokens !== null && tokens > MAX_ROW_INT) {
    return outOfRange("response_tokens", texts.response_tokens, 0);
  }
  return { example_index: index, epoch, response_tokens: tokens };
}

/** The reason an integer field is beyond what a row keeps ({@link MAX_ROW_INT}). */
function outOfRange(field: string, text: string | null, low: number): string {
  return `${field} ${quoteValue(text)} is out of range (${low}–${count(MAX_ROW_INT)})`;
}

/** The record that passed: typed fields, blank identifiers given their defaults. */
function checkedRecord(
  r: LogRecord,
  texts: Texts,
  named: Named,
  len: { chars: number; bytes: number },
  ints: Integers,
): CheckedRecord {
  return {
    line: r.line,
    run: named.run,
    runFrom: named.runFrom,
    group: named.group,
    model: isBlank(texts.model) ? named.run : texts.model!,
    benchmark: isBlank(texts.benchmark) ? null : texts.benchmark!.replace(TRIM, "").toLowerCase(),
    task: isBlank(texts.task) ? "" : texts.task!,
    example_index: ints.example_index,
    input: texts.input,
    target: texts.target,
    response: isSpan(r.response) ? r.response : texts.response,
    chars: len.chars,
    bytes: len.bytes,
    response_tokens: ints.response_tokens,
    epoch: ints.epoch,
    stored_correct: r.stored_correct ?? null,
    tool_extracted: r.tool_extracted ?? null,
    filter: r.filter ?? null,
  };
}

/**
 * An identifier without the whitespace around it (`"gpt-4o\n"` is `gpt-4o`; only whitespace
 * inside it is kept, and a control character there quarantines the record); null when it
 * holds nothing else (as absent).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(trimIdentifier(" gpt-4o\t\n"), "gpt-4o");
 * assert.equal(trimIdentifier("gpt-4o"), "gpt-4o");
 * assert.equal(trimIdentifier(" \n "), null);
 * assert.equal(trimIdentifier("a\nb"), "a\nb"); // inside: kept (and quarantined by the check)
 * ```
 */
export function trimIdentifier<T extends string | null | undefined>(text: T): T | null {
  if (text === null || text === undefined) return text;
  const first = text.charCodeAt(0);
  const last = text.charCodeAt(text.length - 1);
  // the usual identifier starts and ends with a printable ASCII character: no regex
  if (first > 0x20 && first < 0x7f && last > 0x20 && last < 0x7f) return text;
  const trimmed = text.replace(TRIM, "");
  return (trimmed === "" ? null : trimmed) as T;
}

/** Identifier fields, which name runs, models, benchmarks and tasks in every table. */
const IDENTIFIERS = ["run", "model", "benchmark", "task"] as const;
// C0 controls, DEL, and a surrogate that is not half of a pair
const ODD =
  // deno-lint-ignore no-control-regex
  /[\u0000-\u001f\u007f]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * The first identifier holding a control character or a lone surrogate, with the reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(oddIdentifier({ task: "nycc\u0000" })?.reason,
 *   'field "task" holds a control character (U+0000)');
 * assert.equal(oddIdentifier({ run: "a\ud800" })?.reason,
 *   'field "run" holds a lone surrogate (U+D800), not text');
 * assert.equal(oddIdentifier({ model: "ok 🙂", task: "nycc" }), null);
 * ```
 */
export function oddIdentifier(
  texts: Readonly<Record<string, string | null | undefined>>,
): { field: string; reason: string } | null {
  for (const field of IDENTIFIERS) {
    const m = oddMatch(texts[field]);
    if (!m) continue;
    const code = "U+" + m[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, "0");
    const what = m[0] >= "\ud800"
      ? `a lone surrogate (${code}), not text`
      : `a control character (${code})`;
    return { field, reason: `field "${field}" holds ${what}` };
  }
  return null;
}

const oddSeen = new Map<string, RegExpMatchArray | null>();

/** `text.match(ODD)`, remembered per text: logs repeat a few identifiers on every row. */
function oddMatch(text: string | null | undefined): RegExpMatchArray | null {
  if (text === null || text === undefined) return null;
  let m = oddSeen.get(text);
  if (m === undefined) {
    m = text.match(ODD);
    if (oddSeen.size < 10_000) oddSeen.set(text, m);
  }
  return m;
}

/** The record's run, else its model (when given), else the file's default; and which it was. */
function runOf(
  run: string | null | undefined,
  model: string | null | undefined,
  defaultRun: string,
): { run: string; runFrom: RunFrom } {
  if (!isBlank(run)) return { run: run!, runFrom: "run" };
  if (!isBlank(model)) return { run: model!, runFrom: "model" };
  return { run: defaultRun, runFrom: "default" };
}
