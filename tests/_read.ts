/**
 * Test helper: read log files the way the engine's Workers do, without scoring — discovery,
 * the plan (format, detected fields, default run), then each file's source over the whole file
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
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { type BadRecord, type LogRecord, RECORD_FIELDS, textOf } from "@runlens/logs/record.ts";
import { sourceFor } from "@runlens/logs/sources/all.ts";
import { FileError, type SourceLimits } from "@runlens/logs/sources/types.ts";
import { planFiles, type PlannedFile } from "@runlens/pipeline/plan.ts";

/** A record as read: its line, its fields as text, the tool's verdict and extraction. */
export interface ReadRecord {
  line: number;
  fields: Record<string, string | null | undefined>;
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
  const fields: ReadRecord["fields"] = {};
  for (const f of RECORD_FIELDS) fields[f] = textOf((r as unknown as Record<string, unknown>)[f]);
  return {
    line: r.line,
    fields,
    raw: r,
    filter: r.filter,
    stored_correct: r.stored_correct,
    tool_extracted: r.tool_extracted,
  };
}

/** Read every log file under `paths` (discovery's errors are not files: see `discover`). */
export function readFiles(
  paths: readonly string[],
  options: DiscoverOptions & { limits?: SourceLimits } = {},
): ReadFile[] {
  const limits = options.limits ?? DEFAULT_LIMITS;
  const found = discover(paths, options);
  const planned = planFiles(found.files, { benchmarks: [], limits });
  return planned.map((file) => {
    const out: ReadFile = { file, records: [], bad: [], error: null };
    const sink = {
      record: (r: LogRecord) => out.records.push(recordOf(r)),
      bad: (b: BadRecord) => out.bad.push(b),
    };
    const source = sourceFor(file);
    try {
      if (source === null) throw new FileError(file.path, `no source for ${file.format}`);
      if (source.kind === "lines") source.readRange(file, 0, file.size, sink, limits);
      else source.read(file, sink, limits);
    } catch (e) {
      if (!(e instanceof FileError)) throw e;
      out.error = e.reason;
    }
    return out;
  });
}
