/**
 * What the readers need to know about file names, at the bottom of `logs/` (every reader and the
 * file search import it): the canonical extensions, a log's default run name, and the error for
 * a file that cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(defaultRunName("runs/gpt-4.1_t0.jsonl"), "gpt-4.1_t0");
 * const e = cannotRead("a.jsonl", new Error("No such file"));
 * assert.equal(e.message, "a.jsonl: cannot read (No such file)");
 * ```
 * @module
 */
import { basename, extname } from "node:path";

/** File extensions of the canonical format. */
export const CANONICAL_EXTENSIONS = [".jsonl", ".csv"] as const;

/**
 * The default run name of a log file: its name without directory and extension.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(defaultRunName("runs/gpt-4.1_t0.jsonl"), "gpt-4.1_t0");
 * assert.equal(defaultRunName("runs/answers.csv.gz"), "answers.csv"); // only the last extension
 * ```
 */
export function defaultRunName(path: string): string {
  const name = basename(path);
  const ext = extname(name);
  return ext ? name.slice(0, -ext.length) : name;
}

/**
 * The error for a file that cannot be read: `e` itself when its message already names the
 * file, else `<path>: cannot read (<message>)`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const e = cannotRead("a.jsonl", new Error("No such file"));
 * assert.equal(e.message, "a.jsonl: cannot read (No such file)");
 * const named = new Error("a.jsonl: not valid JSON");
 * assert.equal(cannotRead("a.jsonl", named), named); // already names the file
 * ```
 */
export function cannotRead(path: string, e: unknown): Error {
  const message = (e as Error).message;
  return message.startsWith(`${path}: `)
    ? e as Error
    : new Error(`${path}: cannot read (${message})`);
}
