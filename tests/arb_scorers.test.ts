/** Table-driven tests of the ARB scorers: answer extraction, numbers, letters, symbolic checks. */
import assert from "node:assert/strict";
import { extractAnswer } from "@runlens/benchmarks/arb/answer.ts";
import { choiceLetter, referenceLetter } from "@runlens/benchmarks/arb/mcq.ts";
import { numbersMatch, parseNumber } from "@runlens/benchmarks/arb/numerical.ts";
import { scoreArbResponse } from "@runlens/benchmarks/arb/score.ts";
import { symbolicEquivalence } from "@runlens/benchmarks/arb/symbolic.ts";
import { dropLeftSide } from "@runlens/benchmarks/arb/cas.ts";

Deno.test("extractAnswer: text after the last ANSWER:, markup removed", () => {
  const cases: [string, string | null][] = [
    ["reasoning\nANSWER: B", "B"],
    ["ANSWER: 1\nmore\nANSWER: 2.4.", "2.4"],
    ["ANSWER: <math>x * y</math>", "x * y"],
    ["$$\\text{ANSWER: } C = \\frac{1}{2}.$$", "C = \\frac{1}{2}"],
    ["**ANSWER:** C", "C"],
    ["ANSWER:\n\n 42 m", "42 m"],
    ["no delimiter: B", null],
    ["answer: B", null],
    ["ANSWER:   ", null],
  ];
  for (const [text, want] of cases) assert.equal(extractAnswer(text), want, text);
});

Deno.test("numbersMatch: relative error 1e-2 is the edge, inclusive", () => {
  const cases: [number, number, boolean][] = [
    [101, 100, true],
    [99, 100, true],
    [101.0001, 100, false],
    [98.9999, 100, false],
    [1.01, 1, true],
    [0.99, 1, true],
    [1.0101, 1, false],
    [-1.01, -1, true],
    [1.01, -1, false],
    [0, 0, true],
    [1e-9, 0, false],
    [1.6e-19 * 1.01, 1.6e-19, true],
    [1.6e-19 * 1.0102, 1.6e-19, false],
  ];
  for (const [a, r, want] of cases) assert.equal(numbersMatch(a, r), want, `${a} vs ${r}`);
});

Deno.test("parseNumber: units and formatting removed, notations read", () => {
  const cases: [string, number | null][] = [
    ["2.4", 2.4],
    ["2.4 m/s^2", 2.4],
    ["9.8 m s^{-2}", 9.8],
    ["12 eV", 12],
    ["E = 12 eV", 12],
    ["45^\\circ", 45],
    ["50\\%", 50],
    ["1,234.5 J", 1234.5],
    ["1{,}200\\,\\text{J}", 1200],
    ["$1.6 \\times 10^{-19}\\,\\mathrm{C}$", 1.6e-19],
    ["3.0 x 10^8 m/s", 3e8],
    ["3 × 10^8", 3e8],
    ["6.02 \\cdot 10^{23}", 6.02e23],
    ["1.2e-3", 0.0012],
    ["1.7E+5 Pa", 1.7e5],
    ["10^{-3}", 0.001],
    ["\\frac{3}{4}", 0.75],
    ["-\\frac{1}{2}", -0.5],
    ["3/4 kg", 0.75],
    ["\\frac{\\pi}{4}", Math.PI / 4],
    ["2\\sqrt{3}", 2 * Math.sqrt(3)],
    ["about five", null],
    ["\\frac{1}{", null],
    ["", null],
  ];
  for (const [text, want] of cases) {
    const got = parseNumber(text);
    if (want === null) assert.equal(got, null, text);
    else {assert.ok(
        got !== null && Math.abs(got - want) <= 1e-12 * Math.abs(want),
        `${text}: ${got}`,
      );}
  }
});

Deno.test("choiceLetter and referenceLetter", () => {
  const cases: [string, string | null][] = [
    ["B", "B"],
    ["b", "B"],
    ["(C) The contract is void.", "C"],
    ["D.", "D"],
    ["**C**", "C"],
    ["The answer is option B", "B"],
    ["Between (A) and (B)", null],
    ["A reasonable person would agree", null],
    ["none", null],
  ];
  for (const [text, want] of cases) assert.equal(choiceLetter(text), want, text);
  assert.equal(referenceLetter("c"), "C");
  assert.equal(referenceLetter("(B)"), "B");
  assert.equal(referenceLetter("Paris", ["Rome", "Paris"]), "B");
  assert.equal(referenceLetter("Oslo", ["Rome", "Paris"]), null);
});

