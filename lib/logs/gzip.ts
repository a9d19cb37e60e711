/**
 * Gzip-compressed run logs: recognised by their magic bytes (`1f 8b`), whatever the name, and
 * read through a decompression step. The name of the log inside is the file name without its
 * `.gz` suffix (`run.jsonl.gz` → `run.jsonl`), which is what format detection and run names
 * look at.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * import { gunzipLog, innerLogName, isGzip } from "@runlens/logs/gzip.ts";
 * const plain = Deno.readFileSync("tests/fixtures/logs/tree/a.jsonl");
 * const dir = Deno.makeTempDirSync();
 * const path = `${dir}/a.jsonl.gz`;
 * Deno.writeFileSync(path, gzipSync(plain));
 * const bytes = Deno.readFileSync(path);
 * if (isGzip(bytes)) console.log(innerLogName(path), gunzipLog(path).length); // …/a.jsonl 555
 * assert.deepEqual(gunzipLog(path), plain);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import { gunzipSync } from "node:zlib";
import { Gunzip } from "fflate";

/**
 * Whether `bytes` start with the gzip signature `1f 8b`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isGzip(new Uint8Array([0x1f, 0x8b, 8])), true);
 * assert.equal(isGzip(new TextEncoder().encode("{}")), false);
 * ```
 */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * The log's own name: `path` without a final `.gz` (any case).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(innerLogName("out/run.jsonl.gz"), "out/run.jsonl");
 * assert.equal(innerLogName("out/run.jsonl"), "out/run.jsonl");
 * ```
 */
export function innerLogName(path: string): string {
  return path.replace(/\.gz$/i, "");
}

/**
 * The first (up to) `max` bytes of the decompressed content of the gzip data `head` (which
 * may itself be only the start of a file). Empty when the data does not decompress.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * const gz = gzipSync(Deno.readFileSync("tests/fixtures/logs/tree/a.jsonl"));
 * const head = new TextDecoder().decode(gunzipPeek(gz.subarray(0, 100), 16)); // of 195 bytes
 * assert.equal(head, '{"run": "alpha",');
 * assert.equal(gunzipPeek(new TextEncoder().encode("not gzip"), 16).length, 0);
 * ```
 */
export function gunzipPeek(head: Uint8Array, max: number): Uint8Array {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const stream = new Gunzip((chunk) => {
    if (size < max) {
      chunks.push(chunk);
      size += chunk.length;
    }
  });
  try {
    stream.push(head, false);
  } catch {
    // a corrupt stream: keep what came out before the error
  }
  const out = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const c of chunks) {
    const take = c.subarray(0, out.length - at);
    out.set(take, at);
    at += take.length;
    if (at >= out.length) break;
  }
  return out;
}

/**
 * Decompress a whole gzip file with `node:zlib` (several concatenated members, as `cat a.gz
 * b.gz` makes, are read in turn; fflate's `gunzipSync` stops after the first). Throws
 * `gzip data is corrupt or truncated (…)` when it does not decompress.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * const part = gzipSync(new TextEncoder().encode('{"a": 1}\n'));
 * const dir = Deno.makeTempDirSync();
 * const path = `${dir}/a.jsonl.gz`;
 * Deno.writeFileSync(path, new Uint8Array([...part, ...part])); // `cat part.gz part.gz`
 * assert.equal(new TextDecoder().decode(gunzipLog(path)), '{"a": 1}\n{"a": 1}\n');
 * const cut = new Uint8Array(part.subarray(0, 12));
 * assert.throws(() => gunzipLog(path, cut), /gzip data is corrupt or truncated/);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function gunzipLog(path: string, bytes = Deno.readFileSync(path)): Uint8Array {
  try {
    return new Uint8Array(gunzipSync(bytes));
  } catch (e) {
    throw new Error(`gzip data is corrupt or truncated (${(e as Error).message})`);
  }
}
