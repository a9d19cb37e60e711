/**
 * Word Sorting planner of a SYNTHETIC run: first-mistake items as in `mistake_finding.ts`, then
 * `wordSorting.englishSort` wrong new-alphabet items answer the standard English sort (Appendix
 * A.22); other wrong rows swap two adjacent words of the gold list (`near_miss`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { wordSortingPlanner } from "@runlens/benchmarks/bbeh/synthetic/planners/word_sorting.ts";
 * import { planTask } from "@runlens/benchmarks/bbeh/synthetic/plan.ts";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * // planTask uses it for word_sorting; a new-alphabet item (gold: sorted in the new alphabet)
 * const input = "Sort by the new alphabet … and separate them with comma: pear, apple, fig";
 * const subsets = { variant: "new_alphabet_sorting" };
 * const target = "pear, fig, apple";
 * const ex = { task: "word_sorting", example_index: 0, input, target, subsets };
 * const [row] = planTask([ex], { model: "m", correct: {}, wordSorting: { englishSort: 1 } }, 1);
 * assert.deepEqual([row.kind, row.answer], ["english_sort", "apple, fig, pear"]);
 * assert.deepEqual(wordSortingPlanner.wrong!(rng(1), ex, []), {
 *   kind: "near_miss",
 *   answer: "fig, pear, apple",
 * });
 * ```
 * @module
 */
import { englishSorted } from "../../failure/word_sorting.ts";
import { isWrong, nearMissSort } from "../answers.ts";
import type { Rng } from "../rng.ts";
import { mistakeInfo, mistakeWrong, plantMistakes } from "./mistake_finding.ts";
import { type PlanExample, plant, type Planting, type TaskPlanner, type Wrong } from "./plant.ts";

/** Planted first-mistake flags, then planted English sorts of new-alphabet items. */
function plantWordSorting(p: Planting): void {
  plantMistakes(p, "word_sorting");
  if (!p.spec.wordSorting) return;
  plant(
    p,
    (e) => {
      const english = englishSorted(e.input);
      return e.subsets["variant"] === "new_alphabet_sorting" && english !== null &&
        isWrong(english, e.target);
    },
    p.spec.wordSorting.englishSort,
    "english_sort",
    (e) => englishSorted(e.input),
  );
}

/** A first-mistake item's default wrong answer, else a near-miss sort (never the English one). */
function wrong(r: Rng, e: PlanExample): Wrong {
  const m = mistakeInfo(e);
  if (m) return mistakeWrong(r, m);
  return { kind: "near_miss", answer: nearMissSort(e.target, englishSorted(e.input)) };
}

/** The word_sorting planner. */
export const wordSortingPlanner: TaskPlanner = { plant: plantWordSorting, wrong };
