/**
 * The line formats (`canonical-jsonl`, `mapped-jsonl`, `lm-eval`) on a gzip file, streamed: the
 * decompressed lines come in blocks from `gunzipLines` (every member's CRC-32 and size checked,
 * within `maxInflated`/`maxRatio`, a line over `maxLineBytes` never held) and go through the
 * same per-line reader as a plain file's `readRange` (`lines.ts`), so the records and bad lines
 * equal those of the in-memory path (`readJsonlBytes`, `readLmEvalBytes`) while memory stays
 * bounded by a block and the longest line, whatever the file inflates to. Pointers are
 * `gz-span`: the offset and length of the response's JSON string (quotes included) in the
 * decompressed stream.
 *
 * A gzip file cannot be cut into byte ranges (a range would have to inflate everything before
 * it), so each is one document unit: {@link gzipSourceFor} gives its {@link DocumentSource}, and
 * `all.ts`'s `sourceFor` picks it over the plain source for a file with `gzip: true`. Not
 * streamed:
 * a ≤ v0.4.2 lm-eval file (one JSON array, parsed whole, capped like any document) and gzip
 * CSV — a quoted cell may hold line breaks, so a record boundary is only known from the start
 * of the file — which is inflated whole under {@link GZIP_CSV_CAP}.
 *
 * Errors: corrupt, truncated or over-budget gzip data is a {@link FileError} naming the file
 * (and the member); the records emitted before it stay emitted, and the caller drops them
 * (`scoreUnit` keeps nothing of a unit that failed). Polars-free: Workers load it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * import { textOf } from "../record.ts";
 * import type { LogRecord } from "./types.ts";
 * const dir = Deno.makeTempDirSync();
 * const path = `${dir}/run.jsonl.gz`;
 * const text = '{"task": "nycc", "response": "a\\u00e9"}\n{"task": "nycc", "response": "b"}\n';
 * Deno.writeFileSync(path, gzipSync(new TextEncoder().encode(text)));
 * const file = { id: 0, path, name: `${dir}/run.jsonl`, format: "canonical-jsonl", gzip: true,
 *   defaultRun: "run", size: Deno.statSync(path).size };
 * const records: LogRecord[] = [];
 * gzipSourceFor(file.format)!.read(file, { record: (r) => records.push(r), bad: () => {} },
 *   DEFAULT_LIMITS);
 * assert.deepEqual(records.map((r) => textOf(r.response)), ["aé", "b"]);
 * assert.deepEqual(records[1].pointer, { kind: "gz-span", offset: 69, length: 3 });
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import { isUtf8 } from "node:buffer";
import { fileSource } from "../../codecs/byte_source.ts";
import { isUtf16 } from "../../codecs/encoding.ts";
import { gunzipAll, gunzipHead, gunzipLines, type LineBlock } from "../../codecs/gzip_stream.ts";
import { readCsvBytes } from "./csv.ts";
import { DOCUMENT_CAP, MAX_DOCUMENT_BYTES } from "./document.ts";
import { JsonlReader } from "./jsonl.ts";
import { type JsonLinesReader, UTF16_REASON } from "./lines.ts";
import { isArrayFile, LmEvalReader } from "./lm_eval.ts";
import {
  type DocumentSource,
  FileError,
  type RecordSink,
  type SourceFile,
  type SourceLimits,
} from "./types.ts";
import { count } from "../../core/count.ts";

/**
 * The cap on what a gzip CSV log may inflate to (it is held whole: see the module doc).
 *
 * @example
 * ```ts
 * GZIP_CSV_CAP.bytes; // 536,870,888 (512 MiB, the largest document)
 * ```
 */
export const GZIP_CSV_CAP = {
  bytes: MAX_DOCUMENT_BYTES,
  reason: `inflates past ${count(MAX_DOCUMENT_BYTES)} bytes, the most runlens ` +
    "holds of a gzip CSV log (a quoted cell may hold line breaks, so it is read whole); " +
    "decompress it to read it as a plain file",
};

/** Where the decompressed stream stops being only whitespace (for truncated last lines). */
class BlankTail {
  /** Offset of the last byte that is not space, tab, CR or LF (-1: none yet). */
  lastNonBlank = -1;
  /** Bytes seen. */
  total = 0;
  /** Whether the stream so far ends with a line feed. */
  endsWithLf = false;

  /** Note a block (an overlong one counts as text: its bytes were not kept). */
  see(block: LineBlock): void {
    if (block.overlong !== undefined) {
      this.lastNonBlank = block.offset + block.overlong - 1;
      this.total = block.offset + block.overlong + (block.unterminatedLast ? 0 : 1);
      this.endsWithLf = !block.unterminatedLast;
      return;
    }
    const b = block.bytes;
    for (let i = b.length - 1; i >= 0; i--) {
      const x = b[i];
      if (x !== 0x20 && x !== 0x09 && x !== 0x0d && x !== 0x0a) {
        this.lastNonBlank = block.offset + i;
        break;
      }
    }
    this.total = block.offset + b.length;
    this.endsWithLf = b[b.length - 1] === 0x0a;
  }

  /** `openBlankAfterInBytes` of the whole stream, answered from what was seen. */
  openBlankAfter = (offset: number): boolean =>
    this.total > offset + 1 && !this.endsWithLf && this.lastNonBlank <= offset;
}

/**
 * Hand the lines of one block to `reader` (the first block: UTF-16 refused, a byte order mark
 * skipped, as `readJsonLinesBytes` does); returns the lines handed and whether the last one
 * ends the stream without a line feed.
 */
