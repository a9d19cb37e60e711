/**
 * A SYNTHETIC demo run set calibrated to the BBEH paper: four models ("Gemini 2.0 Flash-Lite",
 * "Gemini 2.0 Flash", "GPT4o", "o3-mini (high)", each named "… (synthetic)") whose per-task
 * correct counts are Table 2's accuracies × task size, with planted failure modes from Table 5
 * (BoardgameQA unknown %), Table 8 (over/under counts), Table 9 (Zebra by size) and the
 * Appendix prose (A.4, A.6, A.7, A.13, A.16, A.17, A.19, A.21). Running the analyses on these
 * logs reproduces the published values to the rounding of counts.
 *
 * Where a published percentage has no exact count over the task's rows (e.g. 73.3% "unknown"
 * of 200), the denominator is lowered by answer-less rows until a count rounds to it.
 * A.4's Flash error counts imply 105 correct, Table 2 says 104: the demo keeps Table 2 and
 * plants 25 (not 24) errors on causal-judgement "No" items. A.21's last-person accuracies are
 * planted as exact counts of the 160 cyclic items; A.8 and A.22 give no rates, so the demo plants
 * illustrative counts (see `ILLUSTRATIVE`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * import { paperDemoSpecs } from "@runlens/benchmarks/bbeh/synthetic/paper_demo.ts";
 * import { generateSyntheticRuns } from "@runlens/benchmarks/bbeh/synthetic/generate.ts";
 * const dataset = loadBbehDataset(resolveDataDir());
 * // a notebook generates all four; here GPT4o's run only
 * const gpt4o = paperDemoSpecs().filter((s) => s.model === "GPT4o");
 * const [run] = generateSyntheticRuns(dataset, gpt4o);
 * assert.equal(run.model, "GPT4o (synthetic)");
 * // Table 2: GPT4o has 23.0% on NYCC, i.e. 46 of 200
 * const nycc = run.plan.filter((p) => p.task === "nycc" && p.correct);
 * assert.equal(nycc.length, 46);
 * ```
 * @module
 */
import { BBEH_TABLE2 } from "../published.ts";
import { BBEH_TASKS } from "../tasks.ts";
import { BBEH_APPENDIX_CLAIMS, BBEH_TABLE5, BBEH_TABLE8, BBEH_TABLE9 } from "../failure/paper.ts";
import type { SyntheticModelSpec } from "./spec.ts";

/** The paper models the demo imitates (Table 9 has exactly these four). */
export const PAPER_DEMO_MODELS = [
  "Gemini 2.0 Flash-Lite",
  "Gemini 2.0 Flash",
  "GPT4o",
  "o3-mini (high)",
] as const;

/** Response length multipliers (reasoning models write much more). */
const VERBOSITY: Record<string, number> = {
  "Gemini 2.0 Flash-Lite": 0.8,
  "Gemini 2.0 Flash": 1,
  "GPT4o": 0.7,
  "o3-mini (high)": 3,
};

/**
 * Failure modes the paper describes without a rate (A.8 Hyperbaton, A.22 Word Sorting): planted
 * at illustrative counts so the demo shows the analyses at work; not calibrated.
 */
const ILLUSTRATIVE: Record<string, Partial<SyntheticModelSpec>> = {
  "Gemini 2.0 Flash": { wordSorting: { englishSort: 15 } },
  "o3-mini (high)": { hyperbaton: { englishPicks: 40 } },
};

/** Percent as printed with one decimal. */
function rounded(x: number): number {
  return Math.round(x * 10 + 1e-9) / 10;
}

/**
 * The count k of n that prints as `pct` (one decimal), or null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(countFor(73.3, 195), 143); // 143 / 195 = 73.33…%
 * assert.equal(countFor(73.3, 200), null); // 146 / 200 = 73.0%, 147 / 200 = 73.5%
 * ```
 */
