/**
 * Score one ARB response by its answer type, with the scorer named on every row:
 *
 * | answer type       | scorer          | rule                                                    |
 * |-------------------|-----------------|---------------------------------------------------------|
 * | `multiple-choice` | `arb-mcq`       | choice letter after `ANSWER:` = reference letter        |
 * | `numerical`       | `arb-numerical` | units/formatting removed, relative error ≤ 1e-2         |
 * | `symbolic`        | `arb-symbolic`  | CAS equivalence; undecided → needs a manual check       |
 * | `proof-like`      | `arb-proof`     | not auto-scored (manual or rubric grading)              |
 *
 * The row status tells the outcomes apart: `scored` (correct true/false), `unparseable` (no
 * `ANSWER:` delimiter: incorrect, counted separately as in the paper), `invalid-answer` (a
 * delimiter but no letter/number in it: incorrect), `needs-manual-check` (symbolic, CAS
 * undecided: correct null), `not-auto-scored` (proof-like: correct null).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreArbResponse } from "@runlens/benchmarks/arb/score.ts";
 * assert.deepEqual(scoreArbResponse("numerical", "2.4", "… ANSWER: 2.41 m"), {
 *   scorer: "arb-numerical",
 *   extracted: "2.41 m",
 *   correct: true,
 *   status: "scored",
 *   detail: "relative error 0.00417",
 * });
 * ```
 * @module
 */
import { extractAnswer } from "./answer.ts";
import { choiceLetter, referenceLetter } from "./mcq.ts";
import { numbersMatch, parseNumber } from "./numerical.ts";
import { type EquivalenceOptions, symbolicEquivalence } from "./symbolic.ts";
import { ARB_SCORERS, type ArbAnswerType } from "./answer_types.ts";

/** Row statuses, see the module documentation. */
export const ARB_STATUSES = [
  "scored",
  "unparseable",
  "invalid-answer",
  "needs-manual-check",
  "not-auto-scored",
] as const;

/** One row status. */
export type ArbStatus = (typeof ARB_STATUSES)[number];

/**
 * Whether a status means an answer was found (the row schema's `answer_found`): no for
 * `unparseable` (no `ANSWER:`) and `invalid-answer` (no letter or number after it), unknown
 * (null) for proofs, which are not auto-scored, yes otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(ARB_STATUSES.map(arbAnswerFound), [true, false, false, true, null]);
 * ```
 */
export function arbAnswerFound(status: ArbStatus): boolean | null {
  if (status === "not-auto-scored") return null;
  return status !== "unparseable" && status !== "invalid-answer";
}

/** A scorer's verdict on one response. */
export interface ArbVerdict {
  /** The rule that made it. */
  scorer: string;
  /** The text after `ANSWER:` (null: no delimiter). */
  extracted: string | null;
  /** null: not auto-scored (proof-like) or needs a manual check. */
  correct: boolean | null;
  /** How the answer was judged: `scored`, `unparseable`, `not-auto-scored`, … (`ARB_STATUSES`). */
  status: ArbStatus;
  /** Why, in a few words (e.g. "relative error 0.004", "answer does not parse"). */
  detail: string;
}

/** Options: the multiple-choice texts (to read a text reference) and the CAS check. */
export interface ArbScoreOptions extends EquivalenceOptions {
  /** The problem's multiple-choice texts, in order (a reference may name one by its text). */
  choices?: readonly string[] | null;
}

/**
 * Score `response` against `reference` under the rule of `answerType`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(scoreArbResponse("multiple-choice", "C", "I pick C").status, "unparseable");
 * assert.equal(scoreArbResponse("multiple-choice", "C", "ANSWER: maybe").status, "invalid-answer");
 * const sym = scoreArbResponse("symbolic", "x^2", "ANSWER: \\frac{1}{");
 * assert.deepEqual([sym.correct, sym.status], [null, "needs-manual-check"]);
 * assert.equal(scoreArbResponse("proof-like", "", "ANSWER: QED").status, "not-auto-scored");
 * ```
 */
export function scoreArbResponse(
  answerType: ArbAnswerType,
  reference: string,
  response: string,
  opts: ArbScoreOptions = {},
): ArbVerdict {
  const scorer = ARB_SCORERS[answerType];
  const extracted = extractAnswer(response);
  if (answerType === "proof-like") {
    return {
      scorer,
      extracted,
      correct: null,
      status: "not-auto-scored",
      detail: "manual grading",
    };
  }
  if (extracted === null) {
    return { scorer, extracted, correct: false, status: "unparseable", detail: "no ANSWER:" };
  }
  const verdict = (correct: boolean | null, status: ArbStatus, detail: string): ArbVerdict => ({
    scorer,
    extracted,
    correct,
    status,
    detail,
  });
  if (answerType === "multiple-choice") {
    const want = referenceLetter(reference, opts.choices);
    const got = choiceLetter(extracted);
    if (want === null) throw new Error(`multiple-choice reference ${reference} is not a letter`);
    if (got === null) return verdict(false, "invalid-answer", "no choice letter");
    return verdict(got === want, "scored", `letter ${got}`);
  }
  if (answerType === "numerical") {
    const want = parseNumber(reference);
    if (want === null) throw new Error(`numerical reference ${reference} is not a number`);
    const got = parseNumber(extracted);
    if (got === null) return verdict(false, "invalid-answer", "no number");
    const err = want === 0 ? Math.abs(got) : Math.abs(got - want) / Math.abs(want);
    return verdict(numbersMatch(got, want), "scored", `relative error ${err.toPrecision(3)}`);
  }
  const eq = symbolicEquivalence(reference, extracted, opts);
  return eq.verdict === "undecided"
    ? verdict(null, "needs-manual-check", eq.how)
    : verdict(eq.verdict === "equivalent", "scored", eq.how);
}
