/**
 * The CSV source of the streaming path: canonical CSV logs (`canonical-csv`: a header row, the
 * canonical fields by column name) and generic CSV read through a {@link FieldMapping}
 * (`mapped-csv` from `--map`, or a detected mapping): columns by header name, by position in a
 * headerless file (every column reference a position), and constants. A document source —
 * quoted fields may hold line breaks, so a file cannot be cut into byte ranges — that works on
 * the file's bytes (never one JS string, so size is no limit) and decodes only the cells it
 * needs. Polars-free.
 *
 * Records are split as today's readers split them (`csv.ts`: every `"` toggles quoting, a line
 * break outside quotes ends a record, one trailing CR dropped); a record of only space, tab
 * and CR is blank (skipped; issue 15: a record of other whitespace, e.g. U+2028, is no longer
 * skipped). Cells: canonical files as polars reads them (RFC 4180: a cell is quoted only when
 * it starts with `"`, `""` inside quotes is a quote, an empty unquoted cell is null, `""` the
 * empty string), mapped files as `mapped.ts` reads them (every `"` toggles quoting). Each body
 * record gives one {@link LogRecord} (fields as text or null; `line`: where the record starts,
 * the header being line 1) or a bad record: `truncated last record (unterminated quoted
 * field)`, `CSV record has N fields, the header has M` (headerless: `…, the other records have
 * M`), or — new — `malformed CSV record (text after the closing quote of a field)` (polars
 * refused the whole file).
 *
 * File errors ({@link FileError}): not UTF-8 (naming the line) or UTF-16; a header that is
 * unterminated, has an empty or repeated column name (canonical); a mapping naming a column the
 * header lacks or a position past the columns; more than `maxCsvColumns` columns in the header
 * (headerless: in most records) — found in one pass, so a file of 10,000 columns or with a
 * quote that never closes ends at once.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * import type { BadRecord, LogRecord } from "./types.ts";
 * const path = "tests/fixtures/logs/mixed.csv";
 * const file = { id: 0, path, name: path, format: "canonical-csv", gzip: false, defaultRun: "mixed",
 *   size: 0 };
 * const records: LogRecord[] = [];
 * const bad: BadRecord[] = [];
 * csvSource.read(file, { record: (r) => records.push(r), bad: (b) => bad.push(b) }, DEFAULT_LIMITS);
 * assert.deepEqual(records.map((r) => r.response), [
 *   "The answer is: (A)", null, "", "Line one,\nThe answer is: (B)", "x",
 * ]);
 * assert.deepEqual(bad, [
 *   { line: 9, reason: "CSV record has 3 fields, the header has 6" },
 *   { line: 10, reason: "truncated last record (unterminated quoted field)" },
 * ]);
 * ```
 * @module
 */
import { isUtf8 } from "node:buffer";
import { invalidUtf8Lines, isUtf16, NOT_UTF8 } from "../../codecs/encoding.ts";
import { RECORD_FIELDS, setRecordField } from "../record.ts";
import { UTF16_REASON } from "./lines.ts";
import {
  type DocumentSource,
  FileError,
  type LogRecord,
  type ObjectRecords,
  type RecordSink,
  type RecordSource,
  type SourceFile,
  type SourceLimits,
} from "./types.ts";
import { count } from "../../core/count.ts";

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** The default field separator, `,`. */
const COMMA = 0x2c;

/** The separators {@link detectSeparator} tells apart. */
export type Separator = "," | ";" | "\t";

/** Records {@link detectSeparator} reads. */
const SNIFF_RECORDS = 20;

/**
 * The field separator of CSV bytes (a file's head): of `,`, tab and `;`, the one that splits
 * the first complete records (up to 20, quotes respected) into the same number of fields on
 * each, and into the most (more than one); on a tie the first in that order (tab first for a
 * `.tsv` file: `preferTab`); `,` when none does. A spreadsheet saved in a locale whose decimal
 * mark is a comma writes `;` (Excel's "CSV"), a TSV tabs — and leaves commas in its text
 * unquoted, which may split every record alike: hence the most fields, not the first
 * separator that splits them alike.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const enc = (s: string) => new TextEncoder().encode(s);
 * assert.equal(detectSeparator(enc('question;answer;gold\n"Q, with a comma";No;No\n')), ";");
 * assert.equal(detectSeparator(enc("q\ta\tt\nQ1\t(A)\t(B)\n")), "\t");
 * assert.equal(detectSeparator(enc("Q1, one comma\t(A)\t(B)\nQ2, too\t(A)\t(A)\n")), "\t");
 * assert.equal(detectSeparator(enc('q,a,t\n"Q; one",(A),(B)\n')), ",");
 * ```
 */
