/**
 * The JSON-lines source of the streaming path: canonical run logs (`canonical-jsonl`: one
 * object per line, the canonical fields by name) and generic JSONL read through a
 * {@link FieldMapping} (`SourceFile.fields`: detected by `fields.ts`, or `--map` for
 * `mapped-jsonl`): keys or dotted paths (`message_log.-1.content`), constants
 * (`task==nycc`), positions in JSON arrays (`input=0,response=1`), and chat transcripts.
 * Canonical fields the mapping leaves out are read by their own name (object lines), unless
 * another field is mapped from that key. A planned benchmark's record fields
 * (`SourceFile.record`) are read the same ways into the record's `example_id`, `subset` and
 * `fields`.
 *
 * Each line gives one {@link LogRecord} holding the fields' raw JSON values (a list or object
 * is carried as it is: the check step names it), or a bad line with the reason today's
 * readers give (see `lines.ts`); the response is a {@link Span} of the line's bytes when it is
 * a JSON string found without parsing (a top-level key or an array position), with its
 * `pointer` (`span`: file offset and length of the string, quotes included). Line numbers are
 * the range's. Polars-free.
 *
 * Reasons of lines that are not records: `not a JSON object` (canonical),
 * `not a JSON object (--map gives field names)` / `not a JSON array (--map gives column
 * positions)` (`mapped-jsonl`); a malformed canonical line is counted against the `"run"` its
 * text still shows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * import { textOf } from "../record.ts";
 * import type { BadRecord, LogRecord } from "./types.ts";
 * const path = "tests/fixtures/logs/mixed.jsonl";
 * const file = { id: 0, path, name: path, format: "canonical-jsonl", gzip: false,
 *   defaultRun: "mixed", size: Deno.statSync(path).size };
 * const records: LogRecord[] = [];
 * const bad: BadRecord[] = [];
 * const sink = { record: (r: LogRecord) => records.push(r), bad: (b: BadRecord) => bad.push(b) };
 * const read = jsonlSource.readRange(file, 0, file.size, sink, DEFAULT_LIMITS);
 * assert.deepEqual(read, { lines: 22, unterminatedLast: true });
 * assert.equal(records.length, 18); // line 20 holds an object response: the check names it
 * assert.equal(textOf(records[0].response), "Thinking... The answer is: wrong");
 * assert.deepEqual(records[0].pointer, { kind: "span", offset: 53, length: 34 });
 * assert.deepEqual(bad.map((b) => [b.line, b.reason.slice(0, 17)]), [
 *   [16, "not a JSON object"], [19, "malformed JSON (E"], [22, "truncated last li"],
 * ]);
 * ```
 * @module
 */
import { RECORD_FIELDS, setRecordField } from "../record.ts";
import {
  isObject,
  JsonLinesReader,
  K_ARRAY,
  K_OBJECT,
  K_STRING,
  readJsonLinesBytes,
  readJsonLinesRange,
} from "./lines.ts";
import { chatParts, lookupPath, walkPath } from "./fields.ts";
import {
  type BadRecord,
  type FieldMapping,
  FileError,
  type LineSource,
  type LogRecord,
  type ObjectRecords,
  type RecordSink,
  type RecordSource,
  type SourceFile,
  type SourceLimits,
} from "./types.ts";
import { DEFAULT_LIMITS } from "../limits.ts";
import type { PointerKind } from "../record.ts";

const enc = new TextEncoder();

/** Where one canonical field comes from. */
type FieldSource =
  | { kind: "none" }
  | { kind: "constant"; value: string }
  | { kind: "key"; key: string; bytes: Uint8Array }
  | {
    kind: "path";
    path: string;
    bytes: Uint8Array;
    first: string;
    firstBytes: Uint8Array;
    rest: string[];
  }
  | { kind: "position"; index: number; key: string; bytes: Uint8Array }
  | { kind: "chat"; part: "response" | "input" };

/** A mapping compiled for one file. */
interface Plan {
  /** Lines are JSON arrays (every column reference is a position). */
  positional: boolean;
  /** Field sources, in {@link RECORD_FIELDS} order. */
  sources: FieldSource[];
  /** The transcript key, when some field comes from it. */
  chat: { key: string; bytes: Uint8Array } | null;
  /** Record fields (`SourceFile.record`): slot and source; null: none (the usual case). */
  record: { slot: string; src: FieldSource }[] | null;
}

