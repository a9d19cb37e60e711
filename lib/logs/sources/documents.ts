/**
 * The built-in document sources of the streaming path, by format name (the names of
 * `discover.ts`): each reads a whole file in one Worker. The JSON-lines, lm-eval and CSV
 * sources live in their own registry (`registry.ts`); benchmarks contribute formats of their
 * own (`LogFormat`, e.g. the BBH release's model outputs), which `all.ts` adds. Polars-free.
 *
 * | format                    | source                         | records                          |
 * |---------------------------|--------------------------------|----------------------------------|
 * | `inspect-eval`            | {@link inspectEvalSource}      | samples × epochs of a `.eval` ZIP |
 * | `inspect-json`            | {@link inspectJsonSource}      | `samples` of a legacy EvalLog    |
 * | `opencompass-predictions` | {@link opencompassPredictionsSource} | predictions × replicas     |
 * | `opencompass-results`     | {@link opencompassResultsSource} | `details`                       |
 * | `mcpbr`                   | {@link mcpbrSource}            | tasks × conditions               |
 * | `openai-evals`            | {@link openaiEvalsSource}      | samples (events grouped)         |
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
 * import { DOCUMENT_SOURCES } from "@runlens/logs/sources/documents.ts";
 * const path = "tests/fixtures/logs/formats/inspect/deflate/bbeh_run.eval";
 * const file = { id: 0, path, name: path, format: "inspect-eval", gzip: false,
 *   defaultRun: "bbeh_run", size: Deno.statSync(path).size };
 * let records = 0;
 * DOCUMENT_SOURCES[file.format].read(file, { record: () => records++, bad: () => {} },
 *   DEFAULT_LIMITS);
 * assert.equal(records, 3);
 * ```
 * @module
 */
import { inspectEvalSource, inspectJsonSource } from "./inspect.ts";
import { mcpbrSource } from "./mcpbr.ts";
import { openaiEvalsSource } from "./openai_evals.ts";
import { opencompassPredictionsSource, opencompassResultsSource } from "./opencompass.ts";
import type { DocumentSource } from "./types.ts";

/** The document formats. */
export const DOCUMENT_FORMATS = [
  "inspect-eval",
  "inspect-json",
  "opencompass-predictions",
  "opencompass-results",
  "mcpbr",
  "openai-evals",
] as const;

/** One document format. */
export type DocumentFormat = (typeof DOCUMENT_FORMATS)[number];

/** The source of each document format. */
export const DOCUMENT_SOURCES: Readonly<Record<DocumentFormat, DocumentSource>> & {
  readonly [format: string]: DocumentSource;
} = {
  "inspect-eval": inspectEvalSource,
  "inspect-json": inspectJsonSource,
  "opencompass-predictions": opencompassPredictionsSource,
  "opencompass-results": opencompassResultsSource,
  "mcpbr": mcpbrSource,
  "openai-evals": openaiEvalsSource,
};

/**
 * Whether `format` is read by a document source.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(isDocumentFormat("mcpbr"), true);
 * assert.equal(isDocumentFormat("canonical-jsonl"), false);
 * ```
 */
export function isDocumentFormat(format: string): format is DocumentFormat {
  return (DOCUMENT_FORMATS as readonly string[]).includes(format);
}
