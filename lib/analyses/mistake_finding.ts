/**
 * Mistake finding over a logs directory: the logs loaded ONCE through the pipeline (every
 * benchmark, rows without a scorer quarantined with the reason), then the rows of each
 * benchmark with a {@link Benchmark.mistakeFinding} hook classified by it; the rows of the
 * others are listed as skipped. What notebook 03 shows for its logs directory.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * // a toy release and a run over it, its step numbering stated by the scorer
 * const logs = ["tests/fixtures/bbm/runs"], data = "tests/fixtures/bbm";
 * const found = await classifyMistakes(logs, data, { scorers: { bbm: "bbm-one-based" } });
 * const outcomes = found.classified!.getColumn("outcome").toArray();
 * assert.deepEqual(outcomes.slice(0, 3), ["correct", "early", "late"]);
 * // without a numbering the answers are not scored, and the load says why
 * const none = await classifyMistakes(logs, data);
 * assert.equal(none.classified, null);
 * assert.match(none.notScored[0], /^8 bbm rows not scored: bbm rows need a scorer: --scorer bbm=/);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { benchmarks } from "../benchmarks/registry.ts";
import { findMistakes } from "../benchmarks/mistakes.ts";
import type { MistakeFinding } from "../benchmarks/types.ts";
import { count } from "../core/count.ts";
import type { QuarantineEntry } from "../logs/quarantine.ts";
import { keepBenchmarks, type SkippedRows } from "../pipeline/keep_benchmarks.ts";
import { type LoadOptions, loadRuns, resolveLoadPlan } from "../pipeline/load.ts";

/** What {@link classifyMistakes} found in the logs. */
export interface MistakesInLogs extends MistakeFinding {
  /** Per benchmark whose rows had no scorer: how many, and how to give them one. */
  notScored: string[];
  /** The lines the load quarantined (the rows without a scorer too), by file and line. */
  quarantine: QuarantineEntry[];
  /** The files that could not be read, with the reason. */
  errors: { file: string; reason: string }[];
  /** The load's other warnings (a data set missing, …), the files not read first. */
  warnings: string[];
  /** The rows of benchmarks without the hook, left out (per run and benchmark). */
  otherBenchmarks: SkippedRows[];
}

/**
 * Load `paths` once and classify every first-mistake answer in them (see the module doc).
 * `options` are the load's: e.g. `scorers` states a numbering, `scorerHints` how to state one.
 */
export async function classifyMistakes(
  paths: readonly string[],
  dataDir: string,
  options: LoadOptions = {},
): Promise<MistakesInLogs> {
  const load: LoadOptions = { unscored: "quarantine", ...options };
  const plan = await resolveLoadPlan(dataDir, load);
  const hooked = benchmarks().filter((b) => b.mistakeFinding);
  const all = await loadRuns(paths, dataDir, load);
  const { loaded, skipped } = keepBenchmarks(all, hooked.map((b) => b.name));
  const rowsOf = (name: string) => loaded.rows.filter(pl.col("benchmark").eq(pl.lit(name)));
  const found = findMistakes(
    hooked.map((benchmark) => ({ benchmark, rows: rowsOf(benchmark.name) })),
    { dataDir, dataSets: loaded.dataSets },
  );
  const notScored = plan.benchmarks.flatMap(({ benchmark, unscored }) => {
    const n = loaded.quarantine.filter((q) => q.reason === unscored).length;
    return n === 0 ? [] : [`${count(n)} ${benchmark.name} rows not scored: ${unscored}`];
  });
  return {
    ...found,
    notScored,
    quarantine: loaded.quarantine,
    errors: all.errors,
    warnings: [
      ...all.errors.map((e) => `${e.file}: ${e.reason}`),
      ...loaded.warnings.filter((w) => !notScored.includes(w)),
    ],
    otherBenchmarks: skipped,
  };
}
