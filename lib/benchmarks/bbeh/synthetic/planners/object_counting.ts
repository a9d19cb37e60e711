/**
 * Object Counting planner of a SYNTHETIC run (Table 8): `objectCounting.over` wrong rows answer
 * a count above the gold, `objectCounting.under` a count below it (gold ≥ 1); the other wrong
 * rows answer "unknown".
 *
 * @example
 * ```ts
 * import { objectCountingPlanner } from "@runlens/benchmarks/bbeh/synthetic/planners/object_counting.ts";
 * // planTask uses it for object_counting when the spec has `objectCounting: { over, under }`
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
