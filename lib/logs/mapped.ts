/**
 * The `--map field=col,…` column mapping given on the command line, for generic JSONL/CSV result
 * files: researchers' own files such as `{input, target, prediction}` per line, a headerless
 * CSV `input,prediction,target`, or chat transcripts with a `message_log`. This module parses
 * it; the sources apply it (`sources/fields.ts` turns it into a field mapping).
 *
 * The one `--map` parser of every command: `field` is a canonical field (`record.ts`'s
 * `RECORD_FIELDS`) or a record field of a registered benchmark (e.g. a `level` annotation, an
 * `id`), given as the caller passes them; a record field that is another name of a canonical
 * field or of a row column (`reference` → `target`, `id` → `example_id`) maps that one. Syntax:
 * - `field=<n>`: the n-th column (0-based). When every column reference is a position, a CSV
 *   file has no header row and a JSONL line is a JSON array.
 * - `field=<name>`: the column (CSV header) or key (JSONL) of that name; in JSONL a dotted path
 *   reaches into nested values (`message_log.-1.content`: the last message's content).
 * - `field==<text>`: the literal text for every row (e.g. `task==boardgame_qa`).
 *
 * Fields not mapped keep their canonical meaning (a `task` column stays the task). Items may
 * come in several `--map` values: the command joins them with commas.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseColumnMap } from "@runlens/logs/mapped.ts";
 * const map = parseColumnMap("input=0,response=1,target=2,task==nycc"); // headerless CSV
 * assert.deepEqual(map.map((m) => m.field), ["input", "response", "target", "task"]);
 * assert.ok(isPositional(map));
 * // a benchmark's record fields, and another name of a canonical field
 * const fields = [{ name: "level" }, { name: "reference", as: "target" }, { name: "id", as: "example_id" }];
 * const arb = parseColumnMap("reference=gold,id=problem_id,level==3", fields);
 * assert.deepEqual(arb.map((m) => [m.field, m.source]), [
 *   ["target", { kind: "name", name: "gold" }],
 *   ["example_id", { kind: "name", name: "problem_id" }],
 *   ["level", { kind: "literal", value: "3" }],
 * ]);
 * ```
 * @module
 */
import { RECORD_FIELDS, RECORD_SLOTS } from "./record.ts";

/** A canonical field of a run log. */
export type CanonicalField = (typeof RECORD_FIELDS)[number];

/** Where one canonical field comes from. */
export type ColumnSource =
  | { kind: "position"; index: number }
  | { kind: "name"; name: string }
  | { kind: "literal"; value: string };

/** One `field=col` item of a mapping. */
export interface ColumnMapping {
  /**
   * A canonical field, or where a record field goes: `example_id`, `subset`, or its name
   * (see {@link isCanonicalField}).
   */
  field: string;
  /** Where its value comes from: a column's position, a column's name, or a literal value. */
  source: ColumnSource;
  /** The item as written, for messages. */
  spec: string;
}

/** A parsed `--map` value. */
export type ColumnMap = ColumnMapping[];

/**
 * Whether a mapped field is a canonical one (else a benchmark's record field).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual([isCanonicalField("target"), isCanonicalField("level")], [true, false]);
 * ```
 */
export const isCanonicalField = (f: string): f is CanonicalField =>
  (RECORD_FIELDS as readonly string[]).includes(f);

/** A benchmark's record field as `--map` knows it: its name, and what it is another name of. */
export interface MappableField {
  /** The field's name (a `--map` key). */
  name: string;
  /** The field it is another name of, if any. */
  as?: string;
}

/** Where a `--map` key goes: a canonical field, a row column, or the record field itself. */
function fieldOf(key: string, recordFields: readonly MappableField[]): string | null {
  if (isCanonicalField(key)) return key;
  const r = recordFields.find((f) => f.name === key);
  if (!r) return null;
  const alias = r.as ?? "";
  return isCanonicalField(alias) || (RECORD_SLOTS as readonly string[]).includes(alias)
    ? alias
    : key;
}

/**
 * Parse `field=col,…` (see the module doc); `recordFields`: the registered benchmarks' record
 * fields it accepts besides the canonical ones. Throws a one-line message for a bad item, an
 * unknown field or a field given twice (also under two names of it).
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
export function parseColumnMap(
  spec: string,
  recordFields: readonly MappableField[] = [],
): ColumnMap {
  const items = spec.split(",").map((s) => s.trim()).filter((s) => s !== "");
  if (items.length === 0) throw new Error("--map needs field=column items");
  const out: ColumnMap = [];
  for (const item of items) {
    const eq = item.indexOf("=");
    if (eq <= 0 || eq === item.length - 1) {
      throw new Error(`--map item "${item}" is not field=column`);
    }
    const key = item.slice(0, eq).trim();
    const field = fieldOf(key, recordFields);
    if (field === null) {
      const names = [...RECORD_FIELDS, ...recordFields.map((f) => f.name)];
      throw new Error(`--map item "${item}": unknown field "${key}" (fields: ${names.join(", ")})`);
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
