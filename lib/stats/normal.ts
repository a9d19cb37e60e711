/**
 * The standard normal quantile Φ⁻¹(p) to full double precision, by Wichura's algorithm AS 241
 * (PPND16): M. J. Wichura (1988), "Algorithm AS 241: The Percentage Points of the Normal
 * Distribution", Applied Statistics 37(3):477–484. Rational approximations in three regions
 * (|p − ½| ≤ 0.425; then r = √(−ln min(p, 1−p)) ≤ 5; beyond), relative error about 1e−16.
 *
 * Why not simple-statistics' `probit`: it uses Winitzki's closed-form inverse erf, which is off
 * by about 3e−3 (probit(0.975) = 1.9572 instead of 1.95996), too coarse for interval
 * half-widths and power calculations. The normal CDF, where 1e−7 is plenty (BCa
 * adjustments), is simple-statistics' `errorFunction` (Numerical Recipes' erfc, fractional
 * error < 1.2e−7): Φ(x) = (1 + erf(x/√2)) / 2.
 *
 * @example
 * ```ts
 * import { normalCdf, normalQuantile } from "@runlens/stats/normal.ts";
 * normalQuantile(0.975); // 1.9599639845400536 (Φ⁻¹(0.975) = 1.959963984540054…)
 * normalQuantile(0.8); // 0.8416212335729144
 * normalCdf(1.959963984540054); // 0.9750000021842771 (erf's 1e−7 accuracy)
 * ```
 * @module
 */
import { errorFunction } from "simple-statistics";

const A = [
  3.3871328727963666080e0,
  1.3314166789178437745e+2,
  1.9715909503065514427e+3,
  1.3731693765509461125e+4,
  4.5921953931549871457e+4,
  6.7265770927008700853e+4,
  3.3430575583588128105e+4,
  2.5090809287301226727e+3,
];
const B = [
  1,
  4.2313330701600911252e+1,
  6.8718700749205790830e+2,
  5.3941960214247511077e+3,
  2.1213794301586595867e+4,
  3.9307895800092710610e+4,
  2.8729085735721942674e+4,
  5.2264952788528545610e+3,
];
const C = [
  1.42343711074968357734e0,
  4.63033784615654529590e0,
  5.76949722146069140550e0,
  3.64784832476320460504e0,
  1.27045825245236838258e0,
  2.41780725177450611770e-1,
  2.27238449892691845833e-2,
  7.74545014278341407640e-4,
];
const D = [
  1,
  2.05319162663775882187e0,
  1.67638483018380384940e0,
  6.89767334985100004550e-1,
  1.48103976427480074590e-1,
  1.51986665636164571966e-2,
  5.47593808499534494600e-4,
  1.05075007164441684324e-9,
];
const E = [
  6.65790464350110377720e0,
  5.46378491116411436990e0,
  1.78482653991729133580e0,
  2.96560571828504891230e-1,
  2.65321895265761230930e-2,
  1.24266094738807843860e-3,
  2.71155556874348757815e-5,
  2.01033439929228813265e-7,
];
const F = [
  1,
  5.99832206555887937690e-1,
  1.36929880922735805310e-1,
  1.48753612908506148525e-2,
  7.86869131145613259100e-4,
  1.84631831751005468180e-5,
  1.42151175831644588870e-7,
  2.04426310338993978564e-15,
];

/** Horner evaluation of Σ c_i x^i. */
function poly(c: readonly number[], x: number): number {
  let s = 0;
  for (let i = c.length - 1; i >= 0; i--) s = s * x + c[i];
  return s;
}

/**
 * Φ⁻¹(p), the standard normal quantile (AS 241). Returns −Infinity at 0 and Infinity at 1;
 * throws a RangeError outside [0, 1] or on NaN.
 *
 * @example
 * ```ts
 * normalQuantile(0.5); // 0
 * normalQuantile(0.025); // -1.9599639845400538
 * normalQuantile(1e-10); // -6.361340902404056
 * ```
 */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`normalQuantile: p must be in [0, 1] (got ${p})`);
  if (p === 0) return -Infinity;
  if (p === 1) return Infinity;
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (q * poly(A, r)) / poly(B, r);
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let x: number;
  if (r <= 5) {
    r -= 1.6;
    x = poly(C, r) / poly(D, r);
  } else {
    r -= 5;
    x = poly(E, r) / poly(F, r);
  }
  return q < 0 ? -x : x;
}

/**
 * Φ(x), the standard normal CDF, from simple-statistics' `errorFunction` (absolute error
 * below about 1e−7).
 *
 * @example
 * ```ts
 * normalCdf(0); // 0.49999998499999976
 * normalCdf(-1.959963984540054); // 0.02499999781572293
 * ```
 */
export function normalCdf(x: number): number {
  if (x === Infinity) return 1;
  if (x === -Infinity) return 0;
  return 0.5 * (1 + errorFunction(x / Math.SQRT2));
}
