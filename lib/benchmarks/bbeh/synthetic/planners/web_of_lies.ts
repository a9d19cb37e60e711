/**
 * Web of Lies planner of a SYNTHETIC run (Appendix A.21): `webOfLies.flipLast` wrong cyclic items
 * flip the answer about the last person of the chain (`flip_last`); other wrong cyclic items flip
 * an earlier one (`flip_earlier`), other variants flip the first item.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { webOfLiesPlanner } from "@runlens/benchmarks/bbeh/synthetic/planners/web_of_lies.ts";
 * import { planTask } from "@runlens/benchmarks/bbeh/synthetic/plan.ts";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * // planTask uses it for web_of_lies; Cy (asked first) is at the end of the chain
 * const input = "Ann lies. Bo says Ann lies. Cy says Bo lies. Do Cy, Bo, and Ann tell the truth?";
 * const subsets = { variant: "cyclic" };
 * const ex = { task: "web_of_lies", example_index: 0, input, target: "no, yes, no", subsets };
 * const [row] = planTask([ex], { model: "m", correct: {}, webOfLies: { flipLast: 1 } }, 1);
 * assert.deepEqual([row.kind, row.answer], ["flip_last", "yes, yes, no"]);
 * assert.deepEqual(webOfLiesPlanner.wrong!(rng(1), ex, []), {
 *   kind: "flip_earlier",
 *   answer: "no, no, no",
 * });
 * ```
 * @module
 */
import { chainDepths, lastPosition } from "../../failure/web_of_lies.ts";
import { flipItem } from "../answers.ts";
import type { Rng } from "../rng.ts";
import { type PlanExample, plant, type Planting, type TaskPlanner, type Wrong } from "./plant.ts";

/** The planted flips of the last person. */
function plantFlipLast(p: Planting): void {
  if (!p.spec.webOfLies) return;
  plant(
    p,
    (e) => e.subsets["variant"] === "cyclic" && lastPosition(chainDepths(e.input)) !== null,
    p.spec.webOfLies.flipLast,
    "flip_last",
    (e) => flipItem(e.target, lastPosition(chainDepths(e.input))!),
  );
}

/** A cyclic item flips another than the last person; other items flip the first answer. */
function wrong(_r: Rng, e: PlanExample): Wrong {
  if (e.subsets["variant"] !== "cyclic") {
    return { kind: "wrong", answer: flipItem(e.target, 0) };
  }
  const last = lastPosition(chainDepths(e.input));
  return {
    kind: "flip_earlier",
    answer: flipItem(e.target, last === null ? 0 : (last + 1) % 3),
  };
}

/** The web_of_lies planner. */
export const webOfLiesPlanner: TaskPlanner = { plant: plantFlipLast, wrong };
