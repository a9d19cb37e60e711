/**
 * Every benchmark runlens ships, one namespace per folder: each folder's `mod.ts` (its
 * registered value under its own name, tasks, data set, scorers, aggregates, published
 * numbers, analyses and figures). The registry of the benchmarks is `registry.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbeh, bbh } from "@runlens/benchmarks/mod.ts";
 * assert.equal(bbeh.bbeh.tasks.length, 23);
 * assert.equal(bbh.BBH_SIZE, 6511);
 * ```
 * @module
 */
export * as arb from "./arb/mod.ts";
export * as bbeh from "./bbeh/mod.ts";
export * as bbh from "./bbh/mod.ts";
export * as bbm from "./bbm/mod.ts";
export * as gsm8k from "./gsm8k/mod.ts";
