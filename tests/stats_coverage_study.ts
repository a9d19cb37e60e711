/**
 * Coverage study behind the choice of interval methods in lib/stats/headline_bootstrap.ts
 * (not a test: minutes of CPU). For each scenario of true per-task rates, simulates runs of
 * the 23 BBEH tasks at their real sizes (each example a Bernoulli draw), computes the
 * percentile, basic and BCa intervals of the harmonic mean (2,000 resamples, seed 1000 + run)
 * and counts how often each covers the harmonic mean of the true rates. Scenarios: evenly
 * spaced rates (well-behaved 40–90%, BBEH-like 5–40%, lower ones), all tasks equal, a single
 * very low task, and the per-task accuracies of each model in the BBEH paper's Table 2 taken
 * as true rates.
 *
 * Usage: deno run --allow-all tests/stats_coverage_study.ts [runs=1000] [filter]
 * Prints a Markdown table. The figures quoted in headline_bootstrap.ts came from this script
 * (4,000 runs for the two scenarios of stats_bootstrap_coverage.test.ts, 1,000 for the rest).
 *
 * @module
 */
import { BBEH_TABLE2 } from "@runlens/bbeh/published.ts";
import { BBEH_TASKS } from "@runlens/bbeh/tasks.ts";
import { mulberry32 } from "@runlens/core/rng.ts";
import { type BootstrapMethod, stratifiedBootstrap } from "@runlens/stats/bootstrap.ts";
import { harmonicMeanOfTotals, SPARSE_CORRECT } from "@runlens/stats/headline_bootstrap.ts";

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
    METHODS.join(" | ") + " |",
);
console.log("|---|---:|---:|---:|" + METHODS.map(() => "---:").join("|") + "|");
for (const [name, rates] of scenarios) {
  if (filter && !name.includes(filter)) continue;
  const truth = harmonicMeanOfTotals(rates.map((p, k) => p * SIZES[k]), SIZES);
  const rng = mulberry32(20250101);
  const covered = METHODS.map(() => 0);
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
  }
  const pct = (x: number) => `${((100 * x) / runs).toFixed(1)}%`;
  console.log(
    `| ${name} | ${truth.toFixed(2)} | ${(100 * Math.min(...rates)).toFixed(1)}% | ` +
      `${pct(sparse)} | ${covered.map(pct).join(" | ")} |`,
  );
}
