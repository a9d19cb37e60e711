/**
 * The fast path of the lm-evaluation-harness samples reader: JSON lines parsed by polars and
 * turned into the raw form ({@link RawLog}) with polars expressions only, so big logs never
 * pass their text through JavaScript strings. It gives the same rows as the line-by-line path
 * of `lm_eval.ts` for the common shape of a generative task — `resps` a list of one list of
 * one text, `filtered_resps` a list of texts or a text, `target` and `doc.input`/`doc.target`
 * texts, the same `metrics` on every line — and returns null for anything else (multiple
 * choice, repeats, a line polars refuses), which the caller then reads line by line.
 *
 * The lines may come from several files at once (`lm_eval_batch.ts`): the per-file fields
 * (run, model, task, …) are then columns of a context frame, one row per line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lmEvalBlockFrame } from "@runlens/logs/lm_eval_block.ts";
 * import { lmEvalFileContext } from "@runlens/logs/lm_eval.ts";
 * import { scanBlock } from "@runlens/logs/lines.ts";
 * const line = (id: number, resp: string) =>
 *   JSON.stringify({ doc_id: id, target: "(A)", resps: [[resp]], filtered_resps: [resp] });
 * const block = scanBlock(new TextEncoder().encode(`${line(0, "(A)")}\n${line(1, "(B)")}\n`), 1);
 * const context = lmEvalFileContext("m/samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.jsonl");
 * const frame = lmEvalBlockFrame(block, context, new Map()); // null → read line by line
 * assert.deepEqual(frame?.getColumn("response").toArray(), ["(A)", "(B)"]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { Buffer } from "node:buffer";
import { type LineBlock, linesAreObjects, recordBytes } from "./lines.ts";
import { CANONICAL_FIELDS, extraJson } from "./raw.ts";

/** What every row of one samples file shares. */
export interface LmEvalFileContext {
  run: string;
  model: string;
  benchmark: string;
  task: string;
  /** The lm-eval task name (file name). */
  lmEvalTask: string;
  /** Filter names in YAML order, for lines without `filter` (before v0.4.7). */
  filterNames: readonly string[];
}

/** The metric columns the tool's verdict is read from after the line's own `metrics`. */
export const VERDICT_FALLBACK_METRICS = ["exact_match", "acc", "acc_norm"] as const;

const T = {
  text: '{"DataType":"String"}',
  null: '{"DataType":"Null"}',
  textList: '{"DataType":{"List":{"DataType":"String"}}}',
  textListList: '{"DataType":{"List":{"DataType":{"List":{"DataType":"String"}}}}}',
  nullList: '{"DataType":{"List":{"DataType":"Null"}}}',
};
const INTEGER = new Set(["Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"]);
const NULL_TEXT = pl.lit(null).cast(pl.Utf8);

/** Column name → JSON form of its dtype (absent columns are missing). */
type Types = Record<string, string>;

const typesOf = (df: pl.DataFrame): Types => {
  const schema = df.schema;
  return Object.fromEntries(Object.entries(schema).map(([c, t]) => [c, JSON.stringify(t)]));
};
const typeIn = (types: Types, column: string, allowed: string[]) =>
  allowed.includes(types[column] ?? "absent");

/**
 * Parse JSON lines (one object per line, no blank lines) with polars, inferring the types from
 * every line; null when polars refuses them or reads another number of rows than `rows`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { recordBytes, scanBlock } from "@runlens/logs/lines.ts";
 * const block = scanBlock(new TextEncoder().encode('{"doc_id": 0}\n{"doc_id": 1}\n'), 1);
 * assert.equal(parseSampleLines(recordBytes(block), block.lines.length)?.height, 2);
 * assert.equal(parseSampleLines(recordBytes(block), 3), null); // another number of rows
 * ```
 */
export function parseSampleLines(bytes: Buffer, rows: number): pl.DataFrame | null {
  let df: pl.DataFrame;
  try {
    df = pl.readJSON(bytes, { format: "lines", inferSchemaLength: null });
  } catch {
    return null;
  }
  return df.height === rows ? df : null;
}

const isSpace = (b: number) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d;

/**
 * Whether some `"resps"` key holds lists nested three deep (multiple choice:
 * `[[["-2.5", "False"]], …]`). Polars would turn such a value into text when other lines hold
 * texts, so lines with them are read line by line. Runs of three `[` are found with the native
 * byte search, then the key before them is checked (`"resps"` with unescaped quotes can only be
 * a key: inside a JSON string the quotes are escaped).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(nestedResps(new TextEncoder().encode('{"resps": [[["-2.5", "False"]]]}')), true);
 * assert.equal(nestedResps(new TextEncoder().encode('{"resps": [["[[[x"]]}')), false); // in a text
 * ```
 */
