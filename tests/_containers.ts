/**
 * Test helpers for containers: ZIP archives written field by field (any CRC, size, name or
 * method can be made wrong), gzip members (with a chosen header, CRC or ISIZE), compression
 * bombs built cheaply (a 1 GB deflate stream from one flushed 16 MB block repeated; a 2 GB
 * zstd frame of RLE blocks in 64 KB) and an independent ZIP check with `node:zlib` — the
 * ground truth the readers under test are compared with. Nothing here uses `lib/codecs/zip.ts`
 * or `gzip_stream.ts`.
 *
 * Also {@link peakRss}: run a script in a child process and read its peak resident memory
 * (`VmHWM` in `/proc/<pid>/status`) from outside, while the child waits before exiting.
 *
 * @example
 * ```ts ignore
 * const zip = buildZip([{ name: "a.json", method: DEFLATE, data: utf8("{}") }]);
 * const bomb = gzipMember(deflateRepeated(0, 1 << 30)); // ~1 MB → 1 GB of zeros
 * ```
 * @module
 */
import * as zlib from "node:zlib";

const enc = new TextEncoder();

/** UTF-8 bytes of `text`. */
export const utf8 = (text: string) => enc.encode(text);

/** The concatenation of `parts`. */
export function concat(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

/** CRC-32 with `node:zlib` (independent of `lib/codecs/crc32.ts`'s use of it: a table check). */
export function crc(bytes: Uint8Array, previous = 0): number {
  return (zlib as unknown as { crc32(b: Uint8Array, p: number): number }).crc32(bytes, previous) >>>
    0;
}

/** ZIP methods. */
export const STORED = 0, DEFLATE = 8, ZSTD = 93;

/** Compressed bytes, CRC-32 and uncompressed size of a member. */
export interface Packed {
  compressed: Uint8Array;
  crc: number;
  size: number;
}

/** zstd of `data` with `node:zlib` (optionally with a content checksum). */
export function zstd(data: Uint8Array, checksum = false): Uint8Array {
  const params = checksum
    ? { [(zlib.constants as Record<string, number>).ZSTD_c_checksumFlag]: 1 }
    : {};
  return new Uint8Array(
    (zlib as unknown as { zstdCompressSync(b: Uint8Array, o: unknown): Uint8Array })
      .zstdCompressSync(data, { params }),
  );
}

/** Compress `data` by ZIP method. */
export function pack(data: Uint8Array, method: number): Packed {
  const compressed = method === DEFLATE
    ? new Uint8Array(zlib.deflateRawSync(data, { level: 9 }))
    : method === ZSTD
    ? zstd(data)
    : data.slice();
  return { compressed, crc: crc(data), size: data.length };
}

/** One member of a hand-written archive. */
export interface Entry {
  name: string;
  method: number;
  data?: Uint8Array;
  /** Or the packed member (bombs). */
  packed?: Packed;
  crcLocal?: number;
  crcCentral?: number;
  sizeLocal?: number;
  sizeCentral?: number;
  nameCentral?: string;
  flags?: number;
  /** Replace the compressed bytes after packing. */
  corrupt?: (compressed: Uint8Array) => Uint8Array;
}

/** A ZIP archive of `entries`, written field by field. */
export function buildZip(entries: readonly Entry[], comment = ""): Uint8Array {
  const locals: Uint8Array[] = [];
  const centrals: Uint8Array[] = [];
  let offset = 0;
  for (const e of entries) {
    const p = e.packed ?? pack(e.data ?? new Uint8Array(), e.method);
    const data = e.corrupt ? e.corrupt(p.compressed) : p.compressed;
    const name = utf8(e.name);
    const local = new Uint8Array(30 + name.length);
    const lv = new DataView(local.buffer);
    lv.setUint32(0, 0x04034b50, true);
    lv.setUint16(4, 20, true);
    lv.setUint16(6, e.flags ?? 0x0800, true);
    lv.setUint16(8, e.method, true);
    lv.setUint32(14, (e.crcLocal ?? p.crc) >>> 0, true);
    lv.setUint32(18, data.length, true);
    lv.setUint32(22, (e.sizeLocal ?? p.size) % 2 ** 32, true);
    lv.setUint16(26, name.length, true);
    local.set(name, 30);
    const cname = utf8(e.nameCentral ?? e.name);
    const central = new Uint8Array(46 + cname.length);
    const cv = new DataView(central.buffer);
    cv.setUint32(0, 0x02014b50, true);
    cv.setUint16(4, 0x0314, true);
    cv.setUint16(6, 20, true);
    cv.setUint16(8, e.flags ?? 0x0800, true);
    cv.setUint16(10, e.method, true);
    cv.setUint32(16, (e.crcCentral ?? p.crc) >>> 0, true);
    cv.setUint32(20, data.length, true);
    cv.setUint32(24, (e.sizeCentral ?? p.size) % 2 ** 32, true);
    cv.setUint16(28, cname.length, true);
    cv.setUint32(42, offset, true);
    central.set(cname, 46);
    locals.push(local, data);
    centrals.push(central);
    offset += local.length + data.length;
  }
  const cd = concat(centrals);
  const c = utf8(comment);
  const end = new Uint8Array(22 + c.length);
  const ev = new DataView(end.buffer);
  ev.setUint32(0, 0x06054b50, true);
  ev.setUint16(8, entries.length, true);
  ev.setUint16(10, entries.length, true);
  ev.setUint32(12, cd.length, true);
  ev.setUint32(16, offset, true);
  ev.setUint16(20, c.length, true);
  end.set(c, 22);
  return concat([...locals, cd, end]);
}

/**
 * Whether every member of a ZIP archive decompresses (node:zlib) to its central directory's
 * CRC-32 and size, with consistent local headers; null when intact, else the first problem.
 */
export function zipProblem(bytes: Uint8Array, maxMember = 64 << 20): string | null {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u16 = (at: number) => view.getUint16(at, true);
  const u32 = (at: number) => view.getUint32(at, true);
  let eocd = -1;
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 0xffff); at--) {
    if (u32(at) === 0x06054b50) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) return "no end record";
  const count = u16(eocd + 10);
  const cdSize = u32(eocd + 12);
  const cdStart = eocd - cdSize;
  // bytes before the archive (a stub) shift every offset alike
  const shift = cdStart - u32(eocd + 16);
  if (cdStart < 0 || shift < 0) return "directory offset";
  let at = cdStart;
  const names = new Set<string>();
  for (let i = 0; i < count; i++) {
    if (at + 46 > eocd || u32(at) !== 0x02014b50) return "central entry";
    const flags = u16(at + 8), method = u16(at + 10), c = u32(at + 16);
    const csize = u32(at + 20), usize = u32(at + 24);
    const nlen = u16(at + 28), xlen = u16(at + 30), klen = u16(at + 32);
    const local = u32(at + 42) + shift;
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nlen));
    at += 46 + nlen + xlen + klen;
    if (names.has(name)) return "duplicate";
    names.add(name);
    if (flags & 1) return "encrypted";
    if (local + 30 > cdStart || u32(local) !== 0x04034b50) return `${name}: local header`;
    const lname = new TextDecoder().decode(
      bytes.subarray(local + 30, local + 30 + u16(local + 26)),
    );
    if (lname !== name || u16(local + 8) !== method) return `${name}: local header differs`;
    if (
      !(u16(local + 6) & 8) && (u32(local + 14) !== c || u32(local + 18) !== csize ||
        u32(local + 22) !== usize)
    ) return `${name}: local CRC/sizes differ`;
    const start = local + 30 + u16(local + 26) + u16(local + 28);
    if (start + csize > cdStart) return `${name}: data overruns`;
    const data = bytes.subarray(start, start + csize);
    let plain: Uint8Array;
    try {
      if (method === STORED) plain = data;
      else if (method === DEFLATE) {
        plain = new Uint8Array(zlib.inflateRawSync(data, { maxOutputLength: maxMember }));
      } else if (method === ZSTD) {
        plain = new Uint8Array(
          (zlib as unknown as { zstdDecompressSync(b: Uint8Array, o: unknown): Uint8Array })
            .zstdDecompressSync(data, { maxOutputLength: maxMember }),
        );
      } else return `${name}: method ${method}`;
    } catch (e) {
      return `${name}: ${(e as Error).message}`;
    }
    if (plain.length !== usize || crc(plain) !== c) return `${name}: CRC/size`;
  }
  if (at !== eocd) return "directory size";
  return null;
}

