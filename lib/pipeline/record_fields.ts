/**
 * Benchmarks' own record fields in the plan (`RecordField` of `benchmarks/types.ts`): which of
 * a generic log's keys the readers read besides the canonical fields, and which benchmark a
 * file is by the fields its first records carry. Decided once per file on the main thread
 * (`plan.ts`), from the keys of its first records (or its CSV header):
 * - a file whose records carry all of a benchmark's `recordSignature`, or one field it
 *   `implies` (its name in the records, or `--map` giving it), is that benchmark's
 *   (`SourceFile.benchmarkHint`): its records are tied among that benchmark's examples, and
 *   the fields that are another name of a canonical field (`subject` → `task`) are read as
 *   that field — unless `--map` or the file's own canonical names give it;
 * - a benchmark's field is read when the file's records carry its name, or when `--map` names
 *   it (`SourceFile.record`): into the record's `example_id` or `subset` when it is another
 *   name of one, else into `fields` (the row's `extra` JSON) — in a file of that benchmark, or
 *   in any file when the benchmark has no way to be recognised (no signature, no implying
 *   field); so another benchmark's log that happens to carry a key of that name is read as
 *   it is;
 * - a key read as a record field is no longer a canonical field detection guessed from it.
 * A plan whose benchmarks declare no record field leaves every file as it is (no key read).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const plan = recordPlan([{ name: "toy", recordFields: [
 *   { name: "qid", as: "example_id", implies: true }, { name: "level" },
 *   { name: "topic", as: "task" },
 * ] }], [])!;
 * const file = { format: "canonical-jsonl", fields: null, fieldsUsed: null };
 * const got = recordFieldsOf(file, ["qid", "topic", "level", "response"], plan);
 * assert.equal(got.benchmarkHint, "toy");
 * assert.deepEqual(got.record, [{ slot: "example_id", key: "qid" }, { slot: "level", key: "level" }]);
 * assert.deepEqual(got.fields, { fields: { task: "topic" } }); // another name of the task
 * assert.equal(got.format, "mapped-jsonl");
 * // a file without those keys reads none of them
 * assert.deepEqual(recordFieldsOf(file, ["task", "response"], plan), {});
 * ```
 * @module
 */
import type { RecordField } from "../benchmarks/types.ts";
import { isCanonicalField } from "../logs/mapped.ts";
import { RECORD_SLOTS } from "../logs/record.ts";
import type { FieldMapping, RecordSource, SourceFile } from "../logs/sources/types.ts";

/** One planned benchmark's record field, as files are read with it. */
export interface PlannedRecordField {
  benchmark: string;
  /** The key or column it is read from by default. */
  name: string;
  /** Where it goes: `example_id`, `subset`, a canonical field (`canonical`), or its name. */
  slot: string;
  canonical: boolean;
  implies: boolean;
}

/** The record fields of a load's planned benchmarks, and what `--map` says of them. */
export interface RecordPlan {
  fields: readonly PlannedRecordField[];
  /** Benchmark → the fields whose presence together makes a file its. */
  signatures: readonly { benchmark: string; fields: readonly string[] }[];
  /** `--map`'s record-field items (slot, key or literal). */
  map: readonly RecordSource[];
  /**
   * The fields `--map` names, as written (`answer_type`, not the slot `subset` it goes to):
   * a file's records carry them, for its signature.
   */
  mapNames?: readonly string[];
}

/** What a benchmark tells the plan of its records. */
interface RecordRulesOf {
  name: string;
  recordFields?: readonly RecordField[];
  recordSignature?: readonly string[];
}

/**
 * The record plan of `benchmarks` (null when none declares a record field and `--map` names
 * none: files are then read as they are).
 */
export function recordPlan(
  benchmarks: readonly RecordRulesOf[],
  map: readonly RecordSource[],
  mapNames: readonly string[] = [],
): RecordPlan | null {
  const fields = benchmarks.flatMap((b) =>
    (b.recordFields ?? []).map((f): PlannedRecordField => ({
      benchmark: b.name,
      name: f.name,
      slot: slotOf(f),
      canonical: isCanonicalField(slotOf(f)),
      implies: f.implies === true,
    }))
  );
  const signatures = benchmarks.filter((b) => b.recordSignature?.length).map((b) => ({
    benchmark: b.name,
    fields: b.recordSignature!,
  }));
  if (fields.length === 0 && map.length === 0) return null;
  return { fields, signatures, map, ...mapNames.length > 0 ? { mapNames } : {} };
}

/**
 * Where a record field goes (see {@link PlannedRecordField.slot}).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual([slotOf({ name: "id", as: "example_id" }), slotOf({ name: "level" })],
 *   ["example_id", "level"]);
 * ```
 */
export function slotOf(f: RecordField): string {
  const as = f.as ?? "";
  return isCanonicalField(as) || (RECORD_SLOTS as readonly string[]).includes(as) ? as : f.name;
}

/** What a file's plan gains from the record fields (only what changes). */
export type RecordDecision =
  & Partial<
    Pick<SourceFile, "record" | "benchmarkHint" | "fields" | "format" | "refused" | "fieldsHint">
  >
  & { fieldsUsed?: Record<string, string> };

