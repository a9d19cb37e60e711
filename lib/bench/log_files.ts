/**
 * The files a benchmark input consists of (shared by the benchmark processes).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { logFiles } from "@runlens/bench/log_files.ts";
 * const file = "tests/fixtures/logs/mixed.jsonl";
 * assert.deepEqual(logFiles(file), [file]);
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
 * import assert from "node:assert/strict";
 * // a folder: its .jsonl files at any depth (a generated lm-eval folder: 23 per run)
 * assert.deepEqual(logFiles("tests/fixtures/logs/tree"), ["tests/fixtures/logs/tree/a.jsonl"]);
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
