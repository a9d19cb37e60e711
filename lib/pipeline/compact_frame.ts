/**
 * Compact rows as a nodejs-polars DataFrame: the row schema without the texts (`input`,
 * `target`, `response`, `extra` are read on demand; responses by `responses.ts`), plus where
 * each response is (`ptr_kind`, `ptr_offset`, `ptr_length`, `ptr_member`) and the lm-eval
 * filter and data-set version of each row. Text columns are gathered natively from the string
 * tables (no JavaScript loop over the rows).
 *
 * Columns: `run`, `model`, `benchmark`, `task` (Utf8), `example_index`, `epoch`,
 * `input_chars` (Int32),
 * `extracted` (Utf8), `correct`, `answer_found` (Boolean), `scorer` (Utf8), `response_chars`,
 * `response_bytes`, `response_tokens` (Int32, null: none), `source_file` (Utf8),
 * `source_line` (Int32), `stored_correct` (Boolean, null: none), `tool_extracted`,
 * `lm_eval_filter` (not `filter`: a polars frame exposes its columns as properties),
 * `data_version` (Utf8), `ptr_kind` (Utf8), `ptr_offset`, `ptr_length` (Float64), `ptr_member`
 * (Utf8), `example_id`, `subset`, `extra` (Utf8; one null literal each when no row holds one,
 * as in loads of benchmarks tied by position). Rows tied by id have a null `example_index`.
 *
 * @example
 * ```ts
 * import { EMPTY_ROW, RowBuilder } from "@runlens/pipeline/compact.ts";
 * const b = new RowBuilder();
 * b.add({ ...EMPTY_ROW, run: "r", model: "m", benchmark: "bbeh", task: "nycc", example: 3,
 *   correct: true, extracted: "(a)", scorer: "bbeh-official", chars: 12, bytes: 12 });
 * const df = compactFrame(b.finish(), ["runs/r.jsonl"]);
 * df.getColumn("task").get(0); // "nycc"
 * df.getColumn("source_file").get(0); // "runs/r.jsonl"
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { PTR_KINDS } from "../logs/record.ts";
import { type CompactRows, releaseRows, RowBuilder, SPARSE_COLUMNS } from "./compact.ts";

let columnsOfCompact: readonly string[] | null = null;

/**
 * The columns of every {@link compactFrame}, in order (a cache entry without one of them was
 * written by other code: a miss, not rows to use).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const columns = compactColumns();
 * assert.deepEqual(columns.slice(7, 10), ["extracted", "correct", "answer_found"]);
 * ```
 */
export function compactColumns(): readonly string[] {
  columnsOfCompact ??= compactFrame(new RowBuilder().finish(), []).columns;
  return columnsOfCompact;
}

/** A text column: ids into its table (-1: null; no ids: null in every row). */
type TextIds = [name: string, ids: Int32Array | null, table: readonly string[]];

/** A Utf8 column from ids into `table` (-1: null), gathered natively from the table. */
function fromIds(name: string, ids: Int32Array, table: readonly string[]): pl.Series {
  const index = pl.DataFrame([pl.Series("__id", ids, pl.Int32)]).select(
    pl.when(pl.col("__id").eq(-1)).then(pl.lit(null)).otherwise(pl.col("__id"))
      .cast(pl.UInt32).alias("__id"),
  ).getColumn("__id");
  return pl.DataFrame([pl.Series(name, [...table], pl.Utf8)])
    .select(pl.col(name).gather(index)).getColumn(name);
}

/** The id of every row when all rows have the same one (-1: all null), else undefined. */
function sameId(ids: Int32Array): number | undefined {
  const first = ids[0];
  for (let i = 1; i < ids.length; i++) if (ids[i] !== first) return undefined;
  return first;
}

/**
 * A text column whose rows all hold one value (or none) as a literal: polars keeps it as one
 * value until an operation needs every row, where a gathered column costs 25–40 bytes a row
 * (measured: 2M rows, +50–80 MB each). A canonical log's `benchmark`, `scorer`, `ptr_kind`
 * and its null lm-eval and inspect columns are such columns.
 */
function constantText([name, ids, table]: TextIds): pl.Expr | null {
  if (ids === null) return textLiteral(name, null);
  const id = ids.length === 0 ? undefined : sameId(ids);
  if (id === undefined) return null;
  return textLiteral(name, id === -1 ? null : table[id]);
}

