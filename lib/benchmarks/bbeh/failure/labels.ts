/**
 * Row helpers shared by the failure-mode analyses: subset labels read from the rows' own
 * question text, "did the response state a final answer", degenerate output, and numeric answers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { hasFinalAnswer, withSubsetLabel } from "@runlens/benchmarks/bbeh/failure/labels.ts";
 * // a run log: two object_counting items, the second without a final answer
 * const log = Deno.makeTempFileSync({ suffix: ".csv" });
 * Deno.writeTextFileSync(
 *   log,
 *   `run,model,task,example_index,response
 * r1,m,object_counting,0,The answer is: 131
 * r1,m,object_counting,1,Let me add them up: 12 + 40 + …
 * `,
 * );
 * const { rows } = await loadRuns([log], resolveDataDir());
 * Deno.removeSync(log);
 * const labelled = withSubsetLabel(rows, "object_counting", "variant"); // + column `subset`
 * assert.deepEqual(labelled.getColumn("subset").toArray(), ["absolute_difference", "sum"]);
 * const unanswered = labelled.filter(hasFinalAnswer().not());
 * assert.deepEqual(unanswered.getColumn("example_index").toArray(), [1]);
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
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * // any rows with task, example_index, input and target: here the first zebra puzzles
 * const rows = loadBbehDataset(resolveDataDir())
 *   .filter(pl.col("task").eq(pl.lit("zebra_puzzles")))
 *   .head(3);
 * const sizes = withSubsetLabel(rows, "zebra_puzzles", "size").getColumn("subset");
 * assert.deepEqual(sizes.toArray(), ["7x7", "7x7", "5x5"]);
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
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   response: ["Counting… The answer is: 12", "The answer is: ", "It is 12."],
 *   extracted: ["12", "", "it is 12"],
 * });
 * const answered = rows.withColumns(hasFinalAnswer().alias("answered")).getColumn("answered");
 * assert.deepEqual(answered.toArray(), [true, false, false]);
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
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * // 21 lines, 2 distinct, no final answer: degenerate
 * const loop = ["Let me think.", ...Array(20).fill("I keep going around.")].join("\n");
 * const rows = pl.DataFrame({
 *   response: [loop, "The answer is: 12"],
 *   extracted: ["let me think", "12"],
 * });
 * const degenerate = rows.withColumns(isDegenerate().alias("degenerate")).getColumn("degenerate");
 * assert.deepEqual(degenerate.toArray(), [true, false]);
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
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({ extracted: ["12", " 3.5", "-2", "1e3", "twelve"] });
 * const value = rows.withColumns(numericAnswer().alias("value")).getColumn("value");
 * assert.deepEqual(value.toArray(), [12, 3.5, -2, null, null]);
 * ```
 */
export function numericAnswer(col = "extracted"): pl.Expr {
  const e = pl.col(col).str.stripChars(" \t\n");
  return pl.when(e.str.contains("^[+-]?\\d+(?:\\.\\d+)?$"))
    .then(e.cast(pl.Float64, false))
    .otherwise(pl.lit(null).cast(pl.Float64));
}
