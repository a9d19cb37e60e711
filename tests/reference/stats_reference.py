#!/usr/bin/env python3
"""Independent reference values for the lib/stats tests (tests/stats_*.test.ts).

Written from the textbook formulas and checked against established libraries, never from the
TypeScript code: NumPy for the plain formulas, statsmodels for the cluster-robust SE
(OLS on a constant with cov_type="cluster"), McNemar's exact test and Holm's adjustment, and
SciPy for normal quantiles, binomial CDFs, chi-square critical values and the paired t test.
Issue 24 added: the Wilson interval at the effective n of clustered examples (statsmodels'
HC0 variance and `proportion_confint`), Tango's paired score interval by numerical
constrained maximum likelihood and Brent's root finder (not the closed-form root the
TypeScript uses), Connor's MDE by brentq with the exact power of McNemar's test at it, and
log10 McNemar p-values from log-gamma terms.

Needs Debian's python3-numpy, python3-scipy and python3-statsmodels
(`apt-get install -y python3-numpy python3-scipy python3-statsmodels`; run with
/usr/bin/python3). Prints one JSON object; the numbers are copied into the test tables, and
tests/stats_reference.test.ts re-runs this script when the packages are installed and checks
that the tables still match.

Produced with NumPy 1.24.2, SciPy 1.10.1, statsmodels 0.13.5 (Debian 12).
"""

import json
import sys

import numpy as np
import scipy
import statsmodels
import statsmodels.api as sm
from scipy import stats
from scipy import optimize, special
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

Z95 = stats.norm.ppf(0.975)

# --- data sets (also written out in the test tables) -------------------------------------

SCORES = {
    "binary10": [1, 0, 1, 1, 0, 1, 1, 1, 0, 1],
    "fractional7": [0.2, 0.9, 1.0, 0.5, 0.75, 0.0, 0.33],
    "allright5": [1, 1, 1, 1, 1],
}

CLUSTERS = {
    # unequal epochs per question
    "unequal": [[1, 1, 0], [0, 0], [1], [1, 0, 1, 1], [0, 0, 0], [1, 1]],
    # two epochs per question
    "balanced": [[1, 0], [1, 1], [0, 0], [1, 0], [1, 1]],
    # one sample per question: must equal the CLT SE
    "singletons": [[1], [0], [1], [1], [0], [1], [1], [1], [0], [1]],
}

PAIRED = {
    "binary12": {
        "a": [1, 1, 0, 1, 1, 0, 1, 1, 1, 0, 1, 1],
        "b": [1, 0, 0, 1, 0, 0, 1, 1, 0, 1, 0, 1],
    },
    "means8": {
        "a": [1.0, 0.5, 0.25, 1.0, 0.0, 0.75, 0.5, 1.0],
        "b": [0.5, 0.5, 0.0, 1.0, 0.25, 0.25, 0.0, 0.75],
    },
}

MCNEMAR = [[1, 7], [0, 5], [2, 9], [3, 3], [0, 0], [12, 4], [59, 121], [150, 86], [10, 40], [400, 460],
           [480, 520], [490, 511], [4900, 5100]]

HOLM = {
    # Holm–Bonferroni example (four hypotheses, alpha 0.05): H1 and H4 rejected.
    "wikipedia4": [0.01, 0.04, 0.03, 0.005],
    "six": [0.01, 0.04, 0.20, 0.03, 0.005, 0.07],
    "ties": [0.02, 0.02, 0.5, 0.001, 0.3],
    "cap": [0.5, 0.45, 0.9],
}

NORMAL_P = [0.975, 0.8, 0.5, 0.025, 0.995, 0.9, 0.1, 0.001, 1e-10, 0.999999, 0.3]

BINOM_CDF = [[200, 0.3, [40, 55, 60, 61, 75]], [10, 0.05, [0, 1, 2]], [1000, 0.5, [480, 500, 520]],
             [5000, 0.001, [0, 3, 5, 10]]]