/**
 * Raw deflate of `count` bytes equal to `fill` (a multiple of 16 MB) without holding them:
 * one 16 MB block deflated with a full flush, repeated, then an empty final block. About
 * 1,030× (deflate's limit).
 */
export function deflateRepeated(fill: number, count: number, prefix = "", suffix = ""): Packed {
  const CHUNK = 1 << 24;
  if (count % CHUNK !== 0) throw new Error("count must be a multiple of 16 MB");
  const plain = new Uint8Array(CHUNK).fill(fill);
  const full = { finishFlush: zlib.constants.Z_FULL_FLUSH, level: 9 };
  const block = new Uint8Array(zlib.deflateRawSync(plain, full));
  const head = prefix ? new Uint8Array(zlib.deflateRawSync(utf8(prefix), full)) : new Uint8Array();
  const tail = new Uint8Array(zlib.deflateRawSync(utf8(suffix)));
  const parts: Uint8Array[] = [head];
  let c = crc(utf8(prefix));
  for (let i = 0; i < count / CHUNK; i++) {
    parts.push(block);
    c = crc(plain, c);
  }
  parts.push(tail);
  c = crc(utf8(suffix), c);
  return { compressed: concat(parts), crc: c, size: prefix.length + count + suffix.length };
}

/**
 * A zstd frame of `count` bytes equal to `fill`, as RLE blocks of 128 KB (4 bytes each), the
 * frame header declaring no content size and a 128 KB window (2 GB in 64 KB).
 */
