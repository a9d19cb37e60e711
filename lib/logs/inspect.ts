/**
 * Read an inspect_ai (UK AISI) log into the raw form ({@link RawLog}): one row per sample and
 * epoch.
 *
 * Two containers: `.eval` (a ZIP with `header.json` and `samples/<id>_epoch_<n>.json`; a crashed
 * run has no `header.json`, its run data is read from `_journal/start.json`) and the legacy
 * `.json` (one EvalLog document with a `samples` array). Bare `NaN`/`Infinity` (inspect writes
 * them in scores) are read as null. `.eval` members may be stored, deflate or zstd (ZIP method 93,
 * inspect_ai ≥ 0.3.206; decompressed with fzstd), mixed in one archive; a member that cannot be
 * decompressed raises an error naming it.
 *
 * Row fields: `model` = `eval.model` (the requested name; the resolved `output.model` is in
 * `extra`), `run` = the file name without extension. `benchmark`/`task`: for `bbeh`/`bbeh_mini`
 * (optionally `inspect_evals/`-prefixed) benchmark `bbeh` and the task from
 * `sample.metadata.task` (else `task_args.subset_name`/`task`); for `bbh`, benchmark `bbh`; for
 * any other task its name (without `inspect_evals/`) as both. `input` = the sample input
 * (chat input: its user messages' text), `target` (a list: its first element), `response` =
 * `output.completion`, else the text of `output.choices[0].message.content`, else the last
 * assistant message (text blocks joined; reasoning blocks left out). `extra` has the sample id,
 * the scores and `stored_correct` (the first score's value: `C`/`I`, a number ≥ 1 or a boolean).
 * Line numbers: the 1-based position of the sample in (id, epoch) order (`.eval`) or in the
 * `samples` array (`.json`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readInspectLog } from "@runlens/logs/inspect.ts";
 * const path = "tests/fixtures/logs/formats/inspect/zstd/bbeh_run.eval"; // zstd members
 * const { frame, rowsIn } = readInspectLog(path);
 * assert.equal(rowsIn, 3);
 * assert.deepEqual(frame.select("model", "benchmark", "task", "epoch", "response").row(0), [
 *   "openai/gpt-4o",
 *   "bbeh",
 *   "boolean_expressions",
 *   "1",
 *   "The answer is: False",
 * ]);
 * ```
 * @module
 */
import {
  type AsyncFlateStreamHandler,
  inflateSync,
  Unzip,
  type UnzipDecoder,
  unzipSync,
} from "fflate";
import { decompress as zstdDecompress } from "fzstd";
import { defaultRunName } from "./paths.ts";
import { frameFromRecords, type RawLog } from "./raw.ts";
import { decodeUtf8 } from "./encoding.ts";

/** ZIP compression method of zstd (inspect_ai ≥ 0.3.206). */
const ZSTD = 93;

type Json = Record<string, unknown>;

/**
 * Parse JSON that may hold bare `NaN`, `Infinity` or `-Infinity` (Python's `json.dumps`
 * writes them); those become null. Text inside strings is left alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(parseLooseJson('{"value": NaN, "note": "NaN"}'), { value: null, note: "NaN" });
 * ```
 */
export function parseLooseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    const fixed = text.replace(
      /("(?:[^"\\]|\\.)*")|-?\bNaN\b|-?\bInfinity\b/g,
      (_m, str) => str ?? "null",
    );
    return JSON.parse(fixed);
  }
}

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
  const output = (sample.output ?? {}) as Json;
  if (typeof output.completion === "string" && output.completion !== "") return output.completion;
  const choices = Array.isArray(output.choices) ? output.choices : [];
  const fromChoice = contentText(choices[0]?.message?.content);
  if (fromChoice !== null) return fromChoice;
  const messages = Array.isArray(sample.messages) ? sample.messages as Json[] : [];
  const last = messages.filter((m) => m?.role === "assistant").at(-1);
  return last ? contentText(last.content) : (output.completion as string | undefined) ?? null;
}

/**
 * The scorer's own verdict: the first score's `value` — `"C"` → true, `"I"` → false, a
 * boolean, a number (true when ≥ 1); null for anything else (`"P"`, `"N"`, no score).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(sampleVerdict({ scores: { match: { value: "C" } } }), true);
 * assert.equal(sampleVerdict({ scores: { match: { value: 0.5 } } }), false);
 * assert.equal(sampleVerdict({ scores: { match: { value: "P" } } }), null); // partial
 * ```
 */
