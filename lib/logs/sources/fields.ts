/**
 * Field detection for generic JSON-lines and CSV logs (issue 14, item 2): which of a file's
 * keys hold the canonical fields, decided once per file from its first records, so that a log
 * written by someone's own script gets in without `--map`. `--map` still overrides (the caller
 * merges: {@link withOverrides}). Polars-free (Workers load it).
 *
 * **Rules.** For each canonical field, the first name of its list below that the sample's
 * records carry (keys compared exactly, then case-insensitively) with values of a fitting type
 * in most records where it is present; the canonical name comes first in every list, so it
 * always wins over an alias. A key is used for one field only (earlier fields first, in the
 * order of the table).
 *
 * | field | names, in order of preference | values |
 * | --- | --- | --- |
 * | `response` | `response`, *chat transcript*, `output`, `prediction`, `pred`, `completion`, `generation`, `generated_text`, `model_output`, `model_response`, `model_answer`, `llm_output`, `answer`¹ | text |
 * | `input` | `input`, `question`, `prompt`, `query`, `problem`, `instruction`, `origin_prompt`, `inputs`, *chat transcript* | text |
 * | `target` | `target`, `gold`, `label`, `reference`, `expected`, `expected_answer`, `ground_truth`, `correct_answer`, `gold_answer`, `targets`, `answer`¹ | text or number |
 * | `task` | `task`, `task_name`, `subtask`, `subset`, `subset_name` | text |
 * | `benchmark` | `benchmark`, `benchmark_name` | text |
 * | `example_index` | `example_index`, `idx`, `index`, `doc_id`, `example_idx`, `example_id`, `sample_index`, `id`² | integer |
 * | `run` | `run`, `run_id`, `run_name` | text |
 * | `model` | `model`, `model_name`, `model_id` | text |
 * | `epoch` | `epoch`, `repeat`, `trial` | integer |
 * | `response_tokens` | `response_tokens`, `output_tokens`, `completion_tokens` | integer |
 *
 * ¹ `answer` is the response when no other response field is found, else the target when no
 * other target field is found. ² `id` only when its values are integers.
 *
 * Names are where detection starts: when they leave the choice open (`answer` may be either,
 * or no name gives a response; a CSV without a header), the planner chooses the response and
 * target by each row's own data-set target instead (`pipeline/field_choice.ts`).
 *
 * **Chat transcripts.** A key whose value is a list of `{role, content}` messages (`content` a
 * text or a list of `{type: "text", text}` blocks; `messages`, `message_log`, `conversation`,
 * `chat`, `dialogue`, `dialog`, `history`, `turns` are tried first, then any key of that shape)
 * is the file's `chat`. The response is the text of the LAST assistant message (`assistant`,
 * `model` or `bot`), the input the text of the last user message (`user` or `human`) before it —
 * not the user turns joined: the last user turn is the question the response answers, a few-shot
 * chat's earlier turns only add shots, and identification matches the question at the end of
 * the text either way (exactly when the turn is the bare question). Block lists give their text
 * blocks joined (reasoning and other blocks left out), as `inspect.ts` does. A canonical
 * `response` or `input` key wins over the transcript; the transcript wins over the aliases (an
 * `output` beside a `message_log` is not the response).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const sample = [{
 *   question: "Which caption is funniest?",
 *   answer: "(A)",
 *   message_log: [
 *     { role: "user", content: "Which caption is funniest?" },
 *     { role: "assistant", content: "The answer is: (A)" },
 *   ],
 *   output: "(A)",
 * }];
 * const found = detectFields(sample);
 * assert.deepEqual(found.fields, { input: "question", target: "answer" });
 * assert.equal(found.chat, "message_log");
 * assert.deepEqual(found.used, {
 *   response: "message_log (last assistant message)",
 *   input: "question",
 *   target: "answer",
 * });
 * ```
 * @module
 */
import type { FieldMapping, RecordSource, SourceLimits } from "./types.ts";
import { type ColumnMap, isCanonicalField } from "../mapped.ts";
import { RECORD_FIELDS } from "../record.ts";
import { DEFAULT_LIMITS } from "../limits.ts";
import { K_OBJECT, scanLine, Tape } from "../../codecs/json_scan.ts";

