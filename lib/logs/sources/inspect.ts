/**
 * Document sources of inspect_ai (UK AISI) logs for the streaming path: `inspect-eval` (the
 * `.eval` ZIP) and `inspect-json` (the legacy EvalLog document). The records are those of
 * today's reader (`logs/inspect.ts`, the behavioural spec), one per sample and epoch, with
 * integrity checks and limits on top. Polars-free.
 *
 * `.eval`: every member's CRC-32 and size are verified (`zip.ts`), also the members not read
 * (`summaries.json`, `reductions.json`, `_journal/…`), so a corrupt archive is an error naming
 * the member, never read in silence. The eval spec comes from `header.json`, or from
 * `_journal/start.json` for a crashed run; both, when present, must be valid JSON, and so must
 * every `samples/<id>_epoch_<n>.json` ("member … : not valid JSON", an error naming it). A
 * sample member past the depth or key limits, one that would inflate past the budget
 * (`--max-ratio`, `--max-inflated`, the largest document), or one that is not a JSON object,
 * is one bad record (the others are read). Records come in (id, epoch) order, numbered from 1. A `.eval` that is gzip data is
 * decompressed in memory (within the budget) and read the same way.
 *
 * Record fields: `model` = `eval.model`; benchmark and task from the task name, its arguments
 * and `sample.metadata.task` ({@link inspectTask}); `input` = the sample input (chat input:
 * its user messages' text); `target` (a list: its first element); `response` = the answer
 * text ({@link sampleResponse}); `response_tokens` = `output.usage.output_tokens`; `epoch`;
 * `stored_correct` = the first score's verdict ({@link sampleVerdict}). `run` is not set (an
 * inspect log names no run: the file's default run applies). Pointer: `member` (the JSON string
 * of the response in its sample member) when the response is one JSON string of the member,
 * else `inline`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * import { inspectEvalSource } from "@runlens/logs/sources/inspect.ts";
 * import type { LogRecord } from "@runlens/logs/record.ts";
 * const path = "tests/fixtures/logs/formats/inspect/zstd/bbeh_run.eval";
 * const file = { id: 0, path, name: path, format: "inspect-eval", gzip: false,
 *   defaultRun: "bbeh_run", size: Deno.statSync(path).size };
 * const records: LogRecord[] = [];
 * inspectEvalSource.read(file, { record: (r) => records.push(r), bad: () => {} }, DEFAULT_LIMITS);
 * assert.equal(records.length, 3);
 * const { line, model, task, epoch, response, pointer } = records[0];
 * assert.deepEqual({ line, model, task, epoch, response }, {
 *   line: 1,
 *   model: "openai/gpt-4o",
 *   task: "boolean_expressions",
 *   epoch: 1,
 *   response: "The answer is: False",
 * });
 * assert.equal(pointer?.kind, "member"); // output.completion of samples/1_epoch_1.json
 * ```
 * @module
 */
import { decodeUtf8 } from "../../codecs/encoding.ts";
import { findStringSpan } from "../../codecs/json_limits.ts";
import type { LogRecord, Pointer } from "../record.ts";
import { MemberBudgetError, ZipArchive } from "../../codecs/zip.ts";
import { gunzipAll } from "../../codecs/gzip_stream.ts";
import {
  DOCUMENT_CAP,
  INLINE,
  inLineOrder,
  isObject,
  type Json,
  type LineOrder,
  parseDocument,
  readDocumentBytes,
} from "./document.ts";
import { type DocumentSource, FileError, type SourceFile, type SourceLimits } from "./types.ts";
import { notRegularFile } from "../../codecs/byte_source.ts";

/**
 * The text of message content: a string as is; a list of blocks → the `text` of its
 * `{type: "text"}` blocks joined (reasoning and other blocks left out). Null otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const content = [{ type: "reasoning", reasoning: "…" }, { type: "text", text: "42" }];
 * assert.equal(contentText(content), "42");
 * ```
 */
