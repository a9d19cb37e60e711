/**
 * Subset labels inside BBEH tasks: which variant, direction, shape, size, bug, format or answer
 * kind each example belongs to, inferred from the text, the target or the position in task.json
 * (the release has no subset field). The rules live in `subsets/rules.ts`; this module applies
 * them with polars string expressions and checks that every example of a task with a kind gets
 * exactly one label of that kind.
 *
 * Full-set counts (they match the project notes): web_of_lies livebench 40 / cyclic 160;
 * geometric_shapes 4 × 50; spatial_reasoning forward 148 / backward 52 and circular 20,
 * hexagonal 25, rhombus 22, triangular 52, diamond 52, tree 29; zebra_puzzles 5x5 40, 6x6 36,
 * 7x7 74, 8x8 50; causal_understanding causal_judgement 142 / necessary 30 / sufficient 28;
 * object_counting sum 97 / absolute_difference 103; object_properties either 100 / neither 100;
 * word_sorting mistake_finding 100 / new_alphabet_sorting 100; shuffled_objects no_op_switches
 * 103 / named_actions 97; buggy_tables bug (7 kinds) and format; time_arithmetic answer_kind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * import { bbehSubsets, subsetAccuracy, withSubsets } from "@runlens/benchmarks/bbeh/subsets.ts";
 * const subsets = bbehSubsets(loadBbehDataset(resolveDataDir()));
 * // scored rows: task, example_index, correct (and run, model)
 * const scored = pl.DataFrame({
 *   run: ["r1", "r1", "r1"],
 *   task: ["spatial_reasoning", "spatial_reasoning", "spatial_reasoning"],
 *   example_index: [0, 1, 3], // forward, forward, backward
 *   correct: [true, false, false],
 * });
 * const table = subsetAccuracy(withSubsets(scored, subsets, "direction"));
 * // run, task, subset_kind, subset, n, correct, accuracy, ci_low, ci_high
 * assert.deepEqual(table.select("subset", "n", "accuracy").rows(), [
 *   ["backward", 1, 0],
 *   ["forward", 2, 50],
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { type BlockSubsetRule, SUBSET_RULES, type TextSubsetRule } from "./subsets/rules.ts";

export { ruleLabels, SUBSET_RULES, type SubsetRule, subsetRule } from "./subsets/rules.ts";
export { subsetAccuracy, withSubsets } from "./subsets/accuracy.ts";
export {
  type GeometricCheck,
  geometricShapesCheck,
  geometricShapesLabel,
} from "./subsets/geometry.ts";

/** Columns of the {@link bbehSubsets} frame. */
export const SUBSET_COLUMNS = ["task", "example_index", "subset_kind", "subset"] as const;

/** An empty subsets frame (the shape {@link bbehSubsets} returns). */
function emptySubsets(): pl.DataFrame {
  return pl.DataFrame({
    task: pl.Series("task", [], pl.Utf8),
    example_index: pl.Series("example_index", [], pl.Int32),
    subset_kind: pl.Series("subset_kind", [], pl.Utf8),
    subset: pl.Series("subset", [], pl.Utf8),
  });
}

/** Label expression and "number of patterns that matched" expression of a text rule. */
function textRuleExprs(rule: TextSubsetRule): { label: pl.Expr; matches: pl.Expr } {
  const hits = rule.patterns.map(([label, pattern]) => ({
    label,
    hit: pl.col(rule.source).str.contains(pattern),
  }));
  let chain = pl.when(hits[0].hit).then(pl.lit(hits[0].label));
  for (const h of hits.slice(1)) chain = chain.when(h.hit).then(pl.lit(h.label));
  const label = chain.otherwise(pl.lit(rule.otherwise ?? null).cast(pl.Utf8));
  const matches = hits
    .map((h) => h.hit.cast(pl.Int32))
    .reduce((a, b) => a.add(b));
  return { label, matches };
}

