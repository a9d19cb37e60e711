/**
 * ARB's part of a load (`BenchmarkRuns`, as `runlens arb` and notebook 05 receive it): the
 * files that are ARB logs — their records carry ARB's fields (`subject` and `answer_type`, by
 * name or `--map`), or some row of theirs was tied to ARB — with their rows, records read and
 * quarantined lines; the other files are named apart.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const runs = {
 *   rows: pl.DataFrame({ source_file: ["a.jsonl"] }),
 *   quarantine: [{ file: "a.jsonl", line: 2, reason: "missing id" }, { file: "b.jsonl", line: 1, reason: "x" }],
 *   files: [{ file: "a.jsonl", rowsIn: 2, benchmark: "arb" }, { file: "b.jsonl", rowsIn: 1, benchmark: null }],
 * };
 * const { log, others } = arbLogOf(runs);
 * assert.deepEqual([log.files, log.rowsIn, log.quarantine.length, others], [["a.jsonl"], 2, 1, ["b.jsonl"]]);
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import type { QuarantineEntry } from "../../logs/quarantine.ts";
import type { BenchmarkRuns } from "../types.ts";

/** Loaded, scored ARB rows and the lines that were not scored. */
export interface ArbLog {
  /** The row-schema columns (`ROW_COLUMNS`), then `ARB_COLUMNS` (`benchmark.ts`). */
  rows: pl.DataFrame;
  /** The quarantined lines of the ARB files. */
  quarantine: QuarantineEntry[];
  /** Records read from the ARB files (rows + quarantine). */
  rowsIn: number;
  /** The ARB files read, in load order. */
  files: string[];
}

/** The ARB log of a load's runs, and the paths of the files that are not ARB logs. */
export function arbLogOf(
  runs: Pick<BenchmarkRuns, "rows" | "quarantine" | "files">,
): { log: ArbLog; others: string[] } {
  const withRows = new Set(runs.rows.getColumn("source_file").toArray() as string[]);
  const arb = runs.files.filter((f) => f.benchmark === "arb" || withRows.has(f.file));
  const files = new Set(arb.map((f) => f.file));
  return {
    log: {
      rows: runs.rows,
      quarantine: runs.quarantine.filter((q) => files.has(q.file)),
      rowsIn: arb.reduce((n, f) => n + f.rowsIn, 0),
      files: [...files],
    },
    others: runs.files.map((f) => f.file).filter((f) => !files.has(f)),
  };
}