export function detectSeparator(bytes: Uint8Array, preferTab = false): Separator {
  const from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const order: Separator[] = preferTab ? ["\t", ",", ";"] : [",", "\t", ";"];
  let best: { sep: Separator; width: number } = { sep: ",", width: 1 };
  for (const sep of order) {
    const widths = new Set<number>();
    let n = 0;
    eachRecord(bytes, from, (r) => {
      if (r.unterminated || r.end === bytes.length) return false; // may be cut
      widths.add(r.fields);
      return ++n < SNIFF_RECORDS;
    }, sep.charCodeAt(0));
    const [width] = widths;
    if (n > 0 && widths.size === 1 && width > best.width) best = { sep, width };
  }
  return best.sep;
}

/** The byte of a file's separator (`,` unless discovery found another). */
const separatorOf = (file: SourceFile) => (file.separator ?? ",").charCodeAt(0);

/** One CSV record: where it starts and ends in the bytes, its line and field count. */
interface Rec {
  line: number;
  start: number;
  /** End, a trailing CR excluded. */
  end: number;
  fields: number;
  unterminated: boolean;
}

/**
 * Call `fn` for each non-blank record of `bytes` from `from` (see the module doc); stops when
 * `fn` returns false.
 */
function eachRecord(
  bytes: Uint8Array,
  from: number,
  fn: (r: Rec) => boolean | void,
  separator = COMMA,
): void {
  const n = bytes.length;
  let line = 1;
  let start = from;
  let startLine = 1;
  let fields = 1;
  let quoted = false;
  const finish = (end: number, unterminated: boolean): boolean => {
    let e = end;
    if (e > start && bytes[e - 1] === 0x0d) e--;
    let blank = true;
    for (let i = start; i < e; i++) {
      const x = bytes[i];
      if (x !== 0x20 && x !== 0x09 && x !== 0x0d) {
        blank = false;
        break;
      }
    }
    if (blank) return true;
    return fn({ line: startLine, start, end: e, fields, unterminated }) !== false;
  };
  for (let i = from; i < n; i++) {
    const c = bytes[i];
    if (c === 0x22) quoted = !quoted;
    else if (c === separator) {
      if (!quoted) fields++;
    } else if (c === 0x0a || (c === 0x0d && !quoted && bytes[i + 1] !== 0x0a)) {
      // LF, CRLF, or a lone CR outside quotes (classic Mac OS line ends, as spreadsheets still
      // write them); a CR inside a quoted cell is text and does not count as a line
      line++;
      if (!quoted) {
        if (!finish(i, false)) return;
        start = i + 1;
        startLine = line;
        fields = 1;
      }
    }
  }
  if (start < n) finish(n, quoted);
}

/** Sentinel of a cell that is not valid CSV (text after a closing quote). */
const MALFORMED = Symbol("malformed");

/** Reads the cells of records: boundaries by toggling quotes, content by mode. */
class Cells {
  #bounds = new Int32Array(64);
  #scratch = new Uint8Array(1024);
  count = 0;

  constructor(readonly bytes: Uint8Array, readonly rfc: boolean, readonly separator = COMMA) {}

