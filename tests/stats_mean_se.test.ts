/**
 * CLT and cluster-robust standard errors of a mean: against NumPy (CLT) and statsmodels'
 * cluster-robust OLS (CR1) on the data of tests/_stats_reference.ts (printed by
 * tests/reference/stats_reference.py); the identities that motivate CR1 (one score per
 * cluster = CLT; equal cluster sizes = CLT of the cluster means); hand-computed cases; edge
 * cases.
 */
import assert from "node:assert/strict";
import { clusteredMeanWithSe } from "@runlens/stats/clustered_se.ts";
import { meanWithSe } from "@runlens/stats/mean_se.ts";
import { Z95 } from "@runlens/stats/wilson.ts";
import { CLT_CASES, CLUSTERED_CASES } from "./_stats_reference.ts";

function near(actual: number, expected: number, what: string, tol = 1e-12): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected}`);
}

Deno.test("meanWithSe matches NumPy: std(ddof=1)/√n, 95% normal interval", () => {
  for (const c of CLT_CASES) {
    const m = meanWithSe(c.scores)!;
    assert.equal(m.n, c.n);
    assert.equal(m.method, "clt");
    near(m.estimate, c.estimate, `${c.name} mean`);
    near(m.se, c.se, `${c.name} se`);
    near(m.low, c.estimate - Z95 * c.se, `${c.name} low`);
    near(m.high, c.estimate + Z95 * c.se, `${c.name} high`);
  }
});

Deno.test("meanWithSe by hand: 0/1 scores give √(p(1−p)/(n−1))", () => {
  // 3 of 4: p = 0.75, √(0.75·0.25/3) = 0.25
  near(meanWithSe([1, 0, 1, 1])!.se, 0.25, "3/4");
  // 30 of 200: √(0.15·0.85/199)
  const scores = Array.from({ length: 200 }, (_, i) => (i < 30 ? 1 : 0));
  near(meanWithSe(scores)!.se, Math.sqrt((0.15 * 0.85) / 199), "30/200");
});

Deno.test("clusteredMeanWithSe matches statsmodels OLS cov_type='cluster' (CR1)", () => {
  for (const c of CLUSTERED_CASES) {
    const m = clusteredMeanWithSe(c.clusters)!;
    assert.equal(m.n, c.n);
    assert.equal(m.clusters, c.g);
    assert.equal(m.method, "clustered");
    near(m.estimate, c.estimate, `${c.name} mean`);
    near(m.se, c.se, `${c.name} se`);
    near(m.high - m.estimate, Z95 * c.se, `${c.name} half-width`);
    // without the G/(G − 1) factor (CR0) it is smaller by √((G − 1)/G)
    near(m.se * Math.sqrt((c.g - 1) / c.g), c.seCr0, `${c.name} vs CR0`);
    // Miller's form lies between CR0 and CR1 (its diagonal has n − 1, its cross terms n)
    assert.ok(c.seCr0 <= c.seMillerUncorrected && c.seMillerUncorrected <= m.se + 1e-15);
  }
});

Deno.test("CR1 identities: singletons = CLT SE; equal cluster sizes = CLT SE of the means", () => {
  const singles = CLUSTERED_CASES.find((c) => c.name === "singletons")!;
  near(
    clusteredMeanWithSe(singles.clusters)!.se,
    meanWithSe(singles.clusters.flat())!.se,
    "singletons",
  );
  const balanced = CLUSTERED_CASES.find((c) => c.name === "balanced")!;
  const means = balanced.clusters.map((c) => c.reduce((a, b) => a + b, 0) / c.length);
  near(clusteredMeanWithSe(balanced.clusters)!.se, meanWithSe(means)!.se, "balanced");
  near(balanced.se, balanced.seOfClusterMeans, "reference agrees");
  // unequal sizes: not the same thing (row-weighted mean vs mean of means)
  const unequal = CLUSTERED_CASES.find((c) => c.name === "unequal")!;
  assert.ok(Math.abs(unequal.se - unequal.seOfClusterMeans) > 1e-3);
});

Deno.test("clustering widens the interval when epochs agree with each other", () => {
  // 50 questions × 4 epochs, every epoch agreeing: the information is 50 scores, not 200
  const clusters = Array.from({ length: 50 }, (_, i) => Array<number>(4).fill(i % 3 === 0 ? 1 : 0));
  const clustered = clusteredMeanWithSe(clusters)!;
  const naive = meanWithSe(clusters.flat())!;
  near(clustered.estimate, naive.estimate, "same mean");
  // by hand, p = 17/50: naive SE² = p(1−p)/199, clustered (50/49)·16·50·p(1−p)/200² = p(1−p)/49
  near(clustered.se / naive.se, Math.sqrt(199 / 49), "ratio", 1e-12);
});

Deno.test("edge cases: no scores, one score, one cluster, all right, all wrong, bad input", () => {
  assert.equal(meanWithSe([]), null);
  assert.equal(clusteredMeanWithSe([]), null);
  const one = meanWithSe([1])!;
  assert.equal(one.estimate, 1);
  assert.ok(Number.isNaN(one.se) && Number.isNaN(one.low) && Number.isNaN(one.high));
  const oneCluster = clusteredMeanWithSe([[1, 0, 1]])!;
  assert.equal(oneCluster.clusters, 1);
  assert.ok(Number.isNaN(oneCluster.se));
  for (const v of [0, 1]) {
    const m = meanWithSe(Array<number>(20).fill(v))!;
    assert.deepEqual([m.estimate, m.se, m.low, m.high], [v, 0, v, v]);
    const c = clusteredMeanWithSe([[v, v], [v], [v, v, v]])!;
    assert.deepEqual([c.estimate, c.se], [v, 0]);
  }
  assert.throws(() => meanWithSe([1, Number.NaN]), RangeError);
  assert.throws(() => clusteredMeanWithSe([[1], []]), RangeError);
  assert.throws(() => clusteredMeanWithSe([[1], [Infinity]]), RangeError);
  assert.throws(() => meanWithSe([1, 0], { z: 0 }), RangeError);
  near(meanWithSe([1, 0], { z: 1 })!.high, 1, "z = 1");
});
