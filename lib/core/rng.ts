/**
 * mulberry32: a small, fast, seeded 32-bit PRNG returning floats in [0, 1), deterministic
 * across platforms. Used wherever runlens needs reproducible randomness (synthetic runs, the
 * speed benchmark's generated logs, the symbolic-equivalence test points of ARB).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { mulberry32 } from "@runlens/core/rng.ts";
 * const rand = mulberry32(1);
 * assert.equal(rand(), 0.6270739405881613);
 * ```
 * @module
 */

/** A source of floats in [0, 1). */
export type Rng = () => number;

/** A mulberry32 generator seeded with `seed`. */
export function mulberry32(seed: number): Rng {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
