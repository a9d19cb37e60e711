/**
 * The `--map field=col,…` column mapping given on the command line, for generic JSONL/CSV result
 * files: researchers' own files such as `{input, target, prediction}` per line, a headerless
 * CSV `input,prediction,target`, or chat transcripts with a `message_log`. This module parses
 * it; the sources apply it (`sources/fields.ts` turns it into a field mapping).
 *
 * Mapping syntax (`field` is a canonical field, `record.ts`'s `RECORD_FIELDS`):
 * - `field=<n>`: the n-th column (0-based). When every column reference is a position, a CSV
 *   file has no header row and a JSONL line is a JSON array.
 * - `field=<name>`: the column (CSV header) or key (JSONL) of that name; in JSONL a dotted path
 *   reaches into nested values (`message_log.-1.content`: the last message's content).
 * - `field==<text>`: the literal text for every row (e.g. `task==boardgame_qa`).
 *
 * Fields not mapped keep their canonical meaning (a `task` column stays the task).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseColumnMap } from "@runlens/logs/mapped.ts";
 * const map = parseColumnMap("input=0,response=1,target=2,task==nycc"); // headerless CSV
 * assert.deepEqual(map.map((m) => m.field), ["input", "response", "target", "task"]);
 * assert.ok(isPositional(map));
 * ```
 * @module
 */
import { RECORD_FIELDS } from "./record.ts";

/** A canonical field of a run log. */
export type CanonicalField = (typeof RECORD_FIELDS)[number];

/** Where one canonical field comes from. */
export type ColumnSource =
  | { kind: "position"; index: number }
  | { kind: "name"; name: string }
  | { kind: "literal"; value: string };

/** One `field=col` item of a mapping. */
export interface ColumnMapping {
  field: CanonicalField;
  source: ColumnSource;
  /** The item as written, for messages. */
  spec: string;
}

/** A parsed `--map` value. */
export type ColumnMap = ColumnMapping[];

const isField = (f: string): f is CanonicalField =>
  (RECORD_FIELDS as readonly string[]).includes(f);

/**
 * Parse `field=col,…` (see the module doc). Throws a one-line message for a bad item, an
 * unknown field or a field given twice.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseColumnMap("response=output")[0].source, { kind: "name", name: "output" });
 * const literal = parseColumnMap("input=0,task==nycc")[1].source;
 * assert.deepEqual(literal, { kind: "literal", value: "nycc" });
 * assert.throws(() => parseColumnMap("answer=1")); // not a canonical field
 * ```
 */
export function parseColumnMap(spec: string): ColumnMap {
  const items = spec.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (items.length === 0) throw new Error("--map needs field=column items");
  const out: ColumnMap = [];
  for (const item of items) {
    const eq = item.indexOf("=");
    if (eq <= 0 || eq === item.length - 1) {
      throw new Error(`--map item "${item}" is not field=column`);
    }
    const field = item.slice(0, eq).trim();
    if (!isField(field)) {
      throw new Error(
        `--map item "${item}": unknown field "${field}" (fields: ${RECORD_FIELDS.join(", ")})`,
      );
    }
    if (out.some((m) => m.field === field)) throw new Error(`--map gives "${field}" twice`);
    const rest = item.slice(eq + 1);
    const source: ColumnSource = rest.startsWith("=")
      ? { kind: "literal", value: rest.slice(1) }
      : /^\d+$/.test(rest.trim())
      ? { kind: "position", index: Number(rest.trim()) }
      : { kind: "name", name: rest.trim() };
    out.push({ field, source, spec: item });
  }
  return out;
}

/**
 * Whether the mapping refers to columns by position only (then CSV files have no header).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isPositional(parseColumnMap("input=0,response=1,task==nycc")), true);
 * assert.equal(isPositional(parseColumnMap("input=0,response=output")), false);
 * ```
 */
export function isPositional(map: ColumnMap): boolean {
  const refs = map.filter((m) => m.source.kind !== "literal");
  return refs.length > 0 && refs.every((m) => m.source.kind === "position");
}
