/**
 * Response texts read back on demand from the pointers of compact rows (issue 13, item 2):
 * polars holds compact frames only, and a notebook that filters 50 failures reads 50
 * responses — {@link responses} fills a `response` column for exactly the rows of a frame,
 * {@link readResponses} gives the texts of a list of pointers.
 *
 * Each file is opened once and read in offset order, by pointer kind:
 * - `span` (plain JSON lines, lm-eval): one positional read of the JSON string (quotes
 *   included) per response, decoded by `JSON.parse` — escapes, non-ASCII, surrogate pairs and
 *   lone surrogates come back exactly as the scoring read them;
 * - `gz-span` (gzip JSON lines): ONE streaming pass over the gzip data (checked, within the
 *   limits), stopped after the last byte needed — never inflated whole (so the CRC-32 of a
 *   member read only in part is not checked: the size, mtime and JSON-string checks stand
 *   guard, and the whole file was checked when it was scored);
 * - `member` (inspect `.eval`): the archive opened once, each sample member inflated once;
 * - `inline` and `none` (documents parsed whole, CSV, lm-eval lines read through
 *   `JSON.parse`): the file read again through its source, taking the response of the
 *   record with the row's `line` (and `epoch`, then `run`, when several records share a
 *   line: lm-eval repeats, mcpbr conditions); line formats stop after the last line wanted.
 *
 * A file is never allowed to give wrong text: when it differs from what the load saw (size or
 * mtime, when the caller passes them, or changing during the read), or a pointer no longer
 * lands on a JSON string, or a record is gone, the read throws a {@link FileChangedError}
 * naming the file ("changed since it was scored; load again").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const path = Deno.makeTempFileSync({ suffix: ".jsonl" });
 * const line = '{"task": "nycc", "response": "caf\\u00e9 \\"ok\\"\\n"}\n';
 * Deno.writeTextFileSync(path, line);
 * const offset = line.indexOf('"caf'); // the JSON string, quotes included
 * const ref = { file: path, format: "canonical-jsonl", gzip: false, kind: "span", offset,
 *   length: line.lastIndexOf('"') + 1 - offset, member: null, line: 1 };
 * assert.deepEqual(readResponses([ref]), ['café "ok"\n']);
 * Deno.writeTextFileSync(path, line.replace("nycc", "nyc")); // shifted by one byte
 * assert.throws(() => readResponses([ref]), /changed since it was scored/);
 * Deno.removeSync(path);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { gunzipChunks } from "../codecs/gzip_stream.ts";
import { DEFAULT_LIMITS } from "../logs/limits.ts";
import { textOf } from "../logs/record.ts";
import { DOCUMENT_CAP } from "../logs/sources/document.ts";
import { sourceFor } from "../logs/sources/all.ts";
import { logFormats } from "../benchmarks/registry.ts";
import {
  type FieldMapping,
  FileError,
  type LogRecord,
  type SourceFile,
  type SourceLimits,
} from "../logs/sources/types.ts";
import { ZipArchive } from "../codecs/zip.ts";
import { count } from "../core/count.ts";

/** Where one response is: a compact row's file, pointer, line and epoch. */
export interface ResponseRef {
  /** The file (`source_file`). */
  file: string;
  /** Its format (needed to read `inline`/`none` rows again). */
  format: string;
  /** Whether the file is gzip data. */
  gzip: boolean;
  /** The pointer kind (`ptr_kind`: span, gz-span, member, inline, none). */
  kind: string;
  offset: number;
  length: number;
  member: string | null;
  /** The row's line (line formats) or record number (documents). */
  line: number;
  /** The row's epoch: tells apart several records of one line (lm-eval repeats). */
  epoch?: number | null;
  /** The row's run: tells apart several records of one line (mcpbr conditions). */
  run?: string | null;
}

/**
 * What the load knew of a file (a `SourceFile` fits): how to read it again, and its size and
 * mtime then, checked when given.
 *
 * @internal a script passes `LoadedRuns.sources` back to `responses` as it is.
 */
