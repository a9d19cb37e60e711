/**
 * The columnar cache of loads: the first load of a set of files writes its compact rows
 * (`compact_frame.ts`) as Parquet, and a later load of the same, unchanged files with the same
 * settings reads them back instead of parsing and scoring again. Main thread only (polars).
 *
 * One entry per load (the files and the settings), not per file: merging has effects across
 * files (duplicates, lm-eval filters, pending ties), so when any file changes the whole load
 * is read again. The key ({@link loadKey}) hashes the cache version, each file's fingerprint
 * (size, mtime, SHA-256 of its first and last 16 KiB; {@link fileFingerprint}) and the
 * settings (scorer per benchmark, data-set version, format options, limits…).
 *
 * Layout of the cache directory ({@link cacheDir}: `--cache DIR`, else `$RUNLENS_CACHE`, else
 * `.runlens/cache` under the working directory):
 *
 * ```text
 * <dir>/<key>/manifest.json                          what the entry holds (written last)
 * <dir>/<key>/schema.parquet                         0 rows: every column and its type, in order
 * <dir>/<key>/quarantine.jsonl                       one JSON object per quarantined record
 * <dir>/<key>/benchmark=<b>/run=<run>/part-0.parquet the rows of one run of one benchmark
 * <dir>/.tmp/<random>/                               an entry being written
 * ```
 *
 * The parts form a hive-partitioned Parquet data set: the columns of the compact frame minus
 * the partition columns `benchmark` and `run` (which the folder names hold), plus `row`
 * (Int64), the row's position in the load (sort by it to get the load's order). Folder names
 * escape the characters Hive and Spark escape (`/ = % : # ? * " ' \ ^ [ ] {`, control
 * characters) as `%XX`; other characters, non-ASCII included, are kept. polars, DuckDB (≥ 1.1),
 * Spark and Trino decode them, e.g. in DuckDB:
 *
 * ```sql
 * SELECT run, task, avg(correct::INT) FROM read_parquet(
 *   '.runlens/cache/*\/benchmark=*\/run=*\/*.parquet', hive_partitioning = true,
 *   hive_types = {'benchmark': VARCHAR, 'run': VARCHAR}) GROUP BY ALL;
 * ```
 *
 * (see `docs/cache.md` for polars, Spark and Trino). The quarantine is JSON lines rather than
 * Parquet: it comes back as JavaScript objects, which `JSON.parse` builds faster than polars'
 * row conversion, its `benchmark` may be null throughout (no column type to guess), and people
 * read it with `grep` as well as `read_json`.
 *
 * Safety: an entry is written under `<dir>/.tmp/` and renamed into place, so it appears whole or
 * not at all; an entry without `manifest.json` is not an entry. When two processes write the
 * same key, the first rename wins and the other discards its copy (both report success).
 * {@link readCache} never throws for a broken entry: a wrong version or key in the manifest, a
 * part file of another size or row count, a damaged Parquet file, a schema that is not the
 * recorded one or row positions that are not 0…n-1 make it a miss with the reason. Not
 * detected: a bit flip inside a Parquet page that still decodes (no content hash is kept, so
 * that a read costs no hashing).
 *
 * Cost: reading takes about 0.2 s per million rows plus 0.35 ms per run (each run is one file
 * and polars pays that per file), writing about three times as much (2 CPUs;
 * `lib/bench/cache_speed.ts`). When a run's rows are not contiguous in the load, the read sorts
 * by `row` (about 0.15 s more per million rows).
 *
 * Eviction: after writing an entry, entries for the same list of files whose fingerprints
 * differ are deleted (their files changed, so they can never be read again), as are leftovers
 * of crashed writers older than an hour. Entries of the same files with other settings (another
 * scorer) are kept. `runlens cache clear` deletes everything the cache holds.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EMPTY_ROW, RowBuilder } from "@runlens/pipeline/compact.ts";
 * import { compactFrame } from "@runlens/pipeline/compact_frame.ts";
 * const tmp = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${tmp}/r.jsonl`, '{"task": "nycc"}\n');
 * const b = new RowBuilder();
 * b.add({ ...EMPTY_ROW, run: "r", model: "m", benchmark: "bbeh", task: "nycc", scorer: "s" });
 * const frame = compactFrame(b.finish(), [`${tmp}/r.jsonl`]);
 * const fingerprints = [fileFingerprint(`${tmp}/r.jsonl`)];
 * const settings = { scorer: { bbeh: "bbeh-official" } };
 * const key = loadKey(fingerprints, settings);
 * const dir = `${tmp}/cache`;
 * assert.equal(readCache(dir, key).load, null); // first load: a miss
 * writeCache(dir, key, { frame, quarantine: [], meta: { files: 1 }, fingerprints, settings });
 * const hit = readCache(dir, key).load!; // a later load of the unchanged file
 * assert.ok(hit.frame.frameEqual(frame));
 * assert.deepEqual(hit.meta, { files: 1 });
 * Deno.removeSync(tmp, { recursive: true });
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { randomBytes } from "node:crypto";
import { dirname, join, resolve } from "node:path";
import {
  CACHE_VERSION,
  describeChange,
  type FileFingerprint,
  jsonCopy,
  sha256,
} from "./cache_key.ts";
import { columnType, firstValue } from "../core/frames.ts";
import { textLiteral } from "./compact_frame.ts";
import type { LoadQuarantine } from "./merge.ts";

export { CACHE_VERSION, type FileFingerprint, fileFingerprint, loadKey } from "./cache_key.ts";

/** Environment variable naming the cache directory. */
export const CACHE_ENV = "RUNLENS_CACHE";
/** The cache directory when neither `--cache` nor {@link CACHE_ENV} names one. */
export const DEFAULT_CACHE_DIR = join(".runlens", "cache");

