/**
 * Object Properties planner of a SYNTHETIC run (Appendix A.13): `objectProperties.undetermined`
 * wrong rows answer "unknown"; the other wrong rows get generic wrong answers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import {
 *   objectPropertiesPlanner,
 * } from "@runlens/benchmarks/bbeh/synthetic/planners/object_properties.ts";
 * import { plannerFor } from "@runlens/benchmarks/bbeh/synthetic/planners/mod.ts";
 * import { planTask } from "@runlens/benchmarks/bbeh/synthetic/plan.ts";
 * // planTask uses it for object_properties when the spec has `objectProperties: { undetermined }`
 * assert.equal(plannerFor("object_properties"), objectPropertiesPlanner);
 * const examples = ["3", "5", "8"].map((target, example_index) => ({
 *   task: "object_properties",
 *   example_index,
 *   input: "",
 *   target,
 *   subsets: {},
 * }));
 * const objectProperties = { undetermined: 2 };
 * const spec = { model: "m", correct: { object_properties: 1 }, objectProperties };
 * const answers = planTask(examples, spec, 1).filter((p) => !p.correct).map((p) => p.answer);
 * assert.deepEqual(answers, ["unknown", "unknown"]);
 * ```
 * @module
 */
import { plant, type Planting, type TaskPlanner } from "./plant.ts";

/** The planted "unknown" (undetermined) answers. */
function plantUndetermined(p: Planting): void {
  if (!p.spec.objectProperties) return;
  plant(p, () => true, p.spec.objectProperties.undetermined, "undetermined", () => "unknown");
}

/** The object_properties planner. */
export const objectPropertiesPlanner: TaskPlanner = { plant: plantUndetermined };
