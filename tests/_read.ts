/**
 * Test helper: read log files the way the engine's Workers do, without scoring — discovery
 * (with the formats the registered benchmarks contribute), the plan (format, detected fields,
 * default run), then each file's source over the whole file
 * — and give each record's canonical fields as text (`textOf`; a response span decoded, a list
 * or object undefined) with the records that could not be read.
 *
 * @example
 * ```ts ignore
 * const [f] = readFiles(["tests/fixtures/logs/mixed.jsonl"]);
 * f.records[0].fields.task; // "nycc"
 * ```
 * @module
 */
import { discover, type DiscoverOptions } from "@runlens/logs/discover.ts";
import type { ColumnMap } from "@runlens/logs/mapped.ts";
import { fromColumnMap } from "@runlens/logs/sources/fields.ts";
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { type BadRecord, type LogRecord, RECORD_FIELDS, textOf } from "@runlens/logs/record.ts";
import { sourceFor } from "@runlens/logs/sources/all.ts";
import { FileError, type SourceFile, type SourceLimits } from "@runlens/logs/sources/types.ts";
import { type CheckedRecord, checkRecord } from "@runlens/pipeline/check.ts";
import { planFiles, type PlannedFile } from "@runlens/pipeline/plan.ts";
import { Labels } from "@runlens/pipeline/labels.ts";
import { benchmarks, logFormats } from "@runlens/benchmarks/registry.ts";
import { sourceFile } from "./_collect.ts";

/** The canonical fields of a record as text (undefined: absent, or a list or object). */
export type Fields = Partial<Record<(typeof RECORD_FIELDS)[number], string | null>>;

/** A record as read: its line, its fields as text, the tool's verdict and extraction. */
export interface ReadRecord {
  line: number;
  fields: Fields;
  /** The record as the source gave it. */
  raw: LogRecord;
  filter?: string | null;
  stored_correct?: boolean | null;
  tool_extracted?: string | null;
}

/** One file as read: the plan's view of it, its records and bad records, or its error. */
export interface ReadFile {
  file: PlannedFile;
  records: ReadRecord[];
  bad: BadRecord[];
  /** The reason the file cannot be read (a {@link FileError}), else null. */
  error: string | null;
}

function recordOf(r: LogRecord): ReadRecord {
  const fields: Fields = {};
  for (const f of RECORD_FIELDS) {
    const text = textOf((r as unknown as Record<string, unknown>)[f]);
    if (text !== undefined) fields[f] = text;
  }
  return {
    line: r.line,
    fields,
    raw: r,
    filter: r.filter,
    stored_correct: r.stored_correct,
    tool_extracted: r.tool_extracted,
  };
}

/** What {@link readFiles} takes: `--format`, a parsed `--map`, limits. */
export interface ReadOptions {
  format?: DiscoverOptions["format"];
  map?: ColumnMap;
  limits?: SourceLimits;
}

/** Read every log file under `paths` (discovery's errors are not files: see `discover`). */
export function readFiles(
  paths: readonly string[],
  options: ReadOptions = {},
): ReadFile[] {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const found = discover(paths, {
    format: options.format,
    map: options.map !== undefined,
    formats: logFormats(),
  });
  const map = options.map === undefined ? null : fromColumnMap(options.map);
  const planned = planFiles(found.files, { benchmarks: [], limits, map });
  return planned.map((file) => ({ file, ...readOne(file, limits) }));
}

/** One file through its source over the whole file: its records, bad records, or error. */
function readOne(
  file: SourceFile,
  limits: SourceLimits,
): { records: ReadRecord[]; bad: BadRecord[]; error: string | null } {
  const out = { records: [] as ReadRecord[], bad: [] as BadRecord[], error: null as string | null };
  const sink = {
    record: (r: LogRecord) => out.records.push(recordOf(r)),
    bad: (b: BadRecord) => out.bad.push(b),
  };
  try {
    const source = sourceFor(file, logFormats());
    if (source === null) throw new FileError(file.path, `no source for ${file.format}`);
    if (source.kind === "lines") source.readRange(file, 0, file.size, sink, limits);
    else source.read(file, sink, limits);
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    out.error = e.reason;
  }
  return out;
}

/** A record that passed `check.ts`, as a flat row (the source's line as `source_line`, the response as text). */
export type CheckedRow = Omit<CheckedRecord, "response"> & {
  response: string | null | undefined;
  source_line: number;
};

/** One log file read and checked: its format, records, rows that passed, and the rest. */
export interface CheckedLog {
  format: string;
  /** Records read plus records that could not be read. */
  rowsIn: number;
  rows: CheckedRow[];
  /** Bad records (run: the one the text shows, else the file's) and records `check.ts` refused, in line order. */
  quarantine: { line: number; reason: string; run: string | null }[];
  error: string | null;
}

/**
 * Read one log file (or the first log under a folder), check its records with `check.ts` and
 * resolve their benchmark and task labels (`labels.ts`), as a Worker does before
 * identification.
 */
export function readChecked(
  path: string,
  options: ReadOptions = {},
): CheckedLog {
  const [f] = readFiles([path], options);
  if (f === undefined) throw new Error(`${path}: no log file found`);
  const rows: CheckedRow[] = [];
  const quarantine: CheckedLog["quarantine"] = f.bad.map((b) => ({
    line: b.line,
    reason: b.reason,
    run: b.run ?? f.file.defaultRun,
  }));
  const labels = new Labels(benchmarks());
  for (const r of f.records) {
    const c = checkRecord(r.raw, f.file.defaultRun, f.file.runFromModel ?? null);
    if (c.ok) {
      const resolved = labels.resolve(c.record.benchmark, c.record.task);
      rows.push({ ...c.record, ...resolved, response: r.fields.response, source_line: r.line });
    } else quarantine.push({ line: r.line, reason: c.reason, run: c.run });
  }
  quarantine.sort((a, b) => a.line - b.line);
  return {
    format: f.file.format,
    rowsIn: f.records.length + f.bad.length,
    rows,
    quarantine,
    error: f.error,
  };
}

/**
 * Read `path` as `format` (no detection), its source over the whole file: records and bad
 * records, or the reason it cannot be read.
 */
export function readAs(
  path: string,
  format: string,
  opts: { gzip?: boolean; name?: string; limits?: SourceLimits } = {},
): { records: ReadRecord[]; bad: BadRecord[]; error: string | null } {
  return readOne(sourceFile(path, format, opts), opts.limits ?? DEFAULT_LIMITS);
}
