/**
 * The files a benchmark input consists of (shared by the benchmark processes).
 *
 * @example
 * ```ts
 * import { logFiles } from "@runlens/bench/log_files.ts";
 * logFiles("big.jsonl"); // ["big.jsonl"]
 * ```
 * @module
 */
import { join } from "node:path";

/**
 * The log files of a benchmark input: `path` itself, or the `.jsonl` files under it (a
 * folder), sorted.
 *
 * @example
 * ```ts
 * logFiles(".runlens/bench/lmeval_200mb_s20250301").length; // 23 per run
 * ```
 */
export function logFiles(path: string): string[] {
  if (!Deno.statSync(path).isDirectory) return [path];
  const out: string[] = [];
  for (const entry of Deno.readDirSync(path)) {
    const p = join(path, entry.name);
    if (entry.isDirectory) out.push(...logFiles(p));
    else if (entry.isFile && entry.name.endsWith(".jsonl")) out.push(p);
  }
  return out.sort();
}
