/**
 * Splitting a frame of scored rows by run, and looking at a frame's columns without taking
 * them out: a column that holds one value in every row is a polars literal (the compact frame
 * and the cache make them, `pipeline/compact_frame.ts`), and `getColumn` turns it into a
 * column of every row (16 bytes a row for text).
 *
 * @module
 */
import pl from "nodejs-polars";

/**
 * The rows of each run (the `run` column), split in one pass — a filter per run would scan
 * every row once per run. With `runs`, only those runs (the others are dropped first). Runs
 * come in order of first appearance.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ run: ["b", "a", "b"], x: [1, 2, 3] });
 * const parts = framesByRun(df);
 * assert.deepEqual([...parts.keys()], ["b", "a"]);
 * assert.deepEqual(parts.get("b")!.getColumn("x").toArray(), [1, 3]);
 * assert.deepEqual([...framesByRun(df, ["a"]).keys()], ["a"]);
 * ```
 */
export function framesByRun(
  rows: pl.DataFrame,
  runs?: readonly string[],
): Map<string, pl.DataFrame> {
  if (runs?.length === 0 || rows.height === 0) return new Map();
  const kept = runs ? rows.filter(pl.col("run").isIn(runs as string[])) : rows;
  const parts = kept.partitionBy("run", true, true);
  return new Map(parts.map((p) => [p.getColumn("run").get(0) as string, p]));
}

/**
 * The type of column `name` of `df`, from the frame's schema (`df.schema` and `getColumn` take
 * every column out); throws when there is no such column.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ x: [1, 2] }).withColumns(pl.lit("bbeh").alias("benchmark"));
 * assert.ok(columnType(df, "benchmark").equals(pl.String));
 * assert.throws(() => columnType(df, "run"), /no column run/);
 * ```
 */
export function columnType(df: pl.DataFrame, name: string): pl.DataType {
  const at = df.columns.indexOf(name);
  if (at < 0) throw new Error(`no column ${name}`);
  return df.dtypes[at];
}

/**
 * The value of column `name` in the first row of `df` (undefined: no rows), computed by
 * polars without taking the column out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ x: [1, 2] }).withColumns(pl.lit("bbeh").alias("benchmark"));
 * assert.equal(firstValue(df, "benchmark"), "bbeh");
 * assert.equal(firstValue(df.head(0), "benchmark"), undefined);
 * ```
 */
export function firstValue(df: pl.DataFrame, name: string): unknown {
  return df.height === 0 ? undefined : df.select(pl.col(name).first()).row(0)[0];
}

/**
 * The distinct values of column `name` of `df`, in no set order, computed by polars without
 * taking the column out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const df = pl.DataFrame({ x: [1, 2, 2] }).withColumns(pl.lit("bbeh").alias("benchmark"));
 * assert.deepEqual(distinctValues(df, "benchmark"), ["bbeh"]);
 * assert.deepEqual(distinctValues(df, "x").sort(), [1, 2]);
 * ```
 */
export function distinctValues(df: pl.DataFrame, name: string): unknown[] {
  return df.select(pl.col(name).unique()).getColumn(name).toArray();
}
