/**
 * Generic JSONL/CSV result files read through a column mapping given on the command line
 * (`--map field=col,…`): researchers' own files such as `{input, target, prediction}` per line,
 * a headerless CSV `input,prediction,target`, or chat transcripts with a `message_log`.
 *
 * Mapping syntax (`field` is a canonical field, see `raw.ts`):
 * - `field=<n>`: the n-th column (0-based). When every column reference is a position, a CSV
 *   file has no header row and a JSONL line is a JSON array.
 * - `field=<name>`: the column (CSV header) or key (JSONL) of that name; in JSONL a dotted path
 *   reaches into nested values (`message_log.-1.content`: the last message's content).
 * - `field==<text>`: the literal text for every row (e.g. `task==boardgame_qa`).
 *
 * Fields not mapped keep their canonical meaning (a `task` column stays the task); a column
 * that a mapping takes is not repeated in `extra`; a canonical column whose field is mapped
 * from elsewhere goes to `extra` as `orig_<name>`; all other columns go to `extra`
 * (headerless CSV: `col<n>`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseColumnMap, readMappedLog } from "@runlens/logs/mapped.ts";
 * const map = parseColumnMap("input=0,response=1,target=2,task==nycc"); // headerless CSV
 * const text = Deno.readTextFileSync("tests/fixtures/logs/formats/mapped/answers.csv");
 * const { frame } = readMappedLog(text, map, "csv");
 * assert.deepEqual(frame.select("task", "input", "response", "target").row(0), [
 *   "nycc",
 *   "Which caption is funniest?",
 *   "The answer is: (A)",
 *   "(A)",
 * ]);
 * ```
 * @module
 */
import { splitCsvRecords } from "./csv.ts";
import {
  CANONICAL_FIELDS,
  type CanonicalField,
  frameFromRecords,
  isScalar,
  type RawLog,
} from "./raw.ts";
import { jsonLineReason } from "./quarantine.ts";

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
  (CANONICAL_FIELDS as readonly string[]).includes(f);

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
        `--map item "${item}": unknown field "${field}" (fields: ${CANONICAL_FIELDS.join(", ")})`,
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

/**
 * The cells of one CSV record: quotes removed, `""` unescaped; an empty unquoted cell is null
 * (absent), a quoted empty cell the empty string.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(csvCells('a,,"",x'), ["a", null, "", "x"]);
 * ```
 */
export function csvCells(record: string): (string | null)[] {
  const cells: (string | null)[] = [];
  let current = "";
  let quoted = false;
  let wasQuoted = false;
  const push = () => cells.push(current === "" && !wasQuoted ? null : current);
  for (let i = 0; i < record.length; i++) {
    const c = record[i];
    if (c === '"') {
      if (quoted && record[i + 1] === '"') {
        current += '"';
        i++;
      } else {
        quoted = !quoted;
        wasQuoted = true;
      }
    } else if (c === "," && !quoted) {
      push();
      current = "";
      wasQuoted = false;
    } else current += c;
  }
  push();
  return cells;
}

/**
 * A value inside a JSON object by key, or by dotted path (`a.b.0`, negative list indices count
 * from the end); undefined when absent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lookupPath({ log: [{ c: "x" }, { c: "y" }] }, "log.-1.c"), "y");
 * assert.equal(lookupPath({ "a.b": 1 }, "a.b"), 1); // a key with a dot wins
 * assert.equal(lookupPath({ log: [] }, "log.0.c"), undefined);
 * ```
 */
export function lookupPath(obj: unknown, path: string): unknown {
  if (obj && typeof obj === "object" && !Array.isArray(obj) && path in obj) {
    return (obj as Record<string, unknown>)[path];
  }
  let at: unknown = obj;
  for (const part of path.split(".")) {
    if (Array.isArray(at) && /^-?\d+$/.test(part)) {
      const i = Number(part);
      at = at[i < 0 ? at.length + i : i];
    } else if (at && typeof at === "object" && !Array.isArray(at)) {
      at = (at as Record<string, unknown>)[part];
    } else return undefined;
    if (at === undefined) return undefined;
  }
  return at;
}

/** Apply the mapping to one record given as named columns; the error reason or the record. */
function mapRecord(
  columns: Record<string, unknown>,
  map: ColumnMap,
  get: (source: ColumnSource) => unknown,
  consumed: ReadonlySet<string>,
): Record<string, unknown> | string {
  const mapped = new Set(map.map((m) => m.field as string));
  const out: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(columns)) {
    if (consumed.has(name)) continue;
    if (mapped.has(name)) out[`orig_${name}`] = value;
    else out[name] = value;
  }
  for (const m of map) {
    const value = get(m.source);
    if (!isScalar(value ?? null)) {
      return `field "${m.field}" (--map ${m.spec}) is a list or object, not a text or number`;
    }
    out[m.field] = value ?? null;
  }
  for (const f of CANONICAL_FIELDS) {
    if (!mapped.has(f) && !isScalar(out[f] ?? null)) {
      return `field "${f}" is a list or object, not a text or number`;
    }
  }
  return out;
}

