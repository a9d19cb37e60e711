/**
 * Stratified bootstrap (lib/stats/bootstrap.ts, headline_bootstrap.ts): determinism, the
 * interval methods' definitions, the jackknife acceleration against an explicit
 * leave-one-out loop in Python (tests/_stats_reference.ts), the headline statistics against
 * lib/bbeh/aggregate.ts, one stratum against exact binomial quantiles, epochs (per-example
 * means), and the edge cases: empty strata, all right, all wrong, a task at 0%, one stratum.
 * Coverage on simulated runs is in stats_bootstrap_coverage.test.ts.
 */
import assert from "node:assert/strict";
import { harmonicMeanPlusOne } from "@runlens/benchmarks/bbeh/aggregate.ts";
import { binomialCdf } from "@runlens/stats/binomial.ts";
import {
  DEFAULT_BOOTSTRAP_SEED,
  DEFAULT_RESAMPLES,
  jackknifeAcceleration,
  strataFromRows,
  stratifiedBootstrap,
  type StratumInput,
} from "@runlens/stats/bootstrap.ts";
import {
  harmonicMeanBootstrap,
  harmonicMeanOfTotals,
  microBootstrap,
  microOfTotals,
  SPARSE_CORRECT,
} from "@runlens/stats/headline_bootstrap.ts";
import { meanWithSe } from "@runlens/stats/mean_se.ts";
import { JACKKNIFE_CASES } from "./_stats_reference.ts";

const TASKS: StratumInput[] = [
  { correct: 12, n: 200 },
  { correct: 45, n: 200 },
  { correct: 80, n: 200 },
  { correct: 31, n: 120 },
  { correct: 150, n: 200 },
];

Deno.test("defaults: 2,000 resamples, documented seed, 95%", () => {
  const ci = harmonicMeanBootstrap(TASKS);
  assert.equal(ci.resamples, DEFAULT_RESAMPLES);
  assert.equal(DEFAULT_RESAMPLES, 2000);
  assert.equal(ci.seed, DEFAULT_BOOTSTRAP_SEED);
  assert.equal(ci.level, 0.95);
  assert.equal(ci.method, "basic");
  assert.equal(microBootstrap(TASKS).method, "percentile");
});

Deno.test("determinism: same seed → identical interval; another seed → a different one", () => {
  for (const method of ["percentile", "basic", "bca"] as const) {
    const a = stratifiedBootstrap(TASKS, harmonicMeanOfTotals, { seed: 7, method });
    const b = stratifiedBootstrap(TASKS, harmonicMeanOfTotals, { seed: 7, method });
    assert.deepEqual(a, b);
    const c = stratifiedBootstrap(TASKS, harmonicMeanOfTotals, { seed: 8, method });
    assert.ok(a.low !== c.low || a.high !== c.high, method);
    assert.equal(a.estimate, c.estimate);
  }
  // default seed too, and through the headline wrappers
  assert.deepEqual(harmonicMeanBootstrap(TASKS), harmonicMeanBootstrap(TASKS));
  assert.deepEqual(microBootstrap(TASKS), microBootstrap(TASKS));
  assert.notDeepEqual(microBootstrap(TASKS), microBootstrap(TASKS, { seed: 1 }));
});

Deno.test("0/1 scores given as a list or as counts draw the same resamples", () => {
  const asScores: StratumInput[] = TASKS.map((t) => {
    const { correct, n } = t as { correct: number; n: number };
    // exactly `correct` ones, scattered
    return { scores: Array.from({ length: n }, (_, i) => ((i * 37) % n < correct ? 1 : 0)) };
  });
  assert.deepEqual(harmonicMeanBootstrap(asScores), harmonicMeanBootstrap(TASKS));
});

Deno.test("percentile and basic are reflections of each other around the estimate", () => {
  const p = stratifiedBootstrap(TASKS, harmonicMeanOfTotals, { method: "percentile" });
  const b = stratifiedBootstrap(TASKS, harmonicMeanOfTotals, { method: "basic" });
  assert.ok(Math.abs(b.low - (2 * p.estimate - p.high)) < 1e-12);
  assert.ok(Math.abs(b.high - (2 * p.estimate - p.low)) < 1e-12);
  assert.equal(p.se, b.se);
  // the harmonic mean's bootstrap distribution lies below the estimate (convexity), so the
  // basic interval sits higher than the percentile one
  assert.ok(b.low > p.low && b.high > p.high);
});

