/**
 * Test helpers for data-backed tests: the shared data directory, or a skip.
 *
 * Data-backed tests read the public data sets from `$RUNLENS_DATA` (CI: `../shared/data`).
 * Outside CI a missing directory skips them (Deno `ignore`); with `CI=true` a missing directory
 * is a failure, never a skip.
 *
 * @example In a test file (not run as a doc test: Deno.test cannot be called inside a test)
 * ```ts ignore
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * import { dataTest } from "./_data.ts";
 * dataTest("BBEH loads", (dir) => { loadBbehDataset(dir); });
 * ```
 * @module
 */
import { existsSync } from "node:fs";
import { resolveDataDir } from "@runlens/core/data_dir.ts";

/** The data directory tests use, and whether it is present. */
export const TEST_DATA_DIR = resolveDataDir(Deno.env.get("RUNLENS_DATA") ?? "../shared/data");
const present = existsSync(TEST_DATA_DIR);
const inCI = Deno.env.get("CI") === "true";

/** Register a test that needs the data directory (failing in CI when it is missing). */
export function dataTest(name: string, fn: (dataDir: string) => void | Promise<void>): void {
  Deno.test({
    name,
    ignore: !present && !inCI,
    fn: () => {
      if (!present) throw new Error(`CI=true but data directory ${TEST_DATA_DIR} is missing`);
      return fn(TEST_DATA_DIR);
    },
  });
}
