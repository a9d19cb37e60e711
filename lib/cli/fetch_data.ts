/**
 * `deno task runlens fetch-data`: download the pinned public data sets and verify every file.
 *
 * Fetches each registered benchmark's data folder (its `data`: pinned GitHub repositories at
 * fixed commits) into the data directory (`--data`, else `$RUNLENS_DATA`, else
 * `.runlens/data`), checking each file against the benchmark's `manifest.json`. Already-verified
 * sources are skipped. `logs/` is not fetched.
 *
 * @example
 * ```sh
 * deno task runlens fetch-data --only bbh,big-bench-mistake
 * deno run --allow-all lib/cli/fetch_data.ts --data /tmp/data --base-url http://127.0.0.1:8000
 * ```
 * @module
 */
import { DATA_ENV, resolveDataDir } from "../core/data_dir.ts";
import { ARCHIVE_HOST, BASE_URL_ENV, fetchData, FetchDataError } from "../data/fetch.ts";
import { dataFolders, pinnedManifest } from "../benchmarks/data.ts";
import { type Command, runCommand, UsageError } from "../core/command.ts";
import { printError } from "../core/terminal.ts";

/** Parsed `fetch-data` arguments. */
interface FetchDataArgs {
  data?: string;
  only?: string[];
  baseUrl?: string;
  manifest?: string;
}

/** `runlens fetch-data`. */
export const fetchDataCommand: Command<FetchDataArgs> = {
  name: "fetch-data",
  summary: "Download the pinned public data sets and verify every file's SHA-256.",
  usage: "[--data DIR] [--only FOLDERS] [--base-url URL] [--manifest FILE]",
  description: "GitHub archives at fixed commits; the files listed in the benchmarks' " +
    "manifests (lib/benchmarks/<name>/manifest.json) are extracted and each one's SHA-256 " +
    "checked. Sources already in place and verified are skipped, so rerunning is cheap. logs/ " +
    "(sample evaluation logs) is not fetched.",
  options: {
    data: {
      type: "string",
      value: "DIR",
      description: "target directory",
      default: `$${DATA_ENV}, else .runlens/data in the repository`,
    },
    only: {
      type: "string",
      value: "FOLDERS",
      description: `comma-separated subset of ${dataFolders()}`,
      default: "every folder",
    },
    "base-url": {
      type: "string",
      value: "URL",
      description: `replaces ${ARCHIVE_HOST} in archive URLs`,
      default: `$${BASE_URL_ENV}, else ${ARCHIVE_HOST}`,
    },
    manifest: {
      type: "string",
      value: "FILE",
      description: "use another manifest",
      default: "the registered benchmarks' manifests",
    },
  },
  parse: ({ values, positionals }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    return {
      data: values.data as string | undefined,
      only: (values.only as string | undefined)?.split(",").map((s) => s.trim()).filter(Boolean),
      baseUrl: values["base-url"] as string | undefined,
      manifest: values.manifest as string | undefined,
    };
  },
  prints: "One line: the files verified, in which directory, and how many sources were " +
    "downloaded; a failure on stderr.",
  examples: [
    "deno task runlens fetch-data",
    "deno task runlens fetch-data --data /tmp/data",
  ],
  failure: "a download or an extraction failed, or a file does not match its checksum",
  run: fetchDataRun,
};

/** Fetch and verify; a {@link FetchDataError} carries its own exit code. */
async function fetchDataRun(args: FetchDataArgs): Promise<number> {
  const dataDir = resolveDataDir(args.data);
  try {
    const report = await fetchData({
      dataDir,
      only: args.only,
      baseUrl: args.baseUrl,
      manifest: args.manifest ? undefined : pinnedManifest(),
      manifestPath: args.manifest,
    });
    const fetched = report.sources.filter((s) => s.status === "fetched").length;
    console.log(
      `fetch-data: ${report.verified} files verified in ${dataDir} ` +
        `(${fetched} of ${report.sources.length} sources downloaded). ` +
        `logs/ is not fetched by this command.`,
    );
    return 0;
  } catch (e) {
    if (!(e instanceof FetchDataError)) throw e;
    // a wrong --only is usage: the message with the usage line, like every command's
    if (e.exitCode === 2) throw new UsageError(e.message);
    printError("runlens fetch-data", e.message);
    return e.exitCode;
  }
}

/**
 * Run `fetch-data`; returns the exit code (0 ok, 1 failure, 2 usage).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * // `fetchDataMain(["--only", "bbh"])` downloads BBH (see the module example); a folder that
 * // is not fetched is a usage error, before any download:
 * assert.equal(await fetchDataMain(["--only", "logs"]), 2);
 * ```
 */
export function fetchDataMain(args: string[]): Promise<number> {
  return runCommand(fetchDataCommand, args);
}

if (import.meta.main) Deno.exit(await fetchDataMain(Deno.args));
