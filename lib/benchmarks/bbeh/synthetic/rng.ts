/**
 * Seeded randomness for the SYNTHETIC run generator: a small deterministic PRNG (mulberry32) and
 * helpers that pick exactly k of n items, so planted rates are exact counts, not random rates.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pickExactly, rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * const r = rng(42);
 * assert.deepEqual(pickExactly(r, [1, 2, 3, 4], 2), [1, 4]); // the same two for seed 42
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
 * import assert from "node:assert/strict";
 * const r = rng(1);
 * assert.equal(r(), 0.6270739405881613);
 * ```
 */
export const rng: (seed: number) => Rng = mulberry32;

/**
 * A seed derived from a base seed and strings (FNV-1a over the parts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(subSeed(42, "model-a", "boardgame_qa"), 3385643487);
 * assert.notEqual(subSeed(42, "model-a", "nycc"), subSeed(42, "model-b", "nycc"));
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
 * import assert from "node:assert/strict";
 * const items = [1, 2, 3];
 * assert.deepEqual(shuffled(rng(1), items), [3, 1, 2]);
 * assert.deepEqual(items, [1, 2, 3]); // a copy: the input is left alone
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
 * import assert from "node:assert/strict";
 * assert.deepEqual(pickExactly(rng(3), ["a", "b", "c"], 1), ["b"]);
 * assert.throws(() => pickExactly(rng(3), ["a"], 2), RangeError);
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
 * import assert from "node:assert/strict";
 * assert.equal(intIn(rng(1), 1, 6), 4); // a die roll: 1 + floor(0.627… × 6)
 * ```
 */
export function intIn(r: Rng, lo: number, hi: number): number {
  return lo + Math.floor(r() * (hi - lo + 1));
}
