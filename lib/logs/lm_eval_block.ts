/**
 * The fast path of the lm-evaluation-harness samples reader: one block of JSON lines parsed by
 * polars and turned into the raw form ({@link RawLog}) with polars expressions only, so big
 * files never pass their text through JavaScript strings. It gives the same rows as the
 * line-by-line path of `lm_eval.ts` for the common shape of a generative task — `resps` a list
 * of one list of one text, `filtered_resps` a list of texts or a text, `target` and
 * `doc.input`/`doc.target` texts, the same `metrics` on every line — and returns null for
 * anything else (multiple choice, repeats, a line polars refuses), which the caller then reads
 * line by line.
 *
 * @example
 * ```ts
 * import { lmEvalBlockFrame } from "@runlens/logs/lm_eval_block.ts";
 * const frame = lmEvalBlockFrame(block, context, filterCounts); // null → read line by line
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { type LineBlock, recordBytes } from "./lines.ts";
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
const NUMERIC = new Set(["Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"]);
const NULL_TEXT = pl.lit(null).cast(pl.Utf8);

/** The JSON form of a column's dtype, or "absent". */
function typeOf(df: pl.DataFrame, column: string): string {
  return column in df.schema ? JSON.stringify(df.schema[column]) : "absent";
}

/**
 * Convert one block, or return null when the block needs the line-by-line path. `filterCounts`
 * (doc_id → lines seen so far in the file) is updated only when a frame is returned.
 */
export function lmEvalBlockFrame(
  block: LineBlock,
  context: LmEvalFileContext,
  filterCounts: Map<string, number>,
): pl.DataFrame | null {
  if (block.lines.length === 0 || block.oddBlank) return null;
  let df: pl.DataFrame;
  try {
    df = pl.readJSON(recordBytes(block), { format: "lines", inferSchemaLength: null });
  } catch {
    return null;
  }
  if (df.height !== block.lines.length || !shapeIsPlain(df)) return null;
  let body: pl.DataFrame;
  try {
    body = df.select(
      docIdText(df).alias("example_index"),
      docField(df, "input").alias("input"),
      targetText(df).alias("target"),
      pl.col("resps").lst.first().lst.first().alias("response"),
      extractedText(df).alias("tool_extracted"),
      (typeOf(df, "filter") === T.text ? pl.col("filter") : NULL_TEXT).alias("filter"),
      verdict(df).alias("stored_correct"),
      toolMetrics(df).alias("tool_metrics"),
    );
  } catch {
    return null;
  }
  for (const c of ["example_index", "input", "target", "response", "tool_extracted"]) {
    if (![T.text, T.null].includes(typeOf(body, c))) return null;
  }
  const ids = body.getColumn("example_index").toArray() as (string | null)[];
  const counts = new Map(filterCounts);
  const filterIndex = ids.map((id) => {
    const k = counts.get(String(id)) ?? 0;
    counts.set(String(id), k + 1);
    return k;
  });
  for (const [id, k] of counts) filterCounts.set(id, k);
  const named = filterIndex.map((k) => context.filterNames[k] ?? null);
  const rows = body.withColumns(
    pl.Series("filter_index", filterIndex, pl.Int64),
    pl.Series("__named_filter", named, pl.Utf8),
  ).withColumns(
    pl.when(pl.col("filter").isNull()).then(pl.col("__named_filter")).otherwise(pl.col("filter"))
      .alias("filter"),
    pl.lit(context.lmEvalTask).alias("lm_eval_task"),
  );
  const fixed: Record<string, pl.Expr> = {
    run: pl.lit(context.run),
    model: pl.lit(context.model),
    benchmark: pl.lit(context.benchmark),
    task: pl.lit(context.task),
    epoch: pl.lit("1"),
  };
  return rows.select(
    ...CANONICAL_FIELDS.map((f) =>
      (fixed[f] ?? (rows.columns.includes(f) ? pl.col(f) : NULL_TEXT)).cast(pl.Utf8).alias(f)
    ),
    extraJson([
      "lm_eval_task",
      "filter",
      "filter_index",
      "tool_extracted",
      "tool_metrics",
      "stored_correct",
    ]).alias("extra"),
  ).withColumns(pl.Series("source_line", block.lines, pl.Int32))
    .select("source_line", ...CANONICAL_FIELDS, "extra");
}

