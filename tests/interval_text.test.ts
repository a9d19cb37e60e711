/**
 * Printed intervals say something (issue 24): a bound that is not 0 never prints as 0 and two
 * different bounds never print alike — on Wilson intervals of rare events computed here from
 * the formula (not by the library), and on the paired intervals `runlens compare` prints.
 */
import assert from "node:assert/strict";
import { estimateText, intervalDigits, intervalText } from "@runlens/render/interval_text.ts";
import { diffText } from "@runlens/cli/compare.ts";

/** Wilson's 95% score interval of k of n, in percent, from the formula. */
function wilson(k: number, n: number): [number, number] {
  const z = 1.959963984540054, p = k / n, z2 = z * z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (z * Math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return [100 * (centre - half), 100 * (centre + half)];
}

Deno.test("intervals of rare events print with the digits they need", () => {
  // 1 of 1,600 (0.06%): [0.011, 0.354] at one decimal would read [0.0, 0.4]
  const [lo, hi] = wilson(1, 1600);
  assert.ok(lo > 0.01 && lo < 0.015 && hi > 0.35 && hi < 0.36, `${lo}, ${hi}`);
  assert.equal(intervalText(lo, hi), "[0.01, 0.35]");
  assert.equal(estimateText(100 / 1600, lo, hi, "%"), "0.06% [0.01, 0.35]");
  // 0 of 4,520: the lower bound is exactly 0 and may print so; the upper one may not
  const [lo0, hi0] = wilson(0, 4520);
  assert.equal(lo0 === 0 || Math.abs(lo0) < 1e-12, true);
  assert.equal(intervalText(0, hi0), "[0.0, 0.1]");
  // 4,519 of 4,520: bounds that differ in the second decimal
  const [lo1, hi1] = wilson(4519, 4520);
  assert.equal(intervalDigits(lo1, hi1), 1);
  assert.equal(intervalText(lo1, hi1), `[${lo1.toFixed(1)}, ${hi1.toFixed(1)}]`);
  assert.notEqual(lo1.toFixed(1), hi1.toFixed(1));
});

Deno.test("interval digits: at least one, at most four; equal bounds and zeros stay as they are", () => {
  assert.equal(intervalDigits(12.34, 56.78), 1);
  assert.equal(intervalDigits(5, 5), 1); // one value: nothing to tell apart
  assert.equal(intervalText(0, 0), "[0.0, 0.0]"); // both exactly 0: 0 is what they are
  assert.equal(intervalDigits(0.00001, 0.00002), 4); // the cap
  assert.equal(intervalText(null, 1), "–");
  assert.equal(estimateText(44.8, null, null), "44.8");
});

Deno.test("compare's differences use the same rule", () => {
  // identical runs on 10,000 examples: ±0.0384 points
  assert.equal(diffText(0, -0.0384, 0.0384), "0.0 [-0.04, 0.04]");
  assert.equal(diffText(-21.63, -23.12, -20.19), "-21.6 [-23.1, -20.2]");
});
