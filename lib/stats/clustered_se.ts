/**
 * The mean of scores that come in clusters — several samples (epochs) of the same question,
 * or several questions on one passage — with the cluster-robust standard error of E. Miller
 * (2024), "Adding Error Bars to Evals", arXiv:2411.00640 (clustered standard errors,
 * Appendix A), in its CR1 form, with the usual small-sample factor G/(G − 1):
 *
 *   s̄ = (1/N) Σ_g Σ_{i∈g} s_{g,i}       (all N scores, row-weighted)
 *   SE² = G/(G − 1) · (1/N²) · Σ_g ( Σ_{i∈g} (s_{g,i} − s̄) )²
 *   CI  = s̄ ± z·SE
 *
 * with G clusters. The bracket is Σ_c Σ_i Σ_j (s_{i,c} − s̄)(s_{j,c} − s̄): the squared
 * deviations plus the within-cluster cross products, which Miller adds to the CLT variance.
 * Miller writes the estimator without a small-sample factor (inspect_ai's implementation of
 * it notes the same). Why CR1, i.e. with the factor G/(G − 1):
 * - with one score per cluster it reduces exactly to the CLT SE of mean_se.ts
 *   (Σ(sᵢ − s̄)²/(n(n − 1))), so a run without epochs gets the same number either way;
 * - with K scores in every cluster it equals the CLT SE of the G cluster means, i.e. the
 *   "average the epochs first, then the CLT" recipe;
 * - it is the default of Stata's `vce(cluster)`, statsmodels' `cov_type="cluster"` for an
 *   intercept-only model ((G/(G − 1))·(N − 1)/(N − K) with K = 1) and inspect_ai's
 *   `stderr(cluster=...)`. Without the factor (CR0) the SE is smaller by √((G − 1)/G),
 *   0.25% at G = 200 questions; Miller's form (n − 1 in the CLT term, n in the cross terms)
 *   lies between the two.
 *
 * Cameron & Miller (2015), "A Practitioner's Guide to Cluster-Robust Inference", J. Human
 * Resources 50(2):317–372, discuss both forms. The result is in the units of the scores.
 *
 * @example
 * ```ts
 * import { clusteredMeanWithSe } from "@runlens/stats/clustered_se.ts";
 * // 3 questions × 2 epochs
 * clusteredMeanWithSe([[1, 1], [0, 1], [0, 0]]);
 * // { estimate: 0.5, se: 0.28867513459481287, low: -0.06579286703808584,
 * //   high: 1.0657928670380858, n: 6, clusters: 3, method: "clustered" }
 * ```
 * @module
 */
import { checkZ, type MeanEstimate, type MeanOptions } from "./mean_se.ts";

/**
 * Mean and CR1 cluster-robust standard error of scores grouped in clusters (one inner array
 * per cluster). Null for no clusters; with a single cluster the SE and bounds are NaN.
 * Throws a RangeError on an empty cluster or a non-finite score.
 *
 * @example
 * ```ts
 * clusteredMeanWithSe([]); // null
 * // one score per cluster: the same SE as meanWithSe([1, 0, 1, 1]) = 0.25
 * clusteredMeanWithSe([[1], [0], [1], [1]])?.se; // 0.25
 * ```
 */
export function clusteredMeanWithSe(
  clusters: readonly (readonly number[])[],
  options: MeanOptions = {},
): MeanEstimate | null {
  const z = checkZ(options.z, "clusteredMeanWithSe");
  const g = clusters.length;
  if (g === 0) return null;
  let sum = 0, n = 0;
  clusters.forEach((scores, i) => {
    if (scores.length === 0) throw new RangeError(`clusteredMeanWithSe: cluster ${i} is empty`);
    for (const s of scores) {
      if (!Number.isFinite(s)) {
        throw new RangeError(`clusteredMeanWithSe: score ${s} is not a finite number`);
      }
      sum += s;
    }
    n += scores.length;
  });
  const mean = sum / n;
  let meat = 0;
  for (const scores of clusters) {
    let r = 0;
    for (const s of scores) r += s - mean;
    meat += r * r;
  }
  const se = g > 1 ? Math.sqrt((g / (g - 1)) * meat) / n : NaN;
  return {
    estimate: mean,
    se,
    low: mean - z * se,
    high: mean + z * se,
    n,
    clusters: g,
    method: "clustered",
  };
}
