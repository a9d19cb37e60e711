/**
 * runlens: re-score LLM run logs of BIG-Bench Extra Hard, BIG-Bench Hard, BIG-Bench Mistake
 * and ARB with the benchmarks' own rules, aggregate them, and re-run the papers' analyses.
 * This is the one entry for notebooks and scripts; everything below is re-exported here.
 *
 * | area | modules | what |
 * | --- | --- | --- |
 * | pipeline | `pipeline/` | `loadRuns` (discover → plan → read, tie and score in Workers → merge → summarise); `rescore` with your own rule |
 * | analyses | `analyses/` | across benchmarks, on loaded runs: answer-format sensitivity (`formatSensitivity`), paired comparisons (`compareRuns`), headline tables |
 * | report | `report/` | `runsText`, `runsReport` (the text and JSON of `runlens score`); `buildReport`, `writeReport` |
 * | scorers | `scorers/` | `defineScorer` (your own rule: `extract`, `match`), `patternScorer`; the rules of any benchmark |
 * | benchmarks | `benchmarks/<name>/mod.ts`, `benchmarks/registry.ts` | each benchmark's tasks, data set, scorers, aggregates, published numbers, analyses and figures; the registry |
 * | scorers | `scorers/` | where a response states its answer (`findFinalAnswer`), an answer matched by its target's type (`matchAnswer`), which rule applies to a benchmark (`appliesTo`) |
 * | statistics | `stats/` | Wilson intervals, Krippendorff's alpha |
 * | output | `render/`, `notebook/` | figures (SVG + PNG) and tables (CSV, Markdown, LaTeX); the notebook context that writes and shows them; `openNotebook`, which opens a notebook on its headline |
 * | logs | `logs/` | finding log files, formats, quarantine entries |
 *
 * A complete analysis of a folder of run logs:
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { loadRuns, notebookContext, resolveDataDir, runsText, taskAccuracy } from "@runlens/mod.ts";
 *
 * const dataDir = resolveDataDir(); // $RUNLENS_DATA, else .runlens/data
 * const loaded = await loadRuns(["tests/fixtures/logs/mixed.jsonl"], dataDir);
 * console.log(runsText(loaded)); // per run: rows in/scored/quarantined, tasks, aggregates
 * const bbehRows = loaded.rows.filter(pl.col("benchmark").eq(pl.lit("bbeh")));
 * const perTask = taskAccuracy(bbehRows, ["run"]); // run, task, n, correct, accuracy
 * const ctx = notebookContext();
 * await ctx.show(perTask); // in a notebook: a table; in a script: nothing
 * assert.deepEqual(perTask.getColumn("task").toArray(), ["linguini", "nycc", "temporal_sequence"]);
 * assert.equal(loaded.runs[0].aggregate.coverage, "partial"); // the fixture covers a few examples
 * ```
 * @module
 */
export * from "./pipeline/load.ts";
export * from "./pipeline/rescore.ts";
export * from "./scorers/define.ts";
export { patternScorer } from "./scorers/pattern.ts";
export * from "./report/runs_text.ts";
export * from "./pipeline/advice.ts";
export * from "./analyses/format_sensitivity.ts";
export * from "./analyses/mistake_finding.ts";
export * from "./benchmarks/mistakes.ts";
export * from "./benchmarks/types.ts";
export * from "./benchmarks/registry.ts";
export * from "./benchmarks/bbeh/mod.ts";
export * from "./benchmarks/bbh/mod.ts";
export * from "./benchmarks/bbm/mod.ts";
export * from "./benchmarks/arb/mod.ts";
export * from "./stats/wilson.ts";
export * from "./stats/krippendorff.ts";
export * from "./render/figure.ts";
export * from "./render/table.ts";
export * from "./notebook/context.ts";
export * from "./logs/quarantine.ts";
export { discover, filesOf } from "./logs/discover.ts";
export { parseColumnMap } from "./logs/mapped.ts";
export * from "./core/schema.ts";
export { REPO_ROOT, resolveDataDir } from "./core/data_dir.ts";
export * from "./notebook/open.ts";
export * from "./pipeline/keep_benchmarks.ts";
export * from "./benchmarks/notebook.ts";
export * from "./analyses/compare.ts";
export * from "./report/build.ts";
export * from "./report/write.ts";
export * from "./analyses/headlines.ts";
export {
  ANSWER_CONVENTIONS,
  type AnswerConvention,
  findFinalAnswer,
  type FoundAnswer,
} from "./scorers/answer_conventions.ts";
export { type AnswerType, answerType, matchAnswer, readAnswer } from "./scorers/answer_match.ts";
export { ANY_BENCHMARK, appliesTo } from "./scorers/types.ts";
