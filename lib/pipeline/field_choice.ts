/**
 * The fields of generic JSON-lines and CSV logs, decided once on the main thread for the plan
 * (`plan.ts`): by names (`logs/sources/fields.ts`), and — when names leave a choice — by each
 * row's own evidence (`columns.ts`, issue 22 item 4):
 * - a **headerless CSV** (no header names a response): columns by content; a first row of
 *   short distinct cells none of which is a question is a header of names runlens does not
 *   know, and the columns are then mapped by those names;
 * - **names that leave a choice**: `answer` as the response or the target (beside `label`,
 *   `model_answer`, …), no response name, or no question name (and no index): the question,
 *   target and response among the record's text fields by content.
 *
 * Files of one folder with the same layout (a headerless CSV's width, a header's names, a
 * JSON-lines file's keys) pool their sampled rows and get one decision, said once; a file
 * whose own rows contradict it is decided alone. When two columns match on every sampled row
 * (a model right on each), more rows are read before the tie is settled by the usual order and
 * said. `--map` is laid over what was detected, as before.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { discover } from "@runlens/logs/discover.ts";
 * const dir = Deno.makeTempDirSync();
 * const examples: Record<string, string> = { "Q1?": "(A)", "Q2?": "(B)", "Q3?": "(C)" };
 * const targets = { targetsOf: (s: string) => examples[s] ? [examples[s]] : null };
 * // question, target, the model's answer (right once in three): no header
 * Deno.writeTextFileSync(`${dir}/run.csv`, "Q1?,(A),(A)\nQ2?,(B),(C)\nQ3?,(C),(A)\n");
 * const [d] = decideFields(discover([dir]).files, { targets });
 * assert.deepEqual(d?.fieldsUsed, { input: "column 0", response: "column 2", target: "column 1" });
 * assert.equal(d?.fieldsEvidence,
 *   "target column equals each row's data-set target on 3 of 3 sampled rows");
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import { dirname, resolve } from "node:path";
import { fileSource } from "../codecs/byte_source.ts";
import { type FoundFile, GENERIC_FORMATS } from "../logs/discover.ts";
import { gunzipHead } from "../codecs/gzip_stream.ts";
import { DEFAULT_LIMITS } from "../logs/limits.ts";
import { sampleCsvRows } from "../logs/sources/csv.ts";
import {
  type DetectedFields,
  detectFields,
  FIELD_NAMES,
  FIELD_ORDER,
  sampleJsonRecords,
  withOverrides,
} from "../logs/sources/fields.ts";
import type { FieldMapping, SourceLimits } from "../logs/sources/types.ts";
import {
  chooseColumns,
  type ColumnChoice,
  type ColumnHints,
  type ColumnTable,
  evidenceText,
  refusalText,
  type TargetLookup,
} from "./columns.ts";
import { missingFieldsHint, separatorHint } from "./missing_fields.ts";
import {
  addCounts,
  type NamedColumns,
  namedCounts,
  namesVerdict,
  swappedText,
} from "./named_columns.ts";

/** What {@link decideFields} needs besides the files. */
export interface FieldOptions {
  /** The parsed `--map`, applied over detection to every generic log. */
  map?: FieldMapping | null;
  /** The data sets' targets of a question: columns by each row's own evidence. */
  targets?: TargetLookup;
  limits?: SourceLimits;
}

/** How a generic log is read. */
export interface FieldsDecision {
  format: string;
  fields: FieldMapping | null;
  /** Canonical field → where it was read from, for `--json`'s `fields`. */
  fieldsUsed: Record<string, string> | null;
  /** Discovery's reason for the format (and the detection's, when it changed it). */
  reason: string;
  /** Why the columns were chosen so, when rows' content chose them (null: names did). */
  fieldsEvidence: string | null;
  /** Why the file is not read: its rows cannot choose its columns (null: it is read). */
  refused: string | null;
  /** What to add to a record's "missing …" reason: the fields seen, a `--map` (or null). */
  fieldsHint: string | null;
  /** The rows' content chose the fields (not names, not `--map`). */
  fieldsByContent: boolean;
  /** The keys (JSONL) or header names (CSV) of its first records; null: none read. */
  keys: string[] | null;
}

