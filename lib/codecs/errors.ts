/**
 * What the byte codecs (ZIP, gzip, the JSON scanners, byte sources) share with the log
 * readers above them: the error of a file that cannot be read, and the limits a reader
 * enforces before a parser could run out of stack, memory or time. The log layer re-exports
 * both (`logs/sources/types.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const e = new FileError("a.eval", "not a ZIP archive");
 * assert.equal(e.message, "a.eval: not a ZIP archive");
 * ```
 * @module
 */

/** A file that cannot be read at all (not a log of its format, corrupt container, …). */
export class FileError extends Error {
  constructor(readonly file: string, readonly reason: string) {
    super(`${file}: ${reason}`);
  }
}

/** Limits a source enforces before a parser could run out of stack, memory or time. */
export interface SourceLimits {
  /** Deepest nesting of a JSON value. */
  maxDepth: number;
  /** Most members of one JSON object. */
  maxKeys: number;
  /** Longest line read (bytes). */
  maxLineBytes: number;
  /** Most bytes a compressed member or file may inflate to. */
  maxInflated: number;
  /** Largest inflation ratio of a compressed member. */
  maxRatio: number;
  /** Most columns of a CSV file. */
  maxCsvColumns: number;
}
