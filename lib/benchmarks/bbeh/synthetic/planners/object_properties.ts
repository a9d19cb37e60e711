/**
 * Object Properties planner of a SYNTHETIC run (Appendix A.13): `objectProperties.undetermined`
 * wrong rows answer "unknown"; the other wrong rows get generic wrong answers.
 *
 * @example
 * ```ts
 * import { objectPropertiesPlanner } from "@runlens/benchmarks/bbeh/synthetic/planners/object_properties.ts";
 * // planTask uses it for object_properties when the spec has `objectProperties: { undetermined }`
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
