/**
 * Document sources of OpenCompass outputs for the streaming path:
 * `opencompass-predictions` (`<work>/predictions/<model>/<dataset>.json`) and
 * `opencompass-results` (`<work>/results/<model>/<dataset>.json` with per-example `details`,
 * read on its own only when no predictions file sits beside it). The records and bad records
 * are those of today's reader (`logs/opencompass.ts`, the behavioural spec): one record per
 * prediction, or per replica when `prediction` is a list (epoch = replica number); verdicts
 * and extractions from the matching results file; `benchmark` and `task` = the dataset
 * abbreviation as written (`bbh-navigate`, resolved by `pipeline/labels.ts`); partitioned data sets (`<d>_0.json`,
 * `<d>_1.json`, … as OpenCompass's partitioners write them) merged exactly as OpenCompass's
 * evaluator merges them. Sibling files (results, earlier parts) are read plain or gzip, with
 * the same checks and limits. Polars-free.
 *
 * Limits: a record (a member of the predictions object, an element of `details`) past the
 * depth or key limit is one bad record; past them elsewhere, the file is an error.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * import { opencompassPredictionsSource } from "@runlens/logs/sources/opencompass.ts";
 * import type { LogRecord } from "@runlens/logs/record.ts";
 * const dir = "tests/fixtures/logs/formats/opencompass/20250202_090000/predictions/parted-7b";
 * const path = `${dir}/bbeh_boardgame_qa_1.json`; // part 1: indices continue after part 0
 * const file = { id: 0, path, name: path, format: "opencompass-predictions", gzip: false,
 *   defaultRun: "bbeh_boardgame_qa_1", size: 0 };
 * const records: LogRecord[] = [];
 * opencompassPredictionsSource.read(file, { record: (r) => records.push(r), bad: () => {} },
 *   DEFAULT_LIMITS);
 * assert.deepEqual(records.map((r) => r.example_index), ["23", "24", "25", "26"]);
 * assert.equal(records[0].run, "parted-7b_20250202_090000");
 * ```
 * @module
 */
import { basename, dirname, extname, join } from "node:path";
import { existsSync } from "node:fs";
import { defaultRunName } from "../paths.ts";
import {
  asText,
  INLINE,
  inLineOrder,
  isObject,
  type Json,
  type LineOrder,
  parseDocument,
  readDocumentBytes,
} from "./document.ts";
import { type DocumentSource, FileError, type SourceFile, type SourceLimits } from "./types.ts";

/**
 * The question text of an OpenCompass `origin_prompt`: a string as is; a chat prompt (a list
 * of `{role, prompt}` turns) → its HUMAN/user turns joined by a blank line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(promptText([{ role: "HUMAN", prompt: "Q?" }, { role: "BOT", prompt: "" }]), "Q?");
 * ```
 */
export function promptText(prompt: unknown): string | null {
  if (typeof prompt === "string") return prompt;
  if (!Array.isArray(prompt)) return asText(prompt);
  const turns = prompt.filter((t) =>
    t && typeof t === "object" && /^(human|user)$/i.test(String((t as Json).role ?? ""))
  ).map((t) => asText((t as Json).prompt ?? (t as Json).content)).filter((t) => t !== null);
  return turns.length > 0 ? turns.join("\n\n") : JSON.stringify(prompt);
}

/** Where an OpenCompass file sits: model, dataset and run. */
interface Place {
  model: string;
  dataset: string;
  run: string;
}

function placeOf(name: string, dataset = defaultRunName(name)): Place {
  const model = basename(dirname(name)) || "opencompass";
  const workDir = basename(dirname(dirname(dirname(name))));
  const run = /^\d{8}_\d{6}$/.test(workDir) ? `${model}_${workDir}` : model;
  return { model, dataset, run };
}

/** `path` or `path.gz` exists. */
const existsPlainOrGz = (path: string) => existsSync(path) || existsSync(`${path}.gz`);

/** Read `path`, else `path.gz` (decompressed), as one JSON document, checked. */
function readPlainOrGz(
  path: string,
  limits: SourceLimits,
  records: readonly string[],
  stripBom: boolean,
): ReturnType<typeof parseDocument> {
  const file = existsSync(path) ? path : `${path}.gz`;
  const bytes = readDocumentBytes({ path: file, gzip: file !== path }, limits);
  return parseDocument(file, bytes, limits, { records, stripBom });
}

