/**
 * Units of work of the streaming path and what a Worker returns for each. A line-format file
 * is cut into newline-aligned byte ranges (a range owns the lines that start in it), so one
 * big file keeps every Worker busy; a document (JSON, CSV, ZIP, gzip) is one unit. Small
 * units are grouped into tasks of about {@link TASK_BYTES} so that a folder of thousands of
 * small files costs few messages.
 *
 * @example
 * ```ts
 * const file = { id: 0, path: "a.jsonl", name: "a.jsonl", format: "jsonl", gzip: false,
 *   defaultRun: "a", size: 250 };
 * planUnits([file], (f) => f.format === "jsonl", 100).map((u) => [u.start, u.end]);
 * // [[0, 83], [83, 166], [166, 250]]
 * ```
 * @module
 */
import type { SourceFile } from "../logs/sources/types.ts";
import type { CompactRows, RunFrom } from "./compact.ts";

/** Largest byte range of a line-format file. */
export const RANGE_BYTES = 64 << 20;
/** Units are grouped into Worker tasks of about this many bytes. */
export const TASK_BYTES = 64 << 20;

/** One unit: a byte range of a line-format file, or a whole document. */
export interface WorkUnit {
  /** Position in the plan (results are merged in this order). */
  id: number;
  file: SourceFile;
  /** `range`: the lines starting in [start, end); `document`: the whole file. */
  kind: "range" | "document";
  start: number;
  end: number;
  /** Position of the range among its file's ranges (0 for documents). */
  part: number;
}

/** A quarantined record as a Worker reports it (line within its unit). */
export interface UnitQuarantine {
  line: number;
  reason: string;
  run: string;
  /** Where the run came from (absent: the record's `run` field or its reader). */
  runFrom?: RunFrom;
  /** The benchmark it was tied to or names (null: none). */
  benchmark: string | null;
  /** lm-eval lines: the filter and response key, so the main thread can choose a filter. */
  lmEval?: { filter: string; index: string; epoch: number } | null;
}

/**
 * A row whose example depends on rows of other units (identical inputs in file order). It is
 * scored already (every candidate has the same input and target); its verdict may be null,
 * which the main thread quarantines once it knows the example to name.
 */
export interface PendingRow {
  /** Its place among the unit's rows (`rows` of the pending row builder). */
  row: number;
  /** Rows with equal keys take the candidates in file order. */
  key: string;
  candidates: number[];
}

/** What a Worker returns for one unit. */
export interface UnitResult {
  id: number;
  rows: CompactRows;
  quarantine: UnitQuarantine[];
  /** Rows waiting for their example (identical inputs), held apart from `rows`. */
  pending: { rows: CompactRows; list: PendingRow[] };
  /** Lines the unit owns (ranges: to turn range lines into file lines). */
  lines: number;
  /** Records read: scored + quarantined + pending. */
  rowsIn: number;
  /** Records quarantined because their target differs from the data set's (merge refuses a file of mostly such). */
  targetDiffers: number;
  /** Records tied to an example whose target equals theirs only when case is ignored. */
  targetCase: number;
  /** The file could not be read at all (documents), with the reason. */
  error: string | null;
  /** Run → the model names its records carry (quarantined records too). */
  models: [string, string][];
  /** Which fields of a generic log were used, when they were detected. */
  fields: Record<string, string> | null;
}

/**
 * The units of `files`: byte ranges for line formats (`isLines`), one unit per document.
 *
 * @example
 * ```ts
 * const doc = { id: 1, path: "b.json", name: "b.json", format: "inspect-json", gzip: false,
 *   defaultRun: "b", size: 10 };
 * planUnits([doc], () => false)[0].kind; // "document"
 * ```
 */
export function planUnits(
  files: readonly SourceFile[],
  isLines: (file: SourceFile) => boolean,
  rangeBytes = RANGE_BYTES,
): WorkUnit[] {
  const units: WorkUnit[] = [];
  for (const file of files) {
    if (!isLines(file)) {
      units.push({ id: units.length, file, kind: "document", start: 0, end: file.size, part: 0 });
      continue;
    }
    const parts = Math.max(1, Math.ceil(file.size / rangeBytes));
    for (let part = 0; part < parts; part++) {
      const start = Math.floor((file.size * part) / parts);
      const end = Math.floor((file.size * (part + 1)) / parts);
      units.push({ id: units.length, file, kind: "range", start, end, part });
    }
  }
  return units;
}

/**
 * Group consecutive units into tasks of about `taskBytes`, so that many small files go to a
 * Worker together (units keep their order).
 *
 * @example
 * ```ts
 * const f = (id: number, size: number) =>
 *   ({ id, path: `${id}.jsonl`, name: "", format: "jsonl", gzip: false, defaultRun: "", size });
 * const units = planUnits([f(0, 10), f(1, 10), f(2, 500)], () => true);
 * groupUnits(units, 100).map((t) => t.length); // [2, 1]
 * ```
 */
export function groupUnits(units: readonly WorkUnit[], taskBytes = TASK_BYTES): WorkUnit[][] {
  const tasks: WorkUnit[][] = [];
  let current: WorkUnit[] = [];
  let bytes = 0;
  for (const u of units) {
    const size = u.end - u.start;
    if (current.length > 0 && bytes + size > taskBytes) {
      tasks.push(current);
      current = [];
      bytes = 0;
    }
    current.push(u);
    bytes += size;
  }
  if (current.length > 0) tasks.push(current);
  return tasks;
}
