/**
 * How mistake-finding answers number the steps of a trace, and what a step number names under
 * each numbering: never guessed, so a BBM answer is scored only under a numbering someone
 * stated (`one-based`: "Thought N", as BBEH's targets; `zero-based`: the 0-based index). No
 * polars: the scorers (`scorers.ts`) use it in scoring Workers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { answerToIndex } from "@runlens/benchmarks/bbm/numbering.ts";
 * assert.equal(answerToIndex("5", "one-based", 10), 4); // "Thought 5" of 10 steps
 * assert.equal(answerToIndex("5", "zero-based", 10), 5);
 * ```
 * @module
 */

/** How the answers number the steps. */
export type StepNumbering = "one-based" | "zero-based";

/** The step numberings, for argument checking. */
export const STEP_NUMBERINGS: readonly StepNumbering[] = ["one-based", "zero-based"];

/** A predicted answer as a 0-based step index, "none" (no mistake) or null (no valid answer). */
export type PredictedIndex = number | "none" | null;

/**
 * Turn an extracted answer ("No", "7", null) into a 0-based step index under a numbering;
 * out-of-range steps (outside 0 … nSteps − 1) give null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(answerToIndex("No", "one-based", 5), "none");
 * assert.equal(answerToIndex("1", "one-based", 5), 0);
 * assert.equal(answerToIndex("0", "one-based", 5), null); // no "Thought 0"
 * assert.equal(answerToIndex("5", "zero-based", 5), null); // past the last step
 * ```
 */
export function answerToIndex(
  extracted: string | null,
  numbering: StepNumbering,
  nSteps: number,
): PredictedIndex {
  if (!STEP_NUMBERINGS.includes(numbering)) {
    throw new Error(`step numbering must be "one-based" or "zero-based", not "${numbering}"`);
  }
  if (extracted === null) return null;
  if (extracted === "No") return "none";
  if (!/^\d+$/.test(extracted)) return null;
  const k = Number(extracted) - (numbering === "one-based" ? 1 : 0);
  return k >= 0 && k < nSteps ? k : null;
}

/** Environment variable stating the step numbering of BBM-indexed logs (notebook 03). */
export const BBM_NUMBERING_ENV = "RUNLENS_BBM_NUMBERING";

/**
 * The numbering named by `$RUNLENS_BBM_NUMBERING` (undefined when unset; throws when invalid).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * numberingFromEnv(); // "one-based" when RUNLENS_BBM_NUMBERING=one-based, undefined when unset
 * Deno.env.set(BBM_NUMBERING_ENV, "1");
 * assert.throws(() => numberingFromEnv(), /must be one-based or zero-based, not "1"/);
 * Deno.env.delete(BBM_NUMBERING_ENV);
 * ```
 */
export function numberingFromEnv(): StepNumbering | undefined {
  const v = Deno.env.get(BBM_NUMBERING_ENV);
  if (!v) return undefined;
  if (!STEP_NUMBERINGS.includes(v as StepNumbering)) {
    throw new Error(`$${BBM_NUMBERING_ENV} must be one-based or zero-based, not "${v}"`);
  }
  return v as StepNumbering;
}

/**
 * The load options of a notebook's BBM rows: the scorer of the numbering `$RUNLENS_BBM_NUMBERING`
 * states, or — unset — how to state one, which the rows' quarantine reason says.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * Deno.env.set(BBM_NUMBERING_ENV, "zero-based");
 * assert.deepEqual(numberingLoadOptions(), { scorers: { bbm: "bbm-zero-based" } });
 * Deno.env.delete(BBM_NUMBERING_ENV);
 * assert.match(numberingLoadOptions().scorerHints!.bbm, /^set RUNLENS_BBM_NUMBERING=one-based/);
 * ```
 */
export function numberingLoadOptions(): {
  scorers?: Record<string, string>;
  scorerHints?: Record<string, string>;
} {
  const numbering = numberingFromEnv();
  if (numbering) return { scorers: { bbm: `bbm-${numbering}` } };
  return {
    scorerHints: {
      bbm: `set ${BBM_NUMBERING_ENV}=one-based or zero-based to say how their answers ` +
        "number steps",
    },
  };
}
