/**
 * Read a JSONL run log into the raw form ({@link RawLog}). Blank lines are skipped.
 *
 * Happy path: polars scans the whole file (`scanJson`, schema inferred from every line). If
 * polars refuses the file (a malformed or truncated line, a line that is not an object, a
 * canonical field holding a list or object, types polars cannot unify), each line is parsed
 * with `JSON.parse`, the bad ones are reported with their line number and the good ones are
 * turned into a frame.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readJsonlLog } from "@runlens/logs/jsonl.ts";
 * const { frame, bad, rowsIn } = readJsonlLog("tests/fixtures/logs/tree/a.jsonl");
 * assert.deepEqual([rowsIn, frame.height, bad], [4, 4, []]);
 * assert.equal(frame.getColumn("extra").get(0), '{"meta":{"seed":1}}'); // non-canonical fields
 * ```
 * @module
 */
import pl from "nodejs-polars";
import {
  decodeLine,
  forEachLineBlock,
  type LineBlock,
  linesAreObjects,
  recordBytes,
} from "./lines.ts";
import {
  CANONICAL_FIELDS,
  frameFromRecords,
  isScalar,
  normalizeFrame,
  type RawLog,
} from "./raw.ts";
import { jsonLineReason, TRUNCATED_LAST_LINE } from "./quarantine.ts";
import { NOT_UTF8 } from "./encoding.ts";

/**
 * The 1-based numbers of the non-blank lines of `text` (whitespace-only lines are blank).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(nonBlankLines('{"a":1}\n\n{"a":2}\n'), [1, 3]);
 * ```
 */
export function nonBlankLines(text: string): number[] {
  const out: number[] = [];
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() !== "") out.push(i + 1);
  }
  return out;
}

/** Bytes per block when a JSONL file is read in blocks ({@link readJsonlBlocks}). */
export const JSONL_BLOCK_BYTES = 64 * 1024 * 1024;

/**
 * Read `path` as JSONL. Never throws on bad lines; they are returned in `bad`. Throws when the
 * file cannot be read. The file is never held as one JS string (see `lines.ts`), so files past
 * V8's string limit work; `text` (the file's text) is accepted for compatibility and ignored.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const { bad, rowsIn, frame } = readJsonlLog("tests/fixtures/logs/mixed.jsonl");
 * assert.deepEqual(bad.map((b) => b.line), [16, 19, 20, 22]);
 * assert.equal(bad[0].reason, "not a JSON object");
 * assert.equal(rowsIn, frame.height + bad.length); // 21 = 17 + 4
 * ```
 */
export function readJsonlLog(path: string, _text?: string): RawLog {
  const lines: number[] = [];
  let plain = true; // UTF-8, and every line an object (polars panics on some others)
  const info = forEachLineBlock(path, JSONL_BLOCK_BYTES, (block) => {
    for (const n of block.lines) lines.push(n);
    if (block.badUtf8.size > 0 || !linesAreObjects(block)) plain = false;
  })!;
  if (lines.length === 0) return { frame: frameFromRecords([], []), bad: [], rowsIn: 0 };
  if (!info.bom && plain) {
    try {
      const df = pl.scanJson(path, { inferSchemaLength: null }).collectSync();
      if (df.height === lines.length) {
        return { frame: normalizeFrame(df, lines), bad: [], rowsIn: lines.length };
      }
    } catch {
      // fall through to the line-by-line pass, which names the bad lines
    }
  }
  return readLineByLine(path);
}

/**
 * Read `path` as JSONL in blocks of about `blockBytes` bytes, each parsed by polars on its own,
 * and hand each block's raw form to `onBlock` (in file order) — the lean path for big files:
 * only one block's records are in memory at a time, unless `onBlock` keeps them.
 *
 * Returns false, having possibly called `onBlock` for some blocks, when the blocks could read
 * differently from one polars scan of the whole file, and the caller must then use
 * {@link readJsonlLog}: a byte order mark, a blank line of other than space/tab/CR (polars
 * refuses it), a block polars refuses or reads with another row count, a canonical field
 * holding a list or object, or a field whose type differs between blocks (the whole-file scan
 * would unify the types, e.g. Int64 and Float64 to Float64, and print numbers differently).
 * Otherwise every non-blank line was a record, the blocks' `extra` fields follow the order the
 * whole-file scan gives (first appearance in the file), and it returns true.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type pl from "nodejs-polars";
 * for (const file of ["tests/fixtures/logs/tree/a.jsonl", "tests/fixtures/logs/mixed.jsonl"]) {
 *   const frames: pl.DataFrame[] = [];
 *   if (!readJsonlBlocks(file, (raw) => frames.push(raw.frame))) {
 *     frames.splice(0, frames.length, readJsonlLog(file).frame); // mixed.jsonl: malformed lines
 *   }
 *   assert.equal(frames.length, 1);
 * }
 * ```
 */
