/**
 * The canonical run-log format: JSONL (`.jsonl`, one object per line) or CSV (`.csv`, header
 * row first), one record per model response.
 *
 * Fields: `task` (required; canonical name, display name or `bbeh_` prefix), `example_index`
 * (0-based position in the official task file) or `input` (the question text, matched against
 * the data set when the index is unknown), `response` (required; `""` is a real answer), and
 * optionally `model`, `run`, `benchmark` (default `bbeh`), `target` (checked against the data
 * set), `response_tokens`, `epoch` (default 1). Other fields are kept in `extra`.
 * Defaults: `run` = the file name without its extension, `model` = `run`.
 *
 * This module reads one file and applies the checks that need no data set; the benchmark
 * checks (task names, index range, targets, input matching, duplicates) come after, in
 * `pipeline/identify.ts`.
 *
 * @example
 * ```ts
 * import { readCanonicalLog } from "@runlens/logs/canonical.ts";
 * const log = readCanonicalLog("tests/fixtures/logs/mixed.jsonl");
 * console.log(log.rows.height, log.quarantine.length, log.rowsIn); // 10 11 21
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { extname } from "node:path";
import { PY_WHITESPACE } from "../core/python.ts";
import { readCsvLog } from "./csv.ts";
import { readJsonlBlocks, readJsonlLog } from "./jsonl.ts";
import { quoteValue, type RunQuarantine } from "./quarantine.ts";
import type { RawLog } from "./raw.ts";
import { readUtf8File } from "./encoding.ts";
import { cannotRead, CANONICAL_EXTENSIONS, defaultRunName } from "./paths.ts";
import { MAX_RESPONSE_CHARS } from "./limits.ts";
import { count } from "../core/count.ts";

/** One file in the canonical format, read and checked. */
export interface CanonicalLog {
  /** The file as named by the caller. */
  file: string;
  /** Records in the file (non-blank JSONL lines, CSV records after the header). */
  rowsIn: number;
  /**
   * The records that passed: `source_file`, `source_line` (Int32), `run`, `model`,
   * `benchmark`, `task` (as written), `example_index` (Int64, null when absent), `input`,
   * `target`, `response`, `response_tokens` (Int32), `epoch` (Int32), `extra`.
   */
  rows: pl.DataFrame;
  /**
   * The records that did not, each counted against a run: its `run` field; for a line that
   * cannot be parsed, the `"run"` its text still shows, else the file's only run, else the
   * file's default run.
   */
  quarantine: RunQuarantine[];
}

/** Options of {@link readCanonicalLog}. */
export interface ReadCanonicalOptions {
  /**
   * Applied to the checked rows (the {@link CanonicalLog} `rows` frame) before they are kept:
   * for a JSONL file read in blocks, to each block's rows as soon as it is read, so that a
   * caller can drop heavy columns (e.g. compute what it needs from `response` and drop it)
   * before the next block is read; otherwise to all the file's rows at once. Must keep the
   * row count and order, and give every block the same columns and dtypes.
   */
  mapRows?: (rows: pl.DataFrame) => pl.DataFrame;
}

/**
 * Read and check one canonical log. Throws (with the file name) when the file cannot be read
 * or is not `.jsonl` / `.csv`; bad records are quarantined, never thrown.
 *
 * JSONL files are read from their bytes in blocks ({@link readJsonlBlocks}; never as one JS
 * string, so files past V8's ~512 MB string limit work), checked block by block and passed
 * through `options.mapRows` block by block; a file the blocks cannot read exactly as one polars
 * scan would (malformed lines, a BOM, types that differ between blocks, …) is read whole by
 * {@link readJsonlLog} instead, with the same result.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const { rows, quarantine } = readCanonicalLog("tests/fixtures/logs/mixed.jsonl");
 * assert.equal(rows.height, 10);
 * assert.deepEqual(quarantine.find((q) => q.entry.line === 6), {
 *   run: "mixed",
 *   entry: {
 *     file: "tests/fixtures/logs/mixed.jsonl",
 *     line: 6,
 *     reason: 'example_index "abc" is not an integer',
 *   },
 * });
 * assert.throws(() => readCanonicalLog("tests/fixtures/logs/tree/notes.txt"), /not a run log/);
 * ```
 */