/** The file of part `part` of data set `dataset` in folder `dir`. */
const partFile = (dir: string, dataset: string, part: number, ext: string) =>
  join(dir, `${dataset}_${part}${ext}`);

/** A predictions file that is one part of a data set OpenCompass split. */
export interface Partition {
  /** The data set's abbreviation (the file name without `_<part>` and extension). */
  dataset: string;
  /** The part number (0-based). */
  part: number;
}

/**
 * The partition a predictions file (its name without `.gz`) belongs to: `<d>_<n>.json` is part
 * `n` of data set `<d>` when `<d>_0.json` (plain or `.gz`) sits beside it; null otherwise.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = "tests/fixtures/logs/formats/opencompass/20250202_090000/predictions/parted-7b";
 * assert.deepEqual(partitionOf(`${dir}/bbeh_boardgame_qa_1.json`), {
 *   dataset: "bbeh_boardgame_qa",
 *   part: 1,
 * });
 * assert.equal(partitionOf("w/predictions/m/bbh-foo_1.json"), null); // no bbh-foo_0.json beside it
 * ```
 */
export function partitionOf(path: string): Partition | null {
  const ext = extname(path);
  const m = /^(.+)_(0|[1-9]\d*)$/.exec(basename(path, ext));
  if (!m) return null;
  const dataset = m[1];
  const part = Number(m[2]);
  if (!Number.isSafeInteger(part)) return null;
  if (part > 0 && !existsPlainOrGz(partFile(dirname(path), dataset, 0, ext))) return null;
  return { dataset, part };
}

/** Record counts of part files already read, by path (valid while size and mtime hold). */
const partCounts = new Map<string, { stamp: string; count: number }>();

/** The number of records (keys) of the part file `path` (plain or `.gz`); throws if unreadable. */
function partRecordCount(path: string, limits: SourceLimits): number {
  const file = existsSync(path) ? path : `${path}.gz`;
  const info = Deno.statSync(file);
  const stamp = `${file}:${info.size}:${info.mtime?.getTime() ?? ""}`;
  const known = partCounts.get(path);
  if (known && known.stamp === stamp) return known.count;
  let doc: unknown;
  try {
    doc = readPlainOrGz(path, limits, ["*"], true).value;
  } catch (e) {
    const m = e instanceof FileError ? e.reason : (e as Error).message;
    throw new Error(`not a JSON predictions file (${m})`);
  }
  if (!isObject(doc)) {
    throw new Error("not an OpenCompass predictions file (expected one JSON object)");
  }
  const count = Object.keys(doc).length;
  partCounts.set(path, { stamp, count });
  return count;
}

/** Where part `p` starts in OpenCompass's merge, or why OpenCompass would not merge it. */
function partOffset(
  path: string,
  { dataset, part }: Partition,
  limits: SourceLimits,
): { offset: number } | { reason: string } {
  const dir = dirname(path);
  const ext = extname(path);
  const whole = `${dataset}${ext}`;
  if (existsPlainOrGz(join(dir, whole))) {
    return {
      reason: `part ${part} of ${dataset} not read: OpenCompass reads the merged ${whole} instead`,
    };
  }
  let offset = 0;
  for (let q = 0; q < part; q++) {
    const file = partFile(dir, dataset, q, ext);
    if (!existsPlainOrGz(file)) {
      return {
        reason: `part ${part} of ${dataset} not merged: part ${q} (${basename(file)}) is ` +
          "missing and OpenCompass merges parts only up to the first missing one",
      };
    }
    try {
      offset += partRecordCount(file, limits);
    } catch (e) {
      return {
        reason: `part ${part} of ${dataset} cannot be placed: part ${q} (${basename(file)}) ` +
          `cannot be read (${(e as Error).message})`,
      };
    }
  }
  return { offset };
}

/**
 * The results file matching a predictions file (`…/predictions/<m>/<d>.json` →
 * `…/results/<m>/<d>.json`) and the other way round; null when the path is not in such a tree.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const results = siblingOf("w/predictions/m/bbh-navigate.json", "results");
 * assert.equal(results, "w/results/m/bbh-navigate.json");
 * ```
 */
export function siblingOf(path: string, kind: "predictions" | "results"): string | null {
  const modelDir = dirname(path);
  const top = dirname(modelDir);
  const other = kind === "results" ? "predictions" : "results";
  if (basename(top) !== other) return null;
  return join(dirname(top), kind, basename(modelDir), basename(path));
}

