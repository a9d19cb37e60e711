/**
 * The contract between the streaming path's scoring Workers and the format readers
 * ("sources"): a source turns one file — or, for line formats, one newline-aligned byte range
 * of it — into {@link LogRecord}s and {@link BadRecord}s, handed to a {@link RecordSink}.
 * Sources never throw for a bad record; a file that cannot be read at all throws a
 * {@link FileError} naming it (the Worker turns it into an `errors` entry, the other files go
 * on). Sources are polars-free: Workers load them.
 *
 * @example
 * ```ts
 * const seen: LogRecord[] = [];
 * const sink: RecordSink = { record: (r) => seen.push(r), bad: () => {} };
 * sink.record({ line: 1, task: "nycc", example_index: 0, response: "x" });
 * seen.length; // 1
 * ```
 * @module
 */
import type { BadRecord, LogRecord } from "../record.ts";
import type { SourceLimits } from "../../codecs/errors.ts";

// the byte layer's error and limits: every source speaks them
export { FileError, type SourceLimits } from "../../codecs/errors.ts";

export type { BadRecord, LogRecord };

/** Receives what a source reads, in file order. */
export interface RecordSink {
  record(r: LogRecord): void;
  bad(b: BadRecord): void;
  /**
   * True when the sink keeps no reference to a record's spans once `record` returns: a line
   * reader may then refill one buffer in place instead of allocating a new one per chunk (the
   * churn of 4 MB buffers otherwise grows the resident memory by about the file's size).
   */
  readonly transient?: boolean;
}

/**
 * The records of a JSON-lines or CSV file as whole objects — every field, not only the
 * canonical ones — and the records that could not be read, for readers of a benchmark's own
 * log format (ARB): `readJsonlObjects` (`jsonl.ts`), `readCsvObjects` (`csv.ts`).
 */
export interface ObjectRecords {
  /**
   * The records read, in file order: the 1-based line and the object (CSV: the cells by
   * column name, an empty unquoted cell null).
   */
  records: { line: number; value: Record<string, unknown> }[];
  /** The records that are not objects or cannot be read, with the reason the sources give. */
  bad: BadRecord[];
}

/**
 * How the fields of a generic JSON-lines or CSV log map to the canonical fields: for each
 * canonical field, the key (a dotted path into the record) or the column it comes from, and
 * for chat transcripts the key of the message list. Decided per file from its first records
 * (`fields` in `runlens score --json` reports it).
 */
export interface FieldMapping {
  /** Canonical field → the record's key (JSONL: dotted path) or 0-based CSV column. */
  fields: Partial<Record<string, string | number>>;
  /** The key of a chat transcript (a list of `{role, content}`), when the log has one. */
  chat?: string | null;
  /** Constants (`--map task==nycc`). */
  constants?: Partial<Record<string, string>>;
  /** Benchmarks' record fields `--map` names (read as {@link SourceFile.record} says). */
  record?: readonly RecordSource[];
}

/** Where one of a benchmark's record fields comes from in a file ({@link SourceFile.record}). */
export interface RecordSource {
  /** Where it goes: `example_id`, `subset`, or the record field's name (`LogRecord.fields`). */
  slot: string;
  /** Its key (JSONL: a dotted path) or CSV column, or its 0-based position. */
  key?: string | number;
  /** A literal value for every record (`--map level==3`). */
  value?: string;
  /** Named by `--map`: a CSV without the column is an error (else it is read when present). */
  mapped?: boolean;
}

/** How a record's `model` field names its run (see {@link SourceFile.runFromModel}). */
export type ModelRuns = "auto" | "field";

/** What a source needs to know about its file; computed on the main thread. */
export interface SourceFile {
  /** The file's position in the load (compact rows refer to it). */
  id: number;
  /** The path as the user named it (quarantine entries and errors use it). */
  path: string;
  /** The log's own name: the path without `.gz` (file-name conventions apply to it). */
  name: string;
  /** The reader. */
  format: string;
  /** Gzip data (by its magic bytes). */
  gzip: boolean;
  /** The run of records that name none. */
  defaultRun: string;
  /**
   * Records without a `run` field take their `model` as the run: `auto` (generic logs by
   * default; files of one model that repeat examples are kept apart at merge,
   * `pipeline/run_names.ts`) or `field` (`--run-by field`: one run per model, always).
   */
  runFromModel?: ModelRuns | null;
  /** The model of records that name none (e.g. an lm-eval results file's model_name). */
  defaultModel?: string | null;
  /** A task (and benchmark) read from the file or folder name, when it holds exactly one. */
  taskHint?: { benchmark: string | null; task: string } | null;
  /** The field mapping of generic logs (detected, or `--map`). */
  fields?: FieldMapping | null;
  /**
   * `--map` literals (`benchmark==bbh`) laid over the records of a log whose format names its
   * own fields (inspect, lm-eval, …): a custom task name is no benchmark runlens knows.
   */
  literals?: Partial<Record<string, string>> | null;
  /** A CSV file's field separator, when discovery found another than `,` (`;`, a tab). */
  separator?: "," | ";" | "\t";
  /**
   * Why the file is not read, decided before reading (its rows cannot choose its columns:
   * `pipeline/field_choice.ts`); the file is then an error with this reason.
   */
  refused?: string | null;
  /** The fields were chosen by the rows' content (`pipeline/field_choice.ts`), not by names. */
  fieldsByContent?: boolean;
  /** Added to the reason of its records quarantined as `missing …`: fields seen, a `--map`. */
  fieldsHint?: string | null;
  /** The planned benchmarks' record fields this file's records carry (generic logs). */
  record?: readonly RecordSource[] | null;
  /** The benchmark its records are, by the record fields its first records carry. */
  benchmarkHint?: string | null;
  /** Bytes on disk. */
  size: number;
}

/** A line format: reads the lines that start in `[start, end)` of the file. */
export interface LineSource {
  kind: "lines";
  /** Reads the range; returns the lines it owns and whether the last has no final newline. */
  readRange(
    file: SourceFile,
    start: number,
    end: number,
    sink: RecordSink,
    limits: SourceLimits,
  ): { lines: number; unterminatedLast: boolean };
}

/**
 * A document format: reads the whole file (one Worker).
 *
 * @internal how the pipeline reads a registered format; see docs/adding_a_benchmark.md.
 */
export interface DocumentSource {
  kind: "document";
  /** Reads every record; throws {@link FileError} when the file cannot be read. */
  read(file: SourceFile, sink: RecordSink, limits: SourceLimits): void;
}

/** A reader of one format. */
export type Source = LineSource | DocumentSource;
