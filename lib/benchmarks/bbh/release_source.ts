/**
 * The `bbh-release-outputs` log format, which BBH contributes to discovery and the streaming
 * path ({@link BBH_RELEASE_FORMAT}: its detector and its document source): one model-output
 * file of
 * the BBH release (suzgunmirac/BIG-Bench-Hard,
 * `code-davinci-002-outputs/<run>/<task>_few_shot_template_0-255000.json`),
 * `{"canary", "outputs": [{"input", "prediction", "target"}, …]}` in the order of
 * `bbh/<task>.json`. This is the one reader of the format on the streaming path
 * (`release_outputs.ts` reads the release's files for the notebooks); checking a record against
 * the data set — prompt ends with the question, equal targets, the cut-short snarks item 88 —
 * is identification's job, not the reader's. Polars-free.
 *
 * Detection (by name and first bytes, after the built-in formats that recognise content): a
 * `.json` object with an `"outputs"` list of predictions, or with a canary and an `"outputs"`
 * list, is a log; one with a canary (or a release output file name) whose `"outputs"` is
 * missing or not a list is an error naming it; an `<outputs>_eval_metrics.jsonl` beside its
 * outputs file is a companion (the published accuracy).
 *
 * Record fields: `run` = the folder (e.g. `code-davinci-002-cot`), `model` = the folder
 * without a trailing `-cot`/`-direct`, benchmark `bbh`, `task` = the file name before
 * `_few_shot_template`, `example_index` = the record's position, `input` = the few-shot prompt,
 * `target`, `response` = `prediction`, `epoch` 1. Record numbers: the 1-based position in
 * `outputs`. A record that is not an object, or is past the depth or key limit, is a bad
 * record; a file whose `outputs` is not a list (`null`, missing, …) is an error naming it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * import { bbhReleaseSource } from "@runlens/benchmarks/bbh/release_source.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${dir}/code-davinci-002-cot`);
 * const path = `${dir}/code-davinci-002-cot/navigate_few_shot_template_0-255000.json`;
 * Deno.writeTextFileSync(path, JSON.stringify({ canary: "…", outputs: [
 *   { input: "Q: …\nA: Let's think step by step.", prediction: "So the answer is Yes.",
 *     target: "Yes" }, null] }));
 * const file = { id: 0, path, name: path, format: "bbh-release-outputs", gzip: false,
 *   defaultRun: "x", size: 0 };
 * const seen: unknown[] = [];
 * bbhReleaseSource.read(file, {
 *   record: (r) => seen.push([r.run, r.model, r.task, r.example_index]),
 *   bad: (b) => seen.push([b.line, b.reason]),
 * }, DEFAULT_LIMITS);
 * assert.deepEqual(seen, [
 *   ["code-davinci-002-cot", "code-davinci-002", "navigate", 0],
 *   [2, "not a JSON object"],
 * ]);
 * Deno.writeTextFileSync(path, '{"canary": "…", "outputs": null}');
 * assert.throws(() => bbhReleaseSource.read(file, { record() {}, bad() {} }, DEFAULT_LIMITS),
 *   /no "outputs" array \(BBH release model outputs; "outputs" is null\)/);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import { existsSync } from "node:fs";
import { basename, dirname, extname } from "node:path";
import type { LogFormat } from "../../logs/discover.ts";
import { INLINE, isObject, parseDocument, readDocumentBytes } from "../../logs/sources/document.ts";
import { type DocumentSource, FileError } from "../../logs/sources/types.ts";

const NAME = /^(.+?)_few_shot_template[^/]*\.json$/;

/**
 * The task of a release output file name, or null for other names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(bbhReleaseTask("navigate_few_shot_template_0-255000.json"), "navigate");
 * assert.equal(bbhReleaseTask("navigate_few_shot_template_0-255000_eval_metrics.jsonl"), null);
 * ```
 */
export function bbhReleaseTask(name: string): string | null {
  return NAME.exec(basename(name))?.[1] ?? null;
}

/**
 * What a value is, for error messages: `null`, `a string`, `an object`, `missing`, ….
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(describeValue(null), "null");
 * assert.equal(describeValue({}), "an object");
 * ```
 */