CHI2 = [[0.999, df] for df in range(1, 151)]


def clt_se(x):
    x = np.asarray(x, dtype=float)
    return float(np.std(x, ddof=1) / np.sqrt(len(x)))


def cluster_se_numpy(clusters):
    """CR1: sqrt(G/(G-1) * sum_g (sum_i (s_gi - mean))^2) / N."""
    values = np.concatenate([np.asarray(c, dtype=float) for c in clusters])
    mean = values.mean()
    g = len(clusters)
    meat = sum(float(np.sum(np.asarray(c, dtype=float) - mean)) ** 2 for c in clusters)
    return float(np.sqrt(g / (g - 1) * meat) / len(values))


def cluster_se_statsmodels(clusters):
    values = np.concatenate([np.asarray(c, dtype=float) for c in clusters])
    groups = np.concatenate([[i] * len(c) for i, c in enumerate(clusters)])
    fit = sm.OLS(values, np.ones((len(values), 1))).fit(
        cov_type="cluster", cov_kwds={"groups": groups}
    )
    return float(fit.bse[0])


def cluster_se_cr0(clusters):
    """CR0: sqrt(sum_g (sum_i (s_gi - mean))^2) / N, no small-sample factor."""
    g = len(clusters)
    return cluster_se_numpy(clusters) * float(np.sqrt((g - 1) / g))


def cluster_se_miller_uncorrected(clusters):
    """Miller's form without G/(G-1): SE_CLT^2 + (1/n^2) sum_c sum_i sum_{j!=i} r_i r_j."""
    values = np.concatenate([np.asarray(c, dtype=float) for c in clusters])
    n = len(values)
    mean = values.mean()
    cross = 0.0
    for c in clusters:
        r = np.asarray(c, dtype=float) - mean
        cross += float(np.sum(np.outer(r, r)) - np.sum(r * r))
    return float(np.sqrt(clt_se(values) ** 2 + cross / n**2))


def paired(a, b):
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    d = a - b
    n = len(d)
    se_d = float(np.std(d, ddof=1) / np.sqrt(n))
    cov = np.cov(a, b, ddof=1)
    se_cov = float(np.sqrt((cov[0, 0] + cov[1, 1] - 2 * cov[0, 1]) / n))
    t = stats.ttest_rel(a, b)
    se_t = float(d.mean() / t.statistic)
    # Tango on the fractional discordance sum(d+), sum(d-); Connor at psi = mean |d|
    b_frac, c_frac = float(np.sum(np.maximum(d, 0))), float(np.sum(np.maximum(-d, 0)))
    return {
        "n": n,
        "estimate": float(d.mean()),
        "se": se_d,
        "se_from_covariance": se_cov,
        "se_from_ttest_rel": se_t,
        "tango": tango_interval(b_frac, c_frac, n),
        "a_better": int(np.sum(d > 0)),
        "b_better": int(np.sum(d < 0)),
        "connor": connor_delta(float(np.mean(np.abs(d))), n),
    }


def hm_of_totals(sums, ns):
    acc = 100.0 * np.asarray(sums, dtype=float) / np.asarray(ns, dtype=float)
    return float(len(acc) / np.sum(1.0 / (acc + 1.0)))


def stratified_jackknife_acceleration(strata, stat):
    """Leave every example out in turn (explicitly, one by one), within its stratum."""
    sums = [float(np.sum(s)) for s in strata]
    ns = [len(s) for s in strata]
    num = den = 0.0
    for k, s in enumerate(strata):
        n = len(s)
        if n < 2:
            continue
        loo = []
        for j in range(n):
            sums2, ns2 = list(sums), list(ns)
            sums2[k] -= s[j]
            ns2[k] -= 1
            loo.append(stat(sums2, ns2))
        loo = np.asarray(loo)
        l = (n - 1) * (loo.mean() - loo)
        num += float(np.sum(l**3)) / n**3
        den += float(np.sum(l**2)) / n**2
    return num / (6 * den**1.5)


