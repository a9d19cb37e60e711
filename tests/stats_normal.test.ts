/**
 * Normal quantile (AS 241) and CDF: against SciPy's `norm.ppf` (tests/_stats_reference.ts,
 * printed by tests/reference/stats_reference.py), symmetry, the project's Z95 constant, and
 * the round trip through the CDF.
 */
import assert from "node:assert/strict";
import { normalCdf, normalQuantile } from "@runlens/stats/normal.ts";
import { Z95 } from "@runlens/stats/wilson.ts";
import { NORMAL_QUANTILES } from "./_stats_reference.ts";

Deno.test("normalQuantile matches SciPy norm.ppf to 1e-14 relative", () => {
  for (const [p, z] of NORMAL_QUANTILES) {
    const got = normalQuantile(p);
    assert.ok(Math.abs(got - z) <= 1e-14 * Math.max(1, Math.abs(z)), `p=${p}: ${got} vs ${z}`);
  }
});

Deno.test("normalQuantile: Z95, symmetry, ends, bad input", () => {
  assert.ok(Math.abs(normalQuantile(0.975) - Z95) < 1e-15);
  for (const p of [1e-6, 0.01, 0.2, 0.4, 0.49]) {
    assert.ok(
      Math.abs(normalQuantile(p) + normalQuantile(1 - p)) <
        1e-9 * Math.abs(normalQuantile(p)) + 1e-15,
    );
  }
  assert.equal(normalQuantile(0), -Infinity);
  assert.equal(normalQuantile(1), Infinity);
  assert.throws(() => normalQuantile(-0.1), RangeError);
  assert.throws(() => normalQuantile(1.1), RangeError);
  assert.throws(() => normalQuantile(Number.NaN), RangeError);
});

Deno.test("normalCdf inverts normalQuantile to the 1e-7 accuracy of erf", () => {
  for (const p of [0.001, 0.025, 0.1, 0.5, 0.8, 0.975, 0.999]) {
    assert.ok(Math.abs(normalCdf(normalQuantile(p)) - p) < 2e-7, `p=${p}`);
  }
  assert.equal(normalCdf(Infinity), 1);
  assert.equal(normalCdf(-Infinity), 0);
});
