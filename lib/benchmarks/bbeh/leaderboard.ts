/**
 * The BBEH leaderboard: the paper's published models (Table 2 per-task accuracies, its BBEH
 * harmonic-mean row, Table 4 micro averages) and the user's scored runs in one table with
 * columns `model, source, <23 canonical tasks>, harmonic_mean, micro, ci_low, ci_high`: the
 * last two are the 95% interval of a run's harmonic mean (seeded bootstrap over examples
 * stratified by task, `bbehIntervals`), null for the paper's models and for partial runs.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { leaderboard } from "@runlens/benchmarks/bbeh/leaderboard.ts";
 * const table = leaderboard(); // the 13 published columns as rows
 * assert.equal(table.height, 13);
 * const top = table.row(0); // highest harmonic mean first
 * assert.equal(top[0], "o3-mini (high)");
 * assert.deepEqual(top.slice(-4), [44.8, 54.2, null, null]); // harmonic_mean, micro, ci_low, ci_high
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { BBEH_SIZE, BBEH_TASK_NAMES } from "./tasks.ts";
import { BBEH_TABLE2, BBEH_TABLE4 } from "./published.ts";
import { bbehAggregate, bbehIntervals, taskAccuracy } from "./aggregate.ts";

/** Columns of the leaderboard, in order. */
export const LEADERBOARD_COLUMNS = [
  "model",
  "source",
  ...BBEH_TASK_NAMES,
  "harmonic_mean",
  "micro",
  "ci_low",
  "ci_high",
] as const;

type LeaderboardRow = Record<string, string | number | null>;

/** The paper's models: Table 2 per-task accuracies and BBEH row, Table 4 micro averages. */
export function publishedLeaderboardRows(): LeaderboardRow[] {
  return BBEH_TABLE2.models.map((model) => ({
    model,
    source: "paper (Tables 2, 4)",
    ...BBEH_TABLE2.accuracy[model],
    harmonic_mean: BBEH_TABLE2.bbeh[model],
    micro: BBEH_TABLE4.values[model] ?? null,
  }));
}

/**
 * One leaderboard row per run of scored BBEH rows (row schema: run, model, task,
 * example_index, correct). Aggregates (and the harmonic mean's interval) are null unless the
 * run covers the full set; the source says how much a partial run covers.
 */
export function runLeaderboardRows(scored: pl.DataFrame): LeaderboardRow[] {
  const runs = scored.select("run", "model").unique({ maintainOrder: true }).toRecords();
  return runs.map(({ run, model }) => {
    const rows = scored.filter(pl.col("run").eq(pl.lit(run as string)));
    const aggregate = bbehAggregate(rows);
    const ci = aggregate.harmonic_mean === null
      ? undefined
      : bbehIntervals(rows, aggregate).harmonic_mean;
    const perTask = Object.fromEntries(
      taskAccuracy(rows).toRecords().map((r) => [r.task as string, r.accuracy as number]),
    );
    const examples = rows.select("task", "example_index").unique().height;
    const coverage = aggregate.coverage === "full"
      ? "full set"
      : `${aggregate.coverage}: ${examples}/${BBEH_SIZE} examples`;
    return {
      model: model as string,
      source: `run ${run} (${coverage})`,
      ...Object.fromEntries(BBEH_TASK_NAMES.map((t) => [t, perTask[t] ?? null])),
      harmonic_mean: aggregate.harmonic_mean,
      micro: aggregate.micro,
      ci_low: ci?.ci_low ?? null,
      ci_high: ci?.ci_high ?? null,
    };
  });
}

/**
 * The leaderboard: published models plus any scored runs, sorted by harmonic mean (highest
 * first; rows without one last, by model name).
 */
export function leaderboard(scored?: pl.DataFrame): pl.DataFrame {
  const rows = [...publishedLeaderboardRows(), ...(scored ? runLeaderboardRows(scored) : [])];
  const schema = Object.fromEntries(
    LEADERBOARD_COLUMNS.map((c) => [c, c === "model" || c === "source" ? pl.Utf8 : pl.Float64]),
  );
  const columns = LEADERBOARD_COLUMNS.map((c) =>
    pl.Series(c, rows.map((r) => r[c] ?? null), schema[c])
  );
  return pl.DataFrame(columns)
    .sort(["harmonic_mean", "model"], [true, false], true);
}
