/**
 * Columns by each row's own evidence (issue 22, item 4): which column of a generic log holds
 * the question, which the target and which the response, decided from the sampled rows against
 * the data sets when names do not decide — a headerless CSV, a header or JSON keys that may be
 * either (`answer` beside `label` or `model_answer`), or names runlens does not know.
 * Polars-free.
 *
 * The rule, per table of sampled rows (a folder's files of one layout pool theirs, `plan.ts`):
 * 1. **question**: the column (unless names fixed it) whose cells are data-set questions — the
 *    text of an example, or a prompt ending with one — in the most rows, at least half;
 * 2. **target**: each row's question names its own example; the target column is the one whose
 *    cell equals *that example's* target (as identification compares targets: `B` is `(B)`,
 *    whitespace around it is dropped) in the most rows, more than half of those whose question
 *    was found. The true target matches on about every row, a direct answer only where the
 *    model was right, so the share tells them apart;
 * 3. **response**: among the other columns, the first the names prefer, else the longest on
 *    average;
 * 4. **ties**: two columns that match on as many rows (a sample the model got all right) are a
 *    {@link ColumnChoice tie}: the caller reads more rows and asks again with `final`; a tie
 *    that remains takes the later column as the target, and says so.
 * A single column besides the question is the response (a log without targets).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const examples: Record<string, string> = { "Q1?": "(A)", "Q2?": "(B)", "Q3?": "(C)" };
 * const lookup = { targetsOf: (s: string) => examples[s] ? [examples[s]] : null };
 * // question, target, answer: the model was right on one row of three
 * const table = { columns: [0, 1, 2], rows: [["Q1?", "(A)", "(A)"], ["Q2?", "(B)", "(C)"],
 *   ["Q3?", "(C)", "(A)"]] };
 * const choice = chooseColumns(table, lookup);
 * assert.deepEqual(choice.kind === "chosen" && [choice.input, choice.response, choice.target],
 *   [0, 2, 1]);
 * ```
 * @module
 */
import { sameTarget } from "./examples.ts";

/** The data sets' answer for a question cell: its examples' targets, null when it is none. */
export interface TargetLookup {
  targetsOf(text: string): readonly string[] | null;
}

/** Sampled rows of one layout: column ids (positions or names) and each row's cells. */
export interface ColumnTable {
  columns: readonly (string | number)[];
  /** Cells aligned with `columns`; null when absent or not text. */
  rows: readonly (readonly (string | null)[])[];
}

/** What names already decided, and how far the choice may go. */
export interface ColumnHints {
  /** The question column (a position in `columns`), when names fixed it. */
  input?: number | null;
  /** Columns that may be the response or the target (default: every other column). */
  candidates?: readonly number[];
  /** The response comes from elsewhere (a chat transcript): only the target is chosen. */
  responseFixed?: boolean;
  /** Columns the names make likely responses, most likely first. */
  preferResponse?: readonly number[];
  /** No more rows can be read: settle a tie instead of returning it. */
  final?: boolean;
}

/** The counts behind a choice. */
export interface ColumnEvidence {
  /** Rows read. */
  rows: number;
  /** Rows whose question cell is a data-set question. */
  identified: number;
  /** Rows whose target cell equals the row's data-set target (the best column's, if none). */
  matches: number;
  /** The column with the most matches (the target, or the best of those that were not). */
  best: number | null;
  /** A column that matched on as many rows as the target (a settled tie). */
  tiedWith: number | null;
}

/** The outcome of {@link chooseColumns} (columns are positions in the table's `columns`). */
export type ColumnChoice =
  | {
    kind: "chosen";
    input: number;
    response: number | null;
    target: number | null;
    evidence: ColumnEvidence;
  }
  | { kind: "tie"; input: number; columns: [number, number]; evidence: ColumnEvidence }
  | { kind: "unknown"; evidence: ColumnEvidence };

/**
 * Choose the question, target and response columns of `table` (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const lookup = { targetsOf: (s: string) => s.endsWith("?") ? ["yes"] : null };
 * const right = { columns: ["q", "a", "b"], rows: [["Is it?", "yes", "yes"], ["Or?", "yes", "yes"]] };
 * assert.equal(chooseColumns(right, lookup).kind, "tie"); // read more rows
 * const settled = chooseColumns(right, lookup, { final: true });
 * assert.ok(settled.kind === "chosen" && settled.target === 2 && settled.evidence.tiedWith === 1);
 * assert.equal(chooseColumns({ columns: [0], rows: [["x"]] }, lookup).kind, "unknown");
 * ```
 */
