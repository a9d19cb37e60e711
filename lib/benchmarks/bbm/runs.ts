/**
 * Load mistake-finding run logs: JSONL, one model answer per line.
 *
 * Fields per line: `task`; `trace_index` (0-based BBM trace) or, for BBEH runs of
 * dyck_languages / word_sorting, `example_index` (0-based BBEH position); `response` (the raw
 * answer, string or null); optional `model` and `run`. Blank lines are skipped; anything else
 * malformed throws naming the file and the 1-based line.
 *
 * Columns: `run` (the line's `run`, else the file name without extension), `model` (the line's
 * `model`, else the run), `task`, `trace_index`, `example_index` (one of the two is null when
 * the line lacks it), `response`, `source_file`, `source_line`.
 *
 * @example
 * ```ts
 * import { loadMistakeRuns } from "@runlens/benchmarks/bbm/runs.ts";
 * const runs = loadMistakeRuns(["logs/gemini_bbm.jsonl"]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { basename, extname } from "node:path";
import { findLogFiles } from "../../logs/files.ts";
import { intSeries, strSeries } from "./columns.ts";
import { parseJsonObjectLine } from "../../core/json_line.ts";

function isDirectory(path: string): boolean {
  try {
    return Deno.statSync(path).isDirectory;
  } catch {
    return false;
  }
}

/** One line of a mistake-finding run log, as loaded. */
export interface MistakeRunRow {
  run: string;
  model: string;
  task: string;
  trace_index: number | null;
  example_index: number | null;
  response: string | null;
  source_file: string;
  source_line: number;
}

function index(v: unknown, name: string, where: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    throw new Error(`${where}: "${name}" must be a non-negative integer`);
  }
  return v;
}

/**
 * Parse the text of one run log. `file` names it in errors and gives the default run id.
 *
 * @example
 * ```ts
 * parseMistakeRuns('{"task":"word_sorting","trace_index":3,"response":"No"}', "a.jsonl")[0].run; // "a"
 * ```
 */
export function parseMistakeRuns(text: string, file: string): MistakeRunRow[] {
  const defaultRun = basename(file, extname(file));
  const rows: MistakeRunRow[] = [];
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "") return;
    const where = `${file}:${i + 1}`;
    const r = parseJsonObjectLine(line, where);
    if (typeof r.task !== "string" || r.task === "") {
      throw new Error(`${where}: "task" must be a non-empty string`);
    }
    const trace = index(r.trace_index, "trace_index", where);
    const example = index(r.example_index, "example_index", where);
    if (trace === null && example === null) {
      throw new Error(`${where}: needs "trace_index" (BBM) or "example_index" (BBEH)`);
    }
    if (!("response" in r) || (r.response !== null && typeof r.response !== "string")) {
      throw new Error(`${where}: "response" must be a string (or null)`);
    }
    for (const k of ["model", "run"]) {
      if (r[k] !== undefined && r[k] !== null && typeof r[k] !== "string") {
        throw new Error(`${where}: "${k}" must be a string`);
      }
    }
    const run = (r.run as string | undefined) || defaultRun;
    rows.push({
      run,
      model: (r.model as string | undefined) || run,
      task: r.task,
      trace_index: trace,
      example_index: example,
      response: r.response as string | null,
      source_file: file,
      source_line: i + 1,
    });
  });
  return rows;
}

/**
 * The frame of parsed run rows.
 *
 * @example
 * ```ts
 * mistakeRunsFrame(parseMistakeRuns(text, "run.jsonl"));
 * ```
 */
export function mistakeRunsFrame(rows: readonly MistakeRunRow[]): pl.DataFrame {
  return pl.DataFrame({
    run: strSeries("run", rows.map((r) => r.run)),
    model: strSeries("model", rows.map((r) => r.model)),
    task: strSeries("task", rows.map((r) => r.task)),
    trace_index: intSeries("trace_index", rows.map((r) => r.trace_index)),
    example_index: intSeries("example_index", rows.map((r) => r.example_index)),
    response: strSeries("response", rows.map((r) => r.response)),
    source_file: strSeries("source_file", rows.map((r) => r.source_file)),
    source_line: intSeries("source_line", rows.map((r) => r.source_line)),
  });
}

/**
 * Load run logs into one frame: files as given, directories searched (recursively) for
 * `.jsonl` files, in sorted order.
 *
 * @example
 * ```ts
 * loadMistakeRuns(["a.jsonl", "more_runs/"]).select("run", "model").unique();
 * ```
 */
export function loadMistakeRuns(paths: readonly string[]): pl.DataFrame {
  const files = paths.flatMap((p) =>
    isDirectory(p) ? findLogFiles([p]).filter((f) => f.toLowerCase().endsWith(".jsonl")) : [p]
  );
  return mistakeRunsFrame(
    files.flatMap((p) => {
      let text: string;
      try {
        text = Deno.readTextFileSync(p);
      } catch (e) {
        throw new Error(`${p}: cannot read (${(e as Error).message})`);
      }
      return parseMistakeRuns(text, p);
    }),
  );
}
