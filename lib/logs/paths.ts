/**
 * What the readers need to know about file names, at the bottom of `logs/` (every reader and the
 * file search import it): the canonical extensions, a log's default run name, and the error for
 * a file that cannot be read.
 *
 * @example
 * ```ts
 * defaultRunName("runs/gpt-4.1_t0.jsonl"); // "gpt-4.1_t0"
 * cannotRead("a.jsonl", new Error("No such file")).message; // "a.jsonl: cannot read (No such file)"
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
 * defaultRunName("runs/gpt-4.1_t0.jsonl"); // "gpt-4.1_t0"
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
 * cannotRead("a.jsonl", new Error("No such file")).message; // "a.jsonl: cannot read (No such file)"
 * ```
 */
export function cannotRead(path: string, e: unknown): Error {
  const message = (e as Error).message;
  return message.startsWith(`${path}: `)
    ? e as Error
    : new Error(`${path}: cannot read (${message})`);
}
