/**
 * Coverage study behind the choice of interval methods in lib/stats/headline_bootstrap.ts
 * (not a test: minutes of CPU). For each scenario of true per-task rates, simulates runs of
 * the 23 BBEH tasks at their real sizes (each example a Bernoulli draw), computes the
 * percentile, basic and BCa intervals of the harmonic mean (2,000 resamples, seed 1000 + run)
 * and `harmonicMeanBootstrap`'s default, and counts how often each covers the harmonic mean
 * of the true rates. Scenarios: evenly
 * spaced rates (well-behaved 40–90%, BBEH-like 5–40%, lower ones), all tasks equal, a single
 * very low task, and the per-task accuracies of each model in the BBEH paper's Table 2 taken
 * as true rates.
 *
 * Usage: deno run --allow-all tests/stats_coverage_study.ts [runs=1000] [filter]
 * Prints a Markdown table. The figures quoted in headline_bootstrap.ts came from this script
 * (4,000 runs for the two scenarios of stats_bootstrap_coverage.test.ts, 1,000 for the rest).
 *
 * Output with 1,000 runs (`deno run --allow-all tests/stats_coverage_study.ts 1000`; the
 * `default` column, what runlens reports — basic, widened for tasks at 0% or 100% — added for
 * issue 24, the other columns unchanged):
 *
 * | scenario | true HM | min rate | runs with a task < 5 correct | percentile | basic | bca | default |
 * |---|---:|---:|---:|---:|---:|---:|---:|
 * | rates 40–90% | 62.40 | 40.0% | 0.0% | 92.3% | 94.8% | 94.7% | 94.8% |
 * | rates 5–40% | 17.60 | 5.0% | 2.5% | 81.9% | 96.2% | 94.2% | 96.2% |
 * | rates 3–40% | 15.04 | 3.0% | 30.1% | 80.6% | 93.3% | 94.3% | 93.3% |
 * | rates 2–40% | 13.46 | 2.0% | 67.4% | 81.7% | 90.6% | 93.5% | 90.8% |
 * | rates 1–40% | 11.50 | 1.0% | 97.2% | 81.0% | 84.5% | 85.6% | 92.7% |
 * | rates 1–30% | 9.70 | 1.0% | 98.0% | 77.1% | 84.1% | 85.0% | 90.9% |
 * | all 10% | 11.00 | 10.0% | 0.6% | 58.7% | 95.9% | 91.9% | 95.9% |
 * | all 5% | 6.00 | 5.0% | 57.5% | 39.2% | 95.2% | 84.4% | 95.2% |
 * | all 2% | 3.00 | 2.0% | 100.0% | 15.5% | 83.2% | 60.1% | 83.2% |
 * | one task 1%, rest 5–40% | 14.02 | 1.0% | 95.6% | 85.7% | 84.1% | 85.4% | 95.0% |
 * | one task 0.5%, rest 20–60% | 18.58 | 0.5% | 99.7% | 64.6% | 61.0% | 63.7% | 96.2% |
 * | Table 2: Qwen-2.5-7B-Instruct | 2.99 | 0.0% | 100.0% | 55.4% | 82.7% | 75.5% | 97.2% |
 * | Table 2: Llama 3.1 8b Instruct | 3.57 | 0.0% | 100.0% | 49.0% | 84.5% | 77.6% | 98.3% |
 * | Table 2: Gemma2 27b IT | 4.00 | 0.0% | 100.0% | 59.4% | 86.8% | 78.9% | 97.4% |
 * | Table 2: Gemma3 4b | 3.43 | 0.0% | 100.0% | 48.4% | 81.7% | 75.2% | 98.4% |
 * | Table 2: Gemma3 12b | 4.50 | 0.0% | 100.0% | 60.5% | 79.3% | 79.1% | 96.6% |
 * | Table 2: Gemma3 27b | 4.85 | 0.0% | 100.0% | 60.0% | 85.5% | 80.2% | 97.1% |
 * | Table 2: Gemini 2.0 Flash-Lite | 7.97 | 0.5% | 100.0% | 56.2% | 78.1% | 79.0% | 90.5% |
 * | Table 2: Gemini 2.0 Flash | 9.78 | 0.5% | 99.9% | 58.5% | 78.6% | 68.2% | 93.1% |
 * | Table 2: GPT4o | 6.05 | 0.0% | 100.0% | 63.8% | 57.5% | 60.3% | 93.5% |
 * | Table 2: Distill R1 Qwen 32b | 5.20 | 0.0% | 100.0% | 57.8% | 80.9% | 78.1% | 98.1% |
 * | Table 2: DeepSeek R1 | 6.83 | 0.0% | 100.0% | 85.2% | 90.4% | 92.8% | 95.4% |
 * | Table 2: o3-mini (high) | 44.80 | 16.0% | 0.0% | 91.8% | 95.8% | 94.5% | 95.8% |
 *
 * With 4,000 runs (`… 4000 "rates 40–90%"` and `… 4000 "rates 5–40%"`):
 *
 * | rates 40–90% | 62.40 | 40.0% | 0.0% | 92.6% | 95.5% | 95.4% |
 * | rates 5–40% | 17.60 | 5.0% | 2.8% | 80.5% | 96.6% | 94.8% |
 *
 * @module
 */
