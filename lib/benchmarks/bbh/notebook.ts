/**
 * The BBH notebook (04, BBH beside BBEH), as `openNotebook` opens it (`lib/benchmarks/notebook.ts`):
 * it opens on the BBH release's own comparison, code-davinci-002 with chain-of-thought vs
 * answer-only prompting per task, each run scored with its release rule; its later cells take
 * the BBH and BBEH runs of the logs directory (rows of other benchmarks are left out).
 *
 * @example Not run by `deno test --doc`: it executes a notebook's opening (tests/notebook_*.test.ts)
 * ```ts ignore
 * import { openNotebook } from "runlens/figures";
 * import { bbh } from "runlens/benchmarks";
 * const nb = await openNotebook(bbh.bbhVsBbehNotebook); // shows CoT vs direct per task
 * ```
 * @module
 */
import type { NotebookSpec } from "../notebook.ts";
import { cotVsDirect, cotVsDirectSummary } from "./compare/cot_vs_direct.ts";
import { cotVsDirectFigure } from "./compare/figures.ts";
import { readBbhPublishedAccuracies, reproducedAccuracies } from "./release_metrics.ts";
import { type BbhReleaseOutputs, loadBbhReleaseOutputs } from "./release_outputs.ts";

/** Where the BBH release's model outputs are in the data directory. */
export const BBH_RELEASE_FOLDER = "bbh/code-davinci-002-outputs";

/** Notebook 04: CoT vs answer-only on the BBH release (the headline), then the runs. */
export const bbhVsBbehNotebook: NotebookSpec<{ release: BbhReleaseOutputs | null }> = {
  benchmarks: ["bbh", "bbeh"],
  needs: ["bbh", "bbeh"],
  open: ({ dataDir, hasData }) => {
    if (!hasData(BBH_RELEASE_FOLDER)) {
      return {
        data: { release: null },
        headline: [{
          skipped: "BBH CoT vs direct and format sensitivity",
          why: `needs the BBH release outputs, ${BBH_RELEASE_FOLDER}`,
        }],
      };
    }
    const release = loadBbhReleaseOutputs(dataDir);
    const cmp = cotVsDirect(release.rows);
    const published = readBbhPublishedAccuracies(dataDir);
    const reproduced = reproducedAccuracies(release.rows, published);
    const s = cotVsDirectSummary(cmp);
    const summary = `Macro average over ${s.tasks} tasks: answer-only ${s.direct.toFixed(1)}%, ` +
      `chain-of-thought ${s.cot.toFixed(1)}% (+${s.gain.toFixed(1)} points); CoT is better on ` +
      `${s.cotBetter} of ${s.tasks} tasks. Published accuracies reproduced: ${reproduced}/` +
      `${published.length}.`;
    return {
      data: { release },
      headline: [
        { figure: cotVsDirectFigure(cmp, { caption: summary }), name: "bbh_cot_vs_direct" },
        {
          table: cmp,
          name: "bbh_cot_vs_direct",
          options: {
            caption:
              "BBH release, code-davinci-002: answer-only vs chain-of-thought accuracy (%) per task",
            label: "tab:bbh-cot-vs-direct",
            digits: 1,
            note: summary,
          },
        },
      ],
      notes: [summary],
    };
  },
};
