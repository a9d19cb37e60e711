/**
 * Byte-level builders and reference checks for the fuzz suite: gzip members (valid, with a bad
 * CRC or ISIZE, or a 1 GB bomb built from repeated flushed deflate blocks), ZIP archives written
 * by hand (stored, deflate and zstd members, with CRC, size and name overrides), zstd frames of
 * RLE blocks (a 2 GB zstd bomb in 64 KB), and independent verifiers that say whether a mutated
 * gzip or ZIP file is still intact — the ground truth the classifier compares runlens with.
 *
 * Nothing here imports runlens: the suite talks to it only through the CLI.
 *
 * @example
 * ```ts
 * import { buildZip, gzipBomb, verifyZip } from "./bytes.ts";
 * const zip = buildZip([{ name: "header.json", data: utf8("{}"), method: 8 }]);
 * verifyZip(zip).ok; // true
 * gzipBomb(1 << 30).length; // about 1 MB of gzip that inflates to 1 GB of zeros
 * ```
 * @module
 */
import * as zlib from "node:zlib";
import { Buffer } from "node:buffer";

const encoder = new TextEncoder();

/**
 * UTF-8 bytes of `text`.
 *
 * @example
 * ```ts
 * utf8("é").length; // 2
 * ```
 */
export function utf8(text: string): Uint8Array {
  return encoder.encode(text);
}

/**
 * The concatenation of `parts`.
 *
 * @example
 * ```ts
 * concat([utf8("a"), utf8("b")]); // "ab"
 * ```
 */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/**
 * CRC-32 (the ZIP and gzip checksum) of `bytes`, continuing from `previous`.
 *
 * @example
 * ```ts
 * crc32(utf8("hello")); // 907060870
 * ```
 */
export function crc32(bytes: Uint8Array, previous = 0): number {
  return (zlib as unknown as { crc32(b: Uint8Array, p: number): number }).crc32(bytes, previous) >>>
    0;
}

/** A member compressed ahead of time: its compressed bytes, CRC-32 and uncompressed size. */
export interface Precompressed {
  compressed: Uint8Array;
  crc: number;
  size: number;
}

/** Cache of flushed deflate chunks (the bombs reuse them). */
const flushedChunks = new Map<string, Uint8Array>();

/**
 * Raw deflate of `prefix`, then `count` bytes equal to `fill`, then `suffix`, built without
 * ever holding the `count` bytes: one chunk of 16 MB of `fill` is deflated with a full flush
 * (the output ends byte-aligned and refers to nothing before it) and repeated; the stream ends
 * with an empty final block. `count` must be a multiple of 16 MB. The CRC is computed over
 * the same chunk repeatedly (hardware CRC: ~30 ms per GB).
 *
 * @example
 * ```ts
 * const bomb = deflateRepeated(utf8('{"a":"'), 0x61, 1 << 31, utf8('"}'));
 * bomb.compressed.length; // ~2 MB for 2 GB
 * ```
 */
export function deflateRepeated(
  prefix: Uint8Array,
  fill: number,
  count: number,
  suffix: Uint8Array,
): Precompressed {
  const CHUNK = 1 << 24;
  if (count % CHUNK !== 0) throw new Error("deflateRepeated: count must be a multiple of 16 MB");
  const full = { finishFlush: zlib.constants.Z_FULL_FLUSH, level: 9 };
  const key = `deflate:${fill}`;
  let chunk = flushedChunks.get(key);
  const plain = new Uint8Array(CHUNK).fill(fill);
  if (!chunk) {
    chunk = new Uint8Array(zlib.deflateRawSync(plain, full));
    flushedChunks.set(key, chunk);
  }
  const head = prefix.length > 0 ? new Uint8Array(zlib.deflateRawSync(prefix, full)) : null;
  const tail = new Uint8Array(zlib.deflateRawSync(suffix)); // ends with a final block
  const repeats = count / CHUNK;
  const parts: Uint8Array[] = [];
  if (head) parts.push(head);
  let crc = crc32(prefix);
  for (let i = 0; i < repeats; i++) {
    parts.push(chunk);
    crc = crc32(plain, crc);
  }
  parts.push(tail);
  crc = crc32(suffix, crc);
  return { compressed: concat(parts), crc, size: prefix.length + count + suffix.length };
}

/**
 * A gzip member of `content` (standard, as `gzip -9` writes it).
 *
 * @example
 * ```ts
 * gzipBytes(utf8("x\n"))[0]; // 0x1f
 * ```
 */