/** The source of a key, dotted path or position. */
function sourceOf(ref: string | number): FieldSource {
  if (typeof ref === "number") {
    return { kind: "position", index: ref, key: String(ref), bytes: enc.encode(String(ref)) };
  }
  if (!ref.includes(".")) return { kind: "key", key: ref, bytes: enc.encode(ref) };
  const [first, ...rest] = ref.split(".");
  return {
    kind: "path",
    path: ref,
    bytes: enc.encode(ref),
    first,
    firstBytes: enc.encode(first),
    rest,
  };
}

/**
 * Compile a mapping (null: the canonical fields by name).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const plan = planMapping({ fields: { response: 1, input: 0 }, constants: { task: "nycc" } });
 * assert.equal(plan.positional, true);
 * ```
 */
export function planMapping(
  mapping: FieldMapping | null | undefined,
  record: readonly RecordSource[] | null = null,
): Plan {
  const fields = mapping?.fields ?? {};
  const constants = mapping?.constants ?? {};
  const refs = Object.values(fields).filter((v) => v !== undefined);
  const positional = refs.length > 0 && refs.every((v) => typeof v === "number");
  const chatKey = mapping?.chat ?? null;
  let chatUsed = false;
  // a key another field is mapped from is not also read by its own name (as `mapped.ts`)
  const consumed = new Set(refs.filter((v) => typeof v === "string" && !v.includes(".")));
  const sources = RECORD_FIELDS.map((f): FieldSource => {
    const c = constants[f];
    if (c !== undefined) return { kind: "constant", value: c };
    const ref = fields[f];
    if (ref !== undefined) return sourceOf(ref);
    if (chatKey !== null && (f === "response" || f === "input")) {
      chatUsed = true;
      return { kind: "chat", part: f };
    }
    if (positional || consumed.has(f)) return { kind: "none" };
    return { kind: "key", key: f, bytes: enc.encode(f) };
  });
  return {
    positional,
    sources,
    chat: chatUsed && chatKey !== null ? { key: chatKey, bytes: enc.encode(chatKey) } : null,
    record: record === null || record.length === 0 ? null : record.map((r) => ({
      slot: r.slot,
      src: r.value !== undefined ? { kind: "constant", value: r.value } : sourceOf(r.key ?? r.slot),
    })),
  };
}

/**
 * The `"run": "…"` value a broken JSON line still shows, if any (as `jsonl.ts` finds it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(runInBrokenLine('{"run": "r7", "task": "nyc'), "r7");
 * assert.equal(runInBrokenLine('{"task": "nyc'), undefined);
 * ```
 */
export function runInBrokenLine(line: string): string | undefined {
  const m = /"run"\s*:\s*("(?:[^"\\]|\\.)*")/.exec(line);
  if (!m) return undefined;
  try {
    const run = JSON.parse(m[1]);
    return typeof run === "string" && run.trim() !== "" ? run : undefined;
  } catch {
    return undefined;
  }
}

const RESPONSE = RECORD_FIELDS.indexOf("response");

/**
 * Reads the lines of a JSONL log (see the module doc). `slow` reads every line through
 * `JSON.parse` (tests compare both ways).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readJsonLinesBytes } from "./lines.ts";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * const file = { id: 0, path: "a.jsonl", name: "a.jsonl", format: "canonical-jsonl",
 *   gzip: false, defaultRun: "a", size: 0 };
 * const seen: unknown[] = [];
 * const sink = { record: (r: { response?: unknown }) => seen.push(r.response), bad: () => {} };
 * const reader = new JsonlReader(file, sink, DEFAULT_LIMITS, "span", true); // JSON.parse
 * readJsonLinesBytes(reader, new TextEncoder().encode('{"task": "nycc", "response": "x"}'));
 * assert.deepEqual(seen, ["x"]); // a text, not a span
 * ```
 */
export class JsonlReader extends JsonLinesReader {
  readonly plan: Plan;
  readonly mapped: boolean;

