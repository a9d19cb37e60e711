/**
 * Test helper: identify the same rows with today's polars path (`identify.ts`) and with
 * `ExampleIndex` (`examples.ts`, pending records handed out with `resolvePending`, duplicates
 * marked as `identify.ts` marks them), and give each row's outcome side by side.
 *
 * @example Not run as a doc test (needs the data directory)
 * ```ts ignore
 * const diff = identifyBoth(readLogs(["tests/fixtures/logs"]).rows, TEST_DATA_DIR);
 * assert.deepEqual(diff.map((d) => d.new), diff.map((d) => d.old));
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { getBenchmark } from "@runlens/benchmarks/registry.ts";
import { PY_WHITESPACE } from "@runlens/core/python.ts";
import type { CheckedRecord } from "@runlens/pipeline/check.ts";
import { ExampleIndex, type IdentifyHints, resolvePending } from "@runlens/pipeline/examples.ts";
import { benchmarkSpec, identifyRows, quarantineOf } from "@runlens/pipeline/identify.ts";
import { scoredBenchmarks } from "./_examples.ts";

/** A row's outcome: tied to `bench/task[index]` (plus `@version`), or the quarantine reason. */
export type Outcome = string;

const indexes = new Map<string, ExampleIndex>();

/** The index over BBEH and BBH of a data directory (cached). */
export function exampleIndex(dataDir: string): ExampleIndex {
  let index = indexes.get(dataDir);
  if (!index) {
    index = new ExampleIndex(scoredBenchmarks(dataDir));
    indexes.set(dataDir, index);
  }
  return index;
}

const TRIM = new RegExp(`^[${PY_WHITESPACE}]+|[${PY_WHITESPACE}]+$`, "g");

/** One row of a log frame (`readLogs` columns) as `check.ts` would give it. */
export function checkedOf(row: Record<string, unknown>): CheckedRecord {
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const bench = text(row.benchmark);
  return {
    line: Number(row.source_line),
    run: String(row.run),
    model: String(row.model ?? row.run),
    benchmark: bench === null || bench.replace(TRIM, "") === ""
      ? null
      : bench.replace(TRIM, "").toLowerCase(),
    task: String(row.task ?? ""),
    example_index: row.example_index === null || row.example_index === undefined
      ? null
      : Number(row.example_index),
    input: text(row.input),
    target: text(row.target),
    response: "x",
    chars: 1,
    bytes: 1,
    response_tokens: null,
    epoch: Number(row.epoch ?? 1),
    stored_correct: null,
    tool_extracted: null,
    filter: null,
  };
}

/** Today's outcome of every row of `rows` (in row order). */
export function oldOutcomes(rows: pl.DataFrame, dataDir: string): Outcome[] {
  const specs = ["bbeh", "bbh"].map((b) => benchmarkSpec(getBenchmark(b)!, dataDir));
  const { rows: tied, failed } = identifyRows(rows, specs);
  const out: Outcome[] = Array(rows.height).fill("?");
  for (const r of tied.select("__rid", "__bench", "__task", "example_index").toRecords()) {
    out[r.__rid as number] = `${r.__bench}/${r.__task}[${r.example_index}]`;
  }
  const rids = failed.flatMap((df) => df.getColumn("__rid").toArray() as number[])
    .sort((a, b) => a - b);
  quarantineOf(failed, specs).forEach((q, k) => out[rids[k]] = q.entry.reason);
  return out;
}

/**
 * The new path's outcome of every row: `identify` per row (with `hints(row)`), pending rows
 * handed out in row order, then duplicates of (run, benchmark, task, example, epoch) named as
 * `identify.ts` names them.
 */
export function newOutcomes(
  rows: pl.DataFrame,
  dataDir: string,
  hints: (row: Record<string, unknown>) => IdentifyHints = () => ({}),
): Outcome[] {
  const index = exampleIndex(dataDir);
  const records = rows.toRecords();
  const results = records.map((row) => index.identify(checkedOf(row), hints(row)));
  const pending = results.flatMap((r, i) => ("pending" in r ? [{ i, ...r }] : []));
  const picked = resolvePending(pending);
  const tied = new Map<number, { bench: string; task: string; index: number; v: string | null }>();
  results.forEach((r, i) => {
    if (!("pending" in r) && r.ok) {
      tied.set(i, { bench: r.benchmark, task: r.task, index: r.example_index, v: r.data_version });
    }
  });
  pending.forEach((p, k) =>
    tied.set(p.i, { bench: p.benchmark, task: p.task, index: picked[k], v: p.data_version })
  );
  const first = new Map<string, number>();
  return results.map((r, i) => {
    const t = tied.get(i);
    if (!t) return (r as { reason: string }).reason;
    const row = records[i];
    const key = [row.run, t.bench, t.task, t.index, row.epoch ?? 1].join("\0");
    const f = first.get(key);
    if (f !== undefined) {
      const at = records[f];
      return `duplicate of ${at.source_file}:${at.source_line} ` +
        "(same run, task, example_index and epoch)";
    }
    first.set(key, i);
    return `${t.bench}/${t.task}[${t.index}]` + (t.v ? `@${t.v}` : "");
  });
}

/** Rows as `readLogs` gives them, from plain objects (missing columns null). */
export function logFrame(records: Record<string, unknown>[]): pl.DataFrame {
  const n = records.length;
  const col = <T>(name: string, dflt: T | null = null) =>
    records.map((r) => (r[name] ?? dflt) as T);
  return pl.DataFrame([
    pl.Series("source_file", col("source_file", "gen.jsonl"), pl.Utf8),
    pl.Series("source_line", records.map((r, i) => (r.source_line as number) ?? i + 1), pl.Int32),
    pl.Series("run", col("run", "r"), pl.Utf8),
    pl.Series("model", col("model", "m"), pl.Utf8),
    pl.Series("benchmark", col("benchmark"), pl.Utf8),
    pl.Series("task", col("task"), pl.Utf8),
    pl.Series("example_index", col("example_index"), pl.Int64),
    pl.Series("input", col("input"), pl.Utf8),
    pl.Series("target", col("target"), pl.Utf8),
    pl.Series("response", Array(n).fill("x"), pl.Utf8),
    pl.Series("response_tokens", Array(n).fill(null), pl.Int32),
    pl.Series("epoch", col("epoch", 1), pl.Int32),
    pl.Series("extra", Array(n).fill(null), pl.Utf8),
  ]);
}
