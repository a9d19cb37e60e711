/**
 * Read: the log files under the paths a user names, each through its format's reader, into
 * one frame of checked rows (before any data set is consulted) and the records quarantined
 * while reading. Runs of consecutive plain lm-eval samples files are read together (one
 * polars parse per ~64 MB instead of per file); lm-eval rows keep one filter per response.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLogs } from "@runlens/pipeline/read.ts";
 * const logs = readLogs(["tests/fixtures/logs/mixed.jsonl"]);
 * assert.deepEqual(logs.files, ["tests/fixtures/logs/mixed.jsonl"]);
 * assert.equal(logs.rows.height + logs.quarantine.length, logs.reads[0].rowsIn); // 10 + 11 = 21
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { extname } from "node:path";
import { NO_PROGRESS, type Progress } from "../core/progress.ts";
import { checkRawLog, readCanonicalLog } from "../logs/canonical.ts";
import type { LogFormat } from "../logs/detect.ts";
import { findLogFiles } from "../logs/files.ts";
import { readLmEvalFiles } from "../logs/lm_eval_batch.ts";
import { pickLmEvalFilter } from "../logs/lm_eval_filter.ts";
import type { RunQuarantine } from "../logs/quarantine.ts";
import { chooseFormat, type FormatLog, type ReadOptions, readRunLog } from "../logs/read_log.ts";

/** How {@link readLogs} reads: formats and mapping, lean rows, the lm-eval filter kept. */
export interface ReadLogsOptions extends ReadOptions {
  /**
   * Applied to each file's (each block's) checked rows as soon as they are read, e.g. to
   * compute what a scorer needs from `response` and drop it (see `score.ts` `leanRows`).
   */
  mapRows?: (rows: pl.DataFrame) => pl.DataFrame;
  /** lm-eval logs with several filters per response: the filter whose lines are kept. */
  lmEvalFilter?: string | null;
  /** Progress display (default: none). */
  progress?: Progress;
}

/** One file read: its path, the records it holds, and the format it was read as. */
export interface FileRead {
  file: string;
  rowsIn: number;
  format: LogFormat;
}

/** Everything {@link readLogs} read. */
export interface ReadLogs {
  /** The log files, in the order they were read. */
  files: string[];
  /** Each file with its record count and format. */
  reads: FileRead[];
  /** Checked rows of every file, in file and line order (row columns of `canonical.ts`). */
  rows: pl.DataFrame;
  /** Records that could not be read as rows, each counted against a run. */
  quarantine: RunQuarantine[];
}

/**
 * Find the log files under `paths` and read them all. Throws (naming the file) on a file that
 * cannot be read, and when the paths hold no log at all.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const { reads, rows, quarantine } = readLogs(["tests/fixtures/logs/tree"], { format: "auto" });
 * assert.deepEqual(reads.map((r) => [r.file, r.rowsIn, r.format]), [
 *   ["tests/fixtures/logs/tree/a.jsonl", 4, "canonical-jsonl"],
 *   ["tests/fixtures/logs/tree/sub/b.csv", 2, "canonical-csv"], // notes.txt is not a run log
 * ]);
 * assert.deepEqual([rows.height, quarantine.length], [6, 0]);
 * assert.throws(() => readLogs(["tests/fixtures/logs/formats/unknown"]), /no .jsonl or .csv run/);
 * ```
 */
export function readLogs(paths: readonly string[], options: ReadLogsOptions = {}): ReadLogs {
  const files = findLogFiles(paths, options);
  if (files.length === 0) {
    throw new Error(`no .jsonl or .csv run logs found in ${paths.join(", ")}`);
  }
  const groups = readGroups(files, options, options.progress ?? NO_PROGRESS);
  return {
    files,
    reads: groups.flatMap((g) => g.files),
    rows: pl.concat(groups.map((g) => g.rows), { how: "vertical" }),
    quarantine: groups.flatMap((g) => g.quarantine),
  };
}

/** Logs read together: their files (records in each, format), checked rows and quarantine. */
interface LogGroup {
  files: FileRead[];
  rows: pl.DataFrame;
  quarantine: RunQuarantine[];
}

/**
 * Read every file, in order: runs of consecutive plain lm-eval samples files together
 * ({@link readLmEvalFiles}), the others one by one ({@link readOne}). lm-eval rows keep one
 * filter per response ({@link pickLmEvalFilter}).
 */
function readGroups(
  files: readonly string[],
  options: ReadLogsOptions,
  progress: Progress,
): LogGroup[] {
  const mapRows = options.mapRows ?? ((rows: pl.DataFrame) => rows);
  const filter = options.lmEvalFilter ?? null;
  const position = new Map(files.map((f, i) => [f, i]));
  const groups: LogGroup[] = [];
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const { raw, files: read } = readLmEvalFiles(pending, {
      onFile: (f) => progress.file(position.get(f)!, files.length, f),
      onRows: (n) => progress.rows(n),
    });
    const checked = checkRawLog(pending[0], raw);
    groups.push({
      files: read.map((f) => ({ ...f, format: "lm-eval" })),
      ...pickLmEvalFilter({ rows: mapRows(checked.rows), quarantine: checked.quarantine }, filter),
    });
    pending = [];
  };
  for (const [i, file] of files.entries()) {
    const { format, gzip } = chooseFormat(file, options);
    if (format === "lm-eval" && !gzip) {
      pending.push(file);
      continue;
    }
    flush();
    progress.file(i, files.length, file);
    const log = readOne(file, options, progress);
    const kept = log.format.startsWith("lm-eval") ? pickLmEvalFilter(log, filter) : log;
    groups.push({
      files: [{ file: log.file, rowsIn: log.rowsIn, format: log.format }],
      rows: kept.rows,
      quarantine: kept.quarantine,
    });
  }
  flush();
  return groups;
}

/**
 * Read one log; with `mapRows`, big canonical JSONL files are mapped block by block as they
 * are read (so that a lean mapping never holds every response at once).
 */
function readOne(file: string, options: ReadLogsOptions, progress: Progress): FormatLog {
  if (!options.mapRows) {
    const log = readRunLog(file, options);
    progress.rows(log.rows.height);
    return log;
  }
  const mapRows = options.mapRows;
  const mapped = (rows: pl.DataFrame) => {
    progress.rows(rows.height);
    return mapRows(rows);
  };
  const { format, gzip } = chooseFormat(file, options);
  if (format === "canonical-jsonl" && !gzip && extname(file).toLowerCase() === ".jsonl") {
    return { ...readCanonicalLog(file, { mapRows: mapped }), format };
  }
  const log = readRunLog(file, options);
  return { ...log, rows: mapped(log.rows) };
}