/** Bytes of a file's head sampled, and records sampled from them. */
const SAMPLE = { bytes: 1 << 20, records: 20 };
/** What is read when two columns tie on every sampled row, or the rows are too few. */
const MORE = { bytes: 16 << 20, records: 5000 };
/** Rows whose question was found that a decision needs before more are read. */
const MIN_ROWS = 100;

/** Names that say a column holds the gold (besides `FIELD_NAMES.target`). */
const TARGET_NAMES = new Set([
  ...FIELD_NAMES.target,
  "answer_key",
  "gold_label",
  "true_label",
  "reference_answer",
  "expected_output",
]);

type Detected = DetectedFields;

/** A layout whose columns content decides: its rows, and what names fixed. */
interface Layout {
  /** Folder, kind and layout: files with the same key pool their rows. */
  key: string;
  /** Headerless CSV: columns are positions. */
  positional: boolean;
  table: ColumnTable;
  hints: ColumnHints;
  /** Names gave all three columns: content only checks they are not swapped (`named_columns.ts`). */
  verify?: NamedColumns;
}

/** A generic log, sampled. */
interface Sample {
  index: number;
  found: FoundFile;
  csv: boolean;
  /** What names say (null: a CSV whose header names no response). */
  named: Detected | null;
  layout: Layout | null;
  /** The fields seen and a `--map`, for when nothing gives a response. */
  hint: string | null;
  /** The keys of its first records (JSONL), or its header (CSV); null: none. */
  keys: string[] | null;
}

/** A choice for some files, and what the text says of it (or why they are not read). */
interface Decided {
  /** Null: names chose, content only checked them. */
  choice: ColumnChoice | null;
  evidence: string | null;
  refused: string | null;
}

/** Each found file's fields (null for the files that are not generic logs), in order. */
export function decideFields(
  found: readonly FoundFile[],
  options: FieldOptions,
): (FieldsDecision | null)[] {
  const samples: Sample[] = [];
  found.forEach((f, index) => {
    if (GENERIC_FORMATS.has(f.format)) samples.push(sampleOf(f, index, options, SAMPLE));
  });
  const decided = new Map<Sample, Decided>();
  const groups = Map.groupBy(samples.filter((s) => s.layout !== null), (s) => s.layout!.key);
  for (const group of groups.values()) {
    if (group[0].layout!.verify) verifyGroup(group, options, decided);
    else decideGroup(group, options, decided);
  }
  const out: (FieldsDecision | null)[] = found.map(() => null);
  for (const s of samples) out[s.index] = decisionOf(s, decided.get(s) ?? null, options);
  return out;
}

/**
 * Whether content must decide some generic log's fields (a headerless CSV, names that leave a
 * choice): only then are the data sets indexed before planning — indexing them on the main
 * thread costs a load that names its fields (a canonical log) time its Workers repeat anyway.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { discover } from "@runlens/logs/discover.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/named.jsonl`, '{"task": "nycc", "example_index": 0, "response": "x"}\n');
 * assert.equal(contentDecides(discover([dir]).files, {}), false);
 * Deno.writeTextFileSync(`${dir}/bare.csv`, "Q1?,(A),(A)\nQ2?,(B),(C)\n");
 * assert.equal(contentDecides(discover([dir]).files, {}), true);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function contentDecides(found: readonly FoundFile[], options: FieldOptions): boolean {
  // a lookup that knows no question: a sample gets a layout exactly when content would decide
  const probe: FieldOptions = { ...options, targets: { targetsOf: () => null } };
  return found.some((f, i) =>
    GENERIC_FORMATS.has(f.format) && sampleOf(f, i, probe, SAMPLE).layout !== null
  );
}

/** The first records of a generic log, what names say, and the layout content may decide. */
function sampleOf(
  f: FoundFile,
  index: number,
  options: FieldOptions,
  size: { bytes: number; records: number },
): Sample {
  const head = headOf(f, size.bytes);
  const csv = f.format.endsWith("csv");
  const base = { index, found: f, csv };
  if (csv) return { ...base, ...csvSample(f, head, options, size.records) };
  const records = sampleJsonRecords(head, size.records, options.limits ?? DEFAULT_LIMITS);
  if (records.length === 0) return { ...base, named: null, layout: null, hint: null, keys: null };
  const named = detectFields(records);
  const keys = keysOf(records);
  const layout = options.targets ? layoutOf(f, "jsonl", keys, records, named) : null;
  return { ...base, named, layout, hint: hintOf(records, named), keys };
}

