/**
 * The polars-free scoring part of BBH ({@link BenchmarkScoring}): tasks, task names, the
 * released examples, the examples whose released input is cut short, and the scorers (the
 * release's CoT and direct rules, lm-evaluation-harness's filters, mcpbr's last line). A
 * scoring Worker of the streaming path imports this module by URL (`bbh.scoringModule` in
 * `benchmark.ts`) and reads its `scoring` export; the registered `Benchmark` (`benchmark.ts`)
 * is built from it plus the polars parts (data set frame, aggregate).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { scoring } from "@runlens/benchmarks/bbh/scoring.ts";
 * assert.equal(scoring.canonicalTask("leaderboard_bbh_navigate"), "navigate");
 * const cot = scoring.scorers.find((s) => s.name === scoring.defaultScorer)!;
 * const [first] = scoring.readExamples(resolveDataDir()).navigate;
 * assert.ok(cot.score(`… So the answer is ${first.target}.`, first.target).correct);
 * ```
 * @module
 */
import type { BenchmarkScoring, ToolNames } from "../types.ts";
import { readBbhExamples } from "./examples.ts";
import { lastLine } from "./scorers/last_line.ts";
import { lmEvalFlexible } from "./scorers/lm_eval/flexible.ts";
import { lmEvalGetAnswer } from "./scorers/lm_eval/get_answer.ts";
import { lmEvalStrict } from "./scorers/lm_eval/strict.ts";
import { bbhReleaseCot } from "./scorers/release_cot.ts";
import { bbhReleaseDirect } from "./scorers/release_direct.ts";
import { BBH_KNOWN_ISSUES, BBH_TASKS, canonicalBbhTask } from "./tasks.ts";
import { BBH_DATA_VERSIONS } from "./versions.ts";
import { BBH_RELEASE_FORMAT } from "./release_source.ts";

/**
 * How tools name BBH: inspect's eval `bbh`, lm-evaluation-harness task names
 * (`bbh_cot_fewshot_<task>`, `bbh_zeroshot_<task>`, `leaderboard_bbh_<task>`, …) and
 * `bbh-<task>`, `bbh/<task>` (OpenCompass dataset abbreviations, mcpbr instance ids, eval names).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const [lmEval, other] = BBH_TOOL_NAMES.tasks!;
 * assert.equal(lmEval.exec("bbh_cot_fewshot_snarks")?.groups?.task, "snarks");
 * assert.equal(lmEval.exec("leaderboard_bbh_navigate")?.groups?.task, "navigate");
 * assert.equal(other.exec("bbh-temporal_sequences")?.groups?.task, "temporal_sequences");
 * ```
 */
export const BBH_TOOL_NAMES: ToolNames = {
  tasks: [
    /^(?:leaderboard_)?bbh(?:_(?:cot_)?(?:fewshot|zeroshot))?_(?<task>.+)$/,
    /^bbh[-_/ ](?<task>.+)$/i,
  ],
};

/**
 * BBH's scoring part: 27 tasks, 6,511 examples, `bbh-release-cot` by default.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(scoring.tasks.length, 27);
 * assert.equal(scoring.defaultScorer, "bbh-release-cot");
 * assert.deepEqual(scoring.truncatedInputs?.map((x) => [x.task, x.index]), [["snarks", 88]]);
 * assert.deepEqual(scoring.dataVersions?.map((v) => v.name), ["lm-eval"]);
 * ```
 */
export const scoring: BenchmarkScoring = {
  name: "bbh",
  label: "BBH",
  tasks: BBH_TASKS.map(({ name, size }) => ({ name, size })),
  canonicalTask: canonicalBbhTask,
  toolNames: BBH_TOOL_NAMES,
  // the release's code-davinci-002 outputs, read like any run log
  formats: [BBH_RELEASE_FORMAT],
  readExamples: readBbhExamples,
  truncatedInputs: BBH_KNOWN_ISSUES.filter((k) => k.truncatedInput),
  // the copy lm-evaluation-harness reads repairs three items (versions.ts)
  dataVersions: BBH_DATA_VERSIONS,
  defaultScorer: bbhReleaseCot.name,
  scorers: [
    bbhReleaseCot,
    bbhReleaseDirect,
    lmEvalGetAnswer,
    lmEvalStrict,
    lmEvalFlexible,
    lastLine,
  ],
};