/**
 * The record fields of a generic log whose first records carry `keys` (see the module doc);
 * `file` is its plan so far (format and field mapping).
 */
export function recordFieldsOf(
  file: {
    format: string;
    fields: FieldMapping | null;
    fieldsUsed: Record<string, string> | null;
    fieldsHint?: string | null;
  },
  keys: readonly string[] | null,
  plan: RecordPlan,
  userMap: FieldMapping | null = null,
): RecordDecision {
  const mapped = new Set(plan.map.map((m) => m.slot));
  const has = new Set(keys ?? []);
  // the fields --map names count as the records' own, by the names the user wrote: a slot
  // (`subset`) is several benchmarks' fields, so it names none of them
  const hint = fileBenchmark(new Set([...has, ...plan.mapNames ?? []]), plan);
  const recognisable = new Set([
    ...plan.signatures.map((s) => s.benchmark),
    ...plan.fields.filter((f) => f.implies).map((f) => f.benchmark),
  ]);
  const read = plan.fields.filter((f) =>
    !f.canonical && has.has(f.name) && !mapped.has(f.slot) &&
    (hint === null ? !recognisable.has(f.benchmark) : f.benchmark === hint)
  );
  const record = uniqueSlots([...plan.map, ...read.map((f) => ({ slot: f.slot, key: f.name }))]);
  const out: RecordDecision = {};
  if (record.length > 0) out.record = record;
  if (hint !== null) {
    out.benchmarkHint = hint;
    // the hint of what canonical names miss (`--map input=KEY`) does not apply to records
    // read by their benchmark's own fields: its identification says what a record lacks
    if (file.fieldsHint) out.fieldsHint = null;
  }
  const mixed = hint === null ? null : mixedRecords(has, hint, plan, userMap);
  if (mixed !== null) out.refused = mixed;
  const aliases = hint === null
    ? []
    : plan.fields.filter((f) =>
      f.benchmark === hint && f.canonical && has.has(f.name) && !givenBy(userMap, f.slot) &&
      !has.has(f.slot)
    );
  // a key read as a record field is not also a canonical field detection guessed from it
  const taken = new Set(record.map((r) => r.key).filter((k) => k !== undefined));
  const guessed = Object.entries(file.fields?.fields ?? {}).filter(([f, key]) =>
    taken.has(key!) && !givenBy(userMap, f)
  );
  if (aliases.length === 0 && guessed.length === 0) return out;
  const fields = { ...file.fields?.fields ?? {} };
  const used = { ...file.fieldsUsed ?? {} };
  for (const [f] of guessed) delete fields[f], delete used[f];
  for (const f of aliases) (fields[f.slot] = f.name), (used[f.slot] = f.name);
  out.fields = { ...file.fields ?? {}, fields };
  out.fieldsUsed = used;
  out.format = file.format.endsWith("csv") ? "mapped-csv" : "mapped-jsonl";
  return out;
}

/**
 * Why a file is not read whose records hold both a field that makes them `hint`'s and the
 * canonical field it stands for (`trace_index` read as `example_index`, beside records with
 * their own `example_index`): one file of two benchmarks' records, which a file-level hint
 * would tie all to `hint` — another benchmark's lines to this one's examples. Null otherwise,
 * or when `--map` says which key is the field.
 */
function mixedRecords(
  keys: ReadonlySet<string>,
  hint: string,
  plan: RecordPlan,
  userMap: FieldMapping | null,
): string | null {
  const both = plan.fields.find((f) =>
    f.benchmark === hint && f.implies && f.canonical && f.name !== f.slot && keys.has(f.name) &&
    keys.has(f.slot) && !givenBy(userMap, f.slot)
  );
  if (!both) return null;
  return `not scored: its records carry both ${both.name} (${hint}'s records) and ` +
    `${both.slot} — records of two benchmarks in one file, which would be tied all to ${hint}; ` +
    `give each benchmark's records their own file (or, if every record is ${hint}'s, ` +
    `--map ${both.slot}=${both.name})`;
}

/** The benchmark whose signature the keys hold, or one of whose implying fields they hold. */
function fileBenchmark(keys: ReadonlySet<string>, plan: RecordPlan): string | null {
  const bySignature = plan.signatures.find((s) => s.fields.every((f) => keys.has(f)));
  if (bySignature) return bySignature.benchmark;
  return plan.fields.find((f) => f.implies && keys.has(f.name))?.benchmark ?? null;
}

/** Whether the file's mapping (detected or `--map`) already gives a canonical field. */
function givenBy(mapping: FieldMapping | null, field: string): boolean {
  return mapping?.fields[field] !== undefined || mapping?.constants?.[field] !== undefined;
}

/** The first source of each slot (two benchmarks' fields of one name are read once). */
function uniqueSlots(record: readonly RecordSource[]): RecordSource[] {
  return record.filter((r, i) => record.findIndex((s) => s.slot === r.slot) === i);
}