export function sampleVerdict(sample: Json): boolean | null {
  const scores = sample.scores as Record<string, Json> | null | undefined;
  const first = scores ? Object.values(scores)[0] : undefined;
  const v = first?.value;
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
 * Benchmark and task of a sample from the eval's task name, its arguments and the sample's
 * metadata.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(inspectTask("inspect_evals/bbeh", {}, { task: "nycc" }), {
 *   benchmark: "bbeh",
 *   task: "nycc",
 * });
 * const other = inspectTask("popularity", {}, {});
 * assert.deepEqual(other, { benchmark: "popularity", task: "popularity" });
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
  if (/^bbeh(_mini)?$/.test(name)) return { benchmark: "bbeh", task: sub ?? name };
  if (name === "bbh") return { benchmark: "bbh", task: sub ?? name };
  return { benchmark: name, task: name };
}

/** The eval spec and samples of a log, whatever the container. */
interface InspectContent {
  spec: Json;
  status: string | null;
  samples: { sample: Json; member?: string }[];
}

/** The members the reader needs; the others (events, summaries, journal) are not decompressed. */
const wanted = (name: string) =>
  name === "header.json" || name === "_journal/start.json" || /^samples\/.+\.json$/.test(name);

/**
 * An fflate `Unzip` decoder that collects a member's compressed bytes and decompresses them in
 * one call (fflate's streaming inflate is several times slower on many small members).
 */
abstract class BufferedDecoder implements UnzipDecoder {
  ondata: AsyncFlateStreamHandler = () => {};
  #chunks: Uint8Array[] = [];
  #originalSize?: number;

  constructor(_name: string, _size?: number, originalSize?: number) {
    this.#originalSize = originalSize === 0xffffffff ? undefined : originalSize;
  }

  protected abstract decode(data: Uint8Array, originalSize?: number): Uint8Array;

