/**
 * Read a BIG-Bench-style task file: `{"examples": [{"input": str, "target": str, …}], …}`, the
 * layout of both the BBH and the BBEH releases, with errors that name the file and example.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readTaskFile } from "@runlens/core/task_file.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const examples = readTaskFile(`${resolveDataDir()}/bbh/bbh/snarks.json`, "BBH");
 * assert.equal(examples.length, 178);
 * assert.throws(() => readTaskFile("no/such.json", "BBH"), /BBH release incomplete: no\/such/);
 * ```
 * @module
 */
import { exists } from "./data_dir.ts";

/** One example of a task file (BBEH spatial items also carry `subtask`). */
export interface TaskFileExample {
  input: string;
  target: string;
  subtask?: string;
}

/** The examples of the task file at `path`; `release` names the benchmark in errors. */
export function readTaskFile(path: string, release: string): TaskFileExample[] {
  if (!exists(path)) throw new Error(`${release} release incomplete: ${path} is missing`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Deno.readTextFileSync(path));
  } catch (e) {
    throw new Error(`${path}: not valid JSON (${(e as Error).message})`);
  }
  const examples = (parsed as { examples?: unknown }).examples;
  if (!Array.isArray(examples)) throw new Error(`${path}: no "examples" array`);
  examples.forEach((ex, i) => {
    if (typeof ex?.input !== "string" || typeof ex?.target !== "string") {
      throw new Error(`${path}: example ${i} lacks a string "input" or "target"`);
    }
  });
  return examples as TaskFileExample[];
}
