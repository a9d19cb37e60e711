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
 *   SciPy's ttest_rel (tests/reference/stats_reference.py).
 */
import assert from "node:assert/strict";
import { holmAdjust } from "@runlens/stats/holm.ts";
import { mcnemarExact } from "@runlens/stats/mcnemar.ts";
import { mdeFromDiscordance, minimumDetectableDifference } from "@runlens/stats/mde.ts";
import {
  compareTasks,
  type KeyedScore,
  pairedComparison,
  pairedDifference,
  pairScores,
} from "@runlens/stats/paired.ts";
import { HOLM_CASES, MCNEMAR_CASES, MDE_REFERENCE, PAIRED_CASES } from "./_stats_reference.ts";

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

Deno.test("paired difference matches NumPy/SciPy: SE, interval, discordant counts, MDE", () => {
  for (const c of PAIRED_CASES) {
    const d = pairedDifference(c.a.map((a, i) => ({ a, b: c.b[i] })))!;
    assert.equal(d.n, c.n);
    near(d.estimate, c.estimate, `${c.name} d̄`);
    near(d.se, c.se, `${c.name} se`);
    near(d.low, c.low, `${c.name} low`);
    near(d.high, c.high, `${c.name} high`);
    near(d.mde, c.mde, `${c.name} mde`);
    assert.equal(d.aBetter, c.aBetter);
    assert.equal(d.bBetter, c.bBetter);
    assert.equal(d.pValue, mcnemarExact(c.aBetter, c.bBetter));
  }
  const binary = pairedDifference(
    PAIRED_CASES[0].a.map((a, i) => ({ a, b: PAIRED_CASES[0].b[i] })),
  )!;
  assert.equal(binary.test, "mcnemar-exact");
  near(binary.mdeDiscordance!, mdeFromDiscordance(5 / 12, 12)!, "discordance MDE");
  const means = pairedDifference(
    PAIRED_CASES[1].a.map((a, i) => ({ a, b: PAIRED_CASES[1].b[i] })),
  )!;
  assert.equal(means.test, "sign-exact");
  assert.equal(means.mdeDiscordance, null);
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
  assert.ok(Number.isNaN(one.se) && Number.isNaN(one.mde));
  assert.equal(one.pValue, 1);
  const same = pairedDifference(Array.from({ length: 50 }, (_, i) => ({ a: i % 2, b: i % 2 })))!;
  assert.deepEqual([same.estimate, same.se, same.low, same.high, same.pValue], [0, 0, 0, 0, 1]);
  assert.equal(same.mdeDiscordance, null); // no discordance: nothing detectable by McNemar
});
