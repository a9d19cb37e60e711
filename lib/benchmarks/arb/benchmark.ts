/**
 * ARB as a registered {@link Benchmark}: its subjects are the tasks, its rows carry their own
 * problem and are tied by id, scored by answer type (`scoring.ts`), and its analyses are
 * `runlens arb` (`command.ts`). The typed columns of its rows ({@link ARB_COLUMNS}) come from
 * their `extra` (`benchmarkRows`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { arb } from "@runlens/benchmarks/arb/benchmark.ts";
 * assert.deepEqual(
 *   arb.tasks.map((t) => t.name),
 *   ["mathematics", "physics", "law", "mcat-reading", "mcat-science"],
 * );
 * assert.equal(arb.canonicalTask("MCAT (Science)"), "mcat-science");
 * assert.equal(arb.canonicalTask("chemistry"), null);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import type { Benchmark, BenchmarkAggregate } from "../types.ts";
import { ARB_ERROR_FLAGS, ARB_RUBRIC_FLAGS, ARB_RUBRIC_LIKERT } from "./fields.ts";
import { scoring } from "./scoring.ts";

/** The ARB columns after the row-schema columns, with their dtypes. */
export const ARB_COLUMNS: Record<string, pl.DataType> = {
  subject: pl.Utf8,
  answer_type: pl.Utf8,
  image: pl.Bool,
  status: pl.Utf8,
  detail: pl.Utf8,
  choices: pl.Utf8,
  rubric: pl.Utf8,
  human_score: pl.Float64,
  model_score: pl.Float64,
  ...Object.fromEntries(ARB_ERROR_FLAGS.map((f) => [f, pl.Bool])),
  ...Object.fromEntries(ARB_RUBRIC_LIKERT.map((f) => [f, pl.Float64])),
  ...Object.fromEntries(ARB_RUBRIC_FLAGS.map((f) => [f, pl.Bool])),
};

/**
 * One run's accuracy over its auto-scored rows (all subjects pooled; proofs and symbolic
 * answers the computer algebra cannot decide are graded by hand, so they are left out and
 * counted in the note). ARB's problems are not released, so coverage is unknown ("rows").
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({ correct: [true, false, null] }, { schema: { correct: pl.Bool } });
 * assert.deepEqual(arbAggregate(rows), {
 *   accuracy: 50,
 *   coverage: "rows",
 *   note: "1 of 3 rows not auto-scored (graded by hand)",
 * });
 * ```
 */
export function arbAggregate(rows: pl.DataFrame): BenchmarkAggregate {
  const correct = rows.getColumn("correct").toArray() as (boolean | null)[];
  const scored = correct.filter((c) => c !== null);
  const manual = correct.length - scored.length;
  return {
    accuracy: scored.length === 0 ? null : (100 * scored.filter((c) => c).length) / scored.length,
    coverage: "rows",
    note: manual === 0
      ? null
      : `${manual} of ${correct.length} rows not auto-scored (graded by hand)`,
  };
}

/** ARB. */
export const arb: Benchmark = {
  ...scoring,
  listOrder: 4,
  description: "ARB: Advanced Reasoning Benchmark (Sawada et al. 2023): mathematics, physics, " +
    "law and MCAT questions; scored by answer type.",
  scoringModule: new URL("./scoring.ts", import.meta.url).href,
  columns: ARB_COLUMNS,
  aggregate: arbAggregate,
  aggregateKeys: [{ key: "accuracy", label: "ARB accuracy (% of auto-scored rows)" }],
  commands: { arb: new URL("./command.ts", import.meta.url).href },
};
