/**
 * What the JSON-lines sources (`jsonl.ts`, `lm_eval.ts`) share: a reader base class that takes
 * the lines of a byte range (or of bytes in memory) from `line_ranges.ts`, scans each with the
 * validating scanner of `json_scan.ts` under the {@link SourceLimits}, quarantines what cannot
 * be read with the reasons today's readers give, and hands every line holding one JSON value to
 * the format: on the scanner's tape (the fast path: only the values the format needs are
 * decoded, short strings through a cache, the response kept as a {@link Span} of the bytes),
 * or, when the tape could not record the whole line, as the `JSON.parse`d value.
 *
 * Per line, in this order:
 * - not valid UTF-8 → `NOT_UTF8` (`encoding.ts`);
 * - only space, tab and CR → blank: skipped (counted in the range's lines, never a record);
 * - only whitespace JSON does not allow (U+2028, U+00A0, `\v`, …; JavaScript's `trim` would
 *   remove it) → quarantined, {@link oddBlankReason} (issue 15: such a line is not blank);
 * - nested deeper than `maxDepth` or an object with more than `maxKeys` members → quarantined
 *   with the limit (`json_scan.ts`); longer than `maxLineBytes` → {@link tooLongReason};
 * - malformed JSON → `malformed JSON (<JSON.parse's message>)`, the message of the line as
 *   today's reader decodes it; the file's last non-blank line, when the file does not end with
 *   a line feed → `TRUNCATED_LAST_LINE` (`quarantine.ts`);
 * - otherwise the format's `onValue` (tape) or `onParsed` (value).
 *
 * Line numbers are those of the range (1 = the range's first line): the caller adds the line
 * counts of the file's earlier ranges.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * import type { LogRecord } from "./types.ts";
 * class Keys extends JsonLinesReader { // records the first key of each object line
 *   protected onValue(line: number) {
 *     this.onParsed(line, this.parsed());
 *   }
 *   protected onParsed(line: number, value: unknown) {
 *     this.emit({ line, task: Object.keys(value as object)[0] });
 *   }
 * }
 * const file = { id: 0, path: "x.jsonl", name: "x.jsonl", format: "canonical-jsonl", gzip: false,
 *   defaultRun: "x", size: 0 };
 * const got: (LogRecord | string)[] = [];
 * const sink = { record: (r: LogRecord) => got.push(r), bad: (b: { reason: string }) => got.push(b.reason) };
 * const reader = new Keys(file, sink, DEFAULT_LIMITS);
 * readJsonLinesBytes(reader, new TextEncoder().encode('{"a": 1}\n\n{"b": \n{"c": 3}'));
 * assert.deepEqual(got, [
 *   { line: 1, task: "a" },
 *   "malformed JSON (Unexpected end of JSON input)",
 *   { line: 4, task: "c" },
 * ]);
 * ```
 * @module
 */
import { isUtf8 } from "node:buffer";
import {
  BLANK,
  decodeSpan,
  E_DEPTH,
  E_KEYS,
  F_ESCAPE,
  findElement,
  findMember,
  K_ARRAY,
  K_FALSE,
  K_NULL,
  K_NUMBER,
  K_OBJECT,
  K_STRING,
  K_TRUE,
  scanErrorReason,
  scanLine,
  stringChars,
  stringUtf8Bytes,
  Tape,
} from "../../codecs/json_scan.ts";
import { readRange } from "../../codecs/line_ranges.ts";
import { isUtf16, NOT_UTF8 } from "../../codecs/encoding.ts";
import { TRUNCATED_LAST_LINE } from "../quarantine.ts";
import type { Pointer, PointerKind, ResponseSpan } from "../record.ts";
import {
  type BadRecord,
  FileError,
  type LogRecord,
  type RecordSink,
  type SourceFile,
  type SourceLimits,
} from "./types.ts";
import { count } from "../../core/count.ts";

/**
 * Bytes per read of a range (a buffer grows only for a line longer than this).
 *
 * @example
 * ```ts
 * READ_CHUNK; // 4 MiB
 * ```
 */
export const READ_CHUNK = 4 << 20;

/**
 * Lines up to this many bytes are decoded for `JSON.parse`'s message (longer: the scanner's).
 *
 * @example
 * ```ts
 * MESSAGE_BYTES; // 64 MiB
 * ```
 */