export function nestedResps(bytes: Uint8Array): boolean {
  let at = bytes.indexOf(0x5b);
  while (at >= 0) {
    let i = at;
    let depth = 0;
    while (i < bytes.length && (bytes[i] === 0x5b || isSpace(bytes[i]))) {
      if (bytes[i] === 0x5b) depth++;
      i++;
    }
    if (depth >= 3 && followsRespsKey(bytes, at)) return true;
    at = bytes.indexOf(0x5b, i);
  }
  return false;
}

const RESPS_KEY = new TextEncoder().encode('"resps"');

/** `bytes[at]` follows `"resps"` and a colon (whitespace allowed around the colon). */
function followsRespsKey(bytes: Uint8Array, at: number): boolean {
  let j = at - 1;
  while (j >= 0 && isSpace(bytes[j])) j--;
  if (j < 0 || bytes[j] !== 0x3a) return false;
  j--;
  while (j >= 0 && isSpace(bytes[j])) j--;
  const start = j - RESPS_KEY.length + 1;
  if (start < 0) return false;
  return RESPS_KEY.every((b, k) => bytes[start + k] === b);
}

/**
 * The per-line fields of sample lines of the common shape parsed from `bytes`, or null:
 * `example_index` (doc_id as text), `input`, `target`, `response`, `tool_extracted`,
 * `filter`, `stored_correct`, `tool_metrics`. A multiple-choice `resps` among text ones would
 * come out as text starting with `[`: only when some response starts so are the bytes searched
 * for one ({@link nestedResps}; the search is slow).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Buffer } from "node:buffer";
 * const text = '{"doc_id": 7, "target": "(A)", "resps": [["So (A)."]], ' +
 *   '"filtered_resps": ["(A)"], "metrics": ["exact_match"], "exact_match": 1.0}\n';
 * const bytes = Buffer.from(text);
 * const fields = sampleFields(parseSampleLines(bytes, 1)!, bytes);
 * assert.deepEqual(fields?.select("example_index", "response", "tool_extracted", "stored_correct")
 *   .row(0), ["7", "So (A).", "(A)", true]);
 * ```
 */
export function sampleFields(df: pl.DataFrame, bytes: Buffer): pl.DataFrame | null {
  try {
    return plainFields(df, bytes);
  } catch {
    return null; // e.g. a type JS cannot take (Int128 for a huge integer): line by line
  }
}

function plainFields(df: pl.DataFrame, bytes: Buffer): pl.DataFrame | null {
  const types = typesOf(df);
  if (!plainShape(df, types)) return null;
  const metrics = listedMetrics(df, types);
  // a metric polars unified to text (numbers on some lines, text on others) reads differently
  const verdictColumns = [...metrics, ...VERDICT_FALLBACK_METRICS].filter((m) => m in types);
  if (verdictColumns.some((m) => types[m] !== T.null && !verdictOf(types, m))) return null;
  const body = df.select(
    ("doc_id" in types ? pl.col("doc_id").cast(pl.Utf8) : NULL_TEXT).alias("example_index"),
    docField(df, types, "input").alias("input"),
    targetText(df, types).alias("target"),
    pl.col("resps").lst.first().lst.first().alias("response"),
    extractedText(types).alias("tool_extracted"),
    (types.filter === T.text ? pl.col("filter") : NULL_TEXT).alias("filter"),
    verdict(types, metrics).alias("stored_correct"),
    toolMetrics(types, metrics).alias("tool_metrics"),
  );
  const out = typesOf(body);
  const texts = ["example_index", "input", "target", "response", "tool_extracted"];
  if (!texts.every((c) => typeIn(out, c, [T.text, T.null]))) return null;
  const bracket = body.select(pl.col("response").str.startsWith("[").any().alias("b")).row(0)[0];
  return bracket === true && nestedResps(bytes) ? null : body;
}

/**
 * The raw form of {@link sampleFields}' rows: `context` holds, per row, `run`, `model`,
 * `benchmark`, `task` and `lm_eval_task`; `filterIndex` the line's position among the lines
 * of its doc in its file, `namedFilter` the filter name that position gives (results file
 * configs), used where the line names none; `lines` the file line numbers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { Buffer } from "node:buffer";
 * import { lmEvalFileContext } from "@runlens/logs/lm_eval.ts";
 * const bytes = Buffer.from('{"doc_id": 0, "resps": [["x"]]}\n{"doc_id": 0, "resps": [["x"]]}\n');
 * const fields = sampleFields(parseSampleLines(bytes, 2)!, bytes)!;
 * const context = lmEvalFileContext("m/samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.jsonl");
 * const perRow = contextFrame([{ context, rows: 2 }]);
 * const raw = rawSamples(fields, perRow, [0, 1], [null, null], [1, 2]);
 * raw.columns; // source_line, run, …, extra
 * assert.deepEqual(raw.select("source_line", "task", "extra").row(1), [
 *   2,
 *   "snarks",
 *   '{"lm_eval_task":"bbh_cot_fewshot_snarks","filter_index":1}',
 * ]);
 * ```
 */