Deno.test("symbolicEquivalence: equivalent, non-equivalent and malformed pairs", () => {
  const capacitance = "\\frac{2\\pi\\epsilon L}{\\ln\\left(\\frac{b}{a}\\right)}";
  const cases: [string, string, string][] = [
    // Table 12 of the paper: gpt-3.5-turbo's answer is equivalent, gpt-4's adds epsilon_0.
    [capacitance, "\\frac{2\\pi\\epsilon L}{\\ln(b) - \\ln(a)}", "equivalent"],
    [
      capacitance,
      "C = \\frac{2\\pi\\epsilon_0\\epsilon L}{\\ln\\left(\\frac{b}{a}\\right)}",
      "not-equivalent",
    ],
    [capacitance, "2*pi*epsilon*L/ln(b/a)", "equivalent"],
    ["a^2 - b^2", "(a+b)(a-b)", "equivalent"],
    ["\\sin^2 x + \\cos^2 x", "1", "equivalent"],
    ["x^2", "x*x", "equivalent"],
    ["\\frac{x}{1+x^2}", "x/(1+x**2)", "equivalent"],
    ["e^{-x}", "\\exp(-x)", "equivalent"],
    ["\\frac{m v^2}{r}", "mv^2/r", "equivalent"],
    ["x^2", "x^3", "not-equivalent"],
    ["a^2 - b^2", "a^2 + b^2", "not-equivalent"],
    ["e^{-x}\\sin x", "e^{-x}\\cos x", "not-equivalent"],
    ["\\sqrt{\\frac{2gh}{1+k}}", "\\sqrt{2gh}", "not-equivalent"],
    ["x^2", "\\frac{x}{", "undecided"],
    ["x^2", "\\sqrt{x", "undecided"],
    ["x^2", "x +", "undecided"],
    ["\\frac{1}{", "x", "undecided"],
    ["f(x)", "g(x)", "undecided"],
  ];
  for (const [ref, ans, want] of cases) {
    assert.equal(symbolicEquivalence(ref, ans).verdict, want, `${ref} vs ${ans}`);
  }
});

Deno.test("dropLeftSide: a named value loses its name, an equation stays whole", () => {
  const cases: [string, string][] = [
    ["C = 2", "2"],
    ["E_{0} = 3", "3"],
    ["v^2 = 4", "4"],
    ["x^{2} = 4", "4"],
    ["x_1^2 = 9", "9"],
    ["f(x) = x+1", "x+1"],
    ["C = \\frac{Q}{V} = 2", "2"],
    // the left side is an expression, not one symbol: the equation is the answer
    ["x^2 + y^2 = 1", "x^2 + y^2 = 1"],
    ["a^2 - b^2 = c", "a^2 - b^2 = c"],
    ["x + y = 1", "x + y = 1"],
  ];
  for (const [text, want] of cases) assert.equal(dropLeftSide(text), want, text);
  // the circle is not the number 1 (it was, when its left side was dropped)
  assert.notEqual(symbolicEquivalence("1", "x^2 + y^2 = 1").verdict, "equivalent");
});

Deno.test("scoreArbResponse: scorer names, statuses and verdicts", () => {
  const cases: [Parameters<typeof scoreArbResponse>, Record<string, unknown>][] = [
    [["multiple-choice", "B", "ANSWER: B"], { scorer: "arb-mcq", correct: true, status: "scored" }],
    [["multiple-choice", "B", "ANSWER: C"], { correct: false, status: "scored" }],
    [["multiple-choice", "B", "It is B"], { correct: false, status: "unparseable" }],
    [["multiple-choice", "B", "ANSWER: unsure"], { correct: false, status: "invalid-answer" }],
    [["numerical", "100", "ANSWER: 101 m"], { scorer: "arb-numerical", correct: true }],
    [["numerical", "100", "ANSWER: 102"], { correct: false, status: "scored" }],
    [["numerical", "100", "ANSWER: lots"], { correct: false, status: "invalid-answer" }],
    [["numerical", "100", "100"], { correct: false, status: "unparseable" }],
    [["symbolic", "x^2", "ANSWER: x*x"], { scorer: "arb-symbolic", correct: true }],
    [["symbolic", "x^2", "ANSWER: \\frac{x}{"], { correct: null, status: "needs-manual-check" }],
    [["symbolic", "x^2", "x^2"], { correct: false, status: "unparseable" }],
    [["proof-like", "", "ANSWER: QED"], {
      scorer: "arb-proof",
      correct: null,
      status: "not-auto-scored",
      extracted: "QED",
    }],
  ];
  for (const [args, want] of cases) {
    const got = scoreArbResponse(...args) as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(want)) assert.equal(got[k], v, `${args.join(" | ")}: ${k}`);
  }
  assert.throws(() => scoreArbResponse("numerical", "n/a", "ANSWER: 1"), /not a number/);
  assert.throws(() => scoreArbResponse("multiple-choice", "maybe", "ANSWER: A"), /not a letter/);
});