export const MESSAGE_BYTES = 64 << 20;

/**
 * The error of a UTF-16 file (as `encoding.ts` gives it).
 *
 * @example
 * ```ts
 * UTF16_REASON.startsWith("UTF-16 text"); // true
 * ```
 */
export const UTF16_REASON = "UTF-16 text (byte order mark); runlens reads UTF-8 logs, convert " +
  "the file (e.g. iconv -f utf-16 -t utf-8)";

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/**
 * A JSON string in a byte buffer: the response of a line, decoded on first use.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { F_ESCAPE } from "@runlens/codecs/json_scan.ts";
 * const bytes = new TextEncoder().encode('{"response": "a\\nb"}');
 * const span = new Span(bytes, 13, 19, 3, 3, F_ESCAPE);
 * assert.equal(span.text(), "a\nb");
 * ```
 */
export class Span implements ResponseSpan {
  #text: string | undefined;
  constructor(
    readonly bytes: Uint8Array,
    readonly start: number,
    readonly end: number,
    readonly chars: number,
    readonly utf8Bytes: number,
    readonly flags: number,
  ) {}

  /** The text, exactly as `JSON.parse` decodes it. */
  text(): string {
    return this.#text ??= decodeSpan(
      this.bytes,
      this.start,
      this.end,
      (this.flags & F_ESCAPE) !== 0,
    );
  }
}

/**
 * The reason of a line of only whitespace JSON does not allow (naming up to three of its
 * characters).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(oddBlankReason("\u2028 \u00a0"),
 *   "not JSON: a line of only whitespace JSON does not allow (U+2028, U+00A0)");
 * ```
 */
export function oddBlankReason(text: string): string {
  const odd = [...new Set(text)].filter((c) => c !== " " && c !== "\t" && c !== "\r");
  const names = odd.slice(0, 3).map((c) =>
    "U+" + c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, "0")
  );
  return `not JSON: a line of only whitespace JSON does not allow (${names.join(", ")}` +
    `${odd.length > 3 ? ", …" : ""})`;
}

/**
 * The reason of a line longer than `maxLineBytes`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(tooLongReason(1000),
 *   "line longer than 1,000 bytes (--max-line-bytes); not read");
 * ```
 */
export function tooLongReason(maxLineBytes: number): string {
  return `line longer than ${count(maxLineBytes)} bytes (--max-line-bytes); ` +
    "not read";
}

/**
 * `malformed JSON (<message>)` with `JSON.parse`'s message for `text`, null when it parses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(parseMessage('{"a": 1,}'),
 *   "malformed JSON (Expected double-quoted property name in JSON at position 8 (line 1 column 9))");
 * ```
 */
export function parseMessage(text: string): string | null {
  try {
    JSON.parse(text);
    return null;
  } catch (e) {
    return `malformed JSON (${(e as Error).message})`;
  }
}

