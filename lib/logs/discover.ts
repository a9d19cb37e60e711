/**
 * Discovery for the streaming path (issue 15, items 3 and 7): expand the paths a user names
 * into the log files to read, each with its format, and account for everything else — never
 * opening what must not be opened, never skipping a log in silence. Polars-free.
 *
 * - Special files (FIFOs, devices, sockets) are never opened: skipped with the reason (a FIFO
 *   would block the open, `/dev/zero` never ends).
 * - Symbolic links inside a folder are followed only while they stay inside the folder the
 *   user named; a link leaving it, a link loop (`loop -> .`, `a -> b -> a`) and a folder
 *   reached twice are skipped with the reason; a dangling link with a log extension is an
 *   error. A path the user names is followed wherever it points (but a special file is still
 *   not read).
 * - A file name that is not UTF-8 cannot be opened (the runtime only sees it with U+FFFD
 *   replacement characters): reported with its bytes escaped (`bad_\xff_name.jsonl`), as a
 *   warning and, for a log extension, an error — the other files are read.
 * - Every file with a log extension (`.jsonl`, `.json`, `.csv`, `.tsv`, `.eval`, `.log`, each
 *   also `.gz`) is a log of a detected format, a recognised companion file (an lm-eval
 *   `results_*.json`, an OpenCompass results file beside its predictions, an inspect
 *   `logs.json` index, a companion a contributed format names), or an error naming it and why
 *   (no known format; a file of a known format holding nothing to read; unreadable). A CSV
 *   file's field separator (`,`, `;` as spreadsheets in many locales write it, or a tab as in
 *   `.tsv` files) is found from its first records (`sources/csv.ts` `detectSeparator`).
 * - Besides the built-in formats, the {@link LogFormat}s given in `formats` (those benchmarks
 *   contribute, e.g. the BBH release's model outputs) are detected, after the built-in formats
 *   that recognise content and before the fallbacks by name alone.
 *
 * - A folder named `.runlens` (runlens's own working folder: the load cache, fetched data,
 *   temporary files) is not searched: its Parquet entries and manifests are not run logs, and
 *   a cache written inside the folder being scored must not change what the next run reads.
 *
 * Format detection is by name and the first 64 KiB (through checked
 * gzip decompression for gzip data).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { discover } from "@runlens/logs/discover.ts";
 * const found = discover(["tests/fixtures/logs/tree/"]);
 * assert.deepEqual(found.files.map((f) => [f.path, f.format]), [
 *   ["tests/fixtures/logs/tree/a.jsonl", "canonical-jsonl"],
 *   ["tests/fixtures/logs/tree/sub/b.csv", "canonical-csv"],
 * ]); // notes.txt has no log extension
 * assert.deepEqual(found.errors, []);
 * const unknown = discover(["tests/fixtures/logs/formats/unknown"]);
 * assert.deepEqual(unknown.errors.map((e) => e.reason), [
 *   "not a run log runlens reads (.log file that is not an openai/evals log)",
 *   "not a run log runlens reads (JSON file of no known run-log format)",
 * ]);
 * ```
 * @module
 */
import { basename, extname, join, resolve, sep } from "node:path";
import { fileSource, specialKind } from "../codecs/byte_source.ts";
import { gunzipHead } from "../codecs/gzip_stream.ts";
import { detectSeparator, type Separator } from "./sources/csv.ts";
import { isOpenAiEvalsLine } from "./sources/openai_evals.ts";
import { predictionsExist } from "./sources/opencompass.ts";
import { DOCUMENT_FORMATS } from "./sources/documents.ts";
import type { DocumentSource } from "./sources/types.ts";

/** runlens's own working folder (cache, data, temporary files), never searched for logs. */
const RUNLENS_FOLDER = ".runlens";

/** The built-in formats runlens has a reader for (`--format` values besides `auto`). */
export const FORMATS = [
  "canonical-jsonl",
  "canonical-csv",
  "lm-eval",
  ...DOCUMENT_FORMATS,
  "mapped-jsonl",
  "mapped-csv",
] as const;