Deno.test("jackknife acceleration matches an explicit leave-one-out loop (Python)", () => {
  const mean = (s: ArrayLike<number>, n: ArrayLike<number>) => s[0] / n[0];
  for (const c of JACKKNIFE_CASES) {
    const stat = c.statistic === "mean" ? mean : harmonicMeanOfTotals;
    const a = jackknifeAcceleration(c.strata.map((scores) => ({ scores })), stat);
    assert.ok(Math.abs(a - c.a) < 1e-12, `${c.name}: ${a} vs ${c.a}`);
  }
  // nothing varies → 0
  assert.equal(jackknifeAcceleration([{ correct: 5, n: 5 }, { correct: 0, n: 3 }], mean), 0);
});

Deno.test("headline statistics equal lib/bbeh/aggregate.ts and the micro definition", () => {
  const sums = TASKS.map((t) => (t as { correct: number }).correct);
  const ns = TASKS.map((t) => (t as { n: number }).n);
  const acc = sums.map((s, k) => (100 * s) / ns[k]);
  assert.ok(Math.abs(harmonicMeanOfTotals(sums, ns) - harmonicMeanPlusOne(acc)) < 1e-12);
  assert.equal(microOfTotals(sums, ns), (100 * 318) / 920);
  assert.equal(harmonicMeanBootstrap(TASKS).estimate, harmonicMeanOfTotals(sums, ns));
  assert.equal(microBootstrap(TASKS).estimate, microOfTotals(sums, ns));
});

Deno.test("one stratum: the percentile interval is the binomial's quantiles", () => {
  // micro of one task of 60/200 resamples as 100·Bin(200, 0.3)/200; with 20,000 resamples
  // its 2.5% and 97.5% points are within one count of the exact binomial quantiles
  const ci = microBootstrap([{ correct: 60, n: 200 }], { resamples: 20_000 });
  const cdf = binomialCdf(200, 0.3);
  const quantile = (q: number) => cdf.findIndex((f) => f >= q);
  assert.ok(Math.abs(ci.low - quantile(0.025) / 2) <= 0.5, `low ${ci.low}`);
  assert.ok(Math.abs(ci.high - quantile(0.975) / 2) <= 0.5, `high ${ci.high}`);
  // and its SE is the binomial SD, 100·√(0.3·0.7/200) = 3.24
  assert.ok(Math.abs(ci.se - 100 * Math.sqrt(0.21 / 200)) < 0.05, `se ${ci.se}`);
});

Deno.test("epochs: per-example means are resampled directly; SE close to the CLT's", () => {
  // 3 epochs per example → means in {0, 1/3, 2/3, 1}
  const rows = [];
  for (let e = 0; e < 150; e++) {
    for (let r = 0; r < 3; r++) {
      rows.push({ stratum: "t", example: e, score: (e * 7 + r * 3) % 5 < 2 ? 1 : 0 });
    }
  }
  const { strata, epochs, names } = strataFromRows(rows);
  assert.deepEqual(names, ["t"]);
  assert.deepEqual(epochs, { min: 3, max: 3 });
  const means = (strata[0] as { scores: number[] }).scores;
  assert.equal(means.length, 150);
  assert.ok(means.some((m) => m > 0 && m < 1));
  const boot = microBootstrap(strata, { resamples: 5000 });
  const clt = meanWithSe(means)!;
  assert.ok(Math.abs(boot.estimate - 100 * clt.estimate) < 1e-9);
  assert.ok(Math.abs(boot.se / (100 * clt.se) - 1) < 0.05, `${boot.se} vs ${100 * clt.se}`);
});

Deno.test("strataFromRows: sorted names, means per example, epoch range, bad scores", () => {
  const r = strataFromRows([
    { stratum: "b", example: 1, score: 1 },
    { stratum: "a", example: "x", score: 0 },
    { stratum: "a", example: "x", score: 1 },
    { stratum: "a", example: "y", score: 1 },
    { stratum: "a", example: "x", score: 1 },
  ]);
  assert.deepEqual(r.names, ["a", "b"]);
  assert.deepEqual(r.strata, [{ scores: [2 / 3, 1] }, { scores: [1] }]);
  assert.deepEqual(r.epochs, { min: 1, max: 3 });
  assert.deepEqual(strataFromRows([]), { names: [], strata: [], epochs: { min: 0, max: 0 } });
  assert.throws(() => strataFromRows([{ stratum: "a", example: 1, score: 2 }]), RangeError);
});

