/**
 * GSM8K: everything that defines it for runlens, in this folder — `examples.ts` (the 1,319
 * test problems), `scorers.ts` (lm-eval's two filters, the default `gsm8k-number`),
 * `scoring.ts` (what Workers load), `benchmark.ts` (the registered value), `report.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gsm8k } from "@runlens/benchmarks/gsm8k/mod.ts";
 * assert.deepEqual(gsm8k.scorers.map((s) => s.name), ["gsm8k-number", "gsm8k-strict", "gsm8k-flexible"]);
 * ```
 * @module
 */
export * from "./benchmark.ts";
export * from "./examples.ts";
export * from "./scorers.ts";
export * from "./report.ts";
