/**
 * Benchmark and task labels from the names evaluation tools give their tasks and data sets
 * (lm-evaluation-harness task names, OpenCompass dataset abbreviations, eval names). Purely
 * syntactic: which names are real tasks is decided later, against the registered benchmarks.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(lmEvalTask("bbh_cot_fewshot_snarks"), { benchmark: "bbh", task: "snarks" });
 * const task = benchmarkTaskOf("bbeh_boardgame_qa");
 * assert.deepEqual(task, { benchmark: "bbeh", task: "boardgame_qa" });
 * ```
 * @module
 */

/**
 * The benchmark and task label of a dataset or eval name as tools write it: `bbeh_<task>`,
 * `bbeh-<task>`, `bbeh/<task>` → `bbeh` and the task label; `bbh_<task>`/`bbh-<task>` → `bbh`
 * and the label; anything else → the name as both. The label is kept as written (e.g. the
 * paper's display name): the pipeline maps it to the benchmark's canonical task name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(benchmarkTaskOf("bbh-temporal_sequences"), {
 *   benchmark: "bbh",
 *   task: "temporal_sequences",
 * });
 * assert.deepEqual(benchmarkTaskOf("bbeh-Temporal Sequences"), {
 *   benchmark: "bbeh",
 *   task: "Temporal Sequences",
 * });
 * assert.deepEqual(benchmarkTaskOf("gsm8k"), { benchmark: "gsm8k", task: "gsm8k" });
 * ```
 */
export function benchmarkTaskOf(name: string): { benchmark: string; task: string } {
  const m = /^(bbeh|bbh)[-_/ ](.+)$/i.exec(name.trim());
  return m ? { benchmark: m[1].toLowerCase(), task: m[2] } : { benchmark: name, task: name };
}

const PREFIX = /^(leaderboard_)?(bbeh|bbh)(_(cot_)?(fewshot|zeroshot))?_(.+)$/;

/**
 * The benchmark and task label of an lm-eval task name: `bbeh*_<subtask>` → `bbeh` and the
 * subtask; `bbh*_`/`leaderboard_bbh_` → `bbh` and the subtask; anything else → the name as
 * both. The pipeline maps the subtask to the benchmark's canonical task name.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const bbeh = lmEvalTask("bbeh_zeroshot_boardgame_qa");
 * assert.deepEqual(bbeh, { benchmark: "bbeh", task: "boardgame_qa" });
 * assert.deepEqual(lmEvalTask("leaderboard_bbh_snarks"), { benchmark: "bbh", task: "snarks" });
 * ```
 */
export function lmEvalTask(name: string): { benchmark: string; task: string } {
  const m = PREFIX.exec(name);
  return m ? { benchmark: m[2], task: m[6] } : { benchmark: name, task: name };
}
