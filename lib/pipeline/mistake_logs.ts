/**
 * Find and classify every first-mistake answer in a logs directory, for the notebook:
 * - BBM-indexed logs (JSONL whose first record has `trace_index`), classified under the
 *   numbering given (from `$RUNLENS_BBM_NUMBERING` in the notebook; never guessed — without it
 *   these logs are skipped with a reason);
 * - BBEH run logs (the canonical formats `loadRuns` reads), whose dyck_languages and
 *   word_sorting first-mistake rows are classified through the BBEH → BBM map (one-based).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { classifyLogsDir } from "@runlens/pipeline/mistake_logs.ts";
 * // a toy BBM data set and a run over it; the notebook passes ctx.logsDir, ctx.dataDir and
 * // numberingFromEnv()
 * const logs = "tests/fixtures/bbm/runs", data = "tests/fixtures/bbm";
 * const { classified, skipped } = await classifyLogsDir(logs, data, "one-based");
 * assert.deepEqual(skipped, []);
 * const outcomes = classified!.getColumn("outcome").toArray();
 * assert.deepEqual(outcomes.slice(0, 3), ["correct", "early", "late"]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { join } from "node:path";
import { exists } from "../core/data_dir.ts";
import { discover, filesOf } from "../logs/discover.ts";
import { logFormats } from "../benchmarks/registry.ts";
import { loadRuns } from "./load.ts";
import { keepBenchmarks, type SkippedRows } from "./keep_benchmarks.ts";
import type { QuarantineEntry } from "../logs/quarantine.ts";
import { STEP_NUMBERINGS, type StepNumbering } from "../benchmarks/bbm/classify.ts";
import { loadBbmDataset } from "../benchmarks/bbm/dataset.ts";
import { bbehToBbmMap } from "../benchmarks/bbeh/bbm_link.ts";
import { loadMistakeRuns } from "../benchmarks/bbm/runs.ts";
import { classifyMistakeLog, LOG_COLUMNS } from "../benchmarks/bbeh/mistake_log.ts";

/** Environment variable stating the step numbering of BBM-indexed logs. */
export const BBM_NUMBERING_ENV = "RUNLENS_BBM_NUMBERING";

/**
 * The numbering named by `$RUNLENS_BBM_NUMBERING` (undefined when unset; throws when invalid).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * numberingFromEnv(); // "one-based" when RUNLENS_BBM_NUMBERING=one-based, undefined when unset
 * Deno.env.set(BBM_NUMBERING_ENV, "1");
 * assert.throws(() => numberingFromEnv(), /must be one-based or zero-based, not "1"/);
 * Deno.env.delete(BBM_NUMBERING_ENV);
 * ```
 */
export function numberingFromEnv(): StepNumbering | undefined {
  const v = Deno.env.get(BBM_NUMBERING_ENV);
  if (!v) return undefined;
  if (!STEP_NUMBERINGS.includes(v as StepNumbering)) {
    throw new Error(`$${BBM_NUMBERING_ENV} must be one-based or zero-based, not "${v}"`);
  }
  return v as StepNumbering;
}

/**
 * JSONL files under `paths` whose first record names a BBM trace (`trace_index`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * // the JSONL logs whose first record has a trace_index, at any depth
 * const found = findMistakeRunLogs(["tests/fixtures"]);
 * assert.deepEqual(found, ["tests/fixtures/bbm/runs/toy_run.jsonl"]);
 * ```
 */
export function findMistakeRunLogs(paths: readonly string[]): string[] {
  return filesOf(paths, [".jsonl"]).filter((f) => {
    if (!f.toLowerCase().endsWith(".jsonl")) return false;
    const first = Deno.readTextFileSync(f).split("\n").find((l) => l.trim() !== "");
    if (!first) return false;
    try {
      const rec = JSON.parse(first);
      return typeof rec === "object" && rec !== null && "trace_index" in rec;
    } catch {
      return false;
    }
  });
}

/** What {@link classifyLogsDir} found. */
export interface ClassifiedLogs {
  /** The classified answers (columns `LOG_COLUMNS`); null when there are none. */
  classified: pl.DataFrame | null;
  /** What could not be classified for want of data or a stated numbering, and why. */
  skipped: string[];
  /** The lines quarantined while reading (file, line, reason). */
  quarantine: QuarantineEntry[];
  /** The rows of benchmarks other than BBEH in the run logs, left out (per run). */
  otherBenchmarks: SkippedRows[];
}

/**
 * Classify all first-mistake answers found under `logsDir` (see the module doc). BBEH rows of
 * other tasks are not first-mistake items and are not classified; rows of other benchmarks are
 * left out and listed in `otherBenchmarks`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const logs = "tests/fixtures/bbm/runs", data = "tests/fixtures/bbm";
 * const { classified, skipped } = await classifyLogsDir(logs, data, undefined);
 * assert.equal(classified, null); // BBM-indexed logs need the numbering, never guessed:
 * assert.match(skipped[0], /^1 BBM-indexed log\(s\) \(tests\/fixtures\/bbm\/runs\/toy_run.jsonl/);
 * ```
 */
export async function classifyLogsDir(
  logsDir: string,
  dataDir: string,
  numbering: StepNumbering | undefined,
): Promise<ClassifiedLogs> {
  const traces = loadBbmDataset(dataDir);
  const parts: pl.DataFrame[] = [];
  const skipped: string[] = [];
  const quarantine: QuarantineEntry[] = [];
  const otherBenchmarks: SkippedRows[] = [];
  const bbmFiles = findMistakeRunLogs([logsDir]);
  if (bbmFiles.length > 0 && !numbering) {
    skipped.push(
      `${bbmFiles.length} BBM-indexed log(s) (${bbmFiles.join(", ")}): set ` +
        `${BBM_NUMBERING_ENV}=one-based or zero-based to say how their answers number steps`,
    );
  } else if (bbmFiles.length > 0) {
    const runs = loadMistakeRuns(bbmFiles);
    quarantine.push(...runs.quarantine);
    const log = classifyMistakeLog(runs.rows, { traces, numbering });
    parts.push(log.classified.select(...LOG_COLUMNS));
  }
  const others = discover([logsDir], { formats: logFormats() }).files.map((f) => f.path)
    .filter((f) => !bbmFiles.includes(f));
  if (others.length > 0 && !exists(join(dataDir, "bbeh"))) {
    skipped.push("BBEH run logs: the BBEH data set is missing");
  } else if (others.length > 0) {
    const { loaded, skipped: other } = keepBenchmarks(await loadRuns(others, dataDir), ["bbeh"]);
    quarantine.push(...loaded.quarantine);
    otherBenchmarks.push(...other);
    const rows = loaded.rows
      .filter(
        pl.col("benchmark").eq(pl.lit("bbeh"))
          .and(pl.col("task").isIn(["dyck_languages", "word_sorting"])),
      );
    if (rows.height > 0) {
      const log = classifyMistakeLog(rows, {
        traces,
        map: () => bbehToBbmMap(dataDir),
      });
      parts.push(log.classified.select(...LOG_COLUMNS));
    }
  }
  return {
    classified: parts.length > 0 ? pl.concat(parts, { how: "vertical" }) : null,
    skipped,
    quarantine,
    otherBenchmarks,
  };
}