/**
 * Whether the predictions of an OpenCompass results file (its name without `.gz`) exist:
 * `predictions/<m>/<d>.json` or its first part `<d>_0.json`, plain or `.gz`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const results = "tests/fixtures/logs/formats/opencompass/20250101_120000/results/demo-7b";
 * assert.equal(predictionsExist(`${results}/bbeh_boardgame_qa.json`), true);
 * assert.equal(predictionsExist(`${results}/bbh-navigate.json`), false);
 * ```
 */
export function predictionsExist(resultsPath: string): boolean {
  const predictions = siblingOf(resultsPath, "predictions");
  if (!predictions) return false;
  const ext = extname(predictions);
  const part0 = `${predictions.slice(0, predictions.length - ext.length)}_0${ext}`;
  return existsPlainOrGz(predictions) || existsPlainOrGz(part0);
}

/** `details` of a results document as (key, detail) pairs; a list or an index-keyed object. */
function detailsOf(doc: unknown): [string, unknown][] | null {
  const details = isObject(doc) ? doc.details : undefined;
  if (Array.isArray(details)) return details.map((d, i) => [String(i), d]);
  if (details && typeof details === "object") return Object.entries(details);
  return null;
}

/** `details` of the results file beside a predictions file (plain or `.gz`); null if none. */
function readSiblingDetails(name: string, limits: SourceLimits): [string, unknown][] | null {
  const results = siblingOf(name, "results");
  if (!results) return null;
  try {
    if (!existsPlainOrGz(results)) return null;
    return detailsOf(readPlainOrGz(results, limits, ["details", "*"], false).value);
  } catch {
    return null;
  }
}

/** The verdict of replica `i` in a detail's `correct` (a list, or one boolean/number). */
function verdictOf(correct: unknown, i: number): boolean | null {
  const v = Array.isArray(correct) ? correct[i] : i === 0 ? correct : undefined;
  if (typeof v === "boolean") return v;
  if (typeof v === "number" && Number.isFinite(v)) return v >= 1;
  return null;
}

/** Parse a predictions or results document: one JSON object, or a FileError. */
function readObject(
  file: SourceFile,
  limits: SourceLimits,
  what: string,
  records: readonly string[],
): { doc: Json; bad: Map<number | string, string> } {
  const bytes = readDocumentBytes(file, limits);
  const { value, bad } = parseDocument(file.path, bytes, limits, {
    records,
    stripBom: true,
    notJson: (m) => `not a JSON ${what} (${m})`,
  });
  if (!isObject(value)) {
    throw new FileError(file.path, `not an OpenCompass ${what} (expected one JSON object)`);
  }
  return { doc: value, bad };
}

function readPredictions(file: SourceFile, out: LineOrder, limits: SourceLimits): void {
  const { doc, bad } = readObject(file, limits, "predictions file", ["*"]);
  const name = file.name;
  const partition = partitionOf(name);
  const place = placeOf(name, partition?.dataset);
  const entries = Object.entries(doc);
  if (!partition) return readRecords(name, entries, bad, place, null, out, limits);
  const at = partOffset(name, partition, limits);
  if ("offset" in at) {
    return readRecords(name, entries, bad, place, { ...partition, ...at }, out, limits);
  }
  entries.forEach(([key], i) => {
    out.bad({ line: i + 1, reason: `record "${key}": ${at.reason}`, run: place.run });
  });
}