/**
 * Whether `v` is a JSON object (not an array, not null).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual([isObject({}), isObject([]), isObject(null)], [true, false, false]);
 * ```
 */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The base of the JSON-lines readers: feed it lines ({@link onLine}, a `line_ranges.ts`
 * handler), then call {@link finish}. Subclasses implement {@link onValue} (the line holds one
 * JSON value; `tape`, `b`, `base` describe it) and {@link onParsed} (the same line as a parsed
 * value, used when the tape could not record it whole), and emit with {@link emit} and
 * {@link bad}, which keep file order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * class Counter extends JsonLinesReader {
 *   n = 0;
 *   protected onValue() { this.n++; }
 *   protected onParsed() { this.n++; }
 * }
 * const file = { id: 0, path: "x", name: "x", format: "canonical-jsonl", gzip: false,
 *   defaultRun: "x", size: 0 };
 * const reader = new Counter(file, { record: () => {}, bad: () => {} }, DEFAULT_LIMITS);
 * readJsonLinesBytes(reader, new TextEncoder().encode("1\n[2]\n\n{}\n"));
 * assert.equal(reader.n, 3);
 * ```
 */
export abstract class JsonLinesReader {
  /** The tape of the current line. */
  readonly tape = new Tape();
  /** The bytes of the current line (valid JSON at `lineStart`..`lineEnd`). */
  protected b: Uint8Array = new Uint8Array(0);
  /** File offset of `b[0]`. */
  protected base = 0;
  protected lineStart = 0;
  protected lineEnd = 0;
  /** Strip one trailing CR before `JSON.parse` gives a message (today's canonical reader). */
  protected stripCr = true;
  #pending: { bad: BadRecord; end: number } | null = null;
  #short = new Map<string, string>();
  #lastLine = 0;

  constructor(
    readonly file: SourceFile,
    readonly sink: RecordSink,
    readonly limits: SourceLimits,
    /** The pointer kind of response spans (`gz-span` for decompressed bytes). */
    readonly pointerKind: PointerKind = "span",
  ) {}

  /** The line holds one JSON value, described by `tape` (not partial). */
  protected abstract onValue(line: number): void;
  /** The line holds `value` (the fallback when the tape is partial). */
  protected abstract onParsed(line: number, value: unknown): void;
  /** The run of a line that cannot be read, from its text (null: not decoded). */
  protected badRun(_text: string | null): string | null | undefined {
    return undefined;
  }

  /** Emit a record (after a pending bad line). */
  protected emit(r: LogRecord): void {
    this.#flush();
    this.sink.record(r);
  }

  /** Emit a bad line (after a pending bad line). */
  protected bad(line: number, reason: string, run?: string | null): void {
    this.#flush();
    this.sink.bad(run === undefined ? { line, reason } : { line, reason, run });
  }

  #flush(): void {
    if (this.#pending) {
      this.sink.bad(this.#pending.bad);
      this.#pending = null;
    }
  }

  /** The `line_ranges.ts` handler (bound). */
  onLine = (
    b: Uint8Array,
    s: number,
    limit: number,
    base: number,
    line: number,
    utf8: boolean,
  ): number => {
    this.#lastLine = line;
    if (!utf8) {
      this.bad(line, NOT_UTF8, this.badRun(null));
      return -1;
    }
    const tape = this.tape;
    const r = scanLine(b, s, limit, tape, this.limits.maxDepth, this.limits.maxKeys);
    if (r === BLANK) return -1;
    if (r < 0) {
      this.#failed(b, s, limit, base, line);
      return -1;
    }
    this.handle(b, s, r, base, line);
    return r;
  };

  /**
   * Hand the valid JSON value at `b[s, r)` (scanned into `tape`) to the format: on the tape,
   * or parsed when the tape is partial.
   */
  protected handle(b: Uint8Array, s: number, r: number, base: number, line: number): void {
    this.b = b;
    this.base = base;
    this.lineStart = s;
    this.lineEnd = r;
    if (this.tape.partial) {
      let value: unknown;
      try {
        value = JSON.parse(decoder.decode(b.subarray(s, r)));
      } catch (e) { // a line too long for one string
        this.bad(line, `cannot parse the line (${(e as Error).message})`, this.badRun(null));
        return;
      }
      this.onParsed(line, value);
    } else this.onValue(line);
  }

  #failed(b: Uint8Array, s: number, limit: number, base: number, line: number): void {
    let e = b.indexOf(0x0a, s);
    if (e < 0 || e > limit) e = limit;
    const text = e - s <= MESSAGE_BYTES ? decoder.decode(b.subarray(s, e)) : null;
    const error = this.tape.error;
    if (error === E_DEPTH || error === E_KEYS) {
      this.bad(line, scanErrorReason(this.tape, s), this.badRun(text));
      return;
    }
    if (text !== null && text.trim() === "") {
      this.bad(line, oddBlankReason(text), this.badRun(null));
      return;
    }
    const message = text === null
      ? null
      : parseMessage(this.stripCr ? text.replace(/\r$/, "") : text);
    const reason = message ?? scanErrorReason(this.tape, s);
    this.#flush();
    this.#pending = { bad: withRun({ line, reason }, this.badRun(text)), end: base + e };
  }

  /** A line longer than the limit (in line order). */
  tooLong = (line: number): void => {
    this.#lastLine = line;
    this.bad(line, tooLongReason(this.limits.maxLineBytes), this.badRun(null));
  };

  /**
   * End of the range: a malformed last line is a truncated one when it is unterminated, or
   * when `openBlankAfter(offset)` says that only whitespace follows its line feed at file
   * offset `offset`, up to an end without a line feed.
   */
  finish(
    summary: { lines: number; unterminatedLast: boolean },
    openBlankAfter: (offset: number) => boolean,
  ): void {
    const p = this.#pending;
    if (p) {
      const unterminated = summary.unterminatedLast && p.bad.line === summary.lines;
      if (unterminated || openBlankAfter(p.end)) {
        p.bad.reason = TRUNCATED_LAST_LINE;
      }
    }
    this.#flush();
  }

  /** The last line number seen. */
  get lastLine(): number {
    return this.#lastLine;
  }

  // ---- values of the current line (tape entries) ----

  /** The depth-1 member `key` of the root object (bytes and text of the key), or -1. */
  protected member(key: Uint8Array, text: string, parent = -1): number {
    return findMember(this.tape, this.b, parent, key, text);
  }

  /** Element `i` of array entry `parent` (-1: the root), or -1. */
  protected element(parent: number, i: number): number {
    return findElement(this.tape, parent, i);
  }

  /** The raw JSON text of entry `e`. */
  protected raw(e: number): string {
    return decoder.decode(this.b.subarray(this.tape.start[e], this.tape.end[e]));
  }

  /** The text of a string entry; short ones without escapes through a cache. */
  protected text(e: number): string {
    const tape = this.tape;
    const s = tape.start[e], t = tape.end[e];
    const b = this.b;
    if (t - s > 66 || (tape.flags[e] & F_ESCAPE)) {
      return decodeSpan(b, s, t, (tape.flags[e] & F_ESCAPE) !== 0);
    }
    let key = "";
    for (let i = s + 1; i < t - 1; i++) key += String.fromCharCode(b[i]);
    let v = this.#short.get(key);
    if (v === undefined) {
      v = decoder.decode(b.subarray(s + 1, t - 1));
      if (this.#short.size > 50_000) this.#short.clear();
      this.#short.set(key, v);
    }
    return v;
  }

  /** The JSON value of entry `e` (undefined for -1); lists and objects parsed. */
  protected value(e: number): unknown {
    if (e < 0) return undefined;
    switch (this.tape.kind[e]) {
      case K_STRING:
        return this.text(e);
      case K_NUMBER:
        return Number(this.raw(e));
      case K_TRUE:
        return true;
      case K_FALSE:
        return false;
      case K_NULL:
        return null;
      default:
        return JSON.parse(this.raw(e));
    }
  }

  /** A string entry as a {@link Span} (other kinds: their value). */
  protected spanOrValue(e: number): unknown {
    if (e < 0 || this.tape.kind[e] !== K_STRING) return this.value(e);
    const tape = this.tape;
    return new Span(
      this.b,
      tape.start[e],
      tape.end[e],
      stringChars(tape, e),
      stringUtf8Bytes(tape, e),
      tape.flags[e],
    );
  }

  /** Where entry `e` lies in the file. */
  protected pointer(e: number): Pointer {
    const tape = this.tape;
    return {
      kind: this.pointerKind,
      offset: this.base + tape.start[e],
      length: tape.end[e] - tape.start[e],
    };
  }

  /** The whole current line, parsed. */
  protected parsed(): unknown {
    return JSON.parse(decoder.decode(this.b.subarray(this.lineStart, this.lineEnd)));
  }

  /** Kind of entry `e` (0 for -1). */
  protected kind(e: number): number {
    return e < 0 ? 0 : this.tape.kind[e];
  }
}

const withRun = (b: BadRecord, run: string | null | undefined): BadRecord =>
  run === undefined ? b : { ...b, run };

/** Kinds re-exported for the formats. */
export { K_ARRAY, K_FALSE, K_NULL, K_NUMBER, K_OBJECT, K_STRING, K_TRUE };

/**
 * Whether only whitespace (space, tab, CR, LF) follows file offset `offset` of `path` (the line
 * feed there excluded) and the file does not end with a line feed: then the line before
 * `offset` is the file's last non-blank line, cut short. Reads only up to the first byte that
 * is not whitespace.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const path = Deno.makeTempFileSync();
 * Deno.writeTextFileSync(path, '{"a\n  \n ');
 * assert.equal(openBlankAfterInFile(path, 3), true);
 * Deno.writeTextFileSync(path, '{"a\n  \n');
 * assert.equal(openBlankAfterInFile(path, 3), false);
 * Deno.removeSync(path);
 * ```
 */