/** A detected mapping and, per canonical field, what it was read from (for `--json`). */
export type DetectedFields = FieldMapping & { used: Record<string, string> };

type Kind = "text" | "target" | "int";

/**
 * The names tried per field, in order (see the module table).
 *
 * @example
 * ```ts
 * FIELD_NAMES.response[0]; // "response"
 * ```
 */
export const FIELD_NAMES: Readonly<Record<string, readonly string[]>> = {
  response: [
    "response",
    "output",
    "prediction",
    "pred",
    "completion",
    "generation",
    "generated_text",
    "model_output",
    "model_response",
    "model_answer",
    "llm_output",
  ],
  input: [
    "input",
    "question",
    "prompt",
    "query",
    "problem",
    "instruction",
    "origin_prompt",
    "inputs",
  ],
  target: [
    "target",
    "gold",
    "label",
    "reference",
    "expected",
    "expected_answer",
    "ground_truth",
    "correct_answer",
    "gold_answer",
    "targets",
  ],
  task: ["task", "task_name", "subtask", "subset", "subset_name"],
  benchmark: ["benchmark", "benchmark_name"],
  example_index: [
    "example_index",
    "idx",
    "index",
    "doc_id",
    "example_idx",
    "example_id",
    "sample_index",
    "id",
  ],
  run: ["run", "run_id", "run_name"],
  model: ["model", "model_name", "model_id"],
  epoch: ["epoch", "repeat", "trial"],
  response_tokens: ["response_tokens", "output_tokens", "completion_tokens"],
};

const KINDS: Record<string, Kind> = {
  response: "text",
  input: "text",
  target: "target",
  task: "text",
  benchmark: "text",
  example_index: "int",
  run: "text",
  model: "text",
  epoch: "int",
  response_tokens: "int",
};

/**
 * Keys tried first for a chat transcript.
 *
 * @example
 * ```ts
 * CHAT_NAMES.includes("message_log"); // true
 * ```
 */
export const CHAT_NAMES = [
  "messages",
  "message_log",
  "conversation",
  "chat",
  "dialogue",
  "dialog",
  "history",
  "turns",
] as const;

const ASSISTANT = new Set(["assistant", "model", "bot"]);
const USER = new Set(["user", "human"]);

/**
 * The text of message content: a text as is; a list of blocks → its text blocks (`{type:
 * "text", text}`, or bare strings) joined, null when it has none (as `inspect.ts` reads
 * content); an object with a `text` → that text. Anything else as it is (the check step names
 * a wrong type).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(contentText([{ type: "reasoning", reasoning: "…" }, { type: "text", text: "42" }]), "42");
 * assert.equal(contentText("plain"), "plain");
 * ```
 */
export function contentText(content: unknown): unknown {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    const texts: string[] = [];
    for (const b of content) {
      if (typeof b === "string") texts.push(b);
      else if (
        isObj(b) && (b.type === "text" || b.type === undefined) && typeof b.text === "string"
      ) {
        texts.push(b.text);
      }
    }
    return texts.length > 0 ? texts.join("") : null;
  }
  if (isObj(content) && typeof content.text === "string") return content.text;
  return content;
}

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === "object" && v !== null && !Array.isArray(v);

const roleOf = (m: unknown): string =>
  isObj(m) && typeof m.role === "string" ? m.role.toLowerCase() : "";

/**
 * Whether `v` is a chat transcript: a non-empty list of objects each with a text `role` and a
 * `content`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isChat([{ role: "user", content: "Q" }]), true);
 * assert.equal(isChat(["Q"]), false);
 * ```
 */
export function isChat(v: unknown): boolean {
  return Array.isArray(v) && v.length > 0 &&
    v.every((m) => isObj(m) && typeof m.role === "string" && "content" in m);
}

