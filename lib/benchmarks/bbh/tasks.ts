/**
 * The 27 BIG-Bench Hard (BBH) tasks: canonical names, sizes, answer formats, random baselines
 * and the BBEH task that replaces each one.
 *
 * Sources: file names of the release (`bbh/<task>.json`, suzgunmirac/BIG-Bench-Hard), the
 * example counts and targets in those files, and the BBEH paper's Table 1 as transcribed in
 * `lib/benchmarks/bbeh/tasks.ts` (the BBEH successor of each BBH task).
 *
 * Random baselines are not copied from a paper: they are the expected accuracy of a uniform
 * guess, derived from the release files (see {@link BbhTaskInfo.randomSource}); a data-backed
 * test recomputes them.
 *
 * Known defects of the release files are listed in {@link BBH_KNOWN_ISSUES}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { BBH_SIZE, BBH_TASKS, bbhTask } from "@runlens/benchmarks/bbh/tasks.ts";
 * assert.equal(BBH_TASKS.length, 27);
 * assert.equal(BBH_SIZE, 6511);
 * assert.equal(bbhTask("snarks").size, 178);
 * assert.equal(bbhTask("navigate").bbeh, "spatial_reasoning");
 * ```
 * @module
 */
import { BBEH_TASKS } from "../bbeh/tasks.ts";

/** How a task's targets are written. */
export type BbhAnswerFormat =
  | "multiple_choice" // "(A)" … "(R)"
  | "yes_no" // "Yes"/"No" (sports_understanding: lowercase "yes"/"no")
  | "true_false" // "True"/"False"
  | "valid_invalid" // "valid"/"invalid"
  | "numeric" // an integer, e.g. "-11520"
  | "free_text"; // dyck_languages (closing brackets) and word_sorting (sorted words)

/** One BBH task. */
export interface BbhTaskInfo {
  /** Canonical name: the release file name without `.json`. */
  name: string;
  /** Number of examples in the release file. */
  size: number;
  /** How its targets are written. */
  format: BbhAnswerFormat;
  /** The closed set of targets for binary formats, spelled as in the release; else null. */
  answers: readonly string[] | null;
  /** Expected accuracy (%) of a uniform random guess, 2 decimals; null when not defined. */
  random: number | null;
  /** Where {@link random} comes from (null when it is null). */
  randomSource: string | null;
  /** The BBEH task that replaces this one (BBEH paper Table 1). */
  bbeh: string;
}

const BINARY_SOURCE = "two possible answers: 1/2";
const MC_SOURCE = "uniform guess among the options listed in each example, " +
  "mean of 1/(number of options) over the task's examples in bbh/<task>.json";

const bbehOf = new Map(BBEH_TASKS.flatMap((b) => b.bbh.map((t) => [t, b.name] as const)));

function task(
  name: string,
  format: BbhAnswerFormat,
  opts: { size?: number; answers?: string[]; random?: number; randomSource?: string } = {},
): BbhTaskInfo {
  const binary = opts.answers !== undefined;
  const random = binary ? 50 : opts.random ?? null;
  const bbeh = bbehOf.get(name);
  if (!bbeh) {
    throw new Error(`BBH task ${name} has no BBEH successor in lib/benchmarks/bbeh/tasks.ts`);
  }
  return {
    name,
    size: opts.size ?? 250,
    format,
    answers: opts.answers ?? null,
    random,
    randomSource: random === null ? null : binary ? BINARY_SOURCE : opts.randomSource ?? MC_SOURCE,
    bbeh,
  };
}

const mc = (name: string, random: number, extra: { size?: number; randomSource?: string } = {}) =>
  task(name, "multiple_choice", { random, ...extra });