/** The hint of records whose names give no response or no question (null: they give both). */
function hintOf(records: readonly Record<string, unknown>[], named: Detected): string | null {
  return named.chat ? null : missingFieldsHint(records, named.fields);
}

/** A CSV's names (from its header) and, when they leave a choice, its layout. */
function csvSample(
  f: FoundFile,
  head: Uint8Array,
  options: FieldOptions,
  records: number,
): Pick<Sample, "named" | "layout" | "hint" | "keys"> {
  const rows = sampleCsvRows(head, records + 1, options.limits?.maxCsvColumns, f.separator);
  if (rows.length === 0) return { named: null, layout: null, hint: null, keys: null };
  const header = rows[0].map((c) => c ?? "");
  return { ...csvNamed(f, rows, header, options), keys: header };
}

/** What a CSV's header names, and the layout content may decide. */
function csvNamed(
  f: FoundFile,
  rows: (string | null)[][],
  header: string[],
  options: FieldOptions,
): Pick<Sample, "named" | "layout" | "hint"> {
  const objects = rows.slice(1).map((r) => Object.fromEntries(header.map((h, i) => [h, r[i]])));
  const named = detectFields(
    objects.length > 0 ? objects : [Object.fromEntries(header.map((h) => [h, ""]))],
  );
  const hint = separatorHint(rows[0]) ??
    (looksLikeNames(header)
      ? hintOf([Object.fromEntries(header.map((h) => [h, h]))], named)
      : POSITIONAL_HINT);
  const targets = options.targets;
  if (named.fields.response !== undefined) {
    const layout = targets && distinct(header) ? layoutOf(f, "csv", header, objects, named) : null;
    return { named, layout, hint };
  }
  if (!targets) return { named: null, layout: null, hint };
  if (isHeader(rows, targets)) {
    return { named: null, layout: namedLayout(f, "csv", header, objects), hint };
  }
  const width = commonWidth(rows);
  const table = { columns: Array.from({ length: width }, (_, i) => i), rows };
  const key = `${folderOf(f)}\0csv\0${width}`;
  return { named: null, layout: { key, positional: true, table, hints: {} }, hint };
}

/**
 * Whether names leave the question, response or target open: `answer` is one of them (it may
 * be either), no name gives a response, or none gives a question and no index ties the rows
 * either (a chat transcript gives both).
 */
function namesLeaveAChoice(named: Detected): boolean {
  const isAnswer = (k: unknown) => typeof k === "string" && k.toLowerCase() === "answer";
  if (isAnswer(named.fields.response) || isAnswer(named.fields.target)) return true;
  if (named.chat) return false;
  const f = named.fields;
  return f.response === undefined || (f.input === undefined && f.example_index === undefined);
}

/**
 * The layout of named records: content chooses when names leave a choice, and checks the
 * names when they give the question, the response and the target (null: nothing to check).
 */
function layoutOf(
  f: FoundFile,
  kind: string,
  names: readonly string[],
  records: readonly Record<string, unknown>[],
  named: Detected,
): Layout | null {
  if (namesLeaveAChoice(named)) return namedLayout(f, kind, names, records, named);
  const at = (k: unknown) => typeof k === "string" ? names.indexOf(k) : -1;
  const [input, response, target] = [named.fields.input, named.fields.response, named.fields.target]
    .map(at);
  if (named.chat || input < 0 || response < 0 || target < 0) return null;
  const layout = namedLayout(f, kind, names, records, named);
  return { ...layout, key: `${layout.key}\0verify`, verify: { input, response, target } };
}

