/**
 * `stored`: keep the verdict the evaluation tool already wrote into the log
 * (`stored_correct`), without re-scoring. Nothing is extracted, so whether an answer was found
 * is not known (`found` null).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { stored } from "@runlens/scorers/stored.ts";
 * const verdict = stored.score("anything", "x", { stored: true });
 * assert.deepEqual(verdict, { extracted: null, correct: true, found: null });
 * assert.equal(stored.score("anything", "x").correct, null); // the log stored no verdict
 * ```
 * @module
 */
import { ANY_BENCHMARK, type Scorer } from "./types.ts";

/** `stored`. */
export const stored: Scorer = {
  name: "stored",
  description: "The verdict stored in the log by the tool that ran the evaluation " +
    "(stored_correct); null where the log stored none. Extracts nothing.",
  source: "the log itself",
  benchmarks: ANY_BENCHMARK,
  needs: ["stored"],
  score: (_response, _target, ctx = {}) => ({
    extracted: null,
    correct: ctx.stored ?? null,
    found: null,
  }),
};
