/**
 * Line-oriented reading of large text files from their bytes, never as one JS string (V8
 * strings stop at ~512 M code units): the file is read in blocks that end on a line break, and
 * each block's lines are found by scanning for `\n` (0x0A, which never occurs inside a UTF-8
 * multi-byte sequence).
 *
 * "Blank" means what `line.trim() === ""` means in JavaScript, as {@link nonBlankLines} on the
 * text would decide: lines of only space, tab and CR are told apart from the bytes; a line
 * whose first non-(space, tab, CR) byte is a vertical tab, a form feed or a non-ASCII byte is
 * decoded and trimmed.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { forEachLineBlock } from "@runlens/logs/lines.ts";
 * const counts: number[] = [];
 * forEachLineBlock("tests/fixtures/logs/mixed.jsonl", 1 << 26, (block) => {
 *   counts.push(block.lines.length);
 * });
 * assert.deepEqual(counts, [21]); // one block of 64 MB holds the file's 21 non-blank lines
 * ```
 * @module
 */
import { Buffer } from "node:buffer";
import { invalidUtf8Lines, rejectUtf16 } from "./encoding.ts";

/** The lines of one block of a file. */
export interface LineBlock {
  /** The block's bytes: whole lines, each ending in `\n` except possibly the file's last one. */
  bytes: Uint8Array;
  /** 1-based numbers of the block's non-blank lines. */
  lines: number[];
  /** Byte offsets (in `bytes`) of each non-blank line's start and end (end excludes `\n`). */
  starts: number[];
  ends: number[];
  /** Lines in the block, blank ones included. */
  lineCount: number;
  /** Some blank line holds a character other than space, tab or CR (e.g. `\v`, U+00A0). */
  oddBlank: boolean;
  /** Numbers of the block's lines that are not valid UTF-8 (see `encoding.ts`). */
  badUtf8: Set<number>;
}

/** What {@link forEachLineBlock} learnt about the whole file. */
export interface FileLines {
  /** Lines in the file (a final `\n` ends the last line, it does not start a new one). */
  lineCount: number;
  /** Number of the last non-blank line (0: none). */
  lastNonBlank: number;
  /** Non-blank lines in the file. */
  nonBlank: number;
  /** The file's last byte is `\n` (false for an empty file). */
  endsWithNewline: boolean;
  /** The file starts with a UTF-8 byte order mark. */
  bom: boolean;
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** Decode bytes as `Deno.readTextFileSync` would (lossy UTF-8, a BOM kept). */
export function decodeLine(bytes: Uint8Array): string {
  return decoder.decode(bytes);
}

/**
 * Whether `bytes[start, end)` is blank, and if so whether it is an odd blank (holds more than
 * space, tab and CR). Returns 0 (not blank), 1 (blank) or 2 (odd blank).
 */
function blankKind(bytes: Uint8Array, start: number, end: number): 0 | 1 | 2 {
  let i = start;
  while (i < end) {
    const b = bytes[i];
    if (b === 0x20 || b === 0x09 || b === 0x0d) i++;
    else if (b < 0x80 && b !== 0x0b && b !== 0x0c) return 0;
    else return decodeLine(bytes.subarray(start, end)).trim() === "" ? 2 : 0;
  }
  return 1;
}

/**
 * Scan one block (whole lines) whose first line is number `firstLine`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const block = scanBlock(new TextEncoder().encode('{"a":1}\n\n{"a":2}\n'), 1);
 * assert.deepEqual([block.lines, block.starts, block.ends], [[1, 3], [0, 9], [7, 16]]);
 * ```
 */
export function scanBlock(bytes: Uint8Array, firstLine: number): LineBlock {
  const lines: number[] = [];
  const starts: number[] = [];
  const ends: number[] = [];
  let oddBlank = false;
  let line = firstLine;
  let start = 0;
  const n = bytes.length;
  while (start < n) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = n;
    const kind = blankKind(bytes, start, end);
    if (kind === 0) {
      lines.push(line);
      starts.push(start);
      ends.push(end);
    } else if (kind === 2) oddBlank = true;
    line++;
    start = end + 1;
  }
  const badUtf8 = invalidUtf8Lines(bytes, firstLine);
  return { bytes, lines, starts, ends, lineCount: line - firstLine, oddBlank, badUtf8 };
}

/**
 * Whether every non-blank line of the block starts (after spaces, tabs and CRs) with `{`.
 * Polars panics — printing a Rust backtrace — on some lines that are not objects (e.g. `null`),
 * so readers check this before handing a block to polars.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(linesAreObjects(scanBlock(new TextEncoder().encode('{"a":1}\nnull\n'), 1)), false);
 * assert.equal(linesAreObjects(scanBlock(new TextEncoder().encode(' {"a":1}\n'), 1)), true);
 * ```
 */