export function readCanonicalLog(path: string, options: ReadCanonicalOptions = {}): CanonicalLog {
  const ext = extname(path).toLowerCase();
  if (!(CANONICAL_EXTENSIONS as readonly string[]).includes(ext)) {
    throw new Error(`${path}: not a run log (expected ${CANONICAL_EXTENSIONS.join(" or ")})`);
  }
  const mapRows = options.mapRows ?? ((rows: pl.DataFrame) => rows);
  if (ext === ".jsonl") {
    try {
      const file = Deno.openSync(path, { read: true });
      file.readSync(new Uint8Array(1)); // a directory fails here
      file.close();
    } catch (e) {
      throw cannotRead(path, e);
    }
    const parts: pl.DataFrame[] = [];
    const quarantine: RunQuarantine[] = [];
    let rowsIn = 0;
    let blocksOk: boolean;
    try {
      blocksOk = readJsonlBlocks(path, (raw) => {
        const checked = checkRawLog(path, raw);
        parts.push(mapRows(checked.rows));
        quarantine.push(...checked.quarantine);
        rowsIn += checked.rowsIn;
      });
    } catch (e) {
      throw cannotRead(path, e);
    }
    if (blocksOk && parts.length > 0) {
      const rows = parts.length === 1 ? parts[0] : pl.concat(parts, { how: "vertical" });
      return { file: path, rowsIn, rows, quarantine };
    }
    parts.length = 0;
    let raw: RawLog;
    try {
      raw = readJsonlLog(path);
    } catch (e) {
      throw cannotRead(path, e);
    }
    const log = checkRawLog(path, raw);
    return { ...log, rows: mapRows(log.rows) };
  }
  let text: string;
  try {
    text = readUtf8File(path);
  } catch (e) {
    throw cannotRead(path, e);
  }
  let raw: RawLog;
  try {
    raw = readCsvLog(path, text);
  } catch (e) {
    throw new Error(`${path}: ${(e as Error).message}`);
  }
  const log = checkRawLog(path, raw);
  return { ...log, rows: mapRows(log.rows) };
}

/** Responses longer than this are quarantined (`logs/limits.ts`). */
export { MAX_RESPONSE_CHARS };

const blank = (c: string) =>
  pl.col(c).isNull().or(pl.col(c).str.stripChars(PY_WHITESPACE).eq(pl.lit("")));
const INT_PATTERN = "^[+-]?[0-9]+(\\.0*)?$";

/** Text → Int64: integers, optionally written `5.0` or `+5`; null otherwise. */
function intOf(c: string): pl.Expr {
  const t = pl.col(c).str.stripChars(PY_WHITESPACE);
  return pl.when(t.str.contains(INT_PATTERN))
    .then(t.str.replace("\\.0*$", "").str.replace("^\\+", "").cast(pl.Int64, false))
    .otherwise(pl.lit(null).cast(pl.Int64));
}

/**
 * Validate and type the raw records of one file; the rest of {@link readCanonicalLog}. A frame
 * holding the records of several files carries their names in `source_file` (and bad lines
 * their `file`); `file` then only names the default run.
 */
