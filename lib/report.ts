/**
 * The report: a document of loaded runs (headline numbers with intervals, per-benchmark
 * sections, paired comparisons, example questions, provenance) built by {@link buildReport}
 * and written as a static HTML page with its figures and tables by {@link writeReport}.
 *
 * @example Loaded runs as a report document and its page
 * ```ts
 * import assert from "node:assert/strict";
 * import { join } from "node:path";
 * import { loadRuns, resolveDataDir } from "runlens/load";
 * import { buildReport, writeReport } from "runlens/report";
 *
 * const dataDir = resolveDataDir();
 * const loaded = await loadRuns(["tests/fixtures/logs/mixed.jsonl"], dataDir);
 * const doc = await buildReport(loaded, { dataDir, command: "doc example" });
 * const dir = Deno.makeTempDirSync();
 * const files = writeReport(doc, dir);
 * assert.ok(files.includes("report.html") && files.includes("report.md"));
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
export { buildReport, type ReportOptions } from "./report/build.ts";
export { writeReport } from "./report/write.ts";
export type { HtmlOptions } from "./report/html/render.ts";
export type { PayloadEncoding } from "./report/html/examples.ts";
export type {
  DatasetProvenance,
  ExampleQuestion,
  ExampleRow,
  Headline,
  PairedComparison as ReportPairedComparison,
  PairedRow as ReportPairedRow,
  Provenance,
  ReportComparisons,
  ReportDocument,
  ReportExamples,
  RunSummary as ReportRunSummary,
  Verdict as ReportVerdict,
} from "./report/html/document.ts";
export type {
  Cell,
  ReportColumn,
  ReportFigure,
  ReportItem,
  ReportSection,
  ReportTable,
} from "./render/document.ts";
