/**
 * The rules that apply to rows of any benchmark, in one polars-free module: `stored` (the
 * log's own verdict) and `lenient` (runlens's forgiving extractor, analysis only). The
 * registry lists them after the benchmarks' own scorers; a scoring Worker imports this module
 * ({@link GENERIC_SCORERS_MODULE}) next to each benchmark's `scoring.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { GENERIC_SCORERS } from "@runlens/scorers/generic.ts";
 * assert.deepEqual(GENERIC_SCORERS.map((s) => s.name), ["stored", "lenient"]);
 * ```
 * @module
 */
import { lenient } from "./lenient.ts";
import { stored } from "./stored.ts";
import type { ScalarScorer } from "./types.ts";

/**
 * Rules that apply to rows of any benchmark, in registry order.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const byName = new Map(GENERIC_SCORERS.map((s) => [s.name, s]));
 * assert.equal(byName.get("stored")!.score("x", "y", { stored: true }).correct, true);
 * assert.equal(byName.get("lenient")!.score("Answer: (B)", "(B)").correct, true);
 * ```
 */
export const GENERIC_SCORERS: readonly ScalarScorer[] = [stored, lenient];

/**
 * The URL of this module, for a Worker's `import()`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const { GENERIC_SCORERS: again } = await import(GENERIC_SCORERS_MODULE);
 * assert.equal(again, GENERIC_SCORERS);
 * ```
 */
export const GENERIC_SCORERS_MODULE: string = new URL("./generic.ts", import.meta.url).href;
