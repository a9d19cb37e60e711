/**
 * The ARB symbolic scorer (`arb-symbolic`): is the answer the same expression as the reference?
 * Both are parsed with the CAS; they are equivalent when they are structurally the same after
 * simplification, or when they agree numerically at seeded random points (every free symbol
 * drawn from [0.5, 3)). When a side does not parse, or too few points give finite values for
 * both, the verdict is "undecided" and the row needs a manual check, as in the paper.
 *
 * @example
 * ```ts
 * import { symbolicEquivalence } from "@runlens/benchmarks/arb/symbolic.ts";
 * import assert from "node:assert/strict";
 * const eq = symbolicEquivalence(
 *   "\\frac{2\\pi\\epsilon L}{\\ln(b/a)}",
 *   "2*pi*epsilon*L/(ln(b)-ln(a))",
 * );
 * assert.deepEqual(eq, { verdict: "equivalent", how: "numeric (8 points)" });
 * ```
 * @module
 */
import type { BoxedExpression } from "@cortex-js/compute-engine";
import { cleanAnswer } from "./answer.ts";
import { dropLeftSide, evaluateAt, type NumericValue, parseMath } from "./cas.ts";
import { mulberry32 } from "../../core/rng.ts";

/** Options of {@link symbolicEquivalence}. */
export interface EquivalenceOptions {
  /** PRNG seed of the evaluation points (default 20230731: same points on every run). */
  seed?: number;
  /** Points at which both sides must agree (default 8). */
  points?: number;
  /** Relative tolerance of the numeric comparison (default 1e-6). */
  tolerance?: number;
}

/** The outcome of a check: equivalent, not equivalent, or undecided (needs a manual check). */
export interface Equivalence {
  verdict: "equivalent" | "not-equivalent" | "undecided";
  /** How the verdict was reached, e.g. "structural", "numeric (8 points)", "answer does not parse". */
  how: string;
}

export { mulberry32 };

const RELATIONS = new Set(["Equal", "NotEqual", "Less", "LessEqual", "Greater", "GreaterEqual"]);

/** Parse an answer for the equivalence check (markup and a `C =` left side removed). */
function prepare(text: string): BoxedExpression | null {
  return parseMath(dropLeftSide(cleanAnswer(text)));
}

function close(a: NumericValue, b: NumericValue, tol: number): boolean {
  const scale = Math.max(Math.hypot(a.re, a.im), Math.hypot(b.re, b.im));
  return Math.hypot(a.re - b.re, a.im - b.im) <= tol * scale + 1e-12;
}

function structurallySame(a: BoxedExpression, b: BoxedExpression): boolean {
  try {
    return a.isSame(b) || a.simplify().isSame(b.simplify());
  } catch {
    return false;
  }
}

/**
 * Check whether `answer` is equivalent to `reference` (LaTeX or plain-text math).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(symbolicEquivalence("(a+b)(a-b)", "a^2 - b^2").verdict, "equivalent");
 * assert.equal(symbolicEquivalence("x^2", "x^3").verdict, "not-equivalent");
 * assert.deepEqual(symbolicEquivalence("\\frac{1}{2}", "\\frac{1}{"), {
 *   verdict: "undecided",
 *   how: "answer does not parse",
 * });
 * ```
 */
export function symbolicEquivalence(
  reference: string,
  answer: string,
  opts: EquivalenceOptions = {},
): Equivalence {
  const ref = prepare(reference);
  if (ref === null) return { verdict: "undecided", how: "reference does not parse" };
  const ans = prepare(answer);
  if (ans === null) return { verdict: "undecided", how: "answer does not parse" };
  if (structurallySame(ref, ans)) return { verdict: "equivalent", how: "structural" };
  if (RELATIONS.has(ref.operator) || RELATIONS.has(ans.operator)) {
    return { verdict: "undecided", how: "equations are only compared structurally" };
  }
  const points = opts.points ?? 8;
  const tol = opts.tolerance ?? 1e-6;
  const rand = mulberry32(opts.seed ?? 20230731);
  const symbols = [...new Set([...ref.unknowns, ...ans.unknowns])].sort();
  let agreed = 0;
  for (let attempt = 0; attempt < points * 4 && agreed < points; attempt++) {
    const values = Object.fromEntries(symbols.map((s) => [s, 0.5 + 2.5 * rand()]));
    const r = evaluateAt(ref, values);
    const a = evaluateAt(ans, values);
    if (r === null || a === null) continue;
    if (!close(r, a, tol)) {
      return { verdict: "not-equivalent", how: `numeric (differ at point ${attempt + 1})` };
    }
    agreed++;
    if (symbols.length === 0) break;
  }
  if (agreed === 0 || (symbols.length > 0 && agreed < Math.min(3, points))) {
    return { verdict: "undecided", how: "too few points where both sides evaluate" };
  }
  return { verdict: "equivalent", how: `numeric (${agreed} point${agreed === 1 ? "" : "s"})` };
}
