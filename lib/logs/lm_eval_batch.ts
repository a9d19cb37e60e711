/**
 * Read many lm-evaluation-harness samples files as one raw frame. lm-eval writes one file per
 * task (BBEH: 23 files of ~200 lines per run), so per-file work would dominate a big load:
 * here the lines of consecutive small files (together up to ~64 MB) are parsed by ONE polars
 * call and converted by one set of expressions ({@link sampleFields}, {@link rawSamples}). A
 * file that cannot join a batch — bigger than a batch, one JSON array (≤ v0.4.2), a byte order
 * mark, odd blank lines — and every file of a batch polars refuses or that has another shape
 * (multiple choice, repeats, different `metrics`) is read on its own by
 * {@link readLmEvalLog}, which finds and names bad lines. Rows keep file order; the frame has a
 * `source_file` column and bad lines name their file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readLmEvalFiles } from "@runlens/logs/lm_eval_batch.ts";
 * const dir = "tests/fixtures/logs/bbh/lm_eval/org__tiny-model";
 * const file = `${dir}/samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.622918.jsonl`;
 * const { raw, files } = readLmEvalFiles([file]);
 * assert.deepEqual([raw.frame.height, files[0].rowsIn], [5, 5]);
 * assert.ok(raw.frame.columns.includes("source_file")); // rows of several files
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { decodeLine, linesAreObjects, recordBytes, scanBlock } from "./lines.ts";
import { lmEvalFileContext, readLmEvalLog } from "./lm_eval.ts";
import {
  contextFrame,
  countFilters,
  type LmEvalFileContext,
  parseSampleLines,
  rawSamples,
  sampleFields,
  VERDICT_FALLBACK_METRICS,
} from "./lm_eval_block.ts";
import { frameFromRecords, type RawLog } from "./raw.ts";

/** Bytes of sample lines parsed together. */
export const LM_EVAL_BATCH_BYTES = 64 * 1024 * 1024;

/** One file of a batch: its line numbers, context, line shape and bytes in the batch. */
interface Member {
  file: string;
  lines: number[];
  context: LmEvalFileContext;
  /** {@link lineShape} of its first line: only files of one shape share a parse. */
  shape: string;
  /** Bytes its record lines take in the batch buffer. */
  length: number;
}

/** The JSON kind of a value: null, string, number, boolean, array or object. */
const kindOf = (v: unknown) => v === null ? "null" : Array.isArray(v) ? "array" : typeof v;

/**
 * The kinds of the fields runlens reads from a sample line (doc_id, target, doc.input,
 * doc.target, filter, resps[0][0], filtered_resps and its first item, the metrics and their
 * values), as a string; null when the line does not parse. Files whose lines differ in these
 * would have their values unified to one type by a shared polars parse (a list target written
 * as text, a number as polars prints it), so they are parsed apart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const a = lineShape('{"doc_id": 0, "target": "(A)", "resps": [["x"]]}');
 * const b = lineShape('{"doc_id": 1, "target": "(B)", "resps": [["y"]]}');
 * const c = lineShape('{"doc_id": 2, "target": ["(C)"], "resps": [["z"]]}'); // a list target
 * assert.ok(a === b && a !== c); // only a and b share a polars parse
 * assert.equal(lineShape("{"), null);
 * ```
 */
export function lineShape(line: string): string | null {
  let s: Record<string, unknown>;
  try {
    s = JSON.parse(line);
  } catch {
    return null;
  }
  if (kindOf(s) !== "object") return null;
  const doc = (kindOf(s.doc) === "object" ? s.doc : {}) as Record<string, unknown>;
  const resps = Array.isArray(s.resps) ? s.resps : [];
  const filtered = s.filtered_resps;
  const metrics = Array.isArray(s.metrics) ? s.metrics.map(String) : [];
  return JSON.stringify([
    kindOf(s.doc_id),
    kindOf(s.target),
    kindOf(s.doc),
    kindOf(doc.input),
    kindOf(doc.target),
    kindOf(s.filter),
    kindOf(Array.isArray(resps[0]) ? resps[0][0] : resps[0]),
    kindOf(filtered),
    kindOf(Array.isArray(filtered) ? filtered[0] : undefined),
    metrics,
    [...metrics, ...VERDICT_FALLBACK_METRICS].map((m) => kindOf(s[m])),
  ]);
}

