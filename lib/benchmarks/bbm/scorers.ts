/**
 * BIG-Bench Mistake's scorers: one per step numbering, because the numbering of a log's
 * answers cannot be read from the answers ("3" is Thought 3 or the step at index 3) — choosing
 * the scorer IS stating it, and BBM has no default. Each extracts the final answer
 * (`extract.ts`), reads it under its numbering against the trace's steps, and compares the
 * step (or "No") with the first mistake; a step number outside the trace is no answer
 * (`found` false), as it is the `no_answer` outcome of `classify.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const input = "Sort: kiwi date lime\nThought 1: a\nThought 2: b\nThought 3: c";
 * // the first mistake is Thought 2 (target "2")
 * assert.equal(bbmOneBased.score("The answer is: 2", "2", { input }).correct, true);
 * assert.equal(bbmZeroBased.score("The answer is: 1", "2", { input }).correct, true);
 * assert.equal(bbmOneBased.score("The answer is: 0", "2", { input }).found, false); // no Thought 0
 * ```
 * @module
 */
import type { Scorer } from "../../scorers/types.ts";
import { stepCount } from "./examples.ts";
import { extractMistakeAnswer } from "./extract.ts";
import { answerToIndex, type StepNumbering } from "./numbering.ts";

const SOURCE = "Tyen et al. 2024, LLMs cannot find reasoning errors, but can correct them " +
  "given the error location (WHGTyen/BIG-Bench-Mistake); runlens bbm/extract.ts";

/** The scorer of answers numbered `numbering`. */
function mistakeScorer(numbering: StepNumbering, how: string): Scorer {
  return {
    name: `bbm-${numbering}`,
    description: `First-mistake location with steps numbered ${how}: the final answer (after ` +
      `the last "answer is"/"answer:", else the last number or "no"/"none" word) names a ` +
      `step or "No"; correct when it is the trace's first mistake, or "No" for a trace ` +
      `without one. A step outside the trace is no answer.`,
    source: SOURCE,
    benchmarks: ["bbm"],
    needs: ["input"],
    score(response, target, ctx) {
      const extracted = extractMistakeAnswer(response);
      const steps = stepCount(ctx?.input ?? "");
      const predicted = answerToIndex(extracted, numbering, steps);
      const truth = target === "No" ? "none" : Number(target) - 1;
      return { extracted, correct: predicted === truth, found: predicted !== null };
    },
  };
}

/** Steps numbered from one ("Thought N", as BBEH's targets): "3" is the third step. */
export const bbmOneBased: Scorer = mistakeScorer("one-based", 'from one ("Thought N")');

/** Steps numbered from zero: "3" is the fourth step. */
export const bbmZeroBased: Scorer = mistakeScorer("zero-based", "from zero (step index)");

/**
 * The scorer that reads answers under `numbering`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(numberingScorer("zero-based").name, "bbm-zero-based");
 * ```
 */
export function numberingScorer(numbering: StepNumbering): Scorer {
  return numbering === "one-based" ? bbmOneBased : bbmZeroBased;
}
