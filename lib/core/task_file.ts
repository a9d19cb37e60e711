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
  requireTaskFile(path, release);
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

/** Throw naming `path` when the task file is missing (`release` names the benchmark). */
export function requireTaskFile(path: string, release: string): void {
  if (!exists(path)) throw new Error(`${release} release incomplete: ${path} is missing`);
}

/** A data set's task file that could not be read when a task was first used. */
export class DataSetError extends Error {
  override name = "DataSetError";
}

/**
 * An object with one enumerable property per name whose value `read(name)` gives on first
 * access (then kept): a data set whose task files are read only when a task is used. An error
 * of `read` surfaces at that access, as a {@link DataSetError} with its message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const reads: string[] = [];
 * const tasks = lazyTasks(["a", "b"], (name) => (reads.push(name), [name]));
 * assert.deepEqual(Object.keys(tasks), ["a", "b"]);
 * assert.deepEqual([tasks.b, tasks.b, reads], [["b"], ["b"], ["b"]]);
 * const bad = lazyTasks(["x"], (name): string[] => {
 *   throw new Error(`${name}.json: not valid JSON`);
 * });
 * assert.throws(() => bad.x, { name: "DataSetError", message: "x.json: not valid JSON" });
 * ```
 */
export function lazyTasks<T>(
  names: readonly string[],
  read: (name: string) => T,
): Record<string, T> {
  const out: Record<string, T> = {};
  for (const name of names) {
    let value: T | undefined;
    const get = () => {
      try {
        return value ??= read(name);
      } catch (e) {
        throw new DataSetError((e as Error).message);
      }
    };
    Object.defineProperty(out, name, { enumerable: true, get });
  }
  return out;
}
