/**
 * Null-safe polars Series builders.
 *
 * nodejs-polars 0.25.2 turns `null` into `0` when an integer Series is built with an explicit
 * dtype (`pl.Series("x", [1, null], pl.Int32)` gives `[1, 0]`). These helpers build the Series
 * without a dtype and cast afterwards, which keeps the nulls.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { intSeries } from "@runlens/benchmarks/bbm/columns.ts";
 * assert.deepEqual(pl.Series("x", [3, null], pl.Int32).toArray(), [3, 0]); // the pitfall
 * const s = intSeries("mistake_index", [3, null]);
 * assert.deepEqual(s.toArray(), [3, null]);
 * assert.ok(s.dtype.equals(pl.Int32));
 * ```
 * @module
 */
import pl from "nodejs-polars";

/**
 * An Int32 Series that keeps nulls.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(intSeries("k", [null, 2]).toArray(), [null, 2]);
 * ```
 */
export function intSeries(name: string, values: readonly (number | null)[]): pl.Series {
  if (values.length === 0) return pl.Series(name, [], pl.Int32);
  return pl.Series(name, [...values]).cast(pl.Int32);
}

/**
 * A Float64 Series that keeps nulls.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(floatSeries("share", [0.5, null]).toArray(), [0.5, null]);
 * ```
 */
export function floatSeries(name: string, values: readonly (number | null)[]): pl.Series {
  if (values.length === 0) return pl.Series(name, [], pl.Float64);
  return pl.Series(name, [...values]).cast(pl.Float64);
}

/**
 * A Utf8 Series that keeps nulls.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(strSeries("answer", ["(A)", null]).toArray(), ["(A)", null]);
 * ```
 */
export function strSeries(name: string, values: readonly (string | null)[]): pl.Series {
  return pl.Series(name, [...values], pl.Utf8);
}

/**
 * A Bool Series that keeps nulls.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(boolSeries("flagged", [true, null]).toArray(), [true, null]);
 * ```
 */
export function boolSeries(name: string, values: readonly (boolean | null)[]): pl.Series {
  return pl.Series(name, [...values], pl.Bool);
}
