/**
 * Paired comparisons (lib/stats/paired.ts, mcnemar.ts, holm.ts, mde.ts) against published and
 * independently computed values:
 * - McNemar's exact test: Fagerland, Lydersen & Laake (2013), BMC Med Res Methodol 13:91,
 *   Table 1 (Bentur et al. airway hyper-responsiveness, b = 1, c = 7: exact p = 0.070);
 *   hand-computed exact binomial tails; statsmodels `mcnemar(exact=True)` for the rest;
 * - Holm: the four-hypothesis Holm–Bonferroni example (p = 0.01, 0.04, 0.03, 0.005 at
 *   α = 0.05: H1 and H4 rejected) and statsmodels `multipletests(method="holm")`;
 * - MDE: Connor (1987) as worked by the open power calculators (p01 = 0.45, p10 = 0.05,
 *   α = 0.05, power 0.8: n = 22.01, i.e. 23 pairs);
 * - paired SE: NumPy's SD of the differences, equal to √((var a + var b − 2 cov)/n) and to
 *   SciPy's ttest_rel (tests/reference/stats_reference.py);
 * - Tango's interval: an independent SciPy implementation (numerical constrained MLE, Brent)
 *   and its closed form ±z²/(n + z²) with no discordant pair; Connor's MDE solved by brentq and
 *   the exact power of McNemar's test there (SciPy); log₁₀ p-values from log-gamma terms.
 */
import assert from "node:assert/strict";
import { holmAdjust, holmAdjustLog10 } from "@runlens/stats/holm.ts";
import { mcnemarExact, mcnemarExactLog10 } from "@runlens/stats/mcnemar.ts";
import { mdeFromDiscordance, minimumDetectableDifference } from "@runlens/stats/mde.ts";
import {
  compareTasks,
  type KeyedScore,
  pairedComparison,
  pairedDifference,
  pairScores,
} from "@runlens/stats/paired.ts";
import { tangoInterval, tangoStatistic } from "@runlens/stats/tango.ts";
import { Z95 } from "@runlens/stats/wilson.ts";
import {
  HOLM_CASES,
  LOG10_MCNEMAR_CASES,
  MCNEMAR_CASES,
  MDE_POWER_CASES,
  MDE_REFERENCE,
  PAIRED_CASES,
  TANGO_CASES,
} from "./_stats_reference.ts";

function near(actual: number, expected: number, what: string, tol = 1e-12): void {
  assert.ok(Math.abs(actual - expected) <= tol, `${what}: ${actual} vs ${expected}`);
}

Deno.test("McNemar exact: Fagerland et al. (2013) Table 1, b = 1, c = 7 → 0.070", () => {
  const p = mcnemarExact(1, 7);
  assert.equal(p.toFixed(3), "0.070");
  near(p, 18 / 256, "2·(C(8,0) + C(8,1))/2⁸"); // exact rational
  // the mid-p and asymptotic values of the same paper follow from the same counts
  near(p - 8 / 256, 0.0390625, "mid-p = exact − P(X = 1)");
});

Deno.test("McNemar exact: hand-computed binomial tails", () => {
  const cases: [number, number, number][] = [
    [0, 5, 2 / 32], // 2·P(X ≤ 0), X ~ Bin(5, ½)
    [2, 9, (2 * (1 + 11 + 55)) / 2048], // 2·(C(11,0)+C(11,1)+C(11,2))/2¹¹
    [3, 3, 1], // b = c
    [0, 0, 1], // no discordant pairs
    [4, 5, 1], // 2·P(X ≤ 4) of Bin(9, ½) = 1 exactly
    [0, 1, 1], // 2·½ = 1
    [1, 0, 1],
    [0, 10, 2 / 1024],
  ];
  for (const [b, c, want] of cases) near(mcnemarExact(b, c), want, `b=${b} c=${c}`, 1e-15);
});

