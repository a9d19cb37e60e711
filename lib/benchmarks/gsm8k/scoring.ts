/**
 * The polars-free scoring part of GSM8K ({@link BenchmarkScoring}), which scoring Workers import
 * by URL: one task, its problems, how tools name it, and its scorers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(scoring.canonicalTask(" GSM8K "), "gsm8k");
 * assert.equal(scoring.toolNames!.tasks![0].exec("gsm8k_cot_zeroshot")?.groups?.task, "gsm8k");
 * assert.ok(scoring.sameTarget!("She makes $18.\n#### 18", "18")); // lm-eval's gsm8k target
 * assert.ok(!scoring.sameTarget!("1,800", "18"));
 * ```
 * @module
 */
import { matchAnswer } from "../../scorers/answer_match.ts";
import type { BenchmarkScoring } from "../types.ts";
import { GSM8K_SIZE, gsm8kTarget, readGsm8kExamples } from "./examples.ts";
import { gsm8kFlexible, gsm8kNumber, gsm8kStrict } from "./scorers.ts";

/** GSM8K's scoring part. */
export const scoring: BenchmarkScoring = {
  name: "gsm8k",
  label: "GSM8K",
  tasks: [{ name: "gsm8k", size: GSM8K_SIZE }],
  canonicalTask: (label) => label.trim().toLowerCase() === "gsm8k" ? "gsm8k" : null,
  // lm-eval's tasks on the test split: gsm8k, gsm8k_cot, gsm8k_cot_zeroshot, gsm8k_cot_llama, …
  toolNames: { tasks: [/^(?<task>gsm8k)(?:_cot(?:_[a-z0-9_]+)?)?$/i] },
  readExamples: readGsm8kExamples,
  // a log may hold the whole reference solution (lm-eval's gsm8k) or the number in any form
  sameTarget: (logged, released) => matchAnswer(gsm8kTarget(logged), released),
  defaultScorer: gsm8kNumber.name,
  scorers: [gsm8kNumber, gsm8kStrict, gsm8kFlexible],
};
