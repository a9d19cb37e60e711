/**
 * Hyperbaton planner of a SYNTHETIC run (Appendix A.8): `hyperbaton.englishPicks` wrong rows add
 * the most English-ordered non-gold option to the gold letters (`english_pick`); other wrong rows
 * add a random non-gold option (`other_pick`), or drop a gold letter when there is none.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { hyperbatonPlanner } from "@runlens/benchmarks/bbeh/synthetic/planners/hyperbaton.ts";
 * import { planTask } from "@runlens/benchmarks/bbeh/synthetic/plan.ts";
 * import { rng } from "@runlens/benchmarks/bbeh/synthetic/rng.ts";
 * // planTask uses it for hyperbaton; gold A, distractor B follows English order, C does not
 * const input = [
 *   "(A) small red ball",
 *   "(B) old red ball",
 *   "(C) red small old ball",
 *   "(K) None of the above",
 * ].join("\n");
 * const ex = { task: "hyperbaton", example_index: 0, input, target: "A", subsets: {} };
 * const spec = { model: "m", correct: {}, hyperbaton: { englishPicks: 1 } };
 * const [row] = planTask([ex], spec, 1);
 * assert.deepEqual([row.kind, row.answer], ["english_pick", "AB"]);
 * const wrong = hyperbatonPlanner.wrong!(rng(1), ex, []); // a random distractor added
 * assert.equal(wrong.kind, "other_pick");
 * ```
 * @module
 */
import { englishShare, hyperbatonOptions } from "../../failure/hyperbaton.ts";
import { optionLetters } from "../answers.ts";
import { intIn, type Rng } from "../rng.ts";
import { type PlanExample, plant, type Planting, type TaskPlanner, type Wrong } from "./plant.ts";

/**
 * Gold letters plus one distractor — the most English-ordered non-gold option (`english_pick`)
 * or a random one (`other_pick`); null when there is no non-gold option with adjective pairs.
 */
function hyperbatonWrong(r: Rng, e: PlanExample, english: boolean): Wrong | null {
  const options = hyperbatonOptions(e.input);
  const gold = new Set(e.target.toUpperCase().split(""));
  const cands = Object.entries(options).filter(([l, pairs]) => !gold.has(l) && pairs.length > 0)
    .sort(([la, a], [lb, b]) => englishShare(b) - englishShare(a) || (la < lb ? -1 : 1));
  if (cands.length === 0) return null;
  const [letter] = english ? cands[0] : cands[intIn(r, 0, cands.length - 1)];
  const answer = [...gold, letter].filter((l) => l !== "K").sort().join("");
  return { kind: english ? "english_pick" : "other_pick", answer };
}

/** A wrong hyperbaton answer without picking a distractor (drops a gold letter, or "K"). */
function wrongLetters(e: PlanExample): string {
  const gold = e.target.toUpperCase();
  if (gold.length > 1) return gold.slice(1);
  const letters = optionLetters(e.input);
  return letters.includes("K") && gold !== "K" ? "K" : (letters.find((l) => l !== gold) ?? "A");
}

/** The planted English-order picks. */
function plantEnglishPicks(p: Planting): void {
  if (!p.spec.hyperbaton) return;
  plant(
    p,
    (e) => hyperbatonWrong(p.r, e, true) !== null,
    p.spec.hyperbaton.englishPicks,
    "english_pick",
    (e) => hyperbatonWrong(p.r, e, true)!.answer,
  );
}

/** A random distractor added, else a gold letter dropped. */
function wrong(r: Rng, e: PlanExample): Wrong {
  return hyperbatonWrong(r, e, false) ?? { kind: "wrong", answer: wrongLetters(e) };
}

/** The hyperbaton planner. */
export const hyperbatonPlanner: TaskPlanner = { plant: plantEnglishPicks, wrong };
