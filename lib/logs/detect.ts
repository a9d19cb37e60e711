/**
 * Tell which run-log format a file is in, by its name and a peek at its first bytes. A file
 * starting with the gzip signature is looked at through decompression (its name without
 * `.gz`), whatever its extension.
 *
 * | format                    | recognised by                                                  |
 * |---------------------------|----------------------------------------------------------------|
 * | `canonical-csv`           | `.csv`                                                         |
 * | `canonical-jsonl`         | `.jsonl` that is none of the JSON-lines formats below          |
 * | `lm-eval`                 | `samples_<task>_<date_id>.json[l]`, or `doc_id` + `resps`      |
 * | `inspect-eval`            | `.eval` starting with the ZIP signature                        |
 * | `inspect-json`            | `.json` object with an `eval` spec (`"version"`, `"eval"` keys) |
 * | `opencompass-predictions` | `.json` object `{"0": {…"prediction"…}}`                       |
 * | `opencompass-results`     | `.json` object with `details` (`pred`/`correct`), when no predictions file (or part `_0`) sits beside it |
 * | `mcpbr`                   | `.json` object with a `tasks` list of `instance_id`s           |
 * | `openai-evals`            | `.log`/`.jsonl` whose first line is `{"spec": …}` or an event  |
 * | `bbh-release-outputs`     | `.json` object with an `outputs` list holding `prediction`s    |
 *
 * Not logs: an lm-eval `results_*.json`, an OpenCompass results file beside its predictions,
 * a BBH release `<stem>_eval_metrics.jsonl` beside `<stem>.json` (format null, with the reason).
 *
 * `mapped-jsonl` and `mapped-csv` (generic files read through `--map`) are never detected:
 * `read_log.ts` uses them for canonical-looking files when a mapping is given.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { detectFormat } from "@runlens/logs/detect.ts";
 * assert.deepEqual(detectFormat("tests/fixtures/logs/tree/a.jsonl"), {
 *   format: "canonical-jsonl",
 *   reason: "extension .jsonl",
 *   gzip: false,
 * });
 * const mcpbr = "tests/fixtures/logs/formats/mcpbr/bbh-sonnet/results.json";
 * assert.equal(detectFormat(mcpbr).format, "mcpbr");
 * ```
 * @module
 */
import { existsSync } from "node:fs";
import { basename, extname } from "node:path";
import { gunzipPeek, innerLogName, isGzip } from "./gzip.ts";
import { parseLmEvalFileName } from "./lm_eval.ts";
import { isOpenAiEvalsLine } from "./openai_evals.ts";
import { predictionsExist } from "./opencompass.ts";

/** The formats runlens has a reader for (the values `--format` accepts besides `auto`). */
export const READER_FORMATS = [
  "canonical-jsonl",
  "canonical-csv",
  "lm-eval",
  "inspect-eval",
  "inspect-json",
  "opencompass-predictions",
  "opencompass-results",
  "mcpbr",
  "openai-evals",
  "bbh-release-outputs",
  "mapped-jsonl",
  "mapped-csv",
] as const;

/** One reader format. */
export type ReaderFormat = (typeof READER_FORMATS)[number];

/** The format of a log as reported: the reader format, `+gzip` when the file was compressed. */
export type LogFormat = ReaderFormat | `${ReaderFormat}+gzip`;

/** A detection result: the format (null: not a run log runlens reads), why, and compression. */
export interface Detection {
  format: ReaderFormat | null;
  reason: string;
  /** The file is gzip data (by its magic bytes). */
  gzip: boolean;
}

const PEEK = 64 * 1024;

/** The first {@link PEEK} bytes of a file (empty when unreadable). */
function peek(path: string): Uint8Array {
  let file: Deno.FsFile | undefined;
  try {
    file = Deno.openSync(path, { read: true });
    const buf = new Uint8Array(PEEK);
    const n = file.readSync(buf) ?? 0;
    return buf.subarray(0, n);
  } catch {
    return new Uint8Array();
  } finally {
    file?.close();
  }
}

/**
 * Whether `path` holds gzip data (by its magic bytes; false when unreadable).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { gzipSync } from "node:zlib";
 * const dir = Deno.makeTempDirSync();
 * const path = `${dir}/a.jsonl.gz`;
 * Deno.writeFileSync(path, gzipSync(new TextEncoder().encode('{"a": 1}\n')));
 * assert.equal(isGzipFile(path), true);
 * assert.equal(isGzipFile("tests/fixtures/logs/tree/a.jsonl"), false);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function isGzipFile(path: string): boolean {
  return isGzip(peek(path).subarray(0, 2));
}

const LM_EVAL_KEYS = /"doc_id"\s*:[\s\S]*"(resps|filtered_resps|doc)"\s*:/;

/**
 * Detect the format of `path` (a file). Never throws: an unreadable or unknown file gives
 * `format: null` with the reason.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = "tests/fixtures/logs/bbh/lm_eval/org__tiny-model";
 * const samples = `${dir}/samples_bbh_cot_fewshot_snarks_2025-01-25T04-48-43.622918.jsonl`;
 * assert.equal(detectFormat(samples).format, "lm-eval");
 * assert.deepEqual(detectFormat("tests/fixtures/logs/tree/notes.txt"), {
 *   format: null,
 *   reason: "extension .txt is not a run log",
 *   gzip: false,
 * });
 * ```
 */
