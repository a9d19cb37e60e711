/**
 * ARB's answer types and the scorer name of each (kept apart from `score.ts`, which loads the
 * computer-algebra library, so that reading field names costs nothing).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { ARB_ANSWER_TYPES, ARB_SCORERS } from "@runlens/benchmarks/arb/answer_types.ts";
 * assert.equal(ARB_ANSWER_TYPES[0], "multiple-choice");
 * assert.equal(ARB_SCORERS[ARB_ANSWER_TYPES[0]], "arb-mcq");
 * ```
 * @module
 */

/** The four answer types of ARB (Table 1); images are a separate flag. */
export const ARB_ANSWER_TYPES = ["multiple-choice", "numerical", "symbolic", "proof-like"] as const;

/** One ARB answer type. */
export type ArbAnswerType = (typeof ARB_ANSWER_TYPES)[number];

/** The scorer name of each answer type. */
export const ARB_SCORERS: Record<ArbAnswerType, string> = {
  "multiple-choice": "arb-mcq",
  numerical: "arb-numerical",
  symbolic: "arb-symbolic",
  "proof-like": "arb-proof",
};