export function countFor(pct: number, n: number): number | null {
  const k = Math.round((pct * n) / 100);
  for (const c of [k, k - 1, k + 1]) {
    if (c >= 0 && c <= n && rounded((100 * c) / n) === pct) return c;
  }
  return null;
}

/**
 * The largest denominator d ≤ `max` (and ≥ `min`) with a count that prints as `pct`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(shareCounts(73.3, 200), { k: 143, n: 195 });
 * ```
 */
export function shareCounts(pct: number, max: number, min = 1): { k: number; n: number } {
  for (let n = max; n >= min; n--) {
    const k = countFor(pct, n);
    if (k !== null) return { k, n };
  }
  throw new Error(`no count of at most ${max} prints as ${pct}%`);
}

/** Table 2 accuracy → correct count per task for a paper model. */
function table2Counts(model: string): Record<string, number> {
  const acc = BBEH_TABLE2.accuracy[model];
  return Object.fromEntries(BBEH_TASKS.map((t) => {
    const k = countFor(acc[t.name], t.size);
    if (k === null) throw new Error(`${model} ${t.name}: ${acc[t.name]}% of ${t.size}`);
    return [t.name, k];
  }));
}

/** Dyck wrong rows (Table 2) split into early/late flags with A.6's "missed first" share. */
function dyckSplit(model: string, correct: number): { early: number; late: number } {
  const pct = BBEH_APPENDIX_CLAIMS.dyckMissedFirst[model];
  const wrong = 200 - correct;
  const { k, n } = shareCounts(pct, Math.floor(wrong * 0.9));
  return { early: n - k, late: k };
}

/** Zebra Puzzles items per size (Table 9's denominators). */
const ZEBRA_SIZES: Record<string, number> = { "5x5": 40, "6x6": 36, "7x7": 74, "8x8": 50 };

/** Table 9 accuracy by size → correct count per Zebra size for a paper model. */
function zebraCounts(model: string): Record<string, number> {
  return Object.fromEntries(
    Object.entries(BBEH_TABLE9.values[model]).map(([size, pct]) => {
      return [size, countFor(pct, ZEBRA_SIZES[size]!)!];
    }),
  );
}

/** Below-random tasks: a fifth of the wrong rows have no final answer (Section 5.2). */
function belowRandomNoAnswer(correct: Record<string, number>): Record<string, number> {
  const noAnswer: Record<string, number> = {};
  for (const t of BBEH_TASKS) {
    if ((100 * correct[t.name]) / t.size < t.random) {
      noAnswer[t.name] = Math.floor((t.size - correct[t.name]) / 5);
    }
  }
  return noAnswer;
}

/** The spec from the paper's tables: Table 2 counts, Table 5, Table 8, Table 9 and A.6's Dyck. */
function tableSpec(model: string): SyntheticModelSpec {
  const correct = table2Counts(model);
  const noAnswer = belowRandomNoAnswer(correct);
  const unknown = shareCounts(BBEH_TABLE5.values[model], 200, 150);
  noAnswer.boardgame_qa = 200 - unknown.n;
  const t8 = BBEH_TABLE8.values[model];
  const over = countFor(t8.over, 200)!, under = countFor(t8.under, 200)!;
  noAnswer.object_counting = 200 - correct.object_counting - over - under;
  return {
    model,
    correct,
    noAnswer,
    degenerate: {},
    verbosity: VERBOSITY[model],
    boardgame: { unknownPredictions: unknown.k },
    objectCounting: { over, under },
    strata: { zebra_puzzles: { by: "subset:size", correct: zebraCounts(model) } },
    mistakeFinding: { dyck_languages: { ...dyckSplit(model, correct.dyck_languages) } },
  };
}