/**
 * Read the text of a JSONL or CSV file through `map`. Never throws on bad records (they go to `bad`);
 * throws when the mapping does not fit the file (a named column missing from the CSV header, a
 * position beyond the columns of a headerless CSV).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const text = Deno.readTextFileSync("tests/fixtures/logs/formats/mapped/renamed.jsonl");
 * const { rowsIn, frame, bad } = readMappedLog(text, parseColumnMap("response=output"), "jsonl");
 * assert.deepEqual([rowsIn, frame.height, bad.length], [6, 3, 3]);
 * assert.equal(frame.getColumn("extra").get(0), '{"orig_response":"draft","temperature":0.7}');
 * ```
 */
export function readMappedLog(
  text: string,
  map: ColumnMap,
  kind: "jsonl" | "csv",
): RawLog {
  const body = text.replace(/^\ufeff/, "");
  return kind === "csv" ? readMappedCsv(body, map) : readMappedJsonl(body, map);
}

function readMappedJsonl(text: string, map: ColumnMap): RawLog {
  const positional = isPositional(map);
  const consumed = new Set(
    map.flatMap((m) =>
      m.source.kind === "name" && !m.source.name.includes(".") ? [m.source.name] : []
    ),
  );
  const all = text.split("\n");
  const lastLine = all.reduce((last, l, i) => l.trim() !== "" ? i + 1 : last, 0);
  const records: Record<string, unknown>[] = [];
  const lines: number[] = [];
  const bad: RawLog["bad"] = [];
  let rowsIn = 0;
  all.forEach((raw, i) => {
    const line = i + 1;
    const body = raw.replace(/\r$/, "");
    if (body.trim() === "") return;
    rowsIn++;
    let value: unknown;
    try {
      value = JSON.parse(body);
    } catch (e) {
      bad.push({
        line,
        reason: jsonLineReason(e, line === lastLine && !text.endsWith("\n")),
      });
      return;
    }
    const isArray = Array.isArray(value);
    if (value === null || typeof value !== "object" || isArray !== positional) {
      bad.push({
        line,
        reason: positional
          ? "not a JSON array (--map gives column positions)"
          : "not a JSON object (--map gives field names)",
      });
      return;
    }
    const columns = isArray
      ? Object.fromEntries((value as unknown[]).map((v, k) => [`col${k}`, v]))
      : value as Record<string, unknown>;
    const positions = new Set(
      map.flatMap((m) => m.source.kind === "position" ? [`col${m.source.index}`] : []),
    );
    const r = mapRecord(
      columns,
      map,
      (s) =>
        s.kind === "literal"
          ? s.value
          : s.kind === "position"
          ? (value as unknown[])[s.index]
          : lookupPath(value, s.name),
      isArray ? positions : consumed,
    );
    if (typeof r === "string") bad.push({ line, reason: r });
    else {
      records.push(r);
      lines.push(line);
    }
  });
  return { frame: frameFromRecords(records, lines), bad, rowsIn };
}

function readMappedCsv(text: string, map: ColumnMap): RawLog {
  const all = splitCsvRecords(text);
  if (all.length === 0) return { frame: frameFromRecords([], []), bad: [], rowsIn: 0 };
  const positional = isPositional(map);
  let names: string[];
  let body = all;
  let width: number;
  if (positional) {
    const counts = new Map<number, number>();
    for (const r of all) if (!r.unterminated) counts.set(r.fields, (counts.get(r.fields) ?? 0) + 1);
    width = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? all[0].fields;
    names = Array.from({ length: width }, (_, k) => `col${k}`);
  } else {
    const [header, ...rest] = all;
    if (header.unterminated) throw new Error("the CSV header has an unterminated quote");
    names = (csvCells(header.text)).map((n) => (n ?? "").trim());
    width = header.fields;
    body = rest;
  }
  for (const m of map) {
    if (m.source.kind === "position" && m.source.index >= width) {
      throw new Error(
        `--map ${m.spec}: the records have ${width} columns (positions 0–${width - 1})`,
      );
    }
    if (m.source.kind === "name" && !names.includes(m.source.name)) {
      throw new Error(
        `--map ${m.spec}: no column "${m.source.name}" (columns: ${names.join(", ")})`,
      );
    }
  }
  const consumed = new Set(
    map.flatMap((m) =>
      m.source.kind === "name"
        ? [m.source.name]
        : m.source.kind === "position"
        ? [names[m.source.index]]
        : []
    ),
  );
  const records: Record<string, unknown>[] = [];
  const lines: number[] = [];
  const bad: RawLog["bad"] = [];
  for (const r of body) {
    if (r.unterminated) {
      bad.push({ line: r.line, reason: "truncated last record (unterminated quoted field)" });
      continue;
    }
    if (r.fields !== width) {
      bad.push({
        line: r.line,
        reason: positional
          ? `CSV record has ${r.fields} fields, the other records have ${width}`
          : `CSV record has ${r.fields} fields, the header has ${width}`,
      });
      continue;
    }
    const cells = csvCells(r.text);
    const columns = Object.fromEntries(names.map((n, k) => [n, cells[k]]));
    const out = mapRecord(
      columns,
      map,
      (s) =>
        s.kind === "literal" ? s.value : s.kind === "position" ? cells[s.index] : columns[s.name],
      consumed,
    );
    if (typeof out === "string") bad.push({ line: r.line, reason: out });
    else {
      records.push(out);
      lines.push(r.line);
    }
  }
  return { frame: frameFromRecords(records, lines), bad, rowsIn: body.length };
}