import { BBEH_TABLE2 } from "@runlens/benchmarks/bbeh/published.ts";
import { BBEH_TASKS } from "@runlens/benchmarks/bbeh/tasks.ts";
import { mulberry32 } from "@runlens/core/rng.ts";
import { type BootstrapMethod, stratifiedBootstrap } from "@runlens/stats/bootstrap.ts";
import {
  harmonicMeanBootstrap,
  harmonicMeanOfTotals,
  SPARSE_CORRECT,
} from "@runlens/stats/headline_bootstrap.ts";

const SIZES = BBEH_TASKS.map((t) => t.size);
const K = SIZES.length;
const METHODS: BootstrapMethod[] = ["percentile", "basic", "bca"];

const spaced = (lo: number, hi: number) => SIZES.map((_, k) => lo + ((hi - lo) * k) / (K - 1));

const scenarios: [string, number[]][] = [
  ["rates 40–90%", spaced(0.4, 0.9)],
  ["rates 5–40%", spaced(0.05, 0.4)],
  ["rates 3–40%", spaced(0.03, 0.4)],
  ["rates 2–40%", spaced(0.02, 0.4)],
  ["rates 1–40%", spaced(0.01, 0.4)],
  ["rates 1–30%", spaced(0.01, 0.3)],
  ["all 10%", spaced(0.1, 0.1)],
  ["all 5%", spaced(0.05, 0.05)],
  ["all 2%", spaced(0.02, 0.02)],
  ["one task 1%, rest 5–40%", [0.01, ...spaced(0.05, 0.4).slice(1)]],
  ["one task 0.5%, rest 20–60%", [0.005, ...spaced(0.2, 0.6).slice(1)]],
  ...Object.entries(BBEH_TABLE2.accuracy)
    .filter(([model]) => model !== "Random")
    .map(([model, acc]): [string, number[]] => [
      `Table 2: ${model}`,
      BBEH_TASKS.map((t) => (acc as Record<string, number>)[t.name] / 100),
    ]),
];

const runs = Number(Deno.args[0] ?? 1000);
const filter = Deno.args[1];

console.log(
  `| scenario | true HM | min rate | runs with a task < ${SPARSE_CORRECT} correct | ` +
    METHODS.join(" | ") + " | default |",
);
console.log("|---|---:|---:|---:|" + METHODS.map(() => "---:").join("|") + "|---:|");
for (const [name, rates] of scenarios) {
  if (filter && !name.includes(filter)) continue;
  const truth = harmonicMeanOfTotals(rates.map((p, k) => p * SIZES[k]), SIZES);
  const rng = mulberry32(20250101);
  const covered = METHODS.map(() => 0);
  let coveredDefault = 0;
  let sparse = 0;
  for (let r = 0; r < runs; r++) {
    const strata = rates.map((p, k) => {
      let correct = 0;
      for (let i = 0; i < SIZES[k]; i++) if (rng() < p) correct++;
      return { correct, n: SIZES[k] };
    });
    if (strata.some((s) => s.correct < SPARSE_CORRECT)) sparse++;
    METHODS.forEach((method, i) => {
      const ci = stratifiedBootstrap(strata, harmonicMeanOfTotals, { method, seed: 1000 + r });
      if (ci.low <= truth && truth <= ci.high) covered[i]++;
    });
    // what runlens reports: basic, widened for tasks at 0% or 100% (headline_bootstrap.ts)
    const ci = harmonicMeanBootstrap(strata, { seed: 1000 + r });
    if (ci.low <= truth && truth <= ci.high) coveredDefault++;
  }
  const pct = (x: number) => `${((100 * x) / runs).toFixed(1)}%`;
  console.log(
    `| ${name} | ${truth.toFixed(2)} | ${(100 * Math.min(...rates)).toFixed(1)}% | ` +
      `${pct(sparse)} | ${covered.map(pct).join(" | ")} | ${pct(coveredDefault)} |`,
  );
}
