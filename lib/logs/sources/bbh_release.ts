/**
 * The `bbh-release-outputs` document source for the streaming path: one model-output file of
 * the BBH release (suzgunmirac/BIG-Bench-Hard,
 * `code-davinci-002-outputs/<run>/<task>_few_shot_template_0-255000.json`),
 * `{"canary", "outputs": [{"input", "prediction", "target"}, …]}` in the order of
 * `bbh/<task>.json`. This is the one reader of the format on the streaming path (today two
 * read it: `logs/bbh_release.ts`, whose records it reproduces, and
 * `benchmarks/bbh/release_outputs.ts`); checking a record against the data set — prompt ends
 * with the question, equal targets, the cut-short snarks item 88 — is identification's job,
 * not the reader's. Polars-free.
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
 * import { bbhReleaseSource } from "@runlens/logs/sources/bbh_release.ts";
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
import { basename, dirname } from "node:path";
import { INLINE, isObject, parseDocument, readDocumentBytes } from "./document.ts";
import { type DocumentSource, FileError } from "./types.ts";

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
