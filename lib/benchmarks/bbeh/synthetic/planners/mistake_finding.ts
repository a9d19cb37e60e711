/**
 * First-mistake items of a SYNTHETIC run (Dyck Languages, and Word Sorting's mistake-finding
 * variant; Appendix A.6): `mistakeFinding[task].early` wrong rows flag a step before the first
 * mistake, `.late` a step after it; other wrong rows say "No" (`said_no_mistake`) when the trace
 * has a mistake and flag a random step (`false_alarm`) when it has none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import {
 *   dyckLanguagesPlanner,
 * } from "@runlens/benchmarks/bbeh/synthetic/planners/mistake_finding.ts";
 * import { plannerFor } from "@runlens/benchmarks/bbeh/synthetic/planners/mod.ts";
 * import { planTask } from "@runlens/benchmarks/bbeh/synthetic/plan.ts";
 * // planTask uses it for dyck_languages when the spec has `mistakeFinding.dyck_languages`
 * assert.equal(plannerFor("dyck_languages"), dyckLanguagesPlanner);
 * const input = "Thought 1: a\nThought 2: b\nThought 3: c\nThought 4: d";
 * const examples = ["2", "3", "No"].map((target, example_index) => ({
 *   task: "dyck_languages",
 *   example_index,
 *   input,
 *   target,
 *   subsets: {},
 * }));
 * const mistakeFinding = { dyck_languages: { early: 1, late: 1 } };
 * const spec = { model: "m", correct: {}, mistakeFinding };
 * const kinds = planTask(examples, spec, 1).map((p) => p.kind).sort();
 * assert.deepEqual(kinds, ["early", "false_alarm", "late"]); // the clean trace gets a false alarm
 * ```
 * @module
 */
import { parseThoughts } from "../../bbm_link.ts";
import { intIn, type Rng } from "../rng.ts";
import {
  genericWrong,
  type PlanExample,
  plant,
  type Planting,
  type TaskPlanner,
  type Wrong,
} from "./plant.ts";

/** The first mistake's step (null: no mistake) and step count of a first-mistake item. */
export interface MistakeInfo {
  m1: number | null;
  steps: number;
}

/**
 * The first mistake and step count of a first-mistake item, or null for other examples.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const input = "Thought 1: a\nThought 2: b\nThought 3: c";
 * const ex = { task: "dyck_languages", example_index: 0, input, target: "2", subsets: {} };
 * assert.deepEqual(mistakeInfo(ex), { m1: 2, steps: 3 });
 * assert.equal(mistakeInfo({ ...ex, task: "nycc" }), null);
 * ```
 */
export function mistakeInfo(ex: PlanExample): MistakeInfo | null {
  const isItem = ex.task === "dyck_languages" ||
    (ex.task === "word_sorting" && ex.subsets["variant"] === "mistake_finding");
  if (!isItem) return null;
  return {
    m1: ex.target === "No" ? null : Number(ex.target),
    steps: parseThoughts(ex.input).length,
  };
}

/**
 * The planted early and late flags of `task` (no-op when the spec plants none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * const input = "Thought 1: a\nThought 2: b\nThought 3: c";
 * const ex = { task: "dyck_languages", example_index: 0, input, target: "2", subsets: {} };
 * const p = {
 *   r: rng(1),
 *   spec: { model: "m", correct: {}, mistakeFinding: { dyck_languages: { early: 1, late: 0 } } },
 *   out: new Map(),
 *   rest: [ex],
 *   what: "m dyck_languages",
 * };
 * plantMistakes(p, "dyck_languages");
 * // the only step before the first mistake (Thought 2) is Thought 1
 * assert.deepEqual(p.out.get(0), {
 *   task: "dyck_languages",
 *   example_index: 0,
 *   correct: false,
 *   kind: "early",
 *   answer: "1",
 * });
 * ```
 */
export function plantMistakes(p: Planting, task: "dyck_languages" | "word_sorting"): void {
  const mistakes = p.spec.mistakeFinding?.[task];
  if (!mistakes) return;
  const info = (e: PlanExample) => mistakeInfo(e);
  plant(
    p,
    (e) => (info(e)?.m1 ?? 0) >= 2,
    mistakes.early,
    "early",
    (e) => String(intIn(p.r, 1, info(e)!.m1! - 1)),
    `${p.what} early`,
  );
  plant(
    p,
    (e) => {
      const i = info(e);
      return i !== null && i.m1 !== null && i.m1 < i.steps;
    },
    mistakes.late,
    "late",
    (e) => String(intIn(p.r, info(e)!.m1! + 1, info(e)!.steps)),
  );
}

/**
 * The default wrong answer of a first-mistake item: a random step of a clean trace, "No" for a
 * trace with a mistake.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * const clean = mistakeWrong(rng(1), { m1: null, steps: 5 }); // a random step of five
 * assert.deepEqual(clean, { kind: "false_alarm", answer: "4" });
 * const withMistake = mistakeWrong(rng(1), { m1: 2, steps: 5 });
 * assert.deepEqual(withMistake, { kind: "said_no_mistake", answer: "No" });
 * ```
 */
export function mistakeWrong(r: Rng, m: MistakeInfo): Wrong {
  if (m.m1 === null) return { kind: "false_alarm", answer: String(intIn(r, 1, m.steps)) };
  return { kind: "said_no_mistake", answer: "No" };
}

/** The dyck_languages planner (every item is a first-mistake item). */
export const dyckLanguagesPlanner: TaskPlanner = {
  plant: (p) => plantMistakes(p, "dyck_languages"),
  wrong: (r, e, pool) => {
    const m = mistakeInfo(e);
    return m ? mistakeWrong(r, m) : genericWrong(r, e, pool);
  },
};
