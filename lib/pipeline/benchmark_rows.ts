/**
 * One benchmark's rows of a load with its own typed columns: the row schema, then each column
 * of `Benchmark.columns` read from the rows' `extra` JSON (the parsed record fields and what
 * the verdict added) — null where a row's `extra` lacks it. A Utf8 column keeps text as it is
 * and other values as JSON (a list of choices); a Boolean or numeric column takes JSON
 * booleans and numbers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   benchmark: ["arb", "bbh"],
 *   extra: ['{"status":"scored","image":false,"choices":["a","b"]}', null],
 * });
 * const df = benchmarkRows({ rows }, "arb");
 * assert.equal(df.height, 1);
 * assert.deepEqual(df.select("status", "image", "choices").toRecords(), [
 *   { status: "scored", image: false, choices: '["a","b"]' },
 * ]);
 * assert.ok(df.schema.human_score.equals(pl.Float64)); // absent from every extra: null
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { getBenchmark } from "../benchmarks/registry.ts";

/** A value of `extra` in a column of `dtype` (null: absent, or not of that kind). */
function cell(value: unknown, dtype: pl.DataType): unknown {
  if (value === undefined || value === null) return null;
  if (dtype.equals(pl.Utf8)) return typeof value === "string" ? value : JSON.stringify(value);
  if (dtype.equals(pl.Bool)) return typeof value === "boolean" ? value : null;
  return typeof value === "number" ? value : null;
}

/**
 * The rows of benchmark `name` in `loaded.rows`, with the benchmark's `columns` appended
 * (see the module doc); without `columns`, just its rows.
 */
export function benchmarkRows(loaded: { rows: pl.DataFrame }, name: string): pl.DataFrame {
  const rows = loaded.rows.filter(pl.col("benchmark").eq(pl.lit(name)));
  const columns = Object.entries(getBenchmark(name)?.columns ?? {});
  if (columns.length === 0) return rows;
  const extras: Record<string, unknown>[] = rows.columns.includes("extra")
    ? (rows.getColumn("extra").toArray() as (string | null)[]).map((e) =>
      e === null ? {} : JSON.parse(e) as Record<string, unknown>
    )
    : Array.from({ length: rows.height }, () => ({}));
  return rows.withColumns(
    ...columns.map(([column, dtype]) =>
      pl.Series(column, extras.map((x) => cell(x[column], dtype)), dtype)
    ),
  );
}