/** One reader format: a built-in one or a contributed {@link LogFormat}'s name. */
export type Format = string;

/**
 * A log format a benchmark contributes (e.g. a release's own model-output files): how discovery
 * recognises its files, and the source that reads them.
 */
export interface LogFormat {
  /** Its name: the `--format` value and each found file's `format`. */
  name: string;
  /**
   * What a file is for this format, from its name (without `.gz`) and its first bytes as text:
   * a log of it, a companion of its logs, a file of it with nothing to read (`broken`, an
   * error naming it), or null when it is none of its files.
   */
  detect(
    name: string,
    text: string,
  ): { kind: "log" | "companion" | "broken"; reason: string } | null;
  /** Its reader. */
  source: DocumentSource;
}

/**
 * Every format name `--format` accepts, the contributed ones after the built-in document
 * formats.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const toy = { name: "toy-outputs", detect: () => null, source: { kind: "document", read() {} } } as const;
 * assert.deepEqual(formatNames([toy]).slice(-3), ["toy-outputs", "mapped-jsonl", "mapped-csv"]);
 * ```
 */
export function formatNames(contributed: readonly LogFormat[]): string[] {
  const mapped = FORMATS.filter((f) => f.startsWith("mapped-"));
  const own = FORMATS.filter((f) => !f.startsWith("mapped-"));
  return [...own, ...contributed.map((f) => f.name), ...mapped];
}

/**
 * The formats of logs written by people's own scripts (JSON lines and CSV, canonical or with
 * detected fields): runlens names their runs (`pipeline/plan.ts`); the other formats' readers
 * name theirs.
 */
export const GENERIC_FORMATS: ReadonlySet<string> = new Set([
  "canonical-jsonl",
  "mapped-jsonl",
  "canonical-csv",
  "mapped-csv",
]);

/** A log file to read. */
export interface FoundFile {
  /** The path: as the user named it, or joined below a folder the user named. */
  path: string;
  /** The log's own name: `path` without a final `.gz` (file-name conventions apply to it). */
  name: string;
  /** Its reader. */
  format: Format;
  /** Why that format (detection's reason, or `--format …`). */
  reason: string;
  /** Gzip data (by its magic bytes). */
  gzip: boolean;
  /** Bytes on disk. */
  size: number;
  /** A CSV file's field separator, when it is not `,` (`csv.ts` {@link detectSeparator}). */
  separator?: Separator;
  /** The file's real path (symbolic links resolved): a file reached twice is listed once. */
  realPath: string;
  /** The path is a symbolic link (a file also reached as itself is listed under its own path). */
  link: boolean;
}

/** A file and why it is listed. */
export interface FileNote {
  /** The file's path. */
  file: string;
  /** Why it is listed. */
  reason: string;
}

/** What {@link discover} found. */
export interface Discovery {
  /** The logs to read, sorted by path within each named folder, in the order named. */
  files: FoundFile[];
  /**
   * Files that should have been logs and cannot be read: a log extension but no known
   * format, unreadable, a dangling link, a name that is not UTF-8, a named path that does not
   * exist. Each is an error of the run (the others are read).
   */
  errors: FileNote[];
  /**
   * Files and folders deliberately not read: special files, links leaving the folder or
   * looping, a file reached twice. Each is also a {@link Discovery.warnings} line.
   */
  skipped: FileNote[];
  /** Files recognised as companions of logs (read alongside them, not on their own). */
  companions: FileNote[];
  /** One line per skipped file and per file name that is not UTF-8. */
  warnings: string[];
}

/** Options of {@link discover}. */
export interface DiscoverOptions {
  /** A forced format (every file with a log extension is read as it), or `auto` (detect). */
  format?: Format | "auto";
  /** `--map` was given: canonical JSON lines and CSV are read as `mapped-*`. */
  map?: boolean;
  /** Formats besides the built-in ones (those the registered benchmarks contribute). */
  formats?: readonly LogFormat[];
}

/** Extensions of logs (also with `.gz`). */
export const LOG_EXTENSIONS = [".jsonl", ".json", ".csv", ".tsv", ".eval", ".log"] as const;

