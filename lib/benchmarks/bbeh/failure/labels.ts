/**
 * Row helpers shared by the failure-mode analyses: subset labels read from the rows' own
 * question text, "did the response state a final answer", degenerate output, and numeric answers.
 *
 * @example
 * ```ts
 * import { withSubsetLabel, hasFinalAnswer } from "@runlens/benchmarks/bbeh/failure/labels.ts";
 * const labelled = withSubsetLabel(rows, "object_counting", "variant"); // + column `subset`
 * labelled.filter(hasFinalAnswer().not());
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { bbehSubsets } from "../subsets.ts";
import { BBEH_ANSWER_PREFIXES } from "../scorer.ts";
import { requireColumns } from "./shares.ts";

/**
 * Rows of one task with a `subset` column of the given kind (replacing any `subset` column),
 * labelled from the rows' `input`/`target` with the rules of `subsets/rules.ts`.
 *
 * @example
 * ```ts
 * withSubsetLabel(rows, "zebra_puzzles", "size").getColumn("subset"); // "5x5", …
 * ```
 */
export function withSubsetLabel(rows: pl.DataFrame, task: string, kind: string): pl.DataFrame {
  requireColumns(rows, ["task", "example_index", "input", "target"], "withSubsetLabel");
  const own = rows.filter(pl.col("task").eq(pl.lit(task)));
  const base = own.columns.includes("subset") ? own.drop("subset") : own;
  if (own.height === 0) return base.withColumns(pl.lit(null).cast(pl.Utf8).alias("subset"));
  const examples = own.select(
    pl.col("task"),
    pl.col("example_index").cast(pl.Int32),
    pl.col("input"),
    pl.col("target"),
  ).unique({ subset: ["task", "example_index"], keep: "first", maintainOrder: true });
  const labels = bbehSubsets(examples)
    .filter(pl.col("subset_kind").eq(pl.lit(kind)))
    .select("task", "example_index", "subset");
  return base.withColumns(pl.col("example_index").cast(pl.Int32))
    .join(labels, { on: ["task", "example_index"], how: "left" });
}

/**
 * Whether the response states a final answer the official way: it contains one of the official
 * answer prefixes ("The answer is:", …) and the extracted answer is not empty.
 *
 * @example
 * ```ts
 * rows.withColumns(hasFinalAnswer().alias("answered"));
 * ```
 */
export function hasFinalAnswer(response = "response", extracted = "extracted"): pl.Expr {
  const prefixed = BBEH_ANSWER_PREFIXES
    .map((p) => pl.col(response).str.contains(p, true))
    .reduce((a, b) => a.or(b));
  return prefixed.and(pl.col(extracted).str.lengths().gt(0)).fillNull(false);
}

/** Minimum number of lines before an answer-less response can count as degenerate. */
export const DEGENERATE_MIN_LINES = 20;

/**
 * Degenerate output: no final answer, and at least {@link DEGENERATE_MIN_LINES} lines of which
 * fewer than half are distinct (the model looped until it ran out of tokens).
 *
 * @example
 * ```ts
 * rows.withColumns(isDegenerate().alias("degenerate"));
 * ```
 */
export function isDegenerate(response = "response", extracted = "extracted"): pl.Expr {
  const lines = pl.col(response).str.split("\n");
  const n = lines.lst.lengths();
  const distinct = lines.lst.unique().lst.lengths();
  return hasFinalAnswer(response, extracted).not()
    .and(n.gtEq(DEGENERATE_MIN_LINES))
    .and(distinct.cast(pl.Float64).mul(2).lt(n.cast(pl.Float64)))
    .fillNull(false);
}

/**
 * The extracted answer as a number (null when it is not a plain decimal number).
 *
 * @example
 * ```ts
 * rows.withColumns(numericAnswer().alias("value"));
 * ```
 */
export function numericAnswer(col = "extracted"): pl.Expr {
  const e = pl.col(col).str.stripChars(" \t\n");
  return pl.when(e.str.contains("^[+-]?\\d+(?:\\.\\d+)?$"))
    .then(e.cast(pl.Float64, false))
    .otherwise(pl.lit(null).cast(pl.Float64));
}