export function openBlankAfterInFile(path: string, offset: number): boolean {
  const file = Deno.openSync(path, { read: true });
  try {
    file.seekSync(offset, Deno.SeekMode.Start);
    const buf = new Uint8Array(1 << 16);
    let last = -1;
    let first = true;
    for (;;) {
      const n = file.readSync(buf);
      if (n === null || n === 0) break;
      for (let i = first ? 1 : 0; i < n; i++) {
        const x = buf[i];
        if (x !== 0x20 && x !== 0x09 && x !== 0x0d && x !== 0x0a) return false;
      }
      if (!(first && n === 1)) last = buf[n - 1];
      first = false;
    }
    return last !== -1 && last !== 0x0a;
  } finally {
    file.close();
  }
}

/**
 * The same for bytes in memory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(openBlankAfterInBytes(new TextEncoder().encode('{"a\n \r'), 3), true);
 * ```
 */
export function openBlankAfterInBytes(bytes: Uint8Array, offset: number): boolean {
  for (let i = offset + 1; i < bytes.length; i++) {
    const x = bytes[i];
    if (x !== 0x20 && x !== 0x09 && x !== 0x0d && x !== 0x0a) return false;
  }
  return bytes.length > offset + 1 && bytes[bytes.length - 1] !== 0x0a;
}

