/**
 * The reference tables of tests/_stats_reference.ts are what tests/reference/stats_reference.py
 * prints: re-run the script (when Python with NumPy, SciPy and statsmodels is installed —
 * Debian's python3-numpy, python3-scipy, python3-statsmodels) and compare every number, so a
 * table cannot drift from the script that is cited as its source. Ignored without those
 * packages.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import * as ref from "./_stats_reference.ts";

const SCRIPT = fileURLToPath(new URL("./reference/stats_reference.py", import.meta.url));

/** A Python that can import the script's packages, or null. */
function findPython(): string | null {
  for (const cmd of ["/usr/bin/python3", "python3"]) {
    try {
      const out = new Deno.Command(cmd, {
        args: ["-c", "import numpy, scipy, statsmodels"],
        stdout: "null",
        stderr: "null",
      }).outputSync();
      if (out.success) return cmd;
    } catch {
      // not installed under this name
    }
  }
  return null;
}

const PYTHON = findPython();

// deno-lint-ignore no-explicit-any
type Json = any;

function close(a: number, b: number, what: string): void {
  assert.ok(
    Math.abs(a - b) <= 1e-15 * Math.max(1, Math.abs(b)),
    `${what}: table ${a}, script ${b}`,
  );
}

Deno.test({
  name: "reference tables = the output of tests/reference/stats_reference.py",
  ignore: PYTHON === null,
  fn() {
    const out = new Deno.Command(PYTHON!, { args: [SCRIPT], stdout: "piped", stderr: "piped" })
      .outputSync();
    assert.ok(out.success, new TextDecoder().decode(out.stderr));
    const py: Json = JSON.parse(new TextDecoder().decode(out.stdout));
    // same inputs
    for (const c of ref.CLT_CASES) assert.deepEqual(c.scores, py.inputs.scores[c.name]);
    for (const c of ref.CLUSTERED_CASES) assert.deepEqual(c.clusters, py.inputs.clusters[c.name]);
    for (const c of ref.PAIRED_CASES) {
      assert.deepEqual([c.a, c.b], [py.inputs.paired[c.name].a, py.inputs.paired[c.name].b]);
    }
    for (const c of ref.JACKKNIFE_CASES) assert.deepEqual(c.strata, py.inputs.jackknife[c.name]);
    // same outputs
    assert.deepEqual(ref.NORMAL_QUANTILES, py.normal_quantile);
    assert.deepEqual(ref.BINOMIAL_CDF, py.binomial_cdf);
    assert.deepEqual(ref.CHI2_CRITICAL, py.chi2_critical);
    for (const c of ref.CLT_CASES) {
      const p = py.clt[c.name];
      assert.equal(c.n, p.n);
      close(c.estimate, p.estimate, `${c.name} mean`);
      close(c.se, p.se, `${c.name} se`);
    }
    for (const c of ref.CLUSTERED_CASES) {
      const p = py.clustered[c.name];
      assert.deepEqual([c.n, c.g], [p.n, p.clusters]);
      close(c.estimate, p.estimate, `${c.name} mean`);
      close(c.se, p.se_statsmodels, `${c.name} se`);
      close(c.se, p.se_numpy_cr1, `${c.name} se (NumPy formula)`);
      close(c.seCr0, p.se_cr0, `${c.name} CR0`);
      close(c.seMillerUncorrected, p.se_miller_uncorrected, `${c.name} Miller`);
      close(c.seOfClusterMeans, p.se_of_cluster_means, `${c.name} means`);
    }
    for (const c of ref.PAIRED_CASES) {
      const p = py.paired[c.name];
      for (const k of ["estimate", "se"] as const) close(c[k], p[k], `${c.name} ${k}`);
      c.tango.forEach((v, i) => close(v, p.tango[i], `${c.name} Tango ${i}`));
      assert.equal(c.connor, p.connor);
      close(c.se, p.se_from_covariance, `${c.name} se via covariance`);
      close(c.se, p.se_from_ttest_rel, `${c.name} se via ttest_rel`);
      assert.deepEqual([c.n, c.aBetter, c.bBetter], [p.n, p.a_better, p.b_better]);
    }
    assert.deepEqual(ref.MCNEMAR_CASES, py.mcnemar.map(([b, c, p]: number[]) => [b, c, p]));
    for (const [b, c, p, binom] of py.mcnemar) {
      close(p, binom, `statsmodels vs binomtest ${b}/${c}`);
    }
    for (const c of ref.HOLM_CASES) {
      assert.deepEqual([c.p, c.adjusted], [py.holm[c.name].p, py.holm[c.name].adjusted]);
    }
    close(ref.MDE_REFERENCE.zSum, py.mde.z_sum_alpha05_power80, "z sum");
    close(ref.MDE_REFERENCE.connorN, py.mde.connor_n, "Connor n");
    for (const c of ref.JACKKNIFE_CASES) close(c.a, py.jackknife_acceleration[c.name], c.name);
    for (const c of ref.CLUSTERED_WILSON_CASES) {
      const p = py.clustered_wilson[c.name];
      assert.deepEqual(c.clusters, py.inputs.example_clusters[c.name]);
      for (const [k, v] of [["estimate", c.estimate], ["low", c.low], ["high", c.high]] as const) {
        close(v, p[k], `${c.name} ${k}`);
      }
      close(c.effectiveN, p.n_eff, `${c.name} n_eff`);
    }
    close(ref.WILSON_0_OF_200_HIGH, py.wilson_0_of_200_high, "Wilson 0/200");
    assert.equal(ref.TANGO_CASES.length, py.tango.length);
    ref.TANGO_CASES.forEach((row, i) => {
      row.forEach((v, j) => close(v, py.tango[i][j], `Tango row ${i} col ${j}`));
    });
    assert.equal(ref.MDE_POWER_CASES.length, Object.keys(py.mde_cases).length);
    for (const [n, b, c, connor, power, old, oldPower] of ref.MDE_POWER_CASES) {
      const p = py.mde_cases[`${n}/${b}/${c}`];
      close(connor, p.connor, `${n}/${b}/${c} Connor`);
      close(power, p.exact_power_at_connor, `${n}/${b}/${c} power`);
      close(old, p.observed_se_mde, `${n}/${b}/${c} old MDE`);
      close(oldPower, p.exact_power_at_observed_se_mde, `${n}/${b}/${c} old power`);
    }
    assert.deepEqual(
      ref.LOG10_MCNEMAR_CASES.map(([b, c]) => [b, c]),
      py.log10_mcnemar.map(
        ([b, c]: number[]) => [b, c],
      ),
    );
    // paired.ts relies on it: where the exact test rejects, Tango's interval excludes 0 too
    assert.equal(py.exact_implies_score_up_to, 2000);
    ref.LOG10_MCNEMAR_CASES.forEach(([, , l], i) =>
      close(l, py.log10_mcnemar[i][2], `log10 p ${i}`)
    );
  },
});
