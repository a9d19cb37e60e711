/**
 * Temporal Sequences planner of a SYNTHETIC run (Appendix A.19): answers are "X, Y" (longest
 * free length, number of such slots); `temporal.longestOnly` wrong rows get X right and Y wrong
 * (`longest_only`), the other wrong rows get X wrong (`longest_wrong`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { temporalPlanner } from "@runlens/benchmarks/bbeh/synthetic/planners/temporal.ts";
 * import { planTask } from "@runlens/benchmarks/bbeh/synthetic/plan.ts";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * // planTask uses it for temporal_sequence; the gold answer is "X, Y"
 * const task = "temporal_sequence";
 * const ex = { task, example_index: 0, input: "", target: "150, 2", subsets: {} };
 * const [row] = planTask([ex], { model: "m", correct: {}, temporal: { longestOnly: 1 } }, 1);
 * assert.deepEqual([row.kind, row.answer], ["longest_only", "150, 3"]); // X right, Y wrong
 * assert.deepEqual(temporalPlanner.wrong!(rng(1), ex, []), {
 *   kind: "longest_wrong",
 *   answer: "180, 2",
 * });
 * ```
 * @module
 */
import type { Rng } from "../rng.ts";
import { type PlanExample, plant, type Planting, type TaskPlanner, type Wrong } from "./plant.ts";

/** The gold "X, Y" as two numbers. */
function goldPair(e: PlanExample): number[] {
  return e.target.split(/\s*,\s*/).map(Number);
}

/** The planted right-longest, wrong-count answers. */
function plantLongestOnly(p: Planting): void {
  if (!p.spec.temporal) return;
  plant(p, () => true, p.spec.temporal.longestOnly, "longest_only", (e) => {
    const [x, y] = goldPair(e);
    return `${x}, ${y + 1}`;
  });
}

/** A wrong longest length. */
function wrong(_r: Rng, e: PlanExample): Wrong {
  const [x, y] = goldPair(e);
  return { kind: "longest_wrong", answer: `${x + 30}, ${y}` };
}

/** The temporal_sequence planner. */
export const temporalPlanner: TaskPlanner = { plant: plantLongestOnly, wrong };
