/**
 * The whole ARB report of a set of scored rows: row counts, quarantine, and the five analyses
 * (accuracy, unparseable rate, error types, rubric quality, rubric scores), as one object for
 * `runlens arb --json` and as text tables.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { benchmarkRuns } from "@runlens/pipeline/benchmark_rows.ts";
 * import { arbLogOf } from "@runlens/benchmarks/arb/runs.ts";
 * const arbLog = async (path: string) =>
 *   arbLogOf(benchmarkRuns(await loadRuns([path], "", { benchmarks: ["arb"] }), "arb", [], "")).log;
 * import { arbReport, arbReportText } from "@runlens/benchmarks/arb/report.ts";
 * const report = arbReport(await arbLog("tests/fixtures/arb/malformed.jsonl"));
 * assert.equal(report.rows_scored, 1);
 * assert.equal(report.rows_quarantined, 7);
 * const text = arbReportText(report); // `runlens arb` prints this
 * assert.ok(text.startsWith("8 rows in 1 file(s): 1 scored, 7 quarantined\n"));
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import { formatQuarantine, type QuarantineEntry } from "../../logs/quarantine.ts";
import { markdownTable } from "../../render/table.ts";
import { arbAccuracy, arbUnparseable } from "./accuracy.ts";
import { arbErrorTypes, arbRubricQuality } from "./annotations.ts";
import type { ArbLog } from "./runs.ts";
import { arbRubricScores } from "./rubric_scores.ts";

/** The report's analyses, each as row objects. */
export const ARB_ANALYSES = {
  accuracy: arbAccuracy,
  unparseable: arbUnparseable,
  error_types: arbErrorTypes,
  rubric_quality: arbRubricQuality,
  rubric_scores: arbRubricScores,
} as const;

/** The JSON report. */
export interface ArbReport {
  /** The log files read. */
  files: string[];
  /** Records read: scored + quarantined. */
  rows_in: number;
  /** Rows scored. */
  rows_scored: number;
  /** Rows set apart with file, line and reason. */
  rows_quarantined: number;
  /** Every row set apart: file, line, reason. */
  quarantine: QuarantineEntry[];
  /** Accuracy with Wilson intervals per model, subject, answer type and image (`arbAccuracy`). */
  accuracy: Record<string, unknown>[];
  /** Share of answers without an `ANSWER:` delimiter per model and subject (`arbUnparseable`). */
  unparseable: Record<string, unknown>[];
  /** The annotated error types (misread, wrong approach, …) per group (`arbErrorTypes`). */
  error_types: Record<string, unknown>[];
  /** Rubric quality per group: coverage, point spread, flagged items (`arbRubricQuality`). */
  rubric_quality: Record<string, unknown>[];
  /** Human and model rubric scores per group, and their correlation (`arbRubricScores`). */
  rubric_scores: Record<string, unknown>[];
}

const records = (df: pl.DataFrame) => df.toRecords() as Record<string, unknown>[];

/**
 * Build the report of a loaded log set.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { benchmarkRuns } from "@runlens/pipeline/benchmark_rows.ts";
 * import { arbLogOf } from "@runlens/benchmarks/arb/runs.ts";
 * const arbLog = async (path: string) =>
 *   arbLogOf(benchmarkRuns(await loadRuns([path], "", { benchmarks: ["arb"] }), "arb", [], "")).log;
 * const r = arbReport(await arbLog("tests/fixtures/arb/analyses.jsonl"));
 * assert.equal(r.rows_in, r.rows_scored + r.rows_quarantined);
 * assert.deepEqual(r.unparseable.map((u) => u.rate), [0, 25]); // physics, law
 * ```
 */
export function arbReport(log: ArbLog): ArbReport {
  return {
    files: log.files,
    rows_in: log.rowsIn,
    rows_scored: log.rows.height,
    rows_quarantined: log.quarantine.length,
    quarantine: log.quarantine,
    accuracy: records(arbAccuracy(log.rows)),
    unparseable: records(arbUnparseable(log.rows)),
    error_types: records(arbErrorTypes(log.rows)),
    rubric_quality: records(arbRubricQuality(log.rows)),
    rubric_scores: records(arbRubricScores(log.rows)),
  };
}

const TITLES: Record<keyof typeof ARB_ANALYSES, string> = {
  accuracy: "Accuracy by model, subject and answer type (%, Wilson 95% CI)",
  unparseable: "Responses without ANSWER: (unparseable, %)",
  error_types: "Error types (Table 3 shape, % of annotated rows, multi-label)",
  rubric_quality: "Rubric quality (Table 4 shape: Likert means, % of rows)",
  rubric_scores: "Human vs model rubric scores (Table 5 shape: means, Pearson r)",
};

/**
 * The report as text: a summary line, the quarantined rows and one Markdown table per
 * analysis (empty analyses say so).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { benchmarkRuns } from "@runlens/pipeline/benchmark_rows.ts";
 * import { arbLogOf } from "@runlens/benchmarks/arb/runs.ts";
 * const arbLog = async (path: string) =>
 *   arbLogOf(benchmarkRuns(await loadRuns([path], "", { benchmarks: ["arb"] }), "arb", [], "")).log;
 * const text = arbReportText(arbReport(await arbLog("tests/fixtures/arb/analyses.jsonl")));
 * assert.ok(text.startsWith("8 rows in 1 file(s): 8 scored, 0 quarantined\n"));
 * assert.ok(text.includes("## Responses without ANSWER: (unparseable, %)"));
 * ```
 */
export function arbReportText(report: ArbReport): string {
  const out = [
    `${report.rows_in} rows in ${report.files.length} file(s): ${report.rows_scored} scored, ` +
    `${report.rows_quarantined} quarantined`,
  ];
  if (report.quarantine.length > 0) {
    out.push("", "Quarantined rows:", ...report.quarantine.map((q) => `  ${formatQuarantine(q)}`));
  }
  for (const name of Object.keys(TITLES) as (keyof typeof TITLES)[]) {
    const rows = report[name];
    out.push("", `## ${TITLES[name]}`, "");
    out.push(rows.length === 0 ? "(no rows)" : markdownTable(rows, { digits: 1 }).trimEnd());
  }
  return out.join("\n");
}
