/**
 * Parse one JSONL line that must hold a JSON object, with errors that name the place.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { parseJsonObjectLine } from "@runlens/core/json_line.ts";
 * const rec = parseJsonObjectLine('{"task": "x"}', "runs.jsonl:3");
 * assert.equal(rec.task, "x");
 * assert.throws(() => parseJsonObjectLine("[1]", "runs.jsonl:4"), /runs.jsonl:4: expected a JSON/);
 * ```
 * @module
 */

/** The object on `line`; throws `<where>: not valid JSON (…)` or `<where>: expected a JSON object`. */
export function parseJsonObjectLine(line: string, where: string): Record<string, unknown> {
  let rec: unknown;
  try {
    rec = JSON.parse(line);
  } catch (e) {
    throw new Error(`${where}: not valid JSON (${(e as Error).message})`);
  }
  if (typeof rec !== "object" || rec === null || Array.isArray(rec)) {
    throw new Error(`${where}: expected a JSON object`);
  }
  return rec as Record<string, unknown>;
}
