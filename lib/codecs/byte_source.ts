/**
 * Random access to the bytes of a log: a regular file read with positional reads (never a
 * whole-file buffer), or bytes already in memory (e.g. a decompressed `.eval.gz`). Containers
 * (`zip.ts`, `gzip_stream.ts`) read through it. Opening refuses anything but a regular file
 * — a FIFO would block the open, a device (`/dev/zero`) never ends — after following
 * symbolic links. Polars-free.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bytesSource, fileSource } from "@runlens/codecs/byte_source.ts";
 * const mem = bytesSource(new TextEncoder().encode("hello"));
 * assert.equal(new TextDecoder().decode(mem.read(1, 3)), "ell");
 * const file = fileSource("tests/fixtures/logs/tree/a.jsonl");
 * assert.equal(new TextDecoder().decode(file.read(0, 7)), '{"run":');
 * file.close();
 * ```
 * @module
 */
import { FileError } from "./errors.ts";

/** Bytes that can be read at any offset. */
export interface ByteSource {
  /** Total size in bytes. */
  readonly size: number;
  /**
   * The bytes `[offset, offset + length)` (shorter only past the end). Throws when the file
   * cannot be read (a FileError naming it).
   */
  read(offset: number, length: number): Uint8Array;
  /** Release the file (no-op for bytes in memory). */
  close(): void;
}

/**
 * A {@link ByteSource} over bytes in memory (`read` returns views, no copies).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const s = bytesSource(new Uint8Array([1, 2, 3]));
 * assert.deepEqual([...s.read(2, 10)], [3]); // clipped at the end
 * ```
 */
export function bytesSource(bytes: Uint8Array): ByteSource {
  return {
    size: bytes.length,
    read: (offset, length) =>
      bytes.subarray(Math.min(offset, bytes.length), Math.min(offset + length, bytes.length)),
    close: () => {},
  };
}

/**
 * Why `path` must not be opened for reading, or null for a regular file: it is missing, a
 * directory, a FIFO, a device or a socket (after following links).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(notRegularFile("tests/fixtures/logs/tree/a.jsonl"), null);
 * assert.equal(notRegularFile("tests/fixtures/logs/tree"), "a directory, not a file");
 * assert.equal(notRegularFile("/dev/zero"), "a character device, not a regular file (not read)");
 * ```
 */
export function notRegularFile(path: string): string | null {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return "no such file or directory";
    return `cannot read (${(e as Error).message})`;
  }
  if (info.isFile) return null;
  if (info.isDirectory) return "a directory, not a file";
  return `${specialKind(info)}, not a regular file (not read)`;
}

/**
 * The kind of a special file: "a FIFO", "a character device", "a block device", "a socket".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(specialKind(Deno.statSync("/dev/null")), "a character device");
 * ```
 */
export function specialKind(info: Deno.FileInfo): string {
  if (info.isFifo) return "a FIFO";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  if (info.isSocket) return "a socket";
  if (info.isSymlink) return "a symbolic link";
  return "a special file";
}

/**
 * A {@link ByteSource} over a regular file: positional reads, no buffering of the whole file.
 * Throws a {@link FileError} naming `path` when it is not a regular file or cannot be opened
 * (a FIFO is never opened, so this never blocks).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.throws(() => fileSource("/dev/zero"), /character device, not a regular file/);
 * ```
 */
export function fileSource(path: string): ByteSource {
  const why = notRegularFile(path);
  if (why !== null) throw new FileError(path, why);
  let file: Deno.FsFile;
  try {
    file = Deno.openSync(path, { read: true });
  } catch (e) {
    throw new FileError(path, `cannot read (${(e as Error).message})`);
  }
  let size: number;
  try {
    const info = file.statSync();
    if (!info.isFile) throw new Error("not a regular file");
    size = info.size;
  } catch (e) {
    file.close();
    throw new FileError(path, `cannot read (${(e as Error).message})`);
  }
  let closed = false;
  return {
    size,
    read(offset, length) {
      const want = Math.max(0, Math.min(length, size - offset));
      const out = new Uint8Array(want);
      try {
        file.seekSync(offset, Deno.SeekMode.Start);
        let at = 0;
        while (at < want) {
          const n = file.readSync(out.subarray(at));
          if (n === null || n === 0) break;
          at += n;
        }
        return at === want ? out : out.subarray(0, at);
      } catch (e) {
        throw new FileError(path, `cannot read (${(e as Error).message})`);
      }
    },
    close() {
      if (!closed) {
        closed = true;
        file.close();
      }
    },
  };
}

/**
 * The concatenation of `chunks` (the chunk itself when there is one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual([...concatBytes([new Uint8Array([1]), new Uint8Array([2, 3])])], [1, 2, 3]);
 * ```
 */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((s, c) => s + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