  /** Find the bounds of the first `upto + 1` cells of `[s, e)`. */
  split(s: number, e: number, upto: number): void {
    const b = this.bytes;
    let quoted = false;
    let cs = s;
    let k = 0;
    const need = 2 * (upto + 1);
    if (this.#bounds.length < need) this.#bounds = new Int32Array(need * 2);
    for (let i = s; i < e && k < upto; i++) {
      const c = b[i];
      if (c === 0x22) quoted = !quoted;
      else if (c === this.separator && !quoted) {
        this.#bounds[2 * k] = cs;
        this.#bounds[2 * k + 1] = i;
        k++;
        cs = i + 1;
      }
    }
    {
      // the cell `k` runs to the next unquoted comma or the end
      let i = cs;
      let q = false;
      for (; i < e; i++) {
        const c = b[i];
        if (c === 0x22) q = !q;
        else if (c === this.separator && !q) break;
      }
      this.#bounds[2 * k] = cs;
      this.#bounds[2 * k + 1] = i;
      k++;
    }
    this.count = k;
  }

  /** Cell `k` (after {@link split}): text, null (empty, unquoted) or MALFORMED. */
  cell(k: number): string | null | typeof MALFORMED {
    if (k >= this.count) return null;
    const s = this.#bounds[2 * k], e = this.#bounds[2 * k + 1];
    const b = this.bytes;
    if (s === e) return null;
    if (this.rfc) {
      if (b[s] !== 0x22) return decoder.decode(b.subarray(s, e));
      let out = 0;
      for (let i = s + 1; i < e; i++) {
        if (b[i] === 0x22) {
          if (i + 1 < e && b[i + 1] === 0x22) {
            this.#put(out++, 0x22);
            i++;
            continue;
          }
          return i + 1 === e ? decoder.decode(this.#scratch.subarray(0, out)) : MALFORMED;
        }
        this.#put(out++, b[i]);
      }
      return MALFORMED;
    }
    let hasQuote = false;
    for (let i = s; i < e; i++) {
      if (b[i] === 0x22) {
        hasQuote = true;
        break;
      }
    }
    if (!hasQuote) return decoder.decode(b.subarray(s, e));
    let out = 0;
    let quoted = false;
    for (let i = s; i < e; i++) {
      const c = b[i];
      if (c === 0x22) {
        if (quoted && i + 1 < e && b[i + 1] === 0x22) {
          this.#put(out++, 0x22);
          i++;
        } else quoted = !quoted;
      } else this.#put(out++, c);
    }
    return decoder.decode(this.#scratch.subarray(0, out));
  }

  #put(at: number, x: number): void {
    if (at >= this.#scratch.length) {
      const bigger = new Uint8Array(this.#scratch.length * 2);
      bigger.set(this.#scratch);
      this.#scratch = bigger;
    }
    this.#scratch[at] = x;
  }
}

/** The reason of a record with text after the closing quote of a cell. */
const MALFORMED_REASON = "malformed CSV record (text after the closing quote of a field)";

/**
 * Check that `bytes` are UTF-8 text (not UTF-16), else throw the {@link FileError} (`mapped`:
 * "cannot read (…)"); the offset of the first record (after a byte order mark).
 */
function checkText(path: string, bytes: Uint8Array, mapped: boolean): number {
  if (isUtf16(bytes)) {
    throw new FileError(path, mapped ? `cannot read (${UTF16_REASON})` : UTF16_REASON);
  }
  if (!isUtf8(bytes)) {
    const [line] = invalidUtf8Lines(bytes);
    const what = `line ${line} is ${NOT_UTF8}`;
    throw new FileError(path, mapped ? `cannot read (${what})` : what);
  }
  return bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
}

const tooWide = (n: number, what: string, maxColumns: number) =>
  `${what} has ${count(n)} columns, more than the limit of ` +
  `${count(maxColumns)} (--max-csv-columns)`;

/**
 * The column names of the header (the first record from `from`), trimmed; null when there is
 * no record. Calls `error` for a header that is unterminated or wider than `maxColumns`, and
 * (with `checkNames`) for an empty or repeated name.
 */
function readHeader(
  bytes: Uint8Array,
  from: number,
  checkNames: boolean,
  maxColumns: number,
  error: (reason: string) => never,
  separator = COMMA,
): string[] | null {
  let header: Rec | null = null;
  eachRecord(bytes, from, (r) => {
    header = r;
    return false;
  }, separator);
  const h = header as Rec | null;
  if (h === null) return null;
  if (h.unterminated) error("the CSV header has an unterminated quote");
  if (h.fields > maxColumns) error(tooWide(h.fields, "the CSV header", maxColumns));
  const cells = new Cells(bytes, false, separator);
  cells.split(h.start, h.end, h.fields - 1);
  const names: string[] = [];
  for (let k = 0; k < h.fields; k++) {
    const c = cells.cell(k);
    names.push(typeof c === "string" ? c.trim() : "");
  }
  if (checkNames) {
    const dup = names.find((n, i) => n === "" || names.indexOf(n) !== i);
    if (dup !== undefined) {
      error(
        dup === "" ? "the CSV header has an empty column name" : `the CSV header repeats "${dup}"`,
      );
    }
  }
  return names;
}

/** Why a body record is not read (unterminated, or `width` fields expected), or null. */
function shapeReason(r: Rec, width: number, mismatch: string): string | null {
  if (r.unterminated) return "truncated last record (unterminated quoted field)";
  if (r.fields !== width) return `CSV record has ${r.fields} fields, ${mismatch} ${width}`;
  return null;
}

/** Where one canonical field comes from in a CSV file. */
type Col = { kind: "none" } | { kind: "column"; index: number } | {
  kind: "constant";
  value: string;
};

/** The field count most records have (ties: the smaller); null when there is no record. */
function commonWidth(bytes: Uint8Array, from: number, separator: number): number | null {
  const counts = new Map<number, number>();
  let first = -1;
  eachRecord(bytes, from, (r) => {
    if (first < 0) first = r.fields;
    if (!r.unterminated) counts.set(r.fields, (counts.get(r.fields) ?? 0) + 1);
  }, separator);
  if (first < 0) return null;
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? first;
}

/**
 * Where each canonical field comes from, given the mapping and the column `names` (headerless:
 * `col<k>`); `error` for a mapped column the file does not have.
 */
function columnsOf(
  fields: Record<string, string | number | undefined>,
  constants: Record<string, string | undefined>,
  names: readonly string[],
  positional: boolean,
  mapped: boolean,
  error: (reason: string) => never,
): Col[] {
  const width = names.length;
  // a column another field is mapped from is not also read by its own name
  const consumed = new Set(Object.values(fields).filter((v) => typeof v === "string"));
  const spec = (f: string, v: string | number) => `${mapped ? "--map " : ""}${f}=${v}`;
  return RECORD_FIELDS.map((f): Col => {
    const c = constants[f];
    if (c !== undefined) return { kind: "constant", value: c };
    const ref = fields[f];
    if (typeof ref === "number") {
      if (ref >= width) {
        error(`${spec(f, ref)}: the records have ${width} columns (positions 0–${width - 1})`);
      }
      return { kind: "column", index: ref };
    }
    if (typeof ref === "string") {
      const index = names.lastIndexOf(ref);
      if (index < 0) error(`${spec(f, ref)}: no column "${ref}" (columns: ${names.join(", ")})`);
      return { kind: "column", index };
    }
    if (positional || consumed.has(f)) return { kind: "none" };
    const index = names.lastIndexOf(f);
    return index < 0 ? { kind: "none" } : { kind: "column", index };
  });
}

/**
 * Where each record field (`SourceFile.record`) comes from: its column (by name or position),
 * its literal, or none when a field read by its own name is not a column; `error` for a column
 * `--map` names that the file does not have.
 */
function recordColumnsOf(
  record: readonly RecordSource[],
  names: readonly string[],
  positional: boolean,
  error: (reason: string) => never,
): { slot: string; col: Col }[] {
  return record.map(({ slot, key, value, mapped }) => {
    if (value !== undefined) return { slot, col: { kind: "constant", value } };
    const ref = key ?? slot;
    const index = typeof ref === "number" ? ref : positional ? -1 : names.lastIndexOf(ref);
    if (index >= 0 && index < names.length) return { slot, col: { kind: "column", index } };
    if (mapped) {
      error(`--map ${slot}=${ref}: no column "${ref}" (columns: ${names.join(", ")})`);
    }
    return { slot, col: { kind: "none" } };
  });
}

/**
 * Read CSV bytes (a whole file) as {@link csvSource} reads a file: records and bad records to
 * `sink` in file order. Throws {@link FileError} when the file cannot be read as a whole.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * const file = { id: 0, path: "a.csv", name: "a.csv", format: "mapped-csv", gzip: false,
 *   defaultRun: "a", size: 0, fields: { fields: { input: 0, response: 1 }, constants: { task: "nycc" } } };
 * const got: unknown[] = [];
 * const bytes = new TextEncoder().encode('Q1,"A, b"\nQ2,"say ""hi"""\n');
 * readCsvBytes(file, bytes, { record: (r) => got.push([r.line, r.input, r.response, r.task]),
 *   bad: () => {} }, DEFAULT_LIMITS);
 * assert.deepEqual(got, [[1, "Q1", "A, b", "nycc"], [2, "Q2", 'say "hi"', "nycc"]]);
 * ```
 */
export function readCsvBytes(
  file: SourceFile,
  bytes: Uint8Array,
  sink: RecordSink,
  limits: SourceLimits,
): void {
  const mapped = file.format.startsWith("mapped");
  const prefix = mapped ? `${file.format} log: ` : "";
  const error = (reason: string): never => {
    throw new FileError(file.path, prefix + reason);
  };
  const from = checkText(file.path, bytes, mapped);
  const mapping = file.fields ?? null;
  const fields = mapping?.fields ?? {};
  const constants = mapping?.constants ?? {};
  const refs = Object.entries(fields).filter(([, v]) => v !== undefined) as [
    string,
    string | number,
  ][];
  const positional = refs.length > 0 && refs.every(([, v]) => typeof v === "number");
  const separator = separatorOf(file);
  const cells = new Cells(bytes, !mapped, separator);
  const maxColumns = limits.maxCsvColumns;

  let width: number;
  let names: string[] = [];
  if (positional) {
    const common = commonWidth(bytes, from, separator);
    if (common === null) return; // no records
    width = common;
    if (width > maxColumns) error(tooWide(width, "most records", maxColumns));
    names = Array.from({ length: width }, (_, k) => `col${k}`);
  } else {
    const header = readHeader(bytes, from, !mapped, maxColumns, error, separator);
    if (header === null) return; // no records
    names = header;
    width = names.length;
  }
  const cols = columnsOf(fields, constants, names, positional, mapped, error);
  const extra = file.record?.length ? recordColumnsOf(file.record, names, positional, error) : [];
  const upto = Math.max(
    -1,
    ...[...cols, ...extra.map((e) => e.col)].map((c) => c.kind === "column" ? c.index : -1),
  );
  const mismatch = positional ? "the other records have" : "the header has";
  let skipHeader = !positional;
  eachRecord(bytes, from, (r) => {
    if (skipHeader) {
      skipHeader = false;
      return;
    }
    const shape = shapeReason(r, width, mismatch);
    if (shape !== null) {
      sink.bad({ line: r.line, reason: shape });
      return;
    }
    const record: LogRecord = { line: r.line };
    const out = record as unknown as Record<string, unknown>;
    if (upto >= 0) cells.split(r.start, r.end, upto);
    for (let i = 0; i < RECORD_FIELDS.length; i++) {
      const c = cols[i];
      if (c.kind === "none") continue;
      if (c.kind === "constant") {
        out[RECORD_FIELDS[i]] = c.value;
        continue;
      }
      const v = cells.cell(c.index);
      if (v === MALFORMED) {
        sink.bad({ line: r.line, reason: MALFORMED_REASON });
        return;
      }
      out[RECORD_FIELDS[i]] = v;
    }
    for (const { slot, col } of extra) {
      if (col.kind === "none") continue;
      const v = col.kind === "constant" ? col.value : cells.cell(col.index);
      if (v === MALFORMED) {
        sink.bad({ line: r.line, reason: MALFORMED_REASON });
        return;
      }
      setRecordField(record, slot, v);
    }
    sink.record(record);
  }, separator);
}

/**
 * The CSV source (formats `canonical-csv` and `mapped-csv`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * const path = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(path, Array.from({ length: 10_000 }, (_, i) => `c${i}`).join(",") + "\n");
 * const file = { id: 0, path, name: path, format: "canonical-csv", gzip: false, defaultRun: "x",
 *   size: 0 };
 * assert.throws(() => csvSource.read(file, { record: () => {}, bad: () => {} }, DEFAULT_LIMITS),
 *   /the CSV header has 10,000 columns, more than the limit of 1,000 \(--max-csv-columns\)/);
 * Deno.removeSync(path);
 * ```
 */
export const csvSource: DocumentSource = {
  kind: "document",
  read(file, sink, limits) {
    readCsvBytes(file, fileBytes(file.path), sink, limits);
  },
};

/** The bytes of `path`; a {@link FileError} when it cannot be read. */
function fileBytes(path: string): Uint8Array {
  try {
    return Deno.readFileSync(path);
  } catch (e) {
    throw new FileError(path, `cannot read (${(e as Error).message})`);
  }
}

/**
 * Every record of a CSV file with a header row as an object of all its cells by column name
 * (the header's names trimmed; cells as canonical CSV logs read them: RFC 4180 quoting, an
 * empty unquoted cell null, `""` the empty string), with the records that cannot be read and
 * the reasons {@link csvSource} gives (unterminated last record, a field count other than the
 * header's, text after a closing quote). For logs of a benchmark's own format (ARB), whose
 * fields are not the canonical ones. Throws {@link FileError} as {@link csvSource} does for a
 * file that cannot be read (not UTF-8, a bad header, more columns than `maxCsvColumns`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const path = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(path, 'id, subject ,note\n1,law,""\n2,"a ""b""",\n3,x\n');
 * const { records, bad } = readCsvObjects(path);
 * assert.deepEqual(records, [
 *   { line: 2, value: { id: "1", subject: "law", note: "" } },
 *   { line: 3, value: { id: "2", subject: 'a "b"', note: null } },
 * ]);
 * assert.deepEqual(bad, [{ line: 4, reason: "CSV record has 2 fields, the header has 3" }]);
 * Deno.removeSync(path);
 * ```
 */
export function readCsvObjects(path: string, maxColumns = 1000): ObjectRecords {
  const out: ObjectRecords = { records: [], bad: [] };
  const bytes = fileBytes(path);
  const from = checkText(path, bytes, false);
  const names = readHeader(bytes, from, true, maxColumns, (reason) => {
    throw new FileError(path, reason);
  });
  if (names === null) return out;
  const width = names.length;
  const cells = new Cells(bytes, true);
  let skipHeader = true;
  eachRecord(bytes, from, (r) => {
    if (skipHeader) {
      skipHeader = false;
      return;
    }
    const shape = shapeReason(r, width, "the header has");
    if (shape !== null) {
      out.bad.push({ line: r.line, reason: shape });
      return;
    }
    cells.split(r.start, r.end, width - 1);
    const value: Record<string, unknown> = {};
    for (let k = 0; k < width; k++) {
      const v = cells.cell(k);
      if (v === MALFORMED) {
        out.bad.push({ line: r.line, reason: MALFORMED_REASON });
        return;
      }
      value[names[k]] = v;
    }
    out.records.push({ line: r.line, value });
  });
  return out;
}

/**
 * The first `n` records of CSV bytes (e.g. a file's first megabyte; cells split at `separator`,
 * `,` by default) as lists of cells (quotes
 * toggled as `mapped.ts` reads them; an empty unquoted cell is null), for field detection: with
 * a header, `detectFields` takes them as objects keyed by the header's names; without one,
 * `pipeline/field_choice.ts` chooses the columns by content. A record cut by the end of `bytes`, and records of more
 * than `maxColumns` cells, are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const head = new TextEncoder().encode('Q1,"A, b",(A)\nQ2,,(B)\nQ3,"cut');
 * assert.deepEqual(sampleCsvRows(head), [["Q1", "A, b", "(A)"], ["Q2", null, "(B)"]]);
 * ```
 */
export function sampleCsvRows(
  bytes: Uint8Array,
  n = 20,
  maxColumns = 1000,
  separator: Separator = ",",
): (string | null)[][] {
  const from = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const sep = separator.charCodeAt(0);
  const cells = new Cells(bytes, false, sep);
  const out: (string | null)[][] = [];
  eachRecord(bytes, from, (r) => {
    if (r.unterminated || r.end === bytes.length) return false; // may be cut
    if (r.fields > maxColumns) return;
    cells.split(r.start, r.end, r.fields - 1);
    const row: (string | null)[] = [];
    for (let k = 0; k < r.fields; k++) {
      const c = cells.cell(k);
      row.push(c === MALFORMED ? null : c);
    }
    out.push(row);
    return out.length < n;
  }, sep);
  return out;
}