export function gzipBytes(content: Uint8Array): Uint8Array {
  return new Uint8Array(zlib.gzipSync(content, { level: 9 }));
}

/**
 * A gzip member holding `size` zero bytes (a multiple of 16 MB), about size/1000 bytes long:
 * the "1 GB of zeros" bomb.
 *
 * @example
 * ```ts
 * gzipBomb(1 << 30); // inflates to 1 GB
 * ```
 */
export function gzipBomb(size: number, fill = 0): Uint8Array {
  const body = deflateRepeated(new Uint8Array(), fill, size, new Uint8Array());
  return gzipMember(body);
}

/** A gzip member around precompressed deflate data (header, data, CRC, ISIZE). */
export function gzipMember(body: Precompressed): Uint8Array {
  const header = new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
  const trailer = new Uint8Array(8);
  const view = new DataView(trailer.buffer);
  view.setUint32(0, body.crc, true);
  view.setUint32(4, body.size % 2 ** 32, true);
  return concat([header, body.compressed, trailer]);
}

/**
 * A zstd frame of `prefix`, `count` bytes equal to `fill` and `suffix`, written by hand: raw
 * blocks for prefix and suffix, RLE blocks of 128 KB (4 bytes each) for the fill — 2 GB in
 * 64 KB. The frame header declares no content size and a 128 KB window.
 *
 * @example
 * ```ts
 * zstdRepeated(utf8("{"), 0x61, 1 << 31, utf8("}")).compressed.length; // ~64 KB
 * ```
 */
export function zstdRepeated(
  prefix: Uint8Array,
  fill: number,
  count: number,
  suffix: Uint8Array,
): Precompressed {
  const BLOCK = 1 << 17;
  const parts: Uint8Array[] = [new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38])];
  const blockHeader = (last: boolean, type: number, size: number) =>
    new Uint8Array([
      (last ? 1 : 0) | (type << 1) | ((size & 0x1f) << 3),
      (size >> 5) & 0xff,
      (size >> 13) & 0xff,
    ]);
  // prefix and suffix are short (at most one block each)
  const raw = (bytes: Uint8Array, last: boolean) => {
    if (bytes.length > BLOCK) throw new Error("zstdRepeated: prefix/suffix over 128 KB");
    parts.push(blockHeader(last, 0, bytes.length), bytes);
  };
  if (prefix.length > 0) raw(prefix, false);
  let left = count;
  let crc = crc32(prefix);
  const plain = new Uint8Array(BLOCK).fill(fill);
  while (left > 0) {
    const n = Math.min(BLOCK, left);
    left -= n;
    parts.push(blockHeader(left === 0 && suffix.length === 0, 1, n), new Uint8Array([fill]));
    crc = crc32(n === BLOCK ? plain : plain.subarray(0, n), crc);
  }
  if (suffix.length > 0) raw(suffix, true);
  crc = crc32(suffix, crc);
  return { compressed: concat(parts), crc, size: prefix.length + count + suffix.length };
}

/** ZIP compression methods the suite writes. */
export const STORED = 0, DEFLATE = 8, ZSTD = 93;

/** One member of a hand-written ZIP archive. */
export interface ZipEntry {
  name: string;
  /** Compression method (0 stored, 8 deflate, 93 zstd, or any other number as written). */
  method: number;
  /** Uncompressed content (compressed here by `method`). */
  data?: Uint8Array;
  /** Or the compressed bytes with their CRC and size (bombs). */
  pre?: Precompressed;
  /** zstd frames with a content checksum (default false, as Python's zstd writer). */
  zstdChecksum?: boolean;
  /** Overrides of the header fields: local header and central directory. */
  crcLocal?: number;
  crcCentral?: number;
  sizeLocal?: number;
  sizeCentral?: number;
  /** The name written in the central directory when it should differ from the local one. */
  nameCentral?: string;
  /** Replace the compressed bytes after the CRC was computed (a corrupted member). */
  corrupt?: (compressed: Uint8Array) => Uint8Array;
}

/**
 * The compressed bytes, CRC and size of one entry.
 *
 * @example
 * ```ts
 * compressEntry({ name: "a", method: 8, data: utf8("hi") }).size; // 2
 * ```
 */