export function readJsonlBlocks(
  path: string,
  onBlock: (raw: RawLog) => void,
  blockBytes = JSONL_BLOCK_BYTES,
): boolean {
  const order: string[] = [];
  const types = new Map<string, string>();
  let ok = true;
  let first = true;
  const info = forEachLineBlock(path, blockBytes, (block) => {
    if (block.oddBlank || block.badUtf8.size > 0 || (first && hasBom(block))) return (ok = false);
    first = false;
    if (block.lines.length === 0) return true;
    if (!linesAreObjects(block)) return (ok = false);
    let df: pl.DataFrame;
    let schema: pl.DataFrame["schema"];
    try {
      df = pl.readJSON(recordBytes(block), { format: "lines", inferSchemaLength: null });
      schema = df.schema; // throws on types JS cannot take (e.g. Int128 for huge integers)
    } catch {
      return (ok = false);
    }
    if (df.height !== block.lines.length) return (ok = false);
    for (const name of df.columns) {
      const type = JSON.stringify(schema[name]);
      if (schema[name].variant === "Null") {
        if (!types.has(name)) order.push(name), types.set(name, "");
        continue;
      }
      const seen = types.get(name);
      if (seen === undefined) order.push(name);
      else if (seen !== "" && seen !== type) return (ok = false);
      types.set(name, type);
    }
    const rank = new Map(order.map((n, i) => [n, i]));
    const columns = [...df.columns].sort((a, b) => rank.get(a)! - rank.get(b)!);
    let raw: RawLog;
    try {
      raw = {
        frame: normalizeFrame(df.select(...columns), block.lines),
        bad: [],
        rowsIn: df.height,
      };
    } catch {
      return (ok = false);
    }
    onBlock(raw);
    return true;
  });
  return ok && info !== null;
}

function hasBom(block: LineBlock): boolean {
  const b = block.bytes;
  return b.length >= 3 && b[0] === 0xef && b[1] === 0xbb && b[2] === 0xbf;
}

/**
 * The `"run": "…"` value a broken JSON line still shows, if any.
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

/**
 * The slow path: every non-blank line parsed with `JSON.parse`, one line at a time from the
 * bytes (so it works on files of any size).
 */
function readLineByLine(path: string): RawLog {
  const records: Record<string, unknown>[] = [];
  const good: number[] = [];
  const bad: RawLog["bad"] = [];
  const info = forEachLineBlock(path, JSONL_BLOCK_BYTES, (block) => {
    block.lines.forEach((n, i) => {
      if (block.badUtf8.has(n)) {
        bad.push({ line: n, reason: NOT_UTF8 });
        return;
      }
      let line = decodeLine(block.bytes.subarray(block.starts[i], block.ends[i]));
      if (n === 1) line = line.replace(/^\ufeff/, "");
      line = line.replace(/\r$/, "");
      let value: unknown;
      try {
        value = JSON.parse(line);
      } catch (e) {
        bad.push({
          line: n,
          reason: jsonLineReason(e, false),
          run: runInBrokenLine(line),
        });
        return;
      }
      if (value === null || typeof value !== "object" || Array.isArray(value)) {
        bad.push({ line: n, reason: "not a JSON object" });
        return;
      }
      const record = value as Record<string, unknown>;
      const nested = CANONICAL_FIELDS.find((f) => !isScalar(record[f] ?? null));
      if (nested) {
        bad.push({
          line: n,
          reason: `field "${nested}" is a list or object, not a text or number`,
        });
        return;
      }
      records.push(record);
      good.push(n);
    });
  })!;
  const lastBad = bad.at(-1);
  if (
    lastBad && lastBad.line === info.lastNonBlank && !info.endsWithNewline &&
    lastBad.reason.startsWith("malformed JSON (")
  ) {
    lastBad.reason = TRUNCATED_LAST_LINE;
  }
  return { frame: frameFromRecords(records, good), bad, rowsIn: info.nonBlank };
}