Deno.test("McNemar exact matches statsmodels mcnemar(exact=True), symmetric in b and c", () => {
  for (const [b, c, want] of MCNEMAR_CASES) {
    const got = mcnemarExact(b, c);
    assert.ok(
      Math.abs(got - want) <= 1e-12 * Math.max(1e-3, want),
      `b=${b} c=${c}: ${got} vs ${want}`,
    );
    assert.equal(mcnemarExact(c, b), got);
  }
  // (480, 520) is summed directly, (490, 511) and (4900, 5100) in log space: all in the table;
  // an astronomically small p underflows to 0 rather than failing
  assert.equal(mcnemarExact(0, 2000), 0); // 2·2⁻²⁰⁰⁰
  assert.throws(() => mcnemarExact(-1, 3), RangeError);
  assert.throws(() => mcnemarExact(1.5, 3), RangeError);
});

Deno.test("Holm: the four-hypothesis example rejects H1 and H4 at α = 0.05", () => {
  const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
  assert.deepEqual(adjusted.map((p) => p <= 0.05), [true, false, false, true]);
  // by hand: sorted 0.005·4, 0.01·3, 0.03·2 → 0.06, 0.04·1 → max(0.04, 0.06)
  const want = [0.03, 0.06, 0.06, 0.02];
  adjusted.forEach((p, i) => near(p, want[i], `H${i + 1}`, 1e-15));
});

Deno.test("Holm matches statsmodels multipletests(method='holm'); monotone and capped", () => {
  for (const c of HOLM_CASES) {
    const got = holmAdjust(c.p);
    got.forEach((p, i) => near(p, c.adjusted[i], `${c.name}[${i}]`, 1e-15));
    // never below the raw p, capped at 1, same order as the raw p-values
    got.forEach((p, i) => assert.ok(p >= c.p[i] && p <= 1));
    for (let i = 0; i < c.p.length; i++) {
      for (let j = 0; j < c.p.length; j++) {
        if (c.p[i] <= c.p[j]) assert.ok(got[i] <= got[j], `${c.name}: monotone`);
      }
    }
  }
  assert.deepEqual(holmAdjust([]), []);
  assert.deepEqual(holmAdjust([0.3]), [0.3]);
  assert.throws(() => holmAdjust([0.1, 1.2]), RangeError);
  assert.throws(() => holmAdjust([Number.NaN]), RangeError);
});

Deno.test("MDE: (z_.975 + z_.8)·SE; Connor's published example (23 pairs for δ = 0.4)", () => {
  near(minimumDetectableDifference(1), MDE_REFERENCE.zSum, "z sum", 1e-14);
  near(minimumDetectableDifference(0.02), 0.02 * MDE_REFERENCE.zSum, "× SE", 1e-15);
  // Connor (1987): p01 = 0.45, p10 = 0.05 → ψ = 0.5, δ = 0.4 needs n = 22.01 → 23 pairs
  assert.equal(Math.ceil(MDE_REFERENCE.connorN), 23);
  near(mdeFromDiscordance(0.5, MDE_REFERENCE.connorN)!, 0.4, "inverse at n = 22.01", 1e-12);
  assert.ok(mdeFromDiscordance(0.5, 23)! < 0.4 && mdeFromDiscordance(0.5, 22)! > 0.4);
  // more pairs, smaller MDE; more discordance, larger MDE
  assert.ok(mdeFromDiscordance(0.2, 800)! < mdeFromDiscordance(0.2, 200)!);
  assert.ok(mdeFromDiscordance(0.3, 200)! > mdeFromDiscordance(0.1, 200)!);
  // for large n it approaches (z_a + z_b)·√(ψ/n), the SE of d̄ under H₀
  near(
    mdeFromDiscordance(0.2, 1e6)! / (MDE_REFERENCE.zSum * Math.sqrt(0.2 / 1e6)),
    1,
    "large n",
    1e-3,
  );
  assert.equal(mdeFromDiscordance(0, 100), null);
  assert.equal(mdeFromDiscordance(0.5, 3), null); // n ≤ z² = 3.84
  assert.equal(mdeFromDiscordance(0.01, 5), null); // would need δ > ψ
  assert.throws(() => mdeFromDiscordance(1.5, 10), RangeError);
  assert.throws(() => minimumDetectableDifference(1, { power: 1 }), RangeError);
});

