/**
 * The failure modes at a glance: one row per model and headline failure mode of the paper —
 * BoardgameQA's "unknown" predictions (Table 5), Object Counting over- and under-counting
 * (Table 8, shares of all items), Dyck errors that missed the first mistake (A.6), Object
 * Properties answers saying the count cannot be determined (A.13) — with the share, its 95%
 * Wilson interval, count and n as the analyses computed them, beside the paper's value for the
 * same model (null when the paper gives none). Modes a run has no rows for are left out.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { failureHeadline } from "@runlens/benchmarks/bbeh/failure/headline.ts";
 * import { emptyShares } from "@runlens/benchmarks/bbeh/failure/shares.ts";
 * import type { FailureAnalyses } from "@runlens/benchmarks/bbeh/failure/summary.ts";
 * // GPT4o answered "unknown" on 3 of 4 labelled BoardgameQA items (the paper: 82.4%)
 * const boardgame = pl.DataFrame({
 *   run: ["r"], model: ["GPT4o"], task: ["boardgame_qa"], group: ["all"],
 *   measure: ["unknown_share"], count: [3], n: [4], share: [75], ci_low: [30.1], ci_high: [95.4],
 * });
 * const empty = emptyShares();
 * const an = { boardgame, objectCounting: empty, mistakeFinding: empty, objectProperties: empty };
 * const t = failureHeadline(an as unknown as FailureAnalyses);
 * assert.deepEqual(t.toRecords(), [{
 *   failure_mode: 'BoardgameQA: "unknown" predictions (Table 5)',
 *   model: "GPT4o", count: 3, n: 4, share: 75, ci_low: 30.1, ci_high: 95.4, paper: 82.4,
 * }]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { BBEH_APPENDIX_CLAIMS, BBEH_TABLE5, BBEH_TABLE8 } from "./paper.ts";
import type { FailureAnalyses } from "./summary.ts";

/** One headline failure mode: where the analyses hold it and what the paper says. */
interface HeadlineMode {
  label: string;
  table: "boardgame" | "objectCounting" | "mistakeFinding" | "objectProperties";
  task: string;
  measure: string;
  /** The paper's value per model (paper spelling). */
  paper: Readonly<Record<string, number>>;
}

const over = (m: "over" | "under") =>
  Object.fromEntries(Object.entries(BBEH_TABLE8.values).map(([model, v]) => [model, v[m]]));

/** The modes, in the order the table lists them. */
export const HEADLINE_MODES: readonly HeadlineMode[] = [
  {
    label: 'BoardgameQA: "unknown" predictions (Table 5)',
    table: "boardgame",
    task: "boardgame_qa",
    measure: "unknown_share",
    paper: BBEH_TABLE5.values,
  },
  {
    label: "Object Counting: over-counted, % of all items (Table 8)",
    table: "objectCounting",
    task: "object_counting",
    measure: "over_count_of_all",
    paper: over("over"),
  },
  {
    label: "Object Counting: under-counted, % of all items (Table 8)",
    table: "objectCounting",
    task: "object_counting",
    measure: "under_count_of_all",
    paper: over("under"),
  },
  {
    label: "Dyck Languages: errors that missed the first mistake (A.6)",
    table: "mistakeFinding",
    task: "dyck_languages",
    measure: "missed_first_share",
    paper: BBEH_APPENDIX_CLAIMS.dyckMissedFirst,
  },
  {
    label: "Object Properties: count said to be undeterminable (A.13)",
    table: "objectProperties",
    task: "object_properties",
    measure: "undetermined_share",
    paper: BBEH_APPENDIX_CLAIMS.objectPropertiesUndetermined,
  },
];

/**
 * The headline table of `an`: columns `failure_mode`, `model`, `count`, `n`, `share`,
 * `ci_low`, `ci_high` (percent), `paper` (percent or null). `paperName` maps a model to the
 * paper's spelling (e.g. the synthetic demo's "GPT4o (synthetic)" → "GPT4o").
 */
export function failureHeadline(
  an: FailureAnalyses,
  paperName: (model: string) => string = (m) => m,
): pl.DataFrame {
  const parts = HEADLINE_MODES.map((mode) => {
    const shares = an[mode.table].filter(
      pl.col("task").eq(pl.lit(mode.task))
        .and(pl.col("group").eq(pl.lit("all")))
        .and(pl.col("measure").eq(pl.lit(mode.measure)))
        .and(pl.col("n").gt(0)),
    );
    return shares.select(
      pl.lit(mode.label).alias("failure_mode"),
      pl.col("model").cast(pl.Utf8),
      pl.col("count").cast(pl.Int64),
      pl.col("n").cast(pl.Int64),
      pl.col("share").cast(pl.Float64),
      pl.col("ci_low").cast(pl.Float64),
      pl.col("ci_high").cast(pl.Float64),
    ).join(paperValues(shares, mode.paper, paperName), { on: "model", how: "left" });
  });
  return pl.concat(parts, { how: "vertical" });
}

/** The paper's value of each model of `shares` that it gives one for (no nulls: a join adds them). */
function paperValues(
  shares: pl.DataFrame,
  paper: Readonly<Record<string, number>>,
  paperName: (model: string) => string,
): pl.DataFrame {
  const models = (shares.getColumn("model").unique().toArray() as string[])
    .filter((m) => paper[paperName(m)] !== undefined);
  return pl.DataFrame({
    model: pl.Series("model", models, pl.Utf8),
    paper: pl.Series("paper", models.map((m) => paper[paperName(m)]), pl.Float64),
  });
}
