/**
 * The ARB notebook (05), as `openNotebook` opens it (`lib/benchmarks/notebook.ts`): the logs
 * directory is loaded through the one pipeline (`NotebookInput.load`), its ARB logs analysed
 * (`runs.ts`) and every other log file listed as skipped. Without
 * ARB logs it shows the small invented fixture set (`tests/fixtures/arb/illustrative`), labelled
 * ILLUSTRATIVE in every title, caption and file name. It opens on accuracy by model, subject and
 * answer type.
 *
 * @example Not run by `deno test --doc`: it executes a notebook's opening (tests/notebook_*.test.ts)
 * ```ts ignore
 * import { openNotebook } from "runlens/figures";
 * import { arb } from "runlens/benchmarks";
 * const nb = await openNotebook(arb.arbNotebook); // shows ARB accuracy
 * ```
 * @module
 */
import { join, relative } from "node:path";
import { REPO_ROOT } from "../../core/data_dir.ts";
import { count } from "../../core/count.ts";
import { discover } from "../../logs/discover.ts";
import { formatQuarantine } from "../../logs/quarantine.ts";
import { logFormats } from "../registry.ts";
import type { NotebookInput, NotebookSpec } from "../notebook.ts";
import { arbAccuracy } from "./accuracy.ts";
import { arbAccuracyFigure } from "./figures.ts";
import { type ArbLog, arbLogOf } from "./runs.ts";

/** The invented ARB runs shown when the logs directory holds none. */
export const ARB_ILLUSTRATIVE_DIR: string = join(
  REPO_ROOT,
  "tests",
  "fixtures",
  "arb",
  "illustrative",
);

/** What notebook 05's later cells work on. */
export interface ArbNotebookData {
  /** The loaded ARB runs. */
  log: ArbLog;
  /** The runs are the invented fixture set. */
  illustrative: boolean;
  /** "arb_illustrative" or "arb": every output file's prefix. */
  prefix: string;
  /** The ILLUSTRATIVE label, or "". */
  label: string;
  /** A caption or note, with the ILLUSTRATIVE label in front when it applies. */
  note(text: string): string;
}

/** Notebook 05: ARB accuracy (the headline), then unparseable answers and annotations. */
export const arbNotebook: NotebookSpec<ArbNotebookData> = {
  benchmarks: ["arb"],
  runs: false,
  open: async ({ logsDir, load }) => {
    const found = logsDir === null || !holdsLogs(logsDir)
      ? null
      : arbLogOf(await loaderOf(load)([logsDir]));
    const others = found?.others ?? [];
    const illustrative = found === null || found.log.files.length === 0;
    const label = illustrative ? "ILLUSTRATIVE FIXTURE DATA (invented, not real model runs)" : "";
    const prefix = illustrative ? "arb_illustrative" : "arb";
    const note = (text: string) => (illustrative ? `${label}. ${text}` : text);
    const log = illustrative
      ? arbLogOf(await loaderOf(load)([ARB_ILLUSTRATIVE_DIR])).log
      : found!.log;
    const acc = arbAccuracy(log.rows);
    return {
      data: { log, illustrative, prefix, label, note },
      headline: [
        {
          table: acc,
          name: `${prefix}_accuracy`,
          options: {
            caption: note("ARB accuracy by model, subject and answer type (%)"),
            label: `tab:${prefix}-accuracy`,
            digits: 1,
            note: note("n: auto-scored rows; CI: Wilson 95%."),
          },
        },
        {
          figure: arbAccuracyFigure(acc, { caption: illustrative ? label : undefined }),
          name: `${prefix}_accuracy`,
        },
      ],
      notes: [
        ...(illustrative ? [`no ARB runs in the logs directory: showing the ${label}`] : []),
        `${log.rowsIn} rows: ${log.rows.height} scored, ${log.quarantine.length} quarantined`,
        ...log.quarantine.map((q) => `  ${formatQuarantine(q)}`),
        ...(others.length === 0 ? [] : [otherFilesNote(others, logsDir!)]),
      ],
    };
  },
};

/** Whether `dir` holds a run log of any format (else there is nothing to load). */
function holdsLogs(dir: string): boolean {
  return discover([dir], { formats: logFormats() }).files.length > 0;
}

/** The notebook's loader (`openNotebook` gives one). */
function loaderOf(load: NotebookInput["load"]): NonNullable<NotebookInput["load"]> {
  if (!load) throw new Error("notebook 05 loads its logs itself: open it with openNotebook");
  return load;
}

/** "skipped: 4 log files that are not ARB logs (a.jsonl, …) — this notebook analyses ARB". */
function otherFilesNote(files: readonly string[], logsDir: string): string {
  const names = files.slice(0, 3).map((f) => relative(logsDir, f) || f);
  const more = files.length > names.length ? ", …" : "";
  return `skipped: ${count(files.length)} log file${files.length === 1 ? "" : "s"} that ` +
    `${files.length === 1 ? "is" : "are"} not ARB logs (${names.join(", ")}${more}) — this ` +
    "notebook analyses ARB";
}
