/**
 * The source of any file the streaming path reads: the line formats (`registry.ts`), the
 * document formats (`documents.ts`), the formats benchmarks contribute (given), and — for a
 * gzip file of a line format — the line source streamed through gzip (`gzip_lines.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const file = (format: string, gzip = false) =>
 *   ({ id: 0, path: "x", name: "x", format, gzip, defaultRun: "x", size: 0 });
 * assert.equal(sourceFor(file("canonical-jsonl"))?.kind, "lines");
 * assert.equal(sourceFor(file("canonical-jsonl", true))?.kind, "document"); // streamed gzip
 * assert.equal(sourceFor(file("inspect-eval"))?.kind, "document");
 * assert.equal(sourceFor(file("inspect-eval", true))?.kind, "document"); // inflates it itself
 * assert.equal(sourceFor(file("no-such-format")), null);
 * ```
 * @module
 */
import { DOCUMENT_SOURCES } from "./documents.ts";
import { gzipSourceFor } from "./gzip_lines.ts";
import { SOURCES } from "./registry.ts";
import type { Source, SourceFile } from "./types.ts";
import type { LogFormat } from "../discover.ts";

/**
 * The source that reads `file`, or null when neither a built-in reader nor one of `formats`
 * knows its format. A gzip file of a line or CSV format gets its gzip source (the plain one
 * would read compressed bytes); document sources inflate gzip data themselves.
 */
export function sourceFor(
  file: Pick<SourceFile, "format" | "gzip">,
  formats: readonly LogFormat[] = [],
): Source | null {
  if (file.gzip) {
    const gzip = gzipSourceFor(file.format);
    if (gzip) return gzip;
  }
  return SOURCES[file.format] ?? DOCUMENT_SOURCES[file.format] ??
    formats.find((f) => f.name === file.format)?.source ?? null;
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
