/**
 * First-mistake answers among rows of several benchmarks: each benchmark's rows through its
 * own {@link Benchmark.mistakeFinding} hook, the classified answers put together and the rows
 * left out listed by file and line. Names no benchmark: `runlens bbm` and
 * `lib/analyses/mistake_finding.ts` pass the benchmarks and their rows.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * const rows = pl.DataFrame({ source_file: ["a.jsonl"], source_line: [3] });
 * const none = { mistakeFinding: () => ({ classified: null, leftOut: [{ file: "a.jsonl", line: 3, reason: "no item" }] }) };
 * const found = findMistakes([{ benchmark: none, rows }], { dataDir: "unused" });
 * assert.equal(found.classified, null);
 * assert.deepEqual(found.leftOut.map((q) => q.line), [3]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { sortQuarantine } from "../logs/quarantine.ts";
import type { AnalysisContext, Benchmark, MistakeFinding } from "./types.ts";

/** One benchmark's rows, with the benchmark (its hook). */
export interface RowsOf {
  benchmark: Pick<Benchmark, "mistakeFinding">;
  rows: pl.DataFrame;
}

/** The first-mistake answers of every part whose benchmark has the hook (see the module doc). */
export function findMistakes(parts: readonly RowsOf[], ctx: AnalysisContext): MistakeFinding {
  const found = parts.flatMap(({ benchmark, rows }) =>
    benchmark.mistakeFinding && rows.height > 0 ? [benchmark.mistakeFinding(rows, ctx)] : []
  ).filter((f) => f !== null);
  const classified = found.flatMap((f) =>
    f.classified && f.classified.height > 0 ? [f.classified] : []
  );
  return {
    classified: classified.length > 0 ? pl.concat(classified, { how: "vertical" }) : null,
    leftOut: sortQuarantine(found.flatMap((f) => f.leftOut)),
  };
}