export function compressEntry(entry: ZipEntry): Precompressed {
  if (entry.pre) return entry.pre;
  const data = entry.data ?? new Uint8Array();
  let compressed: Uint8Array;
  if (entry.method === DEFLATE) {
    compressed = new Uint8Array(zlib.deflateRawSync(data, { level: 9 }));
  } else if (entry.method === ZSTD) {
    const params = entry.zstdChecksum
      ? { [(zlib.constants as Record<string, number>).ZSTD_c_checksumFlag]: 1 }
      : {};
    compressed = new Uint8Array(
      (zlib as unknown as {
        zstdCompressSync(b: Uint8Array, o: unknown): Uint8Array;
      }).zstdCompressSync(data, { params }),
    );
  } else compressed = data.slice();
  return { compressed, crc: crc32(data), size: data.length };
}

/**
 * A ZIP archive of `entries` (local headers, data, central directory, end record), written
 * field by field so that any field can be made wrong.
 *
 * @example
 * ```ts
 * buildZip([{ name: "samples/1_epoch_1.json", method: 93, data: utf8("{}") }]);
 * ```
 */
export function buildZip(entries: readonly ZipEntry[], comment = ""): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  const DOS_TIME = 12 << 11, DOS_DATE = ((2026 - 1980) << 9) | (4 << 5) | 20;
  for (const entry of entries) {
    const pre = compressEntry(entry);
    const data = entry.corrupt ? entry.corrupt(pre.compressed) : pre.compressed;
    const name = utf8(entry.name);
    const version = entry.method === ZSTD ? 63 : 20;
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, version, true);
    lv.setUint16(6, 0x0800, true); // UTF-8 names
    lv.setUint16(8, entry.method, true);
    lv.setUint16(10, DOS_TIME, true);
    lv.setUint16(12, DOS_DATE, true);
    lv.setUint32(14, (entry.crcLocal ?? pre.crc) >>> 0, true);
    lv.setUint32(18, data.length, true);
    lv.setUint32(22, (entry.sizeLocal ?? pre.size) % 2 ** 32, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const cname = utf8(entry.nameCentral ?? entry.name);
    const central = new Uint8Array(46 + cname.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 0x0300 | version, true);
    cv.setUint16(6, version, true);
    cv.setUint16(8, 0x0800, true);
    cv.setUint16(10, entry.method, true);
    cv.setUint16(12, DOS_TIME, true);
    cv.setUint16(14, DOS_DATE, true);
    cv.setUint32(16, (entry.crcCentral ?? pre.crc) >>> 0, true);
    cv.setUint32(20, data.length, true);
    cv.setUint32(24, (entry.sizeCentral ?? pre.size) % 2 ** 32, true);
    cv.setUint16(28, cname.length, true);
    cv.setUint32(38, 0o100644 << 16, true);
    cv.setUint32(42, offset, true);
    central.set(cname, 46);
    locals.push(local, data);
    centrals.push(central);
    offset += local.length + data.length;
  }
  const cd = concat(centrals);
  const commentBytes = utf8(comment);
  const end = new Uint8Array(22 + commentBytes.length);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, cd.length, true);
  ev.setUint32(16, offset, true);
  ev.setUint16(20, commentBytes.length, true);
  end.set(commentBytes, 22);
  return concat([...locals, cd, end]);
}

/** The verdict of {@link verifyZip}. */
export interface ZipCheck {
  /** The archive is intact: every member decompresses to its size and CRC-32. */
  ok: boolean;
  /** Why not (the first problem found). */
  reason?: string;
  /**
   * The headers disagree with each other but the data matches one of them (a local/central
   * CRC, size, name or method mismatch): a reader may accept or reject such an archive.
   */
  inconsistent?: string;
  /** Member names (central directory) and, when they differ, the local headers' names. */
  names: string[];
  localNames: string[];
  /** Decompressed members by central-directory name (when ok). */
  members: Map<string, Uint8Array>;
}

/**
 * Check a ZIP archive independently of runlens: end record, central directory, local headers,
 * and every member decompressed (stored, deflate, zstd; at most `maxMember` bytes each) and
 * compared with its CRC-32 and size. `ok: false` means the content cannot be trusted (data
 * that matches neither header's CRC, a truncated or misaligned structure, a decompression
 * error); header-only disagreements set `inconsistent`.
 *
 * @example
 * ```ts ignore
 * verifyZip(Deno.readFileSync("a.eval")).ok;
 * ```
 */
