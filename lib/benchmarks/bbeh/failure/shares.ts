/**
 * The long "share table" every failure-mode analysis returns: one row per run, model, task,
 * group (a subset label, a gold label, or "all") and measure, with the count, its denominator
 * `n`, the share in percent and a 95% Wilson interval.
 *
 * Analyses describe each measure as two boolean polars expressions over the rows — `hit` (the
 * row shows the failure) and `of` (the row is in the denominator) — and {@link shareMeasures}
 * aggregates them in one vectorised `groupBy` per measure.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { SHARE_COLUMNS, shareMeasures } from "@runlens/benchmarks/bbeh/failure/shares.ts";
 * const rows = pl.DataFrame({
 *   run: ["r", "r"],
 *   model: ["m", "m"],
 *   task: ["t", "t"],
 *   ok: [true, false],
 * });
 * const ok = { measure: "ok_share", hit: pl.col("ok"), of: pl.lit(true) };
 * const table = shareMeasures(rows, [ok]);
 * // run r, model m, task t, group all, measure ok_share, count 1, n 2, share 50, ci 9.45–90.55
 * const [row] = table.toRecords();
 * assert.deepEqual(Object.keys(row), [...SHARE_COLUMNS]);
 * assert.deepEqual([row.group, row.count, row.n, row.share], ["all", 1, 2, 50]);
 * assert.deepEqual([row.ci_low, row.ci_high].map((x) => Number(x).toFixed(2)), ["9.45", "90.55"]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { wilsonInterval } from "../../../stats/wilson.ts";

/** Columns of a share table, in order. */
export const SHARE_COLUMNS = [
  "run",
  "model",
  "task",
  "group",
  "measure",
  "count",
  "n",
  "share",
  "ci_low",
  "ci_high",
] as const;

/** One measure: the rows counted (`hit` and `of`) out of the rows in the denominator (`of`). */
export interface ShareMeasure {
  /** The measure's name. */
  measure: string;
  /** The rows counted (within `of`). */
  hit: pl.Expr;
  /** The rows of the denominator. */
  of: pl.Expr;
}

/** Options of {@link shareMeasures}. */
export interface ShareOptions {
  /** Column holding the group label (default: every row in group "all"). */
  group?: string;
  /** Also add the pooled group "all" when `group` is given (default true). */
  withAll?: boolean;
}

/**
 * Throw naming the analysis and the missing columns unless `df` has all of `cols`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({ run: ["r1"], extracted: ["unknown"] });
 * assert.throws(
 *   () => requireColumns(rows, ["run", "model", "task"], "boardgameUnknownShare"),
 *   /^Error: boardgameUnknownShare: rows lack column\(s\) model, task$/,
 * );
 * ```
 */
export function requireColumns(df: pl.DataFrame, cols: readonly string[], who: string): void {
  const missing = cols.filter((c) => !df.columns.includes(c));
  if (missing.length > 0) throw new Error(`${who}: rows lack column(s) ${missing.join(", ")}`);
}

/** An empty share table. */
export function emptyShares(): pl.DataFrame {
  return pl.DataFrame({
    run: pl.Series("run", [], pl.Utf8),
    model: pl.Series("model", [], pl.Utf8),
    task: pl.Series("task", [], pl.Utf8),
    group: pl.Series("group", [], pl.Utf8),
    measure: pl.Series("measure", [], pl.Utf8),
    count: pl.Series("count", [], pl.Int32),
    n: pl.Series("n", [], pl.Int32),
    share: pl.Series("share", [], pl.Float64),
    ci_low: pl.Series("ci_low", [], pl.Float64),
    ci_high: pl.Series("ci_high", [], pl.Float64),
  });
}

/**
 * Add `share` (100 · count / n; null when n is 0), `ci_low` and `ci_high` (95% Wilson, percent)
 * to a frame with integer `count` and `n` columns.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const [row] = withShareStats(pl.DataFrame({ count: [1, 0], n: [4, 0] })).toRecords();
 * // share 25, 95% Wilson interval 4.56–69.94 (a row with n 0 gets nulls)
 * assert.deepEqual([row.share, Number(row.ci_low).toFixed(2), Number(row.ci_high).toFixed(2)], [
 *   25,
 *   "4.56",
 *   "69.94",
 * ]);
 * ```
 */
export function withShareStats(df: pl.DataFrame): pl.DataFrame {
  const count = df.getColumn("count").toArray() as number[];
  const n = df.getColumn("n").toArray() as number[];
  const cis = n.map((ni, i) => wilsonInterval(count[i], ni));
  const nullable = (name: string, v: (number | null)[]) =>
    v.length === 0 ? pl.Series(name, [], pl.Float64) : pl.Series(name, v).cast(pl.Float64);
  return df.withColumns(
    nullable("share", n.map((ni, i) => ni > 0 ? (100 * count[i]) / ni : null)),
    nullable("ci_low", cis.map((c) => c?.low ?? null)),
    nullable("ci_high", cis.map((c) => c?.high ?? null)),
  );
}

