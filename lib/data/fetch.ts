/**
 * Download the pinned public data sets from their GitHub archives and verify them file by file.
 *
 * A manifest ({@link Manifest}: each registered benchmark's `manifest.json`, merged) lists every
 * file of the benchmarks' data folders with its size, SHA-256, path in its repository and source
 * (repository @ commit); a benchmark says where its data comes from in its `data`
 * ({@link DataSource}). For each source the
 * fetch downloads the zip archive of that commit to a temporary file, extracts only the listed
 * files (the archive's top folder `<repo>-<commit>/` is stripped), checks every one against the
 * manifest and only then writes them, each atomically (temp file + rename). A source whose files
 * already verify on disk is skipped, so a second run downloads nothing.
 *
 * GitHub archives are generated on demand and not byte-stable, so the archive itself is never
 * hashed: only the extracted files are. `logs/` (sample evaluation logs) is not fetched.
 *
 * @example Not run by `deno test --doc`: it downloads the BBH archive from GitHub
 * ```ts ignore
 * import { fetchData } from "@runlens/data/fetch.ts";
 * import { pinnedManifest } from "@runlens/benchmarks/data.ts";
 * const report = await fetchData({ dataDir: ".runlens/data", manifest: pinnedManifest(), only: ["bbh"] });
 * console.log(report.verified); // 165
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, rm, stat } from "node:fs/promises";
import { dirname, isAbsolute, join, normalize } from "node:path";
import { unzipSync } from "fflate";
import { DATA_ENV } from "../core/data_dir.ts";

/** The archive host that `--base-url` / `$RUNLENS_FETCH_BASE_URL` replaces. */
export const ARCHIVE_HOST = "https://codeload.github.com";

/** Environment variable overriding {@link ARCHIVE_HOST} (for tests and mirrors). */
export const BASE_URL_ENV = "RUNLENS_FETCH_BASE_URL";

/**
 * A repository at a commit whose files a data folder holds. Without `rename`, it claims every
 * file of the folder at the same relative path; with it, exactly the files it renames (local
 * name inside the folder → path in the repository).
 */
export interface PinnedSource {
  /** `owner/name` on GitHub. */
  repo: string;
  /** Full 40-hex commit. */
  commit: string;
  /** Local name inside the folder → path in the repository (see above). */
  rename?: Readonly<Record<string, string>>;
}

/** Where a benchmark's released data comes from: what `fetch-data` downloads and verifies. */
export interface DataSource {
  /** The folder under the data directory, e.g. `bbh`. */
  folder: string;
  /** Its sources, in fetch order (at most one without `rename`). */
  sources: readonly PinnedSource[];
  /** URL of the folder's committed {@link Manifest} (`manifest.json` beside the benchmark). */
  manifest: string;
  /**
   * How the files of the data set proper end (the report's provenance hashes them; licences,
   * read-mes and model outputs are left out). Default `.json`.
   */
  dataFiles?: string;
}

/** One pinned source: a repository at a commit, and where its zip archive lives. */
export interface ManifestSource {
  /** Local folder (under the data directory) its files go to, e.g. `bbeh`. */
  folder: string;
  /** `owner/name` on GitHub. */
  repo: string;
  /** Full 40-hex commit. */
  commit: string;
  /** `https://codeload.github.com/<owner>/<repo>/zip/<commit>` (the URL fetched). */
  archive: string;
  /** The same archive via `https://github.com/<owner>/<repo>/archive/<commit>.zip`. */
  archiveAlt: string;
}

/** One file of the data directory. */
export interface ManifestFile {
  /** Path under the data directory, `/`-separated, e.g. `bbh/bbh/snarks.json`. */
  path: string;
  /** Path inside the repository (below the archive's top folder). */
  repoPath: string;
  /** Key into {@link Manifest.sources}: `owner/repo@commit`. */
  source: string;
  /** Size in bytes. */
  size: number;
  /** Lower-case hex SHA-256 of the contents. */
  sha256: string;
}

/** A manifest: one benchmark's `manifest.json`, or several merged ({@link mergeManifests}). */
export interface Manifest {
  description: string;
  sources: Record<string, ManifestSource>;
  files: ManifestFile[];
}

/** A file that is missing or differs from the manifest, with the reason. */
export interface Mismatch {
  path: string;
  reason: string;
}

