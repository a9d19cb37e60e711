/**
 * Test helper: GSM8K logs written at test time from the data set (read here directly, not
 * through the code under test), their responses in several answer conventions, and what each
 * scorer must say of each convention — worked out by hand from the rules (lm-eval's for
 * `gsm8k-strict`/`gsm8k-flexible`; tests/reference/gsm8k_lm_eval.py checks those by Python).
 *
 * @module
 */
import { join } from "node:path";

/** One test problem: its question, reference solution and the number after `####`. */
export interface Problem {
  question: string;
  answer: string;
  target: string;
}

/** The 1,319 test problems, in file order. */
export function gsm8kProblems(dataDir: string): Problem[] {
  const path = join(dataDir, "gsm8k/grade_school_math/data/test.jsonl");
  return Deno.readTextFileSync(path).trim().split("\n").map((line) => {
    const { question, answer } = JSON.parse(line);
    return { question, answer, target: answer.split("####").at(-1).trim() };
  });
}

/** What a scorer must give: right, or wrong with or without an answer found. */
export type Outcome = "right" | "wrong" | "none";

/** An answer convention: the response for a target, and each scorer's outcome on it. */
export interface Convention {
  name: string;
  response(target: string): string;
  outcome: { "gsm8k-number": Outcome; "gsm8k-strict": Outcome; "gsm8k-flexible": Outcome };
  /** What lm-eval's strict-match and flexible-extract filters output (`filtered_resps`). */
  filtered: { strict: (target: string) => string; flexible: (target: string) => string };
}

const invalid = () => "[invalid]";

const plus1 = (t: string) => String(Number(t.replaceAll(",", "")) + 1);

/** Six conventions, as models and scripts write them. */
export const CONVENTIONS: readonly Convention[] = [
  {
    name: "hash marker",
    response: (t) => `Let me work it out.\n#### ${t}`,
    outcome: { "gsm8k-number": "right", "gsm8k-strict": "right", "gsm8k-flexible": "right" },
    filtered: { strict: (t) => t, flexible: (t) => t },
  },
  {
    name: "the answer is",
    response: (t) => `Adding up, 2 + 2 = 4. So the answer is ${t}.`,
    outcome: { "gsm8k-number": "right", "gsm8k-strict": "none", "gsm8k-flexible": "right" },
    filtered: { strict: invalid, flexible: (t) => `${t}.` },
  },
  {
    // lm-eval keeps "$" out and the final ".", but "18.00" is not "18" as a string
    name: "dollars and cents",
    response: (t) => `In total she has $${t}.00`,
    outcome: { "gsm8k-number": "right", "gsm8k-strict": "none", "gsm8k-flexible": "wrong" },
    // a "$" before a minus sign is not part of the run
    filtered: { strict: invalid, flexible: (t) => `${t.startsWith("-") ? "" : "$"}${t}.00` },
  },
  {
    name: "no number",
    response: () => "I cannot work this out.",
    outcome: { "gsm8k-number": "none", "gsm8k-strict": "none", "gsm8k-flexible": "none" },
    filtered: { strict: invalid, flexible: invalid },
  },
  {
    name: "wrong marker",
    response: (t) => `#### ${plus1(t)}`,
    outcome: { "gsm8k-number": "wrong", "gsm8k-strict": "wrong", "gsm8k-flexible": "wrong" },
    filtered: { strict: plus1, flexible: plus1 },
  },
  {
    name: "last number",
    response: (t) => `First 3 + 4 = 7.\nThen we get ${t}`,
    outcome: { "gsm8k-number": "right", "gsm8k-strict": "none", "gsm8k-flexible": "right" },
    filtered: { strict: invalid, flexible: (t) => t },
  },
];

/** The convention of the i-th problem of a run (`shift` varies it between runs). */
export const conventionOf = (i: number, shift = 0) => CONVENTIONS[(i + shift) % CONVENTIONS.length];

/** How many of `n` problems a scorer finds right, and with no answer, under {@link conventionOf}. */
export function expected(
  n: number,
  scorer: keyof Convention["outcome"],
  shift = 0,
): { correct: number; no_answer: number } {
  const outcomes = [...Array(n).keys()].map((i) => conventionOf(i, shift).outcome[scorer]);
  return {
    correct: outcomes.filter((o) => o === "right").length,
    no_answer: outcomes.filter((o) => o === "none").length,
  };
}

/** The question as it was asked: alone, after a few-shot prompt, or in a chat template. */
export function asked(problems: readonly Problem[], i: number): string {
  const q = problems[i].question;
  if (i % 3 === 0) return q;
  if (i % 3 === 1) {
    const shot = problems[(i + 7) % problems.length];
    return `Question: ${shot.question}\nAnswer: ${shot.answer}\n\nQuestion: ${q}\nAnswer:`;
  }
  return `<|im_start|>user\n${q}<|im_end|>\n<|im_start|>assistant\n`;
}

/** A log from someone's own script: `question`, `completion`, `model`; no task, no index. */
export function ownScriptLog(problems: readonly Problem[], model: string, shift = 0): string {
  return problems.map((p, i) =>
    JSON.stringify({
      question: asked(problems, i),
      completion: conventionOf(i, shift).response(p.target),
      model,
    })
  ).join("\n") + "\n";
}

/**
 * An lm-eval ≥ 0.4.7 samples file of `task` (`gsm8k`: the target is the whole solution;
 * `gsm8k_cot`: the number), one line per problem and filter (strict-match, then
 * flexible-extract), each with the filter's output and verdict as the harness stores them.
 */
export function lmEvalSamples(problems: readonly Problem[], task: string): string {
  const lines = problems.flatMap((p, i) => {
    const c = conventionOf(i);
    const response = c.response(p.target);
    const filters = [["strict-match", "gsm8k-strict"], ["flexible-extract", "gsm8k-flexible"]];
    return filters.map(([filter, scorer]) => {
      const outcome = c.outcome[scorer as keyof Convention["outcome"]];
      return JSON.stringify({
        doc_id: i,
        doc: { question: p.question, answer: p.answer },
        target: task === "gsm8k" ? p.answer : p.target,
        arguments: { gen_args_0: { arg_0: `Question: ${p.question}\nAnswer:`, arg_1: {} } },
        resps: [[response]],
        filtered_resps: [c.filtered[scorer === "gsm8k-strict" ? "strict" : "flexible"](p.target)],
        filter,
        metrics: ["exact_match"],
        exact_match: outcome === "right" ? 1.0 : 0.0,
      });
    });
  });
  return lines.join("\n") + "\n";
}
