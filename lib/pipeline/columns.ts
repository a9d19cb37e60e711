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
 * 2. **target**: each row's question names its own example; a column *matches* on a row when
 *    its cell equals *that example's* target (as identification compares targets: `B` is
 *    `(B)`, whitespace around it is dropped, and — said in the evidence — a cell equal to it
 *    only when case is ignored, `no` for `No`). The target column is chosen only when the
 *    rows make it **sure**: it matches on at least {@link SURE} (90%) of the rows whose
 *    question was found, and it is **decisive** against every other column — of the rows where
 *    exactly one of the two matches, it is that one on at least 90%. A model's direct answer
 *    matches only where the model was right, so the log's gold wins both — unless the gold is
 *    of another data version that differs on many rows and the model agrees with the data set
 *    more often than the gold does: then the rows cannot tell the two apart, and the choice is
 *    {@link ColumnChoice refused} with every candidate's share rather than guessed;
 * 3. **names are evidence too** ({@link ColumnHints.targetNamed}: `gold`, `label`, …): a column
 *    whose name says target but which is not chosen, while it matches on more than half of the
 *    rows (it could be a gold of another data version), is a disagreement between names and
 *    content — refused, naming both. (A named column matching on half or fewer could not be
 *    the target anyway: a file of mostly differing targets is refused at merge.)
 * 4. **none matches on more than half**: the log has no target column (the data set's
 *    targets are scored); the response is among the other columns — the first the names
 *    prefer, else the longest on average (a column named as a target only as a last resort);
 *    between half and {@link SURE} the best column is refused (too many matches for a
 *    response that happens to be right, too few for a target);
 * 5. **ties**: two columns equal (as targets) on every row read, each matching on every row
 *    (a sample the model got all right) are a {@link ColumnChoice tie}: the caller reads more
 *    rows and asks again with `final`; a tie that remains takes the column a name says is the
 *    target, else the later column, and says so (the scores are the same either way). Two
 *    columns equal on every row but matching on only some (a duplicated column, no gold) are
 *    refused.
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
 * // a gold column that matches on 2 rows of 3, an answer column right on 2 of 3: refused
 * const unsure = { columns: [0, 1, 2], rows: [["Q1?", "(A)", "(A)"], ["Q2?", "(B)", "(C)"],
 *   ["Q3?", "(A)", "(C)"]] };
 * assert.equal(chooseColumns(unsure, lookup).kind, "refused");
 * ```
 * @module
 */
import { targetMatch } from "./examples.ts";

/** The share of rows (whose question was found) a target column must match on, at least. */
export const SURE = 0.9;

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
  /** Columns whose names say target (`gold`, `label`, `reference`, …). */
  targetNamed?: readonly number[];
  /** No more rows can be read: settle a tie instead of returning it. */
  final?: boolean;
}

/** How often one candidate column matches each row's data-set target. */
export interface ColumnShare {
  column: number;
  /** Rows whose cell equals the row's data-set target. */
  matches: number;
  /** Of those, the rows whose cell equals it only when case is ignored. */
  caseOnly: number;
}

/** The counts behind a choice. */
export interface ColumnEvidence {
  /** Rows read. */
  rows: number;
  /** Rows whose question cell is a data-set question. */
  identified: number;
  /** Rows whose target cell equals the row's data-set target (the best column's, if none). */
  matches: number;
  /** Of `matches`, the rows equal only when case is ignored. */
  caseOnly: number;
  /** One such cell and the data set's target, e.g. `["no", "No"]`. */
  caseExample: [string, string] | null;
  /** The column with the most matches (the target, or the best of those that were not). */
  best: number | null;
  /** A column that matched on every row as the target did (a settled tie). */
  tiedWith: number | null;
  /** Every candidate column's matches, most first (ties: the earlier column). */
  shares: ColumnShare[];
  /** A column a name says is the target, when content chose another (or none). */
  namedTarget: number | null;
}

/** Why the rows cannot choose the target (see the module doc). */
export type RefusalKind =
  /** The best column matches on more than half of the rows but fewer than {@link SURE}. */
  | "unsure"
  /** Two columns match on ≥ {@link SURE}, each on rows where the other does not. */
  | "close"
  /** Content chose one column, a name says another that matches on more than half. */
  | "names"
  /** Two columns equal on every row, matching on only some: a duplicated column. */
  | "duplicate";

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
  | {
    kind: "refused";
    why: RefusalKind;
    input: number;
    /** The two columns that could each be the target, the likelier first. */
    columns: [number, number];
    /** Rows where only the first, and only the second, matches. */
    only: [number, number];
    evidence: ColumnEvidence;
  }
  | { kind: "unknown"; evidence: ColumnEvidence };

/**
 * Choose the question, target and response columns of `table` (see the module doc).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const lookup = { targetsOf: (s: string) => s.endsWith("?") ? ["yes"] : null };
 * const right = { columns: ["q", "a", "b"], rows: [["Is it?", "yes", "yes"], ["Or?", "yes", "yes"]] };
 * assert.equal(chooseColumns(right, lookup).kind, "tie"); // read more
 * const settled = chooseColumns(right, lookup, { final: true });
 * assert.ok(settled.kind === "chosen" && settled.target === 2 && settled.evidence.tiedWith === 1);
 * const named = chooseColumns(right, lookup, { final: true, targetNamed: [1] });
 * assert.ok(named.kind === "chosen" && named.target === 1); // the name settles it
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
    caseOnly: 0,
    caseExample: null,
    best: null,
    tiedWith: null,
    shares: [],
    namedTarget: null,
  };
  if (found === null || evidence.identified === 0) return { kind: "unknown", evidence };
  const input = found.column;
  const candidates = (hints.candidates ?? table.columns.map((_, i) => i)).filter((c) =>
    c !== input
  );
  const hits = candidates.map((c) => matchingRows(table, c, found.targets))
    .sort((a, b) => b.rows.size - a.rows.size || a.column - b.column);
  evidence.shares = hits.map((h) => ({
    column: h.column,
    matches: h.rows.size,
    caseOnly: h.caseOnly,
  }));
  const [first] = hits;
  if (first) describe(evidence, first);
  const named = new Set(hints.targetNamed ?? []);
  const chosen = (target: number | null): ColumnChoice => {
    const rest = candidates.filter((c) => c !== target);
    const response = hints.responseFixed ? null : responseOf(table, rest, hints, named);
    const namedTarget = [...named].find((c) => c !== target && candidates.includes(c));
    evidence.namedTarget = namedTarget ?? null;
    return { kind: "chosen", input, response, target, evidence };
  };
  const share = (h: Hits) => h.rows.size / evidence.identified;
  const targetPossible = candidates.length > 1 || hints.responseFixed === true;
  if (!first || !targetPossible || share(first) <= 0.5) return chosen(null);
  const refuse = (why: RefusalKind, other: Hits) => refusal(why, input, first, other, evidence);
  const second = hits[1];
  if (share(first) < SURE) return refuse("unsure", second ?? first);
  // another column matching on as many rows, or on rows the first does not
  for (const other of hits.slice(1)) {
    const [a, b] = onlyCounts(first, other);
    if (a + b === 0 && other.rows.size > 0) {
      const tie = settleTie(first, other, evidence, named, hints.final === true);
      if (tie === null) return refuse("duplicate", other);
      if (tie === "more") {
        return { kind: "tie", input, columns: pairOf(first.column, other.column), evidence };
      }
      if (tie !== first.column) describe(evidence, other);
      evidence.tiedWith = tie === first.column ? other.column : first.column;
      return chosen(tie);
    }
    if (a < SURE * (a + b)) return refuse("close", other);
  }
  // a name says another column is the target, and it could be (it matches on most rows)
  const namedOther = hits.find((h) => named.has(h.column) && h.column !== first.column);
  if (namedOther && share(namedOther) > 0.5) return refuse("names", namedOther);
  return chosen(first.column);
}

/** A candidate column's matching rows. */
interface Hits {
  column: number;
  rows: Set<number>;
  caseOnly: number;
  caseExample: [string, string] | null;
}

/** Put a column's counts into the evidence as the best (or chosen) column. */
function describe(evidence: ColumnEvidence, h: Hits): void {
  evidence.best = h.column;
  evidence.matches = h.rows.size;
  evidence.caseOnly = h.caseOnly;
  evidence.caseExample = h.caseExample;
}

/** Rows where only `x` matches, and only `y`. */
function onlyCounts(x: Hits, y: Hits): [number, number] {
  let a = 0, b = 0;
  for (const r of x.rows) if (!y.rows.has(r)) a++;
  for (const r of y.rows) if (!x.rows.has(r)) b++;
  return [a, b];
}

const pairOf = (x: number, y: number): [number, number] => x < y ? [x, y] : [y, x];

/**
 * Two columns that match on the same rows: `more` (read more rows), the target (a name says
 * it, else the later column), or null when they match on only some rows (a duplicated column:
 * a model right on every row would match on all).
 */
function settleTie(
  x: Hits,
  y: Hits,
  evidence: ColumnEvidence,
  named: ReadonlySet<number>,
  final: boolean,
): number | "more" | null {
  if (x.rows.size < evidence.identified) return null;
  if (!final) return "more";
  const byName = [x.column, y.column].filter((c) => named.has(c));
  // the usual order is question, response, target: the later one is taken as the target
  return byName.length === 1 ? byName[0] : Math.max(x.column, y.column);
}

function refusal(
  why: RefusalKind,
  input: number,
  first: Hits,
  other: Hits,
  evidence: ColumnEvidence,
): ColumnChoice {
  const only = onlyCounts(first, other);
  return { kind: "refused", why, input, columns: [first.column, other.column], only, evidence };
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
): Hits {
  const out: Hits = { column, rows: new Set(), caseOnly: 0, caseExample: null };
  table.rows.forEach((r, i) => {
    const cell = r[column];
    const mine = targets[i];
    if (typeof cell !== "string" || !mine) return;
    const how = mine.map((t) => targetMatch(cell, t));
    if (how.includes("same")) out.rows.add(i);
    else if (how.includes("case")) {
      out.rows.add(i);
      out.caseOnly++;
      out.caseExample ??= [cell.trim(), mine[how.indexOf("case")]];
    }
  });
  return out;
}

/**
 * The response among `columns`: the first the names prefer, else the longest on average —
 * a column named as a target only when there is no other.
 */
function responseOf(
  table: ColumnTable,
  columns: readonly number[],
  hints: ColumnHints,
  named: ReadonlySet<number>,
): number | null {
  const preferred = (hints.preferResponse ?? []).find((c) => columns.includes(c));
  if (preferred !== undefined) return preferred;
  const unnamed = columns.filter((c) => !named.has(c));
  const pool = unnamed.length > 0 ? unnamed : columns;
  const meanLength = (c: number) =>
    table.rows.reduce((s, r) => s + (r[c]?.length ?? 0), 0) / Math.max(1, table.rows.length);
  let best: number | null = null;
  for (const c of pool) if (best === null || meanLength(c) > meanLength(best)) best = c;
  return best;
}

/** `n of m` rows, with the share when it is not all of them. */
function ofRows(n: number, m: number): string {
  return n === m ? `${n} of ${m}` : `${n} of ${m} (${percent(n, m)})`;
}

/** A share as a percentage with one decimal (`80.4%`). */
export function percent(n: number, m: number): string {
  return `${(100 * n / Math.max(1, m)).toFixed(1)}%`;
}

/**
 * The sentence that says why: what the target column matched, or why there is none, with the
 * remedy when the rows could not tell.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const evidence = { rows: 540, identified: 540, matches: 540, caseOnly: 0, caseExample: null,
 *   best: 2, tiedWith: null, shares: [], namedTarget: null };
 * const name = (c: number) => `column ${c}`;
 * assert.equal(
 *   evidenceText({ kind: "chosen", input: 0, response: 1, target: 2, evidence }, name),
 *   "target column equals each row's data-set target on 540 of 540 sampled rows",
 * );
 * const lower = { ...evidence, caseOnly: 540, caseExample: ["no", "No"] as [string, string] };
 * assert.equal(
 *   evidenceText({ kind: "chosen", input: 0, response: 1, target: 2, evidence: lower }, name),
 *   "target column equals each row's data-set target on 540 of 540 sampled rows (on 540 only " +
 *     'when case is ignored, e.g. "no" for "No": the data set\'s targets are scored)',
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
  const namedNote = e.namedTarget === null ? "" : namedTargetNote(e, name, kind);
  if (choice.target === null) {
    return (e.best === null
      ? `no target ${kind}: nothing but the question and the response`
      : `no target ${kind}: none equals each row's data-set target on most rows (best: ` +
        `${name(e.best)}, on ${of}); rows are scored against the data set's targets`) + namedNote;
  }
  const caseNote = e.caseOnly === 0 ? "" : ` (on ${e.caseOnly} only when case is ignored, e.g. ` +
    `${JSON.stringify(e.caseExample![0])} for ${JSON.stringify(e.caseExample![1])}: the ` +
    "data set's targets are scored)";
  if (e.tiedWith !== null) {
    return `${name(e.tiedWith)} and ${name(choice.target)} both equal each row's data-set ` +
      `target on ${of}, so the response cannot be told from the target (a model right on ` +
      `every row read?); ${name(choice.target)} taken as the target${caseNote}${remedy}`;
  }
  return `target ${kind} equals each row's data-set target on ${of}${caseNote}${namedNote}`;
}

