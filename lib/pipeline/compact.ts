/**
 * Compact rows: the scored rows of the streaming path as columnar typed arrays plus small
 * string tables — no response text, a pointer to it instead. Scoring Workers fill a
 * {@link RowBuilder} and post its {@link CompactRows} with transferable buffers
 * ({@link rowBuffers}); the main thread concatenates them ({@link concatRows}) and turns them
 * into a polars frame (`compact_frame.ts`). Polars-free, so Workers can load it cheaply.
 *
 * Columns (one value per row): `file` (file id), `line` (1-based line or record number; a
 * Worker writes the line within its byte range and the main thread adds the range's first
 * line), text columns as ids into their string table (`run`, `model`, `benchmark`, `task`,
 * `extracted`, `scorer`, `tool_extracted`, `filter`, `data_version`, `ptr_member`; -1 =
 * null), `example` (0-based index), `epoch`, `input_chars` (Python `len` of the example's
 * input), `chars` (Python `len` of the response), `bytes`
 * (its UTF-8 length), `tokens` (-1: none), `correct`, `found` (the scorer found an answer)
 * and `stored` (1, 0, or -1 for null),
 * `run_from` (where the run came from, a {@link RUN_FROM} index: merge names runs by it; not
 * in the frame), and the pointer to the response: `ptr_kind` ({@link PTR_KINDS} index),
 * `ptr_offset`, `ptr_length`. Sparse text columns ({@link SPARSE_COLUMNS}: `example_id`,
 * `subset`, `extra`) exist only once a row holds a value: rows of benchmarks that carry none
 * (tied by position, no record fields) pay nothing for them, in memory or in the frame.
 *
 * @example
 * ```ts
 * const b = new RowBuilder();
 * b.add({ ...EMPTY_ROW, file: 0, line: 3, run: "r", model: "m", benchmark: "bbeh",
 *   task: "nycc", example: 7, correct: true, extracted: "(b)", scorer: "bbeh-official" });
 * const rows = b.finish();
 * rows.n; // 1
 * rows.strings.task[rows.int.task[0]]; // "nycc"
 * ```
 * @module
 */
import { type Pointer, PTR_KINDS } from "../logs/record.ts";

/** Text columns, each held as ids into a string table. */
export const TEXT_COLUMNS = [
  "run",
  "model",
  "benchmark",
  "task",
  "extracted",
  "scorer",
  "tool_extracted",
  "filter",
  "data_version",
  "ptr_member",
] as const;
/**
 * Text columns most loads leave empty (benchmarks tied by id, record fields): allocated when
 * a row first holds a value, absent from {@link CompactRows.sparse} otherwise (all null).
 */
export const SPARSE_COLUMNS = ["example_id", "subset", "extra"] as const;
/** Integer columns. */
export const INT_COLUMNS = [
  "file",
  "line",
  "example",
  "epoch",
  "input_chars",
  "chars",
  "bytes",
  "tokens",
] as const;
/** Small integer columns (1/0/-1, or a code). */
export const BYTE_COLUMNS = ["correct", "found", "stored", "ptr_kind", "run_from"] as const;
/**
 * Where a row's run came from: the record's `run` field (or its reader), its `model` field,
 * or its file's default run (`check.ts`).
 */
export const RUN_FROM = ["run", "model", "default"] as const;
/** One of {@link RUN_FROM}. */
export type RunFrom = (typeof RUN_FROM)[number];
/** Float64 columns (byte offsets can pass 2^31). */
export const FLOAT_COLUMNS = ["ptr_offset", "ptr_length"] as const;

type TextColumn = (typeof TEXT_COLUMNS)[number];
/** One of {@link SPARSE_COLUMNS}. */
export type SparseColumn = (typeof SPARSE_COLUMNS)[number];
type IntColumn = (typeof INT_COLUMNS)[number] | TextColumn;
type ByteColumn = (typeof BYTE_COLUMNS)[number];
type FloatColumn = (typeof FLOAT_COLUMNS)[number];

/** One row as a Worker hands it to {@link RowBuilder.add}. */
export interface CompactRow {
  file: number;
  line: number;
  run: string;
  /** Where the run came from (absent: the record's `run` field). */
  run_from?: RunFrom;
  model: string;
  benchmark: string;
  task: string;
  example: number;
  epoch: number;
  /** Python `len` of the example's input (of its data-set version). */
  input_chars: number;
  correct: boolean | null;
  /** Whether the scorer found an answer (`Verdict.found`). */
  found: boolean | null;
  extracted: string | null;
  scorer: string;
  chars: number;
  bytes: number;
  tokens: number | null;
  stored: boolean | null;
  tool_extracted: string | null;
  filter: string | null;
  data_version: string | null;
  pointer: Pointer | null;
  /** The record's own id (benchmarks tied by id); absent: null. */
  example_id?: string | null;
  /** A label of a part of the task (the record's, or the example's); absent: null. */
  subset?: string | null;
  /** What the row keeps outside the schema, as a JSON object (record fields); absent: null. */
  extra?: string | null;
}

