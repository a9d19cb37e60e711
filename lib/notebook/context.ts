/**
 * What a notebook needs to know about its run — where the data and the user's run logs are,
 * where figures and tables go, how to report a step it had to skip — and the one way a
 * notebook writes a table or figure and shows it (`ctx.table`, `ctx.figure`, `ctx.show`).
 *
 * The main job passes `RUNLENS_DATA` and `RUNLENS_LOGS` to the kernel; a notebook opened by
 * hand falls back to the same defaults as the CLI.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { notebookContext, OUT_ENV } from "@runlens/notebook/context.ts";
 * const out = Deno.makeTempDirSync();
 * Deno.env.set(OUT_ENV, out); // default: figures/ and results/ of the checkout
 * const ctx = notebookContext();
 * if (!ctx.hasData("bbeh")) ctx.skip("Figure 3", "needs the BBEH data set");
 * const df = pl.DataFrame({ task: ["nycc"], accuracy: [12.5] });
 * await ctx.show(df); // shown in a Jupyter kernel, a no-op elsewhere
 * await ctx.table(df, "accuracy"); // writes results/accuracy.{csv,md,tex}, then shows it
 * const csv = Deno.readTextFileSync(`${out}/results/accuracy.csv`);
 * assert.equal(csv, "task,accuracy\nnycc,12.500\n");
 * Deno.env.delete(OUT_ENV);
 * Deno.removeSync(out, { recursive: true });
 * ```
 * @module
 */
import { join } from "node:path";
import { count } from "../core/count.ts";
import { exists, REPO_ROOT, resolveDataDir } from "../core/data_dir.ts";
import { figureBundle, saveFigure } from "../render/figure.ts";
import {
  isDataFrame,
  tableBundle,
  type TableInput,
  type TableOptions,
  writeTable,
} from "../render/table.ts";

/** Environment variable naming a folder of the user's run logs. */
export const LOGS_ENV = "RUNLENS_LOGS";

/** Environment variable redirecting `figures/` and `results/` (tests use a temp dir). */
export const OUT_ENV = "RUNLENS_OUT";

/** Paths and helpers for one notebook run. */
export interface NotebookContext {
  /** The data directory (`$RUNLENS_DATA`, else .runlens/data). */
  dataDir: string;
  /** Folder of run logs to score and place beside the published models, or null. */
  logsDir: string | null;
  /** Where figures are written: `figures/` of the repository, or of `$RUNLENS_OUT`. */
  figuresDir: string;
  /** Where tables are written: `results/` of the repository, or of `$RUNLENS_OUT`. */
  resultsDir: string;
  /** Whether the data directory holds `name` (e.g. "bbeh", "bbh", "big-bench-mistake"). */
  hasData(name: string): boolean;
  /** Report a skipped step (the main job lists these with the command that fetches data). */
  skip(what: string, why: string): void;
  /**
   * Write a table as `results/<name>.{csv,md,tex}` and show it (`opts.show`: the columns
   * shown, default all; every column is written). A table of more than {@link SHOWN_ROWS} rows
   * shows its first ones, with a note saying where all of them are.
   */
  table(
    input: TableInput,
    name: string,
    opts?: TableOptions & { show?: readonly string[] },
  ): Promise<void>;
  /** Write a figure (a Plot element) as `figures/<name>.{svg,png}` and show it. */
  figure(el: Element, name: string): Promise<void>;
  /**
   * Show `x` in the notebook without writing it: a frame or records as a table (formatted
   * by `opts`), a Plot element as a figure, anything else with a display bundle as it is.
   */
  show(x: unknown, opts?: TableOptions): Promise<void>;
}

/** `Deno.jupyter` when running in a Jupyter kernel, else undefined (`deno run`, tests). */
function jupyter(): typeof Deno.jupyter | undefined {
  try {
    return Deno.jupyter;
  } catch {
    return undefined;
  }
}

/** Show `x` in the kernel's output (nothing outside a kernel); see {@link NotebookContext.show}. */
async function show(x: unknown, opts?: TableOptions): Promise<void> {
  const display = jupyter()?.display;
  if (!display) return;
  if (isDataFrame(x) || Array.isArray(x)) {
    await display(tableBundle(x as TableInput, opts) as never);
  } else if (isPlotElement(x)) {
    await display(figureBundle(x as Element) as never);
  } else await display(x as never);
}

/**
 * Rows of a written table shown in the notebook: a longer table shows its first rows and says
 * where all of them are (a notebook of 378-row tables is neither readable nor small).
 */
export const SHOWN_ROWS = 30;

/** `input`'s first {@link SHOWN_ROWS} rows, with a note saying so when rows were left out. */
function firstRows(
  input: TableInput,
  opts: TableOptions,
  file: string,
): [TableInput, TableOptions] {
  const rows = Array.isArray(input) ? input.length : input.height;
  if (rows <= SHOWN_ROWS) return [input, opts];
  const head = Array.isArray(input) ? input.slice(0, SHOWN_ROWS) : input.head(SHOWN_ROWS);
  const more = `Showing the first ${SHOWN_ROWS} of ${count(rows)} rows; all are in ${file}.`;
  return [head, { ...opts, note: opts.note ? `${opts.note} ${more}` : more }];
}

/** A DOM element from Plot (jsdom's Element class is not the global one). */
function isPlotElement(x: unknown): boolean {
  return typeof x === "object" && x !== null && "outerHTML" in x && "tagName" in x;
}

/**
 * The context of the current notebook run.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const ctx = notebookContext(); // $RUNLENS_DATA, $RUNLENS_LOGS and $RUNLENS_OUT, or the defaults
 * assert.ok(ctx.resultsDir.endsWith("results"));
 * assert.equal(ctx.logsDir, Deno.env.get("RUNLENS_LOGS") ?? null);
 * ```
 */
export function notebookContext(): NotebookContext {
  const dataDir = resolveDataDir();
  const logs = Deno.env.get(LOGS_ENV);
  const out = Deno.env.get(OUT_ENV) || REPO_ROOT;
  return {
    dataDir,
    logsDir: logs ? logs : null,
    figuresDir: join(out, "figures"),
    resultsDir: join(out, "results"),
    hasData: (name) => exists(join(dataDir, name)),
    skip: (what, why) => console.log(`SKIPPED: ${what} (${why})`),
    table: async (input, name, opts = {}) => {
      const resultsDir = join(out, "results");
      writeTable(input, resultsDir, name, opts);
      const cols = opts.show;
      const shown = !cols
        ? input
        : Array.isArray(input)
        ? input.map((r) => Object.fromEntries(cols.map((c) => [c, r[c]])))
        : input.select(...cols);
      await show(...firstRows(shown, opts, `results/${name}.csv`));
    },
    figure: async (el, name) => {
      saveFigure(el, join(out, "figures"), name);
      await show(el);
    },
    show,
  };
}
