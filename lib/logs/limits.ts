/**
 * The limits every reader enforces before a parser could overflow its stack, exhaust memory or
 * run without end on a hostile or broken log. Each has a named default and a `runlens score`
 * flag to raise it; a record past a limit is quarantined with the reason (e.g. "nested deeper
 * than 1,000 levels"), a file or member past one is an error naming it.
 *
 * | limit | default | flag |
 * | --- | --- | --- |
 * | nesting depth of a JSON value | 1,000 | `--max-depth` |
 * | members of one JSON object | 100,000 | `--max-keys` |
 * | bytes of one line | 1 GiB | `--max-line-bytes` |
 * | bytes a compressed file or member inflates to | 4 GiB | `--max-inflated` |
 * | inflation ratio of a compressed file or member | 1,000 | `--max-ratio` |
 * | columns of a CSV file | 1,000 | `--max-csv-columns` |
 *
 * @example
 * ```ts
 * const limits = withLimits({ maxDepth: 5000 });
 * limits.maxDepth; // 5000
 * limits.maxKeys === DEFAULT_LIMITS.maxKeys; // true
 * ```
 * @module
 */
import type { SourceLimits } from "./sources/types.ts";

/** The defaults (see the module table). */
export const DEFAULT_LIMITS: Readonly<SourceLimits> = {
  maxDepth: 1_000,
  maxKeys: 100_000,
  maxLineBytes: 1 << 30,
  maxInflated: 4 * 2 ** 30,
  maxRatio: 1_000,
  maxCsvColumns: 1_000,
};

/** The CLI flag of each limit. */
export const LIMIT_FLAGS: Readonly<Record<keyof SourceLimits, string>> = {
  maxDepth: "max-depth",
  maxKeys: "max-keys",
  maxLineBytes: "max-line-bytes",
  maxInflated: "max-inflated",
  maxRatio: "max-ratio",
  maxCsvColumns: "max-csv-columns",
};

/**
 * The defaults with some limits raised (or lowered).
 *
 * @example
 * ```ts
 * withLimits({}).maxRatio; // 1000
 * ```
 */
export function withLimits(overrides: Partial<SourceLimits>): SourceLimits {
  return { ...DEFAULT_LIMITS, ...overrides };
}