export function zstdRepeated(fill: number, count: number, prefix = "", suffix = ""): Packed {
  const BLOCK = 1 << 17;
  const parts: Uint8Array[] = [new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38])];
  const header = (last: boolean, type: number, size: number) =>
    new Uint8Array([
      (last ? 1 : 0) | (type << 1) | ((size & 0x1f) << 3),
      (size >> 5) & 0xff,
      (size >> 13) & 0xff,
    ]);
  const p = utf8(prefix), s = utf8(suffix);
  if (p.length > 0) parts.push(header(false, 0, p.length), p);
  let left = count;
  let c = crc(p);
  const plain = new Uint8Array(BLOCK).fill(fill);
  while (left > 0) {
    const n = Math.min(BLOCK, left);
    left -= n;
    parts.push(header(left === 0 && s.length === 0, 1, n), new Uint8Array([fill]));
    c = crc(n === BLOCK ? plain : plain.subarray(0, n), c);
  }
  if (s.length > 0) parts.push(header(true, 0, s.length), s);
  c = crc(s, c);
  return { compressed: concat(parts), crc: c, size: p.length + count + s.length };
}

/** A gzip member around packed deflate data (`crc`/`isize` override the trailer). */
export function gzipMember(
  body: Packed,
  opts: { crc?: number; isize?: number; header?: Uint8Array } = {},
): Uint8Array {
  const header = opts.header ?? new Uint8Array([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 2, 3]);
  const trailer = new Uint8Array(8);
  const v = new DataView(trailer.buffer);
  v.setUint32(0, (opts.crc ?? body.crc) >>> 0, true);
  v.setUint32(4, (opts.isize ?? body.size) % 2 ** 32, true);
  return concat([header, body.compressed, trailer]);
}

/** A gzip member of `data` (`gzip -9`). */
export function gzipBytes(data: Uint8Array): Uint8Array {
  return new Uint8Array(zlib.gzipSync(data, { level: 9 }));
}

/** A deterministic pseudo-random generator (mulberry32). */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** What {@link peakRss} measured. */
export interface Measured {
  /** The child's peak resident memory (VmHWM), bytes. */
  peak: number;
  /** What the child printed (its last line is its result). */
  stdout: string;
  stderr: string;
  code: number;
  ms: number;
}

/**
 * Run `script` (TypeScript, may import `@runlens/…`) in a child Deno process with `args`, and
 * measure its peak RSS from outside: the child prints its result, then waits for its stdin to
 * close; the parent reads `/proc/<pid>/status` (VmHWM) before closing it.
 */
export async function peakRss(script: string, args: string[] = []): Promise<Measured> {
  const dir = Deno.makeTempDirSync({ prefix: "runlens_rss_" });
  const file = `${dir}/child.ts`;
  Deno.writeTextFileSync(
    file,
    `${script}\nawait (async () => { for await (const _ of Deno.stdin.readable) { /* wait */ } })();\n`,
  );
  const t0 = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", "--config", `${Deno.cwd()}/deno.json`, file, ...args],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const reader = child.stdout.getReader();
  let stdout = "";
  // the child's result line ends its output before it waits
  while (!stdout.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += new TextDecoder().decode(value);
  }
  let peak = 0;
  try {
    const status = Deno.readTextFileSync(`/proc/${child.pid}/status`);
    peak = Number(/VmHWM:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
  } catch { /* exited already */ }
  const ms = performance.now() - t0;
  await child.stdin.close();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    stdout += new TextDecoder().decode(value);
  }
  const stderr = new TextDecoder().decode(await new Response(child.stderr).arrayBuffer());
  const { code } = await child.status;
  Deno.removeSync(dir, { recursive: true });
  return { peak, stdout, stderr, code, ms };
}

/**
 * A child script for {@link peakRss}: `lines <path>` reads a gzip file as line blocks,
 * `<format> <path> [gzip|plain] [limits JSON]` runs that document source (limits: overrides of
 * the defaults); prints `{"ok": <records + bad records>, "bad": [<reasons>]}` or
 * `{"error": <message>}`.
 */
export const READ_CHILD = `
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { gunzipLines } from "@runlens/codecs/gzip_stream.ts";
import { DOCUMENT_SOURCES } from "@runlens/logs/sources/documents.ts";
const [kind, path, gzip, overrides] = Deno.args;
const limits = { ...DEFAULT_LIMITS, ...JSON.parse(overrides ?? "{}") };
let result;
try {
  let n = 0;
  const bad: string[] = [];
  if (kind === "lines") {
    for (const b of gunzipLines(path, limits)) n += b.lines;
  } else {
    const file = { id: 0, path, name: path.replace(/\\.gz$/, ""), format: kind, gzip: gzip === "gzip",
      defaultRun: "x", size: 0 };
    DOCUMENT_SOURCES[kind].read(file, { record: () => n++, bad: (b) => bad.push(b.reason) && n++ }, limits);
  }
  result = { ok: n, bad };
} catch (e) {
  result = { error: (e as Error).message };
}
console.log(JSON.stringify(result));
`;
