/**
 * BBEH rows through the generic scoring of `score_rows.ts`: {@link scoreBbehRows} ties checked
 * canonical log rows to the BBEH data set and scores them with the official scorer (rows of
 * other benchmarks are quarantined as unsupported); {@link leanBbehRows} drops responses early
 * for big all-BBEH logs.
 *
 * @example
 * ```ts
 * import { scoreBbehRows } from "@runlens/benchmarks/bbeh/score_rows.ts";
 * const { rows, quarantine } = scoreBbehRows(readCanonicalLog("a.jsonl").rows, loadBbehDataset(dir));
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { type ScoredRows, scoreRows } from "../../pipeline/score_rows.ts";
import { BBEH_OFFICIAL, withBbehExtracted } from "./scorer.ts";
import { bbehTask, canonicalBbehTask } from "./tasks.ts";

/** Scored rows and the rows that could not be scored. */
export type ScoredBbehRows = ScoredRows;

/**
 * Turn checked rows into lean rows: `extracted` (the official scorer's normalised prediction,
 * {@link withBbehExtracted}) and `response_chars` computed, `response` dropped. Meant as
 * `readCanonicalLog`'s `mapRows` for logs of BBEH rows only, so that big logs never hold every
 * response at once; {@link scoreBbehRows} scores lean rows exactly as the full ones (their
 * `response` comes out null). Mixed logs use `leanRows` of `score_rows.ts`.
 *
 * @example
 * ```ts
 * const log = readCanonicalLog("big.jsonl", { mapRows: leanBbehRows });
 * ```
 */
export function leanBbehRows(rows: pl.DataFrame): pl.DataFrame {
  if (!rows.columns.includes("response")) return rows;
  return withBbehExtracted(
    rows.lazy().withColumns(pl.col("response").str.lengths().alias("response_chars")),
    "response",
  ).drop("response").collectSync();
}

/**
 * Tie rows (as {@link readCanonicalLog} returns them, several files concatenated) to the BBEH
 * data set (from {@link loadBbehDataset}), quarantine what cannot be tied, score the rest with
 * `bbeh-official`.
 *
 * @example
 * ```ts
 * const { rows } = scoreBbehRows(log.rows, dataset);
 * rows.select("task", "example_index", "extracted", "correct");
 * ```
 */
export function scoreBbehRows(rows: pl.DataFrame, dataset: pl.DataFrame): ScoredBbehRows {
  return scoreRows(rows, [{
    name: "bbeh",
    label: "BBEH",
    dataset,
    canonicalTask: canonicalBbehTask,
    taskSize: (t) => bbehTask(t).size,
    scorer: BBEH_OFFICIAL,
  }]);
}
