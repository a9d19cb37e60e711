/**
 * Exact binomial sampling by table inversion: the CDF table against SciPy's `binom.cdf`, the
 * sampled distribution against the exact pmf (chi-square goodness of fit at the 0.1% level,
 * critical values from SciPy), mean and variance, edge cases, determinism, and the claim the
 * bootstrap rests on — resampling n items with replacement from a stratum with c correct
 * gives a Binomial(n, c/n) count of correct.
 */
import assert from "node:assert/strict";
import { mulberry32 } from "@runlens/core/rng.ts";
import { binomialCdf, binomialSampler, uniform53 } from "@runlens/stats/binomial.ts";
import { BINOMIAL_CDF, CHI2_CRITICAL } from "./_stats_reference.ts";

Deno.test("binomialCdf matches SciPy binom.cdf", () => {
  for (const [n, p, k, want] of BINOMIAL_CDF) {
    const got = binomialCdf(n, p)[k];
    assert.ok(Math.abs(got - want) <= 1e-12, `Bin(${n}, ${p}) F(${k}) = ${got} vs ${want}`);
  }
  assert.deepEqual(Array.from(binomialCdf(3, 0)), [1, 1, 1, 1]);
  assert.deepEqual(Array.from(binomialCdf(3, 1)), [0, 0, 0, 1]);
  assert.deepEqual(Array.from(binomialCdf(0, 0.4)), [1]);
});

/** The exact pmf from the table (checked against SciPy above). */
function pmf(n: number, p: number): number[] {
  const cdf = binomialCdf(n, p);
  return Array.from(cdf, (c, k) => c - (k > 0 ? cdf[k - 1] : 0));
}

/**
 * Pearson's chi-square of `draws` against Binomial(n, p), pooling tail cells until every
 * expected count is at least 5. Returns [statistic, degrees of freedom].
 */
function chiSquare(counts: number[], n: number, p: number, draws: number): [number, number] {
  const probs = pmf(n, p);
  const cells: { obs: number; exp: number }[] = [];
  let obs = 0, exp = 0;
  for (let k = 0; k <= n; k++) {
    obs += counts[k];
    exp += probs[k] * draws;
    if (exp >= 5 && draws * (1 - sumTo(probs, k)) >= 5) {
      cells.push({ obs, exp });
      obs = 0, exp = 0;
    }
  }
  cells[cells.length - 1].obs += obs;
  cells[cells.length - 1].exp += exp;
  const stat = cells.reduce((s, c) => s + (c.obs - c.exp) ** 2 / c.exp, 0);
  return [stat, cells.length - 1];
}

function sumTo(probs: number[], k: number): number {
  let s = 0;
  for (let i = 0; i <= k; i++) s += probs[i];
  return s;
}

/** SciPy chi2.ppf(0.999, df). */
function critical(df: number): number {
  const row = CHI2_CRITICAL.find(([, d]) => d === df);
  assert.ok(row, `no chi-square critical value for df ${df}`);
  return row[2];
}

Deno.test("sampled distribution matches the exact pmf (chi-square, 100k draws each)", () => {
  const cases: [number, number][] = [[200, 0.3], [200, 0.05], [20, 0.5], [10, 0.02], [1000, 0.73]];
  const rng = mulberry32(2024);
  for (const [n, p] of cases) {
    const draw = binomialSampler(n, p);
    const counts = new Array<number>(n + 1).fill(0);
    const draws = 100_000;
    let sum = 0, sum2 = 0;
    for (let i = 0; i < draws; i++) {
      const x = draw(rng);
      assert.ok(Number.isInteger(x) && x >= 0 && x <= n);
      counts[x]++;
      sum += x, sum2 += x * x;
    }
    const [stat, df] = chiSquare(counts, n, p, draws);
    assert.ok(df >= 1, `Bin(${n}, ${p}): ${df} cells`);
    assert.ok(stat < critical(df), `Bin(${n}, ${p}): chi-square ${stat} on ${df} df`);
    const mean = sum / draws, variance = sum2 / draws - mean * mean;
    const sdOfMean = Math.sqrt(n * p * (1 - p) / draws);
    assert.ok(Math.abs(mean - n * p) < 4 * sdOfMean, `Bin(${n}, ${p}) mean ${mean}`);
    assert.ok(Math.abs(variance / (n * p * (1 - p)) - 1) < 0.03, `Bin(${n}, ${p}) var ${variance}`);
  }
});

