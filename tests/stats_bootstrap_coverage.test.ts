/**
 * Simulation: how often does the default bootstrap interval of the BBEH harmonic mean cover
 * the true value? Runs of 23 tasks with the BBEH sizes (22 × 200 + 120) are simulated with
 * known per-task rates (each example a Bernoulli draw), the default interval is computed
 * (basic bootstrap, 2,000 resamples, a different seed per run, widened for tasks at 0% or
 * 100%) and compared with the harmonic mean of the true rates. Required of 1,000 runs: 93–97%
 * where the harmonic mean is well-behaved (rates 40–90%), 95–97.5% for BBEH-like low rates
 * (5–40%). The micro average's percentile interval is checked the same way (93–97%).
 *
 * Estimates from longer runs (tests/stats_coverage_study.ts, 4,000 runs): basic 95.5% and
 * 96.6%; the percentile interval only 92.6% and 80.5% (it repeats the estimator's downward
 * bias), BCa 95.4% and 94.8%. See lib/stats/headline_bootstrap.ts for the choice and for
 * rates near 0%, where no variant reaches 95%.
 */
import assert from "node:assert/strict";
import { BBEH_TASKS } from "@runlens/benchmarks/bbeh/tasks.ts";
import { mulberry32 } from "@runlens/core/rng.ts";
import type { StratumInput } from "@runlens/stats/bootstrap.ts";
import {
  harmonicMeanBootstrap,
  harmonicMeanOfTotals,
  microBootstrap,
  microOfTotals,
} from "@runlens/stats/headline_bootstrap.ts";

const SIZES = BBEH_TASKS.map((t) => t.size);

/** K rates evenly spaced from `lo` to `hi`. */
function spaced(lo: number, hi: number): number[] {
  return SIZES.map((_, k) => lo + ((hi - lo) * k) / (SIZES.length - 1));
}

/** Share of simulated runs whose interval (from `interval`) covers `truth`. */
function coverage(
  rates: number[],
  runs: number,
  truth: number,
  interval: (strata: StratumInput[], seed: number) => { low: number; high: number },
): number {
  const rng = mulberry32(20250101);
  let covered = 0;
  for (let r = 0; r < runs; r++) {
    const strata = rates.map((p, k) => {
      let correct = 0;
      for (let i = 0; i < SIZES[k]; i++) if (rng() < p) correct++;
      return { correct, n: SIZES[k] };
    });
    const ci = interval(strata, 1000 + r);
    if (ci.low <= truth && truth <= ci.high) covered++;
  }
  return covered / runs;
}

/** Scenario, rates, and the coverage required of the harmonic mean's interval. */
const SCENARIOS: [string, number[], [number, number]][] = [
  ["well-behaved rates 40–90%", spaced(0.4, 0.9), [0.93, 0.97]],
  // issue 24: 95–97.5% on BBEH-like runs
  ["BBEH-like rates 5–40%", spaced(0.05, 0.4), [0.95, 0.975]],
];

for (const [name, rates, [least, most]] of SCENARIOS) {
  const expected = rates.map((p, k) => p * SIZES[k]);
  const range = `${100 * least}–${100 * most}%`;
  Deno.test(`harmonic mean: the default interval covers the truth in ${range} of runs (${name})`, () => {
    const truth = harmonicMeanOfTotals(expected, SIZES);
    const t0 = performance.now();
    const c = coverage(
      rates,
      1000,
      truth,
      (strata, seed) => harmonicMeanBootstrap(strata, { seed }),
    );
    console.log(
      `  ${name}: harmonic mean ${truth.toFixed(2)}, coverage ${(100 * c).toFixed(1)}% of 1,000 ` +
        `runs (${((performance.now() - t0) / 1000).toFixed(1)} s)`,
    );
    assert.ok(c >= least && c <= most, `coverage ${c}`);
  });

  Deno.test(`micro: the default interval covers the truth in 93–97% of runs (${name})`, () => {
    const truth = microOfTotals(expected, SIZES);
    const c = coverage(rates, 500, truth, (strata, seed) => microBootstrap(strata, { seed }));
    console.log(
      `  ${name}: micro ${truth.toFixed(2)}, coverage ${(100 * c).toFixed(1)}% of 500 runs`,
    );
    assert.ok(c >= 0.93 && c <= 0.97, `coverage ${c}`);
  });
}
