/**
 * Newline-aligned byte ranges of JSON-lines files and a bounded-memory reader of one range.
 * Hand-written on purpose, for the hostile-input limits: line readers such as `node:readline`
 * hold each line as a string however long it is, while this reader works on bytes, skips a
 * line over the limit unread and decodes nothing it is not asked for.
 *
 * A range `[start, end)` of a file owns the lines that START in it (a line starts at byte 0 or
 * after a line feed), so ranges can be cut at any byte: the reader of a range that does not
 * start at 0 skips to the first line start at or after `start`, and reads past `end` to finish
 * its last line. Every line is read by exactly one range; line numbers within a range are
 * turned into file line numbers by adding the line counts of the earlier ranges.
 *
 * The reader holds one buffer of `chunkBytes` (grown only for a single line longer than it,
 * up to the line limit), checks UTF-8 validity per block of complete lines with the native
 * `isUtf8` (per line only when a block fails), and skips a UTF-8 byte order mark at the start
 * of a file. Each refill reads into a new buffer, so the bytes a handler was given stay valid
 * after it returns (spans of them may be kept). A line longer than the limit
 * (`maxLineBytes`, default {@link MAX_LINE_BYTES}) is skipped unread and reported.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const path = Deno.makeTempFileSync({ suffix: ".jsonl" });
 * Deno.writeTextFileSync(path, '{"a": 1}\n{"a": 2}\n{"a": 3}\n');
 * const lines: number[] = [];
 * for (const r of splitRanges([{ path, size: Deno.statSync(path).size }], 10)) {
 *   // each range reads the lines that start in it: every line exactly once
 *   readRange(path, r.start, r.end, 1 << 16, (_b, _s, _limit, _base, line) => {
 *     lines.push(line);
 *     return -1;
 *   });
 * }
 * assert.equal(lines.length, 3);
 * Deno.removeSync(path);
 * ```
 * @module
 */
import { isUtf8 } from "node:buffer";

/** One byte range of one file. */
export interface ByteRange {
  /** Index of the file in the caller's file list. */
  file: number;
  path: string;
  start: number;
  end: number;
  /** Position of this range among the ranges of its file (0-based). */
  part: number;
}

/**
 * Cut files into ranges of about `rangeBytes` (a file smaller than that is one range; empty
 * files give one empty range, so every file is accounted for).
 *
 * @example
 * ```ts
 * splitRanges([{ path: "a.jsonl", size: 250 }], 100).map((r) => [r.start, r.end]);
 * // [[0, 100], [100, 200], [200, 250]]
 * ```
 */
export function splitRanges(
  files: readonly { path: string; size: number }[],
  rangeBytes: number,
): ByteRange[] {
  const out: ByteRange[] = [];
  files.forEach((f, file) => {
    const parts = Math.max(1, Math.ceil(f.size / rangeBytes));
    for (let part = 0; part < parts; part++) {
      const start = Math.floor((f.size * part) / parts);
      const end = Math.floor((f.size * (part + 1)) / parts);
      out.push({ file, path: f.path, start, end, part });
    }
  });
  return out;
}

/** Default longest line the reader accepts (bytes); longer ones are reported as too long. */
export const MAX_LINE_BYTES = 1 << 30;

/** Options of {@link readRange}. */
export interface ReadRangeOptions {
  /** Longest line read (bytes, line feed excluded); default {@link MAX_LINE_BYTES}. */
  maxLineBytes?: number;
  /** Called, in line order with the other lines, for a line longer than `maxLineBytes`. */
  onTooLong?: (line: number) => void;
  /**
   * The handler keeps no views of `b` after it returns, so the buffer is refilled in place
   * (default false: each refill gets a new buffer and earlier views stay valid).
   */
  reuseBuffer?: boolean;
}

/**
 * Called per line: `b` holds the line from `s`; the line ends at the next line feed before
 * `limit`, or at `limit` (the last line of a file without a final line feed). `base` is the
 * file offset of `b[0]`, `line` the 1-based line number within the range, `utf8` false when
 * the line is not valid UTF-8. Return the position of the line's end if known, else -1 (the
 * reader then finds it).
 */
export type LineHandler = (
  b: Uint8Array,
  s: number,
  limit: number,
  base: number,
  line: number,
  utf8: boolean,
) => number;

/** What {@link readRange} saw. */
export interface RangeSummary {
  /** Lines owned by the range (blank ones included). */
  lines: number;
  /** Whether the range ends the file with a line that has no final line feed. */
  unterminatedLast: boolean;
  /** Lines longer than the limit (skipped), as range line numbers. */
  tooLong: number[];
}