/** Fields names decide whatever the content: every canonical field but these three. */
const OTHER_FIELDS = FIELD_ORDER.filter((f) => !["response", "input", "target"].includes(f));

/** The layout of records keyed by names (a CSV header, JSON keys). */
function namedLayout(
  f: FoundFile,
  kind: string,
  names: readonly string[],
  records: readonly Record<string, unknown>[],
  named: Detected | null = null,
): Layout {
  const taken = new Set(OTHER_FIELDS.map((k) => named?.fields[k]).filter((k) => k !== undefined));
  if (named?.chat) taken.add(named.chat);
  const at = (k: unknown) => typeof k === "string" ? names.indexOf(k) : -1;
  const input = at(named?.fields.input);
  const responseNames = [...FIELD_NAMES.response, "answer"];
  const hints: ColumnHints = {
    input: input >= 0 ? input : null,
    candidates: names.map((_, i) => i).filter((i) => !taken.has(names[i])),
    responseFixed: Boolean(named?.chat) && named?.fields.response === undefined,
    preferResponse: responseNames.map((n) => names.findIndex((k) => k.toLowerCase() === n))
      .filter((i) => i >= 0),
    targetNamed: names.flatMap((k, i) => TARGET_NAMES.has(k.toLowerCase()) ? [i] : []),
  };
  const rows = records.map((r) => names.map((k) => cellOf(r[k])));
  const key = `${folderOf(f)}\0${kind}\0${JSON.stringify([...names].sort())}`;
  return { key, positional: false, table: { columns: names, rows }, hints };
}

/** A value as a cell: text, a number as text, else null. */
function cellOf(v: unknown): string | null {
  if (typeof v === "string") return v;
  return typeof v === "number" ? String(v) : null;
}

/** The top-level keys of records, in the order first met. */
function keysOf(records: readonly Record<string, unknown>[]): string[] {
  return [...new Set(records.flatMap((r) => Object.keys(r)))];
}

/** The hint of a CSV file whose first row names no columns. */
const POSITIONAL_HINT = "its first row names no columns: name them by position (from 0) " +
  "with --map, e.g. --map input=N,response=N,target=N";

/** Cells short and on one line each, as column names are. */
const looksLikeNames = (cells: readonly string[]) =>
  cells.every((c) => c.length <= 64 && !c.includes("\n"));

const distinct = (names: readonly string[]) =>
  names.every((n) => n !== "") && new Set(names).size === names.length;

/**
 * A first row that names columns: short distinct cells on one line each, none of them a
 * data-set question, above rows that have questions.
 */
function isHeader(rows: readonly (readonly (string | null)[])[], targets: TargetLookup): boolean {
  if (rows.length < 2) return false;
  const first = rows[0].map((c) => c ?? "");
  if (!distinct(first) || !looksLikeNames(first)) return false;
  if (first.some((c) => targets.targetsOf(c) !== null)) return false;
  return rows.slice(1).some((r) => r.some((c) => c !== null && targets.targetsOf(c) !== null));
}

/** The width most rows have (ties: the smaller). */
function commonWidth(rows: readonly (readonly unknown[])[]): number {
  const counts = new Map<number, number>();
  for (const r of rows) counts.set(r.length, (counts.get(r.length) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0])[0][0];
}

const folderOf = (f: FoundFile) => resolve(dirname(f.name));

/**
 * One decision for a group of files of one layout (their rows pooled), more rows read on a
 * tie or when the rows whose question was found are few; a file whose own rows are sure of
 * another choice (read in full when few) is decided alone, and says so. Files the pooled rows
 * cannot decide (`columns.ts` refuses) and whose own rows are not sure either are not read:
 * their refusal names the candidates and the `--map` to choose.
 */