export interface ResponseFile {
  format: string;
  gzip: boolean;
  /** The log's own name (default: the path without `.gz`). */
  name?: string;
  defaultRun?: string;
  defaultModel?: string | null;
  taskHint?: SourceFile["taskHint"];
  fields?: FieldMapping | null;
  /** A CSV file's field separator, when not `,`. */
  separator?: SourceFile["separator"];
  /** Bytes on disk at the load (checked when given). */
  size?: number | null;
  /** Modification time at the load, ms since the epoch (checked when given). */
  mtime?: number | null;
  /**
   * The benchmark its records' own fields name (`record_fields.ts`), when they name one: a
   * benchmark command tells its logs from the others by it.
   */
  benchmarkHint?: SourceFile["benchmarkHint"];
}

/** File path → what the load knew of it. */
export type ResponseFiles =
  | ReadonlyMap<string, ResponseFile>
  | Readonly<Record<string, ResponseFile>>;

/** Options of {@link readResponses} and {@link responses}. */
export interface ResponseOptions {
  /** The files' descriptions (required for `inline`/`none` rows; size/mtime checked). */
  files?: ResponseFiles;
  /** Limits of the gzip and ZIP reads (default: `DEFAULT_LIMITS`). */
  limits?: SourceLimits;
}

/**
 * A file differs from the one the rows were scored from: its texts cannot be trusted.
 *
 * @example
 * ```ts
 * new FileChangedError("a.jsonl", "size 10 → 12").message;
 * // "a.jsonl: changed since it was scored (size 10 → 12); load again"
 * ```
 */
export class FileChangedError extends FileError {
  constructor(file: string, why: string) {
    super(file, `changed since it was scored (${why}); load again`);
  }
}

/** Formats whose sources emit records in line order as they read (so a read can stop early). */
const STREAMED_FORMATS = new Set([
  "canonical-jsonl",
  "mapped-jsonl",
  "lm-eval",
  "canonical-csv",
  "mapped-csv",
]);

const fatal = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/**
 * The texts of the responses `refs` point at, in the order of `refs` (null: the record's
 * response is null). Throws {@link FileChangedError} when a file changed since the load, and
 * a FileError naming the file when it cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * import { csvSource } from "@runlens/logs/sources/csv.ts";
 * import { textOf } from "@runlens/logs/record.ts";
 * const path = "tests/fixtures/logs/mixed.csv";
 * const lines: number[] = [];
 * const texts: (string | null)[] = [];
 * csvSource.read({ id: 0, path, name: path, format: "canonical-csv", gzip: false,
 *   defaultRun: "mixed", size: 0 }, { record: (r) => {
 *     lines.push(r.line);
 *     texts.push(textOf(r.response) ?? null);
 *   }, bad: () => {} }, DEFAULT_LIMITS);
 * // CSV records carry no pointer (kind "none"): the file is read again through its source
 * const refs = lines.map((line) => ({ file: path, format: "canonical-csv", gzip: false,
 *   kind: "none", offset: -1, length: 0, member: null, line }));
 * assert.deepEqual(readResponses(refs, { files: { [path]: { format: "canonical-csv",
 *   gzip: false } } }), texts);
 * ```
 */
export function readResponses(
  refs: readonly ResponseRef[],
  opts: ResponseOptions = {},
): (string | null)[] {
  const out = new Array<string | null>(refs.length).fill(null);
  const limits = opts.limits ?? DEFAULT_LIMITS;
  for (const [path, rows] of groupBy(refs.map((_, i) => i), (i) => refs[i].file)) {
    const info = lookup(opts.files, path);
    const before = stamp(path, info);
    for (const [kind, group] of groupBy(rows, (i) => readerOf(refs[i].kind))) {
      READERS[kind as keyof typeof READERS](path, refs, group, out, { info, limits });
    }
    const after = stamp(path, null);
    if (after.size !== before.size || after.mtime !== before.mtime) {
      throw new FileChangedError(path, "modified while its responses were read");
    }
  }
  return out;
}

/** `indices` grouped by `key`, groups in first-seen order. */
function groupBy(indices: readonly number[], key: (i: number) => string): Map<string, number[]> {
  const groups = new Map<string, number[]>();
  for (const i of indices) {
    const k = key(i);
    const list = groups.get(k);
    if (list) list.push(i);
    else groups.set(k, [i]);
  }
  return groups;
}

