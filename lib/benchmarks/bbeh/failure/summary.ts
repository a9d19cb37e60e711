/**
 * All failure-mode analyses of scored BBEH rows in one call, and their per-run JSON summary
 * (what `runlens analyze --json` prints): per run, `subsets` ({task: {label: {n, correct,
 * accuracy}}}) and `failure_modes` keyed `<task>.<measure>` (plus `no_answer_share.<task>`),
 * each `{share, n, count, ci_low, ci_high}` with shares in percent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { bbehToBbmMap } from "@runlens/benchmarks/bbeh/bbm_link.ts";
 * import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
 * import { failureAnalyses, failureSummary } from "@runlens/benchmarks/bbeh/failure/summary.ts";
 * // a run log: two boardgame_qa items (gold "disproved"), an object_counting sum, a dyck item
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,boardgame_qa,0,The answer is: unknown
 * r1,m,boardgame_qa,1,The answer is: disproved
 * r1,m,object_counting,1,The answer is: 1500
 * r1,m,dyck_languages,0,The answer is: 7
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const map = bbehToBbmMap(resolveDataDir());
 * const traces = loadBbmDataset(resolveDataDir());
 * const all = failureAnalyses(rows, { map, traces }); // frames by analysis name
 * const summary = failureSummary(all); // what `runlens analyze --json` prints per run
 * assert.equal(summary["r1"].failure_modes["boardgame_qa.unknown_share"].share, 50);
 * assert.equal(summary["r1"].failure_modes["dyck_languages.location_correct_share"].count, 1);
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import { boardgameConfusion, boardgameUnknownShare } from "./boardgame.ts";
import { causalErrors } from "./causal.ts";
import { hyperbatonEnglishOrder } from "./hyperbaton.ts";
import {
  classifyMistakeItems,
  mistakeModesOfClassified,
  mistakeStepOffsets,
} from "./mistake_finding.ts";
import { belowRandomTasks, noAnswerByTask } from "./no_answer.ts";
import { objectCountingErrors, objectCountingSignedErrors } from "./object_counting.ts";
import { objectPropertiesUndetermined } from "./object_properties.ts";
import { emptyShares } from "./shares.ts";
import { shuffledNoFinalAnswer } from "./shuffled.ts";
import { allSubsetAccuracy } from "./subset_accuracy.ts";
import { temporalLongestOnly } from "./temporal.ts";
import { webOfLiesPositions } from "./web_of_lies.ts";
import { englishSortShare } from "./word_sorting.ts";

/** The BBM link the first-mistake analysis needs (absent: that analysis is skipped). */
export interface MistakeLink {
  /** `bbehToBbmMap(dataDir)` */
  map: pl.DataFrame;
  /** `loadBbmDataset(dataDir)` */
  traces: pl.DataFrame;
}

/** Every analysis frame, by name. */
export interface FailureAnalyses {
  /** Accuracy per labelled subset inside each task, with 95% Wilson intervals. */
  subsets: pl.DataFrame;
  /** BoardgameQA: share of "unknown" among labelled predictions (BBEH paper, Table 5). */
  boardgame: pl.DataFrame;
  /** BoardgameQA: gold × predicted counts. */
  boardgameConfusion: pl.DataFrame;
  /** Object Counting: over- and under-counting (BBEH paper, Table 8). */
  objectCounting: pl.DataFrame;
  /** Object Counting: the signed error distribution. */
  objectCountingErrors: pl.DataFrame;
  /** Object Properties: answers saying the count cannot be determined (Appendix A.13). */
  objectProperties: pl.DataFrame;
  /**
   * First-mistake items: errors that flagged a step too early or missed the first mistake
   * (Appendix A.6); empty without a {@link MistakeLink}.
   */
  mistakeFinding: pl.DataFrame;
  /** First-mistake items: step offsets flagged − true first mistake; null without the link. */
  mistakeOffsets: pl.DataFrame | null;
  /** Responses without a final answer, per task. */
  noAnswer: pl.DataFrame;
  /** Tasks whose accuracy is below their random-chance rate. */
  belowRandom: pl.DataFrame;
  /** Word Sorting, new alphabet: lists sorted in English order instead (Appendix A.22). */
  wordSorting: pl.DataFrame;
  /** Hyperbaton: options picked in standard English adjective order (Appendix A.8). */
  hyperbaton: pl.DataFrame;
  /** Causal Understanding: errors by kind of item (Appendix A.4). */
  causal: pl.DataFrame;
  /** Web of Lies: correctness per answer position, last person vs earlier (Appendix A.21). */
  webOfLies: pl.DataFrame;
  /** Temporal Sequences: accuracy if only the longest meeting length were asked (A.19). */
  temporal: pl.DataFrame;
  /** Shuffled Objects: responses that end without a final answer (Appendix A.16). */
  shuffled: pl.DataFrame;
}

/**
 * Run every analysis on scored rows (row schema). Without `link` the first-mistake analysis is
 * empty and `mistakeOffsets` null.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // a run log: two boardgame_qa items (gold "disproved"), an object_counting sum, a dyck item
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,boardgame_qa,0,The answer is: unknown
 * r1,m,boardgame_qa,1,The answer is: disproved
 * r1,m,object_counting,1,The answer is: 1500
 * r1,m,dyck_languages,0,The answer is: 7
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const all = failureAnalyses(rows); // no BBM link: no first-mistake analysis
 * assert.equal(all.mistakeFinding.height, 0);
 * assert.equal(all.mistakeOffsets, null);
 * assert.equal(all.boardgame.height, 3); // unknown_share, gold_unknown_share, labelled_share
 * ```
 */
