/**
 * runlens: re-score LLM run logs of BIG-Bench Extra Hard, BIG-Bench Hard, BIG-Bench Mistake,
 * ARB and GSM8K with the benchmarks' own rules, aggregate them with honest error bars, and
 * re-run the papers' analyses. This module is the union of the public entries; import the one
 * you need to keep a script's names few:
 *
 * | entry | what |
 * | --- | --- |
 * | `runlens/load` | `loadRuns` (discover → plan → read, tie and score in Workers → merge → summarise), the row schema, quarantine entries, `runsText` (what `runlens score` prints) |
 * | `runlens/score` | the `Scorer` interface, `defineScorer` (your own rule: `extract`, `match`), `patternScorer`, `findFinalAnswer`, `matchAnswer`, `rescore`, the registry of benchmarks and scorers |
 * | `runlens/stats` | Wilson intervals (clustered too), headline intervals, paired comparisons (McNemar, Tango, Holm, minimum detectable difference), Krippendorff's alpha |
 * | `runlens/analyses` | across benchmarks, on loaded runs: answer-format sensitivity, paired comparisons of runs, headline tables |
 * | `runlens/figures` | figures (SVG + PNG) and tables (CSV, Markdown, LaTeX, HTML); the notebook context that writes and shows them; `openNotebook` |
 * | `runlens/report` | `buildReport`, `writeReport` and the report document's types |
 * | `runlens/benchmarks` | one namespace per benchmark (`bbeh`, `bbh`, `bbm`, `arb`, `gsm8k`): its tasks, data set, scorers, aggregates, published numbers, analyses and figures |
 *
 * A complete analysis of a folder of run logs:
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { bbeh, loadRuns, notebookContext, resolveDataDir, runsText } from "runlens";
 *
 * const dataDir = resolveDataDir(); // $RUNLENS_DATA, else .runlens/data
 * const loaded = await loadRuns(["tests/fixtures/logs/mixed.jsonl"], dataDir);
 * console.log(runsText(loaded)); // per run: rows in/scored/quarantined, tasks, aggregates
 * const bbehRows = loaded.rows.filter(pl.col("benchmark").eq(pl.lit("bbeh")));
 * const perTask = bbeh.taskAccuracy(bbehRows, ["run"]); // run, task, n, correct, accuracy
 * const ctx = notebookContext();
 * await ctx.show(perTask); // in a notebook: a table; in a script: nothing
 * assert.deepEqual(perTask.getColumn("task").toArray(), ["linguini", "nycc", "temporal_sequence"]);
 * assert.equal(loaded.runs[0].aggregate.coverage, "partial"); // the fixture covers a few examples
 * ```
 * @module
 */
export * from "./load.ts";
export * from "./score.ts";
export * from "./stats.ts";
export * from "./analyses.ts";
export * from "./figures.ts";
export * from "./report.ts";
export * from "./benchmarks/mod.ts";