export function detectFormat(path: string): Detection {
  const head = peek(path);
  if (isGzip(head)) {
    const inner = innerLogName(path);
    const found = detectContent(inner, gunzipPeek(head, PEEK), path);
    return { ...found, reason: `gzip data; ${found.reason}`, gzip: true };
  }
  if (extname(path).toLowerCase() === ".gz") {
    return { format: null, reason: "extension .gz but no gzip signature", gzip: false };
  }
  return { ...detectContent(path, head, path), gzip: false };
}

/** Detect from the log's name (`name`, without `.gz`) and its first bytes. */
function detectContent(
  name: string,
  head: Uint8Array,
  path: string,
): Omit<Detection, "gzip"> {
  const ext = extname(name).toLowerCase();
  const base = basename(name);
  if (ext === ".csv") return { format: "canonical-csv", reason: "extension .csv" };
  if (ext === ".eval") {
    return head[0] === 0x50 && head[1] === 0x4b
      ? { format: "inspect-eval", reason: "extension .eval with a ZIP signature" }
      : { format: null, reason: ".eval file without a ZIP signature" };
  }
  if (ext !== ".jsonl" && ext !== ".json" && ext !== ".log") {
    return { format: null, reason: `extension ${ext || "(none)"} is not a run log` };
  }
  const text = new TextDecoder().decode(head).replace(/^\ufeff/, "");
  const firstLine = text.split("\n").find((l) => l.trim() !== "") ?? "";
  if ((ext === ".log" || ext === ".jsonl") && isOpenAiEvalsLine(firstLine)) {
    return { format: "openai-evals", reason: "JSON lines of an openai/evals record log" };
  }
  if (ext === ".log") return { format: null, reason: ".log file that is not an openai/evals log" };
  const lmName = parseLmEvalFileName(base) !== null;
  const lmKeys = LM_EVAL_KEYS.test(text);
  if (lmName && (lmKeys || text.trim() === "")) {
    return { format: "lm-eval", reason: "lm-eval samples file name and sample keys" };
  }
  if (lmKeys && (ext === ".json" || text.trimStart().startsWith("["))) {
    return { format: "lm-eval", reason: "lm-eval sample keys (doc_id, resps)" };
  }
  if (ext === ".jsonl" && /_eval_metrics\.jsonl$/.test(base)) {
    const outputs = innerLogName(path).replace(/_eval_metrics\.jsonl$/, ".json");
    if (existsSync(outputs) || existsSync(`${outputs}.gz`)) {
      return {
        format: null,
        reason: "a BBH release metrics file (the published accuracy of its outputs file)",
      };
    }
  }
  if (ext === ".jsonl") {
    return lmKeys
      ? { format: "lm-eval", reason: "JSON lines with lm-eval sample keys (doc_id, resps)" }
      : { format: "canonical-jsonl", reason: "extension .jsonl" };
  }
  return detectJsonDocument(text, base, path);
}

/** The `.json` document formats. */
function detectJsonDocument(text: string, base: string, path: string): Omit<Detection, "gzip"> {
  const object = /^\s*\{/.test(text);
  if (object && /"eval"\s*:\s*\{/.test(text) && /"(version|status)"\s*:/.test(text)) {
    return { format: "inspect-json", reason: "JSON object with an inspect_ai eval spec" };
  }
  if (/^\s*\{\s*"0"\s*:\s*\{/.test(text) && /"prediction"\s*:/.test(text)) {
    return {
      format: "opencompass-predictions",
      reason: 'JSON object of numbered records with "prediction" (OpenCompass predictions)',
    };
  }
  if (object && /"tasks"\s*:\s*\[/.test(text) && /"(instance_id|metadata)"\s*:/.test(text)) {
    return { format: "mcpbr", reason: "JSON object with a tasks list of instance_ids (mcpbr)" };
  }
  if (object && /"details"\s*:/.test(text) && /"(pred|correct)"\s*:/.test(text)) {
    if (predictionsExist(innerLogName(path))) {
      return {
        format: null,
        reason: "an OpenCompass results file (read alongside its predictions file)",
      };
    }
    return { format: "opencompass-results", reason: "JSON object with per-example details" };
  }
  if (object && /"outputs"\s*:\s*\[/.test(text) && /"prediction"\s*:/.test(text)) {
    return {
      format: "bbh-release-outputs",
      reason: 'JSON object with an "outputs" list of predictions (BBH release model outputs)',
    };
  }
  if (/^results_/.test(base)) {
    return { format: null, reason: "an lm-eval results file (read alongside its samples files)" };
  }
  return { format: null, reason: "JSON file of no known run-log format" };
}