/** All 27 tasks in alphabetical (release file) order. */
export const BBH_TASKS: readonly BbhTaskInfo[] = [
  task("boolean_expressions", "true_false", { answers: ["True", "False"] }),
  task("causal_judgement", "yes_no", { size: 187, answers: ["Yes", "No"] }),
  mc("date_understanding", 17.17),
  mc("disambiguation_qa", 33.23),
  task("dyck_languages", "free_text"),
  task("formal_fallacies", "valid_invalid", { answers: ["valid", "invalid"] }),
  mc("geometric_shapes", 9.82),
  mc("hyperbaton", 50),
  mc("logical_deduction_five_objects", 20),
  mc("logical_deduction_seven_objects", 14.29),
  mc("logical_deduction_three_objects", 33.33),
  mc("movie_recommendation", 24.62),
  task("multistep_arithmetic_two", "numeric"),
  task("navigate", "yes_no", { answers: ["Yes", "No"] }),
  task("object_counting", "numeric"),
  mc("penguins_in_a_table", 20.03, { size: 146 }),
  mc("reasoning_about_colored_objects", 12.11),
  mc("ruin_names", 24.93, {
    randomSource: MC_SOURCE + " (examples 99 and 144 list 11 and 7 split options)",
  }),
  mc("salient_translation_error_detection", 16.67),
  mc("snarks", 50, {
    size: 178,
    randomSource: "two options in every prompt: 1/2 (the data-set input of example 88 is " +
      'truncated after "(A) The NB", so counting its options would give 50.28)',
  }),
  task("sports_understanding", "yes_no", { answers: ["yes", "no"] }),
  mc("temporal_sequences", 25),
  mc("tracking_shuffled_objects_five_objects", 20),
  mc("tracking_shuffled_objects_seven_objects", 14.29),
  mc("tracking_shuffled_objects_three_objects", 33.33),
  task("web_of_lies", "yes_no", { answers: ["Yes", "No"] }),
  task("word_sorting", "free_text"),
];

/** A defect of one example of the release (found in the files; the examples are still scored). */
export interface BbhKnownIssue {
  /** The task. */
  task: string;
  /** 0-based position in `bbh/<task>.json`. */
  index: number;
  /** The defect, in words. */
  issue: string;
  /** The data-set input is cut short (logged prompts hold the whole question). */
  truncatedInput?: boolean;
}

/** Known defects of the release files, verified by the data-backed tests. */
export const BBH_KNOWN_ISSUES: readonly BbhKnownIssue[] = [
  {
    task: "snarks",
    index: 88,
    issue: 'the input stops after "(A) The NB" (cut at the first "A:"); the released prompts ' +
      "hold the whole question with both options",
    truncatedInput: true,
  },
  {
    task: "movie_recommendation",
    index: 163,
    issue: 'the target is "Monsters, Inc", not a letter: the option "Monsters, Inc" was split ' +
      'into "(A) Monsters" and "(B) Inc", so no answer letter can be right',
  },
  {
    task: "ruin_names",
    index: 99,
    issue: 'the target is "dearth, wind, & fire", not a letter: every option was split at its ' +
      "commas (11 options instead of 4)",
  },
  {
    task: "ruin_names",
    index: 144,
    issue: 'the target is "rita, sue and bob poo", not a letter: every option was split at its ' +
      "comma (7 options instead of 4)",
  },
];

/** Canonical task names in release order. */
export const BBH_TASK_NAMES: readonly string[] = BBH_TASKS.map((x) => x.name);

/** Examples in the release (6,511). */
export const BBH_SIZE: number = BBH_TASKS.reduce((s, x) => s + x.size, 0);

const byName = new Map(BBH_TASKS.map((x) => [x.name, x]));

/**
 * The task with this canonical name; throws listing the valid names otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(bbhTask("word_sorting").format, "free_text");
 * assert.equal(bbhTask("date_understanding").random, 17.17);
 * assert.throws(() => bbhTask("nope"), /unknown BBH task "nope"/);
 * ```
 */
export function bbhTask(name: string): BbhTaskInfo {
  const info = byName.get(name);
  if (!info) {
    throw new Error(`unknown BBH task "${name}"; tasks are: ${BBH_TASK_NAMES.join(", ")}`);
  }
  return info;
}

/**
 * Canonical name for a task label as logs write it: `navigate`, `bbh_cot_fewshot_navigate`,
 * `leaderboard_bbh_navigate`, `bbh-navigate` (OpenCompass). Instance ids with an example index
 * (`bbh_navigate_12`) are not task labels: strip the index first. Returns null when unknown.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(canonicalBbhTask("bbh_cot_zeroshot_web_of_lies"), "web_of_lies");
 * assert.equal(canonicalBbhTask("leaderboard_bbh_navigate"), "navigate");
 * assert.equal(canonicalBbhTask("bbh-temporal_sequences"), "temporal_sequences");
 * assert.equal(canonicalBbhTask("nope"), null);
 * ```
 */
export function canonicalBbhTask(label: string): string | null {
  const trimmed = label.trim();
  if (byName.has(trimmed)) return trimmed;
  const stripped = trimmed.replace(
    /^(?:leaderboard[_-])?bbh(?:[_-](?:cot|zeroshot|fewshot|cot_fewshot|cot_zeroshot))*[_\-/]/i,
    "",
  );
  return byName.has(stripped) ? stripped : null;
}
