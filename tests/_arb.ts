/**
 * Test helper: ARB logs loaded through the one pipeline as `runlens arb` and notebook 05 load
 * them (`loadRuns` with ARB only, `benchmarkRuns`, `arbLogOf`), with the nothing-lost check.
 */
import assert from "node:assert/strict";
import { arb } from "@runlens/benchmarks/arb/benchmark.ts";
import { type ArbLog, arbLogOf } from "@runlens/benchmarks/arb/runs.ts";
import { resolveDataDir } from "@runlens/core/data_dir.ts";
import { parseColumnMap } from "@runlens/logs/mapped.ts";
import { benchmarkRuns } from "@runlens/pipeline/benchmark_rows.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";

/** The ARB log of `paths`; `map` is a `--map` spec (`reference=gold,id=problem_id`). */
export async function loadArb(paths: string[], map?: string): Promise<ArbLog> {
  const dataDir = resolveDataDir();
  const loaded = await loadRuns(paths, dataDir, {
    benchmarks: ["arb"],
    ...map ? { map: parseColumnMap(map, arb.recordFields) } : {},
  });
  const { log } = arbLogOf(benchmarkRuns(loaded, "arb", [], dataDir));
  assert.equal(log.rowsIn, log.rows.height + log.quarantine.length); // nothing lost
  return log;
}
