/**
 * Score: the rows `identify.ts` tied to examples get the data set's input and target and
 * their benchmark's scorer (any registered one, chosen per benchmark); rows the scorer gives
 * no verdict (e.g. `stored` on a row without a stored verdict) are quarantined with the rows
 * identification set apart. `bbeh-official` keeps its own fast path, including lean rows from
 * {@link leanRows}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreRows } from "@runlens/pipeline/score.ts";
 * import { benchmarkSpec } from "@runlens/pipeline/identify.ts";
 * import { readLogs } from "@runlens/pipeline/read.ts";
 * import { getBenchmark } from "@runlens/benchmarks/registry.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const [bbehSpec, bbhSpec] = ["bbeh", "bbh"]
 *   .map((b) => benchmarkSpec(getBenchmark(b)!, resolveDataDir()));
 * const log = readLogs(["tests/fixtures/logs/mixed.jsonl"]);
 * const { rows, quarantine } = scoreRows(log.rows, [bbehSpec, bbhSpec]);
 * rows.select("task", "example_index", "extracted", "correct", "scorer");
 * assert.deepEqual(rows.row(0).slice(0, 4), ["mixed", "model-x", "bbeh", "linguini"]); // schema
 * assert.equal(rows.height + quarantine.length, log.rows.height); // 4 + 6
 * ```
 * @module
 */
import pl from "nodejs-polars";
import {
  BBEH_OFFICIAL,
  bbehExtract,
  bbehFuzzyMatch,
  bbehNormalizeTarget,
} from "../benchmarks/bbeh/scorer.ts";
import { getScorer } from "../benchmarks/registry.ts";
import { conformRows } from "../core/schema.ts";
import { PY_WHITESPACE } from "../core/python.ts";
import { scoreFrame } from "../scorers/frame.ts";
import {
  type BenchmarkSpec,
  identifyRows,
  quarantineOf,
  type ScoredQuarantine,
  splitProblems,
} from "./identify.ts";

/** Scored rows and the rows that could not be scored. */
export interface ScoredRows {
  /** Row schema, in input order. */
  rows: pl.DataFrame;
  quarantine: ScoredQuarantine[];
}

const NULL_TEXT = pl.lit(null).cast(pl.Utf8);
/** The row's benchmark as compared with {@link BenchmarkSpec.name}. */
const BENCH = pl.col("benchmark").str.stripChars(PY_WHITESPACE).str.toLowerCase();

/**
 * Identify rows (as the log readers return them, several files concatenated) and score the
 * ones tied to an example with each benchmark's scorer; everything else is quarantined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { benchmarkSpec } from "@runlens/pipeline/identify.ts";
 * import { readLogs } from "@runlens/pipeline/read.ts";
 * import { getBenchmark } from "@runlens/benchmarks/registry.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const spec = benchmarkSpec(getBenchmark("bbeh")!, resolveDataDir());
 * const log = readLogs(["tests/fixtures/logs/tree/a.jsonl"]);
 * const { rows } = scoreRows(log.rows, [spec]);
 * assert.deepEqual(rows.select("task", "example_index", "extracted", "correct").toRecords()[1],
 *   { task: "boardgame_qa", example_index: 1, extracted: "disproved", correct: true });
 * ```
 */
export function scoreRows(rows: pl.DataFrame, specs: readonly BenchmarkSpec[]): ScoredRows {
  const identified = identifyRows(rows, specs);
  const scored = splitProblems(
    score(identified.rows, identified.dataset, specs),
    identified.failed,
  );
  return { rows: conformRows(scored), quarantine: quarantineOf(identified.failed, specs) };
}

/**
 * Lean rows for big logs: `response_chars` computed; on the rows that `bbeh-official` will
 * score (benchmark bbeh, when `bbehScorer` is it) `extracted` computed and `response` set to
 * null, so that big BBEH logs never hold every response at once. Other rows keep their
 * response (their scorer needs it). Every call gives the same columns, whatever the rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readCanonicalLog } from "@runlens/logs/canonical.ts";
 * const log = readCanonicalLog("tests/fixtures/logs/tree/a.jsonl", {
 *   mapRows: (r) => leanRows(r, "bbeh-official"), // a big log: block by block
 * });
 * assert.deepEqual(log.rows.select("response", "extracted", "response_chars").row(0),
 *   [null, "proved", 21]);
 * ```
 */
export function leanRows(rows: pl.DataFrame, bbehScorer: string = BBEH_OFFICIAL): pl.DataFrame {
  if (!rows.columns.includes("response")) return rows;
  const chars = pl.col("response").str.lengths().alias("response_chars");
  if (bbehScorer !== BBEH_OFFICIAL) {
    return rows.withColumns(NULL_TEXT.alias("extracted"), chars);
  }
  const lean = rows.select(BENCH.eq(pl.lit("bbeh")).fillNull(false).alias("lean"))
    .getColumn("lean").toArray() as boolean[];
  const responses = rows.getColumn("response").toArray() as (string | null)[];
  const extracted = responses.map((r, i) => lean[i] && r !== null ? bbehExtract(r) : null);
  return rows.withColumns(
    chars,
    pl.Series("extracted", extracted, pl.Utf8),
    pl.Series("__lean", lean, pl.Bool),
  ).withColumns(
    pl.when(pl.col("__lean")).then(NULL_TEXT).otherwise(pl.col("response")).alias("response"),
  ).drop("__lean");
}

