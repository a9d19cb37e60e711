/**
 * Keys of the columnar cache (`cache.ts`): what identifies a load, so that a later load of the
 * same, unchanged files with the same settings finds its entry. Polars-free (the fingerprints
 * can be taken anywhere, e.g. while discovering files).
 *
 * A file is fingerprinted by its size, its modification time (milliseconds) and the SHA-256 of
 * its first and last {@link FINGERPRINT_BYTES} bytes: an append, a truncation, a rewrite of the
 * head or the tail, or a `touch` each give another key. Not detected: a rewrite of the middle of
 * a file longer than 32 KiB that keeps its size and its mtime to the millisecond (nothing short
 * of hashing every byte would be; `--no-cache` re-reads).
 *
 * Take the fingerprints BEFORE reading the files: a file that changes while it is read then
 * gets a key that no longer matches it, so the next load re-reads it instead of trusting rows
 * read from a half-written file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/a.jsonl`, '{"task": "nycc"}\n');
 * const key = () => loadKey([fileFingerprint(`${dir}/a.jsonl`)], { scorer: "bbeh-official" });
 * const before = key();
 * assert.equal(key(), before); // unchanged
 * Deno.writeTextFileSync(`${dir}/a.jsonl`, '{"task": "nycc"}\n', { append: true });
 * assert.notEqual(key(), before); // appended to
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import fs from "node:fs";

/**
 * Version of the cache layout and of what an entry means. Part of every key and manifest: bump
 * it whenever the written columns, their meaning or the layout change, and old entries become
 * misses instead of wrong answers.
 */
// 2: rows carry `answer_found` (issue 22)
// 3: rows carry `example_id`, `subset` and `extra` (record fields, rows tied by id; issue 23)
export const CACHE_VERSION = 3;

/** Bytes hashed at each end of a file. */
// 16 KiB: a re-analysis of 390 files spent 60 ms reading and hashing 64 KiB ends; what a
// smaller window misses (a same-size, same-mtime rewrite of the middle) no window catches
export const FINGERPRINT_BYTES = 16 * 1024;

/** What identifies one file's content without reading all of it. */
export interface FileFingerprint {
  /** The path as the caller gave it (it is also the `source_file` of the rows). */
  path: string;
  size: number;
  /** Modification time, milliseconds since the epoch. */
  mtimeMs: number;
  /** SHA-256 (hex) of the first {@link FINGERPRINT_BYTES} bytes (the whole file if shorter). */
  head: string;
  /** SHA-256 (hex) of the last {@link FINGERPRINT_BYTES} bytes (the whole file if shorter). */
  tail: string;
}

/**
 * The fingerprint of the regular file at `path`. Throws when `path` is not a regular file: a
 * FIFO, a device or a directory is never opened (opening a FIFO would block), and its rows
 * cannot be cached. The file is stat'ed, then opened non-blocking and checked again on the
 * open descriptor, so a path swapped for a FIFO in between is refused too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/a.jsonl`, "{}\n");
 * const f = fileFingerprint(`${dir}/a.jsonl`);
 * assert.equal(f.size, 3);
 * assert.equal(f.head, f.tail); // a short file: both ends are the whole file
 * assert.throws(() => fileFingerprint(dir), /not a regular file/);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function fileFingerprint(path: string): FileFingerprint {
  if (!fs.statSync(path).isFile()) throw new Error(`${path}: not a regular file`);
  const fd = fs.openSync(path, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new Error(`${path}: not a regular file`);
    const size = st.size;
    const n = Math.min(size, FINGERPRINT_BYTES);
    return {
      path,
      size,
      mtimeMs: Math.trunc(st.mtimeMs),
      head: sha256(readAt(fd, 0, n)),
      tail: sha256(readAt(fd, size - n, n)),
    };
  } finally {
    fs.closeSync(fd);
  }
}

/** `length` bytes at `position` (fewer if the file shrank meanwhile). */
function readAt(fd: number, position: number, length: number): Uint8Array {
  const buf = new Uint8Array(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, got, length - got, position + got);
    if (n === 0) break;
    got += n;
  }
  return buf.subarray(0, got);
}

/**
 * The SHA-256 of `data`, in hex.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(sha256("abc").slice(0, 16), "ba7816bf8f01cfea");
 * ```
 */
export function sha256(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * The cache key of a load: SHA-256 (hex) of the canonical JSON (object keys sorted) of
 * {@link CACHE_VERSION}, the fingerprints in order (the order of the files decides the order of
 * the rows) and `settings` — everything besides the files that changes the rows: the scorer per
 * benchmark, the data-set version, format and field-map options, limits, run grouping…
 * Throws a TypeError when `settings` holds something JSON cannot say exactly (a Map, a Set, a
 * Date, undefined in a list, NaN, a bigint): silently dropping it would let two different
 * settings share a key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const f = { path: "a.jsonl", size: 3, mtimeMs: 0, head: "h", tail: "t" };
 * assert.equal(loadKey([f], { a: 1, b: [2] }), loadKey([f], { b: [2], a: 1 })); // key order
 * assert.notEqual(loadKey([f], { scorer: "x" }), loadKey([f], { scorer: "y" }));
 * assert.match(loadKey([f], {}), /^[0-9a-f]{64}$/);
 * assert.throws(() => loadKey([f], { runs: new Map() }), TypeError);
 * ```
 */
export function loadKey(
  fingerprints: readonly FileFingerprint[],
  settings: Record<string, unknown>,
): string {
  const files = fingerprints.map(({ path, size, mtimeMs, head, tail }) => ({
    path,
    size,
    mtimeMs,
    head,
    tail,
  }));
  return sha256(canonicalJson({ version: CACHE_VERSION, files, settings }));
}

/**
 * `value` as JSON with object keys sorted at every level (the same value always gives the same
 * text). Throws a TypeError for values JSON would change or drop (see {@link jsonCopy}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(canonicalJson({ b: 1, a: { d: null, c: "x" } }), '{"a":{"c":"x","d":null},"b":1}');
 * ```
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(jsonCopy(value, "value", true));
}

