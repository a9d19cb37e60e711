/**
 * What a benchmark's notebook declares, so that every notebook opens the same way, on a result:
 * the benchmarks it analyses (the runs of the logs directory are restricted to them, other
 * benchmarks' rows listed as skipped), the data its runs need, the runs it shows when the logs
 * directory has none of its benchmarks (a demo), and how it opens — its data and its headline
 * table or figure, from the rows loaded. `openNotebook` (`lib/notebook/open.ts`) does the rest:
 * one call in the notebook's first code cell.
 *
 * A spec lives in its benchmark's folder (`lib/benchmarks/<name>/notebook.ts`); it computes from
 * rows and data sets, and never loads logs itself unless it reads a format the pipeline does not
 * score ({@link NotebookSpec.runs} false).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import type { NotebookSpec } from "@runlens/benchmarks/notebook.ts";
 * // a notebook whose headline counts the rows of each run
 * const counts: NotebookSpec<{ runs: number }> = {
 *   benchmarks: ["bbh"],
 *   open: ({ rows }) => {
 *     const perRun = rows === null ? pl.DataFrame({ run: [], n: [] }) : rows.groupBy("run").len();
 *     return { data: { runs: perRun.height }, headline: [{ table: perRun, name: "rows_per_run" }] };
 *   },
 * };
 * const opened = counts.open({ rows: null, synthetic: false, dataDir: "", logsDir: null, hasData: () => false });
 * assert.equal((opened as { data: { runs: number } }).data.runs, 0);
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import type { TableInput, TableOptions } from "../render/table.ts";
import type { BenchmarkRuns } from "./types.ts";

/** A table the notebook writes (`results/<name>.{csv,md,tex}`) and shows. */
export interface HeadlineTable {
  /** The table. */
  table: TableInput;
  /** Its file name, without extension. */
  name: string;
  /** How it is written; `show`: the columns shown (default all; every column is written). */
  options?: TableOptions & { show?: readonly string[] };
}

/** A figure (a Plot element) the notebook writes (`figures/<name>.{svg,png}`) and shows. */
export interface HeadlineFigure {
  /** The figure. */
  figure: Element;
  /** Its file name, without extension. */
  name: string;
}

/** A headline the notebook cannot show, and why (a missing data set): reported as skipped. */
export interface HeadlineSkipped {
  /** What was skipped. */
  skipped: string;
  /** Why it was skipped. */
  why: string;
}

/** One output of a notebook's headline. */
export type HeadlineOutput = HeadlineTable | HeadlineFigure | HeadlineSkipped;

/** What a notebook opens from. */
export interface NotebookInput {
  /**
   * Scored rows of the notebook's benchmarks from the logs directory (or the demo's), in the
   * row schema; null when no runs were loaded (no logs, or their data set is missing).
   */
  rows: pl.DataFrame | null;
  /** The rows are the demo's, generated (every title and caption must say so). */
  synthetic: boolean;
  /** The data directory (`$RUNLENS_DATA`, else .runlens/data). */
  dataDir: string;
  /** The logs directory (`$RUNLENS_LOGS`), or null when none is given. */
  logsDir: string | null;
  /** Whether the data directory holds `name` (e.g. "bbeh", "big-bench-mistake"). */
  hasData(name: string): boolean;
  /**
   * Load `paths` through the one pipeline, tying rows among the notebook's benchmarks only:
   * the first benchmark's rows with its columns (`benchmarkRows`), the others' in `others`,
   * each file read and every quarantined line. For a notebook that chooses its logs itself
   * ({@link NotebookSpec.runs} false); absent where no pipeline is at hand (a unit test).
   */
  load?(paths: readonly string[]): Promise<Omit<BenchmarkRuns, "summaryText">>;
}

/** How a notebook opens: its data for the later cells, its headline, and what to tell. */
export interface NotebookOpening<T> {
  /** What the notebook's later cells work on. */
  data: T;
  /** Shown first, in this order. */
  headline: readonly HeadlineOutput[];
  /** Lines printed under the headline (what the numbers are from, what was left out). */
  notes?: readonly string[];
  /** Steps left out for missing data: `[what, why]`, reported as skipped. */
  skips?: readonly (readonly [string, string])[];
}

/** Runs generated for a notebook whose logs directory holds none of its benchmarks. */
export interface NotebookDemo {
  /** What they are, as the notebook says it (e.g. "the SYNTHETIC demo run set"). */
  what: string;
  /** Write the demo's run logs into `dir`; returns the files written. */
  write(dataDir: string, dir: string): string[];
}

/** What a notebook declares; `openNotebook` opens it. */
export interface NotebookSpec<T> {
  /** The benchmarks it analyses (registry names); other benchmarks' rows are left out. */
  benchmarks: readonly string[];
  /**
   * Whether the runs of the logs directory are loaded (`loadRuns`) for it (default true).
   * False: the notebook chooses its logs itself and loads them with {@link NotebookInput.load}.
   */
  runs?: boolean;
  /** Data folders that scoring its runs needs: when one is missing, no runs are loaded. */
  needs?: readonly string[];
  /** Runs to analyse when the logs directory holds none of its benchmarks' rows. */
  demo?: NotebookDemo;
  /** Its data and headline, from the rows loaded. */
  open(input: NotebookInput): NotebookOpening<T> | Promise<NotebookOpening<T>>;
}