/**
 * Join the data set's input and target, score each benchmark's rows with its scorer, and
 * return row-schema columns plus `__rid` and `__problem` ("no_verdict" where the scorer gave
 * none), in input order.
 */
function score(
  df: pl.DataFrame,
  dataset: pl.DataFrame,
  specs: readonly BenchmarkSpec[],
): pl.DataFrame {
  const ds = dataset.select(
    "__bench",
    pl.col("task").alias("__task"),
    "example_index",
    "input",
    "target",
    "input_chars",
  );
  let joined = df.join(ds, { on: ["__bench", "__task", "example_index"], how: "left" });
  for (const [c, type] of [["response", pl.Utf8], ["extracted", pl.Utf8]] as const) {
    if (!joined.columns.includes(c)) joined = joined.withColumns(pl.lit(null).cast(type).alias(c));
  }
  const chars = pl.col("response").str.lengths().cast(pl.Int32);
  joined = joined.withColumns(
    (joined.columns.includes("response_chars")
      ? pl.col("response_chars").cast(pl.Int32).fillNull(chars)
      : chars).alias("response_chars"),
    storedCorrect().alias("stored_correct"),
  );
  const parts: pl.DataFrame[] = [];
  for (const spec of specs) {
    const rows = joined.filter(pl.col("__bench").eq(pl.lit(spec.name)));
    if (rows.height === 0) continue;
    parts.push(...scoreBenchmark(rows, spec));
  }
  if (parts.length === 0) return emptyScored(joined);
  const scored = pl.concat(parts.map(toSchema), { how: "vertical" }).sort("__rid");
  return scored.withColumns(
    pl.when(pl.col("correct").isNull()).then(pl.lit("no_verdict")).otherwise(NULL_TEXT)
      .alias("__problem"),
  );
}

/** Score one benchmark's rows: `extracted`, `correct`, `scorer` added. */
function scoreBenchmark(rows: pl.DataFrame, spec: BenchmarkSpec): pl.DataFrame[] {
  if (spec.scorer !== BBEH_OFFICIAL) {
    const missing = rows.filter(pl.col("response").isNull()).height;
    if (missing > 0) {
      throw new Error(
        `internal error: ${missing} ${spec.label} row(s) without a response for scorer ` +
          spec.scorer,
      );
    }
    return [scoreFrame(rows.lazy(), getScorer(spec.scorer), { task: "__task" })];
  }
  return [scoreBbehOfficial(rows).withColumns(pl.lit(BBEH_OFFICIAL).alias("scorer"))];
}

/**
 * `extracted` and `correct` of `bbeh-official` on rows with `response`, `extracted` and
 * `target`: from the response where there is one, else from the `extracted` that
 * {@link leanRows} computed with the same rule (the response was dropped).
 */
function scoreBbehOfficial(rows: pl.DataFrame): pl.DataFrame {
  const responses = rows.getColumn("response").toArray() as (string | null)[];
  const extracted = rows.getColumn("extracted").toArray() as (string | null)[];
  const targets = rows.getColumn("target").toArray() as (string | null)[];
  const correct = responses.map((r, i) => {
    if (r !== null) extracted[i] = bbehExtract(r);
    const x = extracted[i], t = targets[i];
    return x === null || t === null ? null : bbehFuzzyMatch(x, bbehNormalizeTarget(t));
  });
  return rows.withColumns(
    pl.Series("extracted", extracted, pl.Utf8),
    pl.Series("correct", correct, pl.Bool),
  );
}

/** The row-schema columns (and `__rid`) of a scored part. */
function toSchema(df: pl.DataFrame): pl.DataFrame {
  return df.select(
    pl.col("__rid"),
    pl.col("__bench"),
    pl.col("__task"),
    pl.col("run"),
    pl.col("model"),
    pl.col("__bench").alias("benchmark"),
    pl.col("__task").alias("task"),
    pl.col("example_index"),
    NULL_TEXT.alias("example_id"),
    NULL_TEXT.alias("subset"),
    pl.col("epoch"),
    pl.col("input"),
    pl.col("target"),
    pl.col("response"),
    pl.col("extracted").cast(pl.Utf8),
    pl.col("correct").cast(pl.Bool),
    pl.col("scorer").cast(pl.Utf8),
    pl.col("input_chars"),
    pl.col("response_chars"),
    pl.col("response_tokens"),
    pl.col("source_file"),
    pl.col("source_line"),
    pl.col("stored_correct"),
    pl.col("extra"),
  );
}

function emptyScored(joined: pl.DataFrame): pl.DataFrame {
  return toSchema(
    joined.head(0).withColumns(
      pl.lit(null).cast(pl.Bool).alias("correct"),
      NULL_TEXT.alias("scorer"),
    ),
  ).withColumns(NULL_TEXT.alias("__problem"));
}

/**
 * The evaluation tool's own verdict, which the readers keep as `stored_correct` in `extra`
 * (true/false; null when absent).
 */
function storedCorrect(): pl.Expr {
  const v = pl.col("extra").str.jsonPathMatch("$.stored_correct");
  return pl.when(v.eq(pl.lit("true"))).then(pl.lit(true))
    .when(v.eq(pl.lit("false"))).then(pl.lit(false))
    .otherwise(pl.lit(null).cast(pl.Bool));
}