/**
 * A copy of `value` made of plain JSON values only (objects with sorted keys when `sort`).
 * Throws a TypeError naming where `value` holds a Map, a Set, a class instance (a Date…), a
 * function, a symbol, a bigint, NaN or ±Infinity, or undefined inside a list; `undefined`
 * object properties are left out, as JSON.stringify leaves them out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(jsonCopy({ a: [1, "x", null], b: undefined }, "meta"), { a: [1, "x", null] });
 * assert.throws(() => jsonCopy({ models: new Map() }, "meta"), /meta\.models/);
 * ```
 */
export function jsonCopy(value: unknown, where: string, sort = false): unknown {
  if (value === null || typeof value === "string" || typeof value === "boolean") return value;
  if (typeof value === "number") {
    if (Number.isFinite(value)) return value;
    throw new TypeError(`${where} is ${value}, which JSON cannot hold`);
  }
  if (Array.isArray(value)) {
    return value.map((v, i) => {
      if (v === undefined) throw new TypeError(`${where}[${i}] is undefined`);
      return jsonCopy(v, `${where}[${i}]`, sort);
    });
  }
  const proto = typeof value === "object" ? Object.getPrototypeOf(value) : undefined;
  if (proto !== Object.prototype && proto !== null) {
    const kind = typeof value === "object" ? value!.constructor?.name ?? "object" : typeof value;
    throw new TypeError(`${where} is not a plain JSON value (${kind})`);
  }
  const entries = Object.entries(value as Record<string, unknown>)
    .filter(([, v]) => v !== undefined);
  if (sort) entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(entries.map(([k, v]) => [k, jsonCopy(v, `${where}.${k}`, sort)]));
}

/** What a stale entry recorded: its files and settings (a manifest has both). */
export interface KeyedLoad {
  files: readonly FileFingerprint[];
  settings: Record<string, unknown>;
  /** Its cache version (older entries are stale for that reason alone). */
  cache_version?: number;
}

/**
 * Why a load recorded as `before` no longer matches the files and settings of `now`, in a few
 * words for a progress message ("a.jsonl changed: size 100 → 120"); null when nothing differs.
 * At most three changes are named, then a count.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const a = { path: "a.jsonl", size: 100, mtimeMs: 0, head: "h", tail: "t" };
 * const before = { files: [a], settings: { scorer: "x" } };
 * assert.equal(
 *   describeChange(before, { files: [{ ...a, size: 120 }], settings: { scorer: "x" } }),
 *   "a.jsonl changed: size 100 → 120",
 * );
 * assert.equal(
 *   describeChange(before, { files: [{ ...a, tail: "u" }], settings: { scorer: "x" } }),
 *   "a.jsonl changed: content (tail)",
 * );
 * assert.equal(
 *   describeChange(before, { files: [a], settings: { scorer: "y" } }),
 *   "settings changed: scorer",
 * );
 * assert.equal(describeChange(before, before), null);
 * ```
 */
export function describeChange(before: KeyedLoad, now: KeyedLoad): string | null {
  const changes = [...fileChanges(before.files, now.files), ...settingChanges(before, now)];
  if (changes.length === 0) return null;
  const more = changes.length > 3 ? ` (+${changes.length - 3} more)` : "";
  return changes.slice(0, 3).join("; ") + more;
}

function fileChanges(before: readonly FileFingerprint[], now: readonly FileFingerprint[]) {
  const old = new Map(before.map((f) => [f.path, f]));
  const paths = new Set(now.map((f) => f.path));
  const changes: string[] = [];
  for (const f of now) {
    const b = old.get(f.path);
    const change = b ? fileChange(b, f) : "is new";
    if (change) changes.push(b ? `${f.path} changed: ${change}` : `${f.path} ${change}`);
  }
  for (const f of before) if (!paths.has(f.path)) changes.push(`${f.path} is gone`);
  const order = (fs: readonly FileFingerprint[]) => fs.map((f) => f.path).join("\0");
  if (changes.length === 0 && order(before) !== order(now)) changes.push("the file order changed");
  return changes;
}

/** How one file changed: size first, then content, then only the mtime (a touch). */
function fileChange(a: FileFingerprint, b: FileFingerprint): string | null {
  if (a.size !== b.size) return `size ${a.size} → ${b.size}`;
  if (a.head !== b.head) return "content (head)";
  if (a.tail !== b.tail) return "content (tail)";
  if (a.mtimeMs !== b.mtimeMs) {
    const iso = (ms: number) => new Date(ms).toISOString();
    return `mtime ${iso(a.mtimeMs)} → ${iso(b.mtimeMs)}`;
  }
  return null;
}

function settingChanges(before: KeyedLoad, now: KeyedLoad): string[] {
  const out: string[] = [];
  const version = before.cache_version ?? CACHE_VERSION;
  if (version !== CACHE_VERSION) out.push(`cache version ${version} → ${CACHE_VERSION}`);
  const keys = [...new Set([...Object.keys(before.settings), ...Object.keys(now.settings)])];
  const same = (k: string) =>
    canonicalJson(before.settings[k] ?? null) === canonicalJson(now.settings[k] ?? null);
  const changed = keys.filter((k) => !same(k)).sort();
  if (changed.length > 0) out.push(`settings changed: ${changed.join(", ")}`);
  return out;
}