export function checkRawLog(file: string, raw: RawLog): CanonicalLog {
  const run = defaultRunName(file);
  const typed = raw.frame.select(
    (raw.frame.columns.includes("source_file") ? pl.col("source_file") : pl.lit(file))
      .alias("source_file"),
    pl.col("source_line"),
    pl.when(blank("run")).then(pl.lit(run)).otherwise(pl.col("run")).alias("run"),
    pl.col("model"),
    pl.when(blank("benchmark")).then(pl.lit("bbeh")).otherwise(pl.col("benchmark"))
      .alias("benchmark"),
    pl.col("task"),
    pl.col("example_index").alias("example_index_text"),
    intOf("example_index").alias("example_index"),
    pl.col("input"),
    pl.col("target"),
    pl.col("response"),
    pl.col("response_tokens").alias("response_tokens_text"),
    intOf("response_tokens").alias("response_tokens"),
    pl.col("epoch").alias("epoch_text"),
    intOf("epoch").alias("epoch"),
    pl.col("extra"),
  ).withColumns(
    pl.when(blank("model")).then(pl.col("run")).otherwise(pl.col("model")).alias("model"),
  );
  const nonNeg = (c: string) => pl.col(c).isNotNull().and(pl.col(c).gtEq(0));
  const problem = pl
    .when(blank("task")).then(pl.lit("missing task"))
    .when(pl.col("response").isNull()).then(pl.lit("missing response"))
    .when(pl.col("response").str.lengths().gt(MAX_RESPONSE_CHARS)).then(pl.lit("huge_response"))
    .when(pl.col("example_index_text").isNotNull().and(pl.col("example_index").isNull()))
    .then(pl.lit("bad_index"))
    .when(pl.col("example_index").isNull().and(pl.col("input").isNull()))
    .then(pl.lit("neither example_index nor input given"))
    .when(pl.col("epoch_text").isNotNull().and(nonNeg("epoch").and(pl.col("epoch").gt(0)).not()))
    .then(pl.lit("bad_epoch"))
    .when(pl.col("response_tokens_text").isNotNull().and(nonNeg("response_tokens").not()))
    .then(pl.lit("bad_tokens"))
    .otherwise(pl.lit(null).cast(pl.Utf8))
    .alias("__problem");
  const checked = typed.withColumns(problem);
  const failed = checked.filter(pl.col("__problem").isNotNull())
    .select(
      "source_file",
      "source_line",
      "run",
      "__problem",
      "example_index_text",
      "epoch_text",
      "response_tokens_text",
      pl.col("response").str.lengths().alias("response_chars"),
    )
    .toRecords() as unknown as FailedRow[];
  const rows = checked.filter(pl.col("__problem").isNull()).select(
    "source_file",
    "source_line",
    "run",
    "model",
    "benchmark",
    "task",
    "example_index",
    "input",
    "target",
    "response",
    pl.col("response_tokens").cast(pl.Int32),
    pl.col("epoch").fillNull(1).cast(pl.Int32),
    "extra",
  );
  const runs = typed.getColumn("run").unique().toArray() as string[];
  const fileRun = runs.length === 1 ? runs[0] : run;
  const quarantine: RunQuarantine[] = [
    ...raw.bad.map((b) => ({
      run: b.run ?? fileRun,
      entry: { file: b.file ?? file, line: b.line, reason: b.reason },
    })),
    ...failed.map((f) => ({
      run: f.run,
      entry: { file: f.source_file, line: f.source_line, reason: reasonOf(f) },
    })),
  ];
  return { file, rowsIn: raw.rowsIn, rows, quarantine };
}

interface FailedRow {
  source_file: string;
  source_line: number;
  run: string;
  __problem: string;
  example_index_text: string | null;
  epoch_text: string | null;
  response_tokens_text: string | null;
  response_chars: number | null;
}

function reasonOf(f: FailedRow): string {
  switch (f.__problem) {
    case "bad_index":
      return `example_index ${quoteValue(f.example_index_text)} is not an integer`;
    case "bad_epoch":
      return `epoch ${quoteValue(f.epoch_text)} is not a positive integer`;
    case "huge_response":
      return `response of ${count(Number(f.response_chars))} characters is ` +
        `longer than ${count(MAX_RESPONSE_CHARS)} (over 10 MB: a runaway ` +
        "generation?); not scored";
    case "bad_tokens":
      return `response_tokens ${quoteValue(f.response_tokens_text)} is not a non-negative integer`;
    default:
      return f.__problem;
  }
}
