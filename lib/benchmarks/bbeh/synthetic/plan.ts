/**
 * The plan of a SYNTHETIC run: for every example of every task, whether the response is correct
 * and which planted kind of answer it carries. Counts are exact: the planner picks exactly k of
 * the eligible examples (seeded), and throws when a spec cannot be met (e.g. more "unknown"
 * predictions than rows can carry).
 *
 * Kinds: `correct`, `no_answer`, `degenerate`, `wrong` (generic), and the planted failure
 * modes `unknown` (BoardgameQA), `over` / `under` (Object Counting), `undetermined` (Object
 * Properties), `early` / `late` / `said_no_mistake` / `false_alarm` (first-mistake items),
 * `english_sort` / `near_miss` (Word Sorting new alphabet), `english_pick` / `other_pick`
 * (Hyperbaton), `flip_last` / `flip_earlier` (Web of Lies), `longest_only` / `longest_wrong`
 * (Temporal Sequences).
 *
 * `planTask` runs the steps every task shares (correct rows, answer-less rows, default wrong
 * answers) and dispatches the rest to the task's planner in `planners/` (one module per task
 * family, keyed by task name in `planners/mod.ts`, like the analyses of `failure/`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * import { planExamples } from "@runlens/benchmarks/bbeh/synthetic/generate.ts";
 * import { planTask } from "@runlens/benchmarks/bbeh/synthetic/plan.ts";
 * const examples = planExamples(loadBbehDataset(resolveDataDir())).get("object_counting")!;
 * const spec = {
 *   model: "m",
 *   correct: { object_counting: 60 },
 *   noAnswer: { object_counting: 10 },
 *   objectCounting: { over: 50, under: 40 },
 * };
 * const plan = planTask(examples, spec, 7); // PlannedRow[] in example order
 * const count = (kind: string) => plan.filter((p) => p.kind === kind).length;
 * assert.deepEqual(
 *   ["correct", "over", "under", "no_answer", "wrong"].map(count),
 *   [60, 50, 40, 10, 40], // the 40 left over get the planner's wrong answer, "unknown"
 * );
 * ```
 * @module
 */
import { bbehOfficial } from "../scorer.ts";
import { plannerFor } from "./planners/mod.ts";
import {
  genericWrong,
  type PlanExample,
  type PlannedRow,
  plant,
  type Planting,
  type TaskPlanner,
} from "./planners/plant.ts";
import { pickExactly, type Rng, rng, shuffled, subSeed } from "./rng.ts";
import type { StratumKey, SyntheticModelSpec } from "./spec.ts";

export type { PlanExample, PlannedRow };

/** The final answer that states `target` so the official scorer accepts it, or null. */
export function correctAnswer(target: string): string | null {
  for (const a of [target, `${target}..`]) {
    if (bbehOfficial(`The answer is: ${a}`, target).correct) return a;
  }
  return null;
}

function stratumOf(ex: PlanExample, by: StratumKey): string {
  if (by === "target") return ex.target;
  if (by === "causal") {
    const v = ex.subsets["variant"];
    return v === "causal_judgement" ? `${v}/${ex.target}` : v;
  }
  const kind = by.slice("subset:".length);
  const label = ex.subsets[kind];
  if (label === undefined) throw new Error(`${ex.task}[${ex.example_index}] has no ${kind} label`);
  return label;
}

/** Choose exactly the correct examples the spec asks for. */
function chooseCorrect(
  r: Rng,
  examples: readonly PlanExample[],
  spec: SyntheticModelSpec,
  task: string,
  planner: TaskPlanner,
): Set<number> {
  const achievable = examples.filter((e) => correctAnswer(e.target) !== null);
  const total = spec.correct[task] ?? 0;
  const strata = spec.strata?.[task];
  const chosen: PlanExample[] = [];
  if (strata) {
    const sum = Object.values(strata.correct).reduce((a, b) => a + b, 0);
    if (sum !== total) {
      throw new Error(`${task}: strata correct counts sum to ${sum}, correct is ${total}`);
    }
    const labels = new Set(examples.map((e) => stratumOf(e, strata.by)));
    for (const label of labels) {
      if (!(label in strata.correct)) throw new Error(`${task}: stratum "${label}" not planned`);
    }
    for (const [label, k] of Object.entries(strata.correct)) {
      const pool = achievable.filter((e) => stratumOf(e, strata.by) === label);
      chosen.push(...pickExactly(r, pool, k));
    }
  } else if (planner.chooseCorrect) {
    chosen.push(...planner.chooseCorrect(r, achievable, total, spec));
  } else {
    chosen.push(...pickExactly(r, achievable, total));
  }
  return new Set(chosen.map((e) => e.example_index));
}

/** `degenerate[task]` degenerate rows, then the rest of `noAnswer[task]` answer-less rows. */
function plantAnswerless(p: Planting, task: string): void {
  const nNone = p.spec.noAnswer?.[task] ?? 0;
  const nDegenerate = p.spec.degenerate?.[task] ?? 0;
  if (nDegenerate > nNone) {
    throw new Error(`${p.what}: degenerate ${nDegenerate} > noAnswer ${nNone}`);
  }
  const all = () => true;
  plant(p, all, nDegenerate, "degenerate", () => null, `${p.what} degenerate`);
  plant(p, all, nNone - nDegenerate, "no_answer", () => null, `${p.what} no answer`);
}

/**
 * Plan every example of one task for one model spec: exactly `correct[task]` correct (per
 * stratum when given), the planted kinds of the task's planner, then `noAnswer[task]`
 * answer-less rows (of which `degenerate[task]` degenerate) from the rest, then default wrong
 * answers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * // examples of one task (from `planExamples(dataset)`; here hand-made)
 * const examples = ["(A)", "(B)", "(C)", "(D)"].map((target, example_index) => ({
 *   task: "nycc",
 *   example_index,
 *   input: "(A) …\n(B) …\n(C) …\n(D) …",
 *   target,
 *   subsets: {},
 * }));
 * const plan = planTask(examples, { model: "synthetic", correct: { nycc: 2 } }, 7);
 * assert.deepEqual(plan.map((p) => p.example_index), [0, 1, 2, 3]);
 * assert.equal(plan.filter((p) => p.correct).length, 2);
 * assert.ok(plan.every((p) => p.correct === (p.answer === examples[p.example_index].target)));
 * ```
 */
export function planTask(
  examples: readonly PlanExample[],
  spec: SyntheticModelSpec,
  seed: number,
): PlannedRow[] {
  if (examples.length === 0) return [];
  const task = examples[0].task;
  const planner = plannerFor(task);
  const r = rng(subSeed(seed, spec.run ?? spec.model, task));
  const correct = chooseCorrect(r, examples, spec, task, planner);
  const p: Planting = { r, spec, out: new Map(), rest: [], what: `${spec.model} ${task}` };
  for (const e of examples) {
    if (!correct.has(e.example_index)) p.rest.push(e);
    else {
      const answer = correctAnswer(e.target);
      p.out.set(e.example_index, {
        task,
        example_index: e.example_index,
        correct: true,
        kind: "correct",
        answer,
      });
    }
  }
  planner.plant?.(p);
  plantAnswerless(p, task);
  const pool = [...new Set(examples.map((e) => e.target))];
  const wrong = planner.wrong ?? genericWrong;
  for (const e of shuffled(r, p.rest)) {
    const w = wrong(r, e, pool);
    p.out.set(e.example_index, { task, example_index: e.example_index, correct: false, ...w });
  }
  return examples.map((e) => p.out.get(e.example_index)!);
}
