/**
 * Causal Understanding planner of a SYNTHETIC run: no planted kind beyond the per-stratum correct
 * counts (`strata` by "causal"); a wrong row answers the other of Yes / No.
 *
 * @example
 * ```ts
 * import { causalPlanner } from "@runlens/benchmarks/bbeh/synthetic/planners/causal.ts";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * import assert from "node:assert/strict";
 * const task = "causal_understanding";
 * const ex = { task, example_index: 0, input: "", target: "Yes", subsets: {} };
 * assert.deepEqual(causalPlanner.wrong!(rng(1), ex, []), { kind: "wrong", answer: "No" });
 * const ambiguous = { ...ex, target: "Ambiguous" };
 * assert.deepEqual(causalPlanner.wrong!(rng(1), ambiguous, []), { kind: "wrong", answer: "Yes" });
 * ```
 * @module
 */
import type { Rng } from "../rng.ts";
import type { PlanExample, TaskPlanner, Wrong } from "./plant.ts";

/** The other of Yes / No. */
function wrong(_r: Rng, e: PlanExample): Wrong {
  return { kind: "wrong", answer: e.target === "Yes" ? "No" : "Yes" };
}

/** The causal_understanding planner. */
export const causalPlanner: TaskPlanner = { wrong };