JACKKNIFE = {
    "mean_1_of_4": [[1, 0, 0, 0]],
    "hm_three_tasks": [[1] * 3 + [0] * 17, [1] * 9 + [0] * 11, [1] * 15 + [0] * 5],
    "hm_fractional": [[1.0, 0.5, 0.0, 0.0, 0.25], [1.0, 1.0, 0.75, 0.0], [0.0, 0.0, 0.5]],
}


# --- issue 24: clustered Wilson, Tango, Connor's MDE and its exact power, log p-values -----

# examples as lists of 0/1 verdicts over epochs
EXAMPLE_CLUSTERS = {
    # every verdict logged twice (epochs 1 and 2): must give the interval of "once"
    "once": [[1], [0], [1], [1], [0], [1], [1], [1], [0], [1], [0], [0], [1], [1], [0]],
    "twice": [[v, v] for [v] in [[1], [0], [1], [1], [0], [1], [1], [1], [0], [1], [0], [0], [1], [1], [0]]],
    # unequal epochs, some disagreeing within an example
    "unequal": [[1, 1, 0], [0, 0], [1], [1, 0, 1, 1], [0, 0, 0], [1, 1], [0, 1], [1], [0], [1, 1, 1, 1, 0]],
    # epochs that disagree in every example (rows like independent trials: n_eff capped at N)
    "halves": [[1, 0], [0, 1], [1, 0], [0, 1]],
    "all_wrong": [[0, 0, 0]] * 12,
    "all_right": [[1, 1]] * 8,
}


def clustered_wilson(clusters):
    """Wilson at the Korn-Graubard effective n: p(1-p)/Var_CR0 of the mean of example means,
    the variance from statsmodels (OLS on a constant, HC0 on the per-example means), bounded to
    [G, N]; G when p is 0 or 1. The interval from statsmodels' proportion_confint(wilson)."""
    means = np.array([np.mean(c) for c in clusters], dtype=float)
    g = len(means)
    rows = sum(len(c) for c in clusters)
    p = float(means.mean())
    if p in (0.0, 1.0):
        n_eff = float(g)
    else:
        fit = sm.OLS(means, np.ones((g, 1))).fit(cov_type="HC0")
        var = float(fit.bse[0]) ** 2
        n_eff = rows if var == 0 else min(float(rows), max(float(g), p * (1 - p) / var))
    low, high = proportion_confint(p * n_eff, n_eff, alpha=0.05, method="wilson")
    return {"estimate": 100 * p, "low": 100 * float(low), "high": 100 * float(high), "n_eff": n_eff}


# (b, c, n): Bentur et al. 2009 and Cavo et al. 2012 (Fagerland, Lydersen & Laake 2014),
# PropCIs' scoreci.mp example, small and degenerate tables, fractional counts (epoch means)
TANGO = [[1, 7, 21], [6, 16, 161], [40, 20, 160], [0, 0, 4520], [3, 0, 3], [5, 0, 5], [7, 1, 8],
         [0, 5, 5], [12, 4, 200], [224, 8, 290], [2.5, 0.75, 8]]


def tango_interval(b, c, n):
    """Tango (1998) by a route independent of the closed-form restricted MLE: the constrained
    maximum of the multinomial log-likelihood (p01 given delta) found numerically, the score
    statistic from it, and each bound by Brent's root finder."""
    def q_tilde(delta):
        lo, hi = max(0.0, -delta), (1 - delta) / 2

        def nll(q):
            p10, p01, rest = q + delta, q, 1 - 2 * q - delta
            terms = [(b, p10), (c, p01), (n - b - c, rest)]
            return -sum(k * np.log(max(v, 1e-300)) for k, v in terms if k > 0)
        r = optimize.minimize_scalar(nll, bounds=(lo, hi), method="bounded",
                                     options={"xatol": 1e-14, "maxiter": 2000})
        # the maximum may sit on the boundary the bounded search only approaches
        return min([lo, hi, r.x], key=nll)

    def T(delta):
        q = q_tilde(delta)
        return (b - c - n * delta) / np.sqrt(n * (2 * q + delta * (1 - delta)))

    est = (b - c) / n
    eps = 1e-12
    low = -1.0 if est <= -1 else optimize.brentq(lambda d: T(d) - Z95, -1 + eps, est - eps, xtol=1e-15)
    high = 1.0 if est >= 1 else optimize.brentq(lambda d: T(d) + Z95, est + eps, 1 - eps, xtol=1e-15)
    return [float(low), float(high)]


