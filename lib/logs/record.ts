/**
 * One record of a run log as its format's reader gives it, before any check: the canonical
 * fields as raw JSON values (so that a wrong type can be named, never silently coerced), the
 * tool's own verdict where the log keeps it, and where the response text lies in the file.
 * Every reader of the streaming path produces these (`sources/`), and `pipeline/check.ts`
 * validates them with the same rules for every format.
 *
 * @example
 * ```ts
 * const r: LogRecord = { line: 3, task: "nycc", example_index: 7, response: "The answer is: (b)" };
 * textOf(r.example_index); // "7"
 * ```
 * @module
 */
/** Where a response's text is, for reading it back (`responses.ts`). */
export interface Pointer {
  /**
   * `span`: a JSON string (quotes included) at `offset` in the plain file; `gz-span`: the same
   * in the decompressed bytes of a gzip file; `member`: the same in the ZIP member `member`;
   * `inline` (`offset` -1): the text is not addressable (a document parsed whole), so
   * `pipeline/responses.ts` reads the file again through its source; `none`: no pointer (CSV,
   * lm-eval lines read through `JSON.parse`), read again the same way.
   */
  kind: PointerKind;
  offset: number;
  length: number;
  member?: string | null;
}

/** The pointer kinds, by their code in `ptr_kind`. */
export const PTR_KINDS = ["none", "span", "gz-span", "member", "inline"] as const;
/** One pointer kind. */
export type PointerKind = (typeof PTR_KINDS)[number];

/** A JSON string inside a byte buffer: the response of a line, not yet decoded. */
export interface ResponseSpan {
  /** The bytes holding the line. */
  bytes: Uint8Array;
  /** Offset of the opening quote in `bytes`. */
  start: number;
  /** Offset after the closing quote. */
  end: number;
  /** The text, decoded on first use (exactly as `JSON.parse` decodes it). */
  text(): string;
  /** Python `len` of the decoded text. */
  chars: number;
  /** UTF-8 length of the decoded text. */
  utf8Bytes: number;
  /** The scanner's string flags (`F_ESCAPE`, `F_U_ASCII` of `json_scan.ts`). */
  flags: number;
}

/** One record of a run log. Absent fields are undefined; present ones hold their JSON value. */
export interface LogRecord {
  /** 1-based line (line formats) or record number (documents) in the file. */
  line: number;
  run?: unknown;
  model?: unknown;
  benchmark?: unknown;
  task?: unknown;
  example_index?: unknown;
  input?: unknown;
  target?: unknown;
  /** The raw response: a JSON value, or a span of the line's bytes. */
  response?: unknown;
  response_tokens?: unknown;
  epoch?: unknown;
  /** The evaluation tool's own verdict, when the log keeps one. */
  stored_correct?: boolean | null;
  /** The evaluation tool's own extracted answer, when the log keeps one. */
  tool_extracted?: string | null;
  /** lm-evaluation-harness: the filter this line belongs to. */
  filter?: string | null;
  /** Where the response text is, to read it back later. */
  pointer?: Pointer;
  /** The record's own id, for benchmarks whose rows are tied by id (a record field). */
  example_id?: unknown;
  /** A label of a part of the task (a record field). */
  subset?: unknown;
  /** A benchmark's other record fields (`SourceFile.record`), raw, by name. */
  fields?: Record<string, unknown>;
}

/** Record fields kept on a {@link LogRecord} of their own name rather than in `fields`. */
export const RECORD_SLOTS = ["example_id", "subset"] as const;

/**
 * Set a record field's raw value: `example_id` and `subset` on the record, the others in its
 * `fields`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const r: LogRecord = { line: 1 };
 * setRecordField(r, "example_id", "q7");
 * setRecordField(r, "level", 3);
 * assert.deepEqual(r, { line: 1, example_id: "q7", fields: { level: 3 } });
 * ```
 */
export function setRecordField(r: LogRecord, slot: string, value: unknown): void {
  if (slot === "example_id" || slot === "subset") r[slot] = value;
  else (r.fields ??= {})[slot] = value;
}

/** A record that could not be read (malformed line, wrong encoding, …) and why. */
export interface BadRecord {
  line: number;
  reason: string;
  /** The run it belongs to, when the broken text still shows it. */
  run?: string | null;
}

/** The canonical fields a {@link LogRecord} may carry. */
export const RECORD_FIELDS = [
  "run",
  "model",
  "benchmark",
  "task",
  "example_index",
  "input",
  "target",
  "response",
  "response_tokens",
  "epoch",
] as const;

/**
 * A field value as text, the way every reader keeps it: strings as they are, numbers and
 * booleans as JSON; null for null or absent. Lists and objects give undefined (the check
 * step names them).
 *
 * @example
 * ```ts
 * textOf(3); // "3"
 * textOf(null); // null
 * textOf(["a"]); // undefined
 * ```
 */
export function textOf(v: unknown): string | null | undefined {
  if (v === null || v === undefined) return null;
  if (typeof v === "string") return v;
  if (typeof v === "number" || typeof v === "boolean") return JSON.stringify(v);
  if (isSpan(v)) return v.text();
  return undefined;
}

/**
 * Whether `v` is a {@link ResponseSpan}.
 *
 * @example
 * ```ts
 * isSpan("text"); // false
 * ```
 */
export function isSpan(v: unknown): v is ResponseSpan {
  return typeof v === "object" && v !== null && "bytes" in v && "text" in v;
}