/** Throw a {@link FileError} when the file starts with a UTF-16 byte order mark. */
function rejectUtf16Head(path: string): void {
  const file = Deno.openSync(path, { read: true });
  try {
    const head = new Uint8Array(2);
    const n = file.readSync(head) ?? 0;
    if (n === 2 && isUtf16(head)) throw new FileError(path, UTF16_REASON);
  } finally {
    file.close();
  }
}

/**
 * Read the lines owned by `[start, end)` of the reader's file (see `line_ranges.ts`) through
 * the reader. Throws {@link FileError} when the file cannot be read or is UTF-16.
 *
 * @example
 * ```ts
 * // see jsonl.ts: jsonlSource.readRange(file, start, end, sink, limits)
 * ```
 */
export function readJsonLinesRange(
  reader: JsonLinesReader,
  start: number,
  end: number,
): { lines: number; unterminatedLast: boolean } {
  const path = reader.file.path;
  let summary;
  try {
    rejectUtf16Head(path);
    summary = readRange(path, start, end, READ_CHUNK, reader.onLine, {
      maxLineBytes: reader.limits.maxLineBytes,
      onTooLong: reader.tooLong,
      reuseBuffer: reader.sink.transient === true,
    });
  } catch (e) {
    if (e instanceof FileError) throw e;
    throw new FileError(path, `cannot read (${(e as Error).message})`);
  }
  reader.finish(summary, (offset) => openBlankAfterInFile(path, offset));
  return { lines: summary.lines, unterminatedLast: summary.unterminatedLast };
}

/**
 * Read JSON lines held in memory (e.g. decompressed gzip data) through the reader, with the
 * rules of a range reader over the whole file: a leading byte order mark skipped, UTF-8
 * checked per line, lines longer than `maxLineBytes` quarantined. Throws {@link FileError}
 * for UTF-16.
 *
 * @example
 * ```ts
 * // see the module example
 * ```
 */
export function readJsonLinesBytes(
  reader: JsonLinesReader,
  bytes: Uint8Array,
): { lines: number; unterminatedLast: boolean } {
  if (isUtf16(bytes)) throw new FileError(reader.file.path, UTF16_REASON);
  let ls = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const max = reader.limits.maxLineBytes;
  const blockUtf8 = isUtf8(bytes);
  let line = 0;
  let unterminatedLast = false;
  while (ls < bytes.length) {
    let e = bytes.indexOf(0x0a, ls);
    const last = e < 0;
    if (last) e = bytes.length;
    line++;
    if (e - ls > max) reader.tooLong(line);
    else {
      const utf8 = blockUtf8 || isUtf8(bytes.subarray(ls, e));
      reader.onLine(bytes, ls, e, 0, line, utf8);
    }
    if (last) unterminatedLast = true;
    ls = e + 1;
  }
  const summary = { lines: line, unterminatedLast };
  reader.finish(summary, (offset) => openBlankAfterInBytes(bytes, offset));
  return summary;
}
