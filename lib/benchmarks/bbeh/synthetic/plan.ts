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
 * @example
 * ```ts
 * import { planTask } from "@runlens/benchmarks/bbeh/synthetic/plan.ts";
 * // planTask(examplesOfTask, spec, seed) → PlannedRow[] in example order
 * ```
 * @module
 */
import { bbehOfficial } from "../scorer.ts";
import { parseThoughts } from "../bbm_link.ts";
import { englishSorted } from "../failure/word_sorting.ts";
import { englishShare, hyperbatonOptions } from "../failure/hyperbaton.ts";
import { chainDepths, lastPosition } from "../failure/web_of_lies.ts";
import {
  countingAnswer,
  flipItem,
  genericWrongAnswer,
  isWrong,
  nearMissSort,
  optionLetters,
} from "./answers.ts";
import { intIn, pickExactly, type Rng, rng, shuffled, subSeed } from "./rng.ts";
import type { StratumKey, SyntheticModelSpec } from "./spec.ts";

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
  } else if (task === "boardgame_qa" && spec.boardgame) {
    const u = spec.boardgame.unknownPredictions;
    const golds = achievable.filter((e) => e.target === "unknown");
    const others = achievable.filter((e) => e.target !== "unknown");
    const xuu = Math.min(golds.length, u, total);
    chosen.push(...pickExactly(r, golds, xuu), ...pickExactly(r, others, total - xuu));
  } else {
    chosen.push(...pickExactly(r, achievable, total));
  }
  return new Set(chosen.map((e) => e.example_index));
}

function mistakeInfo(ex: PlanExample): { m1: number | null; steps: number } | null {
  const isItem = ex.task === "dyck_languages" ||
    (ex.task === "word_sorting" && ex.subsets["variant"] === "mistake_finding");
  if (!isItem) return null;
  return {
    m1: ex.target === "No" ? null : Number(ex.target),
    steps: parseThoughts(ex.input).length,
  };
}

/** Assign `k` rows from `pool` (removing them from `rest`) with kind and answer. */
function plant(
  r: Rng,
  rest: PlanExample[],
  eligible: (e: PlanExample) => boolean,
  k: number,
  kind: string,
  answer: (e: PlanExample) => string | null,
  out: Map<number, PlannedRow>,
  what: string,
): void {
  const pool = rest.filter(eligible);
  if (pool.length < k) {
    throw new Error(`${what}: ${k} rows asked, only ${pool.length} eligible wrong rows`);
  }
  for (const e of pickExactly(r, pool, k)) {
    out.set(e.example_index, {
      task: e.task,
      example_index: e.example_index,
      correct: false,
      kind,
      answer: answer(e),
    });
    rest.splice(rest.indexOf(e), 1);
  }
}

const BOARDGAME_OTHER: Record<string, string> = { proved: "disproved", disproved: "proved" };

/** Task-specific default wrong answer and its kind. */
function defaultWrong(
  r: Rng,
  e: PlanExample,
  pool: readonly string[],
  spec: SyntheticModelSpec,
): { kind: string; answer: string } {
  const m = mistakeInfo(e);
  if (m) {
    if (m.m1 === null) return { kind: "false_alarm", answer: String(intIn(r, 1, m.steps)) };
    return { kind: "said_no_mistake", answer: "No" };
  }
  switch (e.task) {
    case "boardgame_qa":
      return {
        kind: "wrong",
        answer: BOARDGAME_OTHER[e.target] ?? (r() < 0.5 ? "proved" : "disproved"),
      };
    case "causal_understanding":
      return { kind: "wrong", answer: e.target === "Yes" ? "No" : "Yes" };
    case "object_counting":
      return { kind: "wrong", answer: "unknown" };
    case "word_sorting": {
      const english = englishSorted(e.input);
      return { kind: "near_miss", answer: nearMissSort(e.target, english) };
    }
    case "hyperbaton":
      return hyperbatonWrong(r, e, false) ?? { kind: "wrong", answer: wrongLetters(e) };
    case "web_of_lies": {
      if (e.subsets["variant"] !== "cyclic") {
        return { kind: "wrong", answer: flipItem(e.target, 0) };
      }
      const last = lastPosition(chainDepths(e.input));
      return {
        kind: "flip_earlier",
        answer: flipItem(e.target, last === null ? 0 : (last + 1) % 3),
      };
    }
    case "temporal_sequence": {
      const [x, y] = e.target.split(/\s*,\s*/).map(Number);
      return { kind: "longest_wrong", answer: `${x + 30}, ${y}` };
    }
    default:
      void spec;
      return { kind: "wrong", answer: genericWrongAnswer(r, e.input, e.target, pool) };
  }
}

/**
 * Hyperbaton: gold letters plus one distractor — the most English-ordered non-gold option
 * (`english_pick`) or a random one (`other_pick`); null when there is no non-gold option with
 * adjective pairs.
 */
