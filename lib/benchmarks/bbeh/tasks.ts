/**
 * The 23 BBEH tasks: canonical names, the paper's display names, sizes, random baselines and
 * the BBH task(s) each one replaces.
 *
 * Sources: folder names of the release (`bbeh/benchmark_tasks/bbeh_<task>`), the BBEH paper
 * (Kazemi et al. 2025, arXiv:2502.19187) Table 1 (BBH counterpart) and Table 2 (display names,
 * "Random" column).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BBEH_SIZE, BBEH_TASKS, bbehTask } from "@runlens/benchmarks/bbeh/tasks.ts";
 * assert.equal(BBEH_TASKS.length, 23);
 * assert.equal(BBEH_SIZE, 4520);
 * assert.deepEqual(bbehTask("nycc"), {
 *   name: "nycc",
 *   display: "NYCC",
 *   size: 200,
 *   random: 10,
 *   bbh: ["ruin_names"],
 * });
 * ```
 * @module
 */

/** One BBEH task. */
export interface BbehTaskInfo {
  /** Canonical name: the release folder name without `bbeh_`. */
  name: string;
  /** Name in the paper's tables. */
  display: string;
  /** Number of examples in the full set. */
  size: number;
  /** Random-chance accuracy (%) from the paper's Table 2. */
  random: number;
  /** BBH task(s) this task replaces (paper Table 1); several when BBH has variants. */
  bbh: readonly string[];
}

const t = (
  name: string,
  display: string,
  random: number,
  bbh: string[],
  size = 200,
): BbehTaskInfo => ({ name, display, size, random, bbh });

/** All 23 tasks in canonical (alphabetical = paper table) order. */
export const BBEH_TASKS: readonly BbehTaskInfo[] = [
  t("boardgame_qa", "BoardgameQA", 33.3, [
    "logical_deduction_three_objects",
    "logical_deduction_five_objects",
    "logical_deduction_seven_objects",
  ]),
  t("boolean_expressions", "Boolean Expressions", 20.0, ["boolean_expressions"]),
  t("buggy_tables", "Buggy Tables", 0.0, ["penguins_in_a_table"]),
  t("causal_understanding", "Causal Understanding", 38.0, ["causal_judgement"]),
  t("disambiguation_qa", "DisambiguationQA", 21.0, ["disambiguation_qa"], 120),
  t("dyck_languages", "Dyck Languages", 1.4, ["dyck_languages"]),
  t("geometric_shapes", "Geometric Shapes", 6.2, ["geometric_shapes"]),
  t("hyperbaton", "Hyperbaton", 0.0, ["hyperbaton"]),
  t("linguini", "Linguini", 0.0, ["salient_translation_error_detection"]),
  t("movie_recommendation", "Movie Recommendation", 10.0, ["movie_recommendation"]),
  t("multistep_arithmetic", "Multistep Arithmetic", 0.0, ["multistep_arithmetic_two"]),
  t("nycc", "NYCC", 10.0, ["ruin_names"]),
  t("object_counting", "Object Counting", 0.0, ["object_counting"]),
  t("object_properties", "Object Properties", 1.6, ["reasoning_about_colored_objects"]),
  t("sarc_triples", "SARC Triples", 12.5, ["snarks"]),
  t("shuffled_objects", "Shuffled Objects", 14.3, [
    "tracking_shuffled_objects_three_objects",
    "tracking_shuffled_objects_five_objects",
    "tracking_shuffled_objects_seven_objects",
  ]),
  t("spatial_reasoning", "Spatial Reasoning", 5.2, ["navigate"]),
  t("sportqa", "SportQA", 0.0, ["sports_understanding"]),
  t("temporal_sequence", "Temporal Sequences", 0.0, ["temporal_sequences"]),
  t("time_arithmetic", "Time Arithmetic", 0.5, ["date_understanding"]),
  t("web_of_lies", "Web of Lies", 5.5, ["web_of_lies"]),
  t("word_sorting", "Word Sorting", 4.3, ["word_sorting"]),
  t("zebra_puzzles", "Zebra Puzzles", 15.4, ["formal_fallacies"]),
];

/** Canonical task names in table order. */
export const BBEH_TASK_NAMES: readonly string[] = BBEH_TASKS.map((x) => x.name);

/** Examples in the full set (4,520). */
export const BBEH_SIZE: number = BBEH_TASKS.reduce((s, x) => s + x.size, 0);

/** Examples in BBEH Mini (460): 20 per task, 20 of disambiguation_qa's 120 too. */
export const BBEH_MINI_SIZE = 460;

const byName = new Map(BBEH_TASKS.map((x) => [x.name, x]));
const byDisplay = new Map(BBEH_TASKS.map((x) => [normalizeTaskKey(x.display), x]));

function normalizeTaskKey(s: string): string {
  return s.toLowerCase().replace(/[^a-z0-9]/g, "");
}

/** The task with this canonical name; throws listing the valid names otherwise. */
export function bbehTask(name: string): BbehTaskInfo {
  const info = byName.get(name);
  if (!info) {
    throw new Error(`unknown BBEH task "${name}"; tasks are: ${BBEH_TASK_NAMES.join(", ")}`);
  }
  return info;
}

/**
 * Canonical name for a task label as logs and papers write it: `bbeh_boardgame_qa`,
 * `BoardgameQA`, `Temporal Sequences`, `temporal_sequence`… Returns null when unknown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(canonicalBbehTask("bbeh_web_of_lies"), "web_of_lies");
 * assert.equal(canonicalBbehTask("Temporal Sequences"), "temporal_sequence");
 * assert.equal(canonicalBbehTask("BoardgameQA"), "boardgame_qa");
 * assert.equal(canonicalBbehTask("navigate"), null); // a BBH task, not a BBEH one
 * ```
 */
export function canonicalBbehTask(label: string): string | null {
  const trimmed = label.trim().replace(/^bbeh[_\-/ ]/i, "");
  if (byName.has(trimmed)) return trimmed;
  const key = normalizeTaskKey(trimmed);
  for (const info of BBEH_TASKS) {
    if (normalizeTaskKey(info.name) === key) return info.name;
  }
  return byDisplay.get(key)?.name ?? null;
}

/**
 * Whether position `index` of `task` belongs to BBEH Mini: the release takes positions
 * ≡ 9 (mod 10) of the 200-example tasks and ≡ 5 (mod 6) of disambiguation_qa.
 */
export function inMiniByStride(task: string, index: number): boolean {
  return bbehTask(task).size === 120 ? index % 6 === 5 : index % 10 === 9;
}