function lookup(files: ResponseFiles | undefined, path: string): ResponseFile | null {
  if (!files) return null;
  if (files instanceof Map) return files.get(path) ?? null;
  const record = files as Readonly<Record<string, ResponseFile>>;
  return Object.hasOwn(record, path) ? record[path] : null;
}

/** The file's size and mtime now; throws when they differ from what `info` says. */
function stamp(path: string, info: ResponseFile | null): { size: number; mtime: number | null } {
  let st: Deno.FileInfo;
  try {
    st = Deno.statSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new FileChangedError(path, "no longer there");
    throw new FileError(path, `cannot read (${(e as Error).message})`);
  }
  const now = { size: st.size, mtime: st.mtime?.getTime() ?? null };
  if (info?.size != null && info.size !== now.size) {
    throw new FileChangedError(path, `size ${info.size} → ${now.size} bytes`);
  }
  if (info?.mtime != null && info.mtime !== now.mtime) {
    throw new FileChangedError(path, "modification time differs");
  }
  return now;
}

/** Which reader serves a pointer kind. */
function readerOf(kind: string): keyof typeof READERS {
  if (kind === "span" || kind === "gz-span" || kind === "member") return kind;
  return "again"; // inline, none: read the file again
}

/** What every reader gets besides the rows it serves. */
interface Context {
  info: ResponseFile | null;
  limits: SourceLimits;
}

type Reader = (
  path: string,
  refs: readonly ResponseRef[],
  rows: number[],
  out: (string | null)[],
  ctx: Context,
) => void;

/** The JSON string `bytes` (quotes included) found at `offset`, as `JSON.parse` decodes it. */
function jsonString(path: string, bytes: Uint8Array, offset: number, length: number): string {
  const off = count(offset);
  if (bytes.length !== length || bytes[0] !== 0x22 || bytes[length - 1] !== 0x22) {
    throw new FileChangedError(path, `no JSON string of ${length} bytes at byte ${off}`);
  }
  let text: unknown;
  try {
    text = JSON.parse(fatal.decode(bytes));
  } catch {
    text = undefined;
  }
  if (typeof text !== "string") {
    throw new FileChangedError(path, `no JSON string of ${length} bytes at byte ${off}`);
  }
  return text;
}

/** Rows in offset order. */
const byOffset = (refs: readonly ResponseRef[], rows: number[]) =>
  [...rows].sort((a, b) => refs[a].offset - refs[b].offset);

/** `span`: positional reads of the plain file. */
const readSpans: Reader = (path, refs, rows, out) => {
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (e) {
    throw new FileError(path, `cannot read (${(e as Error).message})`);
  }
  try {
    for (const i of byOffset(refs, rows)) {
      const { offset, length } = refs[i];
      out[i] = jsonString(path, pread(file, offset, length), offset, length);
    }
  } finally {
    file.close();
  }
};

/** `length` bytes at `offset` (fewer at the end of the file). */
function pread(file: Deno.FsFile, offset: number, length: number): Uint8Array {
  const buf = new Uint8Array(Math.max(0, length));
  file.seekSync(offset, Deno.SeekMode.Start);
  let at = 0;
  while (at < buf.length) {
    const n = file.readSync(buf.subarray(at));
    if (n === null || n === 0) break;
    at += n;
  }
  return buf.subarray(0, at);
}

/** `gz-span`: one pass over the decompressed stream, stopped after the last byte needed. */
const readGzSpans: Reader = (path, refs, rows, out, { limits }) => {
  const order = byOffset(refs, rows);
  const active: { i: number; buf: Uint8Array }[] = [];
  let next = 0; // the first row of `order` not yet started
  let pos = 0; // decompressed offset of the chunk
  for (const chunk of gunzipChunks(path, limits)) {
    const end = pos + chunk.length;
    while (next < order.length && refs[order[next]].offset < end) {
      active.push({ i: order[next], buf: new Uint8Array(Math.max(0, refs[order[next]].length)) });
      next++;
    }
    for (let k = active.length - 1; k >= 0; k--) {
      const { i, buf } = active[k];
      const { offset, length } = refs[i];
      const from = Math.max(offset, pos), to = Math.min(offset + length, end);
      if (to > from) buf.set(chunk.subarray(from - pos, to - pos), from - offset);
      if (offset + length <= end) {
        out[i] = jsonString(path, buf, offset, length);
        active.splice(k, 1);
      }
    }
    pos = end;
    if (next === order.length && active.length === 0) return; // stops the inflate
  }
  const missing = active.length > 0 ? refs[active[0].i] : refs[order[next]];
  throw new FileChangedError(
    path,
    `it inflates to ${count(pos)} bytes, the response at byte ` +
      `${count(missing.offset)} is not there`,
  );
};