export function rawSamples(
  fields: pl.DataFrame,
  context: pl.DataFrame,
  filterIndex: readonly number[],
  namedFilter: readonly (string | null)[],
  lines: readonly number[],
): pl.DataFrame {
  const rows = pl.concat([fields, context], { how: "horizontal" }).withColumns(
    pl.Series("filter_index", filterIndex as number[], pl.Int64),
    pl.Series("__named_filter", namedFilter as (string | null)[], pl.Utf8),
    pl.Series("source_line", lines as number[], pl.Int32),
  ).withColumns(
    // the line's own filter, else the one its position names
    pl.when(pl.col("filter").isNull()).then(pl.col("__named_filter")).otherwise(pl.col("filter"))
      .alias("filter"),
  );
  const present = new Set(rows.columns);
  return rows.select(
    pl.col("source_line"),
    ...CANONICAL_FIELDS.map((f) =>
      (f === "epoch" ? pl.lit("1") : present.has(f) ? pl.col(f) : NULL_TEXT).cast(pl.Utf8).alias(f)
    ),
    extraJson([
      "lm_eval_task",
      "filter",
      "filter_index",
      "tool_extracted",
      "tool_metrics",
      "stored_correct",
    ]).alias("extra"),
  );
}

/**
 * Convert one block of one file, or return null when the block needs the line-by-line path.
 * `filterCounts` (doc_id → lines seen so far in the file) is updated only when a frame is
 * returned.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type pl from "nodejs-polars";
 * import { forEachLineBlock } from "@runlens/logs/lines.ts";
 * import { lmEvalFileContext } from "@runlens/logs/lm_eval.ts";
 * const dir = "tests/fixtures/logs/bbh/lm_eval/org__tiny-model";
 * const path = `${dir}/samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.622918.jsonl`;
 * const context = lmEvalFileContext(path);
 * const frames: (pl.DataFrame | null)[] = [];
 * const counts = new Map<string, number>();
 * forEachLineBlock(path, 1 << 26, (b) => void frames.push(lmEvalBlockFrame(b, context, counts)));
 * assert.deepEqual(frames, [null]); // its last line lacks `metrics`: read line by line instead
 * ```
 */
export function lmEvalBlockFrame(
  block: LineBlock,
  context: LmEvalFileContext,
  filterCounts: Map<string, number>,
): pl.DataFrame | null {
  if (block.lines.length === 0 || block.oddBlank || block.badUtf8.size > 0) return null;
  if (!linesAreObjects(block)) return null;
  const bytes = recordBytes(block);
  const df = parseSampleLines(bytes, block.lines.length);
  const fields = df && sampleFields(df, bytes);
  if (!fields) return null;
  const ids = fields.getColumn("example_index").toArray() as (string | null)[];
  const filterIndex = countFilters(ids.map(String), filterCounts);
  return rawSamples(
    fields,
    contextFrame([{ context, rows: fields.height }]),
    filterIndex,
    filterIndex.map((k) => context.filterNames[k] ?? null),
    block.lines,
  );
}

/**
 * Each line's position among the lines of its doc seen so far (`keys` identify the doc;
 * `counts` carries the counts over from earlier blocks and is updated).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const counts = new Map<string, number>();
 * assert.deepEqual(countFilters(["0", "0", "1"], counts), [0, 1, 0]);
 * assert.deepEqual(countFilters(["1"], counts), [1]); // carried over to the next block
 * ```
 */
export function countFilters(keys: readonly string[], counts: Map<string, number>): number[] {
  return keys.map((key) => {
    const k = counts.get(key) ?? 0;
    counts.set(key, k + 1);
    return k;
  });
}

/**
 * The context columns (`run`, `model`, `benchmark`, `task`, `lm_eval_task`) of consecutive
 * runs of rows, each from one file.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { lmEvalFileContext } from "@runlens/logs/lm_eval.ts";
 * const context = lmEvalFileContext("m/samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.jsonl");
 * const frame = contextFrame([{ context, rows: 200 }]);
 * assert.equal(frame.height, 200);
 * assert.deepEqual(frame.columns, ["run", "model", "benchmark", "task", "lm_eval_task"]);
 * ```
 */
