/**
 * Where the public data sets live: `--data DIR`, else `$RUNLENS_DATA`, else the git-ignored
 * cache `.runlens/data` of this checkout (filled by `deno task runlens fetch-data`).
 *
 * The directory has the layout of the fetched releases: `bbeh/`, `bbh/`, `big-bench-mistake/`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const dir = resolveDataDir(); // $RUNLENS_DATA if set, else e.g. "/home/me/runlens/.runlens/data"
 * assert.equal(resolveDataDir("some/dir"), `${Deno.cwd()}/some/dir`); // a flag wins, made absolute
 * ```
 * @module
 */
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { OptionSpec } from "./command.ts";

/** Environment variable naming the data directory. */
export const DATA_ENV = "RUNLENS_DATA";

/** The repository root (two levels above this file). */
export const REPO_ROOT: string = resolve(fileURLToPath(new URL("../..", import.meta.url)));

/** The default, git-ignored data cache inside the checkout. */
export const DEFAULT_DATA_DIR = join(REPO_ROOT, ".runlens", "data");

/** The data directory: the flag if given, else `$RUNLENS_DATA`, else the local cache. */
export function resolveDataDir(flag?: string | null): string {
  if (flag) return resolve(flag);
  const env = Deno.env.get(DATA_ENV);
  if (env) return resolve(env);
  return DEFAULT_DATA_DIR;
}

/** The `--data DIR` option of every command that reads the data sets ({@link resolveDataDir}). */
export const DATA_OPTION: OptionSpec = {
  type: "string",
  value: "DIR",
  description: "the data sets' directory (as `deno task runlens fetch-data` lays it out)",
  default: `$${DATA_ENV}, else .runlens/data in the repository`,
};

/** Whether a path exists (file or directory). */
export function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The command that fetches the data sets, for error messages. */
export const FETCH_HINT = "run `npx -y deno@2.9.6 task runlens fetch-data` to download them, " +
  `or point --data / $${DATA_ENV} at a folder laid out as by fetch-data`;
