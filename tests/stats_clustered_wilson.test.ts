/**
 * Issue 24, items 2 and 5: the Wilson interval of clustered examples (lib/stats/clustered_wilson.ts)
 * against statsmodels (tests/reference/stats_reference.py: HC0 variance of the per-example means,
 * `proportion_confint(method="wilson")`), Newcombe's published Wilson values, and the property
 * the issue asks for: the same verdicts logged twice as epochs 1 and 2 give the interval of
 * once; and no zero-width interval at 0% or 100%, for a task, the micro average or the
 * harmonic mean.
 */
import assert from "node:assert/strict";
import {
  clusteredWilson,
  effectiveSampleSize,
  summariseExamples,
  wilsonOfExamples,
} from "@runlens/stats/clustered_wilson.ts";
import { harmonicMeanCIOfStrata, microCIOfClusters } from "@runlens/stats/headline_ci.ts";
import { harmonicMeanBootstrap } from "@runlens/stats/headline_bootstrap.ts";
import { Z95 } from "@runlens/stats/wilson.ts";
import { CLUSTERED_WILSON_CASES, WILSON_0_OF_200_HIGH } from "./_stats_reference.ts";

function near(actual: number, expected: number, what: string, tol = 1e-10): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected}`);
}

Deno.test("clustered Wilson matches statsmodels (effective n from the HC0 variance)", () => {
  for (const c of CLUSTERED_WILSON_CASES) {
    const ci = clusteredWilson(c.clusters)!;
    near(ci.estimate, c.estimate, `${c.name} estimate`);
    near(ci.effectiveN, c.effectiveN, `${c.name} n_eff`);
    near(ci.low, c.low, `${c.name} low`);
    near(ci.high, c.high, `${c.name} high`);
  }
});

Deno.test("every row logged twice as epoch 2 gives the interval of once (not √2 narrower)", () => {
  // Newcombe (1998), Table I: 15 of 148 → [0.0624, 0.1605]
  const once = Array.from({ length: 148 }, (_, i) => [i < 15 ? 1 : 0]);
  const twice = once.map(([v]) => [v, v]);
  for (const clusters of [once, twice]) {
    const ci = clusteredWilson(clusters)!;
    near(ci.low, 6.24, "low", 0.005);
    near(ci.high, 16.05, "high", 0.005);
  }
  const a = clusteredWilson(once)!, b = clusteredWilson(twice)!;
  assert.deepEqual([b.low, b.high, b.effectiveN], [a.low, a.high, 148]);
  // three copies, in any order of epochs: still the same
  const thrice = once.map(([v]) => [v, v, v]);
  assert.deepEqual([clusteredWilson(thrice)!.low, clusteredWilson(thrice)!.high], [a.low, a.high]);
});

Deno.test("effective n: G when epochs agree, up to N when they behave like independent rows", () => {
  // p(1 − p)/Var_CR0 by hand: means [1, 0.5, 0.5, 0] → p = 0.5, Var = (0.25 + 0 + 0 + 0.25)/16
  const s = summariseExamples([[1, 1], [1, 0], [0, 1], [0, 0]]);
  assert.deepEqual(s, { examples: 4, rows: 8, mean: 0.5, variance: 0.125 });
  near(effectiveSampleSize(s), 0.25 / (0.125 / 4), "n_eff = 8");
  // every example half right: no between-example variance; capped at N rows
  assert.equal(effectiveSampleSize(summariseExamples([[1, 0], [0, 1], [1, 0]])), 6);
  // 0% or 100%: G, never N (nothing disagrees)
  assert.equal(effectiveSampleSize(summariseExamples([[0, 0, 0], [0, 0, 0]])), 2);
  assert.equal(wilsonOfExamples({ examples: 0, rows: 0, mean: 0, variance: 0 }), null);
  assert.throws(() => summariseExamples([[]]), RangeError);
  assert.throws(() => wilsonOfExamples({ examples: 3, rows: 2, mean: 0, variance: 0 }), RangeError);
});

Deno.test("never zero-width: a task, the micro average and the harmonic mean at 0% and 100%", () => {
  // Wilson at 0 of n: [0, z²/(n + z²)] by hand (p = 0 in the score formula)
  const wrong = microCIOfClusters(Array.from({ length: 4520 }, () => [0]))!;
  assert.equal(wrong.ci_low, 0);
  near(wrong.ci_high, (100 * Z95 * Z95) / (4520 + Z95 * Z95), "micro 0/4520", 1e-12);
  assert.equal(wrong.ci_high.toFixed(2), "0.08");
  const right = microCIOfClusters(Array.from({ length: 200 }, () => [1, 1]))!;
  near(right.ci_low, 100 - (100 * Z95 * Z95) / (200 + Z95 * Z95), "micro 200/200", 1e-12);
  assert.equal(right.ci_high, 100);
  // harmonic mean of 23 tasks of 200: each task at its Wilson bound (statsmodels: 1.8845%)
  const zeros = Array.from({ length: 23 }, () => ({ correct: 0, n: 200 }));
  const all0 = harmonicMeanBootstrap(zeros);
  assert.deepEqual([all0.estimate, all0.low], [1, 1]);
  near(all0.high, 1 + WILSON_0_OF_200_HIGH, "HM all wrong", 1e-10);
  assert.equal(all0.constantStrata, 23);
  const all1 = harmonicMeanBootstrap(zeros.map(() => ({ correct: 200, n: 200 })));
  near(all1.low, 101 - WILSON_0_OF_200_HIGH, "HM all right", 1e-10);
  near(all1.high, 101, "HM all right high", 1e-10);
  const ci = harmonicMeanCIOfStrata({
    names: zeros.map((_, i) => `t${i}`),
    strata: zeros,
    epochs: { min: 1, max: 1 },
  })!;
  assert.match(ci.method, /widened to 23 task\(s\) at 0% or 100% at their Wilson bounds/);
  // no constant task: the bootstrap interval untouched
  const mixed = harmonicMeanBootstrap(zeros.map((_, i) => ({ correct: 20 + i, n: 200 })));
  assert.equal(mixed.constantStrata, 0);
});