/**
 * Whether a file name has a log extension (after an optional `.gz`, any case).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(hasLogExtension("run.JSONL.gz"), true);
 * assert.equal(hasLogExtension("notes.txt"), false);
 * assert.equal(hasLogExtension("data.tar.gz"), false);
 * ```
 */
export function hasLogExtension(name: string): boolean {
  const inner = name.toLowerCase().replace(/\.gz$/, "");
  return (LOG_EXTENSIONS as readonly string[]).includes(extname(inner));
}

const PEEK = 64 * 1024;

/**
 * What a file is, by its name and first bytes: a log of a format; a companion of logs; a
 * file of no known format; or a file of a known kind that holds nothing to read (`broken`).
 */
export type Detection =
  | { kind: "log"; format: Format; reason: string; gzip: boolean }
  | { kind: "companion" | "unknown" | "broken"; reason: string; gzip: boolean };

/** The first {@link PEEK} bytes of a regular file (throws a FileError when unreadable). */
function peek(path: string): Uint8Array {
  const source = fileSource(path);
  try {
    return source.read(0, PEEK);
  } finally {
    source.close();
  }
}

/**
 * Detect what the regular file `path` is (its name without `.gz` and its first 64 KiB,
 * decompressed when it is gzip data): a log of some format (built in, or of `formats`), a
 * companion of logs, or unknown (with the reason). Throws a FileError when the file cannot be
 * read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const mcpbr = detectFile("tests/fixtures/logs/formats/mcpbr/bbh-sonnet/results.json");
 * assert.deepEqual(mcpbr, {
 *   kind: "log",
 *   format: "mcpbr",
 *   reason: "JSON object with a tasks list of instance_ids (mcpbr)",
 *   gzip: false,
 * });
 * const lm = "tests/fixtures/logs/bbh/lm_eval/org__tiny-model/results_2025-01-25T04-48-43.622918.json";
 * assert.equal(detectFile(lm).kind, "companion");
 * ```
 */
export function detectFile(
  path: string,
  head: Uint8Array = peek(path),
  formats: readonly LogFormat[] = [],
): Detection {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    const found = detectContent(path.replace(/\.gz$/i, ""), gunzipHead(head, PEEK), formats);
    return { ...found, reason: `gzip data; ${found.reason}`, gzip: true };
  }
  if (extname(path).toLowerCase() === ".gz") {
    return { kind: "unknown", reason: "extension .gz but no gzip signature", gzip: false };
  }
  return { ...detectContent(path, head, formats), gzip: false };
}

type Found = { kind: "log"; format: Format; reason: string } | {
  kind: "companion" | "unknown" | "broken";
  reason: string;
};

const LM_EVAL_NAME = /^samples_(.+)_(\d{4}-\d{2}-\d{2}T\d{2}-\d{2}-\d{2}(?:\.\d+)?)\.jsonl?$/;
const LM_EVAL_KEYS = /"doc_id"\s*:[\s\S]*"(resps|filtered_resps|doc)"\s*:/;

/** The first of `formats` that knows the file, as a detection; null when none does. */
function detectContributed(
  formats: readonly LogFormat[],
  name: string,
  text: string,
): Found | null {
  for (const format of formats) {
    const found = format.detect(name, text);
    if (found === null) continue;
    const { kind, reason } = found;
    return kind === "log" ? { kind, format: format.name, reason } : { kind, reason };
  }
  return null;
}