/** What {@link fetchData} did per source, and how many files verified at the end. */
export interface FetchReport {
  dataDir: string;
  sources: { source: string; status: "skipped" | "fetched"; files: number; bytes: number }[];
  verified: number;
}

/** Options of {@link fetchData}. */
export interface FetchOptions {
  /** Where the folders go (created if needed). */
  dataDir: string;
  /** Folders to fetch (default: all folders of the manifest). */
  only?: string[];
  /** Replaces {@link ARCHIVE_HOST} in archive URLs (default: `$RUNLENS_FETCH_BASE_URL`). */
  baseUrl?: string;
  /** What to fetch (e.g. the registered benchmarks' manifests: `benchmarks/data.ts`). */
  manifest?: Manifest;
  /** Or a manifest file to read (a usage error when neither is given). */
  manifestPath?: string;
  /** Status lines (default `console.log`). */
  log?: (line: string) => void;
  /** Show download progress (default: only when stderr is a terminal). */
  progress?: boolean;
  /** Abort a download after this long without data (default 60 s). */
  idleTimeoutMs?: number;
}

/** A failure with a message meant for the user as is (no stack trace needed). */
export class FetchDataError extends Error {
  /** Process exit code to use (2 = usage error, 1 = fetch or verification failure). */
  exitCode: number;
  constructor(message: string, exitCode = 1) {
    super(message);
    this.name = "FetchDataError";
    this.exitCode = exitCode;
  }
}

/**
 * Read and sanity-check a manifest file (or `file:` URL): see {@link parseManifest}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const path = Deno.makeTempFileSync({ suffix: ".json" });
 * Deno.writeTextFileSync(path, JSON.stringify({ description: "", sources: {}, files: [] }));
 * assert.deepEqual((await loadManifest(path)).files, []);
 * Deno.removeSync(path);
 * ```
 */
export async function loadManifest(path: string | URL): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    throw new FetchDataError(`cannot read manifest ${path}: ${errorText(e)}`);
  }
  return parseManifest(text, String(path));
}

/**
 * A manifest from its JSON text, sanity-checked: paths relative and inside the data directory,
 * hashes well-formed, every file's source listed. Throws {@link FetchDataError} naming `path`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const file = { path: "../x", repoPath: "x", source: "a/b@c", size: 1, sha256: "0".repeat(64) };
 * const text = JSON.stringify({ description: "", sources: {}, files: [file] });
 * assert.throws(() => parseManifest(text, "m.json"), /m\.json: bad entry/);
 * ```
 */
export function parseManifest(text: string, path: string): Manifest {
  let manifest: Manifest;
  try {
    manifest = JSON.parse(text);
  } catch (e) {
    throw new FetchDataError(`cannot read manifest ${path}: ${errorText(e)}`);
  }
  if (!manifest || typeof manifest.sources !== "object" || !Array.isArray(manifest.files)) {
    throw new FetchDataError(`manifest ${path} has no "sources" object or "files" list`);
  }
  for (const f of manifest.files) {
    const safe = (p: unknown) =>
      typeof p === "string" && p !== "" && !isAbsolute(p) && !normalize(p).startsWith("..");
    if (!safe(f.path) || !safe(f.repoPath) || !/^[0-9a-f]{64}$/.test(f.sha256)) {
      throw new FetchDataError(`manifest ${path}: bad entry ${JSON.stringify(f)}`);
    }
    if (!manifest.sources[f.source]) {
      throw new FetchDataError(`manifest ${path}: ${f.path} names unknown source ${f.source}`);
    }
  }
  return manifest;
}

/**
 * Several manifests as one: their sources in the given order, their files sorted by path (in
 * byte order), under `description`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const file = (path: string) => ({ path, repoPath: path, source: "s", size: 0, sha256: "" });
 * const a = { description: "", sources: {}, files: [file("b/1")] };
 * const b = { description: "", sources: {}, files: [file("a/2")] };
 * assert.deepEqual(mergeManifests([a, b], "both").files.map((f) => f.path), ["a/2", "b/1"]);
 * ```
 */
export function mergeManifests(manifests: readonly Manifest[], description: string): Manifest {
  const files = manifests.flatMap((m) => m.files);
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { description, sources: Object.assign({}, ...manifests.map((m) => m.sources)), files };
}