Deno.test("the goodness-of-fit check has teeth: Bin(200, 0.32) draws fail against p = 0.3", () => {
  const draw = binomialSampler(200, 0.32);
  const rng = mulberry32(3);
  const counts = new Array<number>(201).fill(0);
  for (let i = 0; i < 100_000; i++) counts[draw(rng)]++;
  const [stat, df] = chiSquare(counts, 200, 0.3, 100_000);
  assert.ok(stat > critical(df), `chi-square ${stat} on ${df} df`);
});

Deno.test("resampling n items from c correct ⇔ Binomial(n, c/n) (direct resampling vs pmf)", () => {
  // The bootstrap's shortcut: draw n indices with replacement from a 0/1 stratum and count
  // the correct ones; that count must follow Binomial(n, c/n) exactly.
  const n = 40, c = 9;
  const items = Array.from({ length: n }, (_, i) => (i < c ? 1 : 0));
  const rng = mulberry32(99);
  const counts = new Array<number>(n + 1).fill(0);
  const draws = 100_000;
  for (let i = 0; i < draws; i++) {
    let s = 0;
    for (let j = 0; j < n; j++) s += items[Math.floor(rng() * n)];
    counts[s]++;
  }
  const [stat, df] = chiSquare(counts, n, c / n, draws);
  assert.ok(stat < critical(df), `chi-square ${stat} on ${df} df`);
});

Deno.test("edge cases: n = 0, p = 0, p = 1 draw nothing; bad parameters throw", () => {
  let calls = 0;
  const counting = () => (calls++, 0.5);
  assert.equal(binomialSampler(0, 0.3)(counting), 0);
  assert.equal(binomialSampler(7, 0)(counting), 0);
  assert.equal(binomialSampler(7, 1)(counting), 7);
  assert.equal(calls, 0);
  assert.throws(() => binomialSampler(-1, 0.5), RangeError);
  assert.throws(() => binomialSampler(2.5, 0.5), RangeError);
  assert.throws(() => binomialSampler(5, 1.5), RangeError);
  assert.throws(() => binomialSampler(5, Number.NaN), RangeError);
});

Deno.test("inversion: u just below F(k) gives k, u at F(k) gives k + 1; u near 1 gives ≤ n", () => {
  const n = 5, p = 0.5;
  const cdf = binomialCdf(n, p);
  const draw = binomialSampler(n, p);
  // uniform53 = r1 + ⌊r2·2²¹⌋/2⁵³: feed r1 = u, r2 = 0
  const fixed = (u: number) => {
    let i = 0;
    return () => (i++ % 2 === 0 ? u : 0);
  };
  for (let k = 0; k < n; k++) {
    assert.equal(draw(fixed(cdf[k])), k + 1);
    assert.equal(draw(fixed(cdf[k] - 1e-12)), k);
  }
  assert.equal(draw(fixed(1 - 2 ** -32)), n);
  assert.equal(draw(fixed(0)), 0);
});

Deno.test("uniform53 stays in [0, 1) and uses 53 bits; samplers are deterministic per seed", () => {
  assert.equal(uniform53(() => 0), 0);
  const top = uniform53(() => 1 - 2 ** -32);
  assert.ok(top < 1 && top > 1 - 2 ** -31);
  const a = binomialSampler(200, 0.3), b = binomialSampler(200, 0.3);
  const ra = mulberry32(5), rb = mulberry32(5);
  for (let i = 0; i < 1000; i++) assert.equal(a(ra), b(rb));
});
