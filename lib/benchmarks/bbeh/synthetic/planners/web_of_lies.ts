/**
 * Web of Lies planner of a SYNTHETIC run (Appendix A.21): `webOfLies.flipLast` wrong cyclic items
 * flip the answer about the last person of the chain (`flip_last`); other wrong cyclic items flip
 * an earlier one (`flip_earlier`), other variants flip the first item.
 *
 * @example
 * ```ts
 * import { webOfLiesPlanner } from "@runlens/benchmarks/bbeh/synthetic/planners/web_of_lies.ts";
 * // planTask uses it for web_of_lies
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