Deno.test("paired difference matches NumPy/SciPy: SE, Tango interval, discordant counts, MDE", () => {
  for (const c of PAIRED_CASES) {
    const d = pairedDifference(c.a.map((a, i) => ({ a, b: c.b[i] })))!;
    assert.equal(d.n, c.n);
    near(d.estimate, c.estimate, `${c.name} d̄`);
    near(d.se, c.se, `${c.name} se`);
    // the script solves Tango's equations by a numerical constrained MLE: ~1e-9
    near(d.low, c.tango[0], `${c.name} low`, 1e-7);
    near(d.high, c.tango[1], `${c.name} high`, 1e-7);
    assert.equal(d.mde, c.connor);
    assert.equal(d.aBetter, c.aBetter);
    assert.equal(d.bBetter, c.bBetter);
    assert.equal(d.pValue, mcnemarExact(c.aBetter, c.bBetter));
  }
  const binary = pairedDifference(
    PAIRED_CASES[0].a.map((a, i) => ({ a, b: PAIRED_CASES[0].b[i] })),
  )!;
  assert.equal(binary.test, "mcnemar-exact");
  const means = pairedDifference(
    PAIRED_CASES[1].a.map((a, i) => ({ a, b: PAIRED_CASES[1].b[i] })),
  )!;
  assert.equal(means.test, "sign-exact");
});

Deno.test("Tango's interval matches an independent implementation (SciPy)", () => {
  for (const [b, c, n, low, high] of TANGO_CASES) {
    const ci = tangoInterval(b, c, n);
    near(ci.low, low, `${b}/${c}/${n} low`, 1e-7);
    near(ci.high, high, `${b}/${c}/${n} high`, 1e-7);
  }
});

Deno.test("Tango: closed forms — no discordance gives ±z²/(n + z²); at δ = 0 it is McNemar's z", () => {
  // with b = c = 0, T(δ) = −√(nδ/(1 − δ)) for δ > 0, so T = −z at δ = z²/(n + z²): the Wilson
  // bound of 0 of n. On 4,520 identical examples that is ±0.0849 points, not [0, 0].
  for (const n of [1, 20, 200, 4520]) {
    const ci = tangoInterval(0, 0, n);
    const want = (Z95 * Z95) / (n + Z95 * Z95);
    near(ci.high, want, `n=${n} high`, 1e-14);
    near(ci.low, -want, `n=${n} low`, 1e-14);
  }
  near(tangoStatistic(7, 1, 21, 0), 6 / Math.sqrt(8), "McNemar z", 1e-14);
  near(tangoStatistic(40, 20, 160, 0), 20 / Math.sqrt(60), "McNemar z", 1e-14);
  assert.throws(() => tangoInterval(5, 6, 10), RangeError);
  assert.throws(() => tangoInterval(-1, 0, 10), RangeError);
});

Deno.test("paired interval: within [−100, 100] and excludes 0 exactly when the exact test rejects", () => {
  // every table of up to 30 pairs: the old Wald interval was 50.0 [−48.0, 148.0] at n = 4
  let extended = 0;
  for (let n = 1; n <= 30; n++) {
    for (let b = 0; b <= n; b++) {
      for (let c = 0; b + c <= n; c++) {
        const pairs = [
          ...Array.from({ length: b }, () => ({ a: 1, b: 0 })),
          ...Array.from({ length: c }, () => ({ a: 0, b: 1 })),
          ...Array.from({ length: n - b - c }, () => ({ a: 1, b: 1 })),
        ];
        const d = pairedDifference(pairs)!;
        const what = `n=${n} b=${b} c=${c}`;
        assert.ok(d.low >= -1 && d.high <= 1 && d.low <= d.estimate && d.estimate <= d.high, what);
        assert.ok(d.high > d.low, `${what}: zero width`);
        assert.equal(d.low > 0 || d.high < 0, mcnemarExact(b, c) < 0.05, what);
        if (d.extendedToZero) extended++;
      }
    }
  }
  assert.ok(extended > 0); // e.g. 7 vs 1: McNemar's z = 2.12 rejects, the exact p = 0.070 not
  const bentur = pairedDifference([
    ...Array.from({ length: 7 }, () => ({ a: 1, b: 0 })),
    { a: 0, b: 1 },
  ])!;
  assert.equal(bentur.pValue, 18 / 256);
  assert.equal(bentur.extendedToZero, true);
  assert.equal(bentur.low, 0);
});