/** Detect from the log's name (without `.gz`) and its first bytes (as today's detect.ts). */
function detectContent(name: string, head: Uint8Array, formats: readonly LogFormat[]): Found {
  const ext = extname(name).toLowerCase();
  const base = basename(name);
  const log = (format: Format, reason: string): Found => ({ kind: "log", format, reason });
  if (ext === ".csv" || ext === ".tsv") return log("canonical-csv", `extension ${ext}`);
  if (ext === ".eval") {
    return head[0] === 0x50 && head[1] === 0x4b
      ? log("inspect-eval", "extension .eval with a ZIP signature")
      : { kind: "unknown", reason: ".eval file without a ZIP signature" };
  }
  if (ext !== ".jsonl" && ext !== ".json" && ext !== ".log") {
    return { kind: "unknown", reason: `extension ${ext || "(none)"} is not a run log` };
  }
  const text = new TextDecoder().decode(head).replace(/^\ufeff/, "");
  const firstLine = text.split("\n").find((l) => l.trim() !== "") ?? "";
  if ((ext === ".log" || ext === ".jsonl") && isOpenAiEvalsLine(firstLine)) {
    return log("openai-evals", "JSON lines of an openai/evals record log");
  }
  if (ext === ".log") {
    return { kind: "unknown", reason: ".log file that is not an openai/evals log" };
  }
  const lmName = LM_EVAL_NAME.test(base);
  const lmKeys = LM_EVAL_KEYS.test(text);
  if (lmName && (lmKeys || text.trim() === "")) {
    return log("lm-eval", "lm-eval samples file name and sample keys");
  }
  if (lmKeys && (ext === ".json" || text.trimStart().startsWith("["))) {
    return log("lm-eval", "lm-eval sample keys (doc_id, resps)");
  }
  if (ext === ".jsonl") {
    const contributed = detectContributed(formats, name, text);
    if (contributed) return contributed;
    return lmKeys
      ? log("lm-eval", "JSON lines with lm-eval sample keys (doc_id, resps)")
      : log("canonical-jsonl", "extension .jsonl");
  }
  return detectJsonDocument(text, base, name, formats);
}

