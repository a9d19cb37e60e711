/**
 * CRC-32 (the checksum of ZIP members and gzip members, polynomial 0xEDB88320), computed
 * incrementally over chunks. Uses `node:zlib`'s native `crc32` when the runtime has it
 * (~10 GB/s), else a table-driven fallback. Polars-free.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { crc32 } from "@runlens/codecs/crc32.ts";
 * const hello = new TextEncoder().encode("hello");
 * assert.equal(crc32(hello), 0x3610a686);
 * // incremental: the CRC of "hel" continued with "lo"
 * assert.equal(crc32(hello.subarray(3), crc32(hello.subarray(0, 3))), 0x3610a686);
 * ```
 * @module
 */
import * as zlib from "node:zlib";

type Crc = (bytes: Uint8Array, previous?: number) => number;

const native = (zlib as unknown as { crc32?: Crc }).crc32;

let table: Uint32Array | null = null;

function tableCrc(bytes: Uint8Array, previous = 0): number {
  if (!table) {
    table = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      table[n] = c >>> 0;
    }
  }
  let c = (previous ^ 0xffffffff) >>> 0;
  for (let i = 0; i < bytes.length; i++) c = table[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * The CRC-32 of `bytes`, continuing from the CRC `previous` of the bytes before them (0 to
 * start). Always an unsigned 32-bit number.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(crc32(new Uint8Array()), 0);
 * assert.equal(crc32(new TextEncoder().encode("123456789")), 0xcbf43926); // the check value
 * ```
 */
export function crc32(bytes: Uint8Array, previous = 0): number {
  return native ? native(bytes, previous) >>> 0 : tableCrc(bytes, previous);
}

/**
 * The table-driven CRC-32 (the fallback; exported to test it against the native one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const bytes = new TextEncoder().encode("123456789");
 * assert.equal(crc32Table(bytes), crc32(bytes));
 * ```
 */
export function crc32Table(bytes: Uint8Array, previous = 0): number {
  return tableCrc(bytes, previous);
}
