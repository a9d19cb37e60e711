/**
 * Test helper: check a per-task cell of a run summary — counts and accuracy exactly, and its
 * 95% Wilson interval against an independent evaluation of Wilson's formula (Newcombe 1998,
 * method 3), within 1e-9 (and to 2 decimals for the rounded JSON report).
 *
 * @example
 * ```ts
 * assertTaskCell({ n: 3, correct: 2, accuracy: 200 / 3, ci_low: 20.77, ci_high: 93.85 },
 *   { n: 3, correct: 2, accuracy: 200 / 3 }, { rounded: true });
 * ```
 * @module
 */
import assert from "node:assert/strict";

/** Wilson's 95% interval for x of n, percent, from the closed form. */
function wilson(x: number, n: number): [number, number] {
  const z = 1.959963984540054;
  const p = x / n;
  const centre = p + (z * z) / (2 * n);
  const half = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
  const denom = 1 + (z * z) / n;
  return [((centre - half) / denom) * 100, ((centre + half) / denom) * 100];
}

/**
 * Assert `actual` has the counts and accuracy of `expected` (and its `no_answer`, when
 * `expected` states one) and the Wilson interval.
 */
export function assertTaskCell(
  actual: Record<string, number>,
  expected: { n: number; correct: number; accuracy: number; no_answer?: number },
  opts: { rounded?: boolean; message?: string } = {},
): void {
  const { ci_low, ci_high, no_answer, ...rest } = actual;
  const { no_answer: expectedNoAnswer, ...counts } = expected;
  assert.deepEqual(rest, counts, opts.message);
  if (expectedNoAnswer !== undefined) assert.equal(no_answer, expectedNoAnswer, opts.message);
  const [low, high] = wilson(expected.correct, expected.n);
  const tol = opts.rounded ? 0.005 + 1e-9 : 1e-9;
  assert.ok(Math.abs(ci_low - low) <= tol, `${opts.message ?? ""} ci_low ${ci_low} vs ${low}`);
  assert.ok(Math.abs(ci_high - high) <= tol, `${opts.message ?? ""} ci_high ${ci_high} vs ${high}`);
}
