/**
 * ZIP archives (inspect_ai `.eval` logs) read with integrity checks and a decompression budget
 * (issue 15, items 2–3). Polars-free. Hand-written on purpose, for the hostile-input limits:
 * fflate's `unzipSync` takes the whole archive in memory and its streaming `Unzip` follows the
 * local headers alone, while this reader checks them against the central directory and
 * inflates each member under the budget.
 *
 * {@link ZipArchive.open} reads the end record (ZIP64 too) and the central directory with
 * positional reads — the archive is never loaded whole — and checks its structure: entry
 * count and directory size, no duplicate names, no encryption, known compression methods
 * (stored, deflate, zstd = method 93). A member is read by streaming it
 * ({@link ZipArchive.inflate}): its local header must agree with the central directory (name,
 * method, and CRC-32 and sizes unless a data descriptor follows), its data must lie before the
 * central directory, and while it inflates — deflate through fflate's streaming `Inflate`, zstd
 * through fzstd's streaming `Decompress` behind a frame guard that refuses windows over
 * {@link MAX_ZSTD_WINDOW}, stored as is — its output is counted against the declared size and
 * the {@link InflateBudget} (`maxInflated`, `maxRatio`), and its CRC-32 computed; at its end the
 * size and CRC-32 must equal the declared ones. Any failure is a {@link FileError} naming the
 * archive and the member.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * import { ZipArchive } from "@runlens/codecs/zip.ts";
 * const zip = ZipArchive.open("tests/fixtures/logs/formats/inspect/zstd/bbeh_run.eval");
 * assert.deepEqual(zip.entries.map((e) => [e.name, e.method]).slice(0, 2), [
 *   ["header.json", 93], // zstd
 *   ["samples/2_epoch_1.json", 8], // deflate
 * ]);
 * const header = JSON.parse(new TextDecoder().decode(zip.read("header.json", DEFAULT_LIMITS)));
 * assert.equal(header.eval.model, "openai/gpt-4o");
 * zip.verifyAll(DEFAULT_LIMITS); // every member's CRC-32 and size
 * zip.close();
 * ```
 * @module
 */
import { Inflate } from "fflate";
import { Decompress as ZstdDecompress } from "fzstd";
import { type ByteSource, bytesSource, concatBytes, fileSource } from "./byte_source.ts";
import { crc32 } from "./crc32.ts";
import { BudgetError, InflateBudget, type InflateLimits } from "./inflate_budget.ts";
import { FileError } from "./errors.ts";
import { count } from "../core/count.ts";

/** ZIP compression methods read: stored, deflate, zstd (inspect_ai ≥ 0.3.206). */
export const STORED = 0, DEFLATE = 8, ZSTD = 93;

const METHOD_NAMES: Record<number, string> = {
  [STORED]: "stored",
  [DEFLATE]: "deflate",
  [ZSTD]: "zstd",
};

/**
 * The largest zstd window accepted (128 MiB, the default limit of the reference decoder):
 * fzstd allocates the window a frame header declares, so a larger one is refused before it
 * is allocated.
 */
export const MAX_ZSTD_WINDOW = 1 << 27;

/** Stored members are copied in chunks of this size (compressed ones: see `nextInput`). */
const STORED_CHUNK = 1 << 20;

/** One member of an archive, as its central directory describes it. */
export interface ZipEntry {
  /** Position in the central directory (0-based). */
  index: number;
  /** The member's name (UTF-8). */
  name: string;
  /** Compression method (0 stored, 8 deflate, 93 zstd). */
  method: number;
  /** General-purpose flags (bit 3: data descriptor; bit 0: encrypted). */
  flags: number;
  /** The declared CRC-32 of the uncompressed data. */
  crc: number;
  /** Compressed size. */
  compressedSize: number;
  /** Declared uncompressed size. */
  size: number;
  /** Offset of the local header (archive offset, prefix bytes accounted for). */
  localOffset: number;
}

const n = count;
const hex = (x: number) => `0x${(x >>> 0).toString(16).padStart(8, "0")}`;

/**
 * A member refused because it would inflate past the budget (`--max-inflated`,
 * `--max-ratio`) or the largest document parsed whole: not proven corrupt, only not read. A
 * source may quarantine the record that member holds instead of failing the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { FileError } from "@runlens/codecs/errors.ts";
 * const e = new MemberBudgetError("a.eval", "member x: too big", "x", "too big");
 * assert.ok(e instanceof FileError);
 * ```
 */
