/**
 * The ARB numerical scorer (`arb-numerical`): the answer's units and formatting are removed,
 * the number is read (decimals, scientific notation `1.2e-3` / `1.2 \times 10^{-3}`, fractions
 * `\frac{3}{4}` and `3/4`, closed forms like `2\sqrt{3}` through the CAS) and compared with the
 * reference at a relative error of at most 1e-2, as in the paper.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { numbersMatch, parseNumber } from "@runlens/benchmarks/arb/numerical.ts";
 * assert.equal(parseNumber("2.4 m/s^2"), 2.4);
 * const charge = parseNumber("$1.6 \\times 10^{-19}\\,\\mathrm{C}$"); // 1.6000000000000002e-19
 * assert.ok(numbersMatch(charge!, 1.6e-19));
 * assert.equal(numbersMatch(101, 100), true); // relative error exactly 1e-2
 * ```
 * @module
 */
import { cleanAnswer } from "./answer.ts";
import { dropLeftSide, evaluateConstant } from "./cas.ts";

/** The paper's relative error threshold. */
export const RELATIVE_TOLERANCE = 1e-2;

/**
 * Whether `answer` is within relative error `tol` of `reference`: |a − r| ≤ tol·|r| (a
 * reference of 0 needs an answer of exactly 0). A 1e-9 relative slack absorbs binary floating
 * point, so an error of exactly `tol` (1.01 vs 1) counts as correct.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(numbersMatch(1.01, 1), true);
 * assert.equal(numbersMatch(1.0101, 1), false);
 * assert.equal(numbersMatch(0.001, 0), false); // a reference of 0 needs exactly 0
 * ```
 */
export function numbersMatch(answer: number, reference: number, tol = RELATIVE_TOLERANCE): boolean {
  return Math.abs(answer - reference) <= tol * Math.abs(reference) * (1 + 1e-9);
}

const PLAIN = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
const SCI =
  /^([+-]?(?:\d+\.?\d*|\.\d+))\s*(?:\\times|\\cdot|x|\*)\s*10\s*\^\s*\{?\s*([+-]?\d+)\s*\}?$/;
/** A trailing unit: letters (not a LaTeX command) with powers, products and quotients. */
const UNIT_TAIL =
  /(?<=[\d}).\s])\s*(?<![\\A-Za-z])(?!x\s*10\s*\^|[eE][+-]?\d)[A-Za-zµμΩÅ][A-Za-zµμΩÅ\s/^{}\-\d·*.]*$/;

/**
 * Remove formatting that is not part of the number: LaTeX spacing, `\left`/`\right`,
 * `\text{…}`/`\mathrm{…}` (units), `%`, degrees, thousands separators, a `x =` left-hand side.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(stripFormatting("E = 1{,}200\\,\\text{J}"), "1200");
 * assert.equal(stripFormatting("45^{\\circ}"), "45");
 * ```
 */
export function stripFormatting(text: string): string {
  let s = cleanAnswer(text)
    .replace(/\\(?:text|mathrm|textrm|mbox|operatorname|rm)\s*\{[^{}]*\}/g, " ")
    .replace(/\\(?:left|right)\b/g, "")
    .replace(/\\[,;:! ]|\\quad|\\qquad|~/g, " ")
    .replace(/\^\s*\{?\\circ\}?|°|\\%|%/g, " ")
    .replace(/\{,\}/g, "")
    .replace(/[−–]/g, "-")
    .replace(/×/g, "\\times ");
  while (/(\d),(\d{3})(?!\d)/.test(s)) s = s.replace(/(\d),(\d{3})(?!\d)/, "$1$2");
  s = dropLeftSide(s.trim());
  return s.trim();
}

/** A number from plain decimal or scientific text, or null. */
function readPlain(s: string): number | null {
  if (PLAIN.test(s)) return Number(s);
  const m = SCI.exec(s);
  return m ? Number(m[1]) * 10 ** Number(m[2]) : null;
}

/**
 * Read the number of a numerical answer; null when there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(parseNumber("\\frac{3}{4}"), 0.75);
 * assert.equal(parseNumber("3.0 x 10^8 m/s"), 300000000);
 * assert.equal(parseNumber("about five"), null);
 * ```
 */
export function parseNumber(text: string): number | null {
  const s = stripFormatting(text);
  if (s === "") return null;
  const candidates = [s];
  const unitless = s.replace(UNIT_TAIL, "").trim();
  if (unitless !== s && /\d/.test(unitless)) candidates.push(unitless);
  for (const c of candidates) {
    const v = readPlain(c) ?? evaluateConstant(c);
    if (v !== null && Number.isFinite(v)) return v;
  }
  return null;
}
