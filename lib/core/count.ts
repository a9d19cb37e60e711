/**
 * Integers as runlens writes them in messages and reports: `1,000,000` (en-US grouping). Same
 * text as `toLocaleString("en-US")` for integers, without its cost: the first
 * `toLocaleString` of a process loads ICU's number formatting (~15–25 ms), which every
 * `runlens` command paid at start-up for a limit's message it usually never shows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { count } from "@runlens/core/count.ts";
 * assert.equal(count(1_073_741_824), "1,073,741,824");
 * assert.equal(count(-1234), "-1,234");
 * assert.equal(count(999), "999");
 * for (const x of [0, 7, 1000, 123456789, -5_000_000, 2 ** 53 - 1]) {
 *   assert.equal(count(x), x.toLocaleString("en-US"));
 * }
 * assert.equal(count(1234.5), (1234.5).toLocaleString("en-US")); // not an integer: as before
 * ```
 * @module
 */

/** `x` with its digits grouped by three (en-US); a non-integer as `toLocaleString` gives it. */
export function count(x: number): string {
  if (!Number.isSafeInteger(x)) return x.toLocaleString("en-US");
  const digits = String(Math.abs(x)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
  return x < 0 ? `-${digits}` : digits;
}
