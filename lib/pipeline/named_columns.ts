/**
 * Names checked against content (review 22c, N2): a generic log whose names give the
 * question, the response and the target (`question,target,response`, `input`/`response`/
 * `target` keys) is read as named — unless its rows say the names are the wrong way round.
 * A model's answers equal each row's data-set target only where the model was right, a gold
 * column on (nearly) every row; so when the column named as the response equals the row's
 * data-set target on most rows (more than half of those whose question was found) and on
 * more rows than the column named as the target, the names are swapped — read as named,
 * every row the model got right would score correct against its own answer and the rest be
 * quarantined as "target differs": 100% for any model.
 *
 * Such a file is refused, not swapped: the names are the user's word, and the rows cannot
 * tell a swap from a log's gold of another data version that the model happens to agree
 * with the data set against. The refusal names both columns with their counts and the two
 * `--map` choices; an explicit `--map` of the columns is read as given. Equal counts (a model
 * right on every row read) leave the names standing: the scores are the same either way.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const examples: Record<string, string> = { "Q1?": "(A)", "Q2?": "(B)", "Q3?": "(C)" };
 * const lookup = { targetsOf: (s: string) => examples[s] ? [examples[s]] : null };
 * // named question, target, response — but "target" holds the model's answers
 * const table = { columns: ["question", "target", "response"], rows: [
 *   ["Q1?", "(A)", "(A)"], ["Q2?", "(C)", "(B)"], ["Q3?", "(C)", "(C)"]] };
 * const counts = namedCounts(table, lookup, { input: 0, response: 2, target: 1 });
 * assert.deepEqual(counts, { identified: 3, response: 3, target: 2 });
 * assert.equal(namesVerdict(counts), "swapped");
 * assert.equal(namesVerdict({ identified: 3, response: 2, target: 3 }), "names");
 * assert.equal(namesVerdict({ identified: 3, response: 3, target: 3 }), "tie");
 * ```
 * @module
 */
import { type ColumnTable, percent, type TargetLookup } from "./columns.ts";
import { targetMatch } from "./examples.ts";

/** The named columns (positions in the table's `columns`). */
export interface NamedColumns {
  input: number;
  response: number;
  target: number;
}

/** How often the named response and target columns equal each row's data-set target. */
export interface NamedCounts {
  /** Rows whose question cell is a data-set question. */
  identified: number;
  /** Of those, rows whose response cell equals the row's data-set target. */
  response: number;
  /** Of those, rows whose target cell equals it. */
  target: number;
}

/** Count, over the rows of `table` whose question is found, where each named column matches. */
export function namedCounts(
  table: ColumnTable,
  lookup: TargetLookup,
  named: NamedColumns,
): NamedCounts {
  const counts: NamedCounts = { identified: 0, response: 0, target: 0 };
  const matches = (cell: string | null, targets: readonly string[]) =>
    typeof cell === "string" && targets.some((t) => targetMatch(cell, t) !== null);
  for (const row of table.rows) {
    const question = row[named.input];
    const targets = typeof question === "string" ? lookup.targetsOf(question) : null;
    if (targets === null) continue;
    counts.identified++;
    if (matches(row[named.response], targets)) counts.response++;
    if (matches(row[named.target], targets)) counts.target++;
  }
  return counts;
}

/** Pooled counts of several samples. */
export function addCounts(all: readonly NamedCounts[]): NamedCounts {
  return all.reduce(
    (s, c) => ({
      identified: s.identified + c.identified,
      response: s.response + c.response,
      target: s.target + c.target,
    }),
    { identified: 0, response: 0, target: 0 },
  );
}

/**
 * What the counts say of the names: `swapped` (the response column matches on most rows,
 * and more often than the target column), `names` (they stand), or `tie` (equal counts on
 * some rows: more rows may tell).
 */
export function namesVerdict(c: NamedCounts): "swapped" | "names" | "tie" {
  if (c.response * 2 > c.identified && c.response > c.target) return "swapped";
  return c.response === c.target && c.response > 0 ? "tie" : "names";
}

/**
 * Why a file whose names look swapped is not read: the counts, and the `--map` for each
 * reading (`map(response, target)` writes one).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const text = swappedText({ identified: 80, response: 80, target: 52 }, ["q", "target",
 *   "response"], { input: 0, response: 2, target: 1 }, (r, t) => `--map response=${r},target=${t}`);
 * assert.ok(text.includes("response, equals each row's data-set target on 80 of 80 rows"));
 * assert.ok(text.includes("target, on only 52 (65.0%)"));
 * assert.ok(text.endsWith("if response holds the gold, --map response=target,target=response; " +
 *   "if the names are right, --map response=response,target=target"));
 * ```
 */
export function swappedText(
  c: NamedCounts,
  names: readonly (string | number)[],
  named: NamedColumns,
  map: (response: string, target: string) => string,
  kind: "column" | "field" = "field",
): string {
  const response = String(names[named.response]);
  const target = String(names[named.target]);
  return `not scored (its names look swapped): the ${kind} named as the response, ${response}, ` +
    `equals each row's data-set target on ${c.response} of ${c.identified} rows whose ` +
    `question was found, the ${kind} named as the target, ${target}, on only ${c.target} ` +
    `(${percent(c.target, c.identified)}): ${target} likely holds the model's answers and ` +
    `${response} the gold (read as named, each row would be scored against the model's own ` +
    "answer: only the rows it got right kept, each correct). Look at the " +
    `file and choose with --map: if ${response} holds the gold, ${map(target, response)}; ` +
    `if the names are right, ${map(response, target)}`;
}