/** Add the Appendix rates given for several models (A.13, A.19, A.21) and `ILLUSTRATIVE`. */
function addAppendixRates(spec: SyntheticModelSpec, model: string): void {
  const claims = BBEH_APPENDIX_CLAIMS;
  const undetermined = claims.objectPropertiesUndetermined[model];
  if (undetermined !== undefined) {
    spec.objectProperties = { undetermined: countFor(undetermined, 200)! };
    delete spec.noAnswer!.object_properties;
  }
  const longest = claims.temporalLongestOnly[model];
  if (longest !== undefined) {
    spec.temporal = { longestOnly: countFor(longest, 200)! - spec.correct.temporal_sequence };
  }
  const last = claims.webOfLiesLastPerson[model];
  if (last !== undefined) {
    // 21.2% of 160 has no exact count (33 → 20.6, 34 → 21.25): the nearest count is used.
    spec.webOfLies = { flipLast: 160 - Math.round((last * 160) / 100) };
  }
  const illustrative = ILLUSTRATIVE[model];
  if (illustrative) Object.assign(spec, illustrative);
  const wol = claims.webOfLiesSubsets[model];
  if (wol) {
    spec.strata!.web_of_lies = {
      by: "subset:variant",
      correct: { livebench: countFor(wol.livebench, 40)!, cyclic: countFor(wol.cyclic, 160)! },
    };
  }
}

/** Gemini 2.0 Flash: A.16's answer-less Shuffled Objects and A.4's causal errors by group. */
function addFlashRates(spec: SyntheticModelSpec): void {
  const model = "Gemini 2.0 Flash";
  const k = countFor(BBEH_APPENDIX_CLAIMS.shuffledNoAnswer[model], 200)!;
  spec.noAnswer!.shuffled_objects = k;
  spec.degenerate!.shuffled_objects = k;
  const e = BBEH_APPENDIX_CLAIMS.causalFlashErrors;
  const ok = (g: string, extra = 0) => e[g][1] - e[g][0] - extra;
  spec.strata!.causal_understanding = {
    by: "causal",
    correct: {
      "causal_judgement/Ambiguous": ok("causal_judgement/Ambiguous"),
      "causal_judgement/No": ok("causal_judgement/No", 1),
      "causal_judgement/Yes": ok("causal_judgement/Yes"),
      necessary: ok("necessary"),
      sufficient: ok("sufficient"),
    },
  };
}

/** A.7: few breaks 58%, many 47%, no intersect 72%, intersect 33% (of 100 each) as counts. */
const O3_MINI_GEOMETRIC: Record<string, number> = {
  "no_intersect/few_breaks": 40,
  "no_intersect/many_breaks": 32,
  "intersect/few_breaks": 18,
  "intersect/many_breaks": 15,
};

/** o3-mini (high): A.17's Spatial Reasoning forward / backward and A.7's Geometric Shapes. */
function addO3MiniRates(spec: SyntheticModelSpec): void {
  const d = BBEH_APPENDIX_CLAIMS.spatialDirection["o3-mini (high)"];
  spec.strata!.spatial_reasoning = {
    by: "subset:direction",
    correct: { forward: countFor(d.forward, 148)!, backward: countFor(d.backward, 52)! },
  };
  spec.strata!.geometric_shapes = {
    by: "subset:intersect_breaks",
    correct: { ...O3_MINI_GEOMETRIC },
  };
}

/** Rates the Appendix gives for one model only, by model. */
const MODEL_RATES: Record<string, (spec: SyntheticModelSpec) => void> = {
  "Gemini 2.0 Flash": addFlashRates,
  "o3-mini (high)": addO3MiniRates,
};

/**
 * The four calibrated model specs (model names get "(synthetic)" when generated).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(paperDemoSpecs().map((s) => s.model), [...PAPER_DEMO_MODELS]);
 * ```
 */
export function paperDemoSpecs(): SyntheticModelSpec[] {
  return PAPER_DEMO_MODELS.map((model) => {
    const spec = tableSpec(model);
    addAppendixRates(spec, model);
    MODEL_RATES[model]?.(spec);
    return spec;
  });
}