export class MemberBudgetError extends FileError {
  constructor(file: string, reason: string, readonly member: string, readonly why: string) {
    super(file, reason);
  }
}

/** More output than the member declares (corruption, unlike a budget refusal). */
class SizeError extends Error {}

/** A problem with the archive itself (not one member). */
const broken = (path: string, why: string) => new FileError(path, `corrupt ZIP archive (${why})`);

/**
 * A ZIP archive open for reading. Member reads verify integrity as described in the module
 * documentation; the archive's file stays open until {@link ZipArchive.close}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { zipSync } from "fflate";
 * const bytes = zipSync({ "a.json": new TextEncoder().encode('{"x": 1}') });
 * const zip = ZipArchive.fromBytes("mem.zip", bytes);
 * assert.equal(zip.get("a.json")?.size, 8);
 * assert.throws(() => ZipArchive.fromBytes("bad.zip", bytes.subarray(0, 20)), /mem|bad\.zip/);
 * ```
 */
export class ZipArchive {
  /** The members in central-directory order. */
  readonly entries: ZipEntry[];
  #byName: Map<string, ZipEntry>;
  /** Where the central directory starts (member data must end before it). */
  #cdStart: number;

  private constructor(readonly path: string, private source: ByteSource) {
    const { entries, cdStart } = readDirectory(path, source);
    this.entries = entries;
    this.#cdStart = cdStart;
    this.#byName = new Map(entries.map((e) => [e.name, e]));
  }

  /**
   * Open the archive at `path` and read its central directory. Throws a {@link FileError}
   * naming `path` when it is not a regular file, not a ZIP archive, or its directory is
   * broken.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * assert.throws(() => ZipArchive.open("tests/fixtures/logs/tree/a.jsonl"), /not a ZIP archive/);
   * ```
   */
  static open(path: string): ZipArchive {
    const source = fileSource(path);
    try {
      return new ZipArchive(path, source);
    } catch (e) {
      source.close();
      throw e;
    }
  }

  /**
   * An archive held in memory (e.g. a decompressed `.eval.gz`); `path` names it in errors.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * assert.throws(() => ZipArchive.fromBytes("x.eval", new Uint8Array(0)), /x\.eval: .*empty/);
   * ```
   */
  static fromBytes(path: string, bytes: Uint8Array): ZipArchive {
    return new ZipArchive(path, bytesSource(bytes));
  }

  /** The member named `name`, if any. */
  get(name: string): ZipEntry | undefined {
    return this.#byName.get(name);
  }

  /**
   * Stream the decompressed bytes of a member (an entry or its name), in order. Checks the
   * local header, the budget, the declared size and, at the end, the CRC-32; throws a
   * {@link FileError} naming the archive and the member. Chunks are views the caller may
   * keep.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
   * const zip = ZipArchive.open("tests/fixtures/logs/formats/inspect/deflate/bbeh_run.eval");
   * let bytes = 0;
   * for (const chunk of zip.inflate("summaries.json", DEFAULT_LIMITS)) bytes += chunk.length;
   * assert.equal(bytes, zip.get("summaries.json")!.size);
   * zip.close();
   * ```
   */
  *inflate(
    member: ZipEntry | string,
    limits: InflateLimits,
    cap: { bytes: number; reason: string } | null = null,
  ): Generator<Uint8Array> {
    const entry = typeof member === "string" ? this.get(member) : member;
    if (!entry) throw new FileError(this.path, `no member ${member} in the archive`);
    const fail = (why: string) => new FileError(this.path, `member ${entry.name}: ${why}`);
    const over = (why: string) =>
      new MemberBudgetError(this.path, `member ${entry.name}: ${why}`, entry.name, why);
    const start = this.#dataStart(entry, fail);
    const budget = new InflateBudget(limits, cap);
    budget.startMember();
    if (entry.size > limits.maxInflated) {
      throw over(`declares ${n(entry.size)} bytes, past ${n(limits.maxInflated)} (--max-inflated)`);
    }
    if (entry.size > limits.maxRatio * entry.compressedSize && entry.method !== STORED) {
      throw over(
        `declares ${n(entry.size)} bytes from ${n(entry.compressedSize)} compressed, more than ` +
          `${n(limits.maxRatio)}× (a compression bomb?) (--max-ratio)`,
      );
    }
    if (cap && entry.size > cap.bytes) throw over(cap.reason);
    let crc = 0;
    let size = 0;
    const out: Uint8Array[] = [];
    const take = (data: Uint8Array) => {
      if (data.length === 0) return;
      size += data.length;
      if (size > entry.size) {
        throw new SizeError(`inflates past its declared size of ${n(entry.size)} bytes`);
      }
      budget.output(data.length);
      crc = crc32(data, crc);
      out.push(data);
    };
    const decoder = makeDecoder(entry, take);
    try {
      let at = 0;
      do {
        const step = entry.method === STORED ? STORED_CHUNK : budget.nextInput();
        const len = Math.min(step, entry.compressedSize - at);
        const chunk = len > 0 ? this.source.read(start + at, len) : new Uint8Array(0);
        if (chunk.length < len) throw new Error("archive truncated inside the member's data");
        budget.input(chunk.length);
        at += len;
        decoder.push(chunk, at >= entry.compressedSize);
        while (out.length > 0) yield out.shift()!;
      } while (at < entry.compressedSize);
    } catch (e) {
      if (e instanceof FileError) throw e;
      const kind = METHOD_NAMES[entry.method];
      if (e instanceof BudgetError) throw over(e.message);
      if (e instanceof SizeError || e instanceof ZstdWindowError) throw fail(e.message);
      throw fail(`corrupt ${kind} data (${(e as Error).message})`);
    }
    if (size !== entry.size) {
      throw fail(`inflates to ${n(size)} bytes, not the declared ${n(entry.size)}`);
    }
    if (crc !== entry.crc) {
      throw fail(`CRC-32 mismatch (data ${hex(crc)}, declared ${hex(entry.crc)})`);
    }
  }