export function contentText(content: unknown): string | null {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return null;
  const texts = content.filter((b) => b && typeof b === "object" && b.type === "text")
    .map((b) => String(b.text ?? ""));
  return texts.length > 0 ? texts.join("") : null;
}

/** Where a response came from: a path to a JSON string in the sample, when it is one. */
type Found = { text: string | null; path: (string | number)[] | null };

/** The path of the only text block of `content` at `base` (a string: `base` itself). */
function contentPath(content: unknown, base: (string | number)[]): (string | number)[] | null {
  if (typeof content === "string") return base;
  if (!Array.isArray(content)) return null;
  const texts = content.map((b, i) => [b, i] as const)
    .filter(([b]) => b && typeof b === "object" && b.type === "text");
  return texts.length === 1 && typeof texts[0][0].text === "string"
    ? [...base, texts[0][1], "text"]
    : null;
}

/** {@link sampleResponse} with the path of the JSON string it is, when it is one. */
function findResponse(sample: Json): Found {
  const output = (isObject(sample.output) ? sample.output : {}) as Json;
  if (typeof output.completion === "string" && output.completion !== "") {
    return { text: output.completion, path: ["output", "completion"] };
  }
  const choices = Array.isArray(output.choices) ? output.choices : [];
  const content = choices[0]?.message?.content;
  const fromChoice = contentText(content);
  if (fromChoice !== null) {
    return {
      text: fromChoice,
      path: contentPath(content, ["output", "choices", 0, "message", "content"]),
    };
  }
  const messages = Array.isArray(sample.messages) ? sample.messages as Json[] : [];
  let last = -1;
  messages.forEach((m, i) => {
    if (m?.role === "assistant") last = i;
  });
  if (last >= 0) {
    const c = messages[last].content;
    return { text: contentText(c), path: contentPath(c, ["messages", last, "content"]) };
  }
  const completion = (output.completion as string | undefined) ?? null;
  return {
    text: completion,
    path: typeof completion === "string" ? ["output", "completion"] : null,
  };
}

/**
 * The model's answer text of a sample: `output.completion`, else
 * `output.choices[0].message.content`, else the last assistant message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(sampleResponse({ output: { choices: [{ message: { content: "Yes" } }] } }), "Yes");
 * assert.equal(sampleResponse({ output: { completion: "No", choices: [] } }), "No");
 * ```
 */
export function sampleResponse(sample: Json): string | null {
  return findResponse(sample).text;
}

/**
 * The scorer's own verdict: the first score's `value` — `"C"` → true, `"I"` → false, a
 * boolean, a number (true when ≥ 1); null for anything else (`"P"`, `"N"`, no score).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(sampleVerdict({ scores: { match: { value: "C" } } }), true);
 * assert.equal(sampleVerdict({ scores: { match: { value: "P" } } }), null); // partial
 * ```
 */
export function sampleVerdict(sample: Json): boolean | null {
  const scores = sample.scores as Record<string, Json> | null | undefined;
  const first = scores && typeof scores === "object" ? Object.values(scores)[0] : undefined;
  const v = first && typeof first === "object" ? first.value : undefined;
  if (v === "C") return true;
  if (v === "I") return false;
  if (typeof v === "boolean") return v;
  if (typeof v === "number" && Number.isFinite(v)) return v >= 1;
  return null;
}

function inputText(input: unknown): string | null {
  if (typeof input === "string") return input;
  if (!Array.isArray(input)) return null;
  const texts = input.filter((m) => m?.role === "user").map((m) => contentText(m.content))
    .filter((t): t is string => t !== null);
  return texts.length > 0 ? texts.join("\n\n") : null;
}

/**
 * Benchmark and task labels of a sample, as the eval writes them: the eval's task name
 * (without an `inspect_evals/` prefix) and the subtask from `metadata.task` (else
 * `task_args.subset_name`/`task`), else the eval's name again. `pipeline/labels.ts` resolves
 * them (`bbeh_mini` is BBEH's).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(inspectTask("inspect_evals/bbeh_mini", {}, { task: "nycc" }), {
 *   benchmark: "bbeh_mini",
 *   task: "nycc",
 * });
 * ```
 */
