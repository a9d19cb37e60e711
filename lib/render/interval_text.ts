/**
 * Intervals as text with enough decimals to say something: a bound that is not 0 never prints
 * as 0, and two bounds that differ never print alike. One rule for every printed interval
 * (`runlens compare`, the report's tables), so a number reads the same wherever it appears.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(intervalText(0.0132, 0.3391), "[0.01, 0.34]"); // not [0.0, 0.3]
 * assert.equal(intervalText(72.91, 75.04), "[72.9, 75.0]");
 * ```
 * @module
 */

/**
 * The decimals (from `min`, at most `max`) at which `low` and `high` print differently and
 * neither prints as 0 unless it is 0: a 0.06% accuracy's Wilson interval [0.0132, 0.339]
 * needs 2 (`[0.01, 0.34]`), identical runs on 10,000 examples (±0.0384) need 2, equal bounds
 * need `min`.
 *
 * @example
 * ```ts
 * intervalDigits(-0.0849, 0.0849); // 1
 * intervalDigits(-0.0384, 0.0384); // 2
 * intervalDigits(0, 0.0004); // 4
 * intervalDigits(3.21, 20.5); // 1
 * ```
 */
export function intervalDigits(low: number, high: number, min = 1, max = 4): number {
  const zeroInPrint = (x: number, d: number) => x !== 0 && Number(x.toFixed(d)) === 0;
  let d = min;
  while (
    d < max && low < high &&
    (low.toFixed(d) === high.toFixed(d) || zeroInPrint(low, d) || zeroInPrint(high, d))
  ) d++;
  return d;
}

/**
 * A number with fixed decimals, no locale and no `-0.0`; null, undefined and NaN as `–`.
 *
 * @example
 * ```ts
 * fixedText(12.345, 1); // "12.3"
 * fixedText(-0.01, 1); // "0.0"
 * fixedText(null, 1); // "–"
 * ```
 */
export function fixedText(v: number | null | undefined, digits: number): string {
  if (v === null || v === undefined || Number.isNaN(v)) return "–";
  const s = v.toFixed(digits);
  return /^-[0.]+$/.test(s) ? s.slice(1) : s;
}

/**
 * An interval as `[low, high]` at {@link intervalDigits} (at least `min` decimals); `–` when
 * a bound is missing.
 *
 * @example
 * ```ts
 * intervalText(1.234, 5.678); // "[1.2, 5.7]"
 * intervalText(0, 0.08); // "[0.0, 0.1]"
 * intervalText(null, 3); // "–"
 * ```
 */
export function intervalText(
  low: number | null | undefined,
  high: number | null | undefined,
  min = 1,
): string {
  if (low === null || low === undefined || high === null || high === undefined) return "–";
  const d = intervalDigits(low, high, min);
  return `[${fixedText(low, d)}, ${fixedText(high, d)}]`;
}

/**
 * An estimate and its interval, all at the interval's decimals ({@link intervalDigits}):
 * `0.06 [0.01, 0.34]`, `74.0 [72.9, 75.0]`; `unit` follows the estimate (`74.0% [72.9, 75.0]`).
 * Without an interval the estimate has `min` decimals.
 *
 * @example
 * ```ts
 * estimateText(0.0553, 0.0132, 0.339, "%"); // "0.06% [0.01, 0.34]"
 * estimateText(74.01, 72.93, 75.04); // "74.0 [72.9, 75.0]"
 * estimateText(44.8, null, null); // "44.8"
 * ```
 */
export function estimateText(
  value: number,
  low: number | null | undefined,
  high: number | null | undefined,
  unit = "",
  min = 1,
): string {
  if (low === null || low === undefined || high === null || high === undefined) {
    return `${fixedText(value, min)}${unit}`;
  }
  const d = intervalDigits(low, high, min);
  return `${fixedText(value, d)}${unit} [${fixedText(low, d)}, ${fixedText(high, d)}]`;
}
