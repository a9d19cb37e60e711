/**
 * Streaming gunzip with integrity checks and a decompression budget (issue 15, items 2–3).
 * Polars-free: scoring Workers load it. The framing is hand-written on purpose (fflate does
 * the inflating), for the hostile-input limits: a member's ratio budget is checked while it
 * streams, which neither fflate's `Gunzip` (no limit option) nor `node:zlib` (a total
 * `maxOutputLength` only) offers.
 *
 * Every member of a gzip file is checked: its header (signature, method 8, no reserved flag,
 * the optional header CRC-16), its deflate data (fflate's streaming `Inflate`), and its
 * trailer (CRC-32 and ISIZE of what it inflated to). Several members in a row (`cat a.gz
 * b.gz`) are read in turn; zero bytes after the last member (padding) are ignored, other
 * bytes are an error ("trailing garbage"). The output is counted against an
 * {@link InflateBudget}: the whole file may not inflate past `maxInflated`, a member not past
 * `maxRatio` times its compressed size (checked as it streams, so a bomb stops after a few
 * megabytes). Nothing holds more than one chunk of output unless the caller keeps it.
 *
 * The API, from lowest to highest level:
 * - {@link GunzipStream}: push compressed chunks, get decompressed chunks (for any I/O, sync
 *   or async);
 * - {@link gunzipChunks}: a sync generator of the decompressed chunks of a file;
 * - {@link gunzipLines}: a sync generator of blocks of whole lines with their decompressed
 *   byte offset and first line number (what a JSON-lines source scans; `gz-span` pointers are
 *   offsets in the decompressed stream) — a line longer than `maxLineBytes` is never held;
 * - {@link gunzipAll}: the whole content, for documents, with a size cap;
 * - {@link gunzipHead}: the first bytes, for format detection (never throws).
 *
 * Errors are {@link FileError}s naming the file, and the member when it is one member's fault.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * import { gunzipLines } from "@runlens/codecs/gzip_stream.ts";
 * const dir = Deno.makeTempDirSync();
 * const path = `${dir}/run.jsonl.gz`;
 * const a = gzipSync(new TextEncoder().encode('{"a": 1}\n{"a": 2}\n'));
 * const b = gzipSync(new TextEncoder().encode('{"a": 3}'));
 * Deno.writeFileSync(path, new Uint8Array([...a, ...b])); // two members
 * const blocks = [...gunzipLines(path, DEFAULT_LIMITS)];
 * assert.deepEqual(blocks.map((x) => [x.offset, x.line, x.lines]), [[0, 1, 2], [18, 3, 1]]);
 * assert.equal(blocks[1].unterminatedLast, true); // no final newline
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import { Inflate } from "fflate";
import { type ByteSource, bytesSource, concatBytes, fileSource } from "./byte_source.ts";
import { crc32 } from "./crc32.ts";
import { BudgetError, InflateBudget, type InflateLimits } from "./inflate_budget.ts";
import { FileError, type SourceLimits } from "./errors.ts";
import { count } from "../core/count.ts";

/** Compressed bytes read from a file at a time (the inflater gets them in smaller steps). */
const CHUNK = 1 << 16;
/** The longest gzip header accepted (the optional name and comment fields have no length). */
const MAX_HEADER = 1 << 20;

const n = count;
const hex = (x: number) => `0x${(x >>> 0).toString(16).padStart(8, "0")}`;

/** fflate's `Inflate` state (fflate 0.8.2): `s.f` final block seen, `s.l` inside a block, `s.p` bit position in `p`. */
interface InflateState {
  s: { f?: number; l?: unknown; p?: number };
  p: Uint8Array;
}

/** Why a gzip stream is not readable (a message naming the member when it is its fault). */
export class GzipError extends Error {}

type Phase = "header" | "deflate" | "trailer" | "between" | "padding";

/**
 * A gzip decompressor fed compressed chunks: {@link GunzipStream.push} returns the
 * decompressed chunks they complete, {@link GunzipStream.end} says the input is over. Throws
 * {@link GzipError} for corrupt data (message naming the member) and {@link BudgetError}
 * past the budget.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * const gz = gzipSync(new TextEncoder().encode("hello\n"));
 * const s = new GunzipStream(DEFAULT_LIMITS);
 * const out = [...s.push(gz.subarray(0, 5)), ...s.push(gz.subarray(5))];
 * s.end();
 * assert.equal(new TextDecoder().decode(out[0]), "hello\n");
 * const bad = new Uint8Array(gz);
 * bad[bad.length - 8] ^= 1; // the CRC-32 in the trailer
 * assert.throws(() => new GunzipStream(DEFAULT_LIMITS).push(bad), /member 1.*CRC-32 mismatch/);
 * ```
 */