export function inspectTask(
  evalTask: string,
  taskArgs: Json,
  metadata: Json,
): { benchmark: string; task: string } {
  const name = evalTask.replace(/^inspect_evals\//, "");
  const sub = [metadata.task, taskArgs.subset_name, taskArgs.task].find((v) =>
    typeof v === "string" && v !== ""
  ) as string | undefined;
  return { benchmark: name, task: sub ?? name };
}

/** A sample read, before the eval spec is known (header.json is often the last member). */
interface SampleRead {
  /** Sort key: the sample id and epoch (from the member name when the sample is bad). */
  id: unknown;
  epoch: number;
  member: string | null;
  sample: Json | null;
  /** Why the sample is a bad record. */
  bad: string | null;
  pointer: Pointer;
}

const SAMPLE = /^samples\/.+\.json$/;
const MEMBER = /^samples\/(.+)_epoch_(\d+)\.json$/;

function compareIds(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en", { numeric: true });
}

/** The record of one sample under the eval spec `spec`. */
function sampleRecord(s: Json, spec: Json, line: number, pointer: Pointer): LogRecord {
  const { benchmark, task } = inspectTask(
    String(spec.task ?? ""),
    (isObject(spec.task_args) ? spec.task_args : {}) as Json,
    (isObject(s.metadata) ? s.metadata : {}) as Json,
  );
  const target = Array.isArray(s.target) ? s.target[0] : s.target;
  const output = (isObject(s.output) ? s.output : {}) as Json;
  const usage = (isObject(output.usage) ? output.usage : {}) as Json;
  return {
    line,
    model: spec.model ?? null,
    benchmark,
    task,
    input: inputText(s.input),
    target: target ?? null,
    response: sampleResponse(s),
    response_tokens: usage.output_tokens ?? null,
    epoch: s.epoch ?? 1,
    stored_correct: sampleVerdict(s),
    tool_extracted: null,
    pointer,
  };
}

/**
 * Why a sample that errored is not scored (null: it did not). inspect keeps such a sample
 * (`fail_on_error` off) with its `error` and no score, and leaves it out of its metrics: its
 * output is missing or cut short, so scoring it as an empty response would count a failed
 * API call as a wrong answer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(sampleError({ error: { message: "RateLimitError", traceback: "…" } }),
 *   "the sample errored: RateLimitError");
 * assert.equal(sampleError({ error: null }), null);
 * ```
 */
export function sampleError(sample: Json): string | null {
  const error = sample.error;
  if (error === null || error === undefined || error === false) return null;
  const message = isObject(error) ? (error as Json).message : error;
  const text = typeof message === "string" ? message.trim().split("\n")[0] : "";
  const short = text.length > 200 ? `${text.slice(0, 200)}…` : text;
  return `the sample errored: ${short === "" ? "(no message)" : short}`;
}

/** Emit the samples in (id, epoch) order, numbered from 1 (an errored sample: a bad record). */
function emitSamples(samples: SampleRead[], spec: Json, sink: LineOrder): void {
  samples.sort((a, b) => compareIds(a.id, b.id) || a.epoch - b.epoch);
  samples.forEach((s, i) => {
    const errored = s.sample === null ? null : sampleError(s.sample);
    if (s.bad !== null || s.sample === null) {
      sink.bad({ line: i + 1, reason: s.bad ?? "not a JSON object" });
    } else if (errored !== null) sink.bad({ line: i + 1, reason: errored });
    else sink.record(sampleRecord(s.sample, spec, i + 1, s.pointer));
  });
}

/** The members read (the others are only verified). */
const wanted = (name: string) =>
  name === "header.json" || name === "_journal/start.json" || SAMPLE.test(name);

/** Read a `.eval` (plain or gzip) into the sink. */
function readEval(file: SourceFile, sink: LineOrder, limits: SourceLimits): void {
  const path = file.path;
  let zip: ZipArchive;
  if (file.gzip) {
    const why = notRegularFile(path);
    if (why !== null) throw new FileError(path, why);
    zip = ZipArchive.fromBytes(path, gunzipAll(path, limits, { cap: DOCUMENT_CAP }));
  } else zip = ZipArchive.open(path);
  try {
    let header: Json | null = null;
    let start: Json | null = null;
    const samples: SampleRead[] = [];
    for (const entry of zip.entries) {
      if (!wanted(entry.name)) {
        zip.verify(entry, limits);
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = zip.read(entry, limits, DOCUMENT_CAP);
      } catch (e) {
        // a sample too large to inflate is one bad record; the spec's members are the file's
        if (!(e instanceof MemberBudgetError) || !SAMPLE.test(entry.name)) throw e;
        const named = MEMBER.exec(entry.name);
        samples.push({
          id: named?.[1] ?? entry.name,
          epoch: Number(named?.[2] ?? 1),
          member: entry.name,
          sample: null,
          bad: `sample ${entry.name}: ${e.why}`,
          pointer: INLINE,
        });
        continue;
      }
      const prefix = `member ${entry.name}: `;
      const notJson = (m: string) => `not valid JSON (${m})`;
      if (!SAMPLE.test(entry.name)) {
        const { value } = parseDocument(path, bytes, limits, { loose: true, prefix, notJson });
        const json = (isObject(value) ? value : {}) as Json;
        if (entry.name === "header.json") header = json;
        else start = json;
        continue;
      }
      // a sample member is one record: over a limit → that record is bad
      const { value, bad } = parseDocument(path, bytes, limits, {
        loose: true,
        prefix,
        notJson,
        records: [],
      });
      const reason = bad.get(0) ??
        (isObject(value) ? null : `member ${entry.name} is not a JSON object`);
      const sample = reason === null ? value as Json : null;
      const named = MEMBER.exec(entry.name);
      samples.push({
        id: sample ? sample.id : named?.[1] ?? entry.name,
        epoch: sample ? Number(sample.epoch ?? 1) : Number(named?.[2] ?? 1),
        member: entry.name,
        sample,
        bad: reason === null ? null : `sample ${entry.name}: ${reason}`,
        pointer: sample && !file.gzip ? memberPointer(entry.name, bytes, sample) : INLINE,
      });
    }
    const spec = (header?.eval ?? start?.eval) as Json | undefined;
    if (!isObject(spec)) {
      throw new FileError(path, "neither header.json nor _journal/start.json holds the eval spec");
    }
    emitSamples(samples, spec, sink);
  } finally {
    zip.close();
  }
}

/** A `member` pointer to the response's JSON string in the sample member, else inline. */
function memberPointer(member: string, bytes: Uint8Array, sample: Json): Pointer {
  const { text, path } = findResponse(sample);
  if (text === null || path === null) return INLINE;
  const span = findStringSpan(bytes, path);
  if (!span) return INLINE;
  try {
    const decoded = JSON.parse(new TextDecoder().decode(bytes.subarray(span.start, span.end)));
    if (decoded !== text) return INLINE;
  } catch {
    return INLINE;
  }
  return { kind: "member", member, offset: span.start, length: span.end - span.start };
}

/** Read a legacy `.json` EvalLog into the sink. */
function readJson(file: SourceFile, sink: LineOrder, limits: SourceLimits): void {
  const bytes = readDocumentBytes(file, limits);
  const { value, bad } = parseDocument(file.path, bytes, limits, {
    loose: true,
    records: ["samples", "*"],
  });
  if (!isObject(value) || !value.eval) throw new FileError(file.path, "not an inspect_ai log");
  const spec = (isObject(value.eval) ? value.eval : {}) as Json;
  const samples = Array.isArray(value.samples) ? value.samples : [];
  samples.forEach((s, i) => {
    const line = i + 1;
    const over = s === null ? bad.get(i) : undefined;
    if (over !== undefined) sink.bad({ line, reason: `sample ${line}: ${over}` });
    else if (!isObject(s)) sink.bad({ line, reason: `sample ${line} is not a JSON object` });
    else if (sampleError(s) !== null) sink.bad({ line, reason: sampleError(s)! });
    else sink.record(sampleRecord(s, spec, line, INLINE));
  });
}

/**
 * The `inspect-eval` source: a `.eval` ZIP (stored, deflate or zstd members; gzip-wrapped
 * too).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * const path = "tests/fixtures/broken_logs/corrupt_zstd.eval";
 * const file = { id: 0, path, name: path, format: "inspect-eval", gzip: false,
 *   defaultRun: "corrupt_zstd", size: 0 };
 * const sink = { record: () => {}, bad: () => {} };
 * assert.throws(() => inspectEvalSource.read(file, sink, DEFAULT_LIMITS),
 *   /corrupt_zstd\.eval: member samples\/1_epoch_2\.json: corrupt zstd data/);
 * ```
 */
export const inspectEvalSource: DocumentSource = inLineOrder(readEval);

/**
 * The `inspect-json` source: a legacy EvalLog document (`{"eval": …, "samples": […]}`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * const dir = Deno.makeTempDirSync();
 * const path = `${dir}/log.json`;
 * Deno.writeTextFileSync(path, JSON.stringify({ eval: { task: "bbh", model: "m",
 *   task_args: { subset_name: "navigate" } }, samples: [{ id: 1, target: "Yes",
 *   output: { completion: "Yes" }, scores: { s: { value: "C" } } }, 7] }));
 * const file = { id: 0, path, name: path, format: "inspect-json", gzip: false,
 *   defaultRun: "log", size: 0 };
 * const seen: unknown[] = [];
 * inspectJsonSource.read(file, { record: (r) => seen.push([r.task, r.stored_correct]),
 *   bad: (b) => seen.push(b.reason) }, DEFAULT_LIMITS);
 * assert.deepEqual(seen, [["navigate", true], "sample 2 is not a JSON object"]);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export const inspectJsonSource: DocumentSource = inLineOrder(readJson);

/**
 * Read back the response a `member` pointer of an `inspect-eval` record points at: the JSON
 * string at `offset`/`length` in the (verified) decompressed member. Throws a FileError
 * naming the archive when it cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * import type { LogRecord } from "@runlens/logs/record.ts";
 * const path = "tests/fixtures/logs/formats/inspect/deflate/bbeh_run.eval";
 * const file = { id: 0, path, name: path, format: "inspect-eval", gzip: false,
 *   defaultRun: "bbeh_run", size: 0 };
 * const records: LogRecord[] = [];
 * inspectEvalSource.read(file, { record: (r) => records.push(r), bad: () => {} }, DEFAULT_LIMITS);
 * for (const r of records) {
 *   if (r.pointer?.kind === "member") {
 *     assert.equal(readMemberResponse(path, r.pointer, DEFAULT_LIMITS), r.response);
 *   }
 * }
 * ```
 */
export function readMemberResponse(path: string, pointer: Pointer, limits: SourceLimits): string {
  if (pointer.kind !== "member" || !pointer.member) {
    throw new FileError(path, `not a member pointer (${pointer.kind})`);
  }
  const zip = ZipArchive.open(path);
  try {
    const bytes = zip.read(pointer.member, limits, DOCUMENT_CAP);
    const span = bytes.subarray(pointer.offset, pointer.offset + pointer.length);
    const text = JSON.parse(decodeUtf8(span));
    if (typeof text !== "string") throw new Error("not a JSON string");
    return text;
  } catch (e) {
    if (e instanceof FileError) throw e;
    throw new FileError(
      path,
      `member ${pointer.member}: no response at byte ${pointer.offset} (${(e as Error).message})`,
    );
  } finally {
    zip.close();
  }
}