function feedBlock(reader: JsonLinesReader, block: LineBlock): [number, boolean] {
  const b = block.bytes;
  let ls = 0;
  if (block.offset === 0) {
    if (isUtf16(b)) throw new FileError(reader.file.path, UTF16_REASON);
    if (b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf) ls = 3;
  }
  if (block.overlong !== undefined) {
    reader.tooLong(block.line);
    return [1, block.unterminatedLast];
  }
  const blockUtf8 = isUtf8(b.subarray(ls));
  let k = 0;
  while (ls < b.length) {
    let e = b.indexOf(0x0a, ls);
    if (e < 0) e = b.length;
    const utf8 = blockUtf8 || isUtf8(b.subarray(ls, e));
    reader.onLine(b, ls, e, block.offset, block.line + k, utf8);
    k++;
    ls = e + 1;
  }
  return [k, k > 0 && block.unterminatedLast];
}

/**
 * Read the decompressed lines of the gzip file `reader.file.path` through `reader`, streamed
 * (see the module doc). Throws a {@link FileError} naming the file when it is corrupt,
 * truncated, over a limit, UTF-16 or unreadable.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * import { DEFAULT_LIMITS } from "../limits.ts";
 * import { JsonlReader } from "./jsonl.ts";
 * const path = Deno.makeTempFileSync({ suffix: ".jsonl.gz" });
 * Deno.writeFileSync(path, gzipSync(new TextEncoder().encode('{"task": "x"}\n{"task": ')));
 * const file = { id: 0, path, name: path, format: "canonical-jsonl", gzip: true,
 *   defaultRun: "r", size: 0 };
 * const bad: string[] = [];
 * const reader = new JsonlReader(file, { record: () => {}, bad: (b) => bad.push(b.reason) },
 *   DEFAULT_LIMITS, "gz-span");
 * assert.deepEqual(readGzipJsonLines(reader), { lines: 2, unterminatedLast: true });
 * assert.deepEqual(bad, ["truncated last line (not valid JSON and no final newline)"]);
 * Deno.removeSync(path);
 * ```
 */
export function readGzipJsonLines(
  reader: JsonLinesReader,
): { lines: number; unterminatedLast: boolean } {
  const path = reader.file.path;
  const tail = new BlankTail();
  let lines = 0;
  let unterminatedLast = false;
  try {
    for (const block of gunzipLines(path, reader.limits)) {
      const [fed, open] = feedBlock(reader, block);
      if (fed > 0) [lines, unterminatedLast] = [block.line + fed - 1, open];
      tail.see(block);
    }
  } catch (e) {
    if (e instanceof FileError) throw e;
    throw new FileError(path, `cannot read (${(e as Error).message})`);
  }
  const summary = { lines, unterminatedLast };
  reader.finish(summary, tail.openBlankAfter);
  return summary;
}

/** Whether a gzip lm-eval file holds one JSON array (≤ v0.4.2), from its first bytes. */
function isGzipArrayFile(path: string): boolean {
  const source = fileSource(path);
  try {
    // 1 MiB of deflate data inflates to far more than the 64 KiB `isArrayFile` looks at
    return isArrayFile(gunzipHead(source.read(0, 1 << 20), 1 << 16));
  } finally {
    source.close();
  }
}

/** Streamed gzip JSON lines (`canonical-jsonl`, `mapped-jsonl`). */
const gzipJsonlSource: DocumentSource = {
  kind: "document",
  read(file: SourceFile, sink: RecordSink, limits: SourceLimits) {
    readGzipJsonLines(new JsonlReader(file, sink, limits, "gz-span"));
  },
};

/** Streamed gzip lm-eval samples (a ≤ v0.4.2 array: inflated whole, capped). */
const gzipLmEvalSource: DocumentSource = {
  kind: "document",
  read(file: SourceFile, sink: RecordSink, limits: SourceLimits) {
    const reader = new LmEvalReader(file, sink, limits, "gz-span");
    reader.assignFilters = true; // the unit is the whole file
    if (isGzipArrayFile(file.path)) {
      reader.readArray(gunzipAll(file.path, limits, { cap: DOCUMENT_CAP }));
    } else readGzipJsonLines(reader);
  },
};

/** Gzip CSV, inflated whole under {@link GZIP_CSV_CAP} (no pointers: CSV records have none). */
const gzipCsvSource: DocumentSource = {
  kind: "document",
  read(file: SourceFile, sink: RecordSink, limits: SourceLimits) {
    readCsvBytes(file, gunzipAll(file.path, limits, { cap: GZIP_CSV_CAP }), sink, limits);
  },
};

/**
 * The gzip readers of the line and CSV formats, by format name. Document formats (inspect,
 * OpenCompass, …) are absent: their own sources inflate gzip data (`readDocumentBytes`).
 *
 * @example
 * ```ts
 * Object.keys(GZIP_SOURCES); // canonical-jsonl, mapped-jsonl, lm-eval, lm-eval-array, …-csv
 * ```
 */
export const GZIP_SOURCES: Readonly<Record<string, DocumentSource>> = {
  "canonical-jsonl": gzipJsonlSource,
  "mapped-jsonl": gzipJsonlSource,
  "lm-eval": gzipLmEvalSource,
  "lm-eval-array": gzipLmEvalSource,
  "canonical-csv": gzipCsvSource,
  "mapped-csv": gzipCsvSource,
};

/**
 * The source of a gzip file of `format`, or null when the format's own source reads gzip
 * data (documents) or the format is unknown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(gzipSourceFor("lm-eval")?.kind, "document"); // one unit: not cut into ranges
 * assert.equal(gzipSourceFor("inspect-eval"), null);
 * ```
 */
export function gzipSourceFor(format: string): DocumentSource | null {
  return Object.hasOwn(GZIP_SOURCES, format) ? GZIP_SOURCES[format] : null;
}
