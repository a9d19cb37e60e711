/**
 * Read OpenCompass outputs into the raw form ({@link RawLog}).
 *
 * Predictions (`<work_dir>/predictions/<model_abbr>/<dataset_abbr>.json`): one JSON object
 * `{"0": {origin_prompt, prediction, gold}, "1": …}`. One row per record, or per replica when
 * `prediction` is a list (epoch = replica number, 1-based). `example_index` = the key;
 * `origin_prompt` (a chat prompt: its HUMAN/user turns) goes to `extra.prompt`, not `input`: it
 * is the templated prompt, never the data set's exact input, so the input check would reject
 * every row (the index already ties the row to its example). `target` = `gold`,
 * `response` = `prediction`, `model` = the `<model_abbr>` folder, `run` = `<model_abbr>` (with
 * `_<timestamp>` when the work dir is an OpenCompass `YYYYMMDD_HHMMSS` folder), benchmark and
 * task from the dataset abbreviation (`bbh-temporal_sequences`, `bbeh_boardgame_qa`, see
 * {@link benchmarkTaskOf}). When the matching results file
 * (`<work_dir>/results/<model_abbr>/<dataset_abbr>.json[.gz]`) has `details`, each row's `extra`
 * gets the tool's extraction (`pred`) and verdict (`correct`, one per replica).
 *
 * Results (`results/<model_abbr>/<dataset_abbr>.json`, read on their own only when there is no
 * predictions file): one row per `details[i]` (`origin_prompt` to `extra.prompt` as above);
 * `response` = the detail's `prediction` when
 * present, else its `pred` (then only the extracted answer: `extra.response_is_extracted`).
 *
 * Partitioned data sets (OpenCompass's `SizePartitioner`/`NumWorkerPartitioner` split a data set
 * into parts `<dataset_abbr>_0.json`, `_1.json`, …, each keyed from `"0"`; its evaluator merges
 * them in part order up to the first missing part, and reads `<dataset_abbr>.json` instead when
 * that exists): a predictions file `<d>_<n>.json` with a `<d>_0.json` beside it is part `n` of
 * data set `<d>` (see {@link partitionOf}). Its rows get the task of `<d>` and
 * `example_index` = the record counts of parts `0…n-1` + the key, and the verdicts of the merged
 * `results/<model_abbr>/<d>.json`. The records of a part OpenCompass would not merge (an earlier
 * part is missing or unreadable, or `<d>.json` exists) are all quarantined, naming the reason.
 *
 * Record numbers (the quarantine's "line"): the 1-based position of the record in the object
 * (predictions; in the part file itself for a part) or in `details` (results).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readOpenCompassPredictions } from "@runlens/logs/opencompass.ts";
 * const work = "tests/fixtures/logs/formats/opencompass";
 * const path = `${work}/20250101_120000/predictions/demo-7b/bbeh_boardgame_qa.json`;
 * const raw = readOpenCompassPredictions(path);
 * raw.frame.select("task", "example_index", "response");
 * assert.equal(raw.frame.getColumn("run").get(0), "demo-7b_20250101_120000");
 * // part 1 of a split data set: indices continue after part 0's 23 records
 * const parts = `${work}/20250202_090000/predictions/parted-7b`;
 * const part = readOpenCompassPredictions(`${parts}/bbeh_boardgame_qa_1.json`);
 * assert.deepEqual(part.frame.getColumn("example_index").toArray(), ["23", "24", "25", "26"]);
 * ```
 * @module
 */
import { basename, dirname, extname, join } from "node:path";
import { existsSync } from "node:fs";
import { benchmarkTaskOf } from "./tool_names.ts";
import { defaultRunName } from "./paths.ts";
import { gunzipLog } from "./gzip.ts";
import { asText, frameFromRecords, type RawLog } from "./raw.ts";
import { decodeUtf8, readUtf8File } from "./encoding.ts";

type Json = Record<string, unknown>;

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

function placeOf(path: string, dataset = defaultRunName(path)): Place {
  const model = basename(dirname(path)) || "opencompass";
  const workDir = basename(dirname(dirname(dirname(path))));
  const run = /^\d{8}_\d{6}$/.test(workDir) ? `${model}_${workDir}` : model;
  return { model, dataset, run };
}

/** `path` or `path.gz` exists. */
const existsPlainOrGz = (path: string) => existsSync(path) || existsSync(`${path}.gz`);

/** The text of `path`, else of `path.gz` decompressed. */
function readPlainOrGz(path: string): string {
  if (existsSync(path)) return readUtf8File(path);
  return decodeUtf8(gunzipLog(`${path}.gz`));
}

