/**
 * Hold a scorer to a table of hand-written cases, called directly (`score`) and through
 * `scoreFrame` (which applies `score` to a frame, with its column plumbing and its null
 * handling): each must give the expected `extracted` and `correct` (and `found`, when a case
 * states it). Used by the scorer tests;
 * usable as a self-check.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { checkScorerCases } from "@runlens/scorers/conformance.ts";
 * import { getScorer } from "@runlens/benchmarks/registry.ts";
 * const failures = checkScorerCases(getScorer("last-line"), [
 *   { response: "x\nTrue", target: "true", extracted: "true", correct: true, why: "case" },
 * ]);
 * assert.deepEqual(failures, []);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { scoreFrame } from "./frame.ts";
import type { Scorer } from "./types.ts";

/** One hand-written case. */
export interface ScorerCase {
  /** The response (null: a missing response, checked through `scoreFrame` only). */
  response: string | null;
  target: string;
  task?: string;
  input?: string;
  stored?: boolean | null;
  /** Expected extracted answer. */
  extracted: string | null;
  /** Expected verdict. */
  correct: boolean | null;
  /** Expected `found` (whether an answer was found); unchecked when absent. */
  found?: boolean | null;
  /** Why this is the right answer (shown on failure). */
  why: string;
}

/**
 * Every disagreement with the table, as readable lines (empty: all cases pass both ways).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getScorer } from "@runlens/benchmarks/registry.ts";
 * const direct = getScorer("bbh-release-direct"); // the first line, stripped, equals the target
 * const cases = [
 *   { response: " (B) ", target: "(B)", extracted: "(B)", correct: true, why: "stripped" },
 *   { response: "(B)\n\nQ: next", target: "(B)", extracted: "(B)", correct: true, why: "line 1" },
 * ];
 * assert.deepEqual(checkScorerCases(direct, cases), []);
 * const wrong = { response: "Answer: (A)", target: "(A)", extracted: "(A)", correct: true };
 * const failures = checkScorerCases(direct, [{ ...wrong, why: "?" }]); // scalar, then frame
 * assert.equal(failures.length, 2);
 * assert.match(failures[0], /^scalar bbh-release-direct: .* gave \["Answer: \(A\)",false,false\]/);
 * ```
 */
export function checkScorerCases(s: Scorer, cases: readonly ScorerCase[]): string[] {
  const failures: string[] = [];
  const show = (c: ScorerCase) =>
    `${JSON.stringify(c.response)} / ${JSON.stringify(c.target)}` +
    (c.task ? ` [${c.task}]` : "") + ` (${c.why})`;
  cases.forEach((c) => {
    if (c.response === null) return;
    const v = s.score(c.response, c.target, { task: c.task, input: c.input, stored: c.stored });
    const foundDiffers = c.found !== undefined && v.found !== c.found;
    if (v.extracted !== c.extracted || v.correct !== c.correct || foundDiffers) {
      failures.push(
        `scalar ${s.name}: ${show(c)} gave ${JSON.stringify([v.extracted, v.correct, v.found])}, ` +
          `expected ${JSON.stringify([c.extracted, c.correct, c.found])}`,
      );
    }
  });
  const df = pl.DataFrame({
    response: pl.Series("response", cases.map((c) => c.response), pl.Utf8),
    target: pl.Series("target", cases.map((c) => c.target), pl.Utf8),
    task: pl.Series("task", cases.map((c) => c.task ?? null), pl.Utf8),
    input: pl.Series("input", cases.map((c) => c.input ?? null), pl.Utf8),
    stored_correct: pl.Series("stored_correct", cases.map((c) => c.stored ?? null), pl.Bool),
  });
  const scored = scoreFrame(df.lazy(), s);
  const extracted = scored.getColumn("extracted").toArray() as (string | null)[];
  const correct = scored.getColumn("correct").toArray() as (boolean | null)[];
  cases.forEach((c, i) => {
    if (extracted[i] !== c.extracted || correct[i] !== c.correct) {
      failures.push(
        `frame ${s.name}: ${show(c)} gave ${JSON.stringify([extracted[i], correct[i]])}, ` +
          `expected ${JSON.stringify([c.extracted, c.correct])}`,
      );
    }
  });
  return failures;
}