/**
 * The response and input of a chat transcript (see the module doc): the last assistant
 * message's text, and the last user message before it. Undefined parts when absent.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const chat = [
 *   { role: "system", content: "Be brief." },
 *   { role: "user", content: "Q1" }, { role: "assistant", content: "A1" },
 *   { role: "user", content: "Q2" }, { role: "assistant", content: [{ type: "text", text: "A2" }] },
 * ];
 * assert.deepEqual(chatParts(chat), { response: "A2", input: "Q2" });
 * assert.deepEqual(chatParts([{ role: "user", content: "Q" }]), { response: undefined, input: "Q" });
 * ```
 */
export function chatParts(messages: unknown): { response: unknown; input: unknown } {
  if (!Array.isArray(messages)) return { response: undefined, input: undefined };
  let a = messages.length - 1;
  while (a >= 0 && !ASSISTANT.has(roleOf(messages[a]))) a--;
  let u = (a >= 0 ? a : messages.length) - 1;
  while (u >= 0 && !USER.has(roleOf(messages[u]))) u--;
  return {
    response: a >= 0 ? contentText((messages[a] as Record<string, unknown>).content) : undefined,
    input: u >= 0 ? contentText((messages[u] as Record<string, unknown>).content) : undefined,
  };
}

/**
 * A value by dotted path (`a.b.0`; negative list indices count from the end), as `--map`
 * reads JSONL: a key holding the whole path (dots included) wins; undefined when absent.
 * Only own keys count.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(lookupPath({ log: [{ c: "x" }, { c: "y" }] }, "log.-1.c"), "y");
 * assert.equal(lookupPath({ "a.b": 1, a: { b: 2 } }, "a.b"), 1);
 * assert.equal(lookupPath({ log: [] }, "log.0.c"), undefined);
 * ```
 */
export function lookupPath(obj: unknown, path: string): unknown {
  if (isObj(obj) && Object.hasOwn(obj, path)) return obj[path];
  return walkPath(obj, path.split("."));
}

/**
 * The value at `parts` below `at` (no whole-path key check).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(walkPath({ a: [1, 2] }, ["a", "-1"]), 2);
 * ```
 */
export function walkPath(at: unknown, parts: readonly string[]): unknown {
  for (const part of parts) {
    if (Array.isArray(at) && /^-?\d+$/.test(part)) {
      const i = Number(part);
      at = at[i < 0 ? at.length + i : i];
    } else if (isObj(at)) {
      at = Object.hasOwn(at, part) ? at[part] : undefined;
    } else return undefined;
    if (at === undefined) return undefined;
  }
  return at;
}

/** Whether `v` is an integer or a text holding one (`5`, `5.0`, `"+5"`). */
function isIntLike(v: unknown): boolean {
  if (typeof v === "number") return Number.isInteger(v);
  return typeof v === "string" && /^\s*[+-]?\d+(\.0*)?\s*$/.test(v);
}

function fits(kind: Kind, v: unknown): boolean {
  if (kind === "int") return isIntLike(v);
  if (kind === "target") return typeof v === "string" || typeof v === "number";
  return typeof v === "string";
}

/**
 * The key of `records` best matching `names` for values of `kind`: the first name carried (as
 * is, else case-insensitively) by at least half of the records, with fitting values in most
 * of those where it is not null; null if none. `taken` keys are skipped. The canonical name
 * (`canonical`, written exactly) needs no fitting values: it is the field whatever it holds.
 */
function pick(
  records: readonly Record<string, unknown>[],
  names: readonly string[],
  kind: Kind,
  taken: ReadonlySet<string>,
  strictInt = false,
  canonical: string | null = null,
): string | null {
  const keys = new Set(records.flatMap((r) => Object.keys(r)));
  const lower = new Map<string, string>();
  for (const k of keys) if (!lower.has(k.toLowerCase())) lower.set(k.toLowerCase(), k);
  for (const name of names) {
    const key = keys.has(name) ? name : lower.get(name);
    if (key === undefined || taken.has(key)) continue;
    if (key === canonical) {
      if (records.filter((r) => Object.hasOwn(r, key)).length * 2 >= records.length) return key;
      continue;
    }
    let present = 0, valued = 0, fit = 0;
    for (const r of records) {
      if (!Object.hasOwn(r, key)) continue;
      present++;
      const v = r[key];
      if (v === null) continue;
      valued++;
      if (strictInt ? typeof v === "number" && Number.isInteger(v) : fits(kind, v)) fit++;
    }
    if (present * 2 >= records.length && valued > 0 && fit * 2 > valued) return key;
  }
  return null;
}