/**
 * Aggregate measures per run, model, task and group into a share table (see
 * {@link SHARE_COLUMNS}). `rows` needs `run`, `model`, `task` and the columns the expressions
 * use. Groups with n = 0 for a measure are kept (share null) so every measure is reported.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   run: ["r1", "r1", "r1"],
 *   model: ["m", "m", "m"],
 *   task: ["zebra_puzzles", "zebra_puzzles", "zebra_puzzles"],
 *   subset: ["5x5", "5x5", "8x8"],
 *   extracted: ["", "3", ""],
 * });
 * const noAnswer = pl.col("extracted").eq(pl.lit(""));
 * const measure = { measure: "no_answer_share", hit: noAnswer, of: pl.lit(true) };
 * const table = shareMeasures(rows, [measure], { group: "subset" });
 * // one row per group, the pooled "all" included (groups sorted)
 * assert.deepEqual(table.select("group", "count", "n", "share").rows(), [
 *   ["5x5", 1, 2, 50],
 *   ["8x8", 1, 1, 100],
 *   ["all", 2, 3, 200 / 3],
 * ]);
 * ```
 */
export function shareMeasures(
  rows: pl.DataFrame,
  measures: readonly ShareMeasure[],
  opts: ShareOptions = {},
): pl.DataFrame {
  requireColumns(rows, ["run", "model", "task"], "shareMeasures");
  if (rows.height === 0 || measures.length === 0) return emptyShares();
  const groupings: pl.Expr[] = [];
  if (opts.group) groupings.push(pl.col(opts.group).cast(pl.Utf8).fillNull(pl.lit("unlabelled")));
  if (!opts.group || opts.withAll !== false) groupings.push(pl.lit("all"));
  const parts: pl.DataFrame[] = [];
  for (const g of groupings) {
    const framed = rows.withColumns(g.alias("__group"));
    for (const [i, m] of measures.entries()) {
      const of = m.of.fillNull(false);
      parts.push(
        framed.groupBy(["run", "model", "task", "__group"]).agg(
          m.hit.fillNull(false).and(of).cast(pl.Int32).sum().cast(pl.Int32).alias("count"),
          of.cast(pl.Int32).sum().cast(pl.Int32).alias("n"),
        ).select(
          pl.col("run").cast(pl.Utf8),
          pl.col("model").cast(pl.Utf8),
          pl.col("task").cast(pl.Utf8),
          pl.col("__group").alias("group"),
          pl.lit(m.measure).alias("measure"),
          pl.col("count"),
          pl.col("n"),
          pl.lit(i).cast(pl.Int32).alias("__order"),
        ),
      );
    }
  }
  const long = pl.concat(parts, { how: "vertical" })
    .sort(["run", "model", "task", "group", "__order"]).drop("__order");
  return withShareStats(long).select(...SHARE_COLUMNS);
}

/**
 * One measure of a share table as a record `{count, n, share, ci_low, ci_high}`, or null when
 * absent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({ run: ["r1", "r1"], model: ["m", "m"], task: ["t", "t"], x: [1, 0] });
 * const x = { measure: "x_share", hit: pl.col("x").eq(1), of: pl.lit(true) };
 * const table = shareMeasures(rows, [x]);
 * assert.equal(shareOf(table, { run: "r1", measure: "x_share" })?.share, 50);
 * assert.equal(shareOf(table, { run: "r2", measure: "x_share" }), null);
 * ```
 */
export function shareOf(
  table: pl.DataFrame,
  where: { run?: string; task?: string; group?: string; measure: string },
):
  | {
    count: number;
    n: number;
    share: number | null;
    ci_low: number | null;
    ci_high: number | null;
  }
  | null {
  let df = table.filter(pl.col("measure").eq(pl.lit(where.measure)))
    .filter(pl.col("group").eq(pl.lit(where.group ?? "all")));
  if (where.run !== undefined) df = df.filter(pl.col("run").eq(pl.lit(where.run)));
  if (where.task !== undefined) df = df.filter(pl.col("task").eq(pl.lit(where.task)));
  if (df.height === 0) return null;
  if (df.height > 1) throw new Error(`shareOf: ${df.height} rows match ${JSON.stringify(where)}`);
  const r = df.toRecords()[0] as Record<string, number | null>;
  return {
    count: Number(r.count),
    n: Number(r.n),
    share: r.share,
    ci_low: r.ci_low,
    ci_high: r.ci_high,
  };
}