export class GunzipStream {
  /** Members started so far. */
  members = 0;
  /** Compressed bytes taken so far. */
  consumed = 0;
  readonly budget: InflateBudget;
  #phase: Phase = "header";
  #head: Uint8Array = new Uint8Array(0);
  #memberStart = 0;
  #inflate: Inflate | null = null;
  #crc = 0;
  #size = 0;
  #out: Uint8Array[] = [];

  constructor(limits: InflateLimits, cap: { bytes: number; reason: string } | null = null) {
    this.budget = new InflateBudget(limits, cap);
  }

  /** Bytes inflated so far. */
  get inflated(): number {
    return this.budget.total;
  }

  /** Feed compressed bytes; returns the decompressed chunks they complete. */
  push(chunk: Uint8Array): Uint8Array[] {
    this.#out = [];
    let data = chunk;
    while (data.length > 0) data = this.#step(data);
    return this.#out;
  }

  /** The input is over: throws when it stops inside a member (truncated) or holds no member. */
  end(): void {
    if (this.#phase === "between" || this.#phase === "padding") return;
    if (this.#phase === "header" && this.members === 0 && this.#head.length === 0) {
      throw new GzipError("empty file (no gzip member)");
    }
    if (this.#phase === "header") {
      throw new GzipError(
        `gzip member ${this.members + 1} (at byte ${n(this.consumed - this.#head.length)}): ` +
          "truncated (the file ends inside its header)",
      );
    }
    const where = this.#phase === "deflate" ? "compressed data" : "trailer";
    throw new GzipError(`${this.#what()}: truncated (the file ends inside its ${where})`);
  }

  #what(): string {
    return `gzip member ${this.members} (at byte ${n(this.#memberStart)})`;
  }