/** A row with every field empty, to spread and override. */
export const EMPTY_ROW: CompactRow = {
  file: 0,
  line: 0,
  run: "",
  run_from: "run",
  model: "",
  benchmark: "",
  task: "",
  example: 0,
  epoch: 1,
  input_chars: 0,
  correct: null,
  found: null,
  extracted: null,
  scorer: "",
  chars: 0,
  bytes: 0,
  tokens: null,
  stored: null,
  tool_extracted: null,
  filter: null,
  data_version: null,
  pointer: null,
};

/** Rows as columns (see the module documentation). */
export interface CompactRows {
  n: number;
  int: Record<IntColumn, Int32Array>;
  byte: Record<ByteColumn, Int8Array>;
  float: Record<FloatColumn, Float64Array>;
  /** The sparse text columns some row holds a value of (ids; -1: null). */
  sparse: Partial<Record<SparseColumn, Int32Array>>;
  strings: Record<TextColumn | SparseColumn, string[]>;
}

/** A string → id table; ids in order of first appearance. */
export class Interner {
  readonly values: string[] = [];
  #ids = new Map<string, number>();
  // consecutive rows mostly repeat a value (run, model, task, scorer): skip the hash lookup
  #last: string | null = null;
  #lastId = -1;
  /** The id of `s` (-1 for null), adding it when new. */
  id(s: string | null): number {
    if (s === null) return -1;
    if (s === this.#last) return this.#lastId;
    this.#last = s;
    return this.#lastId = this.#lookup(s);
  }

  #lookup(s: string): number {
    let id = this.#ids.get(s);
    if (id === undefined) {
      id = this.values.length;
      this.values.push(s);
      this.#ids.set(s, id);
    }
    return id;
  }
}

const ALL_INT: readonly IntColumn[] = [...INT_COLUMNS, ...TEXT_COLUMNS];
const tri = (v: boolean | null) => v === null ? -1 : v ? 1 : 0;

