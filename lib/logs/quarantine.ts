/**
 * Quarantine: log rows that cannot be scored, each with the file, the 1-based line and a
 * one-line reason. Loaders never drop a row silently: every input row is either scored or
 * quarantined, and {@link checkRowBalance} holds them to that.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { formatQuarantine, quarantineEntry } from "@runlens/logs/quarantine.ts";
 * const q = quarantineEntry("run.jsonl", 3, "missing response");
 * assert.equal(formatQuarantine(q), "run.jsonl:3: missing response");
 * ```
 * @module
 */

/** One quarantined log row. */
export interface QuarantineEntry {
  /** The log file, as the user named it. */
  file: string;
  /** 1-based line of the row in `file` (CSV: the line where the record starts). */
  line: number;
  /** Why the row was not scored. */
  reason: string;
}

/** A quarantined row together with the run it counts against. */
export interface RunQuarantine {
  /** The run the row counts against. */
  run: string;
  /** The quarantined row. */
  entry: QuarantineEntry;
}

/**
 * Build an entry.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const q = quarantineEntry("a.csv", 7, "missing task");
 * assert.deepEqual(q, { file: "a.csv", line: 7, reason: "missing task" });
 * ```
 */
export function quarantineEntry(file: string, line: number, reason: string): QuarantineEntry {
  return { file, line, reason };
}

/**
 * Sort entries by file, then line (a new array).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const sorted = sortQuarantine([quarantineEntry("b", 1, "x"), quarantineEntry("a", 9, "y")]);
 * assert.deepEqual(sorted.map((q) => q.file), ["a", "b"]);
 * ```
 */
export function sortQuarantine<T extends QuarantineEntry>(entries: readonly T[]): T[] {
  return [...entries].sort((a, b) =>
    a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line || (a.reason < b.reason ? -1 : 1)
  );
}

/**
 * `file:line: reason`, the form compilers use (editors can jump to it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const line = formatQuarantine({ file: "a.jsonl", line: 2, reason: "malformed JSON" });
 * assert.equal(line, "a.jsonl:2: malformed JSON");
 * ```
 */
export function formatQuarantine(entry: QuarantineEntry): string {
  return `${entry.file}:${entry.line}: ${entry.reason}`;
}

/**
 * The kind of a quarantine reason: the reason with its quoted values and numbers blanked, so
 * that "example_index 200 out of range …" and "example_index 201 out of range …" are one kind.
 * Digits that are part of a name (`csv2`, `bbeh_v2`) or of a path (`/tmp/r1/a.csv`) stay: a
 * path keeps its text, only a `:line` after it is blanked.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const kind = reasonKind('target "(B)" differs from the data set\'s "(A)"');
 * assert.equal(kind, 'target "…" differs from the data set\'s "…"');
 * assert.equal(reasonKind("example_index 200 out of range for nycc (0–199)"),
 *   "example_index N out of range for nycc (N–N)");
 * assert.equal(reasonKind("duplicate of /tmp/r1/csv2/a.csv:12 (same run)"),
 *   "duplicate of /tmp/r1/csv2/a.csv:N (same run)");
 * ```
 */
export function reasonKind(reason: string): string {
  return reason.replace(/"(?:[^"\\]|\\.)*"/g, '"…"').split(PATH).map((part, i) =>
    i % 2 === 1 ? part : part.replace(/(?<![\p{L}\p{N}_])\d[\d,.]*/gu, "N")
  ).join("");
}

/** A path in a reason (a run of non-space text with a `/`), captured to be kept whole. */
const PATH = /((?:[^\s"(),:]*\/)+[^\s"(),:]*)/;

/**
 * Quarantine lines for a readable report: every entry when there are at most `limit`, else
 * per reason kind ({@link reasonKind}, in order of first appearance) its count and first
 * `examples` entries, then how many more and where to see them (`more`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const entries = [200, 201, 202].map((i) =>
 *   quarantineEntry("a.jsonl", i - 198, `example_index ${i} out of range for nycc (0–199)`)
 * );
 * assert.deepEqual(quarantineText(entries, 50, 3), [
 *   "  a.jsonl:2: example_index 200 out of range for nycc (0–199)",
 *   "  a.jsonl:3: example_index 201 out of range for nycc (0–199)",
 *   "  a.jsonl:4: example_index 202 out of range for nycc (0–199)",
 * ]);
 * assert.deepEqual(quarantineText(entries, 2, 1), [ // more than 2: by kind
 *   "  3 × example_index N out of range for nycc (N–N)",
 *   "    a.jsonl:2: example_index 200 out of range for nycc (0–199)",
 *   "    … 2 more (see --json)",
 * ]);
 * ```
 */
export function quarantineText(
  entries: readonly QuarantineEntry[],
  limit = 50,
  examples = 3,
  more = "see --json",
): string[] {
  if (entries.length <= limit) return entries.map((q) => `  ${formatQuarantine(q)}`);
  const kinds = new Map<string, QuarantineEntry[]>();
  for (const q of entries) {
    const kind = reasonKind(q.reason);
    if (!kinds.has(kind)) kinds.set(kind, []);
    kinds.get(kind)!.push(q);
  }
  const out: string[] = [];
  for (const [kind, list] of kinds) {
    out.push(`  ${list.length} × ${kind}`);
    for (const q of list.slice(0, examples)) out.push(`    ${formatQuarantine(q)}`);
    if (list.length > examples) out.push(`    … ${list.length - examples} more (${more})`);
  }
  return out;
}

/** Quote a log value for a reason text, shortened to `max` characters. */
export function quoteValue(value: unknown, max = 60): string {
  const text = typeof value === "string" ? value : JSON.stringify(value) ?? String(value);
  const short = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return JSON.stringify(short);
}

/**
 * Throw unless every input row is accounted for: `rowsIn = rowsScored + rowsQuarantined`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * checkRowBalance("run a", 10, 8, 2); // fine
 * assert.throws(() => checkRowBalance("run a", 10, 8, 1), /run a: internal error, rows in \(10\)/);
 * ```
 */
export function checkRowBalance(
  what: string,
  rowsIn: number,
  rowsScored: number,
  rowsQuarantined: number,
): void {
  if (rowsIn !== rowsScored + rowsQuarantined) {
    throw new Error(
      `${what}: internal error, rows in (${rowsIn}) ≠ scored (${rowsScored}) + ` +
        `quarantined (${rowsQuarantined})`,
    );
  }
}

/** Quarantine reason for a last line that is not valid JSON and lacks its final newline. */
export const TRUNCATED_LAST_LINE = "truncated last line (not valid JSON and no final newline)";

/**
 * The quarantine reason for a JSON line that failed to parse: a truncated last line when the
 * line is the file's last and the file does not end with a newline, else the parser's message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const error = new SyntaxError("Unexpected end");
 * assert.equal(jsonLineReason(error, false), "malformed JSON (Unexpected end)");
 * assert.equal(jsonLineReason(error, true), TRUNCATED_LAST_LINE); // the file's unterminated end
 * ```
 */
export function jsonLineReason(error: unknown, unterminatedLastLine: boolean): string {
  return unterminatedLastLine
    ? TRUNCATED_LAST_LINE
    : `malformed JSON (${(error as Error).message})`;
}