export function describeValue(v: unknown): string {
  if (v === undefined) return "missing";
  if (v === null) return "null";
  if (Array.isArray(v)) return "a list";
  if (typeof v === "object") return "an object";
  return `a ${typeof v}`;
}

/** The `bbh-release-outputs` source. */
export const bbhReleaseSource: DocumentSource = {
  kind: "document",
  read(file, sink, limits) {
    const bytes = readDocumentBytes(file, limits);
    const { value: doc, bad: over } = parseDocument(file.path, bytes, limits, {
      records: ["outputs", "*"],
      stripBom: true,
      notJson: (m) => `not valid JSON (${m})`,
    });
    const outputs = isObject(doc) ? doc.outputs : undefined;
    if (!Array.isArray(outputs)) {
      throw new FileError(
        file.path,
        `no "outputs" array (BBH release model outputs; "outputs" is ${describeValue(outputs)})`,
      );
    }
    const run = basename(dirname(file.name)) || "bbh-release";
    const model = run.replace(/-(cot|direct)$/, "");
    const task = bbhReleaseTask(file.name) ?? basename(file.name).replace(/\.json$/i, "");
    outputs.forEach((rec, i) => {
      const line = i + 1;
      if (rec === null && over.has(i)) {
        sink.bad({ line, reason: `record ${line}: ${over.get(i)}`, run });
        return;
      }
      if (!isObject(rec)) {
        sink.bad({ line, reason: "not a JSON object", run });
        return;
      }
      sink.record({
        line,
        run,
        model,
        benchmark: "bbh",
        task,
        example_index: i,
        input: rec.input ?? null,
        target: rec.target ?? null,
        response: rec.prediction ?? null,
        epoch: 1,
        stored_correct: null,
        tool_extracted: null,
        pointer: INLINE,
      });
    });
  },
};

/**
 * What a file is for this format, from its name (without `.gz`) and its first bytes as text;
 * null when it is none of its files.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const name = "x-cot/navigate_few_shot_template_0-255000.json";
 * assert.equal(detectBbhRelease(name, '{"canary": "…", "outputs": [')?.kind, "log");
 * assert.equal(detectBbhRelease(name, '{"canary": "…", "outputs": null}')?.kind, "broken");
 * assert.equal(detectBbhRelease("run.json", '{"answers": []}'), null);
 * ```
 */
export function detectBbhRelease(
  name: string,
  text: string,
): ReturnType<LogFormat["detect"]> {
  const ext = extname(name).toLowerCase();
  if (ext === ".jsonl" && /_eval_metrics\.jsonl$/.test(name)) {
    const outputs = name.replace(/_eval_metrics\.jsonl$/, ".json");
    if (existsSync(outputs) || existsSync(`${outputs}.gz`)) {
      return {
        kind: "companion",
        reason: "a BBH release metrics file (the published accuracy of its outputs file)",
      };
    }
  }
  if (ext !== ".json") return null;
  const object = /^\s*\{/.test(text);
  if (object && /"outputs"\s*:\s*\[/.test(text) && /"prediction"\s*:/.test(text)) {
    return {
      kind: "log",
      reason: 'JSON object with an "outputs" list of predictions (BBH release model outputs)',
    };
  }
  const outputs = /"outputs"\s*:\s*(.)/.exec(text);
  if (!object || !(outputs || bbhReleaseTask(name) !== null) || !/"canary"\s*:/.test(text)) {
    return null;
  }
  if (outputs?.[1] === "[") {
    return {
      kind: "log",
      reason: 'JSON object with a canary and an "outputs" list (BBH release model outputs)',
    };
  }
  const what = !outputs
    ? 'without "outputs"'
    : outputs[1] === "n"
    ? 'whose "outputs" is null, not a list of records'
    : 'whose "outputs" is not a list of records';
  return { kind: "broken", reason: `a BBH release outputs file ${what}: nothing to read` };
}

/** The BBH release's model-output files as a log format: its detector and its reader. */
export const BBH_RELEASE_FORMAT: LogFormat = {
  name: "bbh-release-outputs",
  detect: detectBbhRelease,
  source: bbhReleaseSource,
};
