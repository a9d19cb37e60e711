/**
 * McNemar's exact test for paired binary outcomes (McNemar 1947, "Note on the sampling error
 * of the difference between correlated proportions or percentages", Psychometrika
 * 12:153–157; exact conditional form as in Fagerland, Lydersen & Laake 2013, "The McNemar
 * test for binary matched-pairs data: mid-p and asymptotic are better than exact
 * conditional", BMC Med. Res. Methodol. 13:91, eq. 1).
 *
 * Only the discordant pairs carry information: b pairs where only A is right, c where only B
 * is. Under H₀ (equal accuracy) and given b + c, b ~ Binomial(b + c, ½), so the two-sided
 * exact p-value is
 *
 *   p = min(1, 2 · P(X ≤ min(b, c))),   X ~ Binomial(b + c, ½),
 *
 * with p = 1 when b = c (and when there are no discordant pairs). The tail is summed directly
 * for b + c ≤ 1000 (exact while the binomial coefficients are below 2⁵³) and in log space
 * beyond, to double precision for any b + c. Applied to the signs of per-example
 * differences of mean scores (several epochs), the same formula is the exact sign test.
 *
 * @example
 * ```ts
 * import { mcnemarExact } from "@runlens/stats/mcnemar.ts";
 * mcnemarExact(1, 7); // 0.0703125 = 2·(1 + 8)/2⁸ (Fagerland et al. 2013, Table 1 data: 0.070)
 * ```
 * @module
 */

/**
 * Two-sided exact McNemar p-value for `b` and `c` discordant pairs (non-negative integers).
 *
 * @example
 * ```ts
 * mcnemarExact(0, 0); // 1
 * mcnemarExact(0, 5); // 0.0625 = 2/2⁵
 * mcnemarExact(5, 5); // 1
 * ```
 */
export function mcnemarExact(b: number, c: number): number {
  checkCounts(b, c);
  const m = b + c;
  const k = Math.min(b, c);
  if (m === 0 || 2 * k >= m) return 1;
  if (m <= 1000) {
    // Σ_{i≤k} C(m, i) · 2⁻ᵐ: the coefficients stay below 2¹⁰⁰⁰ and are exact integers while
    // below 2⁵³ (m ≤ 50 or so), so textbook cases come out exact.
    let term = 1, tail = 1;
    for (let i = 0; i < k; i++) {
      term = (term * (m - i)) / (i + 1);
      tail += term;
    }
    return Math.min(1, 2 * tail * 2 ** -m);
  }
  return Math.min(1, Math.exp(logTwiceTail(m, k)));
}

/**
 * log₁₀ of {@link mcnemarExact}, finite however small the p-value (2·2⁻²⁰⁰⁰ underflows a
 * double; its logarithm does not).
 *
 * @example
 * ```ts
 * mcnemarExactLog10(0, 2000); // log₁₀(2·2⁻²⁰⁰⁰) = −601.7…
 * mcnemarExactLog10(1, 7); // log₁₀(0.0703125)
 * ```
 */
export function mcnemarExactLog10(b: number, c: number): number {
  checkCounts(b, c);
  const m = b + c;
  const k = Math.min(b, c);
  if (m === 0 || 2 * k >= m) return 0;
  // below m = 1000 the p-value is at least 2⁻⁹⁹⁹, far from underflow
  if (m <= 1000) return Math.log10(mcnemarExact(b, c));
  return Math.min(0, logTwiceTail(m, k) / Math.LN10);
}

function checkCounts(b: number, c: number): void {
  for (const [name, v] of [["b", b], ["c", c]] as const) {
    if (!Number.isInteger(v) || v < 0) {
      throw new RangeError(`mcnemarExact: ${name} must be a non-negative integer (got ${v})`);
    }
  }
}

/** ln(2·P(X ≤ k)), X ~ Bin(m, ½), summed in log space relative to the largest term (i = k). */
function logTwiceTail(m: number, k: number): number {
  const logs: number[] = [];
  let logC = 0;
  for (let i = 0; i <= k; i++) {
    logs.push(logC);
    logC += Math.log((m - i) / (i + 1));
  }
  const top = logs[k];
  let s = 0;
  for (const l of logs) s += Math.exp(l - top);
  return Math.LN2 + top + Math.log(s) - m * Math.LN2;
}
