/**
 * Grouping helpers shared by the ARB analyses: rows grouped by key columns in a stable order
 * (subjects and answer types in the paper's order, other keys alphabetically), and typed
 * frames built from row objects with nulls kept.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { groupRows, typedFrame } from "@runlens/benchmarks/arb/group.ts";
 * const df = pl.DataFrame({ model: ["a", "a", "b"], subject: ["law", "physics", "law"] });
 * const groups = groupRows(df, ["model", "subject"]);
 * const counts = groups.map(({ key, rows }) => ({ ...key, n: rows.length }));
 * const out = typedFrame(counts, { model: pl.Utf8, subject: pl.Utf8, n: pl.Int32 });
 * assert.deepEqual(out.toRecords(), [
 *   { model: "a", subject: "physics", n: 1 }, // physics before law: the paper's order
 *   { model: "a", subject: "law", n: 1 },
 *   { model: "b", subject: "law", n: 1 },
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { ARB_SUBJECTS } from "./fields.ts";
import { ARB_ANSWER_TYPES } from "./answer_types.ts";

/** One group: its key values (by column) and its rows. */
export interface RowGroup {
  key: Record<string, unknown>;
  rows: Record<string, unknown>[];
}

const ORDER: Record<string, readonly unknown[]> = {
  subject: ARB_SUBJECTS,
  answer_type: ARB_ANSWER_TYPES,
  image: [false, true],
};

function compare(col: string, a: unknown, b: unknown): number {
  const order = ORDER[col];
  if (order) {
    const ia = order.indexOf(a), ib = order.indexOf(b);
    if (ia !== ib) return (ia < 0 ? Infinity : ia) - (ib < 0 ? Infinity : ib);
  }
  return String(a ?? "") < String(b ?? "") ? -1 : String(a ?? "") > String(b ?? "") ? 1 : 0;
}

/**
 * Group the rows of `df` by `by` (missing columns throw), sorted by key.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const groups = groupRows(pl.DataFrame({ subject: ["law", "physics"] }), ["subject"]);
 * assert.deepEqual(groups.map((g) => g.key.subject), ["physics", "law"]);
 * ```
 */
export function groupRows(df: pl.DataFrame, by: readonly string[]): RowGroup[] {
  const missing = by.filter((c) => !df.columns.includes(c));
  if (missing.length > 0) throw new Error(`rows lack column(s): ${missing.join(", ")}`);
  const groups = new Map<string, RowGroup>();
  for (const r of df.toRecords() as Record<string, unknown>[]) {
    const key = Object.fromEntries(by.map((c) => [c, r[c] ?? null]));
    const id = JSON.stringify(by.map((c) => key[c]));
    const g = groups.get(id) ?? { key, rows: [] };
    g.rows.push(r);
    groups.set(id, g);
  }
  return [...groups.values()].sort((a, b) => {
    for (const c of by) {
      const d = compare(c, a.key[c], b.key[c]);
      if (d !== 0) return d;
    }
    return 0;
  });
}

/**
 * A frame of row objects with the given column dtypes (columns in `schema` order); nulls stay
 * null (columns are built untyped, then cast).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = typedFrame([{ n: 3, acc: null }], { n: pl.Int32, acc: pl.Float64 });
 * assert.deepEqual(df.toRecords(), [{ n: 3, acc: null }]);
 * assert.ok(df.getColumn("n").dtype.equals(pl.Int32));
 * ```
 */
export function typedFrame(
  rows: readonly Record<string, unknown>[],
  schema: Record<string, pl.DataType>,
): pl.DataFrame {
  return pl.DataFrame(
    Object.entries(schema).map(([c, dtype]) => {
      const values = rows.map((r) => r[c] ?? null);
      // A typed Series turns null into 0 (nodejs-polars): build untyped, then cast.
      return values.length === 0 ? pl.Series(c, [], dtype) : pl.Series(c, values).cast(dtype);
    }),
  );
}

/** The dtypes of key columns as found in `df`. */
export function keySchema(df: pl.DataFrame, by: readonly string[]): Record<string, pl.DataType> {
  return Object.fromEntries(by.map((c) => [c, df.getColumn(c).dtype]));
}

/**
 * Percent of `true` among the non-null values; null when all are null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(percentTrue([true, false, null, true]), 200 / 3); // 66.66…: nulls are left out
 * assert.equal(percentTrue([null]), null);
 * ```
 */
export function percentTrue(values: readonly unknown[]): number | null {
  const known = values.filter((v) => v !== null && v !== undefined);
  return known.length === 0 ? null : (100 * known.filter((v) => v === true).length) / known.length;
}