/** The file of part `part` of data set `dataset` in folder `dir`: `<dir>/<dataset>_<part><ext>`. */
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
 * `n` of data set `<d>` when `<d>_0.json` (plain or `.gz`) sits beside it, as OpenCompass's
 * evaluator finds parts; null otherwise (so a data set whose own name ends in `_<digits>`, such
 * as `bbh-foo_1.json` without a `bbh-foo_0.json`, stays itself).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = "tests/fixtures/logs/formats/opencompass/20250202_090000/predictions/parted-7b";
 * const part = partitionOf(`${dir}/bbeh_boardgame_qa_1.json`);
 * assert.deepEqual(part, { dataset: "bbeh_boardgame_qa", part: 1 });
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
function partRecordCount(path: string): number {
  const file = existsSync(path) ? path : `${path}.gz`;
  const info = Deno.statSync(file);
  const stamp = `${file}:${info.size}:${info.mtime?.getTime() ?? ""}`;
  const known = partCounts.get(path);
  if (known && known.stamp === stamp) return known.count;
  const count = Object.keys(parseObject(readPlainOrGz(path), "predictions file")).length;
  partCounts.set(path, { stamp, count });
  return count;
}

/**
 * Where part `p` of a data set starts in OpenCompass's merge: `{offset}` = the record counts
 * of parts `0…p-1`; `{reason}` when OpenCompass would not merge the part: `<d>.json` exists
 * (its evaluator reads that instead), or an earlier part is missing (it stops there) or
 * cannot be read.
 */
function partOffset(path: string, { dataset, part }: Partition): { offset: number } | {
  reason: string;
} {
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
      offset += partRecordCount(file);
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
 * assert.equal(siblingOf("w/m/bbh-navigate.json", "results"), null);
 * ```
 */
export function siblingOf(path: string, kind: "predictions" | "results"): string | null {
  const modelDir = dirname(path);
  const top = dirname(modelDir);
  const other = kind === "results" ? "predictions" : "results";
  if (basename(top) !== other) return null;
  return join(dirname(top), kind, basename(modelDir), basename(path));
}

/** `details` of a results document as (key, detail) pairs; a list or an index-keyed object. */
function detailsOf(doc: unknown): [string, unknown][] | null {
  const details = doc && typeof doc === "object" ? (doc as Json).details : undefined;
  if (Array.isArray(details)) return details.map((d, i) => [String(i), d]);
  if (details && typeof details === "object") return Object.entries(details);
  return null;
}

function parseObject(text: string, what: string): Json {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\ufeff/, ""));
  } catch (e) {
    throw new Error(`not a JSON ${what} (${(e as Error).message})`);
  }
  if (!doc || typeof doc !== "object" || Array.isArray(doc)) {
    throw new Error(`not an OpenCompass ${what} (expected one JSON object)`);
  }
  return doc as Json;
}

/** The verdict of replica `i` in a detail's `correct` (a list, or one boolean/number). */
function verdictOf(correct: unknown, i: number): boolean | null {
  const v = Array.isArray(correct) ? correct[i] : i === 0 ? correct : undefined;
  if (typeof v === "boolean") return v;
  if (typeof v === "number" && Number.isFinite(v)) return v >= 1;
  return null;
}

/**
 * Read an OpenCompass predictions file (`text` defaults to its content). Throws when the file
 * is not one JSON object; bad records go to `bad`. A part of a split data set (`path` names it:
 * its earlier parts are read from beside it) continues their indices, or has all its records
 * in `bad` when OpenCompass would not merge it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = "tests/fixtures/logs/formats/opencompass/20250101_120000/predictions/demo-7b";
 * assert.equal(readOpenCompassPredictions(`${dir}/bbh-temporal_sequences.json`).rowsIn, 2);
 * ```
 */
export function readOpenCompassPredictions(
  path: string,
  text = readUtf8File(path),
): RawLog {
  const doc = parseObject(text, "predictions file");
  const partition = partitionOf(path);
  const place = placeOf(path, partition?.dataset);
  const entries = Object.entries(doc);
  if (!partition) return readRecords(path, entries, place, null);
  const at = partOffset(path, partition);
  if ("offset" in at) return readRecords(path, entries, place, { ...partition, ...at });
  const bad = entries.map(([key], i) => ({
    line: i + 1,
    reason: `record "${key}": ${at.reason}`,
    run: place.run,
  }));
  return { frame: frameFromRecords([], []), bad, rowsIn: bad.length };
}

/**
 * The rows of predictions records: for a part (merged from `offset` on), `offset` + the key
 * as `example_index` (its keys must be `0…n-1`, as OpenCompass reads them); else the key.
 */
function readRecords(
  path: string,
  entries: [string, unknown][],
  place: Place,
  part: (Partition & { offset: number }) | null,
): RawLog {
  const { benchmark, task } = benchmarkTaskOf(place.dataset);
  // a part's verdicts are in the merged data set's results, keyed by the merged index
  const merged = part ? join(dirname(path), `${part.dataset}${extname(path)}`) : path;
  const details = new Map(readSiblingDetails(merged) ?? []);
  const records: Json[] = [];
  const lines: number[] = [];
  const bad: RawLog["bad"] = [];
  entries.forEach(([key, value], i) => {
    const line = i + 1;
    let index = key;
    if (part) {
      if (!/^(0|[1-9]\d*)$/.test(key) || Number(key) >= entries.length) {
        bad.push({
          line,
          reason: `record "${key}" of part ${part.part} of ${part.dataset}: not a ` +
            `record number 0–${entries.length - 1}, so its place in the merged data set is unknown`,
          run: place.run,
        });
        return;
      }
      index = String(part.offset + Number(key));
    }
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      bad.push({ line, reason: `record "${key}" is not a JSON object`, run: place.run });
      return;
    }
    const r = value as Json;
    if (!("prediction" in r) || r.prediction === null) {
      bad.push({ line, reason: `record "${key}" has no prediction`, run: place.run });
      return;
    }
    const replicas = Array.isArray(r.prediction) ? r.prediction : [r.prediction];
    if (replicas.length === 0) {
      bad.push({ line, reason: `record "${key}" has an empty prediction list`, run: place.run });
      return;
    }
    const detail = (details.get(index) ?? null) as Json | null;
    replicas.forEach((prediction, k) => {
      const pred = detail?.pred;
      records.push({
        run: place.run,
        model: place.model,
        benchmark,
        task,
        example_index: index,
        prompt: promptText(r.origin_prompt ?? null),
        target: asText(Array.isArray(r.gold) && r.gold.length === 1 ? r.gold[0] : r.gold),
        response: asText(prediction),
        epoch: k + 1,
        opencompass_dataset: place.dataset,
        ...(part ? { opencompass_part: part.part } : {}),
        tool_extracted: asText(Array.isArray(pred) ? pred[k] : pred),
        stored_correct: detail ? verdictOf(detail.correct, k) : null,
      });
      lines.push(line);
    });
  });
  return { frame: frameFromRecords(records, lines), bad, rowsIn: records.length + bad.length };
}