/** Appends rows to growing typed arrays. */
export class RowBuilder {
  n = 0;
  // small at first: a folder of thousands of one-line logs makes thousands of builders
  #cap = 16;
  #int = alloc(ALL_INT, 16, Int32Array);
  #byte = alloc(BYTE_COLUMNS, 16, Int8Array);
  #float = alloc(FLOAT_COLUMNS, 16, Float64Array);
  #sparse: Partial<Record<SparseColumn, Int32Array>> = {};
  #strings = Object.fromEntries(
    [...TEXT_COLUMNS, ...SPARSE_COLUMNS].map((c) => [c, new Interner()]),
  ) as Record<TextColumn | SparseColumn, Interner>;

  /** Append one row. */
  add(row: CompactRow): void {
    if (this.n === this.#cap) this.#grow();
    const i = this.n++;
    const n = this.#int, s = this.#strings;
    n.file[i] = row.file;
    n.line[i] = row.line;
    n.example[i] = row.example;
    n.epoch[i] = row.epoch;
    n.input_chars[i] = row.input_chars;
    n.chars[i] = row.chars;
    n.bytes[i] = row.bytes;
    n.tokens[i] = row.tokens ?? -1;
    n.run[i] = s.run.id(row.run);
    n.model[i] = s.model.id(row.model);
    n.benchmark[i] = s.benchmark.id(row.benchmark);
    n.task[i] = s.task.id(row.task);
    n.extracted[i] = s.extracted.id(row.extracted);
    n.scorer[i] = s.scorer.id(row.scorer);
    n.tool_extracted[i] = s.tool_extracted.id(row.tool_extracted);
    n.filter[i] = s.filter.id(row.filter);
    n.data_version[i] = s.data_version.id(row.data_version);
    n.ptr_member[i] = s.ptr_member.id(row.pointer?.member ?? null);
    this.#byte.correct[i] = tri(row.correct);
    this.#byte.found[i] = tri(row.found);
    this.#byte.stored[i] = tri(row.stored);
    this.#byte.ptr_kind[i] = PTR_KINDS.indexOf(row.pointer?.kind ?? "none");
    this.#byte.run_from[i] = row.run_from === undefined ? 0 : RUN_FROM.indexOf(row.run_from);
    this.#float.ptr_offset[i] = row.pointer?.offset ?? -1;
    this.#float.ptr_length[i] = row.pointer?.length ?? 0;
    // most rows hold none: one test, no array
    if (row.example_id != null || row.subset != null || row.extra != null) this.#addSparse(i, row);
  }

  #addSparse(i: number, row: CompactRow): void {
    for (const c of SPARSE_COLUMNS) {
      const v = row[c] ?? null;
      if (v === null) continue;
      const col = this.#sparse[c] ??= new Int32Array(this.#cap).fill(-1);
      col[i] = this.#strings[c].id(v);
    }
  }

  #grow(): void {
    const was = this.#cap;
    this.#cap *= 2;
    this.#int = regrow(this.#int, this.#cap, Int32Array);
    this.#byte = regrow(this.#byte, this.#cap, Int8Array);
    this.#float = regrow(this.#float, this.#cap, Float64Array);
    const sparse = regrow(this.#sparse as Record<string, Int32Array>, this.#cap, Int32Array);
    for (const a of Object.values(sparse)) a.fill(-1, was);
    this.#sparse = sparse;
  }

  /** The rows so far, trimmed (the builder should not be used afterwards). */
  finish(): CompactRows {
    const n = this.n;
    const trim = <T extends Int32Array | Int8Array | Float64Array>(cols: Record<string, T>) =>
      Object.fromEntries(Object.entries(cols).map(([k, a]) => [k, a.slice(0, n)]));
    return {
      n,
      int: trim(this.#int) as CompactRows["int"],
      byte: trim(this.#byte) as CompactRows["byte"],
      float: trim(this.#float) as CompactRows["float"],
      sparse: trim(this.#sparse as Record<string, Int32Array>),
      strings: Object.fromEntries(
        [...TEXT_COLUMNS, ...SPARSE_COLUMNS].map((c) => [c, this.#strings[c].values]),
      ) as CompactRows["strings"],
    };
  }
}

/**
 * Row `i` of `rows` as a {@link CompactRow} (what {@link RowBuilder.add} was given).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const row = { ...EMPTY_ROW, run: "r", task: "nycc", extracted: null, correct: false, found: false,
 *   pointer: { kind: "span" as const, offset: 5, length: 9, member: null } };
 * const b = new RowBuilder();
 * b.add(row);
 * assert.deepEqual(rowAt(b.finish(), 0), row);
 * ```
 */
export function rowAt(rows: CompactRows, i: number): CompactRow {
  const text = (c: TextColumn) => {
    const id = rows.int[c][i];
    return id < 0 ? null : rows.strings[c][id];
  };
  const tri = (v: number) => v === -1 ? null : v === 1;
  const kind = PTR_KINDS[rows.byte.ptr_kind[i]];
  const n = rows.int;
  const sparse: Partial<Record<SparseColumn, string | null>> = {};
  for (const [c, ids] of Object.entries(rows.sparse) as [SparseColumn, Int32Array][]) {
    sparse[c] = ids[i] < 0 ? null : rows.strings[c][ids[i]];
  }
  return {
    file: n.file[i],
    line: n.line[i],
    run: text("run")!,
    run_from: RUN_FROM[rows.byte.run_from[i]],
    model: text("model")!,
    benchmark: text("benchmark")!,
    task: text("task")!,
    example: n.example[i],
    epoch: n.epoch[i],
    correct: tri(rows.byte.correct[i]),
    found: tri(rows.byte.found[i]),
    extracted: text("extracted"),
    scorer: text("scorer")!,
    input_chars: n.input_chars[i],
    chars: n.chars[i],
    bytes: n.bytes[i],
    tokens: n.tokens[i] === -1 ? null : n.tokens[i],
    stored: tri(rows.byte.stored[i]),
    tool_extracted: text("tool_extracted"),
    filter: text("filter"),
    data_version: text("data_version"),
    pointer: kind === "none" ? null : {
      kind,
      offset: rows.float.ptr_offset[i],
      length: rows.float.ptr_length[i],
      member: text("ptr_member"),
    },
    ...sparse,
  };
}

type ArrayType<T> = { new (n: number): T };

function alloc<K extends string, T>(keys: readonly K[], n: number, A: ArrayType<T>): Record<K, T> {
  return Object.fromEntries(keys.map((k) => [k, new A(n)])) as Record<K, T>;
}

function regrow<K extends string, T extends Int32Array | Int8Array | Float64Array>(
  cols: Record<K, T>,
  cap: number,
  A: ArrayType<T>,
): Record<K, T> {
  const out = {} as Record<K, T>;
  for (const k of Object.keys(cols) as K[]) {
    const a = new A(cap);
    a.set(cols[k]);
    out[k] = a;
  }
  return out;
}

/**
 * The buffers of `rows`, for `postMessage(rows, transfer)`.
 *
 * @example
 * ```ts
 * rowBuffers(new RowBuilder().finish()).length; // one per column
 * ```
 */
export function rowBuffers(rows: CompactRows): ArrayBuffer[] {
  return [rows.int, rows.byte, rows.float, rows.sparse].flatMap((cols) =>
    Object.values(cols).map((a) => (a as Int32Array).buffer as ArrayBuffer)
  );
}

/**
 * Free the buffers of `rows` now rather than at the next garbage collection, which a load of a
 * million rows reaches only after it has made its frame and cache (~70 MB of peak memory: the
 * Workers' rows, their concatenation and its copy without duplicates). The arrays are detached
 * (length 0): `rows` must not be read again.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const b = new RowBuilder();
 * b.add({ ...EMPTY_ROW, run: "r" });
 * const rows = b.finish();
 * assert.equal(rows.int.run.length, 1);
 * releaseRows(rows);
 * assert.equal(rows.int.run.length, 0);
 * ```
 */
export function releaseRows(rows: CompactRows): void {
  for (const b of rowBuffers(rows)) if (!b.detached) b.transfer(0);
}

/**
 * Concatenate row sets in order, merging their string tables (ids are remapped; each table
 * lists its strings in order of first appearance, so the result is deterministic).
 *
 * @example
 * ```ts
 * const a = new RowBuilder();
 * a.add({ ...EMPTY_ROW, run: "x" });
 * const b = new RowBuilder();
 * b.add({ ...EMPTY_ROW, run: "y" });
 * const both = concatRows([a.finish(), b.finish()]);
 * both.strings.run; // ["x", "y"]
 * ```
 */
export function concatRows(parts: readonly CompactRows[]): CompactRows {
  const n = parts.reduce((s, p) => s + p.n, 0);
  const out: CompactRows = {
    n,
    int: alloc(ALL_INT, n, Int32Array),
    byte: alloc(BYTE_COLUMNS, n, Int8Array),
    float: alloc(FLOAT_COLUMNS, n, Float64Array),
    sparse: {},
    strings: {} as CompactRows["strings"],
  };
  const tables = Object.fromEntries(
    [...TEXT_COLUMNS, ...SPARSE_COLUMNS].map((c) => [c, new Interner()]),
  ) as Record<TextColumn | SparseColumn, Interner>;
  for (const c of SPARSE_COLUMNS) {
    if (parts.some((p) => p.sparse[c])) out.sparse[c] = new Int32Array(n).fill(-1);
  }
  let at = 0;
  for (const p of parts) {
    for (const c of ALL_INT) out.int[c].set(p.int[c], at);
    for (const c of BYTE_COLUMNS) out.byte[c].set(p.byte[c], at);
    for (const c of FLOAT_COLUMNS) out.float[c].set(p.float[c], at);
    for (const c of TEXT_COLUMNS) {
      const map = p.strings[c].map((s) => tables[c].id(s));
      const col = out.int[c];
      for (let i = at; i < at + p.n; i++) if (col[i] >= 0) col[i] = map[col[i]];
    }
    for (const [c, ids] of Object.entries(p.sparse) as [SparseColumn, Int32Array][]) {
      const map = p.strings[c].map((s) => tables[c].id(s));
      const col = out.sparse[c]!;
      for (let i = 0; i < p.n; i++) if (ids[i] >= 0) col[at + i] = map[ids[i]];
    }
    at += p.n;
  }
  for (const c of [...TEXT_COLUMNS, ...SPARSE_COLUMNS]) out.strings[c] = tables[c].values;
  return out;
}

/**
 * The rows at `index` (in that order), e.g. to drop quarantined duplicates.
 *
 * @example
 * ```ts
 * const b = new RowBuilder();
 * for (const run of ["a", "b", "c"]) b.add({ ...EMPTY_ROW, run });
 * const kept = selectRows(b.finish(), [2, 0]);
 * [...kept.int.run].map((id) => kept.strings.run[id]); // ["c", "a"]
 * ```
 */
export function selectRows(rows: CompactRows, index: readonly number[]): CompactRows {
  const pick = <T extends Int32Array | Int8Array | Float64Array>(a: T): T => {
    const out = new (a.constructor as ArrayType<T>)(index.length);
    index.forEach((i, j) => (out[j] = a[i]));
    return out;
  };
  const map = <T extends Int32Array | Int8Array | Float64Array>(cols: Record<string, T>) =>
    Object.fromEntries(Object.entries(cols).map(([k, a]) => [k, pick(a)]));
  return {
    n: index.length,
    int: map(rows.int) as CompactRows["int"],
    byte: map(rows.byte) as CompactRows["byte"],
    float: map(rows.float) as CompactRows["float"],
    sparse: map(rows.sparse as Record<string, Int32Array>),
    strings: rows.strings,
  };
}

/**
 * The key of a row's (run, benchmark, task, example, epoch) — and its `example_id` when some
 * row has one (rows tied by id have example -1): one number when the ids fit in 53 bits (a Map
 * of numbers is many times faster than one of strings), else a string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const b = new RowBuilder();
 * for (const example of [3, 4, 3]) b.add({ ...EMPTY_ROW, run: "r", task: "nycc", example });
 * const key = rowKey(b.finish());
 * assert.deepEqual([key(0) === key(2), key(0) === key(1)], [true, false]);
 * ```
 */
export function rowKey(
  rows: CompactRows,
  sizes: readonly number[] = keySizes(rows),
): (i: number) => number | string {
  const n = rows.int;
  const ids = rows.sparse.example_id;
  if (sizes.reduce((p, s) => p * s, 1) > Number.MAX_SAFE_INTEGER) {
    return (i) =>
      `${n.run[i]}/${n.benchmark[i]}/${n.task[i]}/${n.example[i]}/${n.epoch[i]}/${ids?.[i]}`;
  }
  const [, b, t, x, e, d] = sizes;
  if (ids) {
    // example and id are -1 when absent: shifted by one
    return (i) =>
      ((((n.run[i] * b + n.benchmark[i]) * t + n.task[i]) * x + n.example[i] + 1) * d +
          ids[i] + 1) * e + n.epoch[i];
  }
  return (i) =>
    (((n.run[i] * b + n.benchmark[i]) * t + n.task[i]) * x + n.example[i]) * e + n.epoch[i];
}

/**
 * How many values each part of {@link rowKey} takes (run, benchmark, task, example, epoch, and
 * with ids the example shifted by one and the id).
 */
function keySizes(rows: CompactRows): number[] {
  const n = rows.int;
  const sizes = [n.run, n.benchmark, n.task, n.example, n.epoch].map((a) => largest(a) + 1);
  const ids = rows.sparse.example_id;
  if (!ids) return sizes;
  sizes[3] += 1;
  return [...sizes, largest(ids) + 2];
}

/** The largest value of `a`, at least 0 (a loop: `reduce` over a million rows took 9 ms an array). */
function largest(a: Int32Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) if (a[i] > m) m = a[i];
  return m;
}

/**
 * The first of the rows asked about with each {@link rowKey}: `seen(i)` gives the earlier row
 * with row i's key, or -1 (and remembers i). The packed keys index a table when there are at
 * most 4 a row (a million BBEH rows: 1.3 million keys), else a Map — hashing a million keys
 * was most of the merge.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const b = new RowBuilder();
 * for (const example of [3, 4, 3]) b.add({ ...EMPTY_ROW, run: "r", task: "nycc", example });
 * const seen = firstRows(b.finish());
 * assert.deepEqual([seen(0), seen(1), seen(2)], [-1, -1, 0]);
 * // keys too sparse for a table (a million examples, three rows): a Map, the same answers
 * const sparse = new RowBuilder();
 * for (const example of [3, 999_999, 3]) sparse.add({ ...EMPTY_ROW, run: "r", task: "nycc", example });
 * const seenSparse = firstRows(sparse.finish());
 * assert.deepEqual([seenSparse(0), seenSparse(1), seenSparse(2)], [-1, -1, 0]);
 * ```
 */
export function firstRows(rows: CompactRows): (i: number) => number {
  const sizes = keySizes(rows);
  const keyOf = rowKey(rows, sizes);
  const space = sizes.reduce((p, s) => p * s, 1);
  if (space <= Math.max(1 << 16, 4 * rows.n)) {
    const table = new Int32Array(space).fill(-1);
    return (i) => {
      const k = keyOf(i) as number;
      const was = table[k];
      if (was < 0) table[k] = i;
      return was;
    };
  }
  const first = new Map<number | string, number>();
  return (i) => {
    const k = keyOf(i);
    const was = first.get(k);
    if (was === undefined) first.set(k, i);
    return was ?? -1;
  };
}