/**
 * Hex SHA-256 of some bytes.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const hex = sha256Hex(new TextEncoder().encode("")); // "e3b0c442…b855"
 * assert.equal(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
 * ```
 */
export function sha256Hex(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Why `data` does not match `file` (size or hash), or null when it does. */
function compare(file: ManifestFile, data: Uint8Array): string | null {
  if (data.length !== file.size) return `size ${data.length} B, expected ${file.size} B`;
  const got = sha256Hex(data);
  if (got !== file.sha256) {
    return `SHA-256 ${got.slice(0, 12)}…, expected ${file.sha256.slice(0, 12)}…`;
  }
  return null;
}

/**
 * Check files on disk under `dataDir` against their manifest entries; returns the mismatches.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/a.txt`, "");
 * const file = { path: "a.txt", repoPath: "a.txt", source: "s", size: 0,
 *   sha256: sha256Hex(new Uint8Array()) };
 * assert.deepEqual(await verifyFiles(dir, [file]), []);
 * const missing = { ...file, path: "b.txt" };
 * assert.deepEqual(await verifyFiles(dir, [missing]), [{ path: "b.txt", reason: "missing" }]);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export async function verifyFiles(dataDir: string, files: ManifestFile[]): Promise<Mismatch[]> {
  const bad: Mismatch[] = [];
  for (const f of files) {
    const full = join(dataDir, f.path);
    let size: number;
    try {
      size = (await stat(full)).size;
    } catch {
      bad.push({ path: f.path, reason: "missing" });
      continue;
    }
    // Cheap size check first; hash only when the size is right.
    const reason = size !== f.size
      ? `size ${size} B, expected ${f.size} B`
      : compare(f, new Uint8Array(await readFile(full)));
    if (reason) bad.push({ path: f.path, reason });
  }
  return bad;
}

/**
 * The archive URL of a source, with {@link ARCHIVE_HOST} replaced by `baseUrl` when given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const source = { folder: "bbh", repo: "suzgunmirac/BIG-Bench-Hard", commit: "9ee07bd",
 *   archive: "https://codeload.github.com/suzgunmirac/BIG-Bench-Hard/zip/9ee07bd",
 *   archiveAlt: "https://github.com/suzgunmirac/BIG-Bench-Hard/archive/9ee07bd.zip" };
 * const url = archiveUrl(source, "http://127.0.0.1:8000");
 * assert.equal(url, `http://127.0.0.1:8000/${source.repo}/zip/${source.commit}`);
 * assert.equal(archiveUrl(source), source.archive); // https://codeload.github.com/…
 * ```
 */
export function archiveUrl(source: ManifestSource, baseUrl?: string): string {
  if (!baseUrl) return source.archive;
  const base = baseUrl.replace(/\/+$/, "");
  return source.archive.startsWith(ARCHIVE_HOST)
    ? base + source.archive.slice(ARCHIVE_HOST.length)
    : source.archive;
}

/**
 * Download, extract and verify the selected folders into `opts.dataDir`; idempotent.
 * Throws {@link FetchDataError} with a one-paragraph message on any failure.
 *
 * @example Not run by `deno test --doc`: it downloads from a local mirror of the archives
 * ```ts ignore
 * const r = await fetchData({ dataDir: "/tmp/data", baseUrl: "http://127.0.0.1:8000" });
 * r.sources.map((s) => s.status); // ["fetched", …] then ["skipped", …] on a second run
 * ```
 *
 * @example A folder that is not fetched is a usage error (exit code 2), before any download
 * ```ts
 * import assert from "node:assert/strict";
 * const manifest = { description: "", sources: {}, files: [] };
 * await assert.rejects(
 *   fetchData({ dataDir: "/tmp/data", manifest, only: ["logs"] }),
 *   { name: "FetchDataError", exitCode: 2, message: /^logs\/ \(sample evaluation logs\) is not/ },
 * );
 * ```
 */
export async function fetchData(opts: FetchOptions): Promise<FetchReport> {
  const log = opts.log ?? ((line: string) => console.log(line));
  const manifest = opts.manifest ??
    (opts.manifestPath
      ? await loadManifest(opts.manifestPath)
      : usageError("fetchData needs a manifest (manifest or manifestPath)"));
  const baseUrl = opts.baseUrl || Deno.env.get(BASE_URL_ENV) || undefined;
  const folders = [...new Set(Object.values(manifest.sources).map((s) => s.folder))];
  const only = opts.only && opts.only.length > 0
    ? opts.only.map((name) => name.replace(/\/+$/, ""))
    : folders;
  for (const name of only) {
    if (folders.includes(name)) continue;
    const why = name === "logs"
      ? "logs/ (sample evaluation logs) is not fetched by this command"
      : `unknown folder "${name}"`;
    throw new FetchDataError(`${why}; --only takes a comma-separated list of ${folders}`, 2);
  }
  const report: FetchReport = { dataDir: opts.dataDir, sources: [], verified: 0 };
  const selected = Object.keys(manifest.sources).filter((id) =>
    only.includes(manifest.sources[id].folder)
  );
  for (const id of selected) {
    const source = manifest.sources[id];
    const files = manifest.files.filter((f) => f.source === id);
    const label = `${source.folder}/ from ${source.repo}@${source.commit.slice(0, 7)}`;
    if ((await verifyFiles(opts.dataDir, files)).length === 0) {
      log(`${label}: ${plural(files.length, "file")} already present and verified, skipped`);
      report.sources.push({ source: id, status: "skipped", files: files.length, bytes: 0 });
      continue;
    }
    const url = archiveUrl(source, baseUrl);
    const bytes = await fetchSource(opts, url, label, files, selected.indexOf(id), folders);
    log(
      `${label}: downloaded ${formatBytes(bytes)}, wrote ${plural(files.length, "verified file")}`,
    );
    report.sources.push({ source: id, status: "fetched", files: files.length, bytes });
  }
  const all = manifest.files.filter((f) => selected.includes(f.source));
  const bad = await verifyFiles(opts.dataDir, all);
  if (bad.length > 0) {
    throw new FetchDataError(
      `${bad.length} of ${all.length} files under ${opts.dataDir} do not verify after the ` +
        `fetch: ${listMismatches(bad)}.`,
    );
  }
  report.verified = all.length;
  return report;
}

/** Download one archive, extract and verify its files, then write them; returns bytes read. */
async function fetchSource(
  opts: FetchOptions,
  url: string,
  label: string,
  files: ManifestFile[],
  done: number,
  folders: readonly string[],
): Promise<number> {
  const tmp = await Deno.makeTempFile({ prefix: "runlens-fetch-", suffix: ".zip" });
  let zip: Uint8Array;
  let bytes: number;
  try {
    bytes = await download(url, tmp, label, opts, done, folders);
    zip = await Deno.readFile(tmp);
  } finally {
    await rm(tmp, { force: true });
  }
  const wanted = new Set(files.map((f) => f.repoPath));
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip, { filter: (e) => wanted.has(stripTop(e.name)) });
  } catch (e) {
    throw new FetchDataError(
      `could not use ${label}: ${url} did not return a valid zip archive (${errorText(e)}); ` +
        `nothing was written.`,
    );
  }
  const byRepoPath = new Map(Object.entries(entries).map(([k, v]) => [stripTop(k), v]));
  const bad: Mismatch[] = [];
  for (const f of files) {
    const data = byRepoPath.get(f.repoPath);
    const reason = data ? compare(f, data) : `${f.repoPath} not in the archive`;
    if (reason) bad.push({ path: f.path, reason });
  }
  if (bad.length > 0) {
    throw new FetchDataError(
      `${label}: the archive ${url} does not match the manifest: ${bad.length} of ` +
        `${files.length} files fail verification: ${listMismatches(bad)}. Nothing from this ` +
        `archive was written; the pinned files may have changed upstream or the download was ` +
        `corrupted.`,
    );
  }
  for (const f of files) await writeAtomic(join(opts.dataDir, f.path), byRepoPath.get(f.repoPath)!);
  return bytes;
}