/** Read the lines owned by `[start, end)` of `path` with a buffer of about `chunkBytes`. */
export function readRange(
  path: string,
  start: number,
  end: number,
  chunkBytes: number,
  onLine: LineHandler,
  options: ReadRangeOptions = {},
): RangeSummary {
  const maxLine = options.maxLineBytes ?? MAX_LINE_BYTES;
  const summary: RangeSummary = { lines: 0, unterminatedLast: false, tooLong: [] };
  // a small range needs a small buffer (it grows for a longer last line)
  const first = Math.min(chunkBytes, maxLine + 1, Math.max(end - start + 1, 1 << 12) + 1);
  let buf = options.reuseBuffer
    ? takeSpare(Math.max(16, first))
    : new Uint8Array(Math.max(16, first));
  const file = Deno.openSync(path, { read: true });
  try {
    let filled = 0; // bytes of buf holding data
    let base = Math.max(0, start - 1); // file offset of buf[0]
    let eof = false;
    if (base > 0) file.seekSync(base, Deno.SeekMode.Start);
    const fill = () => {
      while (filled < buf.length) {
        const n = file.readSync(buf.subarray(filled));
        if (n === null || n === 0) {
          eof = true;
          return;
        }
        filled += n;
      }
    };
    fill();
    let ls = 0; // start of the next line in buf
    if (start > 0) { // skip to the first line start at or after `start`
      for (;;) {
        const nl = buf.subarray(0, filled).indexOf(0x0a);
        if (nl >= 0) {
          ls = nl + 1;
          break;
        }
        if (eof) return summary; // the range holds no line start
        base += filled;
        filled = 0;
        fill();
      }
    } else if (filled >= 3 && buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf) ls = 3;
    // Where the line at buf[i] starts in the file (the first line starts at 0, before a BOM).
    const bom = start === 0 ? ls : -1;
    const lineStart = (i: number) => base + i === bom ? 0 : base + i;
    for (;;) {
      const v = buf.subarray(0, filled);
      let last = v.lastIndexOf(0x0a);
      if (last < ls) last = -1;
      if (last >= 0) { // complete lines in [ls, last]
        const blockUtf8 = isUtf8(v.subarray(ls, last));
        while (ls <= last) {
          if (lineStart(ls) >= end) return summary;
          const line = ++summary.lines;
          let e: number;
          if (blockUtf8) {
            e = onLine(v, ls, last, base, line, true);
            if (e < 0) e = v.indexOf(0x0a, ls);
          } else {
            e = v.indexOf(0x0a, ls);
            onLine(v, ls, e, base, line, isUtf8(v.subarray(ls, e)));
          }
          ls = e + 1;
        }
      }
      if (eof) { // a last line without a line feed
        if (ls < filled && lineStart(ls) < end) {
          const line = ++summary.lines;
          onLine(v, ls, filled, base, line, isUtf8(v.subarray(ls, filled)));
          summary.unterminatedLast = true;
        }
        return summary;
      }
      // keep the partial line, read on
      if (lineStart(ls) >= end) return summary;
      if (ls === 0 && filled === buf.length) { // one line fills the buffer: grow it
        if (buf.length > maxLine) { // no line feed in its first maxLine + 1 bytes
          summary.tooLong.push(++summary.lines);
          options.onTooLong?.(summary.lines);
          buf = new Uint8Array(Math.max(16, Math.min(chunkBytes, maxLine + 1)));
          // skip to the end of this line
          for (;;) {
            base += filled;
            filled = 0;
            fill();
            const nl = buf.subarray(0, filled).indexOf(0x0a);
            if (nl >= 0) {
              ls = nl + 1;
              break;
            }
            if (eof) return summary;
          }
          continue;
        }
        const bigger = new Uint8Array(Math.min(buf.length * 2, maxLine + 1));
        bigger.set(buf);
        buf = bigger;
      } else {
        if (options.reuseBuffer) buf.copyWithin(0, ls, filled);
        else { // a new buffer: the handler may keep views of the old one
          const next = new Uint8Array(buf.length);
          next.set(buf.subarray(ls, filled));
          buf = next;
        }
        base += ls;
        filled -= ls;
        ls = 0;
      }
      fill();
    }
  } finally {
    file.close();
    if (options.reuseBuffer) keepSpare(buf);
  }
}

/**
 * The largest buffer kept from one {@link readRange} to the next when the handler keeps no
 * views: a Worker reads hundreds of files (an lm-eval folder), and a new buffer for each — a
 * few MB apiece — was garbage that its isolate collected only after ~90 MB.
 */
const SPARE_BYTES = 16 << 20;
let spare: Uint8Array | null = null;

/** A buffer of `length` bytes: a view of the spare one when it is big enough. */
function takeSpare(length: number): Uint8Array {
  const kept = spare;
  spare = null; // a handler that reads another range meanwhile gets its own
  return kept !== null && kept.length >= length ? kept.subarray(0, length) : new Uint8Array(length);
}

/** Keep `buf`'s memory for the next range, unless a bigger one is kept or it is too big. */
function keepSpare(buf: Uint8Array): void {
  const whole = new Uint8Array(buf.buffer);
  if (whole.length <= SPARE_BYTES && (spare === null || whole.length > spare.length)) {
    spare = whole;
  }
}