  /**
   * The whole decompressed member (for the members parsed as JSON), checked as
   * {@link ZipArchive.inflate} checks it; `cap` bounds its size with a reason.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
   * const zip = ZipArchive.open("tests/fixtures/logs/formats/inspect/zstd/bbeh_run.eval");
   * const cap = { bytes: 100, reason: "over 100 bytes" };
   * assert.throws(() => zip.read("header.json", DEFAULT_LIMITS, cap), /header\.json: over 100/);
   * zip.close();
   * ```
   */
  read(
    member: ZipEntry | string,
    limits: InflateLimits,
    cap: { bytes: number; reason: string } | null = null,
  ): Uint8Array {
    const chunks = [...this.inflate(member, limits, cap)];
    return concatBytes(chunks);
  }

  /** Inflate a member to check its CRC-32 and size, keeping nothing. */
  verify(member: ZipEntry | string, limits: InflateLimits): void {
    for (const _ of this.inflate(member, limits)) { /* checked as it streams */ }
  }

  /** {@link ZipArchive.verify} every member, in archive order. */
  verifyAll(limits: InflateLimits): void {
    for (const e of this.entries) this.verify(e, limits);
  }

  /** Close the archive's file. */
  close(): void {
    this.source.close();
  }

  /** Check the local header of `e` against the central directory; the offset of its data. */
  #dataStart(e: ZipEntry, fail: (why: string) => FileError): number {
    const head = this.source.read(e.localOffset, 30);
    if (head.length < 30 || u32(head, 0) !== 0x04034b50) {
      throw fail(`no local header at byte ${n(e.localOffset)}`);
    }
    const nameLen = u16(head, 26);
    const extraLen = u16(head, 28);
    const name = decodeName(this.source.read(e.localOffset + 30, nameLen));
    if (name !== e.name) throw fail(`the local header names it ${JSON.stringify(name)}`);
    if (u16(head, 8) !== e.method) {
      throw fail(`local header says method ${u16(head, 8)}, central directory ${e.method}`);
    }
    if (!(u16(head, 6) & 8)) {
      const crc = u32(head, 14), csize = u32(head, 18), usize = u32(head, 22);
      const zip64 = csize === 0xffffffff || usize === 0xffffffff;
      if (crc !== e.crc) {
        throw fail(`local header CRC-32 ${hex(crc)} differs from the central ${hex(e.crc)}`);
      }
      if (!zip64 && (csize !== e.compressedSize || usize !== e.size)) {
        throw fail("local header sizes differ from the central directory's");
      }
    }
    const start = e.localOffset + 30 + nameLen + extraLen;
    if (start + e.compressedSize > this.#cdStart) {
      throw fail("data runs past the start of the central directory (truncated archive?)");
    }
    return start;
  }
}

/** A decoder fed compressed chunks (`final` on the last), calling `take` with output. */
interface Decoder {
  push(chunk: Uint8Array, final: boolean): void;
}

