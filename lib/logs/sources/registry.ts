/**
 * The format sources of the streaming path, by format name (the names `--format` accepts and
 * `detect.ts` gives): the JSON-lines and CSV formats of this branch. The document formats
 * (inspect, OpenCompass, mcpbr, openai/evals, BBH release, gzip and ZIP containers) add their
 * own entries when the registries are merged. `lm-eval-array` is the ≤ v0.4.2 form of `lm-eval`
 * (one JSON array): `lm-eval` reads it too, so a planner may use either.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(SOURCES["canonical-jsonl"].kind, "lines");
 * assert.equal(SOURCES["mapped-csv"].kind, "document");
 * ```
 * @module
 */
import { csvSource } from "./csv.ts";
import { jsonlSource } from "./jsonl.ts";
import { lmEvalArraySource, lmEvalSource } from "./lm_eval.ts";
import type { Source } from "./types.ts";

/**
 * Format name → source.
 *
 * @example
 * ```ts
 * Object.keys(SOURCES); // canonical-jsonl, mapped-jsonl, canonical-csv, mapped-csv, lm-eval, …
 * ```
 */
export const SOURCES: Record<string, Source> = {
  "canonical-jsonl": jsonlSource,
  "mapped-jsonl": jsonlSource,
  "canonical-csv": csvSource,
  "mapped-csv": csvSource,
  "lm-eval": lmEvalSource,
  "lm-eval-array": lmEvalArraySource,
};
