/**
 * Dictionary codes of a text column: each row's value as a small integer, for counting and
 * grouping in JavaScript over typed arrays (numbers cross from polars far faster than text,
 * and a group-by on text columns costs a native pass each).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const { ids, values } = textCodes(pl.Series("run", ["b", "a", "b", "c"]));
 * assert.deepEqual([...ids], [0, 1, 0, 2]);
 * assert.deepEqual(values, ["b", "a", "c"]);
 * ```
 * @module
 */
import pl from "nodejs-polars";

/** A text column as codes: `values[ids[i]]` is row i's value (null where it has none). */
export interface TextCodes {
  /** Per row, the index of its value in `values`. */
  ids: Int32Array;
  /** The distinct values, in order of first occurrence. */
  values: (string | null)[];
}

/** {@link TextCodes} of a Utf8 (or Categorical) series; values in order of first occurrence. */
export function textCodes(series: pl.Series): TextCodes {
  const physical = pl.DataFrame([series.alias("v")])
    .select(pl.col("v").cast(pl.Categorical).toPhysical().cast(pl.Int32).fillNull(-1))
    .getColumn("v").toTypedArray() as Int32Array;
  // polars numbers categories in order of first occurrence, but a global string cache would
  // not start at 0: renumber
  const idOf = new Map<number, number>();
  const ids = new Int32Array(physical.length);
  const first: number[] = [];
  for (let i = 0; i < physical.length; i++) {
    let id = idOf.get(physical[i]);
    if (id === undefined) idOf.set(physical[i], id = first.length), first.push(i);
    ids[i] = id;
  }
  const values = first.length === 0 ? [] : series.gather(first).toArray() as (string | null)[];
  return { ids, values };
}
