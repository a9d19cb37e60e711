/**
 * BoardgameQA planner of a SYNTHETIC run (Table 5: "unknown" over-prediction): the correct rows
 * include as many gold-"unknown" items as the planted "unknown" predictions allow, then wrong
 * rows of other golds answer "unknown" until `boardgame.unknownPredictions` rows do; the other
 * wrong rows answer the opposite label.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { boardgamePlanner } from "@runlens/benchmarks/bbeh/synthetic/planners/boardgame.ts";
 * import { plannerFor } from "@runlens/benchmarks/bbeh/synthetic/planners/mod.ts";
 * import { planTask } from "@runlens/benchmarks/bbeh/synthetic/plan.ts";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * // planTask uses it for boardgame_qa when the spec has `boardgame: { unknownPredictions }`
 * assert.equal(plannerFor("boardgame_qa"), boardgamePlanner);
 * const golds = ["proved", "disproved", "unknown", "proved", "disproved", "unknown"];
 * const examples = golds.map((target, example_index) => ({
 *   task: "boardgame_qa",
 *   example_index,
 *   input: "",
 *   target,
 *   subsets: {},
 * }));
 * const spec = { model: "m", correct: { boardgame_qa: 2 }, boardgame: { unknownPredictions: 3 } };
 * const plan = planTask(examples, spec, 1);
 * assert.equal(plan.filter((p) => p.answer === "unknown").length, 3); // right or wrong
 * assert.equal(plan.filter((p) => p.correct).length, 2);
 * // a wrong row otherwise answers the opposite label
 * const ex = examples[0];
 * const wrong = boardgamePlanner.wrong!(rng(1), ex, []);
 * assert.deepEqual(wrong, { kind: "wrong", answer: "disproved" });
 * ```
 * @module
 */
import { pickExactly, type Rng } from "../rng.ts";
import type { SyntheticModelSpec } from "../spec.ts";
import { type PlanExample, plant, type Planting, type TaskPlanner, type Wrong } from "./plant.ts";

const OTHER: Record<string, string> = { proved: "disproved", disproved: "proved" };

/** Correct rows: gold-"unknown" items first (up to the planted predictions), then others. */
function chooseCorrect(
  r: Rng,
  achievable: readonly PlanExample[],
  total: number,
  spec: SyntheticModelSpec,
): PlanExample[] {
  if (!spec.boardgame) return pickExactly(r, achievable, total);
  const u = spec.boardgame.unknownPredictions;
  const golds = achievable.filter((e) => e.target === "unknown");
  const others = achievable.filter((e) => e.target !== "unknown");
  const xuu = Math.min(golds.length, u, total);
  return [...pickExactly(r, golds, xuu), ...pickExactly(r, others, total - xuu)];
}

/** Wrong rows of other golds answer "unknown" up to the planted count of predictions. */
function plantUnknown(p: Planting): void {
  if (!p.spec.boardgame) return;
  const already = [...p.out.values()].filter((row) => row.answer === "unknown").length;
  plant(
    p,
    (e) => e.target !== "unknown",
    p.spec.boardgame.unknownPredictions - already,
    "unknown",
    () => "unknown",
    `${p.what} unknown`,
  );
}

/** The opposite label (a random one for gold "unknown"). */
function wrong(r: Rng, e: PlanExample): Wrong {
  return { kind: "wrong", answer: OTHER[e.target] ?? (r() < 0.5 ? "proved" : "disproved") };
}

/** The boardgame_qa planner. */
export const boardgamePlanner: TaskPlanner = { chooseCorrect, plant: plantUnknown, wrong };
