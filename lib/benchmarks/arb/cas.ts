/**
 * The computer-algebra layer of the ARB scorers, on the Cortex Compute Engine (which parses
 * LaTeX directly): plain-text math is first turned into LaTeX (`sqrt(2)` → `\sqrt(2)`, `pi` →
 * `\pi`, `**` → `^`), then parsed, evaluated numerically and simplified.
 *
 * One engine is shared by the process (building one takes ~0.1 s).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { evaluateConstant, parseMath } from "@runlens/benchmarks/arb/cas.ts";
 * assert.equal(evaluateConstant("\\frac{3}{4} \\times 10^{2}"), 75);
 * assert.equal(evaluateConstant("sqrt(16)"), 4); // plain text is turned into LaTeX first
 * assert.equal(parseMath("\\frac{1}{"), null); // malformed LaTeX
 * ```
 * @module
 */
import { type BoxedExpression, ComputeEngine } from "@cortex-js/compute-engine";

let engine: ComputeEngine | null = null;

/** The shared engine (created on first use). */
export function computeEngine(): ComputeEngine {
  engine ??= new ComputeEngine();
  return engine;
}

const FUNCTIONS = [
  "arcsin",
  "arccos",
  "arctan",
  "sinh",
  "cosh",
  "tanh",
  "sqrt",
  "sin",
  "cos",
  "tan",
  "sec",
  "csc",
  "cot",
  "exp",
  "log",
  "ln",
];
const GREEK = [
  "alpha",
  "beta",
  "gamma",
  "delta",
  "varepsilon",
  "epsilon",
  "zeta",
  "eta",
  "theta",
  "vartheta",
  "iota",
  "kappa",
  "lambda",
  "mu",
  "nu",
  "xi",
  "pi",
  "rho",
  "sigma",
  "tau",
  "upsilon",
  "varphi",
  "phi",
  "chi",
  "psi",
  "omega",
  "Gamma",
  "Delta",
  "Theta",
  "Lambda",
  "Xi",
  "Pi",
  "Sigma",
  "Phi",
  "Psi",
  "Omega",
  "hbar",
  "infty",
];
const WORDS = new RegExp(
  `(?<![\\\\A-Za-z])(${[...FUNCTIONS, ...GREEK].join("|")})(?![A-Za-z])`,
  "g",
);
const UNICODE: [RegExp, string][] = [
  [/×/g, "\\times "],
  [/[·⋅]/g, "\\cdot "],
  [/[−–]/g, "-"],
  [/π/g, "\\pi "],
  [/√/g, "\\sqrt"],
  [/∞/g, "\\infty "],
  [/ε/g, "\\epsilon "],
  [/ħ/g, "\\hbar "],
];

/**
 * Turn plain-text math into LaTeX the engine reads; LaTeX passes through unchanged.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(toLatex("2*pi*epsilon*L/ln(b/a)"), "2*\\pi*\\epsilon*L/\\ln(b/a)");
 * assert.equal(toLatex("x**2"), "x^2");
 * assert.equal(toLatex("\\sqrt{2}"), "\\sqrt{2}"); // LaTeX passes through
 * ```
 */
export function toLatex(text: string): string {
  let s = text.replace(/\*\*/g, "^");
  for (const [re, to] of UNICODE) s = s.replace(re, to);
  return s.replace(WORDS, "\\$1");
}

/**
 * Drop a `name =` left-hand side (a single symbol, possibly subscripted, raised to one power or
 * applied, like `C`, `E_0`, `v^2`, `f(x)`), keeping the last right-hand side; other equations
 * stay whole (`x^2 + y^2 = 1` is an equation, not a named value).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(dropLeftSide("C = \\frac{Q}{V} = 2"), "2");
 * assert.equal(dropLeftSide("E_0 \\approx 3.2"), "3.2");
 * assert.equal(dropLeftSide("x + y = 1"), "x + y = 1");
 * assert.equal(dropLeftSide("x^2 + y^2 = 1"), "x^2 + y^2 = 1");
 * ```
 */
export function dropLeftSide(text: string): string {
  const parts = text.split(/=|\\approx|≈/);
  if (parts.length < 2) return text;
  const lhs = parts[0].trim();
  // a power is one token or one braced group: `x^2 + y^2` is not a symbol
  const symbol = /^\\?[A-Za-z]+(_\{?[A-Za-z0-9]+\}?)?(\^(\{[^{}]+\}|[A-Za-z0-9]+))?(\([^()]*\))?$/;
  return symbol.test(lhs) ? parts[parts.length - 1].trim() : text;
}

/**
 * Parse math text (LaTeX or plain) into a boxed expression; null when the engine reports a
 * syntax error or the text is empty.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseMath("\\sqrt{x^2+1}")?.json, ["Sqrt", ["Add", ["Power", "x", 2], 1]]);
 * assert.equal(parseMath("  "), null);
 * ```
 */
export function parseMath(text: string): BoxedExpression | null {
  const latex = toLatex(text).trim();
  if (latex === "") return null;
  try {
    const expr = computeEngine().parse(latex);
    return expr.isValid ? expr : null;
  } catch {
    return null;
  }
}

/** A finite complex value (im = 0 for reals). */
export interface NumericValue {
  re: number;
  im: number;
}

/**
 * Evaluate `expr` numerically with the given symbol values; null when the result is not a
 * finite number (undefined symbols left, a set, infinity, an error).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(evaluateAt(parseMath("x^2")!, { x: 3 }), { re: 9, im: 0 });
 * assert.equal(evaluateAt(parseMath("x^2")!, {}), null); // x is left undefined
 * ```
 */
export function evaluateAt(
  expr: BoxedExpression,
  values: Record<string, number>,
): NumericValue | null {
  try {
    const n = (Object.keys(values).length > 0 ? expr.subs(values) : expr).N();
    const re = n.re, im = n.im;
    return Number.isFinite(re) && Number.isFinite(im) ? { re, im } : null;
  } catch {
    return null;
  }
}

/**
 * The real value of a closed-form expression without free symbols (`\frac{\pi}{4}`,
 * `3\times 10^{8}`); null when it has symbols, does not parse or is not a finite real.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(evaluateConstant("-\\frac{\\pi}{4}"), -Math.PI / 4);
 * assert.equal(evaluateConstant("2x"), null); // a free symbol
 * ```
 */
export function evaluateConstant(text: string): number | null {
  const expr = parseMath(text);
  if (expr === null || expr.unknowns.length > 0) return null;
  const v = evaluateAt(expr, {});
  if (v === null || Math.abs(v.im) > 1e-12 * Math.max(1, Math.abs(v.re))) return null;
  return v.re;
}