Deno.test("MDE: Connor's formula at the discordance, not 2.8 × the observed SE (issue 24)", () => {
  for (const [n, b, c, connor, power, oldMde, oldPower] of MDE_POWER_CASES) {
    const d = pairedDifference([
      ...Array.from({ length: b }, () => ({ a: 1, b: 0 })),
      ...Array.from({ length: c }, () => ({ a: 0, b: 1 })),
      ...Array.from({ length: n - b - c }, () => ({ a: 0, b: 0 })),
    ])!;
    near(d.mde!, connor, `${n}/${b}/${c} Connor`, 1e-9);
    // SciPy's exact power of McNemar's exact test at that difference: close to 80% (the exact
    // test is a little conservative), never far below it as the old value could be
    assert.ok(power > 0.75 && power < 0.8, `${n}/${b}/${c}: power ${power}`);
    near(minimumDetectableDifference(d.se), oldMde, `${n}/${b}/${c} old`, 1e-9);
    if (n === 290) {
      // the issue: 8.2 points "detectable at 80%" had 32% power; Connor says 14.7
      assert.equal((100 * oldMde).toFixed(1), "8.2");
      assert.equal((100 * d.mde!).toFixed(1), "14.7");
      assert.ok(oldPower < 0.33);
    }
  }
});

Deno.test("log₁₀ p-values where the p-value underflows (SciPy, log-gamma terms)", () => {
  for (const [b, c, l] of LOG10_MCNEMAR_CASES) {
    near(mcnemarExactLog10(b, c), l, `${b}/${c}`, 1e-9);
  }
  assert.equal(mcnemarExact(0, 2000), 0); // the double underflows …
  assert.ok(Number.isFinite(mcnemarExactLog10(0, 2000))); // … its logarithm does not
  assert.equal(mcnemarExactLog10(3, 3), 0);
  // Holm on log₁₀ p: the same as holmAdjust (statsmodels) where both are representable
  for (const c of HOLM_CASES) {
    const got = holmAdjustLog10(c.p.map(Math.log10)).map((x) => 10 ** x);
    got.forEach((p, i) => near(p, c.adjusted[i], `${c.name}[${i}]`, 1e-12));
  }
  // by hand: 2·10⁻⁷⁰⁰ then max(10⁻², 2·10⁻⁷⁰⁰) = 10⁻²
  const [x, y] = holmAdjustLog10([-700, -2]);
  near(x, -700 + Math.log10(2), "2·10⁻⁷⁰⁰", 1e-9);
  assert.equal(y, -2);
});

Deno.test("pairing averages epochs first and reports unpaired keys on each side", () => {
  const a: KeyedScore[] = [["q1", 1], ["q1", 0], ["q2", 1], ["q3", 0], ["q1", 1], ["only-a", 1]];
  const b: KeyedScore[] = [["q2", 0], ["q1", 1], ["q3", 1], ["q3", 1], ["only-b", 0], ["b2", 1]];
  const p = pairScores(a, b);
  assert.deepEqual(p.pairs, [
    { key: "q1", a: 2 / 3, b: 1, epochsA: 3, epochsB: 1 },
    { key: "q2", a: 1, b: 0, epochsA: 1, epochsB: 1 },
    { key: "q3", a: 0, b: 1, epochsA: 1, epochsB: 2 },
  ]);
  assert.deepEqual(p.unpairedA, ["only-a"]);
  assert.deepEqual(p.unpairedB, ["only-b", "b2"]);
  const cmp = pairedComparison(a, b)!;
  assert.deepEqual(cmp.unpaired, { a: 1, b: 2 });
  assert.equal(cmp.n, 3);
  near(cmp.estimate, (2 / 3 - 1 + 1 - 0 + 0 - 1) / 3, "d̄ over example means");
  assert.equal(cmp.test, "sign-exact");
  assert.deepEqual([cmp.aBetter, cmp.bBetter], [1, 2]);
  assert.throws(() => pairScores([["x", Number.NaN]], []), RangeError);
});