function decideGroup(group: Sample[], options: FieldOptions, decided: Map<Sample, Decided>) {
  const targets = options.targets!;
  const { hints } = group[0].layout!;
  let read = group;
  let choice = chooseColumns(pooled(read), targets, hints);
  if (needsMore(choice)) {
    read = readMore(group, options);
    choice = chooseColumns(pooled(read), targets, { ...hints, final: true });
  }
  const own = read.map((s) => group.length > 1 ? ownChoice(s, choice, options) : null);
  let rest = read.filter((_, i) => own[i] === null);
  if (rest.length > 0 && rest.length < read.length) {
    choice = chooseColumns(pooled(rest), targets, hints);
    if (needsMore(choice)) rest = readMore(rest, options);
    choice = chooseColumns(pooled(rest), targets, { ...hints, final: true });
  }
  let first: Sample | null = null; // the refused file whose error says it all
  group.forEach((s, i) => {
    const c = own[i] ?? choice;
    const alone = own[i] === null ? null : { others: rest.length, choice };
    let refused: string | null = null;
    if (c.kind === "refused") {
      const files = own[i] === null ? rest.length : 1;
      refused = first === null || files === 1 ? refusalOf(s, c, files) : sameRefusal(first, files);
      if (files > 1) first ??= s;
    }
    decided.set(s, { choice: c, evidence: noteOf(s, c, alone), refused });
  });
}

/**
 * Check the names of a group of files of one layout (`named_columns.ts`): a file whose own
 * sampled rows tell (unequal counts) is judged by them, else by the group's rows pooled —
 * more of them read while they are equal and few. A file whose names look swapped is not read.
 */
function verifyGroup(group: Sample[], options: FieldOptions, decided: Map<Sample, Decided>) {
  const count = (s: Sample) => namedCounts(s.layout!.table, options.targets!, s.layout!.verify!);
  let read = group;
  let own = read.map(count);
  let pooled = addCounts(own);
  if (namesVerdict(pooled) === "tie" && pooled.identified < MIN_ROWS) {
    read = readMore(group, options);
    own = read.map(count);
    pooled = addCounts(own);
  }
  read.forEach((s, i) => {
    const verdict = namesVerdict(own[i]) === "tie" ? namesVerdict(pooled) : namesVerdict(own[i]);
    if (verdict !== "swapped") return;
    const counts = namesVerdict(own[i]) === "swapped" ? own[i] : pooled;
    const { columns } = s.layout!.table;
    const { input } = s.layout!.verify!;
    const map = (response: string, target: string) =>
      `--map input=${columns[input]},response=${response},target=${target}`;
    const kind = s.csv ? "column" : "field";
    const refused = swappedText(counts, columns, s.layout!.verify!, map, kind);
    decided.set(group[i], { choice: null, evidence: null, refused });
  });
}

/** The refusal of a file like `first`'s: the other files of its layout, read together. */
function sameRefusal(first: Sample, files: number): string {
  return `not scored (the ${files} files of this layout in ${folderOf(first.found)}/, rows ` +
    `read together): their columns cannot be told apart by content (see ${first.found.path})`;
}

/** Whether a choice needs more rows: a tie, or few rows whose question was found. */
function needsMore(choice: ColumnChoice): boolean {
  return choice.kind === "tie" ||
    (choice.kind !== "unknown" && choice.evidence.identified < MIN_ROWS);
}

/** The samples again, with up to {@link MORE} of each file read (the same layout only). */
function readMore(group: readonly Sample[], options: FieldOptions): Sample[] {
  const key = group[0].layout!.key;
  return group.map((s) => {
    const more = sampleOf(s.found, s.index, options, MORE);
    return more.layout?.key === key ? more : s;
  });
}

/**
 * A file's own choice when its rows are sure of another one than the group's (another
 * target or question column, or the group's rows could not choose), else null. Few rows are
 * not enough to go against the group: those are read in full first.
 */
function ownChoice(s: Sample, group: ColumnChoice, options: FieldOptions): ColumnChoice | null {
  const targets = options.targets!;
  const decide = (x: Sample) =>
    chooseColumns(x.layout!.table, targets, { ...x.layout!.hints, final: true });
  const sure = (c: ColumnChoice) =>
    c.kind === "chosen" && c.target !== null && c.evidence.tiedWith === null;
  const differs = (c: ColumnChoice) =>
    group.kind !== "chosen" ||
    (c.kind === "chosen" && (c.target !== group.target || c.input !== group.input));
  let own = decide(s);
  if (!sure(own) || !differs(own)) return null;
  if (own.evidence.identified < MIN_ROWS) own = decide(readMore([s], options)[0]);
  return sure(own) && differs(own) ? own : null;
}

