/**
 * Read one run log of any supported format: detect the format ({@link detectFormat}) or take
 * the one forced with `--format`, decompress gzip data, run the format's reader (canonical
 * JSONL/CSV, lm-eval samples, inspect_ai `.eval`/`.json`, OpenCompass predictions/results,
 * mcpbr `results.json`, openai/evals record logs, generic JSONL/CSV through a `--map` column
 * mapping) and apply the format-independent checks ({@link checkRawLog}).
 *
 * @example
 * ```ts
 * import { readRunLog } from "@runlens/logs/read_log.ts";
 * const log = readRunLog("tests/fixtures/logs/formats/inspect/zstd/bbeh_run.eval");
 * console.log(log.format, log.rows.height, log.quarantine.length); // inspect-eval 3 0
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { basename, extname, join } from "node:path";
import { PY_WHITESPACE } from "../core/python.ts";
import { type CanonicalLog, checkRawLog, readCanonicalLog } from "./canonical.ts";
import { cannotRead, defaultRunName } from "./paths.ts";
import { readBbhReleaseLog } from "./bbh_release.ts";
import { readCsvLog } from "./csv.ts";
import { detectFormat, isGzipFile, type LogFormat, type ReaderFormat } from "./detect.ts";
import { gunzipLog, innerLogName } from "./gzip.ts";
import { readInspectLog } from "./inspect.ts";
import { readJsonlLog } from "./jsonl.ts";
import { readLmEvalLog } from "./lm_eval.ts";
import { type ColumnMap, readMappedLog } from "./mapped.ts";
import { readMcpbrLog } from "./mcpbr.ts";
import { readOpenAiEvalsLog } from "./openai_evals.ts";
import { readOpenCompassPredictions, readOpenCompassResults } from "./opencompass.ts";
import type { RawLog } from "./raw.ts";
import { decodeUtf8 } from "./encoding.ts";

/** A checked log and the format it was read as. */
export interface FormatLog extends CanonicalLog {
  format: LogFormat;
}

/** How to read logs: the format (`auto`: detect per file) and a column mapping. */
export interface ReadOptions {
  /** A reader format, or `auto` (the default) to detect it per file. */
  format?: ReaderFormat | "auto";
  /** `--map`: read JSONL/CSV files (canonical-looking ones) through this mapping. */
  map?: ColumnMap | null;
}

const EXPECTED = "expected .jsonl, .csv, an lm-eval samples file, an inspect_ai .eval/.json " +
  "log, OpenCompass predictions/results, an mcpbr results.json or an openai/evals record log, " +
  "optionally gzip-compressed";

/**
 * The format `path` will be read as under `options`, and whether it is gzip data: the forced
 * format, else the detected one; canonical JSONL/CSV become `mapped-*` when a mapping is given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseColumnMap } from "@runlens/logs/mapped.ts";
 * assert.equal(chooseFormat("a.csv", { map: parseColumnMap("response=1") }).format, "mapped-csv");
 * assert.equal(chooseFormat("a.csv").format, "canonical-csv");
 * ```
 */
export function chooseFormat(
  path: string,
  options: ReadOptions = {},
): { format: ReaderFormat | null; reason: string; gzip: boolean } {
  const forced = options.format && options.format !== "auto" ? options.format : null;
  const detected = forced ? null : detectFormat(path);
  const gzip = detected ? detected.gzip : isGzipFile(path);
  let format = forced ?? detected!.format;
  const reason = forced ? `--format ${forced}` : detected!.reason;
  if (options.map && format === "canonical-jsonl") format = "mapped-jsonl";
  if (options.map && format === "canonical-csv") format = "mapped-csv";
  return { format, reason, gzip };
}

/**
 * Detect (or take the forced format), read and check `path`. Throws (naming the file) when
 * the format is unknown or the file cannot be read (other extensions than `.json`/`.eval`/
 * `.log`/`.gz` get the canonical reader's message); bad records are quarantined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * import { parseColumnMap } from "@runlens/logs/mapped.ts";
 * const dir = "tests/fixtures/logs/bbh/lm_eval/org__tiny-model";
 * const samples = `${dir}/samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.622918.jsonl`;
 * assert.equal(readRunLog(samples).format, "lm-eval");
 * const tmp = Deno.makeTempDirSync();
 * const csv = Deno.readFileSync("tests/fixtures/logs/formats/mapped/answers.csv");
 * Deno.writeFileSync(`${tmp}/answers.csv.gz`, gzipSync(csv));
 * const map = parseColumnMap("input=0,response=1,task==nycc");
 * assert.equal(readRunLog(`${tmp}/answers.csv.gz`, { map }).format, "mapped-csv+gzip");
 * Deno.removeSync(tmp, { recursive: true });
 * ```
 */