  constructor(
    file: SourceFile,
    sink: RecordSink,
    limits: SourceLimits,
    pointerKind: PointerKind = file.gzip ? "gz-span" : "span",
    readonly slow = false,
  ) {
    super(file, sink, limits, pointerKind);
    this.plan = planMapping(file.fields, file.record ?? null);
    this.mapped = file.format.startsWith("mapped");
  }

  protected override badRun(text: string | null): string | undefined {
    return this.mapped || text === null ? undefined : runInBrokenLine(text);
  }

  #notRecord(line: number): void {
    this.bad(
      line,
      this.plan.positional
        ? this.mapped ? "not a JSON array (--map gives column positions)" : "not a JSON array"
        : this.mapped
        ? "not a JSON object (--map gives field names)"
        : "not a JSON object",
    );
  }

  protected onValue(line: number): void {
    if (this.slow) return this.onParsed(line, this.parsed());
    const plan = this.plan;
    const root = this.tape.rootKind;
    if (plan.positional ? root !== K_ARRAY : root !== K_OBJECT) return this.#notRecord(line);
    const r: LogRecord = { line };
    const out = r as unknown as Record<string, unknown>;
    let chat: { response: unknown; input: unknown } | null = null;
    for (let i = 0; i < RECORD_FIELDS.length; i++) {
      const src = plan.sources[i];
      let e = -1;
      switch (src.kind) {
        case "none":
          continue;
        case "constant":
          out[RECORD_FIELDS[i]] = src.value;
          continue;
        case "key":
          e = this.member(src.bytes, src.key);
          break;
        case "position":
          e = root === K_ARRAY ? this.element(-1, src.index) : this.member(src.bytes, src.key);
          break;
        case "path": {
          e = this.member(src.bytes, src.path);
          if (e < 0) {
            const first = this.member(src.firstBytes, src.first);
            if (first >= 0) out[RECORD_FIELDS[i]] = walkPath(this.value(first), src.rest);
            continue;
          }
          break;
        }
        case "chat":
          chat ??= chatParts(this.value(this.member(plan.chat!.bytes, plan.chat!.key)));
          out[RECORD_FIELDS[i]] = chat[src.part];
          continue;
      }
      if (e < 0) continue;
      if (i === RESPONSE && this.kind(e) === K_STRING) {
        r.response = this.spanOrValue(e);
        r.pointer = this.pointer(e);
      } else out[RECORD_FIELDS[i]] = this.value(e);
    }
    if (plan.record) this.#recordFields(r, root);
    this.emit(r);
  }

  /** The record fields of the scanned line into `r`. */
  #recordFields(r: LogRecord, root: number): void {
    for (const { slot, src } of this.plan.record!) {
      let v: unknown;
      let e = -1;
      if (src.kind === "constant") v = src.value;
      else if (src.kind === "key") e = this.member(src.bytes, src.key);
      else if (src.kind === "position") {
        e = root === K_ARRAY ? this.element(-1, src.index) : this.member(src.bytes, src.key);
      } else if (src.kind === "path") {
        e = this.member(src.bytes, src.path);
        if (e < 0) {
          const first = this.member(src.firstBytes, src.first);
          if (first >= 0) v = walkPath(this.value(first), src.rest);
        }
      }
      if (e >= 0) v = this.value(e);
      if (v !== undefined) setRecordField(r, slot, v);
    }
  }

  protected onParsed(line: number, value: unknown): void {
    const plan = this.plan;
    const isArray = Array.isArray(value);
    if (plan.positional ? !isArray : !isObject(value)) return this.#notRecord(line);
    const r: LogRecord = { line };
    const out = r as unknown as Record<string, unknown>;
    const obj = value as Record<string, unknown>;
    const own = (k: string) => Object.hasOwn(obj, k) ? obj[k] : undefined;
    let chat: { response: unknown; input: unknown } | null = null;
    for (let i = 0; i < RECORD_FIELDS.length; i++) {
      const src = plan.sources[i];
      let v: unknown;
      switch (src.kind) {
        case "none":
          continue;
        case "constant":
          v = src.value;
          break;
        case "key":
          v = own(src.key);
          break;
        case "position":
          v = isArray ? (value as unknown[])[src.index] : own(src.key);
          break;
        case "path":
          v = lookupPath(value, src.path);
          break;
        case "chat":
          chat ??= chatParts(own(plan.chat!.key));
          v = chat[src.part];
          break;
      }
      if (v !== undefined) out[RECORD_FIELDS[i]] = v;
    }
    for (const { slot, src } of plan.record ?? []) {
      const v = src.kind === "constant"
        ? src.value
        : src.kind === "key"
        ? own(src.key)
        : src.kind === "position"
        ? isArray ? (value as unknown[])[src.index] : own(src.key)
        : src.kind === "path"
        ? lookupPath(value, src.path)
        : undefined;
      if (v !== undefined) setRecordField(r, slot, v);
    }
    this.emit(r);
  }
}