/** Stream `url` into `dest`, with progress on a TTY; returns the byte count. */
async function download(
  url: string,
  dest: string,
  label: string,
  opts: FetchOptions,
  done: number,
  folders: readonly string[],
): Promise<number> {
  const idleMs = opts.idleTimeoutMs ?? 60_000;
  const controller = new AbortController();
  let timer = setTimeout(() => controller.abort(), idleMs);
  const showProgress = opts.progress ?? Deno.stderr.isTerminal();
  let received = 0;
  let lastDraw = 0;
  const draw = (total: number, final = false) => {
    const now = Date.now();
    if (!showProgress || (!final && now - lastDraw < 100)) return;
    lastDraw = now;
    const of = total > 0 ? ` of ${formatBytes(total)}` : "";
    const text = final ? "\r\x1b[K" : `\r\x1b[K${label}: ${formatBytes(received)}${of}`;
    Deno.stderr.writeSync(new TextEncoder().encode(text));
  };
  try {
    let res: Response;
    try {
      res = await fetch(url, { signal: controller.signal });
    } catch (e) {
      throw offlineError(url, label, e, controller.signal.aborted, idleMs, done, folders);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel();
      throw new FetchDataError(
        `could not download ${label}: ${url} answered HTTP ${res.status} ${res.statusText}` +
          `. Check --base-url / $${BASE_URL_ENV} if set, or point --data DIR or ` +
          `$${DATA_ENV} at a copy of the data you already have.`,
      );
    }
    const total = Number(res.headers.get("content-length") ?? 0);
    const counter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, ctl) {
        received += chunk.length;
        clearTimeout(timer);
        timer = setTimeout(() => controller.abort(), idleMs);
        draw(total);
        ctl.enqueue(chunk);
      },
    });
    const file = await Deno.open(dest, { write: true, truncate: true });
    try {
      await res.body.pipeThrough(counter).pipeTo(file.writable);
    } catch (e) {
      throw offlineError(url, label, e, controller.signal.aborted, idleMs, done, folders);
    }
    return received;
  } finally {
    clearTimeout(timer);
    draw(0, true);
  }
}

