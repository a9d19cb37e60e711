/**
 * Model-style response text for SYNTHETIC runs: a few lines of step-by-step reasoning built from
 * the question, then the final answer in one of the styles real models use ("The answer is: X",
 * bold, a boxed LaTeX answer). Answer-less responses stop mid-reasoning; degenerate ones loop
 * over the same lines (as models do when they run out of output tokens).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { bbehOfficial } from "@runlens/benchmarks/bbeh/scorer.ts";
 * import { renderResponse } from "@runlens/benchmarks/bbeh/synthetic/respond.ts";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * const text = renderResponse(rng(1), { task: "nycc", input: "…", answer: "(B)", verbosity: 1 });
 * assert.ok(text.startsWith("Let's think step by step."));
 * assert.ok(text.endsWith("The answer is: (B)"));
 * assert.equal(bbehOfficial(text, "(B)").correct, true);
 * ```
 * @module
 */
import { bbehOfficial } from "../scorer.ts";
import { intIn, type Rng } from "./rng.ts";

/** What to render. `answer` null: no final answer (`degenerate`: loop until cut off). */
export interface ResponseRequest {
  task: string;
  input: string;
  answer: string | null;
  degenerate?: boolean;
  /** Length multiplier (1 ≈ 1,200 characters of reasoning). */
  verbosity: number;
  /** The gold target, to check the styled answer scores as the plain one would. */
  target?: string;
}

const OPENERS = [
  "Let's think step by step.",
  "I'll work through this carefully.",
  "Let me break the problem down.",
  "We need to reason about this step by step.",
];

const STEP_TEMPLATES = [
  'Step {i}: From the statement "{q}", we can note the relevant facts.',
  'Step {i}: Considering "{q}", this constrains the possibilities further.',
  'Step {i}: Now I check "{q}" against what we have so far.',
  'Step {i}: Applying the information "{q}" gives an intermediate result.',
];

function sentences(input: string): string[] {
  return input.split(/(?<=[.?!])\s+|\n+/).map((s) => s.trim()).filter((s) => s.length > 20);
}

/** A short quote of the question, with answer-like phrases defused so only the end answers. */
function quote(s: string): string {
  const safe = s.replace(/answer/gi, "result").replace(/\*\*/g, "");
  return safe.length > 90 ? `${safe.slice(0, 87)}…` : safe;
}

/** The reasoning lines of a response (about 1,200 × verbosity characters). */
function reasoning(r: Rng, input: string, verbosity: number): string[] {
  const src = sentences(input);
  const target = 1200 * verbosity * (0.6 + 0.8 * r());
  const lines = [OPENERS[intIn(r, 0, OPENERS.length - 1)]];
  let size = lines[0].length;
  for (let i = 1; size < target; i++) {
    const q = src.length > 0 ? quote(src[intIn(r, 0, src.length - 1)]) : "the question";
    const line = STEP_TEMPLATES[intIn(r, 0, STEP_TEMPLATES.length - 1)]
      .replace("{i}", String(i)).replace("{q}", q);
    lines.push(line);
    size += line.length + 1;
  }
  return lines;
}

/** Answer styles; each one is kept only if the official scorer reads it like the plain one. */
const STYLES: ((a: string) => string)[] = [
  (a) => `The answer is: ${a}`,
  (a) => `The answer is: ${a}`,
  (a) => `**The answer is: ${a}**`,
  (a) => `So, putting it together.\nThe answer is: ${a}`,
];

/**
 * The full response text for a request (deterministic for a given RNG state).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * const request = { task: "t", input: "Q?", answer: null, degenerate: true, verbosity: 1 };
 * const lines = renderResponse(rng(3), request).split("\n");
 * // the same three lines again and again, cut off mid-line, no final answer
 * assert.ok(lines.length > 60 && new Set(lines).size <= 5);
 * assert.ok(!lines.some((l) => l.includes("The answer is")));
 * ```
 */
export function renderResponse(r: Rng, req: ResponseRequest): string {
  const lines = reasoning(r, req.input, req.verbosity);
  if (req.answer === null) {
    // No digits and no "no"/"none": lenient step extractors must find nothing either.
    const defuse = (t: string) =>
      t.replace(/\d+/g, "").replace(/\b(?:no|none)\b/gi, "nothing").replace(/[ \t]+:/g, ":");
    if (req.degenerate) {
      const loop = [...new Set(lines.slice(1).map(defuse))].slice(0, 3);
      const repeats = Math.max(20, Math.round(30 * req.verbosity));
      const body = Array.from({ length: repeats }, () => loop).flat();
      return [defuse(lines[0]), ...body, loop[0].slice(0, 25)].join("\n");
    }
    const kept = lines.slice(0, 19).map(defuse);
    const last = kept[kept.length - 1];
    return [...kept.slice(0, -1), last.slice(0, Math.max(10, last.length >> 1))].join("\n");
  }
  const style = STYLES[intIn(r, 0, STYLES.length - 1)];
  let final = style(req.answer);
  if (req.target !== undefined) {
    const plain = bbehOfficial(`The answer is: ${req.answer}`, req.target).correct;
    if (bbehOfficial(final, req.target).correct !== plain) final = STYLES[0](req.answer);
  }
  return [...lines, final].join("\n");
}