  push(data: Uint8Array, final: boolean): void {
    this.#chunks.push(data);
    if (!final) return;
    let out: Uint8Array;
    try {
      out = this.decode(concatBytes(this.#chunks), this.#originalSize);
    } catch (e) {
      const err = Object.assign(new Error((e as Error).message), { code: 0 });
      return this.ondata(err, new Uint8Array(0), true);
    }
    this.ondata(null, out, true);
  }
}

/** Deflate members (ZIP method 8), with fflate. */
class UnzipDeflate extends BufferedDecoder {
  static compression = 8;
  protected decode(data: Uint8Array, originalSize?: number): Uint8Array {
    return inflateSync(data, originalSize ? { out: new Uint8Array(originalSize) } : undefined);
  }
}

/**
 * Zstd members (ZIP method 93, inspect_ai ≥ 0.3.206), with fzstd. Given the size from the ZIP
 * header (as fflate's own unzip does for deflate): without it, fzstd allocates and shifts a
 * window buffer (2 MB for Python's zstd frames) per member.
 */
class UnzipZstd extends BufferedDecoder {
  static compression = ZSTD;
  protected decode(data: Uint8Array, originalSize?: number): Uint8Array {
    return zstdDecompress(data, originalSize ? new Uint8Array(originalSize) : undefined);
  }
}

function concatBytes(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

const METHODS: Record<number, string> = { 0: "stored", 8: "deflate", [ZSTD]: "zstd" };

/**
 * The wanted members of a `.eval` ZIP, decompressed. Each member may be stored, deflate or zstd.
 * fflate's `unzipSync` (which reads the central directory) cannot expand zstd; an archive with
 * zstd members is read with its streaming `Unzip` and our decoders instead. Throws an Error
 * naming the member when one cannot be decompressed.
 */
function unzipEval(path: string): Record<string, Uint8Array> {
  const bytes = Deno.readFileSync(path);
  const listed: { name: string; compression: number }[] = [];
  try {
    unzipSync(bytes, {
      filter: (f) => {
        if (wanted(f.name)) listed.push(f);
        return false;
      },
    });
  } catch (e) {
    throw new Error(`unreadable ZIP archive (${(e as Error).message})`);
  }
  const odd = listed.find((f) => !METHODS[f.compression]);
  if (odd) throw new Error(`${odd.name}: unsupported ZIP compression method ${odd.compression}`);
  if (listed.some((f) => f.compression === ZSTD)) return unzipStreaming(bytes, listed);
  let current = { name: "", compression: 0 };
  try {
    return unzipSync(bytes, {
      filter: (f) => {
        current = f;
        return wanted(f.name);
      },
    });
  } catch (e) {
    const { name, compression } = current;
    throw new Error(`${name}: corrupt ${METHODS[compression]} data (${(e as Error).message})`);
  }
}

/** Bytes pushed to the unzip stream at a time (one push recurses once per member in it). */
const CHUNK = 1 << 14;

/** The wanted members through fflate's streaming `Unzip`, which reads the local headers. */
function unzipStreaming(bytes: Uint8Array, listed: { name: string }[]): Record<string, Uint8Array> {
  const files: Record<string, Uint8Array> = {};
  const failures: string[] = [];
  const unzipper = new Unzip((file) => {
    if (!wanted(file.name)) return;
    const chunks: Uint8Array[] = [];
    let failed = false;
    file.ondata = (err, data, final) => {
      if (failed) return;
      if (err) {
        failed = true;
        failures.push(`${file.name}: corrupt ${METHODS[file.compression]} data (${err.message})`);
      } else {
        chunks.push(data);
        if (final) files[file.name] = concatBytes(chunks);
      }
    };
    file.start();
  });
  unzipper.register(UnzipDeflate);
  unzipper.register(UnzipZstd);
  try {
    for (let at = 0; at < bytes.length; at += CHUNK) {
      unzipper.push(bytes.subarray(at, at + CHUNK), at + CHUNK >= bytes.length);
    }
  } catch (e) {
    throw new Error(`unreadable ZIP archive (${(e as Error).message})`);
  }
  const missing = listed.find((f) => !files[f.name]);
  if (failures.length === 0 && missing) {
    failures.push(`${missing.name}: in the central directory but not found reading the archive`);
  }
  if (failures.length > 0) {
    const more = failures.length > 1 ? ` (and ${failures.length - 1} more)` : "";
    throw new Error(`${failures[0]}${more}`);
  }
  return files;
}

function readEvalZip(path: string): InspectContent {
  const files = unzipEval(path);
  const json = (name: string) => {
    try {
      return parseLooseJson(decodeUtf8(files[name])) as Json;
    } catch (e) {
      throw new Error(`${name}: not valid JSON (${(e as Error).message})`);
    }
  };
  const header = files["header.json"] ? json("header.json") : null;
  const start = files["_journal/start.json"] ? json("_journal/start.json") : null;
  const spec = (header?.eval ?? start?.eval) as Json | undefined;
  if (!spec) throw new Error("neither header.json nor _journal/start.json holds the eval spec");
  const members = Object.keys(files).filter((n) => n.startsWith("samples/"));
  const samples = members.map((member) => ({ sample: json(member), member }));
  samples.sort((a, b) => compareIds(a.sample.id, b.sample.id) || epochOf(a) - epochOf(b));
  return { spec, status: (header?.status as string) ?? "started", samples };
}

const epochOf = (s: { sample: Json }) => Number(s.sample.epoch ?? 1);

function compareIds(a: unknown, b: unknown): number {
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), "en", { numeric: true });
}

function readEvalJson(path: string): InspectContent {
  const doc = parseLooseJson(decodeUtf8(Deno.readFileSync(path))) as Json;
  if (!doc || typeof doc !== "object" || !doc.eval) throw new Error("not an inspect_ai log");
  const samples = Array.isArray(doc.samples) ? doc.samples as Json[] : [];
  return {
    spec: doc.eval as Json,
    status: (doc.status as string) ?? null,
    samples: samples.map((sample) => ({ sample })),
  };
}

/**
 * Read one inspect_ai log (`.eval`, deflate or zstd, or legacy `.json`). Throws on an unreadable
 * container or member (naming it) or a missing eval spec; samples never throw (missing output →
 * null response).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const raw = readInspectLog("tests/fixtures/logs/formats/inspect/deflate/bbeh_run.eval");
 * const rows = raw.frame.select("task", "epoch", "response").toRecords();
 * assert.deepEqual(rows.slice(0, 2), [
 *   { task: "boolean_expressions", epoch: "1", response: "The answer is: False" },
 *   { task: "boolean_expressions", epoch: "2", response: "The answer is: True" },
 * ]);
 * ```
 */
export function readInspectLog(path: string): RawLog {
  const content = path.toLowerCase().endsWith(".eval") ? readEvalZip(path) : readEvalJson(path);
  const spec = content.spec;
  const run = defaultRunName(path);
  const records = content.samples.map(({ sample, member }) => {
    const { benchmark, task } = inspectTask(
      String(spec.task ?? ""),
      (spec.task_args ?? {}) as Json,
      (sample.metadata ?? {}) as Json,
    );
    const target = Array.isArray(sample.target) ? sample.target[0] : sample.target;
    const output = (sample.output ?? {}) as Json;
    const usage = (output.usage ?? {}) as Json;
    return {
      run,
      model: spec.model ?? null,
      benchmark,
      task,
      input: inputText(sample.input),
      target: target ?? null,
      response: sampleResponse(sample),
      response_tokens: usage.output_tokens ?? null,
      epoch: sample.epoch ?? 1,
      sample_id: sample.id ?? null,
      inspect_member: member ?? null,
      inspect_status: content.status,
      output_model: output.model ?? null,
      scores: sample.scores && Object.keys(sample.scores).length > 0 ? sample.scores : null,
      error: sample.error ?? null,
      stored_correct: sampleVerdict(sample),
    };
  });
  return {
    frame: frameFromRecords(records, records.map((_, i) => i + 1)),
    bad: [],
    rowsIn: records.length,
  };
}