/** `member`: the archive opened once, each member inflated once. */
const readMembers: Reader = (path, refs, rows, out, { limits }) => {
  const zip = ZipArchive.open(path);
  try {
    for (const [member, group] of groupBy(rows, (i) => refs[i].member ?? "")) {
      const bytes = zip.read(member, limits, DOCUMENT_CAP);
      for (const i of byOffset(refs, group)) {
        const { offset, length } = refs[i];
        const span = bytes.subarray(offset, offset + length);
        out[i] = jsonString(`${path} (member ${member})`, span, offset, length);
      }
    }
  } finally {
    zip.close();
  }
};

/** Thrown from the sink to stop a line source after the last line wanted. */
class Stop extends Error {}

/** `inline`, `none`: the file read again through its source; the wanted records' responses. */
const readAgain: Reader = (path, refs, rows, out, { info, limits }) => {
  const first = refs[rows[0]];
  const file = sourceFileOf(path, info ?? { format: first.format, gzip: first.gzip });
  const found = collectRecords(file, new Set(rows.map((i) => refs[i].line)), limits);
  for (const i of rows) out[i] = pick(file, found.get(refs[i].line) ?? [], refs[i]);
};

/** The {@link SourceFile} a source reads `path` as. */
function sourceFileOf(path: string, info: ResponseFile): SourceFile {
  if (!info.format) throw new FileError(path, "no format given to read its responses again");
  return {
    id: 0,
    path,
    name: info.name ?? path.replace(/\.gz$/i, ""),
    format: info.format,
    gzip: info.gzip,
    defaultRun: info.defaultRun ?? "",
    defaultModel: info.defaultModel ?? null,
    taskHint: info.taskHint ?? null,
    fields: info.fields ?? null,
    ...(info.separator ? { separator: info.separator } : {}),
    size: Deno.statSync(path).size,
  };
}

/** The records of `file` on the `wanted` lines, by line. */
function collectRecords(
  file: SourceFile,
  wanted: ReadonlySet<number>,
  limits: SourceLimits,
): Map<number, LogRecord[]> {
  const source = sourceFor(file, logFormats());
  if (!source) throw new FileError(file.path, `no reader for format ${file.format}`);
  let last = 0;
  for (const line of wanted) last = Math.max(last, line); // no spread: sets may be large
  const canStop = STREAMED_FORMATS.has(file.format);
  const found = new Map<number, LogRecord[]>();
  let stopped = false;
  const past = (line: number) => {
    if (canStop && line > last) {
      stopped = true;
      throw new Stop();
    }
  };
  const sink = {
    record: (r: LogRecord) => {
      past(r.line);
      if (!wanted.has(r.line)) return;
      // decode now: a span's bytes are a block the reader may reuse
      const kept = { ...r, response: textOf(r.response) ?? r.response };
      found.set(r.line, [...found.get(r.line) ?? [], kept]);
    },
    bad: (b: { line: number }) => past(b.line),
  };
  try {
    if (source.kind === "lines") source.readRange(file, 0, file.size, sink, limits);
    else source.read(file, sink, limits);
  } catch (e) {
    if (!stopped) throw e; // a line source wraps the Stop into a FileError: the flag tells
  }
  return found;
}

/**
 * The response of the record of `ref` among the records of its line: the only one, else the
 * one of its epoch, else of its run. Throws when none is left (the file changed) or several
 * with different texts are (they cannot be told apart).
 */
