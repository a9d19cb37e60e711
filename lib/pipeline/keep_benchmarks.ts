/**
 * A load restricted to some benchmarks — what a notebook about BBEH analyses when the logs
 * directory holds BBH runs too. The other benchmarks' rows, run summaries, quarantine entries
 * and advice are left out of the load and listed instead ({@link SkippedRows}, one per run and
 * benchmark), so that nothing is lost silently and no analysis of one benchmark is handed
 * another's rows.
 *
 * A quarantined record goes with the summary that counts it (`summarise.ts`): an untied record
 * of a BBH file is BBH's. Records of no known benchmark (`unknown`) are kept: they may be the
 * kept benchmarks' own. Counts still reconcile: each file's `rows_in` becomes its rows kept,
 * and the load can be re-scored (`rescore.ts`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * // 20 BBEH records and one BBH record (quarantined: "nycc" is no BBH task) of one run
 * const all = await loadRuns(["tests/fixtures/logs/mixed.jsonl"], resolveDataDir());
 * const { loaded, skipped } = keepBenchmarks(all, ["bbeh"]);
 * assert.deepEqual(loaded.runs.map((r) => [r.run, r.benchmark, r.rows_in]), [["model-x", "bbeh", 20]]);
 * assert.equal(loaded.quarantine.length, all.quarantine.length - 1);
 * assert.deepEqual(skipped.map((s) => [s.run, s.benchmark, s.rows, s.quarantined]), [
 *   ["model-x", "bbh", 1, 1],
 * ]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { getBenchmark } from "../benchmarks/registry.ts";
import { sortQuarantine } from "../logs/quarantine.ts";
import type { FileSummary, LoadedRuns } from "./load.ts";
import { type CountedQuarantine, rowBenchmark, UNKNOWN_BENCHMARK } from "./summarise.ts";

/** The rows of one run and benchmark that a restricted load left out. */
export interface SkippedRows {
  /** The run. */
  run: string;
  /** Its model. */
  model: string;
  /** The benchmark left out. */
  benchmark: string;
  /** Its rows: scored + quarantined. */
  rows: number;
  /** Of those, rows that were scored. */
  scored: number;
  /** Of those, rows that were quarantined. */
  quarantined: number;
  /** The log files the rows came from. */
  files: string[];
}

/** A load restricted to some benchmarks, and what was left out. */
export interface KeptBenchmarks {
  /** The load with only the kept benchmarks' rows, runs and quarantine. */
  loaded: LoadedRuns;
  /** Per run and benchmark left out, in the load's order of runs. */
  skipped: SkippedRows[];
}

/**
 * Restrict `loaded` to the benchmarks `names` (registry names; throws on an unknown one). When
 * nothing is left out, `loaded` is returned as it is.
 */
export function keepBenchmarks(loaded: LoadedRuns, names: readonly string[]): KeptBenchmarks {
  const keep = new Set([...names.map(registered), UNKNOWN_BENCHMARK]);
  const kept = (benchmark: string) => keep.has(benchmark);
  const skipped = loaded.runs.filter((r) => !kept(r.benchmark)).map((r) => ({
    run: r.run,
    model: r.model,
    benchmark: r.benchmark,
    rows: r.rows_in,
    scored: r.rows_scored,
    quarantined: r.rows_quarantined,
    files: r.files,
  }));
  if (skipped.length === 0) return { loaded, skipped };
  const rows = loaded.rows.filter(pl.col("benchmark").isIn([...keep]));
  const restricted: LoadedRuns = {
    ...loaded,
    rows,
    runs: loaded.runs.filter((r) => kept(r.benchmark)),
    advice: {
      no_answer: loaded.advice.no_answer.filter((a) => kept(a.benchmark)),
      stored: loaded.advice.stored.filter((a) => kept(a.benchmark)),
      disagree: loaded.advice.disagree.filter((a) => kept(a.benchmark)),
    },
  };
  const basis = loaded.basis;
  // without the summaries' basis (not a load of loadRuns) quarantined rows cannot be split
  if (!basis) return { loaded: restricted, skipped };
  const quarantined = keptQuarantine(loaded, basis.summary.quarantined, kept);
  const files = keptFiles(loaded.fileSummaries, rows, quarantined);
  const fileSummaries = loaded.fileSummaries.flatMap((f) =>
    files.has(f.file) ? [{ ...f, rows_in: files.get(f.file)! }] : []
  );
  const summaryFiles = basis.summary.files.flatMap((f) =>
    files.has(f.file) ? [{ ...f, rowsIn: files.get(f.file)! }] : []
  );
  return {
    loaded: {
      ...restricted,
      files: loaded.files.filter((f) => files.has(f)),
      fileSummaries,
      quarantine: sortQuarantine(
        quarantined.map(({ file, line, reason }) => ({ file, line, reason })),
      ),
      basis: { ...basis, summary: { ...basis.summary, quarantined, files: summaryFiles } },
    },
    skipped,
  };
}

/** The registry name of `name`; throws naming the registered ones. */
function registered(name: string): string {
  const b = getBenchmark(name);
  if (!b) throw new Error(`keepBenchmarks: no benchmark named "${name}" is registered`);
  return b.name;
}

/** The quarantined records counted under a kept benchmark, as the summaries attributed them. */
function keptQuarantine(
  loaded: LoadedRuns,
  quarantined: readonly CountedQuarantine[],
  kept: (benchmark: string) => boolean,
): CountedQuarantine[] {
  const places = loaded.rows.select("run", "source_file", "benchmark").unique().toRecords()
    .map((r) => ({
      run: String(r.run),
      file: String(r.source_file),
      benchmark: String(r.benchmark),
    }));
  const benchmarkOf = rowBenchmark(places, quarantined);
  return quarantined.filter((q) => kept(benchmarkOf(q.run, q.benchmark, q.file)));
}

/**
 * Each file that keeps rows (or held none to begin with) → its rows kept: scored rows from it
 * plus its quarantined records kept.
 */
function keptFiles(
  summaries: readonly FileSummary[],
  rows: pl.DataFrame,
  quarantined: readonly CountedQuarantine[],
): Map<string, number> {
  const perFile = new Map<string, number>();
  const add = (file: string, n: number) => perFile.set(file, (perFile.get(file) ?? 0) + n);
  const scored = rows.groupBy("source_file").agg(pl.len().alias("n")).toRecords();
  for (const r of scored) add(String(r.source_file), Number(r.n));
  for (const q of quarantined) add(q.file, 1);
  const out = new Map<string, number>();
  for (const f of summaries) {
    const n = perFile.get(f.file) ?? 0;
    if (n > 0 || f.rows_in === 0) out.set(f.file, n);
  }
  return out;
}