/** The Utf8 column `name` holding `value` (null: no value) in every row of a frame. */
export function textLiteral(name: string, value: string | null): pl.Expr {
  return pl.lit(value).cast(pl.Utf8).alias(name);
}

/** 1/0/-1 → Boolean with nulls. */
function triBool(name: string): pl.Expr {
  return pl.when(pl.col(name).eq(-1)).then(pl.lit(null).cast(pl.Bool))
    .otherwise(pl.col(name).eq(1)).alias(name);
}

/**
 * The frame of compact rows whose `file` ids index `files` (paths). With `release`, each of
 * the rows' arrays is freed as soon as polars holds its copy, and `rows` must not be read
 * again: the rows and the frame are then never both whole in memory.
 */
export function compactFrame(
  rows: CompactRows,
  files: readonly string[],
  options: { release?: boolean } = {},
): pl.DataFrame {
  const n = rows.int, s = rows.strings;
  const copied = (a: Int32Array | Int8Array | Float64Array) => {
    const buffer = a.buffer as ArrayBuffer;
    if (options.release && !buffer.detached) buffer.transfer(0);
  };
  const num = (name: string, a: Int32Array | Int8Array | Float64Array, type: pl.DataType) => {
    const series = pl.Series(name, a as unknown as number[], type);
    copied(a);
    return series;
  };
  const text = (
    name: string,
    ids: Int32Array | null,
    table: readonly string[],
  ): TextIds => [name, ids, table];
  const columns: (pl.Series | TextIds)[] = [
    text("run", n.run, s.run),
    text("model", n.model, s.model),
    text("benchmark", n.benchmark, s.benchmark),
    text("task", n.task, s.task),
    num("example_index", n.example, pl.Int32),
    num("epoch", n.epoch, pl.Int32),
    num("input_chars", n.input_chars, pl.Int32),
    text("extracted", n.extracted, s.extracted),
    num("correct", rows.byte.correct, pl.Int8),
    num("answer_found", rows.byte.found, pl.Int8),
    text("scorer", n.scorer, s.scorer),
    num("response_chars", n.chars, pl.Int32),
    num("response_bytes", n.bytes, pl.Int32),
    num("response_tokens", n.tokens, pl.Int32),
    text("source_file", n.file, files),
    num("source_line", n.line, pl.Int32),
    num("stored_correct", rows.byte.stored, pl.Int8),
    text("tool_extracted", n.tool_extracted, s.tool_extracted),
    text("lm_eval_filter", n.filter, s.filter),
    text("data_version", n.data_version, s.data_version),
    text("ptr_kind", Int32Array.from(rows.byte.ptr_kind), PTR_KINDS),
    num("ptr_offset", rows.float.ptr_offset, pl.Float64),
    num("ptr_length", rows.float.ptr_length, pl.Float64),
    text("ptr_member", n.ptr_member, s.ptr_member),
    // absent: no row holds one (a one-value column, i.e. a null literal)
    ...SPARSE_COLUMNS.map((c) => text(c, rows.sparse[c] ?? null, s[c])),
  ];
  const constants: pl.Expr[] = [];
  const series: pl.Series[] = [];
  for (const c of columns) {
    if (!Array.isArray(c)) series.push(c);
    else {
      const lit = constantText(c);
      if (lit) constants.push(lit);
      else series.push(fromIds(c[0], c[1]!, c[2]));
      if (c[1]) copied(c[1]);
    }
  }
  if (options.release) releaseRows(rows); // what no column took (the byte ptr_kind)
  // rows tied by id have no position (-1); only loads with ids pay for the test
  const byId = rows.sparse.example_id
    ? [
      pl.when(pl.col("example_index").eq(-1)).then(pl.lit(null).cast(pl.Int32))
        .otherwise(pl.col("example_index")).alias("example_index"),
    ]
    : [];
  return pl.DataFrame(series).withColumns(
    ...byId,
    ...constants,
    triBool("correct"),
    triBool("answer_found"),
    triBool("stored_correct"),
    pl.when(pl.col("response_tokens").eq(-1)).then(pl.lit(null).cast(pl.Int32))
      .otherwise(pl.col("response_tokens")).alias("response_tokens"),
  ).select(...columns.map((c) => Array.isArray(c) ? c[0] : c.name));
}
