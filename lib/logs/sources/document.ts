/**
 * What every document source shares: reading a whole JSON document (plain, or gzip through
 * the checked, budgeted gunzip), decoding it as UTF-8, and parsing it only after the depth and
 * key limits were checked ({@link parseDocument}: an over-limit record is blanked to `null`
 * and reported, an over-limit value outside the records makes the file an error). Also the
 * small value helpers the readers have in common. Polars-free.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * import { parseDocument } from "@runlens/logs/sources/document.ts";
 * const text = '{"outputs": [{"input": "q"}, ' + "[".repeat(50) + "]".repeat(50) + "]}";
 * const limits = { ...DEFAULT_LIMITS, maxDepth: 20 };
 * const { value, bad } = parseDocument("x.json", new TextEncoder().encode(text), limits, {
 *   records: ["outputs", "*"],
 * });
 * assert.deepEqual(value, { outputs: [{ input: "q" }, null] }); // record 1 blanked
 * assert.equal(bad.get(1), "JSON nested deeper than 20 levels (not read; --max-depth)");
 * ```
 * @module
 */
import { notRegularFile } from "../../codecs/byte_source.ts";
import { decodeUtf8 } from "../../codecs/encoding.ts";
import { gunzipAll } from "../../codecs/gzip_stream.ts";
import { blankSpans, type RecordPath, scanJsonLimits } from "../../codecs/json_limits.ts";
import {
  type DocumentSource,
  FileError,
  type RecordSink,
  type SourceFile,
  type SourceLimits,
} from "./types.ts";
import type { BadRecord, LogRecord, Pointer } from "../record.ts";
import { count } from "../../core/count.ts";

/**
 * The largest document parsed whole (512 MiB): V8 cannot hold a longer string, so a larger
 * JSON document cannot be parsed at once; it is an error naming the file, never a crash.
 */
export const MAX_DOCUMENT_BYTES = 2 ** 29 - 24;

const n = count;

/** The reason for a document over {@link MAX_DOCUMENT_BYTES}. */
export const TOO_BIG = `larger than ${n(MAX_DOCUMENT_BYTES)} bytes, the most runlens parses as ` +
  "one JSON document";

/** The cap passed to decompressors for a document parsed whole. */
export const DOCUMENT_CAP = { bytes: MAX_DOCUMENT_BYTES, reason: `inflates ${TOO_BIG}` };

/**
 * The bytes of a whole document: the file's content, or its decompressed content when it is
 * gzip data (every member checked, within the budget and {@link MAX_DOCUMENT_BYTES}). Throws a
 * {@link FileError} naming the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * const path = "tests/fixtures/logs/formats/mcpbr/bbh-sonnet/results.json";
 * const bytes = readDocumentBytes({ path, gzip: false }, DEFAULT_LIMITS);
 * assert.equal(bytes[0], 0x7b); // "{"
 * assert.throws(() => readDocumentBytes({ path: "/dev/zero", gzip: false }, DEFAULT_LIMITS),
 *   /character device/);
 * ```
 */
export function readDocumentBytes(
  file: Pick<SourceFile, "path" | "gzip">,
  limits: SourceLimits,
): Uint8Array {
  const why = notRegularFile(file.path);
  if (why !== null) throw new FileError(file.path, why);
  if (file.gzip) return gunzipAll(file.path, limits, { cap: DOCUMENT_CAP });
  let size: number;
  try {
    size = Deno.statSync(file.path).size;
  } catch (e) {
    throw new FileError(file.path, `cannot read (${(e as Error).message})`);
  }
  if (size > MAX_DOCUMENT_BYTES) throw new FileError(file.path, `${n(size)} bytes: ${TOO_BIG}`);
  try {
    return Deno.readFileSync(file.path);
  } catch (e) {
    throw new FileError(file.path, `cannot read (${(e as Error).message})`);
  }
}

/**
 * Parse JSON that may hold bare `NaN`, `Infinity` or `-Infinity` (Python's `json.dumps`
 * writes them; inspect_ai scores hold them); those become null. Text inside strings is left
 * alone. Throws the parser's SyntaxError when the text is not JSON even then.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseLooseJson('{"value": NaN, "note": "NaN"}'), { value: null, note: "NaN" });
 * ```
 */
export function parseLooseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const fixed = text.replace(
      /("(?:[^"\\]|\\.)*")|-?\bNaN\b|-?\bInfinity\b/g,
      (_m, str) => str ?? "null",
    );
    return JSON.parse(fixed);
  }
}

/** Options of {@link parseDocument}. */
export interface ParseOptions {
  /**
   * Where the records sit (see `RecordPath`; `[]`: the root value is the record); over-limit
   * records there are blanked. None by default: any violation makes the document an error.
   */
  records?: RecordPath;
  /** Read bare NaN/Infinity as null ({@link parseLooseJson}). */
  loose?: boolean;
  /** Strip a leading byte order mark before parsing. */
  stripBom?: boolean;
  /** Error reason for text that is not JSON: `(message) => reason`. Default: the message. */
  notJson?: (message: string) => string;
  /** Error prefix for everything about this document (e.g. "member header.json: "). */
  prefix?: string;
}

