/**
 * BIG-Bench Extra Hard as a registered {@link Benchmark}: 23 tasks, the release's 4,520
 * examples, the official scorer, the paper's aggregates (harmonic mean, micro, Mini micro) and
 * the failure-mode analyses of its Section 5 and Appendix A. Built from the polars-free
 * scoring part (`scoring.ts`, which `scoringModule` points to) plus the polars parts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(bbeh.tasks.length, 23);
 * assert.equal(bbeh.canonicalTask("Temporal Sequences"), "temporal_sequence");
 * assert.equal(bbeh.defaultScorer, "bbeh-official");
 * const { scoring } = await import(bbeh.scoringModule!); // what a Worker does
 * assert.equal(scoring.name, bbeh.name);
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import { join } from "node:path";
import { exists } from "../../core/data_dir.ts";
import type { AnalysisContext, Benchmark } from "../types.ts";
import {
  type BbehAggregate,
  bbehAggregate,
  bbehAggregates,
  bbehIntervals,
  bbehIntervalsByRun,
} from "./aggregate.ts";
import type { HeadlineCI } from "../../stats/headline_ci.ts";
import { bbehToBbmMap } from "./bbm_link.ts";
import { bbehDatasetFrame } from "./dataset.ts";
import { bbehMistakeFinding } from "./mistake_log.ts";
import { failureAnalyses, failureSummary, type MistakeLink } from "./failure/summary.ts";
import { bbehReport } from "./report.ts";
import { scoring as bbehScoring } from "./scoring.ts";
import { loadBbmDataset } from "../bbm/dataset.ts";

/** The BBM traces behind BBEH's first-mistake items, when the data directory has them. */
function mistakeLink(dataDir: string): MistakeLink | undefined {
  if (!exists(join(dataDir, "big-bench-mistake"))) return undefined;
  return { map: bbehToBbmMap(dataDir), traces: loadBbmDataset(dataDir) };
}

/** BBEH. */
export const bbeh: Benchmark = {
  ...bbehScoring,
  listOrder: 1,
  description: "BIG-Bench Extra Hard (Kazemi et al. 2025): 23 tasks, 4,520 examples " +
    "(google-deepmind/bbeh).",
  scoringModule: new URL("./scoring.ts", import.meta.url).href,
  data: {
    folder: "bbeh",
    sources: [
      { repo: "google-deepmind/bbeh", commit: "80d12ca916b7158f22293fcf3144f4d3d854d4be" },
      { // the per-task leaderboard as it was before the current one
        repo: "google-deepmind/bbeh",
        commit: "49b3737f78afbbc334ffacbf457ecdacf47fdeef",
        rename: { "leaderboard-per-task-49b3737.md": "leaderboard.md" },
      },
    ],
    manifest: new URL("./manifest.json", import.meta.url).href,
  },
  datasetFrame: bbehDatasetFrame,
  mistakeFinding: bbehMistakeFinding,
  aggregate: bbehAggregate,
  aggregateRuns: bbehAggregates,
  aggregateIntervals: (rows, aggregate) => bbehIntervals(rows, aggregate as BbehAggregate),
  aggregateRunsIntervals: (rows, aggregates) =>
    bbehIntervalsByRun(rows, aggregates as ReadonlyMap<string, BbehAggregate>) as Map<
      string,
      Record<string, HeadlineCI>
    >,
  aggregateKeys: [
    // the harmonic mean of (accuracy % + 1) is a score, not a percentage
    { key: "harmonic_mean", label: "BBEH (harmonic mean of accuracy+1)", unit: "" },
    { key: "micro", label: "micro" },
    { key: "mini_micro", label: "BBEH Mini micro" },
  ],
  analyses: {
    headline: {
      key: "failure_modes",
      measures: [
        "boardgame_qa.unknown_share",
        "object_counting.over_count_share",
        "object_counting.under_count_share",
        "object_properties.undetermined_share",
        "dyck_languages.early_flag_share",
        "dyck_languages.missed_first_share",
        "temporal_sequence.longest_only_accuracy",
        "no_answer_share.shuffled_objects",
      ],
    },
    tables: (rows, ctx: AnalysisContext) =>
      failureAnalyses(rows, mistakeLink(ctx.dataDir)) as unknown as Record<
        string,
        pl.DataFrame | null
      >,
    summary: (tables) => failureSummary(tables as never),
    titles: {
      subsets: "Accuracy (%) per labelled subset inside BBEH tasks, 95% Wilson intervals",
      boardgame: "BoardgameQA: share of unknown among labelled predictions (Table 5)",
      boardgameConfusion: "BoardgameQA: gold × predicted counts",
      objectCounting: "Object Counting: over- and under-counting (Table 8)",
      objectCountingErrors: "Object Counting: signed error distribution",
      objectProperties: "Object Properties: count said to be undeterminable (A.13)",
      mistakeFinding: "First-mistake items: early flags vs missed first mistake (A.6)",
      mistakeOffsets: "First-mistake items: flagged − true step offsets",
      noAnswer: "No final answer and degenerate output per task (Section 5.2)",
      belowRandom: "Accuracy vs random chance, missing answers and response length per task",
      wordSorting: "Word Sorting new alphabet: answers in standard English order (A.22)",
      hyperbaton: "Hyperbaton: English-ordered adjective pairs in wrong picks (A.8)",
      causal: "Causal Understanding: errors by gold label and variant (A.4)",
      webOfLies: "Web of Lies cyclic items: per-position and last vs earlier person (A.21)",
      temporal: "Temporal Sequences: accuracy if only the longest length were asked (A.19)",
      shuffled: "Shuffled Objects: no final answer (A.16)",
    },
    notes: (ctx) =>
      exists(join(ctx.dataDir, "big-bench-mistake"))
        ? []
        : ["no big-bench-mistake/ data: first-mistake analysis skipped"],
  },
  report: bbehReport,
  commands: { subsets: new URL("./subsets_command.ts", import.meta.url).href },
};
