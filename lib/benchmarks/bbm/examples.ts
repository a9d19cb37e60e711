/**
 * BIG-Bench Mistake's traces as examples a log row is tied to (`readExamples`): the question
 * followed by the trace's steps as "Thought N: <step>" lines — as BBEH renders these same
 * traces — and, as the target, the 1-based step of the first mistake ("Thought N") or "No" for
 * a trace without one. Without polars: scoring Workers read them.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const examples = readBbmExamples("tests/fixtures/bbm"); // a toy release, same layout
 * const [trace] = examples.word_sorting.slice(1);
 * assert.equal(trace.target, "2"); // first mistake at step index 1: "Thought 2"
 * assert.equal(stepCount(trace.input), 3);
 * ```
 * @module
 */
import type { ExampleSet } from "../types.ts";
import { BBM_TASKS, type BbmTrace, readBbmRelease } from "./release.ts";

/**
 * A trace as the input of its example: the question, then one "Thought N: <step>" line per step.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const trace = { input: "2 + 3 =", steps: ["2 + 3 = 6.", "So 6."], mistake_index: 0 };
 * assert.equal(traceInput(trace), "2 + 3 =\nThought 1: 2 + 3 = 6.\nThought 2: So 6.");
 * ```
 */
export function traceInput(trace: Pick<BbmTrace, "input" | "steps">): string {
  return [trace.input, ...trace.steps.map((step, i) => `Thought ${i + 1}: ${step}`)].join("\n");
}

/**
 * The target of a trace: its first mistake's 1-based step, or "No" (no mistake).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual([mistakeTarget(0), mistakeTarget(6), mistakeTarget(null)], ["1", "7", "No"]);
 * ```
 */
export function mistakeTarget(mistakeIndex: number | null): string {
  return mistakeIndex === null ? "No" : String(mistakeIndex + 1);
}

/**
 * The steps of an example's input ({@link traceInput}): its "Thought 1:", "Thought 2:", …
 * lines, counted while they follow each other.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(stepCount("Q\nThought 1: a\nThought 2: b"), 2);
 * assert.equal(stepCount("no steps"), 0);
 * ```
 */
export function stepCount(input: string): number {
  let n = 0;
  for (const line of input.split("\n")) {
    if (line.startsWith(`Thought ${n + 1}:`)) n++;
  }
  return n;
}

/**
 * The released traces of a data directory as examples, by task (files whose name is no BBM
 * task are left out), each task's in line order: position = `trace_index`.
 */
export function readBbmExamples(dataDir: string): ExampleSet {
  const out: Record<string, { input: string; target: string }[]> = {};
  for (const trace of readBbmRelease(dataDir)) {
    if (!(BBM_TASKS as readonly string[]).includes(trace.task)) continue;
    (out[trace.task] ??= []).push({
      input: traceInput(trace),
      target: mistakeTarget(trace.mistake_index),
    });
  }
  return out;
}