/** A parsed document and the records blanked because they break a limit. */
export interface ParsedDocument {
  value: unknown;
  /** Blanked records: by index (list containers) and by key (object containers) → reason. */
  bad: Map<number | string, string>;
}

/**
 * Check `bytes` against the depth and key limits, blank the over-limit records (at
 * `options.records`), decode as UTF-8 and parse. Throws a {@link FileError} naming `path` when
 * a limit is broken outside every record, the bytes are not UTF-8, or the text is not JSON.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * const wide = new TextEncoder().encode('{"meta": {"a": 1, "b": 2, "c": 3}, "tasks": []}');
 * const limits = { ...DEFAULT_LIMITS, maxKeys: 2 };
 * assert.throws(() => parseDocument("r.json", wide, limits, { records: ["tasks", "*"] }),
 *   /^Error: r\.json: JSON object with more than 2 keys .* at byte 29 \(outside any record\)/);
 * ```
 */
export function parseDocument(
  path: string,
  bytes: Uint8Array,
  limits: SourceLimits,
  options: ParseOptions = {},
): ParsedDocument {
  const prefix = options.prefix ?? "";
  const scan = scanJsonLimits(bytes, limits, options.records ?? null);
  if (scan.outside) {
    throw new FileError(
      path,
      `${prefix}${scan.outside.reason} at byte ${n(scan.outside.at)} (outside any record)`,
    );
  }
  const bad = new Map<number | string, string>();
  for (const r of scan.records) {
    bad.set(r.index, r.reason);
    if (r.key !== null) bad.set(r.key, r.reason);
  }
  const patched = blankSpans(bytes, scan.records);
  let text: string;
  try {
    text = decodeUtf8(patched);
  } catch (e) {
    throw new FileError(path, `${prefix}${(e as Error).message}`);
  }
  if (options.stripBom) text = text.replace(/^\ufeff/, "");
  let value: unknown;
  try {
    value = options.loose ? parseLooseJson(text) : JSON.parse(text);
  } catch (e) {
    const message = (e as Error).message;
    throw new FileError(path, `${prefix}${options.notJson ? options.notJson(message) : message}`);
  }
  return { value, bad };
}

/** The pointer of a response kept by the load (documents parsed whole): id assigned later. */
export const INLINE: Pointer = { kind: "inline", offset: -1, length: 0 };

/**
 * Text of a value as today's readers keep it in their raw form: strings as they are, other
 * values as JSON, null for null or undefined. Used where a reader turns a value into text
 * on purpose (OpenCompass targets, mcpbr models, …); elsewhere records carry raw values.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(asText(["a", "b"]), '["a","b"]');
 * assert.equal(asText(undefined), null);
 * ```
 */
export function asText(v: unknown): string | null {
  return v === null || v === undefined ? null : typeof v === "string" ? v : JSON.stringify(v);
}

/** A JSON object (not null, not a list). */
export type Json = Record<string, unknown>;

/**
 * Whether `v` is a JSON object.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isObject([]), false);
 * ```
 */
export function isObject(v: unknown): v is Json {
  return v !== null && typeof v === "object" && !Array.isArray(v);
}

/**
 * Emits records and bad records to a sink in line order (in arrival order within a line): for
 * readers that find them out of order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const seen: number[] = [];
 * const out = new LineOrder();
 * out.bad({ line: 2, reason: "x" });
 * out.record({ line: 1 });
 * out.flush({ record: (r) => seen.push(r.line), bad: (b) => seen.push(-b.line) });
 * assert.deepEqual(seen, [1, -2]);
 * ```
 */
export class LineOrder {
  #items: { line: number; seq: number; r?: LogRecord; b?: BadRecord }[] = [];

  record(r: LogRecord): void {
    this.#items.push({ line: r.line, seq: this.#items.length, r });
  }

  bad(b: BadRecord): void {
    this.#items.push({ line: b.line, seq: this.#items.length, b });
  }

  /** Hand everything to `sink` in line order. */
  flush(sink: RecordSink): void {
    this.#items.sort((x, y) => x.line - y.line || x.seq - y.seq);
    for (const it of this.#items) {
      if (it.r) sink.record(it.r);
      else sink.bad(it.b!);
    }
    this.#items = [];
  }
}

/**
 * A document source whose reader writes into a {@link LineOrder}: what it finds reaches the
 * sink in line order once the whole document is read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * const source = inLineOrder((_file, out) => {
 *   out.bad({ line: 2, reason: "x" });
 *   out.record({ line: 1 });
 * });
 * const seen: number[] = [];
 * const file = { id: 0, path: "p", name: "p", format: "f", gzip: false, defaultRun: "p", size: 0 };
 * source.read(file, { record: (r) => seen.push(r.line), bad: (b) => seen.push(-b.line) },
 *   DEFAULT_LIMITS);
 * assert.deepEqual(seen, [1, -2]);
 * ```
 */
export function inLineOrder(
  read: (file: SourceFile, out: LineOrder, limits: SourceLimits) => void,
): DocumentSource {
  return {
    kind: "document",
    read(file, sink, limits) {
      const out = new LineOrder();
      read(file, out, limits);
      out.flush(sink);
    },
  };
}