Deno.test("the paired SE is smaller than the unpaired one when the runs agree", () => {
  // 200 questions; B right on 60%; A = B except 10 questions B missed and A got
  const b = Array.from({ length: 200 }, (_, i) => (i % 5 < 3 ? 1 : 0));
  const a = b.map((v, i) => (v === 0 && i < 50 ? 1 : v));
  const d = pairedDifference(a.map((x, i) => ({ a: x, b: b[i] })))!;
  const pa = d.meanA, pb = d.meanB;
  const unpaired = Math.sqrt((pa * (1 - pa)) / 199 + (pb * (1 - pb)) / 199);
  assert.ok(d.se < unpaired / 2, `${d.se} vs ${unpaired}`);
  // all discordant pairs favour A: McNemar p = 2/2^k
  const k = d.aBetter;
  assert.equal(d.bBetter, 0);
  near(d.pValue, 2 / 2 ** k, "one-sided discordance", 1e-18);
});

Deno.test("compareTasks: per-task tests, Holm across tasks, pooled overall, unpaired kept", () => {
  const task = (name: string, a: number[], b: number[], extraB = 0) => ({
    task: name,
    a: a.map((s, i) => [String(i), s] as const),
    b: [
      ...b.map((s, i) => [String(i), s] as const),
      ...Array.from({ length: extraB }, (_, i) => [`extra${i}`, 1] as const),
    ],
  });
  const r = compareTasks([
    task("t1", [1, 1, 1, 1, 1, 1, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]), // 6 for A: p = 2/64
    task("t2", [1, 0, 1, 0], [1, 0, 1, 0], 2), // identical: p = 1
    task("t3", [0, 0, 0, 1, 1, 1, 1], [1, 1, 1, 1, 1, 1, 1]), // 3 for B: p = 0.25
    { task: "empty", a: [["x", 1]], b: [["y", 1]] }, // nothing paired
  ]);
  assert.deepEqual(r.tasks.map((t) => t.task), ["t1", "t2", "t3", "empty"]);
  const [t1, t2, t3, empty] = r.tasks;
  near(t1.comparison!.pValue, 2 / 64, "t1 p");
  near(t2.comparison!.pValue, 1, "t2 p");
  near(t3.comparison!.pValue, 0.25, "t3 p");
  assert.deepEqual(holmAdjust([2 / 64, 1, 0.25]), [t1.pHolm, t2.pHolm, t3.pHolm]);
  near(t1.pHolm!, 3 * (2 / 64), "t1 Holm");
  assert.equal(empty.comparison, null);
  assert.equal(empty.pHolm, null);
  assert.deepEqual(t2.comparison!.unpaired, { a: 0, b: 2 });
  // overall pools the 19 paired examples of all tasks (keys are per task)
  const overall = r.overall!;
  assert.equal(overall.n, 8 + 4 + 7);
  assert.deepEqual([overall.aBetter, overall.bBetter], [6, 3]);
  assert.deepEqual(overall.unpaired, { a: 1, b: 3 });
  near(overall.estimate, (6 - 3) / 19, "micro difference");
  assert.throws(() => compareTasks([task("t", [1], [1]), task("t", [1], [1])]), RangeError);
});

Deno.test("edge cases: no pairs, one pair, identical runs", () => {
  assert.equal(pairedDifference([]), null);
  assert.equal(pairedComparison([["a", 1]], [["b", 1]]), null);
  const one = pairedDifference([{ a: 1, b: 0 }])!;
  assert.equal(one.estimate, 1);
  assert.ok(Number.isNaN(one.se) && one.mde === null);
  assert.equal(one.pValue, 1);
  const same = pairedDifference(Array.from({ length: 50 }, (_, i) => ({ a: i % 2, b: i % 2 })))!;
  assert.deepEqual([same.estimate, same.se, same.pValue], [0, 0, 1]);
  // identical runs: not [0, 0] but ±z²/(n + z²)
  near(same.high, (Z95 * Z95) / (50 + Z95 * Z95), "identical runs", 1e-14);
  assert.equal(same.mde, null); // no discordance: nothing detectable by McNemar
});