/** What a column whose name says target, but which is not the target, matched. */
function namedTargetNote(
  e: ColumnEvidence,
  name: (column: number) => string,
  kind: string,
): string {
  const s = e.shares.find((x) => x.column === e.namedTarget);
  const n = s?.matches ?? 0;
  return `; the name of ${kind} ${name(e.namedTarget!)} says target, but it equals the ` +
    `data set's target on only ${ofRows(n, e.identified)} rows`;
}

/**
 * Why the rows cannot choose the target: every candidate's share, which columns could each
 * be the target and why, and what may explain it. `map(response, target)` writes the `--map`
 * that takes those two columns (the caller leaves the response out when it is not a column);
 * the alternatives name the column a name says is the target first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const evidence = { rows: 750, identified: 750, matches: 603, caseOnly: 0, caseExample: null,
 *   best: 1, tiedWith: null, namedTarget: null, shares: [{ column: 1, matches: 603, caseOnly: 0 },
 *   { column: 2, matches: 526, caseOnly: 0 }] };
 * const choice = { kind: "refused" as const, why: "unsure" as const, input: 0,
 *   columns: [1, 2] as [number, number], only: [150, 73] as [number, number], evidence };
 * const text = refusalText(choice, (c) => `column ${c}`, "column", (r, t) =>
 *   `--map input=0,response=${r},target=${t}`);
 * assert.ok(text.includes("column 1 on 603 of 750 (80.4%), column 2 on 526 of 750 (70.1%)"));
 * assert.ok(text.endsWith("if column 2 is the gold, --map input=0,response=1,target=2; if " +
 *   "column 1 is, --map input=0,response=2,target=1"));
 * ```
 */
