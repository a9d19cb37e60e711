/**
 * Seeded randomness for the SYNTHETIC run generator: a small deterministic PRNG (mulberry32) and
 * helpers that pick exactly k of n items, so planted rates are exact counts, not random rates.
 *
 * @example
 * ```ts
 * import { rng, pickExactly } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * const r = rng(42);
 * pickExactly(r, [1, 2, 3, 4], 2); // two of the four, the same two for seed 42
 * ```
 * @module
 */
import { mulberry32, type Rng } from "../../../core/rng.ts";

/** A seeded generator of floats in [0, 1). */
export type { Rng };

/**
 * mulberry32: a fast 32-bit seeded PRNG (deterministic across platforms).
 *
 * @example
 * ```ts
 * const r = rng(1); r(); // 0.6270739405881613
 * ```
 */
export const rng: (seed: number) => Rng = mulberry32;

/**
 * A seed derived from a base seed and strings (FNV-1a over the parts).
 *
 * @example
 * ```ts
 * subSeed(42, "model-a", "boardgame_qa");
 * ```
 */
export function subSeed(seed: number, ...parts: string[]): number {
  let h = (2166136261 ^ seed) >>> 0;
  for (const ch of parts.join("\u0000")) {
    h ^= ch.codePointAt(0)!;
    h = Math.imul(h, 16777619) >>> 0;
  }
  return h;
}

/**
 * A shuffled copy (Fisher–Yates).
 *
 * @example
 * ```ts
 * shuffled(rng(1), [1, 2, 3]);
 * ```
 */
export function shuffled<T>(r: Rng, items: readonly T[]): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(r() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * Exactly `k` of the items, chosen at random; throws when k is out of range.
 *
 * @example
 * ```ts
 * pickExactly(rng(3), ["a", "b", "c"], 1).length; // 1
 * ```
 */
export function pickExactly<T>(r: Rng, items: readonly T[], k: number): T[] {
  if (!Number.isInteger(k) || k < 0 || k > items.length) {
    throw new RangeError(`pickExactly: cannot pick ${k} of ${items.length}`);
  }
  return shuffled(r, items).slice(0, k);
}

/**
 * An integer in [lo, hi].
 *
 * @example
 * ```ts
 * intIn(rng(1), 1, 6);
 * ```
 */
export function intIn(r: Rng, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}