export function verifyZip(bytes: Uint8Array, maxMember = 256 << 20): ZipCheck {
  const out: ZipCheck = { ok: false, names: [], localNames: [], members: new Map() };
  const fail = (reason: string) => ({ ...out, ok: false, reason });
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  const problems: string[] = [];
  // the end record: at the very end (after its comment), else followed by stray bytes
  let eocd = -1;
  for (const exact of [true, false]) {
    for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 65557 - 4096); at--) {
      const end = at + 22 + u16(at + 20);
      if (u32(at) === 0x06054b50 && (exact ? end === bytes.length : end < bytes.length)) {
        eocd = at;
        break;
      }
    }
    if (eocd >= 0) {
      if (!exact) problems.push("bytes after the end record");
      break;
    }
  }
  if (eocd < 0) return fail("no end-of-central-directory record");
  const count = u16(eocd + 10);
  if (u16(eocd + 8) !== count) return fail("entry counts disagree");
  const cdSize = u32(eocd + 12);
  const cdOffset = eocd - cdSize;
  const declared = u32(eocd + 16);
  if (declared > cdOffset) return fail("central directory does not end at the end record");
  // bytes before the archive (a self-extractor stub) shift every local offset alike; bytes
  // between the data and the directory shift none
  const shifts = cdOffset === declared ? [0] : [cdOffset - declared, 0];
  let last: ZipCheck | null = null;
  for (const shift of shifts) {
    const note = shift > 0
      ? `${shift} bytes before the archive`
      : cdOffset !== declared
      ? `${cdOffset - declared} bytes before the central directory`
      : null;
    const result = verifyEntries(shift, note ? [...problems, note] : [...problems]);
    if (result.ok) return result;
    last ??= result;
  }
  return last!;

  function verifyEntries(shift: number, problems: string[]): ZipCheck {
    const out: ZipCheck = { ok: false, names: [], localNames: [], members: new Map() };
    const fail = (reason: string) => ({ ...out, ok: false, reason });
    let at = cdOffset;
    for (let i = 0; i < count; i++) {
      if (at + 46 > eocd || u32(at) !== 0x02014b50) return fail(`central entry ${i} misaligned`);
      const method = u16(at + 10);
      const crc = u32(at + 16);
      const csize = u32(at + 20);
      const usize = u32(at + 24);
      const nlen = u16(at + 28), xlen = u16(at + 30), clen = u16(at + 32);
      const local = u32(at + 42) + shift;
      const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nlen));
      at += 46 + nlen + xlen + clen;
      if (at > eocd) return fail(`central entry ${name} overruns the directory`);
      if (local + 30 > cdOffset || u32(local) !== 0x04034b50) {
        return fail(`${name}: no local header at ${local}`);
      }
      const lnlen = u16(local + 26), lxlen = u16(local + 28);
      const lname = new TextDecoder().decode(bytes.subarray(local + 30, local + 30 + lnlen));
      const start = local + 30 + lnlen + lxlen;
      if (start + csize > cdOffset) return fail(`${name}: data overruns the archive`);
      out.names.push(name);
      out.localNames.push(lname);
      const lmethod = u16(local + 8), lcrc = u32(local + 14), lsize = u32(local + 22);
      const lcsize = u32(local + 18);
      if (lname !== name) problems.push(`${name}: local name ${lname}`);
      if (lmethod !== method) problems.push(`${name}: local method ${lmethod}, central ${method}`);
      if (lcsize !== csize) problems.push(`${name}: compressed sizes differ`);
      const data = bytes.subarray(start, start + csize);
      let plain: Uint8Array;
      try {
        if (method === STORED) plain = data;
        else if (method === DEFLATE) {
          plain = new Uint8Array(zlib.inflateRawSync(data, { maxOutputLength: maxMember }));
        } else if (method === ZSTD) {
          plain = new Uint8Array(
            (zlib as unknown as {
              zstdDecompressSync(b: Uint8Array, o: unknown): Uint8Array;
            }).zstdDecompressSync(data, { maxOutputLength: maxMember }),
          );
        } else return fail(`${name}: unknown method ${method}`);
      } catch (e) {
        return fail(`${name}: does not decompress (${(e as Error).message})`);
      }
      const actual = crc32(plain);
      const crcOk = actual === crc, lcrcOk = actual === lcrc;
      const sizeOk = plain.length === usize, lsizeOk = plain.length === lsize;
      if (!(crcOk && sizeOk) && !(lcrcOk && lsizeOk)) {
        return fail(`${name}: data matches neither header (CRC or size)`);
      }
      if (!(crcOk && sizeOk && lcrcOk && lsizeOk)) {
        problems.push(`${name}: local and central CRC/size differ`);
      }
      out.members.set(name, plain);
    }
    if (at !== eocd) return fail("central directory size disagrees with its entries");
    if (new Set(out.names).size !== out.names.length) return fail("duplicate member names");
    return {
      ...out,
      ok: true,
      inconsistent: problems.length > 0 ? problems.join("; ") : undefined,
    };
  }
}

