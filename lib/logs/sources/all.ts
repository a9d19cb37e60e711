/**
 * The source of any file the streaming path reads: the line formats (`registry.ts`), the
 * document formats (`documents.ts`), and — for a gzip file of a line format — the line source
 * streamed through gzip (`gzip_lines.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const file = (format: string, gzip = false) =>
 *   ({ id: 0, path: "x", name: "x", format, gzip, defaultRun: "x", size: 0 });
 * assert.equal(sourceFor(file("canonical-jsonl"))?.kind, "lines");
 * assert.equal(sourceFor(file("inspect-eval"))?.kind, "document");
 * assert.equal(sourceFor(file("no-such-format")), null);
 * ```
 * @module
 */
import { gunzipAll } from "../gzip_stream.ts";
import { readCsvBytes } from "./csv.ts";
import { DOCUMENT_CAP } from "./document.ts";
import { DOCUMENT_SOURCES } from "./documents.ts";
import { readJsonlBytes } from "./jsonl.ts";
import { readLmEvalBytes } from "./lm_eval.ts";
import { SOURCES } from "./registry.ts";
import type { DocumentSource, Source, SourceFile } from "./types.ts";

/** Readers of a whole decompressed gzip file, by format. */
const GZIP_READERS: Record<string, typeof readCsvBytes> = {
  "canonical-jsonl": readJsonlBytes,
  "mapped-jsonl": readJsonlBytes,
  "lm-eval": readLmEvalBytes,
  "canonical-csv": readCsvBytes,
  "mapped-csv": readCsvBytes,
};

/** A gzip file of a line or CSV format: inflated (verified, within the budget), then read. */
const gzipSource = (read: typeof readCsvBytes): DocumentSource => ({
  kind: "document",
  read(file, sink, limits) {
    read(file, gunzipAll(file.path, limits, { cap: DOCUMENT_CAP }), sink, limits);
  },
});

/** The source that reads `file`, or null when no reader knows its format. */
export function sourceFor(file: SourceFile): Source | null {
  const gz = file.gzip ? GZIP_READERS[file.format] : undefined;
  if (gz) return gzipSource(gz);
  return SOURCES[file.format] ?? DOCUMENT_SOURCES[file.format] ?? null;
}

/**
 * Whether `file` is read in byte ranges (a plain file of a line format) rather than whole
 * (a document, a gzip file, an lm-eval samples file: one unit each).
 *
 * @example
 * ```ts
 * const f = { id: 0, path: "x", name: "x", format: "lm-eval", gzip: false, defaultRun: "x", size: 9 };
 * readInRanges({ ...f, format: "canonical-jsonl" }); // true
 * readInRanges({ ...f, format: "canonical-jsonl", gzip: true }); // false: read from its start
 * readInRanges(f); // false: lm-eval files are read whole
 * ```
 */
export function readInRanges(file: SourceFile): boolean {
  // lm-eval files before v0.4.7 name a line's filter by its place among the doc's lines: one
  // reader must see the whole file (lm-eval writes one small file per task)
  return !file.gzip && file.format !== "lm-eval" && sourceFor(file)?.kind === "lines";
}