const MANIFEST = "manifest.json";
const SCHEMA = "schema.parquet";
const QUARANTINE = "quarantine.jsonl";
const PART = "part-0.parquet";
const TMP = ".tmp";
const TRASH = ".trash";
/** Entry folders are named by their key (so `cache clear` removes nothing else). */
const KEY = /^[0-9a-f]{64}$/;
/** Bytes of one path component on common file systems (ext4, APFS, NTFS). */
const NAME_MAX = 255;
/** A leftover of a writer is removed once it is this old (no live writer takes that long). */
const LEFTOVER_MS = 60 * 60 * 1000;

/**
 * The cache directory: `option` (`--cache DIR`) if given, else `$RUNLENS_CACHE`, else
 * `.runlens/cache` under the working directory; made absolute.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(cacheDir("some/dir"), `${Deno.cwd()}/some/dir`);
 * if (!Deno.env.get("RUNLENS_CACHE")) assert.equal(cacheDir(), `${Deno.cwd()}/.runlens/cache`);
 * ```
 */
export function cacheDir(option?: string | null): string {
  return resolve(option || Deno.env.get(CACHE_ENV) || DEFAULT_CACHE_DIR);
}

/** One run of one benchmark: a Parquet file of the entry. */
export interface CachePartition {
  benchmark: string;
  run: string;
  /** The part file, relative to the entry (`benchmark=…/run=…/part-0.parquet`). */
  path: string;
  rows: number;
  bytes: number;
}

/** `manifest.json` of an entry. */
export interface CacheManifest {
  cache_version: number;
  key: string;
  /** When it was written (ISO); only to list entries and find the latest, never in outputs. */
  created: string;
  files: FileFingerprint[];
  settings: Record<string, unknown>;
  /** The caller's metadata of the load, as given. */
  meta: unknown;
  /** Rows of the frame. */
  rows: number;
  /** Entries of the quarantine. */
  quarantined: number;
  /** Size of `quarantine.jsonl`. */
  quarantine_bytes: number;
  /** In order of first appearance in the frame. */
  partitions: CachePartition[];
  /**
   * Text columns (not `benchmark`, `run`) that hold one value in every row, or none (null):
   * read as that value instead of from the parts, which hold them too (for other engines).
   */
  constants: Record<string, string | null>;
  /**
   * SHA-256 of the manifest's other fields as JSON: runlens takes run names and constant
   * columns from the manifest rather than the parts, so an edited or damaged manifest must be
   * refused, not read as it says.
   */
  digest: string;
}

/** What {@link writeCache} stores. */
export interface LoadToCache {
  /** The compact rows; needs Utf8 `benchmark` and `run` columns without nulls. */
  frame: pl.DataFrame;
  quarantine: readonly LoadQuarantine[];
  /** Plain JSON (files read, errors, models per run…), given back by {@link readCache}. */
  meta: unknown;
  fingerprints: readonly FileFingerprint[];
  settings: Record<string, unknown>;
}

/** A load read from the cache. */
export interface CachedLoad {
  /** The frame as written: same columns, types and row order. */
  frame: pl.DataFrame;
  quarantine: LoadQuarantine[];
  meta: unknown;
  manifest: CacheManifest;
}

/** A hit, or a miss with its reason (`missing`: there is no entry; else a broken one). */
export type CacheRead =
  | { load: CachedLoad; reason: null; missing: false }
  | { load: null; reason: string; missing: boolean };

/** The entry now in place (`won`: ours; else a concurrent writer's), or why none was written. */
export type CacheWrite =
  | { path: string; won: boolean; reason: null }
  | { path: null; won: false; reason: string };

/**
 * A partition value as a folder name: `%XX` for the characters Hive and Spark escape (control
 * characters, `" # % ' * / : = ? \ ^ [ ] {` and DEL), other characters as they are. Readers
 * decode it back, except that they take `__HIVE_DEFAULT_PARTITION__` for null, escaped or not
 * (polars compares after decoding); runlens itself reads runs from the manifest, exactly.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(hiveEscape("gpt-4o/run=2 100%"), "gpt-4o%2Frun%3D2 100%25");
 * assert.equal(hiveEscape("modèle"), "modèle");
 * assert.equal(decodeURIComponent(hiveEscape("a/b%=c")), "a/b%=c");
 * ```
 */