/** The chat transcript key of the records, or null. */
function pickChat(records: readonly Record<string, unknown>[], taken: ReadonlySet<string>) {
  const keys = [...new Set(records.flatMap((r) => Object.keys(r)))];
  const order = [
    ...CHAT_NAMES.filter((n) => keys.includes(n)),
    ...keys.filter((k) => !(CHAT_NAMES as readonly string[]).includes(k)),
  ];
  for (const key of order) {
    if (taken.has(key)) continue;
    const values = records.filter((r) => Object.hasOwn(r, key)).map((r) => r[key]);
    if (values.length * 2 < records.length) continue;
    const chats = values.filter(isChat).length;
    if (chats > 0 && chats * 2 >= values.length) return key;
  }
  return null;
}

/**
 * Detect the field mapping of a file from its first records (objects): see the module doc for
 * the rules. `fields` names the key of every canonical field found (canonical names
 * included), `chat` the transcript key, `used` what each field is read from. An empty sample
 * gives an empty mapping.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const found = detectFields([{ task: "nycc", idx: 3, prediction: "(A)", gold: "(A)" }]);
 * assert.deepEqual(found.fields, { response: "prediction", target: "gold", task: "task", example_index: "idx" });
 * assert.equal(found.chat, null);
 * ```
 */
export function detectFields(sample: readonly Record<string, unknown>[]): DetectedFields {
  const records = sample.filter(isObj);
  const fields: Record<string, string> = {};
  const used: Record<string, string> = {};
  const taken = new Set<string>();
  if (records.length === 0) return { fields, chat: null, used };
  const take = (field: string, key: string | null) => {
    if (key === null) return false;
    fields[field] = key;
    used[field] = key;
    taken.add(key);
    return true;
  };
  // the canonical names first: they win over every alias and over a transcript
  const named = (f: string, names = FIELD_NAMES[f]) =>
    pick(records, names, KINDS[f], taken, false, f);
  // the canonical names first: they win over every alias and over a transcript
  for (const f of ["response", "input"]) take(f, named(f, [f]));
  const chat = pickChat(records, taken);
  if (chat !== null) taken.add(chat);
  if (!fields.response) {
    if (chat !== null) used.response = `${chat} (last assistant message)`;
    else take("response", named("response"));
  }
  if (!fields.input && !take("input", named("input")) && chat !== null) {
    used.input = `${chat} (last user message)`;
  }
  if (!take("target", named("target"))) {
    // `answer`: the target when something else is the response
    if (fields.response || chat !== null) take("target", named("target", ["answer"]));
  }
  if (!fields.response && chat === null) take("response", named("response", ["answer"]));
  for (
    const f of ["task", "benchmark", "example_index", "run", "model", "epoch", "response_tokens"]
  ) {
    let key = named(f, FIELD_NAMES[f].filter((n) => n !== "id"));
    if (key === null && f === "example_index") key = pick(records, ["id"], "int", taken, true);
    take(f, key);
  }
  // canonical order of the fields
  const ordered: Record<string, string> = {};
  for (
    const f of [...RECORD_FIELDS].sort((a, b) => FIELD_ORDER.indexOf(a) - FIELD_ORDER.indexOf(b))
  ) {
    if (fields[f] !== undefined) ordered[f] = fields[f];
  }
  const orderedUsed: Record<string, string> = {};
  for (const f of FIELD_ORDER) if (used[f] !== undefined) orderedUsed[f] = used[f];
  return { fields: ordered, chat, used: orderedUsed };
}

/** The canonical fields detection fills, in the order `fields` and `used` list them. */
export const FIELD_ORDER: readonly string[] = [
  "response",
  "input",
  "target",
  "task",
  "benchmark",
  "example_index",
  "run",
  "model",
  "epoch",
  "response_tokens",
];