/** The `.json` document formats. */
function detectJsonDocument(
  text: string,
  base: string,
  name: string,
  formats: readonly LogFormat[],
): Found {
  const log = (format: Format, reason: string): Found => ({ kind: "log", format, reason });
  const object = /^\s*\{/.test(text);
  if (base === "logs.json" && /^\s*\{\s*"[^"]+\.(eval|json)"\s*:\s*\{/.test(text)) {
    return { kind: "companion", reason: "an inspect_ai log index (logs.json)" };
  }
  if (object && /"eval"\s*:\s*\{/.test(text) && /"(version|status)"\s*:/.test(text)) {
    return log("inspect-json", "JSON object with an inspect_ai eval spec");
  }
  if (/^\s*\{\s*"0"\s*:\s*\{/.test(text) && /"prediction"\s*:/.test(text)) {
    return log(
      "opencompass-predictions",
      'JSON object of numbered records with "prediction" (OpenCompass predictions)',
    );
  }
  if (object && /"tasks"\s*:\s*\[/.test(text) && /"(instance_id|metadata)"\s*:/.test(text)) {
    return log("mcpbr", "JSON object with a tasks list of instance_ids (mcpbr)");
  }
  if (object && /"details"\s*:/.test(text) && /"(pred|correct)"\s*:/.test(text)) {
    if (predictionsExist(name)) {
      return {
        kind: "companion",
        reason: "an OpenCompass results file (read alongside its predictions file)",
      };
    }
    return log("opencompass-results", "JSON object with per-example details");
  }
  const contributed = detectContributed(formats, name, text);
  if (contributed) return contributed;
  if (/^results_/.test(base)) {
    return {
      kind: "companion",
      reason: "an lm-eval results file (read alongside its samples files)",
    };
  }
  return { kind: "unknown", reason: "JSON file of no known run-log format" };
}

/**
 * Expand `paths` (files and folders) into the log files to read, with everything else
 * accounted for (see the module documentation). Never throws for a bad file or path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/a.jsonl`, '{"task": "nycc"}\n');
 * Deno.symlinkSync("/dev/zero", `${dir}/zero.jsonl`);
 * Deno.symlinkSync(".", `${dir}/loop`);
 * new Deno.Command("mkfifo", { args: [`${dir}/pipe.jsonl`] }).outputSync();
 * const found = discover([dir, `${dir}/missing.jsonl`]);
 * assert.deepEqual(found.files.map((f) => f.name), [`${dir}/a.jsonl`]);
 * assert.deepEqual(found.skipped.map((s) => [s.file.slice(dir.length + 1), s.reason]), [
 *   ["loop", "a symbolic link to a folder already searched (a loop; not followed)"],
 *   ["pipe.jsonl", "a FIFO, not a regular file (not read)"],
 *   ["zero.jsonl", "a symbolic link to /dev/zero, outside the folder named (not followed)"],
 * ]);
 * assert.deepEqual(found.errors, [{ file: `${dir}/missing.jsonl`, reason: "no such file or directory" }]);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function discover(paths: readonly string[], options: DiscoverOptions = {}): Discovery {
  const out: Discovery = { files: [], errors: [], skipped: [], companions: [], warnings: [] };
  const seen = new Map<string, string>(); // real path → path listed
  for (const path of paths) {
    const found: Discovery = { files: [], errors: [], skipped: [], companions: [], warnings: [] };
    let info: Deno.FileInfo;
    try {
      info = Deno.statSync(path);
    } catch (e) {
      found.errors.push({ file: path, reason: unreachable(path, e) });
      merge(out, found);
      continue;
    }
    if (info.isDirectory) {
      const root = realPath(path);
      walk(path, root, new Set([root]), found, options);
      found.files.sort((a, b) => cmp(a.path, b.path));
    } else if (!info.isFile) {
      skip(found, path, `${specialKind(info)}, not a regular file (not read)`);
    } else {
      addFile(path, info, found, options, true);
    }
    // a file reached twice (two named paths, or a link) is listed once, preferably not as a link
    const direct = new Set(found.files.filter((f) => !f.link).map((f) => f.realPath));
    const ordered = [
      ...found.files.filter((f) => !f.link || !direct.has(f.realPath)),
      ...found.files.filter((f) => f.link && direct.has(f.realPath)),
    ];
    for (const f of ordered) {
      const first = seen.get(f.realPath);
      if (first === undefined) {
        seen.set(f.realPath, f.path);
        out.files.push(f);
      } else if (first !== f.path) {
        skip(found, f.path, `the same file as ${first} (read once)`);
      }
    }
    found.files = [];
    for (const list of [found.errors, found.skipped, found.companions]) {
      list.sort((a, b) => cmp(a.file, b.file));
    }
    found.warnings.sort();
    merge(out, found);
  }
  return out;
}

/**
 * The files of `paths` for a reader of a benchmark's own log format (ARB logs, BBM mistake
 * runs): a path that is not a folder as it is (whatever its name; the reader says when it
 * cannot be read), and a folder's logs ({@link discover}ed) whose names end with one of
 * `extensions` (any case), in path order, each once. Throws the first error of a folder's file
 * with one of `extensions` (e.g. unreadable, a dangling link), naming the file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(filesOf(["tests/fixtures/logs/tree/", "README.md"], [".jsonl"]), [
 *   "tests/fixtures/logs/tree/a.jsonl", // not sub/b.csv
 *   "README.md", // named: kept
 * ]);
 * ```
 */
export function filesOf(paths: readonly string[], extensions: readonly string[]): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const add = (p: string) => {
    const key = resolve(p);
    if (!seen.has(key)) (seen.add(key), out.push(p));
  };
  const wanted = (name: string) =>
    extensions.some((e) => name.toLowerCase().endsWith(e.toLowerCase()));
  for (const path of paths) {
    if (!isDirectory(path)) {
      add(path);
      continue;
    }
    const found = discover([path]);
    const error = found.errors.find((e) => wanted(e.file));
    if (error) throw new Error(`${error.file}: ${error.reason}`);
    for (const f of found.files) if (wanted(f.path)) add(f.path);
  }
  return out;
}

function merge(into: Discovery, from: Discovery): void {
  into.files.push(...from.files);
  into.errors.push(...from.errors);
  into.skipped.push(...from.skipped);
  into.companions.push(...from.companions);
  into.warnings.push(...from.warnings);
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

function skip(d: Discovery, file: string, reason: string): void {
  d.skipped.push({ file, reason });
  d.warnings.push(`${file}: skipped: ${reason}`);
}

/** Why a path cannot be reached (stat failed). */
function unreachable(path: string, e: unknown): string {
  if (isLoop(e)) return "a symbolic link loop (not followed)";
  if (e instanceof Deno.errors.NotFound) {
    try {
      if (Deno.lstatSync(path).isSymlink) {
        return `a dangling symbolic link (to ${Deno.readLinkSync(path)}, which does not exist)`;
      }
    } catch { /* not a link */ }
    return "no such file or directory";
  }
  return `cannot read (${(e as Error).message})`;
}

function isLoop(e: unknown): boolean {
  const loop = (Deno.errors as unknown as Record<string, unknown>).FilesystemLoop;
  return (typeof loop === "function" && e instanceof (loop as typeof Error)) ||
    /os error 40\b|too many levels of symbolic links/i.test((e as Error)?.message ?? "");
}

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

function isLink(path: string): boolean {
  try {
    return Deno.lstatSync(path).isSymlink;
  } catch {
    return false;
  }
}

function realPath(path: string): string {
  try {
    return Deno.realPathSync(path);
  } catch {
    return resolve(path);
  }
}

const inside = (root: string, p: string) =>
  p === root || p.startsWith(root.endsWith(sep) ? root : root + sep);

/** Search folder `dir` (under `root`, the real path of the folder named). */
function walk(
  dir: string,
  root: string,
  visited: Set<string>,
  d: Discovery,
  options: DiscoverOptions,
): void {
  let entries: Deno.DirEntry[];
  try {
    entries = [...Deno.readDirSync(dir)];
  } catch (e) {
    d.errors.push({ file: dir, reason: `cannot read the folder (${(e as Error).message})` });
    return;
  }
  entries.sort((a, b) => cmp(a.name, b.name));
  let rawNames: Map<string, string> | null = null;
  for (const entry of entries) {
    if (entry.name === RUNLENS_FOLDER && entry.isDirectory) continue;
    const path = join(dir, entry.name);
    let link: Deno.FileInfo;
    try {
      link = Deno.lstatSync(path);
    } catch (e) {
      if (entry.name.includes("\ufffd") && e instanceof Deno.errors.NotFound) {
        rawNames ??= escapedNames(dir);
        const shown = join(dir, rawNames.get(entry.name) ?? entry.name);
        const reason = "the file name is not valid UTF-8, so it cannot be opened (rename it)";
        d.warnings.push(`${shown}: ${reason}`);
        if (hasLogExtension(entry.name) || entry.isDirectory) {
          d.errors.push({ file: shown, reason });
        }
        continue;
      }
      if (hasLogExtension(entry.name)) d.errors.push({ file: path, reason: unreachable(path, e) });
      continue;
    }
    let info = link;
    if (link.isSymlink) {
      let target: string;
      try {
        target = Deno.realPathSync(path);
        info = Deno.statSync(path);
      } catch (e) {
        if (isLoop(e)) skip(d, path, "a symbolic link loop (not followed)");
        else if (hasLogExtension(entry.name)) {
          d.errors.push({ file: path, reason: unreachable(path, e) });
        } else d.warnings.push(`${path}: ${unreachable(path, e)}`);
        continue;
      }
      if (!inside(root, target)) {
        if (info.isDirectory || hasLogExtension(entry.name) || !info.isFile) {
          skip(d, path, `a symbolic link to ${target}, outside the folder named (not followed)`);
        }
        continue;
      }
      if (info.isDirectory) {
        if (visited.has(target) || inside(target, realPath(dir))) {
          skip(d, path, "a symbolic link to a folder already searched (a loop; not followed)");
          continue;
        }
      }
    }
    if (info.isDirectory) {
      const real = realPath(path);
      if (visited.has(real)) {
        skip(d, path, "a folder already searched (not searched again)");
        continue;
      }
      visited.add(real);
      walk(path, root, visited, d, options);
      continue;
    }
    if (!info.isFile) {
      if (hasLogExtension(entry.name)) {
        skip(d, path, `${specialKind(info)}, not a regular file (not read)`);
      }
      continue;
    }
    addFile(path, info, d, options, false);
  }
}

/** Classify one regular file; `named`: the user named it (any extension is tried). */
function addFile(
  path: string,
  info: Deno.FileInfo,
  d: Discovery,
  options: DiscoverOptions,
  named: boolean,
): void {
  const logExt = hasLogExtension(basename(path));
  if (!named && !logExt) return;
  const forced = options.format && options.format !== "auto" ? options.format : null;
  let head: Uint8Array;
  try {
    head = peek(path);
  } catch (e) {
    d.errors.push({
      file: path,
      reason: (e as { reason?: string }).reason ?? (e as Error).message,
    });
    return;
  }
  const gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  const base = {
    path,
    name: path.replace(/\.gz$/i, ""),
    gzip,
    size: info.size,
    realPath: realPath(path),
    link: isLink(path),
  };
  if (forced) {
    if (!logExt && !named) return;
    const format = mapped(forced, options);
    d.files.push({ ...base, format, ...separated(path, head, format, `--format ${forced}`) });
    return;
  }
  const found = detectFile(path, head, options.formats);
  if (found.kind === "log") {
    const format = mapped(found.format, options);
    d.files.push({
      ...base,
      gzip: found.gzip,
      format,
      ...separated(path, head, format, found.reason),
    });
  } else if (found.kind === "companion") {
    d.companions.push({ file: path, reason: found.reason });
  } else if (found.kind === "broken") {
    d.errors.push({ file: path, reason: found.reason });
  } else if (logExt || named) {
    d.errors.push({ file: path, reason: `not a run log runlens reads (${found.reason})` });
  }
}

/**
 * A CSV file's separator from its head, and the reason saying it when it is not `,` (other
 * formats: the reason only).
 */
function separated(
  path: string,
  head: Uint8Array,
  format: Format,
  reason: string,
): { reason: string; separator?: Separator } {
  if (!format.endsWith("csv")) return { reason };
  const gzip = head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b;
  const text = gzip ? gunzipHead(head, PEEK) : head;
  const tsv = extname(path.replace(/\.gz$/i, "")).toLowerCase() === ".tsv";
  const separator = detectSeparator(text, tsv);
  if (separator === ",") return { reason };
  return { reason: `${reason}; ${separator === ";" ? ";" : "tab"}-separated`, separator };
}

function mapped(format: Format, options: DiscoverOptions): Format {
  if (options.map && format === "canonical-jsonl") return "mapped-jsonl";
  if (options.map && format === "canonical-csv") return "mapped-csv";
  return format;
}

/**
 * The names in `dir` with the bytes that are not UTF-8 escaped as `\xHH`, by the name the
 * runtime reports (with U+FFFD): read with `find -print0`, since the runtime cannot list raw
 * names. Empty when `find` cannot run.
 */
function escapedNames(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  let raw: Uint8Array;
  try {
    raw = new Deno.Command("find", {
      args: [dir, "-mindepth", "1", "-maxdepth", "1", "-print0"],
      stdout: "piped",
      stderr: "null",
    }).outputSync().stdout;
  } catch {
    return out;
  }
  const lossy = new TextDecoder();
  let start = 0;
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] !== 0) continue;
    const full = raw.subarray(start, i);
    start = i + 1;
    const slash = full.lastIndexOf(0x2f);
    const name = full.subarray(slash + 1);
    out.set(lossy.decode(name), escapeBytes(name));
  }
  return out;
}

/**
 * A file name's bytes as text: valid UTF-8 as is, other bytes as `\xHH`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const name = new Uint8Array([0x62, 0xff, 0xc3, 0xa9]);
 * assert.equal(escapeBytes(name), "b\\xffé");
 * ```
 */
export function escapeBytes(bytes: Uint8Array): string {
  const strict = new TextDecoder("utf-8", { fatal: true });
  let out = "";
  let i = 0;
  while (i < bytes.length) {
    let done = false;
    for (let len = 1; len <= 4 && i + len <= bytes.length; len++) {
      try {
        const s = strict.decode(bytes.subarray(i, i + len));
        out += s;
        i += len;
        done = true;
        break;
      } catch { /* try a longer sequence */ }
    }
    if (!done) {
      out += `\\x${bytes[i].toString(16).padStart(2, "0")}`;
      i++;
    }
  }
  return out;
}