/** Progress callbacks and the batch size of {@link readLmEvalFiles}. */
export interface ReadLmEvalFilesOptions {
  /** Called as each file is taken up. */
  onFile?: (file: string) => void;
  /** Called with the number of rows of each batch (or lone file) once read. */
  onRows?: (rows: number) => void;
  /** Bytes of sample lines parsed together (default {@link LM_EVAL_BATCH_BYTES}). */
  batchBytes?: number;
}

/** What {@link readLmEvalFiles} read. */
export interface LmEvalFiles {
  /** All records (with `source_file`) and bad lines (with `file`) of the files, in file order. */
  raw: RawLog;
  /** Per file: records in it (rows + bad lines). */
  files: { file: string; rowsIn: number }[];
}

/**
 * Read lm-eval samples files (see the module doc). Throws, naming the file, when a file cannot
 * be read or is not a samples file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = "tests/fixtures/logs/bbh/lm_eval/org__tiny-model";
 * const paths = [`${dir}/samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.622918.jsonl`];
 * const seen: string[] = [];
 * const read = readLmEvalFiles(paths, { onFile: (file) => seen.push(file) });
 * assert.deepEqual(read.files.map((f) => f.rowsIn), [5]);
 * assert.deepEqual(seen, paths);
 * ```
 */
export function readLmEvalFiles(
  paths: readonly string[],
  options: ReadLmEvalFilesOptions = {},
): LmEvalFiles {
  const { onFile = () => {}, onRows = () => {}, batchBytes = LM_EVAL_BATCH_BYTES } = options;
  const frames: pl.DataFrame[] = [];
  const bad: RawLog["bad"] = [];
  const files: LmEvalFiles["files"] = [];
  const sizes = paths.map((file) => named(file, () => Deno.statSync(file).size));
  const space = new BatchSpace(
    Math.min(batchBytes, sizes.reduce((a, b) => a + b, 0)) + 1,
  );
  let batch: Member[] = [];
  const alone = (file: string) => {
    const raw = named(file, () => readLmEvalLog(file));
    if (raw.frame.height > 0) frames.push(withFile(raw.frame, file));
    onRows(raw.frame.height);
    for (const b of raw.bad) bad.push({ ...b, file });
    files.push({ file, rowsIn: raw.rowsIn });
  };
  const flush = () => {
    let frame: pl.DataFrame | null = null;
    try {
      frame = batch.length > 0 ? batchFrame(batch, space.bytes()) : null;
    } catch {
      frame = null; // anything polars or the conversion refuses: each file on its own
    }
    if (frame) {
      frames.push(frame);
      onRows(frame.height);
      for (const m of batch) files.push({ file: m.file, rowsIn: m.lines.length });
    } else for (const m of batch) alone(m.file);
    batch = [];
    space.clear();
  };
  for (const [i, file] of paths.entries()) {
    onFile(file);
    if (sizes[i] > batchBytes) {
      flush();
      alone(file);
      continue;
    }
    if (!space.fits(sizes[i])) flush();
    let member = named(file, () => space.add(file, sizes[i]));
    if (member && batch.length > 0 && member.shape !== batch[0].shape) {
      // another shape of line (e.g. list targets): a shared parse would unify the types
      flush();
      member = named(file, () => space.add(file, sizes[i]));
    }
    if (!member) {
      flush();
      alone(file);
      continue;
    }
    space.keep(member);
    batch.push(member);
  }
  flush();
  const frame = frames.length > 0
    ? pl.concat(frames, { how: "vertical" })
    : withFile(frameFromRecords([], []), "");
  return { raw: { frame, bad, rowsIn: files.reduce((s, f) => s + f.rowsIn, 0) }, files };
}

/**
 * One buffer holding the record lines of a batch's files back to back, each file read straight
 * into it (no per-file copies for clean files).
 */
class BatchSpace {
  #buffer: Uint8Array;
  #used = 0;

