/**
 * The polars-free scoring part of BBEH ({@link BenchmarkScoring}): tasks, task names, the
 * released examples, the official scorer. A scoring Worker of the streaming path imports this
 * module by URL (`bbeh.scoringModule` in `benchmark.ts`) and reads its `scoring` export; the
 * registered `Benchmark` (`benchmark.ts`) is built from it plus the polars parts (data
 * set frame, aggregates, analyses).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { scoring } from "@runlens/benchmarks/bbeh/scoring.ts";
 * assert.equal(scoring.name, "bbeh");
 * assert.equal(scoring.canonicalTask("Temporal Sequences"), "temporal_sequence");
 * const official = scoring.scorers.find((s) => s.name === scoring.defaultScorer)!;
 * const [first] = scoring.readExamples(resolveDataDir()).nycc;
 * assert.ok(official.score(`Thinking…\nThe answer is: ${first.target}`, first.target).correct);
 * ```
 * @module
 */
import type { BenchmarkScoring, ToolNames } from "../types.ts";
import { readBbehExamples } from "./examples.ts";
import { bbehOfficialScorer } from "./official_scorer.ts";
import { BBEH_OFFICIAL } from "./scorer.ts";
import { BBEH_TASKS, canonicalBbehTask } from "./tasks.ts";

/**
 * How tools name BBEH: inspect's eval `bbeh_mini` (and `bbeh`), lm-evaluation-harness task
 * names (`bbeh_<task>`, `bbeh_zeroshot_<task>`, …) and `bbeh-<task>`, `bbeh/<task>` (OpenCompass
 * dataset abbreviations, eval names), the task label as written (a display name too).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const [lmEval, other] = BBEH_TOOL_NAMES.tasks!;
 * assert.equal(lmEval.exec("bbeh_zeroshot_boardgame_qa")?.groups?.task, "boardgame_qa");
 * assert.equal(other.exec("bbeh-Temporal Sequences")?.groups?.task, "Temporal Sequences");
 * assert.equal(lmEval.exec("bbh_cot_fewshot_snarks"), null); // BBH's
 * ```
 */
export const BBEH_TOOL_NAMES: ToolNames = {
  aliases: ["bbeh_mini"],
  tasks: [
    /^(?:leaderboard_)?bbeh(?:_(?:cot_)?(?:fewshot|zeroshot))?_(?<task>.+)$/,
    /^bbeh[-_/ ](?<task>.+)$/i,
  ],
};

/**
 * BBEH's scoring part: 23 tasks, 4,520 examples, `bbeh-official`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(scoring.tasks.length, 23);
 * assert.deepEqual(scoring.scorers.map((s) => s.name), ["bbeh-official"]);
 * assert.equal(scoring.dataVersions, undefined);
 * ```
 */
export const scoring: BenchmarkScoring = {
  name: "bbeh",
  label: "BBEH",
  tasks: BBEH_TASKS.map(({ name, display, size }) => ({ name, display, size })),
  canonicalTask: canonicalBbehTask,
  toolNames: BBEH_TOOL_NAMES,
  readExamples: readBbehExamples,
  // records naming no benchmark that fit BBEH and BBH equally are BBEH's (README, schema)
  canonicalDefault: true,
  defaultScorer: BBEH_OFFICIAL,
  scorers: [bbehOfficialScorer],
};
