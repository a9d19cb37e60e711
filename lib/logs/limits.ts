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
import { MAX_DEPTH, MAX_KEYS } from "../codecs/json_scan.ts";
import { MAX_LINE_BYTES } from "../codecs/line_ranges.ts";
import type { SourceLimits } from "./sources/types.ts";

/** The defaults (see the module table; the scanners' own defaults where they have one). */
export const DEFAULT_LIMITS: Readonly<SourceLimits> = {
  maxDepth: MAX_DEPTH,
  maxKeys: MAX_KEYS,
  maxLineBytes: MAX_LINE_BYTES,
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

/**
 * Responses longer than this many characters (over 10 MB) are quarantined, not scored: such a
 * response is a runaway generation, and scoring it would only hide the failure in an accuracy.
 * A fixed limit (no flag), shared by the streaming checks (`pipeline/check.ts`) and the polars
 * reader (`canonical.ts`).
 *
 * @example
 * ```ts
 * MAX_RESPONSE_CHARS; // 10,000,000
 * ```
 */
export const MAX_RESPONSE_CHARS = 10_000_000;