  constructor(capacity: number) {
    this.#buffer = new Uint8Array(capacity);
  }

  /** Room for a file of `size` bytes (plus a closing line break). */
  fits(size: number): boolean {
    return this.#used + size + 1 <= this.#buffer.length;
  }

  /**
   * Read the file into the free space and lay out its record lines there (kept only by
   * {@link keep}); null when it must be read on its own: empty, not JSON lines (an array), a
   * byte order mark, odd blanks, bytes that are not UTF-8, a line that is not an object.
   */
  add(file: string, size: number): Member | null {
    const view = this.#buffer.subarray(this.#used, this.#used + size);
    const handle = Deno.openSync(file, { read: true });
    try {
      let got = 0;
      while (got < size) {
        const n = handle.readSync(view.subarray(got));
        if (n === null || n === 0) break;
        got += n;
      }
      if (got !== size) return null; // changed while read: read on its own
    } finally {
      handle.close();
    }
    let first = 0;
    while (first < size && [0x20, 0x09, 0x0a, 0x0d].includes(view[first])) first++;
    if (first === size || view[first] !== 0x7b) return null; // empty, an array, a BOM, …
    const block = scanBlock(view, 1);
    if (block.oddBlank || block.badUtf8.size > 0 || block.lines.length === 0) return null;
    if (!linesAreObjects(block)) return null;
    const shape = lineShape(decodeLine(view.subarray(block.starts[0], block.ends[0])));
    if (shape === null) return null;
    const records = recordBytes(block);
    if (records.byteOffset !== view.byteOffset || records.buffer !== view.buffer) {
      this.#buffer.set(records, this.#used); // trimmed copy: never longer than size + 1
    }
    let length = records.length;
    if (this.#buffer[this.#used + length - 1] !== 0x0a) this.#buffer[this.#used + length++] = 0x0a;
    return { file, lines: block.lines, context: lmEvalFileContext(file), shape, length };
  }

  /** Keep the bytes {@link add} laid out for `member` in the batch. */
  keep(member: Member): void {
    this.#used += member.length;
  }

  /** The batch's bytes (valid until {@link clear}). */
  bytes(): Buffer {
    return Buffer.from(this.#buffer.buffer, this.#buffer.byteOffset, this.#used);
  }

  clear(): void {
    this.#used = 0;
  }
}

/** Run `fn`, prefixing an error's message with the file (as `readRunLog` does). */
function named<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    const message = (e as Error).message;
    throw new Error(message.startsWith(`${file}:`) ? message : `${file}: lm-eval log: ${message}`);
  }
}

/** One polars parse and conversion of the members' lines; null when they need the slow path. */
function batchFrame(members: readonly Member[], bytes: Buffer): pl.DataFrame | null {
  const rows = members.reduce((s, m) => s + m.lines.length, 0);
  const df = parseSampleLines(bytes, rows);
  const fields = df && sampleFields(df, bytes);
  if (!fields) return null;
  const ids = fields.getColumn("example_index").toArray() as (string | null)[];
  const filterIndex: number[] = [];
  const namedFilter: (string | null)[] = [];
  const lines: number[] = [];
  const sources: string[] = [];
  let at = 0;
  for (const m of members) {
    const n = m.lines.length;
    const index = countFilters(ids.slice(at, at + n).map(String), new Map());
    for (let j = 0; j < n; j++) {
      filterIndex.push(index[j]);
      namedFilter.push(m.context.filterNames[index[j]] ?? null);
      lines.push(m.lines[j]);
      sources.push(m.file);
    }
    at += n;
  }
  const context = contextFrame(
    members.map((m) => ({ context: m.context, rows: m.lines.length })),
  );
  return withFile(rawSamples(fields, context, filterIndex, namedFilter, lines), sources);
}

/** The frame with `source_file`: one name for every row, or one per row. */
function withFile(frame: pl.DataFrame, file: string | string[]): pl.DataFrame {
  return frame.withColumns(
    typeof file === "string"
      ? pl.lit(file).cast(pl.Utf8).alias("source_file")
      : pl.Series("source_file", file, pl.Utf8),
  );
}
