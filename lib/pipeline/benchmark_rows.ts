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
import type { BenchmarkRuns } from "../benchmarks/types.ts";
import type { LoadedRuns } from "./load.ts";
import type { ResponseFile, ResponseFiles } from "./responses.ts";

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

/**
 * A load as a benchmark's command or notebook receives it ({@link BenchmarkRuns} but its
 * summary text): `name`'s rows and `others`' with their columns, every quarantined line, and
 * each file read with its records and the benchmark its records' own fields name.
 */
export function benchmarkRuns(
  loaded: LoadedRuns,
  name: string,
  others: readonly string[],
  dataDir: string,
): Omit<BenchmarkRuns, "summaryText"> {
  const unread = new Set(loaded.errors.map((e) => e.file));
  const files = loaded.fileSummaries.filter((f) => !unread.has(f.file)).map((f) => ({
    file: f.file,
    rowsIn: f.rows_in,
    benchmark: sourceOf(loaded.sources, f.file)?.benchmarkHint ?? null,
  }));
  return {
    rows: benchmarkRows(loaded, name),
    quarantine: loaded.quarantine,
    rowsIn: files.reduce((n, f) => n + f.rowsIn, 0),
    files,
    errors: loaded.errors,
    others: others.map((o) => ({ benchmark: getBenchmark(o)!, rows: benchmarkRows(loaded, o) })),
    context: { dataDir, dataSets: loaded.dataSets },
  };
}

/** What the load knew of `file`. */
function sourceOf(sources: ResponseFiles, file: string): ResponseFile | undefined {
  return sources instanceof Map
    ? sources.get(file)
    : (sources as Record<string, ResponseFile>)[file];
}
