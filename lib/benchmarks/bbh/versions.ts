/**
 * Other published versions of BBH examples: the items where a copy that tools read differs
 * from the GitHub release (suzgunmirac/BIG-Bench-Hard, `bbh/<task>.json`).
 *
 * **lm-eval** — three release items list their options split at every comma and give the
 * answer as option text instead of a letter (see `BBH_KNOWN_ISSUES` in `tasks.ts`): the copy
 * lm-evaluation-harness reads repairs them with whole options and a letter target, and its logs
 * carry that copy's row in `doc`. A logged row whose question and target match one of these
 * items is the release's example at the same index, scored against this version's target and
 * flagged `data_version: "lm-eval"`. The texts below are those of lm-evaluation-harness's own
 * repair code (see {@link LM_EVAL_BBH.source}); the copy lm-eval reads at run time lays them out
 * otherwise (the question on one line, `Monsters Inc` without its comma, `eareth, wind & fire`
 * with one comma fewer), so a logged copy matches when it is the same item after normalising
 * that layout (`pipeline/examples.ts` `layoutKey`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { LM_EVAL_BBH } from "@runlens/benchmarks/bbh/versions.ts";
 * assert.deepEqual(LM_EVAL_BBH.items.map((x) => [x.task, x.index, x.target]), [
 *   ["movie_recommendation", 163, "(A)"],
 *   ["ruin_names", 99, "(D)"],
 *   ["ruin_names", 144, "(B)"],
 * ]);
 * ```
 * @module
 */
import type { DataVersion } from "../types.ts";

const RUIN = "Which of the following is a humorous edit of this artist or movie name: ";

/** The repaired items of the BBH copy lm-evaluation-harness reads. */
export const LM_EVAL_BBH: DataVersion = {
  name: "lm-eval",
  source: "EleutherAI/lm-evaluation-harness, lm_eval/tasks/bbh/alternative_worlds/" +
    "prompt_variation/utils.py at commit 66421b57e5b7eb404a1dd00301c4dc620b16b67a " +
    "(fix_movie_recommendation, fix_ruin_names: the input and target written over the rows of " +
    "lukaemon/bbh whose target is the option text). lm-eval's generative BBH tasks read the " +
    "Hugging Face data set SaylorTwift/bbh (lm_eval/tasks/bbh/cot_fewshot/" +
    "_cot_fewshot_template_yaml at 478562342bc95d21cf894a6975b50e2463eaaa31; lukaemon/bbh " +
    "before); that copy's rows were not readable offline, so these strings are lm-eval's " +
    "repair, not a byte-for-byte read of SaylorTwift/bbh.",
  items: [
    {
      task: "movie_recommendation",
      index: 163,
      input: "Find a movie similar to Minority Report, Shrek, Catch Me If You Can, Aladdin:\n" +
        "Options:\n(A) Monsters, Inc\n(B) Children of the Night\n" +
        "(C) The Incredible Shrinking Man\n(D) Town & Country",
      target: "(A)",
      note: 'the option "Monsters, Inc" is whole (the release splits it into "(A) Monsters" and ' +
        '"(B) Inc"), so four options instead of five; target "(A)" instead of "Monsters, Inc"',
    },
    {
      task: "ruin_names",
      index: 99,
      input: `${RUIN}'earth, wind, & fire'?\nOptions:\n(A) eareth, wind, & fire\n` +
        "(B) earth, bind, & fire\n(C) earthm wind, & fire\n(D) dearth, wind, & fire",
      target: "(D)",
      note: "four whole options (the release splits them at every comma into 11); target " +
        '"(D)" instead of "dearth, wind, & fire"',
    },
    {
      task: "ruin_names",
      index: 144,
      input: `${RUIN}'rita, sue and bob too'?\nOptions:\n(A) rita, sue and bob too\n` +
        "(B) rita, sue and bob poo\n(C) rita, sue and box too\n(D) rita,y sue and bob too",
      target: "(B)",
      note: "four whole options (the release splits them at the comma into 7); target " +
        '"(B)" instead of "rita, sue and bob poo"',
    },
  ],
};

/** Every known other version of BBH examples. */
export const BBH_DATA_VERSIONS: readonly DataVersion[] = [LM_EVAL_BBH];