/** The verdict of {@link verifyGzip}. */
export interface GzipCheck {
  /** Every member is intact (header, deflate data, CRC-32 and ISIZE). */
  ok: boolean;
  reason?: string;
  /** The decompressed content of the intact members. */
  content: Uint8Array;
  /** Bytes after the last member that are not another member (gzip(1) ignores them). */
  trailingGarbage: boolean;
}

/**
 * Check gzip data independently of runlens: members one after another (header flags, deflate
 * data, CRC-32 and ISIZE each checked); bytes after a member that do not start another member
 * are trailing garbage (reported, not an error). At most `max` bytes are inflated.
 *
 * @example
 * ```ts
 * verifyGzip(gzipBytes(utf8("x"))).ok; // true
 * ```
 */
export function verifyGzip(bytes: Uint8Array, max = 256 << 20): GzipCheck {
  const parts: Uint8Array[] = [];
  let at = 0;
  let first = true;
  const result = (ok: boolean, reason?: string, trailingGarbage = false): GzipCheck => ({
    ok,
    reason,
    content: concat(parts),
    trailingGarbage,
  });
  while (at < bytes.length) {
    if (bytes[at] !== 0x1f || bytes[at + 1] !== 0x8b) {
      return first ? result(false, "no gzip signature") : result(true, undefined, true);
    }
    first = false;
    if (at + 10 > bytes.length) return result(false, "truncated header");
    if (bytes[at + 2] !== 8) return result(false, "not deflate");
    const flg = bytes[at + 3];
    if (flg & 0xe0) return result(false, "reserved flags set");
    let p = at + 10;
    if (flg & 4) {
      if (p + 2 > bytes.length) return result(false, "truncated extra field");
      p += 2 + (bytes[p] | (bytes[p + 1] << 8));
    }
    for (const bit of [8, 16]) {
      if (flg & bit) {
        while (p < bytes.length && bytes[p] !== 0) p++;
        p++;
      }
    }
    if (flg & 2) p += 2;
    if (p > bytes.length) return result(false, "truncated header");
    let inflated: { buffer: Uint8Array; engine: { bytesWritten: number } };
    try {
      inflated = zlib.inflateRawSync(bytes.subarray(p), {
        info: true,
        maxOutputLength: max,
      }) as unknown as typeof inflated;
    } catch (e) {
      return result(false, `deflate data: ${(e as Error).message}`);
    }
    const plain = new Uint8Array(inflated.buffer);
    p += inflated.engine.bytesWritten;
    if (p + 8 > bytes.length) return result(false, "truncated trailer");
    const view = new DataView(bytes.buffer, bytes.byteOffset + p, 8);
    if (view.getUint32(0, true) !== crc32(plain)) return result(false, "CRC-32 mismatch");
    if (view.getUint32(4, true) !== plain.length % 2 ** 32) return result(false, "ISIZE mismatch");
    parts.push(plain);
    at = p + 8;
  }
  return result(true);
}

/**
 * The records of JSON-lines bytes: lines (split at `\n`) holding any byte other than space,
 * tab or CR — JSON's own whitespace; a line of only U+2028, U+00A0, a form feed, … is a record
 * (a malformed one). A UTF-8 byte order mark at the start of the file is not content.
 *
 * @example
 * ```ts
 * jsonlRecords(utf8('{"a":1}\n \t\n\u2028\n')); // 2
 * ```
 */
export function jsonlRecords(bytes: Uint8Array): number {
  let start = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  let n = 0;
  while (start <= bytes.length) {
    let end = bytes.indexOf(0x0a, start);
    if (end < 0) end = bytes.length;
    for (let i = start; i < end; i++) {
      const b = bytes[i];
      if (b !== 0x20 && b !== 0x09 && b !== 0x0d) {
        n++;
        break;
      }
    }
    start = end + 1;
  }
  return n;
}

/**
 * Whether `bytes` are valid UTF-8.
 *
 * @example
 * ```ts
 * isUtf8(new Uint8Array([0xc0, 0xaf])); // false (overlong)
 * ```
 */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/**
 * `bytes` as a Node Buffer (no copy).
 *
 * @example
 * ```ts
 * asBuffer(utf8("x")).toString(); // "x"
 * ```
 */
export function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}
