/**
 * Test helper: identify rows with `ExampleIndex` (`examples.ts`) as the engine does (pending
 * records handed out with `resolvePending`, duplicates of run, benchmark, task, example and epoch
 * named), from log frames or from fixture files read by their sources and checked by
 * `check.ts`; and an oracle that every tie agrees with what its record says.
 *
 * @example Not run as a doc test (needs the data directory)
 * ```ts ignore
 * const rows = checkedRows(["tests/fixtures/logs"]);
 * assertTiesAgree(rows, newOutcomes(logFrame(rows), TEST_DATA_DIR), TEST_DATA_DIR);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import assert from "node:assert/strict";
import { PY_WHITESPACE } from "@runlens/core/python.ts";
import type { CheckedRecord } from "@runlens/pipeline/check.ts";
import { ExampleIndex, type IdentifyHints, resolvePending } from "@runlens/pipeline/examples.ts";
import { checkRecord } from "@runlens/pipeline/check.ts";
import { embeddedMatch, truncatedKeyMatch } from "@runlens/pipeline/question_key.ts";
import { scoredBenchmarks } from "./_examples.ts";
import { readFiles } from "./_read.ts";
import { Labels } from "@runlens/pipeline/labels.ts";
import { benchmarks } from "@runlens/benchmarks/registry.ts";

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

/** One row of a log frame as `check.ts` would give it. */
export function checkedOf(row: Record<string, unknown>): CheckedRecord {
  const text = (v: unknown) => (v === null || v === undefined ? null : String(v));
  const bench = text(row.benchmark);
  return {
    line: Number(row.source_line),
    run: String(row.run),
    runFrom: "run",
    group: String(row.run),
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

/**
 * The outcome of every row: `identify` per row (with `hints(row)`), pending rows handed out in
 * row order, then duplicates of (run, benchmark, task, example, epoch) named as the merge
 * names them.
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

/** A log frame (the canonical columns) from plain objects (missing columns null). */
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

/**
 * The records of the logs under `paths` that pass `check.ts`, read by their sources, with
 * their labels resolved (`labels.ts`) as in a Worker, as plain rows for {@link logFrame}
 * (`source_file`, `source_line`, the checked fields).
 */
export function checkedRows(paths: readonly string[]): Record<string, unknown>[] {
  const rows: Record<string, unknown>[] = [];
  const labels = new Labels(benchmarks());
  for (const f of readFiles(paths)) {
    for (const r of f.records) {
      const c = checkRecord(r.raw, f.file.defaultRun, f.file.runFromModel ?? null);
      if (!c.ok) continue;
      const { run, model, example_index, input, target, epoch } = c.record;
      const { benchmark, task } = labels.resolve(c.record.benchmark, c.record.task);
      rows.push({
        source_file: f.file.path,
        source_line: r.line,
        ...{ run, model, benchmark, task, example_index, input, target, epoch },
      });
    }
  }
  return rows;
}

/**
 * Every tie (`bench/task[i]`) agrees with its row: the row's index is `i` when given, its input
 * is the example's question (whole, at its end, or cut short) when given, its target the
 * example's when given.
 */
export function assertTiesAgree(
  rows: readonly Record<string, unknown>[],
  outcomes: readonly Outcome[],
  dataDir: string,
): number {
  const sets = new Map(scoredBenchmarks(dataDir).map((b) => [b.scoring.name, b.examples]));
  let ties = 0;
  outcomes.forEach((o, k) => {
    const m = /^(\w+)\/(\w+)\[(\d+)\]/.exec(o);
    if (!m) return;
    ties++;
    const [bench, task, i] = [m[1], m[2], Number(m[3])];
    const ex = sets.get(bench)![task][i];
    const row = rows[k];
    const what = `${o} for ${JSON.stringify(row).slice(0, 200)}`;
    if (row.example_index !== null && row.example_index !== undefined) {
      assert.equal(Number(row.example_index), i, what);
    }
    if (typeof row.input === "string") {
      const input = row.input;
      assert.ok(
        input.trim() === ex.input.trim() || embeddedMatch(input, ex.input) ||
          truncatedKeyMatch(input, ex.input),
        what,
      );
    }
    if (typeof row.target === "string") {
      // a bare letter is the data set's parenthesised one (`B` for `(B)`: README)
      const target = row.target.trim();
      assert.ok(
        target === ex.target.trim() || `(${target})` === ex.target && /^[A-Z]$/i.test(target),
        what,
      );
    }
  });
  return ties;
}