function hyperbatonWrong(
  r: Rng,
  e: PlanExample,
  english: boolean,
): { kind: string; answer: string } | null {
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

/**
 * Plan every example of one task for one model spec: exactly `correct[task]` correct (per
 * stratum when given), the planted kinds, then `noAnswer[task]` answer-less rows (of which
 * `degenerate[task]` degenerate) from the rest, then default wrong answers.
 *
 * @example
 * ```ts
 * planTask(examples, { model: "synthetic", correct: { nycc: 20 } }, 7);
 * ```
 */
export function planTask(
  examples: readonly PlanExample[],
  spec: SyntheticModelSpec,
  seed: number,
): PlannedRow[] {
  if (examples.length === 0) return [];
  const task = examples[0].task;
  const r = rng(subSeed(seed, spec.run ?? spec.model, task));
  const correct = chooseCorrect(r, examples, spec, task);
  const out = new Map<number, PlannedRow>();
  const rest: PlanExample[] = [];
  for (const e of examples) {
    if (correct.has(e.example_index)) {
      out.set(e.example_index, {
        task,
        example_index: e.example_index,
        correct: true,
        kind: "correct",
        answer: correctAnswer(e.target),
      });
    } else rest.push(e);
  }
  const what = `${spec.model} ${task}`;
  const all = () => true;
  if (task === "boardgame_qa" && spec.boardgame) {
    const already = [...out.values()].filter((p) => p.answer === "unknown").length;
    plant(
      r,
      rest,
      (e) => e.target !== "unknown",
      spec.boardgame.unknownPredictions - already,
      "unknown",
      () => "unknown",
      out,
      `${what} unknown`,
    );
  }
  if (task === "object_counting" && spec.objectCounting) {
    const { over, under } = spec.objectCounting;
    plant(r, rest, all, over, "over", (e) => countingAnswer(r, e.target, "over"), out, what);
    plant(
      r,
      rest,
      (e) => Number(e.target) >= 1,
      under,
      "under",
      (e) => countingAnswer(r, e.target, "under"),
      out,
      what,
    );
  }
  if (task === "object_properties" && spec.objectProperties) {
    const k = spec.objectProperties.undetermined;
    plant(r, rest, all, k, "undetermined", () => "unknown", out, what);
  }
  const mistakes = spec.mistakeFinding?.[task as "dyck_languages" | "word_sorting"];
  if (mistakes) {
    const info = (e: PlanExample) => mistakeInfo(e);
    plant(
      r,
      rest,
      (e) => (info(e)?.m1 ?? 0) >= 2,
      mistakes.early,
      "early",
      (e) => {
        return String(intIn(r, 1, info(e)!.m1! - 1));
      },
      out,
      `${what} early`,
    );
    plant(
      r,
      rest,
      (e) => {
        const i = info(e);
        return i !== null && i.m1 !== null && i.m1 < i.steps;
      },
      mistakes.late,
      "late",
      (e) => String(intIn(r, info(e)!.m1! + 1, info(e)!.steps)),
      out,
      what,
    );
  }
  if (task === "word_sorting" && spec.wordSorting) {
    plant(
      r,
      rest,
      (e) => {
        const english = englishSorted(e.input);
        return e.subsets["variant"] === "new_alphabet_sorting" && english !== null &&
          isWrong(english, e.target);
      },
      spec.wordSorting.englishSort,
      "english_sort",
      (e) => englishSorted(e.input),
      out,
      what,
    );
  }
  if (task === "hyperbaton" && spec.hyperbaton) {
    plant(
      r,
      rest,
      (e) => hyperbatonWrong(r, e, true) !== null,
      spec.hyperbaton.englishPicks,
      "english_pick",
      (e) => hyperbatonWrong(r, e, true)!.answer,
      out,
      what,
    );
  }
  if (task === "web_of_lies" && spec.webOfLies) {
    plant(
      r,
      rest,
      (e) => e.subsets["variant"] === "cyclic" && lastPosition(chainDepths(e.input)) !== null,
      spec.webOfLies.flipLast,
      "flip_last",
      (e) => flipItem(e.target, lastPosition(chainDepths(e.input))!),
      out,
      what,
    );
  }
  if (task === "temporal_sequence" && spec.temporal) {
    plant(
      r,
      rest,
      all,
      spec.temporal.longestOnly,
      "longest_only",
      (e) => {
        const [x, y] = e.target.split(/\s*,\s*/).map(Number);
        return `${x}, ${y + 1}`;
      },
      out,
      what,
    );
  }
  const nNone = spec.noAnswer?.[task] ?? 0;
  const nDegenerate = spec.degenerate?.[task] ?? 0;
  if (nDegenerate > nNone) {
    throw new Error(`${what}: degenerate ${nDegenerate} > noAnswer ${nNone}`);
  }
  plant(r, rest, all, nDegenerate, "degenerate", () => null, out, `${what} degenerate`);
  plant(r, rest, all, nNone - nDegenerate, "no_answer", () => null, out, `${what} no answer`);
  const pool = [...new Set(examples.map((e) => e.target))];
  for (const e of shuffled(r, rest)) {
    const w = defaultWrong(r, e, pool, spec);
    out.set(e.example_index, { task, example_index: e.example_index, correct: false, ...w });
  }
  return examples.map((e) => out.get(e.example_index)!);
}
