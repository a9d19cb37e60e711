/**
 * `runlens cache info|clear [--cache DIR] [--json]`: look into or empty the columnar cache of
 * loads (`lib/pipeline/cache.ts`; `docs/cache.md` says how to query it with DuckDB, polars,
 * Spark or Trino). The directory is `--cache DIR`, else `$RUNLENS_CACHE`, else `.runlens/cache`
 * under the working directory.
 *
 * `info` lists the entries, newest first: key, when written, rows, quarantined records, size and
 * the files of the load, then the folders left by interrupted writes. `clear` deletes every
 * entry and leftover (and nothing else in the directory). `--json` prints the envelope of
 * `command.ts` (`runs`, `quarantine` and `errors` empty) with `action`, `dir`, and for `info`
 * `entries` (key, created, cache_version, files, rows, quarantined, bytes, settings),
 * `leftovers` and `bytes`; for `clear` `removed_entries` and `bytes` (freed).
 *
 * @example
 * ```sh
 * deno task runlens cache info
 * deno task runlens cache clear --cache /scratch/runlens-cache
 * ```
 * @module
 */
import { cacheDir, type CacheEntryInfo, cacheInfo, clearCache } from "../pipeline/cache.ts";
import { type Command, jsonEnvelope, runCommand, UsageError } from "../core/command.ts";
import { count } from "../core/count.ts";

/** Parsed `cache` arguments. */
interface CacheArgs {
  action: "info" | "clear";
  dir: string;
  json: boolean;
}

/** `runlens cache`. */
export const cacheCommand: Command<CacheArgs> = {
  name: "cache",
  summary: "List or delete the cached loads (the columnar cache of scored rows).",
  usage: "info|clear [--cache DIR] [--json]",
  description: "info lists the entries, newest first, then the folders left by interrupted " +
    "writes; clear deletes every entry and leftover, and nothing else in the directory. " +
    "docs/cache.md says how to query the cache with DuckDB, polars, Spark or Trino.",
  arguments: { "info|clear": "what to do" },
  options: {
    cache: {
      type: "string",
      value: "DIR",
      description: "the cache directory",
      default: "$RUNLENS_CACHE, else .runlens/cache in the working directory",
    },
    json: { type: "boolean", description: "print the JSON report instead of the text" },
  },
  prints: "info: the directory, its entries and size, then one line per entry (key, when " +
    "written, rows, quarantined records, size, files); clear: what was removed.\n" +
    "With --json: the envelope (command; runs, quarantine and errors empty) with action, dir, " +
    "and for info entries, leftovers and bytes, for clear removed_entries and bytes.",
  examples: [
    "deno task runlens cache info",
    "deno task runlens cache clear --cache /scratch/runlens-cache",
  ],
  failure: "the cache directory cannot be read or an entry cannot be deleted",
  parse: ({ values, positionals }) => {
    const [action, ...rest] = positionals;
    if (action !== "info" && action !== "clear") {
      throw new UsageError(
        action === undefined ? "say info or clear" : `unknown action "${action}"`,
      );
    }
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    return {
      action,
      dir: cacheDir(values.cache as string | undefined),
      json: values.json === true,
    };
  },
  run: (args) => {
    checkCacheDir(args.dir);
    return args.action === "info" ? infoRun(args) : clearRun(args);
  },
};

/**
 * Throw (exit 1) when `dir` cannot be the cache: a file of that name, or a folder that cannot
 * be listed. The cache's own reads pass over what they cannot read (a cache is never worth
 * failing a load for), so `info` said "0 entries" of a file and `clear` removed nothing from
 * it, both exiting 0. A folder not made yet is an empty cache.
 */
function checkCacheDir(dir: string): void {
  try {
    if (!Deno.statSync(dir).isDirectory) {
      throw new Error(`${dir}: not a directory (--cache names the cache's folder)`);
    }
    Deno.readDirSync(dir)[Symbol.iterator]().next();
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return;
    throw e instanceof Deno.errors.PermissionDenied
      ? new Error(`${dir}: cannot be read (${e.message})`)
      : e;
  }
}

function infoRun(args: CacheArgs): number {
  const info = cacheInfo(args.dir);
  if (args.json) {
    const { dir, entries, leftovers, bytes } = info;
    print(jsonEnvelope("cache", { runs: [] }, { action: "info", dir, entries, leftovers, bytes }));
    return 0;
  }
  const count = plural(info.entries.length, "entry", "entries");
  console.log(`cache ${info.dir}: ${count}, ${megabytes(info.bytes)}`);
  for (const e of info.entries) console.log("  " + entryLine(e));
  if (info.leftovers > 0) {
    console.log(
      `  ${plural(info.leftovers, "folder", "folders")} left by interrupted writes ` +
        "(removed by `runlens cache clear`)",
    );
  }
  return 0;
}

function clearRun(args: CacheArgs): number {
  const { entries, bytes } = clearCache(args.dir);
  if (args.json) {
    const extra = { action: "clear", dir: args.dir, removed_entries: entries, bytes };
    print(jsonEnvelope("cache", { runs: [] }, extra));
  } else {
    console.log(
      `removed ${plural(entries, "entry", "entries")} (${megabytes(bytes)}) from ${args.dir}`,
    );
  }
  return 0;
}

/** One entry in a line: short key, time, counts, size, the first files. */
function entryLine(e: CacheEntryInfo): string {
  const shown = e.files.slice(0, 2).join(", ") + (e.files.length > 2 ? ", …" : "");
  return [
    e.key.slice(0, 12),
    e.created.slice(0, 19).replace("T", " "),
    `${count(e.rows)} rows`,
    `${count(e.quarantined)} quarantined`,
    megabytes(e.bytes),
    `${plural(e.files.length, "file", "files")}: ${shown}`,
  ].join("  ");
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;
const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const print = (value: unknown) => console.log(JSON.stringify(value, null, 2));

/**
 * Run `runlens cache`; returns the exit code (0 ok, 1 failure, 2 usage).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * assert.equal(await cacheMain(["info", "--cache", dir]), 0); // "cache …: 0 entries, 0.0 MB"
 * assert.equal(await cacheMain(["list"]), 2); // unknown action: usage
 * Deno.removeSync(dir);
 * ```
 */
export function cacheMain(args: string[]): Promise<number> {
  return runCommand(cacheCommand, args);
}

if (import.meta.main) Deno.exit(await cacheMain(Deno.args));
