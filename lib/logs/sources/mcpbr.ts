/**
 * The `mcpbr` document source for the streaming path: an mcpbr `results.json` (a benchmark
 * runner comparing an agent with and without an MCP server), one record per task and
 * condition. The records and bad records are those of today's reader (`logs/mcpbr.ts`, the
 * behavioural spec): `run` = `<name>_<condition>` (`<name>` = the file name without extension,
 * or the folder for `results.json`); `model` = `metadata.config.model`; benchmark, task and
 * `example_index` from `instance_id` (`<label>_<index>`: `benchmark` and `task` are the label as
 * written, e.g. `bbh_date_understanding`, resolved by `pipeline/labels.ts`); `target`; `response` =
 * `agent_answer` (only its first 500 characters: mcpbr cuts it); `response_tokens` =
 * `tokens.output`; `stored_correct` = `resolved`. Record numbers: the task's position in
 * `tasks`, shared by its conditions. A task past the depth or key limit is one bad record
 * (run `<name>`). Polars-free.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * import { mcpbrSource } from "@runlens/logs/sources/mcpbr.ts";
 * const path = "tests/fixtures/logs/formats/mcpbr/bbh-sonnet/results.json";
 * const file = { id: 0, path, name: path, format: "mcpbr", gzip: false, defaultRun: "results",
 *   size: 0 };
 * const seen: unknown[] = [];
 * mcpbrSource.read(file, {
 *   record: (r) => seen.push([r.line, r.run, r.task, r.example_index]),
 *   bad: (b) => seen.push([b.line, b.reason]),
 * }, DEFAULT_LIMITS);
 * assert.deepEqual(seen.slice(0, 3), [
 *   [1, "bbh-sonnet_mcp", "bbh_boolean_expressions", 0], // labels as written
 *   [1, "bbh-sonnet_baseline", "bbh_boolean_expressions", 0],
 *   [2, "bbh-sonnet_mcp", "bbh_date_understanding", 14],
 * ]);
 * ```
 * @module
 */
import { basename, dirname } from "node:path";
import { defaultRunName } from "../paths.ts";
import {
  asText,
  INLINE,
  isObject,
  type Json,
  LineOrder,
  parseDocument,
  readDocumentBytes,
} from "./document.ts";
import { type DocumentSource, FileError } from "./types.ts";

/** mcpbr keeps this many characters of the agent's response. */
export const MCPBR_ANSWER_CHARS = 500;

const CONDITIONS = ["mcp", "baseline"];

/**
 * The benchmark-and-task label and the example index of an mcpbr `instance_id`
 * (`<label>_<index>`, e.g. `bbh_<subtask>_<index>`); null when it does not end in `_<index>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(mcpbrInstance("bbh_date_understanding_14"), {
 *   label: "bbh_date_understanding",
 *   index: 14,
 * });
 * ```
 */
export function mcpbrInstance(id: string): { label: string; index: number } | null {
  const m = /^(.+)_(\d+)$/.exec(id.trim());
  return m ? { label: m[1], index: Number(m[2]) } : null;
}

/** The condition members of a task: `mcp`, `baseline`, then others holding a result. */
function conditionsOf(task: Json): string[] {
  const others = Object.keys(task).filter((k) =>
    !CONDITIONS.includes(k) && isObject(task[k]) &&
    ("resolved" in (task[k] as Json) || "agent_answer" in (task[k] as Json))
  );
  return [...CONDITIONS.filter((k) => k in task), ...others];
}

/** The `mcpbr` source. */
export const mcpbrSource: DocumentSource = {
  kind: "document",
  read(file, sink, limits) {
    const bytes = readDocumentBytes(file, limits);
    const { value: doc, bad: over } = parseDocument(file.path, bytes, limits, {
      records: ["tasks", "*"],
      stripBom: true,
      notJson: (m) => `not a JSON document (${m})`,
    });
    if (!isObject(doc) || !Array.isArray(doc.tasks)) {
      throw new FileError(file.path, "not an mcpbr results document (no tasks list)");
    }
    const meta = (doc.metadata ?? {}) as Json;
    const config = (isObject(meta) ? meta.config ?? {} : {}) as Json;
    const model = asText((isObject(config) ? config.model : null) ?? meta.model ?? null);
    const stem = defaultRunName(file.name);
    const name = stem === "results" ? basename(dirname(file.name)) || stem : stem;
    const out = new LineOrder();
    (doc.tasks as unknown[]).forEach((value, i) => {
      const line = i + 1;
      if (value === null && over.has(i)) {
        out.bad({ line, reason: `task ${line}: ${over.get(i)}`, run: name });
        return;
      }
      if (!isObject(value)) {
        out.bad({ line, reason: `task ${line} is not a JSON object`, run: name });
        return;
      }
      const t = value;
      const id = typeof t.instance_id === "string" ? mcpbrInstance(t.instance_id) : null;
      const conditions = conditionsOf(t);
      if (conditions.length === 0) {
        out.bad({ line, reason: `task ${line} has no mcp or baseline result`, run: name });
        return;
      }
      for (const condition of conditions) {
        const run = `${name}_${condition}`;
        const c = t[condition];
        if (!id) {
          out.bad({
            line,
            reason: `task ${line}: instance_id ${JSON.stringify(t.instance_id ?? null)} is not ` +
              "<benchmark>_<task>_<index>",
            run,
          });
          continue;
        }
        if (!isObject(c)) {
          out.bad({ line, reason: `task ${line}: ${condition} is not a JSON object`, run });
          continue;
        }
        if (typeof c.agent_answer !== "string") {
          const error = c.error ? ` (error: ${asText(c.error)})` : "";
          out.bad({ line, reason: `task ${line}: ${condition} has no agent_answer${error}`, run });
          continue;
        }
        const tokens = c.tokens;
        const output = isObject(tokens) ? tokens.output : null;
        out.record({
          line,
          run,
          model,
          benchmark: id.label,
          task: id.label,
          example_index: id.index,
          input: asText(t.input ?? t.problem_statement ?? null),
          target: asText(c.target ?? t.target ?? null),
          response: c.agent_answer,
          response_tokens: typeof output === "number" ? output : null,
          epoch: 1,
          stored_correct: typeof c.resolved === "boolean" ? c.resolved : null,
          tool_extracted: null,
          pointer: INLINE,
        });
      }
    });
    out.flush(sink);
  },
};