function pick(file: SourceFile, records: readonly LogRecord[], ref: ResponseRef): string | null {
  let left = records;
  if (left.length > 1 && ref.epoch != null) {
    left = left.filter((r) => Number(textOf(r.epoch) ?? 1) === ref.epoch);
  }
  if (left.length > 1 && ref.run != null) {
    left = left.filter((r) => (textOf(r.run) ?? file.defaultRun) === ref.run);
  }
  if (left.length === 0) {
    throw new FileChangedError(file.path, `record ${ref.line} is no longer in it`);
  }
  const texts = new Set(left.map((r) => textOf(r.response) ?? null));
  if (texts.size > 1) {
    throw new FileError(
      file.path,
      `record ${ref.line}: ${left.length} records with different responses; give the row's ` +
        "epoch and run to tell them apart",
    );
  }
  return [...texts][0];
}

const READERS = {
  "span": readSpans,
  "gz-span": readGzSpans,
  "member": readMembers,
  "again": readAgain,
} satisfies Record<string, Reader>;

/** A column of `df` as values (null when absent). */
function column(df: pl.DataFrame, name: string): unknown[] | null {
  return df.columns.includes(name) ? df.getColumn(name).toArray() as unknown[] : null;
}

/**
 * The pointers of the rows of a compact frame (`source_file`, `source_line`, `ptr_kind`,
 * `ptr_offset`, `ptr_length`, and when present `ptr_member`, `epoch`, `run`), formats from
 * `files`.
 *
 * @example
 * ```ts
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ source_file: ["a.jsonl"], source_line: [3], ptr_kind: ["span"],
 *   ptr_offset: [10], ptr_length: [5] });
 * responseRefs(df, {})[0].offset; // 10
 * ```
 */
export function responseRefs(df: pl.DataFrame, files: ResponseFiles): ResponseRef[] {
  const need = (name: string) => {
    const values = column(df, name);
    if (values === null) throw new Error(`responses: the frame has no column ${name}`);
    return values;
  };
  const paths = need("source_file") as string[];
  const lines = need("source_line") as number[];
  const kinds = need("ptr_kind") as string[];
  const offsets = need("ptr_offset") as number[];
  const lengths = need("ptr_length") as number[];
  const members = column(df, "ptr_member") as (string | null)[] | null;
  const epochs = column(df, "epoch") as (number | null)[] | null;
  const runs = column(df, "run") as (string | null)[] | null;
  return paths.map((file, i) => {
    const info = lookup(files, file);
    return {
      file,
      format: info?.format ?? "",
      gzip: info?.gzip ?? false,
      kind: kinds[i] ?? "none",
      offset: offsets[i] ?? -1,
      length: lengths[i] ?? 0,
      member: members?.[i] ?? null,
      line: lines[i],
      epoch: epochs?.[i] ?? null,
      run: runs?.[i] ?? null,
    };
  });
}

/**
 * `df` with a `response` column (Utf8) holding the response text of each of its rows, read
 * from the pointers (an existing `response` column is replaced). Filter first: every row's
 * response is read. `files` describes the files (a `SourceFile` per path fits; needed to read
 * `inline`/`none` rows again, and its `size`/`mtime` are checked). Throws as
 * {@link readResponses}. Polars strings are UTF-8: a response holding a lone surrogate (a
 * `\ud800` escape) has U+FFFD in its place in the column; {@link readResponses} gives it as
 * `JSON.parse` does.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const path = Deno.makeTempFileSync({ suffix: ".jsonl" });
 * const line = '{"task": "nycc", "response": "\\ud83d\\ude00 yes"}\n';
 * Deno.writeTextFileSync(path, line);
 * const failures = pl.DataFrame({ source_file: [path], source_line: [1], ptr_kind: ["span"],
 *   ptr_offset: [line.indexOf('"\\')], ptr_length: [18], correct: [false] });
 * const files = { [path]: { format: "canonical-jsonl", gzip: false } };
 * assert.deepEqual(responses(failures, files).getColumn("response").toArray(), ["😀 yes"]);
 * Deno.removeSync(path);
 * ```
 */
export function responses(
  df: pl.DataFrame,
  files: ResponseFiles,
  opts: Omit<ResponseOptions, "files"> = {},
): pl.DataFrame {
  const texts = readResponses(responseRefs(df, files), { ...opts, files });
  return df.withColumns(pl.Series("response", texts, pl.Utf8));
}