export function linesAreObjects(block: LineBlock): boolean {
  const { bytes, starts, ends } = block;
  for (let i = 0; i < starts.length; i++) {
    let at = starts[i];
    while (at < ends[i] && isPad(bytes[at])) at++;
    if (bytes[at] !== 0x7b) return false;
  }
  return true;
}

/**
 * Read `path` in blocks of about `blockBytes` bytes, each ending on a line break (a longer line
 * makes a longer block), and call `fn` with each block's lines in file order. A block's bytes
 * are only valid during the call. Returns what was learnt about the whole file. Stops early
 * (returning null) when `fn` returns false. Throws when the file cannot be read or is UTF-16.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const info = forEachLineBlock("tests/fixtures/logs/mixed.jsonl", 1 << 26, (b) => {
 *   console.log(b.lines); // [1, 3, 4, …, 22]: line 2 is blank
 * });
 * assert.deepEqual(info, {
 *   lineCount: 22,
 *   lastNonBlank: 22,
 *   nonBlank: 21,
 *   endsWithNewline: false, // the fixture's last line is cut short
 *   bom: false,
 * });
 * assert.equal(forEachLineBlock("tests/fixtures/logs/mixed.jsonl", 64, () => false), null);
 * ```
 */
export function forEachLineBlock(
  path: string,
  blockBytes: number,
  fn: (block: LineBlock) => boolean | void,
): FileLines | null {
  const file = Deno.openSync(path, { read: true });
  try {
    let buf = new Uint8Array(Math.max(16, blockBytes));
    let filled = 0;
    let line = 1;
    let eof = false;
    let first = true;
    const info: FileLines = {
      lineCount: 0,
      lastNonBlank: 0,
      nonBlank: 0,
      endsWithNewline: false,
      bom: false,
    };
    let lastByte = -1;
    while (!eof || filled > 0) {
      while (!eof && filled < buf.length) {
        const got = file.readSync(buf.subarray(filled));
        if (got === null || got === 0) eof = true;
        else filled += got;
      }
      if (filled === 0) break;
      if (first) {
        rejectUtf16(path, buf.subarray(0, filled));
        info.bom = filled >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf;
        first = false;
      }
      let cut = eof ? filled : buf.lastIndexOf(0x0a, filled - 1) + 1;
      if (cut === 0) {
        // One line longer than the buffer: grow it and read on.
        const bigger = new Uint8Array(buf.length * 2);
        bigger.set(buf.subarray(0, filled));
        buf = bigger;
        continue;
      }
      if (eof) cut = filled;
      lastByte = buf[cut - 1];
      const block = scanBlock(buf.subarray(0, cut), line);
      line += block.lineCount;
      info.lineCount += block.lineCount;
      info.nonBlank += block.lines.length;
      if (block.lines.length > 0) info.lastNonBlank = block.lines[block.lines.length - 1];
      if (fn(block) === false) return null;
      buf.copyWithin(0, cut, filled);
      filled -= cut;
    }
    info.endsWithNewline = lastByte === 0x0a;
    return info;
  } finally {
    file.close();
  }
}

const isPad = (b: number) => b === 0x20 || b === 0x09 || b === 0x0d;

/**
 * The block's non-blank lines as one Buffer for polars, each trimmed of space/tab/CR (JSON
 * whitespace polars' scan skips; polars' buffer reader panics on blank lines and on CRLF). No
 * copy when there is nothing to drop.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const bytes = new TextEncoder().encode('{"a":1}\r\n\n  {"a":2}\n'); // CRLF, blank, indented
 * const df = pl.readJSON(recordBytes(scanBlock(bytes, 1)), { format: "lines" });
 * assert.deepEqual(df.getColumn("a").toArray(), [1, 2]);
 * ```
 */
export function recordBytes(block: LineBlock): Buffer {
  const { bytes, starts, ends } = block;
  const n = starts.length;
  const s = starts.slice();
  const e = ends.slice();
  let clean = n === block.lineCount;
  for (let i = 0; i < n; i++) {
    while (isPad(bytes[s[i]])) s[i]++;
    while (e[i] > s[i] && isPad(bytes[e[i] - 1])) e[i]--;
    if (s[i] !== starts[i] || e[i] !== ends[i]) clean = false;
  }
  if (clean) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length);
  let size = 0;
  for (let i = 0; i < n; i++) size += e[i] - s[i] + 1;
  const out = Buffer.allocUnsafe(size);
  let at = 0;
  for (let i = 0; i < n; i++) {
    out.set(bytes.subarray(s[i], e[i]), at);
    at += e[i] - s[i];
    out[at++] = 0x0a;
  }
  return out;
}
