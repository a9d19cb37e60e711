/**
 * What the per-task planners of a SYNTHETIC run share: the plan's row types, the
 * {@link TaskPlanner} shape each task's planner fills in, the {@link Planting} state of one
 * task's plan, {@link plant}, which gives exactly k eligible wrong rows one planted kind, and
 * {@link genericWrong}, the wrong answer of a task without its own.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { plant, type Planting } from "@runlens/benchmarks/bbeh/synthetic/planners/plant.ts";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * // inside a planner: 30 of the remaining wrong rows answer "unknown"
 * const plantUnknown = (p: Planting) => plant(p, () => true, 30, "unknown", () => "unknown");
 * const rest = [...Array(50).keys()].map((example_index) => ({
 *   task: "object_properties",
 *   example_index,
 *   input: "",
 *   target: "3",
 *   subsets: {},
 * }));
 * const spec = { model: "m", correct: {} };
 * const p: Planting = { r: rng(1), spec, out: new Map(), rest, what: "m object_properties" };
 * plantUnknown(p);
 * assert.equal(p.out.size, 30);
 * assert.equal(p.rest.length, 20); // left for the default wrong answers
 * ```
 * @module
 */
import { genericWrongAnswer } from "../answers.ts";
import { pickExactly, type Rng } from "../rng.ts";
import type { SyntheticModelSpec } from "../spec.ts";

/** One example of the data set, with its subset labels (kind → label). */
export interface PlanExample {
  task: string;
  example_index: number;
  input: string;
  target: string;
  subsets: Record<string, string>;
}

/** One planned response. `answer` null = no final answer. */
export interface PlannedRow {
  task: string;
  example_index: number;
  correct: boolean;
  kind: string;
  answer: string | null;
}

/** A planned wrong answer and its kind. */
export interface Wrong {
  kind: string;
  answer: string;
}

/**
 * One task's plan while it is being made: the seeded generator, the spec, the rows planned so
 * far (by example index), the examples not yet planned (`rest`, wrong rows to be), and the
 * prefix of error messages (`<model> <task>`).
 */
export interface Planting {
  r: Rng;
  spec: SyntheticModelSpec;
  out: Map<number, PlannedRow>;
  rest: PlanExample[];
  what: string;
}

/**
 * How one task is planned beyond the common steps (correct rows, answer-less rows, default
 * wrong answers). Every hook is optional; a task without a planner gets the generic plan.
 */
export interface TaskPlanner {
  /**
   * Choose exactly `total` correct examples of `achievable` when the spec gives the task no
   * strata (default: any `total` of them).
   */
  chooseCorrect?: (
    r: Rng,
    achievable: readonly PlanExample[],
    total: number,
    spec: SyntheticModelSpec,
  ) => PlanExample[];
  /** Plant the task's failure modes on wrong rows (before the answer-less rows). */
  plant?: (p: Planting) => void;
  /** The default wrong answer of a wrong row left over after planting (`pool`: all targets). */
  wrong?: (r: Rng, e: PlanExample, pool: readonly string[]) => Wrong;
}

/**
 * Give exactly `k` rows of `p.rest` that pass `eligible` (chosen with `p.r`) the kind `kind`
 * and the answer `answer(e)`, moving them from `p.rest` to `p.out`; throws (prefixed `what`)
 * when fewer than `k` rows are eligible.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * const ex = { task: "object_counting", example_index: 0, input: "", target: "3", subsets: {} };
 * const p: Planting = {
 *   r: rng(1),
 *   spec: { model: "m", correct: {} },
 *   out: new Map(),
 *   rest: [ex],
 *   what: "m object_counting",
 * };
 * plant(p, (e) => Number(e.target) >= 1, 1, "under", () => "2");
 * assert.equal(p.out.get(0)?.kind, "under");
 * assert.equal(p.rest.length, 0);
 * assert.throws(() => plant(p, () => true, 1, "over", () => "4"), /1 rows asked, only 0 eligible/);
 * ```
 */
export function plant(
  p: Planting,
  eligible: (e: PlanExample) => boolean,
  k: number,
  kind: string,
  answer: (e: PlanExample) => string | null,
  what: string = p.what,
): void {
  const pool = p.rest.filter(eligible);
  if (pool.length < k) {
    throw new Error(`${what}: ${k} rows asked, only ${pool.length} eligible wrong rows`);
  }
  for (const e of pickExactly(p.r, pool, k)) {
    p.out.set(e.example_index, {
      task: e.task,
      example_index: e.example_index,
      correct: false,
      kind,
      answer: answer(e),
    });
    p.rest.splice(p.rest.indexOf(e), 1);
  }
}

/**
 * The generic wrong answer (kind `wrong`): another option letter, a nearby number, a flipped
 * item or another example's target (`pool`: the task's distinct targets).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * const ex = { task: "t", example_index: 0, input: "(A) x\n(B) y", target: "(A)", subsets: {} };
 * assert.deepEqual(genericWrong(rng(1), ex, ["(A)", "(B)"]), { kind: "wrong", answer: "(B)" });
 * ```
 */
export function genericWrong(r: Rng, e: PlanExample, pool: readonly string[]): Wrong {
  return { kind: "wrong", answer: genericWrongAnswer(r, e.input, e.target, pool) };
}