export function failureAnalyses(rows: pl.DataFrame, link?: MistakeLink): FailureAnalyses {
  const classified = link ? classifyMistakeItems(rows, link.map, link.traces) : null;
  return {
    subsets: allSubsetAccuracy(rows),
    boardgame: boardgameUnknownShare(rows),
    boardgameConfusion: boardgameConfusion(rows),
    objectCounting: objectCountingErrors(rows),
    objectCountingErrors: objectCountingSignedErrors(rows),
    objectProperties: objectPropertiesUndetermined(rows),
    mistakeFinding: classified ? mistakeModesOfClassified(classified) : emptyShares(),
    mistakeOffsets: classified ? mistakeStepOffsets(classified) : null,
    noAnswer: noAnswerByTask(rows),
    belowRandom: belowRandomTasks(rows),
    wordSorting: englishSortShare(rows),
    hyperbaton: hyperbatonEnglishOrder(rows),
    causal: causalErrors(rows),
    webOfLies: webOfLiesPositions(rows),
    temporal: temporalLongestOnly(rows),
    shuffled: shuffledNoFinalAnswer(rows),
  };
}

/** One share in the JSON summary (percent). */
export interface ShareJson {
  /** The share, percent (null when `n` is 0). */
  share: number | null;
  /** Rows in the denominator. */
  n: number;
  /** Rows counted. */
  count: number;
  /** Lower bound of the 95% Wilson interval, percent. */
  ci_low: number | null;
  /** Upper bound of the 95% Wilson interval, percent. */
  ci_high: number | null;
}

/** The JSON summary of one run. */
export interface RunFailureSummary {
  /** The run's model. */
  model: string;
  /** Task → subset → counts and accuracy (percent). */
  subsets: Record<string, Record<string, { n: number; correct: number; accuracy: number }>>;
  /** Measure → its share. */
  failure_modes: Record<string, ShareJson>;
}

const OVER_UNDER = ["over_count_share", "under_count_share"];

const SHARE_TABLES: (keyof FailureAnalyses)[] = [
  "boardgame",
  "objectCounting",
  "objectProperties",
  "mistakeFinding",
  "wordSorting",
  "hyperbaton",
  "causal",
  "webOfLies",
  "temporal",
  "shuffled",
];

/**
 * Per-run JSON summary of the analyses. Keys of `failure_modes`: `<task>.<measure>` for the
 * pooled group, `<task>.<group>.<measure>` for the others, and `no_answer_share.<task>` /
 * `degenerate_share.<task>` for every task. Exception: `object_counting.over_count_share` and
 * `.under_count_share` are the sum subset's (among wrong numeric answers, paper A.14); the
 * pooled ones are `object_counting.all.over_count_share` / `.under_count_share`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * // a run log: two boardgame_qa items (gold "disproved"), an object_counting sum, a dyck item
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,boardgame_qa,0,The answer is: unknown
 * r1,m,boardgame_qa,1,The answer is: disproved
 * r1,m,object_counting,1,The answer is: 1500
 * r1,m,dyck_languages,0,The answer is: 7
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const modes = failureSummary(failureAnalyses(rows))["r1"].failure_modes;
 * // 1500 for a gold 1486: the one wrong numeric answer of the sum subset is an over-count
 * const over = modes["object_counting.over_count_share"];
 * assert.deepEqual([over.share, over.n, over.count], [100, 1, 1]);
 * assert.equal(modes["no_answer_share.boardgame_qa"].share, 0);
 * ```
 */
export function failureSummary(a: FailureAnalyses): Record<string, RunFailureSummary> {
  const out: Record<string, RunFailureSummary> = {};
  const entry = (run: string, model: string) =>
    out[run] ??= { model, subsets: {}, failure_modes: {} };
  for (const s of a.subsets.toRecords() as Record<string, unknown>[]) {
    const run = String(s.run ?? "run"), task = String(s.task), label = String(s.subset);
    const e = entry(run, String(s.model ?? run));
    (e.subsets[task] ??= {})[label] = {
      n: Number(s.n),
      correct: Number(s.correct),
      accuracy: Number(s.accuracy),
    };
  }
  const put = (r: Record<string, unknown>, key: string) => {
    entry(String(r.run), String(r.model)).failure_modes[key] = {
      share: r.share === null ? null : Number(r.share),
      n: Number(r.n),
      count: Number(r.count),
      ci_low: r.ci_low === null ? null : Number(r.ci_low),
      ci_high: r.ci_high === null ? null : Number(r.ci_high),
    };
  };
  for (const name of SHARE_TABLES) {
    for (const r of (a[name] as pl.DataFrame).toRecords() as Record<string, unknown>[]) {
      const group = String(r.group);
      let pooled = group === "all" || (name === "webOfLies" && group === "cyclic");
      if (name === "objectCounting" && OVER_UNDER.includes(String(r.measure))) {
        // The headline over/under shares are those of the sum subset (paper A.14).
        pooled = group === "sum";
      }
      put(r, pooled ? `${r.task}.${r.measure}` : `${r.task}.${group}.${r.measure}`);
    }
  }
  for (const r of a.noAnswer.toRecords() as Record<string, unknown>[]) {
    put(r, `${r.measure}.${r.task}`);
  }
  return Object.fromEntries(Object.keys(out).sort().map((k) => [k, out[k]]));
}