export function contextFrame(
  parts: readonly { context: LmEvalFileContext; rows: number }[],
): pl.DataFrame {
  const column = (name: string, pick: (c: LmEvalFileContext) => string) => {
    const values: string[] = [];
    for (const { context, rows } of parts) {
      const v = pick(context);
      for (let i = 0; i < rows; i++) values.push(v);
    }
    return pl.Series(name, values, pl.Utf8);
  };
  return pl.DataFrame([
    column("run", (c) => c.run),
    column("model", (c) => c.model),
    column("benchmark", (c) => c.benchmark),
    column("task", (c) => c.task),
    column("lm_eval_task", (c) => c.lmEvalTask),
  ]);
}

/** The lines are a generative task with one text response each and a uniform `metrics`. */
function plainShape(df: pl.DataFrame, types: Types): boolean {
  if (types.resps !== T.textListList) return false;
  if (!typeIn(types, "filtered_resps", [T.text, T.null, T.textList, T.nullList, "absent"])) {
    return false;
  }
  if (!typeIn(types, "filter", [T.text, T.null, "absent"])) return false;
  if (!typeIn(types, "target", [T.text, T.null, "absent"])) return false;
  if (
    !typeIn(types, "doc_id", [T.text, T.null, "absent"]) && !INTEGER.has(df.schema.doc_id.variant)
  ) {
    return false;
  }
  const metrics = types.metrics;
  if (metrics !== T.textList && !typeIn(types, "metrics", [T.null, T.nullList, "absent"])) {
    return false;
  }
  const [outer, inner, kinds] = df.select(
    pl.col("resps").lst.lengths().max().alias("outer"),
    pl.col("resps").lst.first().lst.lengths().max().alias("inner"),
    (metrics === T.textList ? pl.col("metrics").lst.join("\u0000").nUnique() : pl.lit(1))
      .alias("kinds"),
  ).row(0) as (number | null)[];
  return Number(outer ?? 0) <= 1 && Number(inner ?? 0) <= 1 && Number(kinds) <= 1;
}

/** `doc.<field>` when `doc` is a struct holding it, else null. */
function docField(df: pl.DataFrame, types: Types, field: string): pl.Expr {
  if (!types.doc?.startsWith('{"DataType":{"Struct"')) return NULL_TEXT;
  return df.getColumn("doc").struct.fields.includes(field)
    ? pl.col("doc").struct.field(field)
    : NULL_TEXT;
}

/** `target`, else `doc.target`. */
function targetText(df: pl.DataFrame, types: Types): pl.Expr {
  const top = types.target === T.text ? pl.col("target") : NULL_TEXT;
  return pl.when(top.isNull()).then(docField(df, types, "target")).otherwise(top);
}

/** `filtered_resps[0]` (or `filtered_resps` when it is a text). */
function extractedText(types: Types): pl.Expr {
  if (types.filtered_resps === T.text) return pl.col("filtered_resps");
  if (types.filtered_resps === T.textList) return pl.col("filtered_resps").lst.first();
  return NULL_TEXT;
}

/** The lines' `metrics` (the same on every line, see {@link plainShape}). */
function listedMetrics(df: pl.DataFrame, types: Types): string[] {
  if (types.metrics !== T.textList) return [];
  const first = df.select(pl.col("metrics").dropNulls().first().alias("m")).row(0)[0];
  return Array.isArray(first) ? first as string[] : [];
}

/** A metric column's verdict: a boolean, or a finite number (≥ 1 → true); null if unusable. */
function verdictOf(types: Types, name: string): { valid: pl.Expr; value: pl.Expr } | null {
  const type = types[name];
  if (type === '{"DataType":"Bool"}') {
    return { valid: pl.col(name).isNotNull(), value: pl.col(name) };
  }
  const variant = type ? JSON.parse(type).DataType : null;
  if (variant === "Float64" || variant === "Float32" || INTEGER.has(variant)) {
    const x = pl.col(name).cast(pl.Float64);
    return { valid: x.isNotNull().and(x.isFinite()), value: x.gtEq(1) };
  }
  return null;
}

/** The tool's verdict: the first metric (`metrics`, then the fallbacks) with a usable value. */
function verdict(types: Types, metrics: readonly string[]): pl.Expr {
  let expr: pl.Expr = pl.lit(null).cast(pl.Bool);
  for (const name of [...metrics, ...VERDICT_FALLBACK_METRICS].reverse()) {
    const v = verdictOf(types, name);
    if (v) expr = pl.when(v.valid).then(v.value).otherwise(expr);
  }
  return expr;
}

/** `{metric: value}` of the line's `metrics` present as columns; null when it names none. */
function toolMetrics(types: Types, metrics: readonly string[]): pl.Expr {
  const present = [...new Set(metrics)].filter((m) => m in types);
  if (present.length === 0) return pl.lit(null);
  return pl.struct(present.map((m) => pl.col(m)));
}
