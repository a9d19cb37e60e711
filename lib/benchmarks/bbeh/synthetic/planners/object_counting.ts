/**
 * Object Counting planner of a SYNTHETIC run (Table 8): `objectCounting.over` wrong rows answer
 * a count above the gold, `objectCounting.under` a count below it (gold ≥ 1); the other wrong
 * rows answer "unknown".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import {
 *   objectCountingPlanner,
 * } from "@runlens/benchmarks/bbeh/synthetic/planners/object_counting.ts";
 * import { planTask } from "@runlens/benchmarks/bbeh/synthetic/plan.ts";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * // planTask uses it for object_counting when the spec has `objectCounting: { over, under }`
 * const examples = ["12", "30", "7"].map((target, example_index) => ({
 *   task: "object_counting",
 *   example_index,
 *   input: "",
 *   target,
 *   subsets: {},
 * }));
 * const spec = { model: "m", correct: {}, objectCounting: { over: 1, under: 1 } };
 * const plan = planTask(examples, spec, 1);
 * const over = plan.find((p) => p.kind === "over")!;
 * assert.ok(Number(over.answer) > Number(examples[over.example_index].target));
 * // the rest is not a count at all
 * assert.deepEqual(objectCountingPlanner.wrong!(rng(1), examples[0], []), {
 *   kind: "wrong",
 *   answer: "unknown",
 * });
 * ```
 * @module
 */
import { countingAnswer } from "../answers.ts";
import { plant, type Planting, type TaskPlanner, type Wrong } from "./plant.ts";

/** The planted over- and under-counts. */
function plantCounts(p: Planting): void {
  if (!p.spec.objectCounting) return;
  const { over, under } = p.spec.objectCounting;
  plant(p, () => true, over, "over", (e) => countingAnswer(p.r, e.target, "over"));
  plant(
    p,
    (e) => Number(e.target) >= 1,
    under,
    "under",
    (e) => countingAnswer(p.r, e.target, "under"),
  );
}

/** Not a count at all. */
function wrong(): Wrong {
  return { kind: "wrong", answer: "unknown" };
}

/** The object_counting planner. */
export const objectCountingPlanner: TaskPlanner = { plant: plantCounts, wrong };
