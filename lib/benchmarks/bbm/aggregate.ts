/**
 * The headline of a BIG-Bench Mistake run: first-mistake location accuracy over all 2,186
 * traces (percent of traces whose first mistake — or its absence — the answer names, each
 * trace's answers averaged first), with its Wilson interval clustered by trace. A run that
 * answers only some traces gets none: its per-task accuracies say what it covers.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({
 *   task: ["word_sorting", "word_sorting"], example_index: [0, 1], correct: [true, false],
 * });
 * assert.deepEqual(bbmAggregate(rows), { location_accuracy: null, coverage: "partial",
 *   note: "covers 2 of 2186 traces; location accuracy needs them all" });
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import { type HeadlineCI, microCI } from "../../stats/headline_ci.ts";
import type { BenchmarkAggregate } from "../types.ts";
import { scoring } from "./scoring.ts";

/** Traces of the release. */
const TRACES = scoring.tasks.reduce((n, t) => n + t.size!, 0);

/** Location accuracy with its interval (null: no rows). */
export function locationAccuracyCI(rows: pl.DataFrame): HeadlineCI | null {
  const tasks = rows.getColumn("task").toArray() as string[];
  const correct = rows.getColumn("correct").toArray();
  return microCI(
    rows.getColumn("example_index").toArray().map((trace, i) => ({
      stratum: tasks[i],
      example: trace as number,
      score: correct[i] ? 1 : 0,
    })),
  );
}

/** `location_accuracy` of one run when it answers every trace; else null, saying why. */
export function bbmAggregate(rows: pl.DataFrame): BenchmarkAggregate {
  const covered = rows.select("task", "example_index").unique().height;
  if (covered < TRACES) {
    const note = `covers ${covered} of ${TRACES} traces; location accuracy needs them all`;
    return { location_accuracy: null, coverage: "partial", note };
  }
  const note = rows.height === covered ? null : `several rows per trace (${rows.height} rows ` +
    `for ${covered} traces): each trace's rows are averaged first`;
  return { location_accuracy: locationAccuracyCI(rows)!.estimate, coverage: "full", note };
}