export function readRunLog(path: string, options?: ReadOptions): FormatLog {
  // tolerate `files.map(readRunLog)`, which passes the index as second argument
  const opts: ReadOptions = options && typeof options === "object" ? options : {};
  const { format, reason, gzip } = chooseFormat(path, opts);
  const ext = extname(path).toLowerCase();
  if (format === null && reason.includes("BBH release metrics")) {
    throw new Error(`${path}: not a run log (${reason})`);
  }
  if (format === null && !gzip && ![".json", ".eval", ".log", ".gz"].includes(ext)) {
    return { ...readCanonicalLog(path), format: "canonical-jsonl" }; // throws: not a run log
  }
  if (format === null) {
    throw new Error(`${path}: not a run log runlens reads (${reason}; ${EXPECTED})`);
  }
  if (!gzip && (format === "canonical-jsonl" || format === "canonical-csv")) {
    return { ...readCanonicalLog(path), format };
  }
  let raw: RawLog;
  try {
    raw = gzip ? readGzipped(path, format, opts) : readPlain(path, format, opts);
  } catch (e) {
    const message = (e as Error).message;
    if (message.startsWith(`${path}:`)) throw e;
    throw new Error(`${path}: ${format}${gzip ? "+gzip" : ""} log: ${message}`);
  }
  return { ...checkRawLog(path, raw), format: gzip ? `${format}+gzip` : format };
}

function readText(path: string): string {
  try {
    return decodeUtf8(Deno.readFileSync(path));
  } catch (e) {
    throw cannotRead(path, e);
  }
}

/** Run the reader of `format` on the logical file `name` with content `text`. */
function readWith(
  format: Exclude<ReaderFormat, "canonical-jsonl" | "canonical-csv" | "inspect-eval" | "lm-eval">,
  name: string,
  text: string,
  options: ReadOptions,
): RawLog {
  switch (format) {
    case "inspect-json":
      throw new Error("internal: inspect-json is read from its file");
    case "opencompass-predictions":
      return readOpenCompassPredictions(name, text);
    case "opencompass-results":
      return readOpenCompassResults(name, text);
    case "mcpbr":
      return readMcpbrLog(name, text);
    case "openai-evals":
      return readOpenAiEvalsLog(name, text);
    case "bbh-release-outputs":
      return readBbhReleaseLog(name, text);
    case "mapped-jsonl":
    case "mapped-csv":
      if (!options.map) throw new Error(`--format ${format} needs --map`);
      return readMappedLog(text, options.map, format === "mapped-csv" ? "csv" : "jsonl");
  }
}

function readPlain(path: string, format: ReaderFormat, options: ReadOptions): RawLog {
  if (format === "inspect-eval" || format === "inspect-json") return readInspectLog(path);
  if (format === "lm-eval") return readLmEvalLog(path); // read in blocks, never as one string
  if (format === "canonical-jsonl" || format === "canonical-csv") {
    throw new Error("internal: canonical logs are read by readCanonicalLog");
  }
  return readWith(format, path, readText(path), options);
}

/**
 * Decompress and read: readers that take text get the log's own name (without `.gz`, so that
 * file-name conventions and sibling files still apply); readers that need a file get a
 * temporary copy under that name. Rows without a run get the log's name without `.gz`.
 */
function readGzipped(path: string, format: ReaderFormat, options: ReadOptions): RawLog {
  const name = innerLogName(path);
  const bytes = gunzipLog(path);
  let raw: RawLog;
  if (
    format === "canonical-jsonl" || format === "canonical-csv" || format === "inspect-eval" ||
    format === "inspect-json"
  ) {
    const dir = Deno.makeTempDirSync({ prefix: "runlens_gz_" });
    try {
      const tmp = join(dir, basename(name));
      Deno.writeFileSync(tmp, bytes);
      raw = format === "canonical-jsonl"
        ? readJsonlLog(tmp)
        : format === "canonical-csv"
        ? readCsvLog(tmp, decodeUtf8(bytes))
        : readInspectLog(tmp);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
  } else if (format === "lm-eval") raw = readLmEvalLog(name, bytes);
  else raw = readWith(format, name, decodeUtf8(bytes), options);
  return withDefaultRun(raw, defaultRunName(name));
}

/** Give rows and bad lines without a run the run `run` (checkRawLog would use the `.gz` name). */
function withDefaultRun(raw: RawLog, run: string): RawLog {
  const blank = pl.col("run").isNull().or(
    pl.col("run").str.stripChars(PY_WHITESPACE).eq(pl.lit("")),
  );
  const frame = raw.frame.height === 0 ? raw.frame : raw.frame.withColumns(
    pl.when(blank).then(pl.lit(run)).otherwise(pl.col("run")).alias("run"),
  );
  return { ...raw, frame, bad: raw.bad.map((b) => ({ ...b, run: b.run ?? run })) };
}