/** The rows of a group's samples as one table. */
function pooled(group: readonly Sample[]): ColumnTable {
  return {
    columns: group[0].layout!.table.columns,
    rows: group.flatMap((s) => s.layout!.table.rows),
  };
}

/** How a sample's layout names a column, in the text and in a `--map`. */
function namesOf(s: Sample) {
  const { columns } = s.layout!.table;
  const positional = s.layout!.positional;
  return {
    name: (c: number) => positional ? `column ${c}` : String(columns[c]),
    spec: (c: number) => positional ? String(c) : String(columns[c]),
    kind: positional ? "column" as const : "field" as const,
  };
}

/**
 * What the text says of a choice (null when content could not choose); for a file decided
 * alone, what the other files of its folder and layout have.
 */
function noteOf(
  s: Sample,
  choice: ColumnChoice,
  alone: { others: number; choice: ColumnChoice } | null,
): string | null {
  if (choice.kind !== "chosen") return null;
  const { name, spec, kind } = namesOf(s);
  let remedy = "";
  if (choice.evidence.tiedWith !== null && choice.target !== null) {
    remedy = `; to take ${name(choice.evidence.tiedWith)} as the target instead: --map ` +
      `input=${spec(choice.input)},response=${spec(choice.target)},` +
      `target=${spec(choice.evidence.tiedWith)}`;
  }
  let apart = "";
  if (alone !== null && alone.others > 0) {
    const g = alone.choice;
    const theirs = g.kind === "chosen"
      ? `have ${kind === "column" ? "" : "the "}target ← ${
        g.target === null ? "none" : name(g.target)
      }`
      : "could not be decided";
    apart = `; decided by its own rows: the ${alone.others} other file` +
      `${alone.others === 1 ? "" : "s"} of its folder with this layout ${theirs}`;
  }
  return evidenceText(choice, name, kind, remedy) + apart;
}

/** Why files whose rows cannot choose their columns are not read (`files` of the layout). */
function refusalOf(
  s: Sample,
  choice: Extract<ColumnChoice, { kind: "refused" }>,
  files: number,
): string {
  const { name, spec, kind } = namesOf(s);
  const input = `input=${spec(choice.input)}`;
  const fixed = s.layout!.hints.responseFixed === true; // a chat transcript's response
  const map = (response: number, target: number) =>
    `--map ${input}${fixed ? "" : `,response=${spec(response)}`},target=${spec(target)}`;
  const where = files > 1
    ? `the ${files} files of this layout in ${folderOf(s.found)}/, rows read together`
    : s.layout!.positional
    ? "a CSV file without a header"
    : "its names leave the choice open";
  const named = new Set(s.layout!.hints.targetNamed ?? []);
  return `not scored (${where}): ${refusalText(choice, name, kind, map, named)}`;
}

/**
 * Whether `--map` names columns or keys (`response=output`), not only literals
 * (`benchmark==bbh`): then it decides the columns, and content neither chooses nor refuses.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(mapsColumns({ fields: {}, constants: { benchmark: "bbh" } }), false);
 * assert.equal(mapsColumns({ fields: { response: 2 } }), true);
 * assert.equal(mapsColumns(null), false);
 * ```
 */
export function mapsColumns(map: FieldMapping | null | undefined): boolean {
  return Boolean(map?.chat) || Object.keys(map?.fields ?? {}).length > 0;
}

