/**
 * A small seeded pseudo-random generator for the fuzz suite (mulberry32): the same seed gives
 * the same cases on every machine, so a failing case can be reproduced from its id.
 *
 * @example
 * ```ts
 * import { Rng } from "./rng.ts";
 * const rng = new Rng(42);
 * rng.int(0, 10); // the same number on every run
 * ```
 * @module
 */

/** Seeded random numbers (mulberry32) with helpers for picking and shuffling. */
export class Rng {
  #state: number;

  /** A generator started at `seed` (any 32-bit integer). */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    let t = (this.#state = (this.#state + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [lo, hi] (both included). */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  /** One element of `items`. */
  pick<T>(items: readonly T[]): T {
    return items[Math.floor(this.next() * items.length)];
  }

  /** True with probability `p`. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  /** A shuffled copy of `items` (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const out = [...items];
    for (let i = out.length - 1; i > 0; i--) {
      const j = Math.floor(this.next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  }

  /** `n` random bytes. */
  bytes(n: number): Uint8Array {
    const out = new Uint8Array(n);
    for (let i = 0; i < n; i++) out[i] = Math.floor(this.next() * 256);
    return out;
  }

  /** A child generator for a sub-task, seeded from this one and `salt`. */
  fork(salt: string | number): Rng {
    return new Rng(hashSeed(`${this.int(0, 0x7fffffff)}:${salt}`));
  }
}

/**
 * A 32-bit seed from a string (FNV-1a).
 *
 * @example
 * ```ts
 * hashSeed("gzip-bomb/3"); // the same number on every run
 * ```
 */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}