export function refusalText(
  choice: Extract<ColumnChoice, { kind: "refused" }>,
  name: (column: number) => string,
  kind: "column" | "field",
  map: (response: number, target: number) => string,
  named: ReadonlySet<number> = new Set(),
): string {
  const e = choice.evidence;
  const [x, y] = choice.columns;
  const shares = e.shares.map((s) =>
    `${name(s.column)}${named.has(s.column) ? " (a target name)" : ""} on ` +
    `${ofRows(s.matches, e.identified)}`
  ).join(", ");
  const read = e.identified < e.rows ? ` (${e.rows} read)` : "";
  const why = {
    unsure: `no ${kind} equals each row's data-set target on at least ${100 * SURE}% of the ` +
      `rows whose question was found${read}`,
    close: `${name(x)} and ${name(y)} both equal each row's data-set target on most rows, ` +
      `and each on rows where the other does not (${name(x)} alone on ${choice.only[0]}, ` +
      `${name(y)} alone on ${choice.only[1]})`,
    names: `the rows point to ${name(x)} as the target, but the name of ${name(y)} says ` +
      "target and it equals the data set's target on most rows too",
    duplicate: `${name(x)} and ${name(y)} are equal on every row read, and equal the data ` +
      "set's target on only some: a duplicated column, and no target among them?",
  }[choice.why];
  const head = `the ${kind}s cannot be told apart by content: ${why} (${shares}). `;
  if (x === y) { // the only candidate (the response is a chat transcript's)
    return `${head}If ${name(x)} is the log's gold, its targets differ from this data set's ` +
      "on many rows (another version of the data set? check --data) or are written in " +
      `another form (\`8.\` for \`8\`); to score it all the same: ${map(x, x)}`;
  }
  // the column a name says is the target first, else the later one (question, response, target)
  const [gold, other] = named.has(x) && !named.has(y)
    ? [x, y]
    : named.has(y) && !named.has(x)
    ? [y, x]
    : [Math.max(x, y), Math.min(x, y)];
  return `${head}One is likely ` +
    "the model's answers, the other the log's gold — whose targets then differ from this " +
    "data set's on many rows (another version of the data set? check --data) or are " +
    "written in another form (`8.` for `8`). Look at the file and choose with --map: if " +
    `${name(gold)} is the gold, ${map(other, gold)}; if ${name(other)} is, ${map(gold, other)}`;
}