/** A sample's fields: chosen by content, else by names; `--map` over them. */
function decisionOf(s: Sample, decided: Decided | null, options: FieldOptions): FieldsDecision {
  const f = s.found;
  const map = options.map ?? null;
  const chosen = decided?.choice?.kind === "chosen" ? decided.choice : null;
  // a CSV whose header names no response is headerless: without content, nothing is detected
  const byNames = s.csv && s.named?.fields.response === undefined ? null : s.named;
  const detected = chosen ? mappingOf(s, chosen) : byNames;
  // `--map` of the columns wins over content; its literals alone (`benchmark==bbh`) do not
  const mapped = mapsColumns(map);
  const refused = mapped ? null : decided?.refused ?? null;
  const base = {
    format: f.format,
    reason: f.reason,
    refused,
    fieldsEvidence: null,
    fieldsByContent: !mapped && chosen !== null,
  };
  if (map === null && (detected === null || isCanonical(detected))) {
    return {
      ...base,
      fields: null,
      fieldsUsed: null,
      fieldsHint: hintFor(s, detected),
      keys: s.keys,
    };
  }
  const fields = map === null ? detected! : withOverrides(detected ?? { fields: {} }, map);
  const used = { ...(detected?.used ?? {}), ...describe(map) };
  return {
    ...base,
    format: s.csv ? "mapped-csv" : "mapped-jsonl",
    fields,
    fieldsUsed: used,
    reason: map === null ? `${f.reason}; fields detected` : `${f.reason}; --map`,
    fieldsEvidence: !mapped && chosen ? decided!.evidence : null,
    fieldsHint: hintFor(s, fields),
    keys: s.keys,
  };
}

/** The sample's hint, while the fields read give no response, or no question and no index. */
function hintFor(s: Sample, fields: Pick<Detected, "fields" | "chat"> | null): string | null {
  const f = fields?.fields ?? {};
  const complete = fields?.chat ||
    (f.response !== undefined && (f.input !== undefined || f.example_index !== undefined));
  return complete ? null : s.hint;
}

/** The mapping of a content choice (positions, or names over the names' other fields). */
function mappingOf(s: Sample, c: Extract<ColumnChoice, { kind: "chosen" }>): Detected {
  const { columns } = s.layout!.table;
  const roles = [["input", c.input], ["response", c.response], ["target", c.target]] as const;
  if (s.layout!.positional) {
    const fields: Record<string, number> = {};
    const used: Record<string, string> = {};
    for (const [f, col] of roles) {
      if (col !== null) (fields[f] = col), (used[f] = `column ${col}`);
    }
    return { fields, chat: null, used };
  }
  const named = s.named ?? { fields: {}, chat: null, used: {} };
  const fields: Record<string, string | number> = {};
  const used: Record<string, string> = {};
  const chatResponse = named.chat && named.fields.response === undefined;
  for (const f of FIELD_ORDER) {
    const role = roles.find(([r]) => r === f);
    if (role) {
      if (role[1] !== null) {
        (fields[f] = String(columns[role[1]])), (used[f] = String(columns[role[1]]));
      } else if (f === "response" && chatResponse) used[f] = named.used.response;
    } else if (named.fields[f] !== undefined) {
      fields[f] = named.fields[f]!;
      used[f] = named.used[f];
    }
  }
  return { fields, chat: named.chat ?? null, used };
}

/** Detection found only canonical names (the canonical reader reads the file as it is). */
function isCanonical(d: Detected): boolean {
  return !d.chat && Object.entries(d.fields).every(([field, key]) => field === key);
}

/** `--map`'s fields as `fieldsUsed` entries. */
function describe(map: FieldMapping | null): Record<string, string> {
  if (map === null) return {};
  const out: Record<string, string> = {};
  for (const [f, v] of Object.entries(map.fields)) {
    out[f] = typeof v === "number" ? `column ${v} (--map)` : `${v} (--map)`;
  }
  for (const [f, v] of Object.entries(map.constants ?? {})) out[f] = `"${v}" (--map)`;
  return out;
}

/** The first `bytes` of a log (decompressed for gzip; empty when unreadable). */
function headOf(f: FoundFile, bytes: number): Uint8Array {
  try {
    const source = fileSource(f.path);
    try {
      const head = source.read(0, bytes);
      return f.gzip ? gunzipHead(head, bytes) : head;
    } finally {
      source.close();
    }
  } catch {
    return new Uint8Array(); // the reader names the problem
  }
}