/** Label expression of a position rule (null past the last block). */
function blockRuleExpr(rule: BlockSubsetRule): pl.Expr {
  const idx = pl.col("example_index");
  let chain = pl.when(idx.lt(rule.blockSize)).then(pl.lit(rule.blocks[0]));
  rule.blocks.slice(1).forEach((label, b) => {
    chain = chain.when(idx.lt((b + 2) * rule.blockSize)).then(pl.lit(label));
  });
  return chain.otherwise(pl.lit(null).cast(pl.Utf8));
}

/**
 * Throw unless every example got exactly one label: no pattern matched twice, none was left
 * unlabelled, and the (task, kind) has one row per example of the task.
 */
function assertOneLabelEach(
  taskRows: pl.DataFrame,
  labelled: pl.DataFrame,
  rule: { task: string; kind: string },
): void {
  const where = `${rule.task}/${rule.kind}`;
  const indices = (df: pl.DataFrame) =>
    (df.getColumn("example_index").toArray() as number[]).slice(0, 20).join(", ");
  const ambiguous = labelled.filter(pl.col("matches").gt(1));
  if (ambiguous.height > 0) {
    throw new Error(
      `${where}: ${ambiguous.height} example(s) match several labels (indices ${
        indices(ambiguous)
      })`,
    );
  }
  const missing = labelled.filter(pl.col("subset").isNull());
  if (missing.height > 0) {
    throw new Error(
      `${where}: ${missing.height} example(s) match no label (indices ${indices(missing)})`,
    );
  }
  const distinct = labelled.getColumn("example_index").nUnique();
  if (labelled.height !== taskRows.height || distinct !== taskRows.height) {
    throw new Error(
      `${where}: ${labelled.height} labels for ${taskRows.height} examples ` +
        `(${distinct} distinct example indices)`,
    );
  }
}

/**
 * Subset labels for every example of the tasks that have subsets: columns `task`,
 * `example_index`, `subset_kind`, `subset`; one row per (example, kind), so spatial_reasoning
 * (direction + shape) and buggy_tables (bug + format) get two rows per example. Tasks without
 * subsets (e.g. boardgame_qa) get none. Takes the frame of `loadBbehDataset` (or any frame with
 * `task`, `example_index`, `input`, `target`, e.g. a filtered one). Throws when an example
 * matches no label or several labels of a kind.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * const subsets = bbehSubsets(loadBbehDataset(resolveDataDir()));
 * assert.equal(subsets.height, 2600); // 13 (task, kind) rules × 200 examples
 * const direction = subsets.filter(pl.col("subset_kind").eq(pl.lit("direction")));
 * assert.equal(direction.height, 200); // spatial_reasoning: 148 forward, 52 backward
 * assert.equal(direction.filter(pl.col("subset").eq(pl.lit("backward"))).height, 52);
 * ```
 */
export function bbehSubsets(dataset: pl.DataFrame): pl.DataFrame {
  const missing = ["task", "example_index", "input", "target"].filter(
    (c) => !dataset.columns.includes(c),
  );
  if (missing.length > 0) throw new Error(`bbehSubsets: dataset lacks ${missing.join(", ")}`);
  const parts: pl.DataFrame[] = [];
  for (const rule of SUBSET_RULES) {
    const taskRows = dataset.filter(pl.col("task").eq(pl.lit(rule.task)));
    if (taskRows.height === 0) continue;
    const exprs = rule.source === "position"
      ? { label: blockRuleExpr(rule), matches: pl.lit(1) }
      : textRuleExprs(rule);
    const labelled = taskRows.select(
      pl.col("task"),
      pl.col("example_index").cast(pl.Int32),
      pl.lit(rule.kind).alias("subset_kind"),
      exprs.label.alias("subset"),
      exprs.matches.alias("matches"),
    );
    assertOneLabelEach(taskRows, labelled, rule);
    parts.push(labelled.select(...SUBSET_COLUMNS));
  }
  return parts.length === 0 ? emptySubsets() : pl.concat(parts, { how: "vertical" });
}
