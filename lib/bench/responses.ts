/**
 * What both benchmark log generators share (`generate.ts` for canonical JSONL,
 * `generate_lm_eval.ts` for lm-eval samples folders): the options, the BBEH examples, and
 * seeded chain-of-thought responses of 1–8 KB ending in an answer line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const rnd = mulberry32(1);
 * const pool = fillerPool(rnd, 1 << 14);
 * const ex = { task: "nycc", index: 0, input: "Q", target: "(A)" };
 * const response = responseFor(ex, new Map([["nycc", ["(A)", "(B)"]]]), pool, 0, rnd);
 * assert.ok(response.endsWith("\n\nThe answer is: (A)")); // 1,844 chars in all
 * ```
 * @module
 */
import { join } from "node:path";
import { findBbehRelease } from "../benchmarks/bbeh/examples.ts";
import { BBEH_TASKS } from "../benchmarks/bbeh/tasks.ts";
import { mulberry32 } from "../core/rng.ts";

/** Options of {@link generateLog}. */
export interface GenerateOptions {
  /** Number of records; when null, records are written until `mb` megabytes are reached. */
  rows: number | null;
  /** Target size in MB (10^6 bytes), used when `rows` is null. */
  mb: number;
  /** PRNG seed. */
  seed: number;
  /** Share of wrong answers (0–1). */
  wrong: number;
  /** Data directory holding the BBEH release. */
  data: string;
  /** Output: a file (canonical) or a folder (lm-eval). */
  out: string;
  /** `lm-eval` (samples files, the default) or `canonical` (one JSONL file). */
  format: "lm-eval" | "canonical";
  /** Lengths of the responses' filler: uniform in [min, max) characters (default 1000–8000). */
  responseChars?: [number, number];
}

/** What {@link generateLog} wrote. */
export interface GenerateResult {
  file: string;
  rows: number;
  bytes: number;
  runs: number;
}

/** Models the runs are spread over. */
export const MODELS = ["gemini-2.0-flash", "gpt-4o", "llama-3.1-405b", "deepseek-r1", "o3-mini"];

export { mulberry32 };

const SENTENCES = [
  "Let me think about this step by step.",
  "First, I will restate the problem in my own words to make sure I understand it.",
  "We are given several constraints, and we need to check each of them carefully.",
  "Consider the first condition: it tells us that the value must be consistent with the rest.",
  "If we assume the opposite, we quickly reach a contradiction, so that case is ruled out.",
  "Now, counting the items again: 3 + 4 = 7, and 7 × 2 = 14, minus 5 gives 9.",
  "Wait, that is not quite right; let me re-check the previous step.",
  "The table lists the rows in a different order, so I will sort them by the first column.",
  "Looking at the options (A) through (E), only some of them survive the constraints.",
  'Hmm — the statement "the third person lies" implies the second one tells the truth.',
  "So far we have: position 1 → red, position 2 → blue, position 3 → unknown.",
  "Let's verify this with the remaining clues, one by one.",
  "Clue 4 says the owner of the cat lives next to the person who drinks tea.",
  "Therefore the previous assumption holds, and we can move on to the next part.",
  "Using the formula A = ½ · b · h, the area is 12 square units.",
  "Translating the sentence word by word: «kʷe» means 'and', «tel» means 'stone'.",
  "The time difference is 3 hours and 45 minutes, crossing midnight once.",
  "In summary, every branch of the case analysis leads to the same conclusion.",
  "Double-checking the arithmetic: 128 / 4 = 32, 32 - 17 = 15.",
  "One more consideration: the question asks for the final state, not the intermediate one.",
  "\tIndented note: the bracket sequence so far is ( [ { } ] ), which is balanced.",
  "Edge case: if the list is empty, the answer would be none, but here it is not empty.",
];

/** A pool of filler text (sentences and paragraph breaks) responses are sliced from. */
export function fillerPool(rnd: () => number, size: number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < size) {
    const s = SENTENCES[Math.floor(rnd() * SENTENCES.length)];
    const sep = rnd() < 0.15 ? "\n\n" : rnd() < 0.1 ? "\n" : " ";
    parts.push(s, sep);
    n += s.length + sep.length;
  }
  return parts.join("");
}

/** The final answer line in one of a few forms; mostly the prompt's `The answer is: X`. */
export function answerLine(answer: string, rnd: () => number): string {
  const r = rnd();
  if (r < 0.85) return `The answer is: ${answer}`;
  if (r < 0.9) return `The answer is: ${answer}.`;
  if (r < 0.94) return `**The answer is: ${answer}**`;
  if (r < 0.97) return `The final answer is $\\boxed{${answer}}$.`;
  return `So the answer is ${answer}`;
}

/**
 * A chain-of-thought response of 1–8 KB of filler ending in an answer line: the target, or at
 * rate `wrong` another example's target of the same task.
 */
export function responseFor(
  ex: Example,
  byTask: Map<string, string[]>,
  pool: string,
  wrong: number,
  rnd: () => number,
  [min, max]: [number, number] = [1000, 8000],
): string {
  let answer = ex.target;
  if (rnd() < wrong) {
    const others = byTask.get(ex.task)!;
    answer = others[Math.floor(rnd() * others.length)];
  }
  const len = min + Math.floor(rnd() * (max - min));
  const start = Math.floor(rnd() * (pool.length - len));
  return `${pool.slice(start, start + len).trim()}\n\n${answerLine(answer, rnd)}`;
}

/** One BBEH example. */
export interface Example {
  task: string;
  index: number;
  input: string;
  target: string;
}

/** Every BBEH example in data-set order, and each task's targets. */
export function readExamples(
  dataDir: string,
): { examples: Example[]; byTask: Map<string, string[]> } {
  const release = findBbehRelease(dataDir);
  const examples: Example[] = [];
  const byTask = new Map<string, string[]>();
  for (const info of BBEH_TASKS) {
    const path = join(release, "benchmark_tasks", `bbeh_${info.name}`, "task.json");
    const parsed = JSON.parse(Deno.readTextFileSync(path)) as {
      examples: { input: string; target: string }[];
    };
    byTask.set(info.name, parsed.examples.map((e) => e.target));
    parsed.examples.forEach(({ input, target }, index) =>
      examples.push({ task: info.name, index, input, target })
    );
  }
  return { examples, byTask };
}