/** The block is a generative task with one text response per line and a uniform `metrics`. */
function shapeIsPlain(df: pl.DataFrame): boolean {
  if (typeOf(df, "resps") !== T.textListList) return false;
  const lengths = df.select(
    pl.col("resps").lst.lengths().max().alias("outer"),
    pl.col("resps").lst.first().lst.lengths().max().alias("inner"),
  ).row(0) as (number | null)[];
  if (lengths.some((n) => n !== null && Number(n) > 1)) return false;
  if (![T.text, T.null, T.textList, T.nullList, "absent"].includes(typeOf(df, "filtered_resps"))) {
    return false;
  }
  if (![T.text, T.null, "absent"].includes(typeOf(df, "filter"))) return false;
  const metrics = typeOf(df, "metrics");
  if (metrics === T.textList) {
    const kinds = df.select(pl.col("metrics").lst.join("\u0000").nUnique().alias("n")).row(0);
    if (Number(kinds[0]) > 1) return false;
  } else if (![T.null, T.nullList, "absent"].includes(metrics)) return false;
  return ["doc_id", "target"].every((c) =>
    [T.text, T.null, "absent"].includes(typeOf(df, c)) ||
    (c === "doc_id" && NUMERIC.has(df.schema[c].variant))
  );
}

function docIdText(df: pl.DataFrame): pl.Expr {
  return "doc_id" in df.schema ? pl.col("doc_id").cast(pl.Utf8) : NULL_TEXT;
}

/** `doc.<field>` when `doc` is a struct holding it, else null. */
function docField(df: pl.DataFrame, field: string): pl.Expr {
  if (df.schema.doc?.variant !== "Struct") return NULL_TEXT;
  return df.getColumn("doc").struct.fields.includes(field)
    ? pl.col("doc").struct.field(field)
    : NULL_TEXT;
}

/** `target`, else `doc.target`. */
function targetText(df: pl.DataFrame): pl.Expr {
  const top = typeOf(df, "target") === T.text ? pl.col("target") : NULL_TEXT;
  return pl.when(top.isNull()).then(docField(df, "target")).otherwise(top);
}

/** `filtered_resps[0]` (or `filtered_resps` when it is a text). */
function extractedText(df: pl.DataFrame): pl.Expr {
  const type = typeOf(df, "filtered_resps");
  if (type === T.text) return pl.col("filtered_resps");
  if (type === T.textList) return pl.col("filtered_resps").lst.first();
  return NULL_TEXT;
}

/** The block's `metrics` (the same on every line, see {@link shapeIsPlain}). */
function listedMetrics(df: pl.DataFrame): string[] {
  if (typeOf(df, "metrics") !== T.textList) return [];
  const first = df.select(pl.col("metrics").dropNulls().first().alias("m")).row(0)[0];
  return Array.isArray(first) ? first as string[] : [];
}

/** True where a metric column holds a usable value: a boolean, or a finite number (≥ 1 → true). */
function verdictOf(df: pl.DataFrame, name: string): { valid: pl.Expr; value: pl.Expr } | null {
  const variant = df.schema[name]?.variant;
  if (variant === "Bool") return { valid: pl.col(name).isNotNull(), value: pl.col(name) };
  if (variant === "Float64" || variant === "Float32" || NUMERIC.has(variant ?? "")) {
    const x = pl.col(name).cast(pl.Float64);
    return { valid: x.isNotNull().and(x.isFinite()), value: x.gtEq(1) };
  }
  return null;
}

/** The tool's verdict: the first metric (`metrics`, then the fallbacks) with a usable value. */
function verdict(df: pl.DataFrame): pl.Expr {
  let expr: pl.Expr = pl.lit(null).cast(pl.Bool);
  for (const name of [...listedMetrics(df), ...VERDICT_FALLBACK_METRICS].reverse()) {
    const v = verdictOf(df, name);
    if (v) expr = pl.when(v.valid).then(v.value).otherwise(expr);
  }
  return expr;
}

/** `{metric: value}` of the line's `metrics` present as columns; null when it names none. */
function toolMetrics(df: pl.DataFrame): pl.Expr {
  const present = [...new Set(listedMetrics(df))].filter((m) => m in df.schema);
  if (present.length === 0) return pl.lit(null);
  return pl.struct(present.map((m) => pl.col(m)));
}