function makeDecoder(e: ZipEntry, take: (data: Uint8Array) => void): Decoder {
  if (e.method === STORED) return { push: (chunk) => take(chunk) };
  if (e.method === DEFLATE) {
    const inflate = new Inflate((data) => take(data));
    return { push: (chunk, final) => inflate.push(chunk, final) };
  }
  const guard = new ZstdFrameGuard(MAX_ZSTD_WINDOW, e.size);
  const zstd = new ZstdDecompress((data) => take(data));
  return {
    push(chunk, final) {
      guard.scan(chunk);
      if (final) guard.end();
      zstd.push(chunk, final);
    },
  };
}

type GuardState = "magic" | "header" | "skip-size" | "skippable" | "block" | "payload" | "checksum";

/** A zstd frame declares a window or content size past the limit. */
export class ZstdWindowError extends Error {}

/**
 * Walks the frame and block headers of zstd data as it streams past (without decoding), and
 * refuses a frame whose window or declared content size is over the limits before fzstd
 * allocates it. Also finds data cut inside a frame.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * // frame header: magic, descriptor 0 (no content size), window descriptor 0xF8 (2 GB)
 * const g = new ZstdFrameGuard(1 << 27, 1 << 30);
 * assert.throws(() => g.scan(new Uint8Array([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0xf8])), /window/);
 * ```
 */
export class ZstdFrameGuard {
  /** What is being read: magic, frame header, skippable frame, block header, payload, checksum. */
  #state: GuardState = "magic";
  #need = 4;
  #buf = new Uint8Array(18);
  #have = 0;
  #skip = 0;
  #checksum = false;
  #last = false;

  /**
   * @param maxWindow largest window accepted
   * @param maxContent largest content size a frame may declare (the member's declared size)
   */
  constructor(readonly maxWindow: number, readonly maxContent: number) {}