export function chooseColumns(
  table: ColumnTable,
  lookup: TargetLookup,
  hints: ColumnHints = {},
): ColumnChoice {
  const found = questionColumn(table, lookup, hints.input ?? null);
  const evidence: ColumnEvidence = {
    rows: table.rows.length,
    identified: found?.targets.filter((t) => t !== null).length ?? 0,
    matches: 0,
    best: null,
    tiedWith: null,
  };
  if (found === null || evidence.identified === 0) return { kind: "unknown", evidence };
  const input = found.column;
  const candidates = (hints.candidates ?? table.columns.map((_, i) => i)).filter((c) =>
    c !== input
  );
  const hits = candidates.map((c) => ({ column: c, rows: matchingRows(table, c, found.targets) }))
    .sort((a, b) => b.rows.length - a.rows.length || a.column - b.column);
  const [first, second] = hits;
  if (first) Object.assign(evidence, { best: first.column, matches: first.rows.length });
  const isTarget = first !== undefined && first.rows.length * 2 > evidence.identified &&
    (candidates.length > 1 || hints.responseFixed === true);
  if (!isTarget) {
    const response = hints.responseFixed ? null : responseOf(table, candidates, hints);
    return { kind: "chosen", input, response, target: null, evidence };
  }
  let target = first.column;
  if (second && !hints.responseFixed && second.rows.length === first.rows.length) {
    const pair: [number, number] = [first.column, second.column].sort((a, b) => a - b) as [
      number,
      number,
    ];
    if (!hints.final) return { kind: "tie", input, columns: pair, evidence };
    // the usual order is question, response, target: the later one is taken as the target
    target = pair[1];
    evidence.tiedWith = pair[0];
  }
  const rest = candidates.filter((c) => c !== target);
  const response = hints.responseFixed ? null : responseOf(table, rest, hints);
  return { kind: "chosen", input, response, target, evidence };
}

/** The question column and each row's targets (null: the row's cell is no question). */
function questionColumn(
  table: ColumnTable,
  lookup: TargetLookup,
  fixed: number | null,
): { column: number; targets: (readonly string[] | null)[] } | null {
  const cache = new Map<string, readonly string[] | null>();
  const targetsIn = (column: number) =>
    table.rows.map((r) => {
      const cell = r[column];
      if (typeof cell !== "string") return null;
      if (!cache.has(cell)) cache.set(cell, lookup.targetsOf(cell));
      return cache.get(cell)!;
    });
  if (fixed !== null) return { column: fixed, targets: targetsIn(fixed) };
  let best: { column: number; targets: (readonly string[] | null)[]; n: number } | null = null;
  for (let c = 0; c < table.columns.length; c++) {
    const targets = targetsIn(c);
    const n = targets.filter((t) => t !== null).length;
    if (n * 2 >= table.rows.length && n > 0 && (best === null || n > best.n)) {
      best = { column: c, targets, n };
    }
  }
  return best;
}

/** The rows whose cell in `column` equals one of the row's data-set targets. */
function matchingRows(
  table: ColumnTable,
  column: number,
  targets: readonly (readonly string[] | null)[],
): number[] {
  const out: number[] = [];
  table.rows.forEach((r, i) => {
    const cell = r[column];
    const mine = targets[i];
    if (typeof cell === "string" && mine && mine.some((t) => sameTarget(cell, t))) out.push(i);
  });
  return out;
}

/** The response among `columns`: the first the names prefer, else the longest on average. */
function responseOf(
  table: ColumnTable,
  columns: readonly number[],
  hints: ColumnHints,
): number | null {
  const preferred = (hints.preferResponse ?? []).find((c) => columns.includes(c));
  if (preferred !== undefined) return preferred;
  const meanLength = (c: number) =>
    table.rows.reduce((s, r) => s + (r[c]?.length ?? 0), 0) / Math.max(1, table.rows.length);
  let best: number | null = null;
  for (const c of columns) if (best === null || meanLength(c) > meanLength(best)) best = c;
  return best;
}

/**
 * The sentence that says why: what the target column matched, or why there is none, with the
 * remedy when the rows could not tell.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const evidence = { rows: 540, identified: 540, matches: 540, best: 2, tiedWith: null };
 * const name = (c: number) => `column ${c}`;
 * assert.equal(
 *   evidenceText({ kind: "chosen", input: 0, response: 1, target: 2, evidence }, name),
 *   "target column equals each row's data-set target on 540 of 540 sampled rows",
 * );
 * ```
 */
export function evidenceText(
  choice: Extract<ColumnChoice, { kind: "chosen" }>,
  name: (column: number) => string,
  kind: "column" | "field" = "column",
  remedy = "",
): string {
  const e = choice.evidence;
  const of = `${e.matches} of ${e.identified} sampled rows` +
    (e.identified < e.rows ? ` whose question was found (${e.rows} read)` : "");
  if (choice.target === null) {
    return e.best === null
      ? `no target ${kind}: nothing but the question and the response`
      : `no target ${kind}: none equals each row's data-set target on most rows (best: ` +
        `${name(e.best)}, on ${of}); rows are scored against the data set's targets`;
  }
  if (e.tiedWith !== null) {
    return `${name(e.tiedWith)} and ${name(choice.target)} both equal each row's data-set ` +
      `target on ${of}, so the response cannot be told from the target (a model right on ` +
      `every row read?); ${name(choice.target)} taken as the target${remedy}`;
  }
  return `target ${kind} equals each row's data-set target on ${of}`;
}