/** `details` of the results file beside a predictions file (plain or `.gz`); null if none. */
function readSiblingDetails(path: string): [string, unknown][] | null {
  const results = siblingOf(path, "results");
  if (!results) return null;
  try {
    if (!existsPlainOrGz(results)) return null;
    return detailsOf(JSON.parse(readPlainOrGz(results)));
  } catch {
    return null;
  }
}

/**
 * Whether the predictions of an OpenCompass results file (its name without `.gz`) exist:
 * `predictions/<m>/<d>.json` or its first part `<d>_0.json`, plain or `.gz` (then the results
 * are read with them, for their verdicts).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const results = "tests/fixtures/logs/formats/opencompass/20250101_120000/results/demo-7b";
 * assert.equal(predictionsExist(`${results}/bbeh_boardgame_qa.json`), true); // read with them
 * assert.equal(predictionsExist(`${results}/bbh-navigate.json`), false); // read on its own
 * ```
 */
export function predictionsExist(resultsPath: string): boolean {
  const predictions = siblingOf(resultsPath, "predictions");
  if (!predictions) return false;
  const ext = extname(predictions);
  const part0 = `${predictions.slice(0, predictions.length - ext.length)}_0${ext}`;
  return existsPlainOrGz(predictions) || existsPlainOrGz(part0);
}

/**
 * Read an OpenCompass results file with per-example `details` on its own (`text` defaults to
 * its content). Throws when it is not a JSON object with `details`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const results = "tests/fixtures/logs/formats/opencompass/20250101_120000/results/demo-7b";
 * const raw = readOpenCompassResults(`${results}/bbh-navigate.json`);
 * const responses = raw.frame.getColumn("response").toArray();
 * assert.deepEqual(responses, ["Yes", "Let's think. So the answer is No."]); // details 0, 1
 * ```
 */
export function readOpenCompassResults(path: string, text = readUtf8File(path)): RawLog {
  const doc = parseObject(text, "results file");
  const details = detailsOf(doc);
  if (!details) throw new Error("an OpenCompass results file without per-example details");
  const place = placeOf(path);
  const { benchmark, task } = benchmarkTaskOf(place.dataset);
  const records: Json[] = [];
  const lines: number[] = [];
  const bad: RawLog["bad"] = [];
  details.forEach(([key, value], i) => {
    const line = i + 1;
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      bad.push({ line, reason: `detail ${key} is not a JSON object`, run: place.run });
      return;
    }
    const d = value as Json;
    const raw = d.prediction ?? null;
    const response = raw !== null ? raw : d.pred ?? null;
    if (response === null) {
      bad.push({ line, reason: `detail ${key} has neither prediction nor pred`, run: place.run });
      return;
    }
    records.push({
      run: place.run,
      model: place.model,
      benchmark,
      task,
      example_index: key,
      prompt: promptText(d.origin_prompt ?? null),
      target: asText(d.answer ?? d.gold ?? d.references ?? null),
      response: asText(Array.isArray(response) ? response[0] : response),
      opencompass_dataset: place.dataset,
      tool_extracted: asText(Array.isArray(d.pred) ? d.pred[0] : d.pred),
      response_is_extracted: raw === null,
      stored_correct: verdictOf(d.correct, 0),
    });
    lines.push(line);
  });
  return { frame: frameFromRecords(records, lines), bad, rowsIn: records.length + bad.length };
}