  /** Look at the next compressed bytes. */
  scan(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      if (this.#skip > 0) {
        const k = Math.min(this.#skip, chunk.length - i);
        this.#skip -= k;
        i += k;
        if (this.#skip === 0) this.#afterSkip();
        continue;
      }
      const k = Math.min(this.#need - this.#have, chunk.length - i);
      this.#buf.set(chunk.subarray(i, i + k), this.#have);
      this.#have += k;
      i += k;
      if (this.#have === this.#need) this.#complete();
    }
  }

  /** The data ended: it must end between frames. */
  end(): void {
    if (this.#state !== "magic" || this.#have !== 0 || this.#skip > 0) {
      throw new Error("zstd data ends inside a frame (truncated)");
    }
  }

  #expect(state: GuardState, need: number): void {
    this.#state = state;
    this.#need = need;
    this.#have = 0;
  }

  #afterSkip(): void {
    if (this.#state === "payload") {
      if (this.#last) {
        if (this.#checksum) this.#expect("checksum", 4);
        else this.#expect("magic", 4);
      } else this.#expect("block", 3);
    } else this.#expect("magic", 4); // a skippable frame
  }

  #complete(): void {
    const b = this.#buf;
    switch (this.#state) {
      case "magic": {
        const magic = u32(b, 0);
        if (magic === 0xfd2fb528) {
          this.#state = "header";
          this.#need = 5; // magic + descriptor; grows once the descriptor is known
          return;
        }
        if ((magic & 0xfffffff0) === 0x184d2a50) {
          this.#state = "skip-size";
          this.#need = 8;
          return;
        }
        throw new Error(`not a zstd frame (magic ${hex(magic)})`);
      }
      case "skip-size": {
        this.#state = "skippable";
        this.#have = 0;
        this.#skip = u32(b, 4);
        if (this.#skip === 0) this.#afterSkip();
        return;
      }
      case "header": {
        const fhd = b[4];
        const single = (fhd >> 5) & 1;
        const dictBytes = [0, 1, 2, 4][fhd & 3];
        const fcsFlag = fhd >> 6;
        const fcsBytes = fcsFlag === 0 ? single : 1 << fcsFlag;
        const size = 5 + (single ? 0 : 1) + dictBytes + fcsBytes;
        if (this.#need < size) {
          this.#need = size;
          return;
        }
        if (fhd & 8) throw new Error("zstd frame header with the reserved bit set");
        let at = 5;
        let window = 0;
        if (!single) {
          const wd = b[at++];
          const log = 10 + (wd >> 3);
          window = 2 ** log + (2 ** log / 8) * (wd & 7);
        }
        at += dictBytes;
        let content = -1;
        if (fcsBytes > 0) {
          content = 0;
          for (let k = fcsBytes - 1; k >= 0; k--) content = content * 256 + b[at + k];
          if (fcsBytes === 2) content += 256;
        }
        if (single) window = content;
        if (content > this.maxContent) {
          throw new ZstdWindowError(
            `zstd frame declares ${n(content)} bytes, more than the member's ${n(this.maxContent)}`,
          );
        }
        if (window > this.maxWindow) {
          throw new ZstdWindowError(
            `zstd window of ${n(window)} bytes, over the ${n(this.maxWindow)} accepted`,
          );
        }
        this.#checksum = ((fhd >> 2) & 1) === 1;
        this.#expect("block", 3);
        return;
      }
      case "block": {
        const h = b[0] | (b[1] << 8) | (b[2] << 16);
        this.#last = (h & 1) === 1;
        const type = (h >> 1) & 3;
        const size = h >>> 3;
        if (type === 3) throw new Error("zstd block of the reserved type");
        this.#state = "payload";
        this.#have = 0;
        this.#skip = type === 1 ? 1 : size;
        if (this.#skip === 0) this.#afterSkip();
        return;
      }
      case "checksum":
        this.#expect("magic", 4);
        return;
      default:
        return;
    }
  }
}

/** The end-of-central-directory record: the archive's last 22+ bytes, and where it starts. */
interface EndRecord {
  /** The archive's tail that holds the record. */
  tail: Uint8Array;
  /** The record's offset in `tail`. */
  eocd: number;
  /** The record's offset in the archive. */
  eocdPos: number;
}

/** Find the end record, scanning back over at most a maximal archive comment. */
function findEndRecord(path: string, src: ByteSource): EndRecord {
  if (src.size === 0) throw new FileError(path, "not a ZIP archive (empty file)");
  const tailLen = Math.min(src.size, 22 + 0xffff);
  const tail = src.read(src.size - tailLen, tailLen);
  const tailStart = src.size - tailLen;
  for (let at = tail.length - 22; at >= 0; at--) {
    if (u32(tail, at) === 0x06054b50 && at + 22 + u16(tail, at + 20) <= tail.length) {
      return { tail, eocd: at, eocdPos: tailStart + at };
    }
  }
  const head = src.read(0, 4);
  const zipLike = head.length >= 2 && head[0] === 0x50 && head[1] === 0x4b;
  throw zipLike
    ? broken(path, "no end-of-central-directory record: truncated?")
    : new FileError(path, "not a ZIP archive (no end-of-central-directory record)");
}

/** Where the central directory is and how many entries it holds. */
interface DirectoryExtent {
  count: number;
  cdStart: number;
  cdSize: number;
  /** Bytes before the archive (a stub): they shift every offset alike. */
  shift: number;
}

/** The central directory's extent from the end record (or its ZIP64 record), checked. */
function directoryExtent(path: string, src: ByteSource, end: EndRecord): DirectoryExtent {
  const { tail, eocd, eocdPos } = end;
  let count = u16(tail, eocd + 10);
  let cdSize = u32(tail, eocd + 12);
  let cdOffset = u32(tail, eocd + 16);
  let cdEnd = eocdPos;
  const disk = (v: number) => v !== 0 && v !== 0xffff; // 0xFFFF: see the ZIP64 record
  if (u16(tail, eocd + 8) !== count || disk(u16(tail, eocd + 4)) || disk(u16(tail, eocd + 6))) {
    throw broken(path, "multi-disk archive or entry counts that disagree");
  }
  if (count === 0xffff || cdSize === 0xffffffff || cdOffset === 0xffffffff) {
    // ZIP64: the locator sits right before the end record
    const loc = src.read(eocdPos - 20, 20);
    if (loc.length === 20 && u32(loc, 0) === 0x07064b50) {
      const recAt = u64(loc, 8);
      const rec = src.read(recAt, 56);
      if (rec.length < 56 || u32(rec, 0) !== 0x06064b50) {
        throw broken(path, "ZIP64 end record missing");
      }
      count = u64(rec, 32);
      cdSize = u64(rec, 40);
      cdOffset = u64(rec, 48);
      cdEnd = recAt;
    }
  }
  const cdStart = cdEnd - cdSize;
  if (cdStart < 0) throw broken(path, "central directory larger than the archive");
  const shift = cdStart - cdOffset;
  if (shift < 0) throw broken(path, "central directory offset past its position (truncated?)");
  return { count, cdStart, cdSize, shift };
}

/** A central directory entry as recorded (sizes and offset after its ZIP64 extra field). */
interface CentralEntry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  /** Local header offset, before the stub shift. */
  local: number;
  /** Length of the whole entry in the directory. */
  length: number;
}

/** ZIP64 extra field: the 64-bit values of the fields that hold 0xFFFFFFFF, in order. */
function applyZip64Extra(e: CentralEntry, extra: Uint8Array): void {
  for (let x = 0; x + 4 <= extra.length;) {
    const id = u16(extra, x), len = u16(extra, x + 2);
    if (id === 0x0001) {
      let p = x + 4;
      if (e.size === 0xffffffff && p + 8 <= x + 4 + len) e.size = u64(extra, p), p += 8;
      if (e.compressedSize === 0xffffffff && p + 8 <= x + 4 + len) {
        e.compressedSize = u64(extra, p), p += 8;
      }
      if (e.local === 0xffffffff && p + 8 <= x + 4 + len) e.local = u64(extra, p), p += 8;
    }
    x += 4 + len;
  }
}

/** Parse entry `i` (of `count`) at `at` in the directory `cd`; check it lies within. */
function readCentralEntry(
  path: string,
  cd: Uint8Array,
  at: number,
  i: number,
  count: number,
): CentralEntry {
  if (at + 46 > cd.length || u32(cd, at) !== 0x02014b50) {
    throw broken(path, `central directory entry ${i + 1} of ${count} is missing or misaligned`);
  }
  const nameLen = u16(cd, at + 28), extraLen = u16(cd, at + 30), commentLen = u16(cd, at + 32);
  if (at + 46 + nameLen + extraLen + commentLen > cd.length) {
    throw broken(path, `central directory entry ${i + 1} runs past the directory`);
  }
  const e: CentralEntry = {
    name: decodeName(cd.subarray(at + 46, at + 46 + nameLen)),
    flags: u16(cd, at + 8),
    method: u16(cd, at + 10),
    crc: u32(cd, at + 16),
    compressedSize: u32(cd, at + 20),
    size: u32(cd, at + 24),
    local: u32(cd, at + 42),
    length: 46 + nameLen + extraLen + commentLen,
  };
  applyZip64Extra(e, cd.subarray(at + 46 + nameLen, at + 46 + nameLen + extraLen));
  return e;
}

/** Check one member (unique name, not encrypted, a method read here, sizes) and place it. */
function checkedEntry(
  path: string,
  e: CentralEntry,
  index: number,
  names: Set<string>,
  ext: DirectoryExtent,
): ZipEntry {
  const { name, method, flags, crc, compressedSize, size } = e;
  const what = `member ${name}`;
  if (names.has(name)) throw new FileError(path, `${what}: duplicate member name`);
  names.add(name);
  if (flags & 1) throw new FileError(path, `${what}: encrypted (not read)`);
  if (!(method in METHOD_NAMES)) {
    throw new FileError(path, `${what}: unsupported ZIP compression method ${method}`);
  }
  if (method === STORED && compressedSize !== size) {
    throw new FileError(path, `${what}: stored, but its sizes differ`);
  }
  const localOffset = e.local + ext.shift;
  if (localOffset + 30 > ext.cdStart) {
    throw new FileError(path, `${what}: local header past the central directory (truncated?)`);
  }
  return { index, name, method, flags, crc, compressedSize, size, localOffset };
}

/** Read the end record and the central directory; check their structure. */
function readDirectory(path: string, src: ByteSource): { entries: ZipEntry[]; cdStart: number } {
  const ext = directoryExtent(path, src, findEndRecord(path, src));
  const cd = src.read(ext.cdStart, ext.cdSize);
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let at = 0;
  for (let i = 0; i < ext.count; i++) {
    const e = readCentralEntry(path, cd, at, i, ext.count);
    at += e.length;
    entries.push(checkedEntry(path, e, i, names, ext));
  }
  if (at !== cd.length) throw broken(path, "central directory size disagrees with its entries");
  return { entries, cdStart: ext.cdStart };
}

const utf8 = new TextDecoder("utf-8");

function decodeName(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}

function u16(b: Uint8Array, at: number): number {
  return b[at] | (b[at + 1] << 8);
}

function u32(b: Uint8Array, at: number): number {
  return (b[at] | (b[at + 1] << 8) | (b[at + 2] << 16) | (b[at + 3] << 24)) >>> 0;
}

function u64(b: Uint8Array, at: number): number {
  return u32(b, at) + u32(b, at + 4) * 2 ** 32;
}
