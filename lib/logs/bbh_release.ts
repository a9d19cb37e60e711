/**
 * Read one model-output file of the BBH release (suzgunmirac/BIG-Bench-Hard,
 * `code-davinci-002-outputs/<run>/<task>_few_shot_template_0-255000.json`) into the raw form
 * ({@link RawLog}): `{"canary", "outputs": [{"input", "prediction", "target"}, …]}`, the
 * records in the order of `bbh/<task>.json`.
 *
 * Row fields: `run` = the folder (e.g. `code-davinci-002-cot`), `model` = the folder without a
 * trailing `-cot`/`-direct`, benchmark `bbh`, `task` = the file name before
 * `_few_shot_template`, `example_index` = the record's position, `input` = the few-shot prompt
 * (the scorer checks that it ends with the data set's question at that position), `target`,
 * `response` = `prediction`. The sibling `<stem>_eval_metrics.jsonl` (the published accuracy)
 * is not a log. Record numbers (the quarantine's "line"): the 1-based position in `outputs`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readBbhReleaseLog } from "@runlens/logs/bbh_release.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const run = `${resolveDataDir()}/bbh/code-davinci-002-outputs/code-davinci-002-cot`;
 * const raw = readBbhReleaseLog(`${run}/snarks_few_shot_template_0-255000.json`);
 * raw.frame.select("task", "example_index", "response");
 * assert.deepEqual(raw.frame.select("run", "model", "task", "example_index").row(0), [
 *   "code-davinci-002-cot",
 *   "code-davinci-002",
 *   "snarks",
 *   "0",
 * ]);
 * ```
 * @module
 */
import { basename, dirname } from "node:path";
import { readUtf8File } from "./encoding.ts";
import { frameFromRecords, type RawLog } from "./raw.ts";

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
 * Read one release output file (`text` defaults to its content). Throws when the file is not
 * an object with an `outputs` array; records that are not objects go to `bad`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const run = `${resolveDataDir()}/bbh/code-davinci-002-outputs/code-davinci-002-direct`;
 * const path = `${run}/navigate_few_shot_template_0-255000.json`;
 * assert.equal(readBbhReleaseLog(path).rowsIn, 250); // 250 for most tasks
 * assert.throws(() => readBbhReleaseLog("x.json", "{}"), /no "outputs" array/);
 * ```
 */
export function readBbhReleaseLog(path: string, text = readUtf8File(path)): RawLog {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\ufeff/, ""));
  } catch (e) {
    throw new Error(`not valid JSON (${(e as Error).message})`);
  }
  const outputs = (doc as { outputs?: unknown } | null)?.outputs;
  if (!Array.isArray(outputs)) throw new Error('no "outputs" array (BBH release model outputs)');
  const run = basename(dirname(path)) || "bbh-release";
  const model = run.replace(/-(cot|direct)$/, "");
  const task = bbhReleaseTask(path) ?? basename(path).replace(/\.json$/i, "");
  const records: Record<string, unknown>[] = [];
  const lines: number[] = [];
  const bad: RawLog["bad"] = [];
  outputs.forEach((rec, i) => {
    if (rec === null || typeof rec !== "object" || Array.isArray(rec)) {
      bad.push({ line: i + 1, reason: "not a JSON object", run });
      return;
    }
    const r = rec as Record<string, unknown>;
    records.push({
      run,
      model,
      benchmark: "bbh",
      task,
      example_index: i,
      input: r.input ?? null,
      target: r.target ?? null,
      response: r.prediction ?? null,
      epoch: 1,
    });
    lines.push(i + 1);
  });
  return { frame: frameFromRecords(records, lines), bad, rowsIn: outputs.length };
}
