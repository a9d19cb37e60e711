/**
 * Load mistake-finding run logs: JSONL, one model answer per line.
 *
 * Fields per line: `task`; `trace_index` (0-based BBM trace) or, for BBEH runs of
 * dyck_languages / word_sorting, `example_index` (0-based BBEH position); `response` (the raw
 * answer, string or null); optional `model` and `run`. Blank lines are skipped; a malformed
 * line is quarantined with its file, 1-based line and the reason (never thrown).
 *
 * Columns: `run` (the line's `run`, else the file name without extension), `model` (the line's
 * `model`, else the run), `task`, `trace_index`, `example_index` (one of the two is null when
 * the line lacks it), `response`, `source_file`, `source_line`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadMistakeRuns } from "@runlens/benchmarks/bbm/runs.ts";
 * const { rows, quarantine } = loadMistakeRuns(["tests/fixtures/bbm/runs/toy_run.jsonl"]);
 * assert.equal(rows.height, 8); // 9 lines, one blank
 * assert.equal(quarantine.length, 0);
 * assert.equal(rows.getColumn("run").get(0), "toy_run"); // the file name
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { basename, extname } from "node:path";
import { filesOf } from "../../logs/discover.ts";
import { intSeries, strSeries } from "./columns.ts";
import { parseJsonObjectLine } from "../../core/json_line.ts";
import type { QuarantineEntry } from "../../logs/quarantine.ts";

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

/** A line that is not a valid mistake-finding answer: its reason (file and line are added). */
class BadLine extends Error {}

function index(v: unknown, name: string): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0) {
    throw new BadLine(`"${name}" must be a non-negative integer`);
  }
  return v;
}

/** Mistake-finding answers read from a log, and the lines set apart. */
export interface MistakeRuns<Rows> {
  rows: Rows;
  /** Malformed lines: file, 1-based line, reason. */
  quarantine: QuarantineEntry[];
}

/**
 * Parse the lines of one log; `file` names it in quarantine entries and gives the default run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const line = '{"task":"word_sorting","trace_index":3,"response":"No"}';
 * const ok = parseMistakeRuns(line, "a.jsonl");
 * assert.equal(ok.rows[0].run, "a");
 * const bad = parseMistakeRuns('{oops\n{"task":"t","response":"No"}', "a.jsonl");
 * assert.equal(bad.rows.length, 0);
 * assert.match(bad.quarantine[0].reason, /^not valid JSON \(/);
 * assert.deepEqual(bad.quarantine[1], {
 *   file: "a.jsonl",
 *   line: 2,
 *   reason: 'needs "trace_index" (BBM) or "example_index" (BBEH)',
 * });
 * ```
 */
export function parseMistakeRuns(text: string, file: string): MistakeRuns<MistakeRunRow[]> {
  const defaultRun = basename(file, extname(file));
  const out: MistakeRuns<MistakeRunRow[]> = { rows: [], quarantine: [] };
  text.split("\n").forEach((raw, i) => {
    const line = raw.trim();
    if (line === "") return;
    try {
      out.rows.push({ ...parseAnswer(line, defaultRun), source_file: file, source_line: i + 1 });
    } catch (e) {
      const reason = (e as Error).message.replace(/^line: /, "");
      out.quarantine.push({ file, line: i + 1, reason });
    }
  });
  return out;
}

/** One answer line; throws {@link BadLine} (or a JSON error) with the reason. */
function parseAnswer(
  line: string,
  defaultRun: string,
): Omit<MistakeRunRow, "source_file" | "source_line"> {
  const r = parseJsonObjectLine(line, "line");
  if (typeof r.task !== "string" || r.task === "") {
    throw new BadLine(`"task" must be a non-empty string`);
  }
  const trace = index(r.trace_index, "trace_index");
  const example = index(r.example_index, "example_index");
  if (trace === null && example === null) {
    throw new BadLine(`needs "trace_index" (BBM) or "example_index" (BBEH)`);
  }
  if (!("response" in r) || (r.response !== null && typeof r.response !== "string")) {
    throw new BadLine(`"response" must be a string (or null)`);
  }
  for (const k of ["model", "run"]) {
    if (r[k] !== undefined && r[k] !== null && typeof r[k] !== "string") {
      throw new BadLine(`"${k}" must be a string`);
    }
  }
  const run = (r.run as string | undefined) || defaultRun;
  return {
    run,
    model: (r.model as string | undefined) || run,
    task: r.task,
    trace_index: trace,
    example_index: example,
    response: r.response as string | null,
  };
}

/**
 * The frame of parsed run rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const { rows } = parseMistakeRuns('{"task":"t","trace_index":0,"response":"No"}', "r.jsonl");
 * const df = mistakeRunsFrame(rows);
 * assert.equal(df.height, 1);
 * assert.deepEqual(df.getColumn("example_index").toArray(), [null]);
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
 * import assert from "node:assert/strict";
 * const { rows } = loadMistakeRuns(["tests/fixtures/bbm/runs"]); // a folder: its *.jsonl files
 * assert.equal(rows.height, 8);
 * const pairs = rows.select("run", "model").unique().sort("model").toRecords();
 * assert.deepEqual(pairs, [
 *   { run: "toy_run", model: "m1" },
 *   { run: "toy_run", model: "toy_run" }, // a line without "model": the run id
 * ]);
 * ```
 */
export function loadMistakeRuns(paths: readonly string[]): MistakeRuns<pl.DataFrame> {
  const files = filesOf(paths, [".jsonl"]);
  const parsed = files.map((p) => {
    let text: string;
    try {
      text = Deno.readTextFileSync(p);
    } catch (e) {
      throw new Error(`${p}: cannot read (${(e as Error).message})`);
    }
    return parseMistakeRuns(text, p);
  });
  return {
    rows: mistakeRunsFrame(parsed.flatMap((p) => p.rows)),
    quarantine: parsed.flatMap((p) => p.quarantine),
  };
}
