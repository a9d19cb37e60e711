/**
 * Read an mcpbr `results.json` (a benchmark runner that compares an agent with and without an
 * MCP server) into the raw form ({@link RawLog}): one row per task and condition.
 *
 * Document: `metadata.config.model` (an alias such as `sonnet`), `summary`, `tasks[]` with
 * `instance_id` = `bbh_<subtask>_<index>` (BBEH: `bbeh_<task>_<index>`) and one object per
 * condition (`mcp`, `baseline`; any other member holding `resolved` or `agent_answer` counts
 * too): `{resolved, agent_answer, target, tokens, cost, error, …}`.
 *
 * Row fields: `run` = `<name>_<condition>` (`<name>` = the file name without extension, or the
 * folder name for `results.json`), so the two conditions are two runs; `model` =
 * `metadata.config.model`; benchmark, task and `example_index` from `instance_id`; `target`;
 * `response` = `agent_answer` — only the first 500 characters of the response (mcpbr cuts it;
 * `extra.response_truncated` says when the text is exactly that long); `response_tokens` =
 * `tokens.output` when `tokens` is an object. `extra` keeps the condition, `stored_correct`
 * (mcpbr's `resolved`: last non-empty line, case-insensitive exact match), tokens, cost and error.
 *
 * Record numbers (the quarantine's "line"): the 1-based position of the task in `tasks`; both
 * conditions of a task share it.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { readMcpbrLog } from "@runlens/logs/mcpbr.ts";
 * const raw = readMcpbrLog("tests/fixtures/logs/formats/mcpbr/bbh-sonnet/results.json");
 * raw.frame.select("run", "task", "example_index", "response");
 * assert.deepEqual(raw.frame.select("run", "task", "example_index").row(0), [
 *   "bbh-sonnet_mcp", // <folder>_<condition>: the two conditions are two runs
 *   "boolean_expressions",
 *   "0",
 * ]);
 * ```
 * @module
 */
import { basename, dirname } from "node:path";
import { defaultRunName } from "./paths.ts";
import { benchmarkTaskOf } from "./tool_names.ts";
import { asText, frameFromRecords, type RawLog } from "./raw.ts";
import { readUtf8File } from "./encoding.ts";

type Json = Record<string, unknown>;

/** mcpbr keeps this many characters of the agent's response. */
export const MCPBR_ANSWER_CHARS = 500;

const CONDITIONS = ["mcp", "baseline"];

/**
 * Benchmark, task and example index of an mcpbr `instance_id` (`bbh_<subtask>_<index>`);
 * null when it does not end in `_<index>`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(mcpbrInstance("bbh_date_understanding_14"), {
 *   benchmark: "bbh",
 *   task: "date_understanding",
 *   index: 14,
 * });
 * assert.equal(mcpbrInstance("boolean_expressions"), null);
 * ```
 */
export function mcpbrInstance(
  id: string,
): { benchmark: string; task: string; index: number } | null {
  const m = /^(.+)_(\d+)$/.exec(id.trim());
  if (!m) return null;
  return { ...benchmarkTaskOf(m[1]), index: Number(m[2]) };
}

/** The condition members of a task: `mcp`, `baseline`, then others holding a result. */
function conditionsOf(task: Json): string[] {
  const others = Object.keys(task).filter((k) =>
    !CONDITIONS.includes(k) && task[k] !== null && typeof task[k] === "object" &&
    !Array.isArray(task[k]) &&
    ("resolved" in (task[k] as Json) || "agent_answer" in (task[k] as Json))
  );
  return [...CONDITIONS.filter((k) => k in task), ...others];
}

/**
 * Read an mcpbr results document (`text` defaults to the file's content). Throws when the file
 * is not a JSON object with a `tasks` list; bad tasks and conditions go to `bad`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const { bad } = readMcpbrLog("tests/fixtures/logs/formats/mcpbr/bbh-sonnet/results.json");
 * assert.deepEqual(bad[0], {
 *   line: 2,
 *   reason: "task 2: baseline has no agent_answer (error: Timeout after 180s)",
 *   run: "bbh-sonnet_baseline",
 * });
 * ```
 */
export function readMcpbrLog(path: string, text = readUtf8File(path)): RawLog {
  let doc: unknown;
  try {
    doc = JSON.parse(text.replace(/^\ufeff/, ""));
  } catch (e) {
    throw new Error(`not a JSON document (${(e as Error).message})`);
  }
  if (!doc || typeof doc !== "object" || !Array.isArray((doc as Json).tasks)) {
    throw new Error("not an mcpbr results document (no tasks list)");
  }
  const meta = ((doc as Json).metadata ?? {}) as Json;
  const config = (meta.config ?? {}) as Json;
  const model = asText(config.model ?? meta.model ?? null);
  const stem = defaultRunName(path);
  const name = stem === "results" ? basename(dirname(path)) || stem : stem;
  const tasks = (doc as Json).tasks as unknown[];
  const records: Json[] = [];
  const lines: number[] = [];
  const bad: RawLog["bad"] = [];
  tasks.forEach((value, i) => {
    const line = i + 1;
    if (!value || typeof value !== "object" || Array.isArray(value)) {
      bad.push({ line, reason: `task ${line} is not a JSON object`, run: name });
      return;
    }
    const t = value as Json;
    const id = typeof t.instance_id === "string" ? mcpbrInstance(t.instance_id) : null;
    const conditions = conditionsOf(t);
    if (conditions.length === 0) {
      bad.push({ line, reason: `task ${line} has no mcp or baseline result`, run: name });
      return;
    }
    for (const condition of conditions) {
      const run = `${name}_${condition}`;
      const c = t[condition];
      if (!id) {
        bad.push({
          line,
          reason: `task ${line}: instance_id ${JSON.stringify(t.instance_id ?? null)} is not ` +
            "<benchmark>_<task>_<index>",
          run,
        });
        continue;
      }
      if (!c || typeof c !== "object" || Array.isArray(c)) {
        bad.push({ line, reason: `task ${line}: ${condition} is not a JSON object`, run });
        continue;
      }
      const r = c as Json;
      if (typeof r.agent_answer !== "string") {
        const error = r.error ? ` (error: ${asText(r.error)})` : "";
        bad.push({ line, reason: `task ${line}: ${condition} has no agent_answer${error}`, run });
        continue;
      }
      const tokens = r.tokens;
      const output = tokens && typeof tokens === "object" ? (tokens as Json).output : null;
      records.push({
        run,
        model,
        benchmark: id.benchmark,
        task: id.task,
        example_index: id.index,
        input: asText(t.input ?? t.problem_statement ?? null),
        target: asText(r.target ?? t.target ?? null),
        response: r.agent_answer,
        response_tokens: typeof output === "number" ? output : null,
        epoch: 1,
        instance_id: t.instance_id,
        condition,
        response_truncated: r.agent_answer.length >= MCPBR_ANSWER_CHARS,
        stored_correct: typeof r.resolved === "boolean" ? r.resolved : null,
        tokens: tokens ?? null,
        cost: r.cost ?? null,
        error: r.error ?? null,
      });
      lines.push(line);
    }
  });
  return { frame: frameFromRecords(records, lines), bad, rowsIn: records.length + bad.length };
}
