/**
 * The BIG-Bench Mistake notebook (03, first mistakes), as `openNotebook` opens it
 * (`lib/benchmarks/notebook.ts`): it opens on the data set's traces, marked mistakes and
 * correct answers per task. Its mistake-finding runs (BBM-indexed logs and BBEH's first-mistake
 * items) are loaded and classified by `classifyMistakes` (`lib/analyses/mistake_finding.ts`) in a later cell, which lists other benchmarks' rows as
 * skipped.
 *
 * @example Not run by `deno test --doc`: it executes a notebook's opening (tests/notebook_*.test.ts)
 * ```ts ignore
 * import { openNotebook } from "runlens/figures";
 * import { bbm } from "runlens/benchmarks";
 * const nb = await openNotebook(bbm.firstMistakesNotebook); // shows the data set summary
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import type { NotebookSpec } from "../notebook.ts";
import { loadBbmDataset } from "./dataset.ts";
import { bbmDatasetSummary } from "./traces.ts";

/** The data folder of BIG-Bench Mistake. */
export const BBM_FOLDER = "big-bench-mistake";

/** Notebook 03: the data set summary (the headline); the traces for the later cells. */
export const firstMistakesNotebook: NotebookSpec<{ traces: pl.DataFrame | null }> = {
  benchmarks: ["bbm", "bbeh"],
  runs: false,
  open: ({ dataDir, hasData }) => {
    if (!hasData(BBM_FOLDER)) {
      return {
        data: { traces: null },
        headline: [{
          skipped: "the BIG-Bench Mistake analyses",
          why: "needs the big-bench-mistake data set",
        }],
      };
    }
    const traces = loadBbmDataset(dataDir);
    return {
      data: { traces },
      headline: [{
        table: bbmDatasetSummary(traces),
        name: "bbm_dataset_summary",
        options: {
          caption: "BIG-Bench Mistake: traces, marked mistakes and correct answers per task",
          label: "tab:bbm-dataset-summary",
          note: "answer_correct: answer == target after trimming whitespace.",
        },
      }],
    };
  },
};