def connor_delta(psi, n):
    """Connor (1987): solve n = ((za sqrt(psi) + zb sqrt(psi - d^2)) / d)^2 for d (brentq);
    None when even d = psi (the largest possible) needs more than n pairs."""
    za, zb = stats.norm.ppf(0.975), stats.norm.ppf(0.8)
    f = lambda d: ((za * np.sqrt(psi) + zb * np.sqrt(psi - d * d)) / d) ** 2 - n
    if f(psi) > 0:
        return None
    return float(optimize.brentq(f, 1e-9, psi, xtol=1e-15))


def exact_mcnemar_power(n, psi, delta, alpha=0.05):
    """Power of the two-sided exact McNemar test (p = 2 P(X <= min(b, c)) <= alpha) when the
    discordant count is Binomial(n, psi) and each discordant pair favours A with probability
    (psi + delta) / (2 psi)."""
    pi = (psi + delta) / (2 * psi)
    power = 0.0
    for m in range(1, n + 1):
        pm = stats.binom.pmf(m, n, psi)
        if pm < 1e-15:
            continue
        ks = np.arange(m // 2 + 1)
        reject = ks[2 * stats.binom.cdf(ks, m, 0.5) <= alpha]
        if len(reject) == 0:
            continue
        k = int(reject[-1])
        power += pm * (stats.binom.cdf(k, m, pi) + stats.binom.sf(m - k - 1, m, pi))
    return float(power)


# (n, b, c): the MDE at the observed discordance; the last is the large effect
MDE_CASES = [[200, 30, 10], [200, 10, 5], [4520, 300, 200], [100, 20, 3], [290, 224, 8]]


def mde_case(n, b, c):
    psi = (b + c) / n
    d = np.r_[np.ones(b), -np.ones(c), np.zeros(n - b - c)]
    observed_se_mde = float((stats.norm.ppf(0.975) + stats.norm.ppf(0.8)) * np.std(d, ddof=1) / np.sqrt(n))
    connor = connor_delta(psi, n)
    return {
        "connor": connor,
        "exact_power_at_connor": exact_mcnemar_power(n, psi, connor),
        "observed_se_mde": observed_se_mde,
        "exact_power_at_observed_se_mde": exact_mcnemar_power(n, psi, observed_se_mde),
    }


# McNemar p-values too small for a double: log10 of 2 P(X <= k), X ~ Bin(b + c, 1/2)
LOG_MCNEMAR = [[0, 2000], [100, 3000], [1500, 100], [1, 7], [490, 511]]


def log10_mcnemar(b, c):
    """log10(2 P(X <= min(b, c))) from log-gamma binomial terms and logsumexp (SciPy's logcdf
    underflows to -inf this far out)."""
    m, k = b + c, min(b, c)
    i = np.arange(k + 1)
    terms = special.gammaln(m + 1) - special.gammaln(i + 1) - special.gammaln(m - i + 1)
    return float(min(0.0, (np.log(2) + special.logsumexp(terms) - m * np.log(2)) / np.log(10)))


def exact_rejects_only_where_score_rejects(max_m=2000):
    """The largest m up to max_m for which, at every b + c <= m, McNemar's exact test
    rejecting at 5% implies the asymptotic score test (Tango's interval at 0) rejects."""
    for m in range(1, max_m + 1):
        ks = np.arange(m // 2 + 1)
        exact = 2 * stats.binom.cdf(ks, m, 0.5) <= 0.05
        score = (m - 2 * ks) / np.sqrt(m) > Z95
        if np.any(exact & ~score):
            return m - 1
    return max_m


def main():
    out = {
        "versions": {
            "python": sys.version.split()[0],
            "numpy": np.__version__,
            "scipy": scipy.__version__,
            "statsmodels": statsmodels.__version__,
        },
        "inputs": {
            "scores": SCORES,
            "clusters": CLUSTERS,
            "paired": PAIRED,
            "jackknife": JACKKNIFE,
            "example_clusters": EXAMPLE_CLUSTERS,
        },
        "normal_quantile": [[p, float(stats.norm.ppf(p))] for p in NORMAL_P],
        "binomial_cdf": [
            [n, p, k, float(stats.binom.cdf(k, n, p))] for n, p, ks in BINOM_CDF for k in ks
        ],
        "chi2_critical": [[q, df, float(stats.chi2.ppf(q, df))] for q, df in CHI2],
        "clt": {
            name: {"n": len(x), "estimate": float(np.mean(x)), "se": clt_se(x)}
            for name, x in SCORES.items()
        },
        "clustered": {
            name: {
                "n": int(sum(len(c) for c in cl)),
                "clusters": len(cl),
                "estimate": float(np.mean(np.concatenate([np.asarray(c, float) for c in cl]))),
                "se_numpy_cr1": cluster_se_numpy(cl),
                "se_statsmodels": cluster_se_statsmodels(cl),
                "se_cr0": cluster_se_cr0(cl),
                "se_miller_uncorrected": cluster_se_miller_uncorrected(cl),
                "se_of_cluster_means": clt_se([np.mean(c) for c in cl]),
            }
            for name, cl in CLUSTERS.items()
        },
        "paired": {name: paired(v["a"], v["b"]) for name, v in PAIRED.items()},
        "mcnemar": [
            [
                b,
                c,
                float(mcnemar([[10, b], [c, 10]], exact=True).pvalue),
                float(stats.binomtest(min(b, c), b + c, 0.5).pvalue) if b + c > 0 else 1.0,
            ]
            for b, c in MCNEMAR
        ],
        "holm": {
            name: {"p": p, "adjusted": [float(v) for v in multipletests(p, method="holm")[1]]}
            for name, p in HOLM.items()
        },
        "mde": {
            "z_sum_alpha05_power80": float(stats.norm.ppf(0.975) + stats.norm.ppf(0.8)),
            # Connor (1987) example: p01 = 0.45, p10 = 0.05, alpha 0.05, power 0.8 -> n
            "connor_n": float(
                (
                    (stats.norm.ppf(0.975) * np.sqrt(0.5) + stats.norm.ppf(0.8) * np.sqrt(0.5 - 0.16))
                    / 0.4
                )
                ** 2
            ),
        },
        "clustered_wilson": {name: clustered_wilson(cl) for name, cl in EXAMPLE_CLUSTERS.items()},
        "wilson_0_of_200_high": 100 * float(proportion_confint(0, 200, method="wilson")[1]),
        "tango": [[b, c, n, *tango_interval(b, c, n)] for b, c, n in TANGO],
        "mde_cases": {f"{n}/{b}/{c}": mde_case(n, b, c) for n, b, c in MDE_CASES},
        "log10_mcnemar": [[b, c, log10_mcnemar(b, c)] for b, c in LOG_MCNEMAR],
        "exact_implies_score_up_to": exact_rejects_only_where_score_rejects(),
        "jackknife_acceleration": {
            "mean_1_of_4": stratified_jackknife_acceleration(
                JACKKNIFE["mean_1_of_4"], lambda s, n: s[0] / n[0]
            ),
            "hm_three_tasks": stratified_jackknife_acceleration(
                JACKKNIFE["hm_three_tasks"], hm_of_totals
            ),
            "hm_fractional": stratified_jackknife_acceleration(
                JACKKNIFE["hm_fractional"], hm_of_totals
            ),
        },
    }
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