export function hiveEscape(value: string): string {
  return value.replace(
    // deno-lint-ignore no-control-regex -- control characters are what Hive escapes first
    /[\x00-\x1f"#%'*/:=?\\\x7f{[\]^]/g,
    (c) => "%" + c.charCodeAt(0).toString(16).toUpperCase().padStart(2, "0"),
  );
}

/** The part file of a partition, relative to its entry; throws when a name is too long. */
function partitionPath(benchmark: string, run: string): string {
  const b = `benchmark=${hiveEscape(benchmark)}`;
  const r = `run=${hiveEscape(run)}`;
  for (const name of [b, r]) {
    const bytes = new TextEncoder().encode(name).length;
    if (bytes > NAME_MAX) throw new Error(`a folder name of ${bytes} bytes is too long: ${name}`);
  }
  return `${b}/${r}/${PART}`;
}

/**
 * Write `load` as the entry `key` of the cache `dir` (created when missing). IO failures (a
 * full disk, no permission, a run name too long for a folder, two runs whose folders collide
 * on a case-insensitive file system) leave no entry and return the reason; a `frame` without
 * Utf8 `benchmark`/`run`, a bad key or non-JSON `meta`/`settings` throw (those are bugs).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const dir = Deno.makeTempDirSync();
 * const frame = pl.DataFrame({ benchmark: ["bbeh"], run: ["a/b"], correct: [true] });
 * const key = loadKey([], {});
 * const rest = { quarantine: [], meta: null, fingerprints: [], settings: {} };
 * const out = writeCache(dir, key, { frame, ...rest });
 * assert.equal(out.path, `${dir}/${key}`);
 * assert.ok(Deno.statSync(`${dir}/${key}/benchmark=bbeh/run=a%2Fb/part-0.parquet`).isFile);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function writeCache(dir: string, key: string, load: LoadToCache): CacheWrite {
  checkWritable(key, load.frame);
  const base = {
    cache_version: CACHE_VERSION,
    key,
    created: new Date().toISOString(),
    files: jsonCopy(load.fingerprints, "fingerprints") as FileFingerprint[],
    settings: jsonCopy(load.settings, "settings") as Record<string, unknown>,
    meta: jsonCopy(load.meta, "meta"),
  };
  const tmp = join(dir, TMP, randomName());
  try {
    Deno.mkdirSync(tmp, { recursive: true });
    const partitions = writePartitions(tmp, load.frame);
    load.frame.head(0).writeParquet(join(tmp, SCHEMA));
    const quarantine_bytes = writeQuarantine(join(tmp, QUARANTINE), load.quarantine);
    const content = {
      ...base,
      rows: load.frame.height,
      quarantined: load.quarantine.length,
      quarantine_bytes,
      partitions,
      constants: constantTexts(load.frame),
    };
    const manifest: CacheManifest = { ...content, digest: sha256(JSON.stringify(content)) };
    Deno.writeTextFileSync(join(tmp, MANIFEST), JSON.stringify(manifest, null, 1) + "\n");
  } catch (e) {
    removeQuietly(tmp);
    return { path: null, won: false, reason: `cache not written: ${messageOf(e)}` };
  }
  return publish(dir, key, tmp, load.fingerprints);
}

function checkWritable(key: string, frame: pl.DataFrame): void {
  if (!KEY.test(key)) throw new Error(`not a cache key (64 hex digits): ${key}`);
  if (frame.columns.includes("row")) throw new Error("the frame has a column `row`");
  for (const name of ["benchmark", "run"]) {
    if (!frame.columns.includes(name)) throw new Error(`the frame has no column \`${name}\``);
    const type = columnType(frame, name);
    if (!type.equals(pl.String)) throw new Error(`\`${name}\` is ${type}, not Utf8`);
    const nulls = frame.select(pl.col(name).nullCount()).row(0)[0];
    if (Number(nulls) > 0) throw new Error(`\`${name}\` has nulls`);
  }
}

/**
 * Keep `json` (a JSON text) beside the rows of entry `key`, under `name` (letters, digits, `-`):
 * what a load derives from the rows and the same files, which a later load of the entry may
 * reuse instead of deriving it again. Written whole (renamed into place); false when there is
 * no such entry or it cannot be written (the caller derives it again next time).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { loadKey } from "./cache_key.ts";
 * const dir = Deno.makeTempDirSync();
 * const key = loadKey([], {});
 * const frame = pl.DataFrame({ benchmark: ["bbh"], run: ["r"], correct: [true] });
 * writeCache(dir, key, { frame, quarantine: [], meta: null, fingerprints: [], settings: {} });
 * assert.equal(readCacheSide(dir, key, "advice-1"), null);
 * assert.equal(writeCacheSide(dir, key, "advice-1", '{"disagree": []}'), true);
 * assert.deepEqual(readCacheSide(dir, key, "advice-1"), { disagree: [] });
 * assert.equal(writeCacheSide(dir, "0".repeat(64), "advice-1", "{}"), false); // no entry
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function writeCacheSide(dir: string, key: string, name: string, json: string): boolean {
  const root = join(dir, key);
  if (!KEY.test(key) || !SIDE.test(name) || !exists(join(root, MANIFEST))) return false;
  // written in the scratch folder, whose leftovers of crashed writers are cleared
  const tmp = join(dir, TMP, `${name}.${randomName()}`);
  try {
    Deno.mkdirSync(join(dir, TMP), { recursive: true });
    Deno.writeTextFileSync(tmp, json);
    Deno.renameSync(tmp, join(root, `${name}.json`));
    return true;
  } catch {
    removeQuietly(tmp);
    return false;
  }
}

/** What {@link writeCacheSide} kept under `name` beside entry `key` (null: nothing readable). */
export function readCacheSide(dir: string, key: string, name: string): unknown {
  if (!KEY.test(key) || !SIDE.test(name)) return null;
  try {
    return JSON.parse(Deno.readTextFileSync(join(dir, key, `${name}.json`)));
  } catch {
    return null;
  }
}

/** A side file's name. */
const SIDE = /^[A-Za-z0-9-]{1,80}$/;

function randomName(): string {
  return randomBytes(8).toString("hex");
}

/** One Parquet file per (benchmark, run), in order of first appearance. */
function writePartitions(root: string, frame: pl.DataFrame): CachePartition[] {
  // `row` as Int64 (not polars' UInt32 index): every engine has a signed 64-bit type (bigint).
  const indexed = frame.withRowIndex("row").withColumns(pl.col("row").cast(pl.Int64));
  return partitionsOf(indexed).filter((p) => p.rows.height > 0).map(({ benchmark, run, rows }) => {
    const path = partitionPath(benchmark, run);
    const file = join(root, path);
    Deno.mkdirSync(dirname(file), { recursive: true });
    // A fresh folder holds no part yet unless two runs map to one folder (case or Unicode
    // normalisation of the file system): refuse rather than overwrite one run with another.
    if (exists(file)) throw new Error(`run ${JSON.stringify(run)} shares its folder with another`);
    rows.drop("benchmark", "run").writeParquet(file, { compression: "zstd" });
    return { benchmark, run, path, rows: rows.height, bytes: Deno.statSync(file).size };
  });
}

/**
 * The text columns (but the partition columns) that hold one value in every row, or none:
 * a load's scorer, pointer kind and null lm-eval or inspect columns, 8 of the 12 text columns of
 * a canonical log. Reading them back as literals keeps each out of memory (16 bytes a row when
 * read from Parquet).
 */
function constantTexts(frame: pl.DataFrame): Record<string, string | null> {
  const text = frame.columns.filter((c) =>
    c !== "benchmark" && c !== "run" && columnType(frame, c).equals(pl.String)
  );
  if (frame.height === 0 || text.length === 0) return {};
  const distinct = frame.select(...text.map((c) => pl.col(c).nUnique())).row(0);
  const constant = text.filter((_, i) => Number(distinct[i]) === 1);
  const first = constant.length === 0 ? [] : frame.select(...constant).row(0);
  return Object.fromEntries(constant.map((c, i) => [c, first[i] as string | null]));
}

/** Blocks of rows above this many are not looked at one by one: such a frame is partitioned. */
const MAX_BLOCKS = 100_000;

/**
 * The (benchmark, run) partitions of `frame` in order of first appearance. When each is one
 * block of consecutive rows — the usual load: a run per file, or runs written one after
 * another — they are slices, which copy nothing; else polars' `partitionBy` copies the frame
 * (at a million rows 0.4 s and 220 MB, the peak memory of a first load).
 */
function partitionsOf(frame: pl.DataFrame): Partition[] {
  const blocks = blockStarts(frame);
  if (blocks === null) {
    return frame.partitionBy(["benchmark", "run"], true, true).map((rows) => ({
      benchmark: firstValue(rows, "benchmark") as string,
      run: firstValue(rows, "run") as string,
      rows,
    }));
  }
  return blocks.map(({ at, benchmark, run }, i) => ({
    benchmark,
    run,
    rows: frame.slice(at, (blocks[i + 1]?.at ?? frame.height) - at),
  }));
}

/** The rows of one (benchmark, run). */
interface Partition {
  benchmark: string;
  run: string;
  rows: pl.DataFrame;
}

/**
 * Where each block of rows of one (benchmark, run) starts, with its keys; null when a
 * partition has several blocks.
 */
function blockStarts(frame: pl.DataFrame): { at: number; benchmark: string; run: string }[] | null {
  const changes = ["benchmark", "run"].map((c) => pl.col(c).neq(pl.col(c).shift(1)));
  const firsts = frame.select("benchmark", "run").withRowIndex("__at")
    .filter(changes[0].or(changes[1]).fillNull(true));
  if (firsts.height > MAX_BLOCKS) return null;
  const blocks = (firsts.rows() as [number, string, string][])
    .map(([at, benchmark, run]) => ({ at: Number(at), benchmark, run }));
  const keys = new Set(blocks.map(({ benchmark, run }) => JSON.stringify([benchmark, run])));
  return keys.size < blocks.length ? null : blocks;
}

function writeQuarantine(file: string, quarantine: readonly LoadQuarantine[]): number {
  const text = quarantine.map((q) =>
    JSON.stringify({
      file: q.file,
      line: q.line,
      reason: q.reason,
      run: q.run,
      benchmark: q.benchmark,
    }) + "\n"
  ).join("");
  Deno.writeTextFileSync(file, text);
  return Deno.statSync(file).size;
}

/** Rename the written entry into place; a concurrent writer of the same key may have won. */
function publish(
  dir: string,
  key: string,
  tmp: string,
  files: readonly FileFingerprint[],
): CacheWrite {
  const target = join(dir, key);
  let error: unknown = null;
  for (let attempt = 0; attempt < 2 && !validManifest(target, key); attempt++) {
    try {
      Deno.renameSync(tmp, target);
      evict(dir, key, files);
      return { path: target, won: true, reason: null };
    } catch (e) {
      error = e;
      // A folder without a valid manifest is no entry (damaged or half deleted): replace it.
      if (exists(target) && !validManifest(target, key)) discard(dir, target);
    }
  }
  removeQuietly(tmp);
  if (validManifest(target, key)) return { path: target, won: false, reason: null };
  return { path: null, won: false, reason: `cache not written: ${messageOf(error)}` };
}

/**
 * Delete entries of the same file list whose fingerprints differ from `files` (stale: their
 * files changed) and leftovers of writers older than {@link LEFTOVER_MS}. Best effort.
 */
function evict(dir: string, key: string, files: readonly FileFingerprint[]): void {
  const paths = files.map((f) => f.path).join("\0");
  const current = JSON.stringify(files.map(fingerprintTuple));
  for (const entry of entries(dir)) {
    const m = entry.manifest;
    if (entry.key === key || m === null || m.files.map((f) => f.path).join("\0") !== paths) {
      continue;
    }
    if (JSON.stringify(m.files.map(fingerprintTuple)) !== current) discard(dir, entry.path);
  }
  for (const old of scratch(dir)) {
    if (Date.now() - mtimeOf(old) > LEFTOVER_MS) removeQuietly(old);
  }
}

function mtimeOf(path: string): number {
  try {
    return Deno.statSync(path).mtime?.getTime() ?? Date.now();
  } catch {
    return Date.now();
  }
}

const fingerprintTuple = (f: FileFingerprint) => [f.size, f.mtimeMs, f.head, f.tail];

/**
 * Read the entry `key` of the cache `dir`: the frame with the columns, types and row order
 * it was written with, the quarantine and the metadata. Never throws: a missing or broken
 * entry is a miss with its reason (see the module documentation for what is checked), and is
 * deleted so that the load's write can replace it. The caller computes `key` from fresh
 * fingerprints, so a hit means the files are unchanged. An entry whose frame lacks one of the
 * `required` columns (written by code that did not make them) is such a broken entry too.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const miss = readCache(Deno.makeTempDirSync(), loadKey([], {}));
 * assert.equal(miss.load, null);
 * assert.equal(miss.reason, "no entry");
 * ```
 */
export function readCache(
  dir: string,
  key: string,
  required: readonly string[] = [],
): CacheRead {
  const root = join(dir, key);
  if (!KEY.test(key) || !exists(join(root, MANIFEST))) {
    return { load: null, reason: "no entry", missing: true };
  }
  try {
    const manifest = readManifest(root, key);
    const frame = readFrame(root, manifest);
    const missing = required.filter((c) => !frame.columns.includes(c));
    if (missing.length > 0) throw new Error(`the rows lack column(s) ${missing.join(", ")}`);
    const quarantine = readQuarantine(join(root, QUARANTINE), manifest);
    return {
      load: { frame, quarantine, meta: manifest.meta, manifest },
      reason: null,
      missing: false,
    };
  } catch (e) {
    // Entries appear whole (renamed into place), so a broken one is damaged for good, or being
    // evicted right now: delete it, or every later write would find the key taken.
    discard(dir, root);
    const reason = `cache entry ${key.slice(0, 12)}… ignored: ${messageOf(e)}`;
    return { load: null, reason, missing: false };
  }
}

/** The manifest of the entry at `root`, checked against `key`; throws what is wrong. */
function readManifest(root: string, key: string): CacheManifest {
  const m = JSON.parse(Deno.readTextFileSync(join(root, MANIFEST)));
  if (m?.cache_version !== CACHE_VERSION) throw new Error(`cache version ${m?.cache_version}`);
  if (m.key !== key) throw new Error(`the manifest names the key ${m.key}`);
  const count = (x: unknown) => Number.isSafeInteger(x) && (x as number) >= 0;
  if (![m.rows, m.quarantined, m.quarantine_bytes].every(count)) {
    throw new Error("the manifest's counts are not counts");
  }
  const parts = Array.isArray(m.partitions) ? m.partitions : null;
  const good = (p: CachePartition) =>
    typeof p?.benchmark === "string" && typeof p.run === "string" && count(p.rows) &&
    count(p.bytes) && p.path === partitionPath(p.benchmark, p.run);
  if (parts === null || !parts.every(good)) throw new Error("the manifest's partitions are bad");
  const rows = parts.reduce((s: number, p: CachePartition) => s + p.rows, 0);
  if (rows !== m.rows) throw new Error(`partitions hold ${rows} rows, the manifest says ${m.rows}`);
  const constants = m.constants;
  if (
    constants === null || typeof constants !== "object" || Array.isArray(constants) ||
    !Object.values(constants).every((v) => v === null || typeof v === "string")
  ) throw new Error("the manifest's constant columns are bad");
  const { digest, ...content } = m;
  if (digest !== sha256(JSON.stringify(content))) {
    throw new Error("the manifest does not match its digest (edited or damaged)");
  }
  return m as CacheManifest;
}

function validManifest(root: string, key: string): boolean {
  try {
    readManifest(root, key);
    return true;
  } catch {
    return false;
  }
}

/** The frame of the entry: parts in manifest order, partition columns, original row order. */
function readFrame(root: string, m: CacheManifest): pl.DataFrame {
  const schema = pl.readParquet(join(root, SCHEMA));
  if (m.partitions.length === 0) {
    if (schema.height !== 0 || m.rows !== 0) throw new Error("schema.parquet is not empty");
    return schema;
  }
  const constants = Object.entries(m.constants);
  const read = schema.columns.filter((c) =>
    c !== "benchmark" && c !== "run" && !Object.hasOwn(m.constants, c)
  );
  if (read.length + constants.length + 2 !== schema.width) {
    throw new Error("the manifest's constant columns are not columns of schema.parquet");
  }
  // Lazy: an eager concat of 200 parts costs ~50 ms, the lazy one ~7 ms (1M rows, 2 CPUs).
  const parts = m.partitions.map((p) => readPart(root, p, [...read, "row"]).lazy());
  const frame = pl.concat(parts, { how: "vertical", rechunk: false }).collectSync()
    .withColumns(pl.Series("__part", partitionIds(m.partitions), pl.Int32));
  // The partition strings are added after ordering: sorting Int32 ids is cheaper than strings.
  const ordered = inLoadOrder(frame);
  const named = ordered.withColumns(
    ...partitionColumns(m.partitions, ordered.getColumn("__part")),
    ...constants.map(([name, value]) => textLiteral(name, value)),
  );
  return checkTypes(named.select(...schema.columns), schema);
}

/** The `columns` of a part (each must be there), checked against the manifest's counts. */
function readPart(root: string, p: CachePartition, columns: string[]): pl.DataFrame {
  const file = join(root, p.path);
  const bytes = Deno.statSync(file).size;
  if (bytes !== p.bytes) throw new Error(`${p.path}: ${bytes} bytes, the manifest says ${p.bytes}`);
  const df = pl.readParquet(file, { columns });
  if (df.height !== p.rows) {
    throw new Error(`${p.path}: ${df.height} rows, the manifest says ${p.rows}`);
  }
  return df;
}

/** The partition of each row of the parts concatenated in manifest order. */
function partitionIds(partitions: readonly CachePartition[]): Int32Array {
  const ids = new Int32Array(partitions.reduce((s, p) => s + p.rows, 0));
  let at = 0;
  partitions.forEach((p, i) => {
    ids.fill(i, at, at + p.rows);
    at += p.rows;
  });
  return ids;
}

/**
 * `benchmark` and `run` of rows whose partitions are `ids`, taken from the manifest (exact
 * strings: no folder name decoding) by gathering from a table of the partitions (native; no JS
 * strings per row).
 */
function partitionColumns(
  partitions: readonly CachePartition[],
  ids: pl.Series,
): (pl.Series | pl.Expr)[] {
  const gathered = (name: string, values: string[]) =>
    pl.DataFrame([pl.Series(name, values, pl.Utf8)]).select(pl.col(name).gather(ids))
      .getColumn(name);
  const run = gathered("run", partitions.map((p) => p.run));
  const benchmarks = partitions.map((p) => p.benchmark);
  // one benchmark (the usual load): a literal, as the manifest's constants are
  if (new Set(benchmarks).size === 1) return [run, textLiteral("benchmark", benchmarks[0])];
  return [run, gathered("benchmark", benchmarks)];
}

/**
 * The rows sorted by `row`, which is dropped. When each run's rows were contiguous in the load
 * (one run per file, the usual case), the parts already come in load order and no sort is
 * needed; either way `row` must end up exactly 0…n-1.
 */
function inLoadOrder(frame: pl.DataFrame): pl.DataFrame {
  const ordered = isIdentity(frame) ? frame : frame.sort("row");
  if (ordered !== frame && !isIdentity(ordered)) throw new Error("row positions are not 0…n-1");
  return ordered.drop("row");
}

function isIdentity(frame: pl.DataFrame): boolean {
  const [first, last, step] = frame.select(
    pl.col("row").first().alias("first"),
    pl.col("row").last().alias("last"),
    pl.col("row").diff(1, "ignore").min().alias("step"),
  ).row(0).map((v) => (v === null ? null : Number(v)));
  const n = frame.height;
  return first === 0 && last === n - 1 && (n === 1 || (step !== null && step >= 1));
}

function checkTypes(frame: pl.DataFrame, schema: pl.DataFrame): pl.DataFrame {
  for (const name of schema.columns) {
    const want = schema.getColumn(name).dtype;
    const got = columnType(frame, name);
    if (!got.equals(want)) throw new Error(`column ${name} is ${got}, schema.parquet says ${want}`);
  }
  return frame;
}

function readQuarantine(file: string, m: CacheManifest): LoadQuarantine[] {
  const bytes = Deno.readFileSync(file);
  if (bytes.length !== m.quarantine_bytes) {
    throw new Error(
      `${QUARANTINE}: ${bytes.length} bytes, the manifest says ${m.quarantine_bytes}`,
    );
  }
  const lines = new TextDecoder("utf-8", { fatal: true }).decode(bytes).split("\n");
  lines.pop(); // after the last newline
  if (lines.length !== m.quarantined) {
    throw new Error(`${QUARANTINE}: ${lines.length} entries, the manifest says ${m.quarantined}`);
  }
  return lines.map((line, i) => {
    const q = JSON.parse(line);
    const ok = typeof q?.file === "string" && Number.isSafeInteger(q.line) &&
      typeof q.reason === "string" && typeof q.run === "string" &&
      (q.benchmark === null || typeof q.benchmark === "string");
    if (!ok) throw new Error(`${QUARANTINE}:${i + 1}: not a quarantine entry`);
    return q as LoadQuarantine;
  });
}

/**
 * Why no entry matches: the change since the latest entry sharing the most files with
 * `fingerprints` ("a.jsonl changed: size 100 → 120", "b.jsonl is new", "settings changed:
 * scorer"), or null when there is no such entry (a first load). For progress messages.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const dir = Deno.makeTempDirSync();
 * const old = [{ path: "a.jsonl", size: 100, mtimeMs: 0, head: "h", tail: "t" }];
 * const frame = pl.DataFrame({ benchmark: ["bbeh"], run: ["a"] });
 * const rest = { quarantine: [], meta: null, settings: {} };
 * writeCache(dir, loadKey(old, {}), { frame, fingerprints: old, ...rest });
 * const now = [{ ...old[0], size: 120 }];
 * assert.equal(staleReason(dir, now, {}), "a.jsonl changed: size 100 → 120");
 * assert.equal(staleReason(dir, [{ ...old[0], path: "b.jsonl" }], {}), null);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function staleReason(
  dir: string,
  fingerprints: readonly FileFingerprint[],
  settings: Record<string, unknown>,
): string | null {
  const paths = new Set(fingerprints.map((f) => f.path));
  let best: { m: EntryManifest; overlap: number } | null = null;
  for (const { manifest: m } of entries(dir)) {
    if (m === null) continue;
    const overlap = m.files.filter((f) => paths.has(f.path)).length;
    const better = best === null || overlap > best.overlap ||
      (overlap === best.overlap && m.created > best.m.created);
    if (overlap > 0 && better) best = { m, overlap };
  }
  return best && describeChange(best.m, { files: fingerprints, settings });
}

/** What any entry's manifest (of any cache version) is trusted to hold for listing. */
type EntryManifest = Pick<
  CacheManifest,
  "cache_version" | "created" | "files" | "settings" | "rows" | "quarantined"
>;

interface Entry {
  key: string;
  path: string;
  /** null: no readable manifest (not an entry, a leftover). */
  manifest: EntryManifest | null;
}

/** The key-named folders of `dir`, with their manifests parsed loosely. */
function entries(dir: string): Entry[] {
  return children(dir).filter((name) => KEY.test(name)).map((key) => ({
    key,
    path: join(dir, key),
    manifest: looseManifest(join(dir, key)),
  }));
}

function looseManifest(root: string): EntryManifest | null {
  try {
    const m = JSON.parse(Deno.readTextFileSync(join(root, MANIFEST)));
    const files = Array.isArray(m?.files) &&
      m.files.every((f: FileFingerprint) => typeof f?.path === "string");
    const ok = files && typeof m.settings === "object" && m.settings !== null &&
      typeof m.created === "string";
    return ok ? m : null;
  } catch {
    return null;
  }
}

/** One entry, as {@link cacheInfo} lists it. */
export interface CacheEntryInfo {
  key: string;
  created: string;
  cache_version: number;
  files: string[];
  rows: number;
  quarantined: number;
  bytes: number;
  settings: Record<string, unknown>;
}

/** What a cache directory holds. */
export interface CacheInfo {
  dir: string;
  /** Newest first. */
  entries: CacheEntryInfo[];
  /** Folders that are no entry: being written, being deleted, or left by a crash. */
  leftovers: number;
  /** Bytes of the entries and the leftovers. */
  bytes: number;
}

/**
 * The entries of the cache `dir` (none when it does not exist) and their sizes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const dir = Deno.makeTempDirSync();
 * const frame = pl.DataFrame({ benchmark: ["bbeh"], run: ["a"] });
 * const files = [{ path: "a.jsonl", size: 1, mtimeMs: 0, head: "h", tail: "t" }];
 * const rest = { quarantine: [], meta: null, settings: {} };
 * writeCache(dir, loadKey(files, {}), { frame, fingerprints: files, ...rest });
 * const info = cacheInfo(dir);
 * assert.deepEqual(info.entries.map((e) => [e.files, e.rows]), [[["a.jsonl"], 1]]);
 * assert.ok(info.bytes > 0);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function cacheInfo(dir: string): CacheInfo {
  const all = entries(dir);
  const listed = all.filter((e) => e.manifest !== null).map((e): CacheEntryInfo => {
    const m = e.manifest!;
    return {
      key: e.key,
      created: m.created,
      cache_version: m.cache_version,
      files: m.files.map((f) => f.path),
      rows: m.rows,
      quarantined: m.quarantined,
      bytes: treeBytes(e.path),
      settings: m.settings,
    };
  }).sort((a, b) => (a.created < b.created ? 1 : a.created > b.created ? -1 : 0));
  const leftovers = [...all.filter((e) => e.manifest === null).map((e) => e.path), ...scratch(dir)];
  const bytes = listed.reduce((s, e) => s + e.bytes, 0) +
    leftovers.reduce((s, p) => s + treeBytes(p), 0);
  return { dir, entries: listed, leftovers: leftovers.length, bytes };
}

/**
 * Delete every entry and leftover of the cache `dir`; returns how many entries (folders with a
 * manifest) went and the bytes freed. Only key-named folders and `.tmp`/`.trash` are touched,
 * so a mistaken `--cache ~` deletes nothing else.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/notes.txt`, "mine");
 * const frame = pl.DataFrame({ benchmark: ["bbeh"], run: ["a"] });
 * const rest = { quarantine: [], meta: null, fingerprints: [], settings: {} };
 * writeCache(dir, loadKey([], {}), { frame, ...rest });
 * assert.equal(clearCache(dir).entries, 1);
 * assert.deepEqual([...Deno.readDirSync(dir)].map((e) => e.name), ["notes.txt"]);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function clearCache(dir: string): { entries: number; bytes: number } {
  let count = 0, bytes = 0;
  for (const e of entries(dir)) {
    if (e.manifest !== null) count++;
    bytes += treeBytes(e.path);
    discard(dir, e.path);
  }
  for (const path of [join(dir, TMP), join(dir, TRASH)].filter(exists)) {
    bytes += treeBytes(path);
    removeQuietly(path);
  }
  return { entries: count, bytes };
}

/** Folders under `.tmp` and `.trash`. */
function scratch(dir: string): string[] {
  return [TMP, TRASH].flatMap((name) => children(join(dir, name)).map((c) => join(dir, name, c)));
}

/** Move `path` aside (atomically: readers see the whole entry or none) and delete it. */
function discard(dir: string, path: string): void {
  const trash = join(dir, TRASH, randomName());
  try {
    Deno.mkdirSync(join(dir, TRASH), { recursive: true });
    Deno.renameSync(path, trash);
  } catch {
    return; // gone already (another process), or cannot be moved: leave it
  }
  removeQuietly(trash);
}

function removeQuietly(path: string): void {
  try {
    Deno.removeSync(path, { recursive: true });
  } catch {
    // already gone, or not ours to remove
  }
}

/** Names of the folders in `dir` (none when it is missing), sorted. */
function children(dir: string): string[] {
  try {
    return [...Deno.readDirSync(dir)].filter((e) => e.isDirectory).map((e) => e.name).sort();
  } catch {
    return [];
  }
}

/** Bytes of the files under `path` (symbolic links not followed). */
function treeBytes(path: string): number {
  try {
    const st = Deno.lstatSync(path);
    if (!st.isDirectory) return st.size;
    let sum = 0;
    for (const e of Deno.readDirSync(path)) sum += treeBytes(join(path, e.name));
    return sum;
  } catch {
    return 0;
  }
}

function exists(path: string): boolean {
  try {
    Deno.lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message.split("\n")[0] : String(e);
}