/**
 * A detected mapping with `--map` items laid over it: a field the user maps (or sets to a
 * constant) is taken from the user's mapping; a transcript no longer feeds a field the user
 * maps.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const detected = detectFields([{ output: "x", question: "Q" }]);
 * const merged = withOverrides(detected, { fields: { response: "final" }, constants: { task: "nycc" } });
 * assert.deepEqual(merged.fields, { response: "final", input: "question" });
 * assert.deepEqual(merged.constants, { task: "nycc" });
 * ```
 */
export function withOverrides(detected: FieldMapping, map: FieldMapping): FieldMapping {
  const fields: FieldMapping["fields"] = {};
  const user = new Set([...Object.keys(map.fields), ...Object.keys(map.constants ?? {})]);
  for (const [f, v] of Object.entries(detected.fields)) if (!user.has(f)) fields[f] = v;
  Object.assign(fields, map.fields);
  const constants = { ...(detected.constants ?? {}), ...(map.constants ?? {}) };
  for (const f of Object.keys(map.fields)) delete constants[f];
  return {
    fields,
    chat: map.chat ?? detected.chat ?? null,
    ...(Object.keys(constants).length > 0 ? { constants } : {}),
  };
}

/**
 * The {@link FieldMapping} of a parsed `--map` value (`mapped.ts`'s `parseColumnMap`):
 * positions become column numbers, names keys or dotted paths, literals constants; a
 * benchmark's record fields go to `record` (read into the record's `example_id`, `subset` or
 * `fields`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const map = [
 *   { field: "input", source: { kind: "position", index: 0 }, spec: "input=0" },
 *   { field: "task", source: { kind: "literal", value: "nycc" }, spec: "task==nycc" },
 * ] as const;
 * assert.deepEqual(fromColumnMap([...map]), { fields: { input: 0 }, constants: { task: "nycc" } });
 * const level = { field: "level", source: { kind: "name", name: "lvl" }, spec: "level=lvl" } as const;
 * assert.deepEqual(fromColumnMap([level]).record, [{ slot: "level", key: "lvl", mapped: true }]);
 * ```
 */
export function fromColumnMap(map: ColumnMap): FieldMapping {
  const fields: FieldMapping["fields"] = {};
  const constants: Record<string, string> = {};
  const record: RecordSource[] = [];
  for (const m of map) {
    if (!isCanonicalField(m.field)) {
      const s = m.source;
      const from = s.kind === "literal"
        ? { value: s.value }
        : { key: s.kind === "position" ? s.index : s.name };
      record.push({ slot: m.field, ...from, mapped: true });
    } else if (m.source.kind === "position") fields[m.field] = m.source.index;
    else if (m.source.kind === "name") fields[m.field] = m.source.name;
    else constants[m.field] = m.source.value;
  }
  return { fields, constants, ...record.length > 0 ? { record } : {} };
}

/**
 * The first `n` objects of JSON lines held in `bytes` (e.g. a file's first megabyte), for
 * {@link detectFields}: each line checked by the scanner under `limits` (depth, keys) before
 * `JSON.parse`, so a hostile first line cannot overflow the parser; lines that are blank, not
 * objects, malformed or not UTF-8 are skipped, and so is a last line cut by the end of
 * `bytes`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const head = new TextEncoder().encode('{"output": "x"}\n[1]\n{"output": "y"}\n{"outp');
 * assert.deepEqual(sampleJsonRecords(head), [{ output: "x" }, { output: "y" }]);
 * ```
 */
export function sampleJsonRecords(
  bytes: Uint8Array,
  n = 20,
  limits: SourceLimits = DEFAULT_LIMITS,
): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  const tape = new Tape();
  const decoder = new TextDecoder("utf-8", { fatal: true });
  let s = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  while (s < bytes.length && out.length < n) {
    const e = bytes.indexOf(0x0a, s);
    if (e < 0) break; // the last line may be cut
    const r = scanLine(bytes, s, e, tape, limits.maxDepth, limits.maxKeys);
    if (r >= 0 && tape.rootKind === K_OBJECT) {
      try {
        out.push(JSON.parse(decoder.decode(bytes.subarray(s, e))));
      } catch {
        // not UTF-8
      }
    }
    s = e + 1;
  }
  return out;
}
