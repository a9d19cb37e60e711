/**
 * Wrong final answers for SYNTHETIC responses: a plausible answer of the task's form that the
 * official scorer rejects (another option letter, a nearby number, a flipped yes/no, another
 * example's target), plus the task-specific planted kinds (over/under counts, the English
 * sort, a step flagged too early or too late, …).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { genericWrongAnswer, isWrong } from "@runlens/benchmarks/bbeh/synthetic/answers.ts";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * const answer = genericWrongAnswer(rng(1), "(A) x\n(B) y", "(A)", ["(A)", "(B)"]);
 * assert.equal(answer, "(B)");
 * assert.ok(isWrong(answer, "(A)")); // the official scorer rejects it
 * ```
 * @module
 */
import { bbehOfficial } from "../scorer.ts";
import { intIn, type Rng, shuffled } from "./rng.ts";

/** Option letters offered in a question ("(A) …" lines). */
export function optionLetters(input: string): string[] {
  return [...new Set([...input.matchAll(/^\(([A-Z])\)/gm)].map((m) => m[1]))];
}

const FLIP: Record<string, string> = {
  yes: "no",
  no: "yes",
  unknown: "yes",
  "0": "1",
  "1": "0",
  a: "b",
  b: "c",
  c: "a",
};

/**
 * The answer with the `i`-th comma-separated item replaced (yes↔no, unknown→yes, 0↔1, A→B…).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(flipItem("yes, no, unknown", 2), "yes, no, yes");
 * assert.equal(flipItem("A, C", 0), "B, C"); // option letters: A→B, B→C, C→A
 * ```
 */
export function flipItem(answer: string, i: number): string {
  const items = answer.split(/\s*,\s*/);
  const key = items[i]?.toLowerCase();
  if (key === undefined || !(key in FLIP)) return answer;
  const flipped = FLIP[key];
  items[i] = items[i] === items[i].toUpperCase() && /[a-z]/i.test(items[i])
    ? flipped.toUpperCase()
    : flipped;
  return items.join(", ");
}

/** Whether stating `answer` the official way is scored wrong for `target`. */
export function isWrong(answer: string, target: string): boolean {
  return !bbehOfficial(`The answer is: ${answer}`, target).correct;
}

/**
 * A wrong answer of the task's form: another option letter for "(X)" targets, a nearby number
 * for numbers, one flipped item for lists of yes/no/unknown, 0/1 or letters, else another
 * target of the same task (`pool`), else "none of the above".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * assert.equal(genericWrongAnswer(rng(2), "…", "131", []), "125"); // a nearby number
 * ```
 */
export function genericWrongAnswer(
  r: Rng,
  input: string,
  target: string,
  pool: readonly string[],
): string {
  const candidates: string[] = [];
  const mc = /^\(([A-Z])\)$/.exec(target);
  if (mc) {
    const letters = optionLetters(input).filter((l) => l !== mc[1]);
    candidates.push(...shuffled(r, letters).map((l) => `(${l})`));
  } else if (/^-?\d+(?:\.\d+)?$/.test(target)) {
    const value = Number(target);
    const step = Math.max(1, Math.round(Math.abs(value) * 0.05));
    const d = intIn(r, 1, step) * (r() < 0.5 ? -1 : 1);
    const decimals = target.includes(".") ? target.split(".")[1].length : 0;
    candidates.push((value + d).toFixed(decimals), (value - d).toFixed(decimals));
  } else if (target.includes(",")) {
    const n = target.split(",").length;
    const i = intIn(r, 0, n - 1);
    candidates.push(flipItem(target, i), flipItem(target, (i + 1) % n));
    const items = target.split(/\s*,\s*/);
    if (items.length > 1) candidates.push([...items.slice(1), items[0]].join(", "));
  }
  candidates.push(...shuffled(r, pool).slice(0, 20), "none of the above");
  const hit = candidates.find((c) => c.length > 0 && isWrong(c, target));
  if (hit === undefined) throw new Error(`no wrong answer found for target ${target}`);
  return hit;
}

/**
 * Object counting: a count `d` ≥ 1 above (`over`) or below the gold count (never negative).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * assert.equal(countingAnswer(rng(1), "131", "over"), "144"); // 131 + 1…20 (15%)
 * assert.throws(() => countingAnswer(rng(1), "0", "under"), /cannot under-count/);
 * ```
 */
export function countingAnswer(r: Rng, target: string, dir: "over" | "under"): string {
  const value = Number(target);
  const max = Math.max(1, Math.round(value * 0.15));
  if (dir === "over") return String(value + intIn(r, 1, max));
  if (value < 1) throw new Error(`cannot under-count a gold count of ${value}`);
  return String(value - intIn(r, 1, Math.min(max, value)));
}

/**
 * The gold sorted list with two adjacent different words swapped (a near miss), avoiding
 * `avoid` (e.g. the English sort).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(nearMissSort("a, b, c", null), "b, a, c");
 * assert.equal(nearMissSort("a, b, c", "b, a, c"), "a, c, b"); // avoids the given sort
 * ```
 */
export function nearMissSort(target: string, avoid: string | null): string {
  const words = target.split(", ");
  for (let i = 0; i + 1 < words.length; i++) {
    if (words[i] === words[i + 1]) continue;
    const w = [...words];
    [w[i], w[i + 1]] = [w[i + 1], w[i]];
    const s = w.join(", ");
    if (s !== avoid && isWrong(s, target)) return s;
  }
  return words.slice(1).join(", ");
}