/**
 * The JSON-lines source (formats `canonical-jsonl` and `mapped-jsonl`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(jsonlSource.kind, "lines");
 * ```
 */
export const jsonlSource: LineSource = {
  kind: "lines",
  readRange(file, start, end, sink, limits) {
    return readJsonLinesRange(new JsonlReader(file, sink, limits, "span"), start, end);
  },
};

/**
 * Read JSONL bytes held in memory (e.g. a decompressed gzip file: pointer kind `gz-span`,
 * offsets into `bytes`) as {@link jsonlSource} reads a file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * const file = { id: 0, path: "a.jsonl.gz", name: "a.jsonl", format: "canonical-jsonl",
 *   gzip: true, defaultRun: "a", size: 0 };
 * const seen: unknown[] = [];
 * const sink = { record: (r: unknown) => seen.push(r), bad: (b: unknown) => seen.push(b) };
 * const bytes = new TextEncoder().encode('{"task": "nycc", "response": "x"}\n');
 * readJsonlBytes(file, bytes, sink, DEFAULT_LIMITS);
 * assert.equal((seen[0] as { pointer: { kind: string } }).pointer.kind, "gz-span");
 * ```
 */
export function readJsonlBytes(
  file: SourceFile,
  bytes: Uint8Array,
  sink: RecordSink,
  limits: SourceLimits,
  pointerKind: PointerKind = "gz-span",
): { lines: number; unterminatedLast: boolean } {
  return readJsonLinesBytes(new JsonlReader(file, sink, limits, pointerKind), bytes);
}

/** Collects the objects of lines (the lines that are not objects are bad). */
class ObjectLines extends JsonLinesReader {
  readonly records: ObjectRecords["records"] = [];

  protected onValue(line: number): void {
    this.onParsed(line, this.parsed());
  }

  protected onParsed(line: number, value: unknown): void {
    if (isObject(value)) this.records.push({ line, value });
    else this.bad(line, "not a JSON object");
  }
}

/**
 * Every line of a JSON-lines file as the whole object it holds (every key, not only the
 * canonical fields), with the lines that are not objects or cannot be read — read by the line
 * reader of the sources (`lines.ts`: the same reasons, limits, UTF-8 checks and truncated last
 * line). For logs of a benchmark's own format (ARB). Throws {@link FileError} when the file
 * cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const path = Deno.makeTempFileSync({ suffix: ".jsonl" });
 * Deno.writeTextFileSync(path, '{"id": "a", "score": 1.5}\n\n[1]\n{"id": "b", "sub');
 * const { records, bad } = readJsonlObjects(path);
 * assert.deepEqual(records, [{ line: 1, value: { id: "a", score: 1.5 } }]);
 * assert.deepEqual(bad, [
 *   { line: 3, reason: "not a JSON object" },
 *   { line: 4, reason: "truncated last line (not valid JSON and no final newline)" },
 * ]);
 * Deno.removeSync(path);
 * ```
 */
export function readJsonlObjects(
  path: string,
  limits: SourceLimits = DEFAULT_LIMITS,
): ObjectRecords {
  let size: number;
  try {
    size = Deno.statSync(path).size;
  } catch (e) {
    throw new FileError(path, `cannot read (${(e as Error).message})`);
  }
  const bad: BadRecord[] = [];
  const file: SourceFile = {
    id: 0,
    path,
    name: path,
    format: "canonical-jsonl",
    gzip: false,
    defaultRun: "",
    size,
  };
  const sink = { record: () => {}, bad: (b: BadRecord) => bad.push(b) };
  const reader = new ObjectLines(file, sink, limits);
  readJsonLinesRange(reader, 0, size);
  return { records: reader.records, bad };
}