/** The one-paragraph "seems offline" message for a network failure. */
function offlineError(
  url: string,
  label: string,
  e: unknown,
  timedOut: boolean,
  idleMs: number,
  done: number,
  folders: readonly string[],
): FetchDataError {
  const host = URL.canParse(url) ? new URL(url).host : url;
  const cause = timedOut ? `no data for ${idleMs / 1000} s` : networkCause(e);
  const partial = done > 0 ? ` (the ${done} source(s) before it are in place)` : "";
  return new FetchDataError(
    `could not download ${label}: ${url} failed (${cause}). This machine seems to be offline or ` +
      `unable to reach ${host}${partial}. Alternatively, point --data DIR or $${DATA_ENV} at ` +
      `a copy of the data you already have (a folder holding ${folderList(folders)} laid out ` +
      `as by fetch-data), or rerun fetch-data once online.`,
  );
}

/** The innermost useful message of a fetch() failure. */
function networkCause(e: unknown): string {
  let err: unknown = e;
  while (err instanceof Error && err.cause instanceof Error) err = err.cause;
  const text = errorText(err);
  // Deno: "error sending request for url (…): client error (Connect): dns error: …".
  return text.replace(/^error sending request for url \([^)]*\):\s*/, "") || "network error";
}

/** `a/, b/ and c/`. */
function folderList(folders: readonly string[]): string {
  const named = folders.map((f) => `${f}/`);
  return named.length < 2 ? named.join("") : `${named.slice(0, -1).join(", ")} and ${named.at(-1)}`;
}

/** Throw the usage error (exit code 2) `message`. */
function usageError(message: string): never {
  throw new FetchDataError(message, 2);
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** `bbeh-<commit>/bbeh/mini/data.json` → `bbeh/mini/data.json`. */
function stripTop(name: string): string {
  const i = name.indexOf("/");
  return i < 0 ? "" : name.slice(i + 1);
}

/** Write via a sibling temp file and rename, so a file is never seen half-written. */
async function writeAtomic(path: string, data: Uint8Array): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const tmp = `${path}.part-${Deno.pid}`;
  try {
    await Deno.writeFile(tmp, data);
    await rename(tmp, path);
  } catch (e) {
    await rm(tmp, { force: true });
    throw e;
  }
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function listMismatches(bad: Mismatch[], max = 10): string {
  const shown = bad.slice(0, max).map((m) => `${m.path} (${m.reason})`).join(", ");
  return bad.length > max ? `${shown}, and ${bad.length - max} more` : shown;
}

/**
 * Human-readable size.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(formatBytes(19_594_733), "19.6 MB");
 * assert.equal(formatBytes(999), "999 B");
 * ```
 */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  return `${(n / 1e6).toFixed(1)} MB`;
}