  /** Consume a prefix of `data`; return the rest. */
  #step(data: Uint8Array): Uint8Array {
    switch (this.#phase) {
      case "between": {
        if (data[0] === 0) {
          this.#phase = "padding";
          return data;
        }
        this.#phase = "header";
        return data;
      }
      case "padding": {
        let i = 0;
        while (i < data.length && data[i] === 0) i++;
        this.consumed += i;
        if (i < data.length) {
          throw new GzipError(
            `bytes after the last gzip member that are not a gzip member (trailing garbage at ` +
              `byte ${n(this.consumed)})`,
          );
        }
        return data.subarray(i);
      }
      case "header":
        return this.#header(data);
      case "deflate":
        return this.#deflate(data);
      case "trailer":
        return this.#trailer(data);
    }
  }

  #header(data: Uint8Array): Uint8Array {
    if (this.#head.length === 0) this.#memberStart = this.consumed;
    const before = this.#head.length;
    const take = Math.min(data.length, MAX_HEADER + 8 - before);
    const head = new Uint8Array(before + take);
    head.set(this.#head);
    head.set(data.subarray(0, take), before);
    const size = gzipHeaderSize(head, this.members + 1);
    if (size === null) {
      if (head.length > MAX_HEADER) {
        throw new GzipError(
          `gzip member ${this.members + 1}: header longer than ${n(MAX_HEADER)} bytes`,
        );
      }
      this.#head = head;
      this.consumed += take;
      return data.subarray(take);
    }
    // the header ends `size - before` bytes into `data`
    const used = size - before;
    this.consumed += used;
    this.#head = new Uint8Array(0);
    this.members++;
    this.#phase = "deflate";
    this.#crc = 0;
    this.#size = 0;
    this.budget.startMember();
    this.#inflate = new Inflate((out) => this.#take(out));
    return data.subarray(used);
  }

  #take(out: Uint8Array): void {
    if (out.length === 0) return;
    this.#size += out.length;
    this.#crc = crc32(out, this.#crc);
    this.#out.push(out);
    try {
      this.budget.output(out.length);
    } catch (e) {
      if (e instanceof BudgetError) throw new BudgetError(`${this.#what()}: ${e.message}`);
      throw e;
    }
  }

  #deflate(data: Uint8Array): Uint8Array {
    const inflate = this.#inflate!;
    const piece = data.subarray(0, this.budget.nextInput());
    this.budget.input(piece.length);
    try {
      inflate.push(piece, false);
    } catch (e) {
      if (e instanceof BudgetError) throw e;
      throw new GzipError(`${this.#what()}: corrupt deflate data (${(e as Error).message})`);
    }
    const state = inflate as unknown as InflateState;
    if (!state.s || !(state.p instanceof Uint8Array)) {
      throw new Error("internal: fflate's Inflate state is not the one of fflate 0.8.2");
    }
    if (state.s.f && !state.s.l) {
      // the member's deflate stream ended: what fflate has not consumed is ours again
      const rest = state.p.subarray(((state.s.p ?? 0) + 7) >> 3);
      this.consumed += piece.length - rest.length;
      this.#inflate = null;
      this.#phase = "trailer";
      this.#head = new Uint8Array(0);
      if (rest.length === 0) return data.subarray(piece.length);
      const more = data.subarray(piece.length);
      const joined = new Uint8Array(rest.length + more.length);
      joined.set(rest);
      joined.set(more, rest.length);
      return joined;
    }
    this.consumed += piece.length;
    return data.subarray(piece.length);
  }

  #trailer(data: Uint8Array): Uint8Array {
    const need = 8 - this.#head.length;
    const take = Math.min(need, data.length);
    const t = new Uint8Array(this.#head.length + take);
    t.set(this.#head);
    t.set(data.subarray(0, take), this.#head.length);
    this.consumed += take;
    if (t.length < 8) {
      this.#head = t;
      return data.subarray(take);
    }
    this.#head = new Uint8Array(0);
    const crc = (t[0] | (t[1] << 8) | (t[2] << 16) | (t[3] << 24)) >>> 0;
    const isize = (t[4] | (t[5] << 8) | (t[6] << 16) | (t[7] << 24)) >>> 0;
    if (crc !== this.#crc) {
      throw new GzipError(
        `${this.#what()}: CRC-32 mismatch (data ${hex(this.#crc)}, trailer ${hex(crc)})`,
      );
    }
    if (isize !== this.#size % 2 ** 32) {
      throw new GzipError(
        `${this.#what()}: size mismatch (inflated to ${n(this.#size)} bytes, trailer ISIZE ` +
          `${n(isize)})`,
      );
    }
    this.#phase = "between";
    return data.subarray(take);
  }
}

/**
 * The size of the gzip header at the start of `head`, or null when `head` is too short to
 * hold all of it. Throws {@link GzipError} when it is not a gzip header (member `k`).
 */
function gzipHeaderSize(head: Uint8Array, k: number): number | null {
  if (head.length >= 1 && head[0] !== 0x1f || head.length >= 2 && head[1] !== 0x8b) {
    throw new GzipError(
      k === 1 ? "not gzip data (no gzip signature)" : `bytes after gzip member ${k - 1} that ` +
        "are not a gzip member (trailing garbage)",
    );
  }
  if (head.length < 10) return null;
  if (head[2] !== 8) {
    throw new GzipError(`gzip member ${k}: compression method ${head[2]}, not deflate`);
  }
  const flg = head[3];
  if (flg & 0xe0) throw new GzipError(`gzip member ${k}: reserved header flags set`);
  let p = 10;
  if (flg & 4) {
    if (head.length < p + 2) return null;
    p += 2 + (head[p] | (head[p + 1] << 8));
    if (head.length < p) return null;
  }
  for (const bit of [8, 16]) {
    if (flg & bit) {
      const z = head.indexOf(0, p);
      if (z < 0) return null;
      p = z + 1;
    }
  }
  if (flg & 2) {
    if (head.length < p + 2) return null;
    const want = head[p] | (head[p + 1] << 8);
    if ((crc32(head.subarray(0, p)) & 0xffff) !== want) {
      throw new GzipError(`gzip member ${k}: header CRC-16 mismatch`);
    }
    p += 2;
  }
  return p;
}

/** Options of the file-level functions. */
export interface GunzipOptions {
  /** The compressed bytes, when already in memory (else the file at `path` is read). */
  bytes?: Uint8Array;
  /** An extra cap on the decompressed size, with its reason (documents parsed whole). */
  cap?: { bytes: number; reason: string } | null;
}

/** The compressed bytes of `path` (or `opts.bytes`) as a {@link ByteSource}. */
function sourceOf(path: string, opts: GunzipOptions): ByteSource {
  return opts.bytes ? bytesSource(opts.bytes) : fileSource(path);
}

/** Map an error of the stream to a FileError naming `path`. */
function asFileError(path: string, e: unknown): unknown {
  if (e instanceof GzipError || e instanceof BudgetError) return new FileError(path, e.message);
  return e;
}

/**
 * The decompressed content of the gzip file `path`, chunk by chunk, every member checked (see
 * the module documentation). Reads the file 32 KiB at a time. Throws a {@link FileError}
 * naming `path` (and the member) when the data is corrupt, truncated or past the budget — the
 * chunks yielded before were what the file held up to there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * const gz = gzipSync(new Uint8Array(1 << 20)); // 1 MiB of zeros: about 1,000×
 * const limits = { ...DEFAULT_LIMITS, maxRatio: 100 };
 * assert.throws(
 *   () => [...gunzipChunks("zeros.gz", limits, { bytes: gz })],
 *   /zeros\.gz: gzip member 1 \(at byte 0\): inflates more than 100× its compressed size/,
 * );
 * ```
 */
export function* gunzipChunks(
  path: string,
  limits: InflateLimits,
  opts: GunzipOptions = {},
): Generator<Uint8Array> {
  const source = sourceOf(path, opts);
  const stream = new GunzipStream(limits, opts.cap ?? null);
  try {
    for (let at = 0; at < source.size; at += CHUNK) {
      const chunk = source.read(at, CHUNK);
      let out: Uint8Array[];
      try {
        out = stream.push(chunk);
      } catch (e) {
        throw asFileError(path, e);
      }
      yield* out;
      if (chunk.length < CHUNK) break;
    }
    try {
      stream.end();
    } catch (e) {
      throw asFileError(path, e);
    }
  } finally {
    source.close();
  }
}

/**
 * The whole decompressed content of a gzip file (for documents parsed whole); `opts.cap`
 * bounds it. Throws as {@link gunzipChunks}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * const gz = gzipSync(new TextEncoder().encode('{"a": 1}'));
 * assert.equal(new TextDecoder().decode(gunzipAll("a.json.gz", DEFAULT_LIMITS, { bytes: gz })), '{"a": 1}');
 * const cut = gz.subarray(0, gz.length - 3);
 * assert.throws(() => gunzipAll("a.json.gz", DEFAULT_LIMITS, { bytes: cut }), /truncated/);
 * ```
 */
export function gunzipAll(
  path: string,
  limits: InflateLimits,
  opts: GunzipOptions = {},
): Uint8Array {
  return concatBytes([...gunzipChunks(path, limits, opts)]);
}

/**
 * Up to `max` decompressed bytes from the start of gzip data `head` (which may itself be only
 * the start of a file), for format detection: no trailer is checked past `head`, and corrupt
 * or truncated data gives what came out before it (possibly nothing). Never throws.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * const gz = gzipSync(new TextEncoder().encode('{"run": "alpha", "task": "x"}\n'));
 * assert.equal(new TextDecoder().decode(gunzipHead(gz.subarray(0, 30), 7)), '{"run":');
 * assert.equal(gunzipHead(new TextEncoder().encode("plain"), 10).length, 0);
 * ```
 */
export function gunzipHead(head: Uint8Array, max: number): Uint8Array {
  const stream = new GunzipStream({ maxInflated: max + (1 << 20), maxRatio: Infinity });
  const parts: Uint8Array[] = [];
  let size = 0;
  for (let at = 0; at < head.length && size < max; at += CHUNK) {
    try {
      for (const c of stream.push(head.subarray(at, at + CHUNK))) {
        parts.push(c);
        size += c.length;
      }
    } catch {
      break;
    }
  }
  const out = new Uint8Array(Math.min(size, max));
  let at = 0;
  for (const c of parts) {
    if (at >= out.length) break;
    const piece = c.subarray(0, out.length - at);
    out.set(piece, at);
    at += piece.length;
  }
  return out;
}

/** A block of whole lines of a decompressed stream. */
export interface LineBlock {
  /** Offset of `bytes[0]` in the decompressed stream. */
  offset: number;
  /** 1-based number of the first line in `bytes`. */
  line: number;
  /**
   * Whole lines, each ending with `\n` — but the last line of the stream, which may have
   * none. For an overlong line (see `overlong`): only its first {@link OVERLONG_HEAD} bytes.
   */
  bytes: Uint8Array;
  /** Lines in the block (an unterminated last line counts). */
  lines: number;
  /** The block ends the stream with a line that has no final newline. */
  unterminatedLast: boolean;
  /**
   * Set when the block is one line longer than `maxLineBytes`: its full length in bytes
   * (newline excluded). Its bytes were streamed past, never held; `bytes` holds its head.
   */
  overlong?: number;
}

/** Bytes of an overlong line kept (its head, e.g. to find its `"run"`). */
export const OVERLONG_HEAD = 1 << 16;

/**
 * The decompressed content of a gzip file as blocks of whole lines, with their byte offset in
 * the decompressed stream (for `gz-span` pointers) and first line number: a line source scans
 * them without the file ever being held whole. A line longer than `limits.maxLineBytes` comes
 * alone, as an `overlong` block with only its head. Throws as {@link gunzipChunks}; the blocks
 * yielded before an error are what the file held up to there.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * const text = `{"a": 1}\n${"x".repeat(100)}\n{"a": 2}\n`;
 * const gz = gzipSync(new TextEncoder().encode(text));
 * const limits = { ...DEFAULT_LIMITS, maxLineBytes: 50 };
 * const blocks = [...gunzipLines("l.jsonl.gz", limits, { bytes: gz })];
 * assert.deepEqual(blocks.map((b) => [b.line, b.lines, b.overlong ?? null]), [
 *   [1, 1, null],
 *   [2, 1, 100], // 100 bytes: over the 50 allowed, not held
 *   [3, 1, null],
 * ]);
 * ```
 */
export function* gunzipLines(
  path: string,
  limits: Pick<SourceLimits, "maxInflated" | "maxRatio" | "maxLineBytes">,
  opts: GunzipOptions = {},
): Generator<LineBlock> {
  const max = limits.maxLineBytes;
  let offset = 0; // decompressed offset of the first byte not yet yielded
  let line = 1; // its line number
  let pending: Uint8Array[] = []; // the unfinished line (within the limit)
  let pendingBytes = 0;
  let overlong = false; // the unfinished line is over the limit
  let head: Uint8Array = new Uint8Array(0);
  let longBytes = 0;
  for (const c of gunzipChunks(path, limits, opts)) {
    let pos = 0;
    let blockStart = 0; // completed lines of `c` not yet yielded start here…
    let prefix: Uint8Array[] = []; // …after these parts from earlier chunks
    let blockLines = 0;
    const block = (end: number): LineBlock | null => {
      if (blockLines === 0) return null;
      const bytes = concatBytes([...prefix, c.subarray(blockStart, end)]);
      const out = { offset, line, bytes, lines: blockLines, unterminatedLast: false };
      offset += bytes.length;
      line += blockLines;
      prefix = [];
      blockLines = 0;
      blockStart = end;
      return out;
    };
    while (pos < c.length) {
      const nl = c.indexOf(0x0a, pos);
      const end = nl < 0 ? c.length : nl;
      if (overlong) {
        if (head.length < OVERLONG_HEAD) {
          const more = c.subarray(pos, Math.min(end, pos + OVERLONG_HEAD - head.length));
          head = concatBytes([head, more]);
        }
        longBytes += end - pos;
        if (nl < 0) {
          pos = c.length;
          break;
        }
        yield { offset, line, bytes: head, lines: 1, unterminatedLast: false, overlong: longBytes };
        offset += longBytes + 1;
        line++;
        overlong = false;
        longBytes = 0;
        pos = blockStart = nl + 1;
        continue;
      }
      if (pendingBytes + (end - pos) > max) {
        const done = block(pos);
        if (done) yield done;
        // its head so far (the overlong branch adds this chunk's part)
        const start = concatBytes(pending);
        head = start.slice(0, Math.min(start.length, OVERLONG_HEAD));
        overlong = true;
        longBytes = pendingBytes;
        pending = [];
        pendingBytes = 0;
        continue; // the overlong branch counts the rest of the line
      }
      if (nl < 0) {
        const done = block(pos);
        if (done) yield done;
        pending.push(c.subarray(pos));
        pendingBytes += c.length - pos;
        pos = c.length;
        break;
      }
      if (pendingBytes > 0) {
        // the line began in an earlier chunk: it is the first of this block
        prefix = pending;
        pending = [];
        pendingBytes = 0;
      }
      blockLines++;
      pos = nl + 1;
    }
    const done = block(pos);
    if (done) yield done;
  }
  if (overlong) {
    yield { offset, line, bytes: head, lines: 1, unterminatedLast: true, overlong: longBytes };
  } else if (pendingBytes > 0) {
    yield { offset, line, bytes: concatBytes(pending), lines: 1, unterminatedLast: true };
  }
}
