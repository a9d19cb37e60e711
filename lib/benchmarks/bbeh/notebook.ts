/**
 * The BBEH notebooks, as `openNotebook` opens them (`lib/benchmarks/notebook.ts`):
 * - {@link bbehLeaderboardNotebook} (notebook 01): the leaderboard of the paper's models and the
 *   BBEH runs of the logs directory;
 * - {@link bbehFailureNotebook} (notebook 02): every failure-mode analysis of the BBEH runs (or
 *   of the SYNTHETIC demo runs when there are none), opening on the headline failure modes beside
 *   the paper.
 *
 * @example Not run by `deno test --doc`: it executes a notebook's opening (tests/notebook_*.test.ts)
 * ```ts ignore
 * import { openNotebook } from "runlens/figures";
 * import { bbeh } from "runlens/benchmarks";
 * const nb = await openNotebook(bbeh.bbehLeaderboardNotebook); // shows the leaderboard
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import type { NotebookSpec } from "../notebook.ts";
import { bbehToBbmMap } from "./bbm_link.ts";
import { loadBbmDataset } from "../bbm/dataset.ts";
import { loadBbehDataset } from "./dataset.ts";
import { failureHeadline } from "./failure/headline.ts";
import { type FailureAnalyses, failureAnalyses } from "./failure/summary.ts";
import { leaderboard } from "./leaderboard.ts";
import { generateSyntheticRuns, writeSyntheticLogs } from "./synthetic/generate.ts";
import { paperDemoSpecs } from "./synthetic/paper_demo.ts";

/** Notebook 01: the leaderboard, published models and runs (the headline). */
export const bbehLeaderboardNotebook: NotebookSpec<{ board: pl.DataFrame }> = {
  benchmarks: ["bbeh"],
  needs: ["bbeh"],
  open: ({ rows }) => {
    const board = leaderboard(rows ?? undefined);
    return {
      data: { board },
      headline: [{
        table: board,
        name: "bbeh_leaderboard",
        options: {
          caption:
            "BBEH leaderboard: per-task accuracy (%), harmonic mean of (accuracy + 1), micro average",
          label: "tab:bbeh-leaderboard",
          digits: 1,
          note: "Published rows: BBEH paper Tables 2 and 4. Runs: re-scored with bbeh-official; " +
            "ci_low, ci_high: 95% interval of a run's harmonic mean (seeded bootstrap, 2,000 " +
            "resamples stratified by task).",
          show: ["model", "source", "harmonic_mean", "micro"],
        },
      }],
      notes: rows === null ? ["the leaderboard shows the paper's published models only"] : [],
    };
  },
};

/** What notebook 02's later cells work on. */
export interface BbehFailureData {
  /** Every failure-mode analysis of the runs; null without them. */
  an: FailureAnalyses | null;
  /** The BBEH data set; null when missing. */
  dataset: pl.DataFrame | null;
  /** " [SYNTHETIC demo data]" for the demo runs, else "": every title ends with it. */
  tag: string;
  /** What the numbers are, for every caption. */
  note: string;
}

/** The paper's name of a demo model ("GPT4o (synthetic)" → "GPT4o"). */
export function paperModelName(model: string): string {
  return model.replace(/ \(synthetic\)$/, "");
}

/** Notebook 02: the failure modes; the SYNTHETIC demo when the logs hold no BBEH run. */
export const bbehFailureNotebook: NotebookSpec<BbehFailureData> = {
  benchmarks: ["bbeh"],
  needs: ["bbeh"],
  demo: {
    what: "the SYNTHETIC demo run set, calibrated to the BBEH paper, not real model outputs",
    write: (dataDir, dir) =>
      writeSyntheticLogs(generateSyntheticRuns(loadBbehDataset(dataDir), paperDemoSpecs()), dir),
  },
  open: ({ rows, synthetic, dataDir, hasData }) => {
    const tag = synthetic ? " [SYNTHETIC demo data]" : "";
    const note = synthetic
      ? "SYNTHETIC: generated demo runs calibrated to the BBEH paper, not real model outputs."
      : "Runs from the logs directory, re-scored with bbeh-official.";
    if (rows === null) {
      return {
        data: { an: null, dataset: null, tag, note },
        headline: [{ skipped: "BBEH failure-mode analyses", why: "needs the BBEH data set" }],
      };
    }
    const hasBbm = hasData("big-bench-mistake");
    const link = hasBbm
      ? { map: bbehToBbmMap(dataDir), traces: loadBbmDataset(dataDir) }
      : undefined;
    const an = failureAnalyses(rows, link);
    return {
      data: { an, dataset: loadBbehDataset(dataDir), tag, note },
      headline: [{
        table: failureHeadline(an, paperModelName),
        name: "bbeh_failure_headline",
        options: {
          caption: `BBEH failure modes at a glance: share (%) with 95% Wilson interval${tag}`,
          label: "tab:bbeh-failure-headline",
          digits: 1,
          note: `${note} paper: the BBEH paper's value for the same model (Tables 5 and 8, ` +
            "Appendix A.6 and A.13), where it gives one.",
        },
      }],
      skips: hasBbm
        ? []
        : [["Dyck / Word Sorting first-mistake analysis", "needs BIG-Bench Mistake"]],
    };
  },
};
