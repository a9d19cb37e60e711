/**
 * The raw form of a canonical run log: one text column per canonical field, the 1-based
 * `source_line`, and `extra` (the record's other fields as a JSON object string). Format
 * readers (JSONL, CSV) produce it; {@link readCanonicalLog} validates and types it.
 *
 * Values are kept as text so that every format goes through the same checks: a JSON number
 * `3` arrives as `"3"`, a JSON `null` or an absent field as null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { CANONICAL_FIELDS, normalizeFrame } from "@runlens/logs/raw.ts";
 * const raw = normalizeFrame(pl.DataFrame({ task: ["nycc"], response: ["x"], note: ["hi"] }), [1]);
 * assert.deepEqual(raw.getColumn("extra").toArray(), ['{"note":"hi"}']);
 * assert.deepEqual(raw.columns, ["source_line", ...CANONICAL_FIELDS, "extra"]);
 * ```
 * @module
 */
import pl from "nodejs-polars";

/** The fields of the canonical run-log format; any other field goes to `extra`. */
export const CANONICAL_FIELDS = [
  "run",
  "model",
  "benchmark",
  "task",
  "example_index",
  "input",
  "target",
  "response",
  "response_tokens",
  "epoch",
] as const;

/** One canonical field name. */
export type CanonicalField = (typeof CANONICAL_FIELDS)[number];

/** A format reader's result: the parseable records and the lines it could not read. */
export interface RawLog {
  /**
   * `source_line` (Int32), every {@link CANONICAL_FIELDS} column (Utf8), `extra` (Utf8); and
   * `source_file` (Utf8) when the frame holds the records of several files.
   */
  frame: pl.DataFrame;
  /**
   * Lines (1-based) that are not records, with the reason and, when the broken text still
   * shows it, the run they belong to.
   */
  bad: { line: number; reason: string; run?: string; file?: string }[];
  /** Non-blank lines (JSONL) or records (CSV) in the file: frame rows + bad lines. */
  rowsIn: number;
}

/** Thrown by {@link normalizeFrame} when a canonical field holds a list or an object. */
export class NestedFieldError extends Error {}

const NESTED = new Set(["List", "FixedSizeList", "Array", "Struct", "Object"]);
const isCanonical = (name: string) => (CANONICAL_FIELDS as readonly string[]).includes(name);

/**
 * Bring a frame read by polars (any column set, scalar dtypes) to the raw form. `lines` gives
 * the file line of each row; `extra` gets the non-canonical fields with a non-null value
 * (polars fills absent fields with null, so absent and null cannot be told apart).
 * Throws {@link NestedFieldError} when a canonical field is nested.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const index = pl.Series("example_index", [3], pl.Int64); // as polars reads a JSON 3
 * const df = pl.DataFrame({ task: ["nycc"], example_index: index });
 * const raw = normalizeFrame(df, [2]);
 * raw.columns; // ["source_line", "run", "model", …, "epoch", "extra"]
 * assert.deepEqual(raw.row(0).slice(0, 6), [2, null, null, null, "nycc", "3"]); // all text
 * const nested = pl.DataFrame({ response: [["a", "b"]] });
 * assert.throws(() => normalizeFrame(nested, [1]), NestedFieldError);
 * ```
 */
export function normalizeFrame(df: pl.DataFrame, lines: readonly number[]): pl.DataFrame {
  const schema = df.schema;
  for (const field of CANONICAL_FIELDS) {
    if (field in schema && NESTED.has(schema[field].variant)) {
      throw new NestedFieldError(`field "${field}" holds ${schema[field].variant} values`);
    }
  }
  const extras = df.columns.filter((c) => !isCanonical(c));
  const body = df.select(
    ...CANONICAL_FIELDS.map((f) =>
      f in schema ? pl.col(f).cast(pl.Utf8).alias(f) : pl.lit(null).cast(pl.Utf8).alias(f)
    ),
    extraJson(extras).alias("extra"),
  );
  return body.withColumns(pl.Series("source_line", lines as number[], pl.Int32))
    .select("source_line", ...CANONICAL_FIELDS, "extra");
}

/**
 * JSON object of the non-null `extras` columns per row (in the given order); null where all of
 * them are null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const score = pl.Series("score", [1, null], pl.Int64);
 * const df = pl.DataFrame({ note: ["hi", null], score });
 * const extra = df.select(extraJson(["note", "score"]).alias("extra"));
 * assert.deepEqual(extra.getColumn("extra").toArray(), ['{"note":"hi","score":1}', null]);
 * ```
 */
export function extraJson(extras: string[]): pl.Expr {
  if (extras.length === 0) return pl.lit(null).cast(pl.Utf8);
  // `{"k":v}` of one column, braces dropped: the member text, or null when v is null.
  const members = extras.map((c) =>
    pl.when(pl.col(c).isNull()).then(pl.lit(null).cast(pl.Utf8)).otherwise(
      pl.struct([pl.col(c)]).struct.jsonEncode().str.replace("^\\{(?s:(.*))\\}$", "${1}"),
    )
  );
  const allNull = extras.map((c) => pl.col(c).isNull()).reduce((a, b) => a.and(b));
  return pl.when(allNull).then(pl.lit(null).cast(pl.Utf8))
    .otherwise(
      pl.concatString([pl.lit("{"), pl.concatString(members, ",", true), pl.lit("}")], ""),
    );
}

/**
 * Text of a scalar as the raw form keeps it: strings as they are, other values as JSON; null
 * for null or undefined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(asText(3), "3");
 * assert.equal(asText(["a"]), '["a"]');
 * assert.equal(asText(undefined), null);
 * ```
 */
export const asText = (v: unknown): string | null =>
  v === null || v === undefined ? null : typeof v === "string" ? v : JSON.stringify(v);

/**
 * Build the raw form from parsed JSON records (the slow path, for files polars refuses).
 * Canonical fields must be scalars (the caller checks); numbers and booleans become text.
 * `extra` holds the record's non-canonical fields with a non-null value.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const raw = frameFromRecords([{ task: "nycc", example_index: 3, note: 1 }], [1]);
 * assert.deepEqual(raw.getColumn("extra").toArray(), ['{"note":1}']);
 * assert.equal(raw.getColumn("example_index").get(0), "3");
 * ```
 */
export function frameFromRecords(
  records: readonly Record<string, unknown>[],
  lines: readonly number[],
): pl.DataFrame {
  const columns = [
    pl.Series("source_line", lines as number[], pl.Int32),
    ...CANONICAL_FIELDS.map((f) => pl.Series(f, records.map((r) => asText(r[f])), pl.Utf8)),
    pl.Series(
      "extra",
      records.map((r) => {
        const kept = Object.entries(r).filter(([k, v]) => !isCanonical(k) && v !== null);
        return kept.length > 0 ? JSON.stringify(Object.fromEntries(kept)) : null;
      }),
      pl.Utf8,
    ),
  ];
  return pl.DataFrame(columns);
}

/** Whether a parsed JSON value may fill a canonical field (string, number, boolean, null). */
export function isScalar(value: unknown): boolean {
  return value === null || ["string", "number", "boolean"].includes(typeof value);
}
