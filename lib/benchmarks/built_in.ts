/**
 * The benchmarks runlens ships: one line per benchmark folder, exporting its registered
 * {@link Benchmark} value under the benchmark's name. The registry (`registry.ts`) lists them
 * by `listOrder`, so adding a benchmark adds a line here and one in `mod.ts` (its public
 * namespace); tests/benchmark_registry.test.ts fails when the two disagree.
 *
 * Why not build the registry from `mod.ts`: a folder's `mod.ts` loads its figures and analyses
 * (Observable Plot, jsdom, resvg, ARB's computer algebra), which more than doubled the start-up
 * of every command (a small `runlens score`: 0.5 s → 1 s), while `benchmark.ts` holds only what
 * the pipeline needs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import * as builtIn from "@runlens/benchmarks/built_in.ts";
 * for (const [key, b] of Object.entries(builtIn)) assert.equal(key, b.name);
 * ```
 * @module
 */
export { arb } from "./arb/benchmark.ts";
export { bbeh } from "./bbeh/benchmark.ts";
export { bbh } from "./bbh/benchmark.ts";
export { bbm } from "./bbm/benchmark.ts";
export { gsm8k } from "./gsm8k/benchmark.ts";
