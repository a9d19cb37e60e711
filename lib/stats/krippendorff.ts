/**
 * Krippendorff's alpha: inter-annotator reliability for any number of coders, missing labels
 * allowed, at the nominal, ordinal, interval or ratio level of measurement.
 *
 * Input is a units × coders matrix (one row per unit, one column per coder) with `null` (or
 * `undefined`) for a missing label. Units with fewer than two labels are not pairable and are
 * ignored. Computed from the coincidence matrix as in Krippendorff (2011), "Computing
 * Krippendorff's Alpha-Reliability": α = 1 − D_o / D_e with
 * D_o = Σ o_ck δ²_ck / n and D_e = Σ n_c n_k δ²_ck / (n (n − 1)).
 *
 * Difference functions δ²: nominal 0/1; ordinal (Σ_{g=c..k} n_g − (n_c + n_k)/2)² over the
 * ranked values; interval (c − k)²; ratio ((c − k)/(c + k))².
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { krippendorffAlpha } from "@runlens/stats/krippendorff.ts";
 * const alpha = krippendorffAlpha([["a", "a"], ["a", "b"], ["b", "b"], ["b", "b"]]);
 * assert.ok(Math.abs(alpha - 8 / 15) < 1e-12); // ≈ 0.533
 * ```
 * @module
 */

/** Level of measurement. */
export type AlphaLevel = "nominal" | "ordinal" | "interval" | "ratio";

/** A label: a category (nominal/ordinal) or a number. */
export type Label = string | number;

/** Options of {@link krippendorffAlpha}. */
export interface AlphaOptions {
  /**
   * Rank order of the labels for the ordinal level (needed for string labels; numbers are
   * ranked numerically by default).
   */
  order?: readonly Label[];
}

/** The coincidence matrix of pairable values. */
export interface Coincidences {
  /** Distinct values, sorted (numbers ascending, else by first appearance). */
  values: Label[];
  /** o[c][k]: coincidences of values[c] with values[k]. */
  matrix: number[][];
  /** n_c: marginal totals. */
  totals: number[];
  /** n: number of pairable values. */
  n: number;
}

/**
 * The coincidence matrix of a units × coders matrix (only units with ≥ 2 labels count).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const c = coincidences([[1, 1], [1, 2]]);
 * assert.deepEqual(c.matrix, [[2, 1], [1, 0]]);
 * assert.deepEqual(c.totals, [3, 1]);
 * ```
 */
export function coincidences(
  data: readonly (readonly (Label | null | undefined)[])[],
): Coincidences {
  const units = data.map((row) => row.filter((v): v is Label => v !== null && v !== undefined))
    .filter((vals) => vals.length >= 2);
  const seen: Label[] = [];
  for (const vals of units) for (const v of vals) if (!seen.includes(v)) seen.push(v);
  const values = seen.every((v) => typeof v === "number")
    ? [...seen].sort((a, b) => (a as number) - (b as number))
    : seen;
  const at = new Map(values.map((v, i) => [v, i]));
  const matrix = values.map(() => values.map(() => 0));
  for (const vals of units) {
    const counts = values.map(() => 0);
    for (const v of vals) counts[at.get(v)!]++;
    const m = vals.length;
    counts.forEach((nc, c) => {
      if (nc === 0) return;
      counts.forEach((nk, k) => {
        matrix[c][k] += (nc * (c === k ? nk - 1 : nk)) / (m - 1);
      });
    });
  }
  const totals = matrix.map((row) => row.reduce((s, x) => s + x, 0));
  return { values, matrix, totals, n: totals.reduce((s, x) => s + x, 0) };
}

function deltaSquared(
  level: AlphaLevel,
  values: Label[],
  totals: number[],
  order: readonly Label[] | undefined,
): (c: number, k: number) => number {
  if (level === "nominal") return (c, k) => (c === k ? 0 : 1);
  if (level === "ordinal") {
    const rank = ordinalRanks(values, order);
    const byRank = values.map((_, i) => i).sort((a, b) => rank[a] - rank[b]);
    const pos = new Array<number>(values.length);
    byRank.forEach((vi, p) => (pos[vi] = p));
    const sorted = byRank.map((vi) => totals[vi]);
    return (c, k) => {
      const [lo, hi] = pos[c] <= pos[k] ? [pos[c], pos[k]] : [pos[k], pos[c]];
      let s = 0;
      for (let g = lo; g <= hi; g++) s += sorted[g];
      return (s - (totals[c] + totals[k]) / 2) ** 2;
    };
  }
  const nums = values.map((v) => {
    if (typeof v !== "number") throw new Error(`${level} alpha needs numeric labels, got "${v}"`);
    return v;
  });
  if (level === "interval") return (c, k) => (nums[c] - nums[k]) ** 2;
  if (level === "ratio") {
    return (
      c,
      k,
    ) => (nums[c] + nums[k] === 0 ? 0 : ((nums[c] - nums[k]) / (nums[c] + nums[k])) ** 2);
  }
  throw new Error(`unknown level of measurement "${level}"`);
}

function ordinalRanks(values: Label[], order: readonly Label[] | undefined): number[] {
  if (order) {
    return values.map((v) => {
      const r = order.indexOf(v);
      if (r < 0) throw new Error(`ordinal alpha: label "${v}" is not in the given order`);
      return r;
    });
  }
  if (!values.every((v) => typeof v === "number")) {
    throw new Error("ordinal alpha with non-numeric labels needs an explicit `order`");
  }
  return values.map((v) => v as number);
}

/**
 * Krippendorff's alpha of a units × coders matrix (null = missing). Returns NaN when it is
 * undefined: fewer than two pairable values, or no variation at all (D_e = 0).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const interval = krippendorffAlpha([[1, 2], [3, 3], [2, null]], "interval");
 * assert.ok(Math.abs(interval - 8 / 11) < 1e-12); // ≈ 0.727
 * const order = ["low", "mid", "high"];
 * krippendorffAlpha([["low", "mid"], ["high", "high"]], "ordinal", { order }); // ≈ 0.833
 * assert.ok(Number.isNaN(krippendorffAlpha([["a", "a"]]))); // no variation: undefined
 * ```
 */
export function krippendorffAlpha(
  data: readonly (readonly (Label | null | undefined)[])[],
  level: AlphaLevel = "nominal",
  opts: AlphaOptions = {},
): number {
  const { values, matrix, totals, n } = coincidences(data);
  if (n < 2) return NaN;
  const d2 = deltaSquared(level, values, totals, opts.order);
  let observed = 0, expected = 0;
  for (let c = 0; c < values.length; c++) {
    for (let k = 0; k < values.length; k++) {
      const d = d2(c, k);
      observed += matrix[c][k] * d;
      expected += totals[c] * totals[k] * d;
    }
  }
  const dO = observed / n, dE = expected / (n * (n - 1));
  return dE === 0 ? NaN : 1 - dO / dE;
}