Deno.test("edge cases: all right, all wrong, a task at 0%, one stratum, n = 0", () => {
  const all = harmonicMeanBootstrap(Array.from({ length: 23 }, () => ({ correct: 200, n: 200 })));
  assert.ok(Math.abs(all.estimate - 101) < 1e-12);
  // the replicates cannot vary (se 0), but the interval is not zero-width: each task is
  // widened to its Wilson bound (tests/stats_clustered_wilson.test.ts has the values)
  assert.deepEqual([all.high, all.se], [all.estimate, 0]);
  assert.ok(all.low < all.estimate - 1);
  assert.equal(all.sparseStrata, 0);
  const none = harmonicMeanBootstrap(Array.from({ length: 23 }, () => ({ correct: 0, n: 200 })));
  assert.deepEqual([none.estimate, none.low, none.se], [1, 1, 0]);
  assert.ok(none.high > 2);
  assert.equal(none.sparseStrata, 23);
  assert.match(none.note!, /23 task\(s\) with fewer than 5 correct/);
  // the plain percentile bootstrap of the library stays degenerate at 0%; the headline micro
  // average uses the Wilson interval instead (headline_ci.ts)
  const micro0 = microBootstrap([{ correct: 0, n: 50 }, { correct: 0, n: 10 }]);
  assert.deepEqual([micro0.estimate, micro0.low, micro0.high], [0, 0, 0]);

  // a task at 0% among others: the +1 offset keeps everything finite
  const withZero = [{ correct: 0, n: 200 }, ...TASKS];
  for (const method of ["percentile", "basic", "bca"] as const) {
    const ci = harmonicMeanBootstrap(withZero, { method });
    assert.ok(Number.isFinite(ci.low) && Number.isFinite(ci.high) && ci.low <= ci.high);
    assert.ok(ci.low >= 1 && ci.high <= 101);
    assert.ok(ci.low <= ci.estimate && ci.estimate <= ci.high, method);
  }
  assert.equal(harmonicMeanBootstrap(withZero).sparseStrata, 1);
  assert.equal(SPARSE_CORRECT, 5);

  // one stratum, one example
  const single = microBootstrap([{ correct: 1, n: 1 }]);
  assert.deepEqual([single.estimate, single.low, single.high], [100, 100, 100]);
  assert.equal(stratifiedBootstrap([{ scores: [0.5] }], microOfTotals, { method: "bca" }).low, 50);

  // n = 0 and other bad input
  assert.throws(() => harmonicMeanBootstrap([]), RangeError);
  assert.throws(() => harmonicMeanBootstrap([{ correct: 0, n: 0 }]), RangeError);
  assert.throws(() => harmonicMeanBootstrap([{ scores: [] }]), RangeError);
  assert.throws(() => harmonicMeanBootstrap([{ correct: 5, n: 4 }]), RangeError);
  assert.throws(() => harmonicMeanBootstrap([{ correct: 1.5, n: 4 }]), RangeError);
  assert.throws(() => harmonicMeanBootstrap([{ scores: [0.5, 1.2] }]), RangeError);
  assert.throws(() => harmonicMeanBootstrap(TASKS, { resamples: 1 }), RangeError);
  assert.throws(() => harmonicMeanBootstrap(TASKS, { level: 1 }), RangeError);
  assert.throws(
    () => harmonicMeanBootstrap(TASKS, { method: "studentized" as "basic" }),
    RangeError,
  );
  assert.throws(() => stratifiedBootstrap(TASKS, () => Number.NaN), RangeError);
});

Deno.test("bounds clip the basic interval; a wider level gives a wider interval", () => {
  const ci = stratifiedBootstrap(TASKS, harmonicMeanOfTotals, {
    method: "basic",
    bounds: [20, 25],
  });
  assert.ok(ci.low >= 20 && ci.high <= 25);
  const ci90 = harmonicMeanBootstrap(TASKS, { level: 0.9 });
  const ci99 = harmonicMeanBootstrap(TASKS, { level: 0.99 });
  assert.ok(ci99.low < ci90.low && ci99.high > ci90.high);
});

Deno.test("speed: a 23-task harmonic-mean bootstrap (4,520 examples, 2,000 resamples)", () => {
  const strata = Array.from({ length: 23 }, (_, k) => ({ correct: 10 + 7 * k, n: 200 }));
  harmonicMeanBootstrap(strata); // warm up
  const t0 = performance.now();
  for (let i = 0; i < 20; i++) harmonicMeanBootstrap(strata, { seed: i });
  const ms = (performance.now() - t0) / 20;
  // ~1.5 ms on an idle 2-core machine; generous bound for a loaded one
  assert.ok(ms < 50, `${ms.toFixed(1)} ms per bootstrap`);
});