function readRecords(
  name: string,
  entries: [string, unknown][],
  over: Map<number | string, string>,
  place: Place,
  part: (Partition & { offset: number }) | null,
  out: LineOrder,
  limits: SourceLimits,
): void {
  const merged = part ? join(dirname(name), `${part.dataset}${extname(name)}`) : name;
  const details = new Map(readSiblingDetails(merged, limits) ?? []);
  const run = place.run;
  entries.forEach(([key, value], i) => {
    const line = i + 1;
    let index = key;
    if (part) {
      if (!/^(0|[1-9]\d*)$/.test(key) || Number(key) >= entries.length) {
        out.bad({
          line,
          reason: `record "${key}" of part ${part.part} of ${part.dataset}: not a ` +
            `record number 0–${entries.length - 1}, so its place in the merged data set is unknown`,
          run,
        });
        return;
      }
      index = String(part.offset + Number(key));
    }
    if (value === null && over.has(key)) {
      out.bad({ line, reason: `record "${key}": ${over.get(key)}`, run });
      return;
    }
    if (!isObject(value)) {
      out.bad({ line, reason: `record "${key}" is not a JSON object`, run });
      return;
    }
    const r = value;
    if (!("prediction" in r) || r.prediction === null) {
      out.bad({ line, reason: `record "${key}" has no prediction`, run });
      return;
    }
    const replicas = Array.isArray(r.prediction) ? r.prediction : [r.prediction];
    if (replicas.length === 0) {
      out.bad({ line, reason: `record "${key}" has an empty prediction list`, run });
      return;
    }
    const detail = (details.get(index) ?? null) as Json | null;
    replicas.forEach((prediction, k) => {
      const pred = isObject(detail) ? detail.pred : undefined;
      out.record({
        line,
        run,
        model: place.model,
        benchmark: place.dataset, // for both (pipeline/labels.ts resolves it)
        task: place.dataset,
        example_index: index,
        target: asText(Array.isArray(r.gold) && r.gold.length === 1 ? r.gold[0] : r.gold),
        response: asText(prediction),
        epoch: k + 1,
        tool_extracted: asText(Array.isArray(pred) ? pred[k] : pred),
        stored_correct: isObject(detail) ? verdictOf(detail.correct, k) : null,
        pointer: INLINE,
      });
    });
  });
}

function readResults(file: SourceFile, out: LineOrder, limits: SourceLimits): void {
  const { doc, bad: over } = readObject(file, limits, "results file", ["details", "*"]);
  const details = detailsOf(doc);
  if (!details) {
    throw new FileError(file.path, "an OpenCompass results file without per-example details");
  }
  const place = placeOf(file.name);
  const run = place.run;
  details.forEach(([key, value], i) => {
    const line = i + 1;
    if (value === null && (over.has(i) || over.has(key))) {
      out.bad({ line, reason: `detail ${key}: ${over.get(i) ?? over.get(key)}`, run });
      return;
    }
    if (!isObject(value)) {
      out.bad({ line, reason: `detail ${key} is not a JSON object`, run });
      return;
    }
    const d = value;
    const raw = d.prediction ?? null;
    const response = raw !== null ? raw : d.pred ?? null;
    if (response === null) {
      out.bad({ line, reason: `detail ${key} has neither prediction nor pred`, run });
      return;
    }
    out.record({
      line,
      run,
      model: place.model,
      benchmark: place.dataset, // for both (pipeline/labels.ts resolves it)
      task: place.dataset,
      example_index: key,
      target: asText(d.answer ?? d.gold ?? d.references ?? null),
      response: asText(Array.isArray(response) ? response[0] : response),
      tool_extracted: asText(Array.isArray(d.pred) ? d.pred[0] : d.pred),
      stored_correct: verdictOf(d.correct, 0),
      pointer: INLINE,
    });
  });
}

/**
 * The `opencompass-predictions` source.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * const dir = "tests/fixtures/logs/formats/opencompass/20250101_120000/predictions/demo-7b";
 * const path = `${dir}/bbeh_boardgame_qa.json`;
 * const file = { id: 0, path, name: path, format: "opencompass-predictions", gzip: false,
 *   defaultRun: "bbeh_boardgame_qa", size: 0 };
 * const stored: unknown[] = [];
 * opencompassPredictionsSource.read(file, { record: (r) => stored.push(r.stored_correct),
 *   bad: () => {} }, DEFAULT_LIMITS);
 * assert.ok(stored.includes(true)); // verdicts from results/demo-7b/bbeh_boardgame_qa.json
 * ```
 */
export const opencompassPredictionsSource: DocumentSource = inLineOrder(readPredictions);

/**
 * The `opencompass-results` source (a results file with `details`, no predictions beside it).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * const dir = "tests/fixtures/logs/formats/opencompass/20250101_120000/results/demo-7b";
 * const path = `${dir}/bbh-navigate.json`;
 * const file = { id: 0, path, name: path, format: "opencompass-results", gzip: false,
 *   defaultRun: "bbh-navigate", size: 0 };
 * const responses: unknown[] = [];
 * opencompassResultsSource.read(file, { record: (r) => responses.push(r.response),
 *   bad: () => {} }, DEFAULT_LIMITS);
 * assert.deepEqual(responses, ["Yes", "Let's think. So the answer is No."]);
 * ```
 */
export const opencompassResultsSource: DocumentSource = inLineOrder(readResults);
