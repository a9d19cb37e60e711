/**
 * The runs a notebook analyses: the user's logs directory when it holds run logs, else the
 * seeded SYNTHETIC BBEH demo run set (four models calibrated to the paper), generated into a
 * temporary folder, scored like any logs, and removed again.
 *
 * @example
 * ```ts
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const dataDir = resolveDataDir();
 * const { loaded, synthetic } = await loadRunsOrDemo(null, dataDir, loadBbehDataset(dataDir));
 * synthetic; // true: no logs directory, so the demo runs
 * loaded.runs.length; // 4
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import {
  generateSyntheticRuns,
  writeSyntheticLogs,
} from "../benchmarks/bbeh/synthetic/generate.ts";
import { paperDemoSpecs } from "../benchmarks/bbeh/synthetic/paper_demo.ts";
import { discover } from "../logs/discover.ts";
import { logFormats } from "../benchmarks/registry.ts";
import { type LoadedRuns, loadRuns } from "../pipeline/load.ts";

/** Whether `dir` holds at least one run log (false when it cannot be read). */
function holdsLogs(dir: string): boolean {
  return discover([dir], { formats: logFormats() }).files.length > 0;
}

/**
 * Load the runs of `logsDir`, or the synthetic demo runs when it is null or holds no log;
 * `synthetic` says which. `dataset` is the BBEH data set the demo answers.
 */
export async function loadRunsOrDemo(
  logsDir: string | null,
  dataDir: string,
  dataset: pl.DataFrame,
): Promise<{ loaded: LoadedRuns; synthetic: boolean }> {
  if (logsDir !== null && holdsLogs(logsDir)) {
    return { loaded: await loadRuns([logsDir], dataDir), synthetic: false };
  }
  const dir = await Deno.makeTempDir({ prefix: "runlens_synthetic_" });
  try {
    const files = writeSyntheticLogs(generateSyntheticRuns(dataset, paperDemoSpecs()), dir);
    console.log(
      `no run logs: generated the SYNTHETIC demo run set (${files.length} runs) in a temporary folder`,
    );
    return { loaded: await loadRuns([dir], dataDir), synthetic: true };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
