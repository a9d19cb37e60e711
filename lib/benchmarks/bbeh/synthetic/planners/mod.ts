/**
 * The per-task planners of a SYNTHETIC run, keyed by task name — one module per task family,
 * like the failure analyses of `../../failure/` whose failure modes they plant. A task without an
 * entry gets the generic plan: correct rows, answer-less rows, generic wrong answers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plannerFor } from "@runlens/benchmarks/bbeh/synthetic/planners/mod.ts";
 * assert.equal(typeof plannerFor("object_counting").plant, "function"); // over- and under-counts
 * assert.deepEqual(plannerFor("nycc"), {}); // the generic plan
 * ```
 * @module
 */
import { boardgamePlanner } from "./boardgame.ts";
import { causalPlanner } from "./causal.ts";
import { hyperbatonPlanner } from "./hyperbaton.ts";
import { dyckLanguagesPlanner } from "./mistake_finding.ts";
import { objectCountingPlanner } from "./object_counting.ts";
import { objectPropertiesPlanner } from "./object_properties.ts";
import type { TaskPlanner } from "./plant.ts";
import { temporalPlanner } from "./temporal.ts";
import { webOfLiesPlanner } from "./web_of_lies.ts";
import { wordSortingPlanner } from "./word_sorting.ts";

/** Task name → its planner (tasks with special planting or special wrong answers). */
export const PLANNERS: Readonly<Record<string, TaskPlanner>> = {
  boardgame_qa: boardgamePlanner,
  causal_understanding: causalPlanner,
  dyck_languages: dyckLanguagesPlanner,
  hyperbaton: hyperbatonPlanner,
  object_counting: objectCountingPlanner,
  object_properties: objectPropertiesPlanner,
  temporal_sequence: temporalPlanner,
  web_of_lies: webOfLiesPlanner,
  word_sorting: wordSortingPlanner,
};

/**
 * The planner of `task`: its entry of {@link PLANNERS}, or `{}` (the generic plan).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(plannerFor("hyperbaton"), PLANNERS.hyperbaton);
 * assert.deepEqual(plannerFor("toString"), {}); // only the table's own keys
 * ```
 */
export function plannerFor(task: string): TaskPlanner {
  return Object.hasOwn(PLANNERS, task) ? PLANNERS[task] : {};
}
