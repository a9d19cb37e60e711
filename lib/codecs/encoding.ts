/**
 * UTF-8 checks. Run logs are UTF-8 (JSON requires it); a file in another encoding (Latin-1,
 * UTF-16 from a Windows tool) would otherwise be decoded with U+FFFD replacement characters and
 * scored on altered text, silently. Line formats quarantine the lines that are not valid UTF-8
 * ({@link NOT_UTF8}); whole-document formats stop with an error naming the file and the line
 * ({@link decodeUtf8}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { decodeUtf8, invalidUtf8Lines } from "@runlens/codecs/encoding.ts";
 * const latin1 = new Uint8Array([0x61, 0x0a, 0xe9, 0x0a]); // "a\né\n" in Latin-1
 * assert.deepEqual(invalidUtf8Lines(latin1), new Set([2]));
 * assert.throws(() => decodeUtf8(latin1), /^Error: line 2 is not valid UTF-8/);
 * ```
 * @module
 */
import { isUtf8 } from "node:buffer";

/** The quarantine reason of a line that is not valid UTF-8. */
export const NOT_UTF8 = "not valid UTF-8 (another encoding, e.g. Latin-1?); runlens reads " +
  "UTF-8 logs, convert the file (e.g. iconv -f latin1 -t utf-8)";

/**
 * The 1-based numbers (counting from `firstLine`) of the lines of `bytes` that are not valid
 * UTF-8; empty when all are (checked at once, natively, before any line is looked at).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(invalidUtf8Lines(new TextEncoder().encode("ok\nfine\n")).size, 0);
 * assert.deepEqual(invalidUtf8Lines(new Uint8Array([0x61, 0x0a, 0xe9]), 10), new Set([11]));
 * ```
 */
export function invalidUtf8Lines(bytes: Uint8Array, firstLine = 1): Set<number> {
  const bad = new Set<number>();
  if (isUtf8(bytes)) return bad;
  let start = 0;
  let line = firstLine;
  while (start < bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    if (!isUtf8(bytes.subarray(start, end))) bad.add(line);
    line++;
    start = end + 1;
  }
  return bad;
}

/**
 * Decode UTF-8 bytes (a leading byte order mark is kept, as `Deno.readTextFileSync` keeps it);
 * throws an error saying where the text stops being UTF-8, or that it is UTF-16.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(decodeUtf8(new TextEncoder().encode('{"a": 1}')), '{"a": 1}');
 * assert.throws(() => decodeUtf8(new Uint8Array([0xff, 0xfe, 0x7b, 0x00])), /^Error: UTF-16 text/);
 * ```
 */
export function decodeUtf8(bytes: Uint8Array): string {
  if (isUtf8(bytes)) return new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes);
  if (isUtf16(bytes)) throw new Error(UTF16);
  const [line] = invalidUtf8Lines(bytes);
  throw new Error(`line ${line} is ${NOT_UTF8}`);
}

const UTF16 = "UTF-16 text (byte order mark); runlens reads UTF-8 logs, convert the file " +
  "(e.g. iconv -f utf-16 -t utf-8)";

/**
 * Whether `bytes` start with a UTF-16 byte order mark (FF FE or FE FF).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isUtf16(new Uint8Array([0xff, 0xfe, 0x7b, 0x00])), true);
 * ```
 */
export function isUtf16(bytes: Uint8Array): boolean {
  return (bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff);
}

/**
 * Throw (naming `path`) when a line-oriented file is UTF-16: its lines cannot be told apart
 * byte-wise, so there is nothing to quarantine line by line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * rejectUtf16("a.jsonl", new TextEncoder().encode('{"a": 1}\n')); // UTF-8: fine
 * const utf16 = new Uint8Array([0xff, 0xfe, 0x7b, 0x00]);
 * assert.throws(() => rejectUtf16("a.jsonl", utf16), /^Error: a.jsonl: UTF-16 text/);
 * ```
 */
export function rejectUtf16(path: string, bytes: Uint8Array): void {
  if (isUtf16(bytes)) throw new Error(`${path}: ${UTF16}`);
}

/**
 * Read a file as UTF-8 text ({@link decodeUtf8}); errors name the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const text = readUtf8File("tests/fixtures/logs/tree/sub/b.csv");
 * assert.ok(text.startsWith("task,example_index,response\n"));
 * ```
 */
export function readUtf8File(path: string): string {
  const bytes = Deno.readFileSync(path);
  try {
    return decodeUtf8(bytes);
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`);
  }
}
