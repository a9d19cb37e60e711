/**
 * Test helper for the run-naming tests (`runs_by_model.test.ts`, `runs_naming.test.ts`): write
 * a script's JSONL log from data-set examples, and read a `runlens score --json` report's runs
 * back, checking that every record is counted once.
 *
 * @example Not run as a doc test (needs the data directory)
 * ```ts ignore
 * writeJsonl(`${dir}/answers.jsonl`, examples.map((e, i) => rec(e, i % 2 === 0, { model: "m" })));
 * const runs = runsOf(await score([dir], data, work));
 * ```
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Example } from "@runlens/benchmarks/types.ts";
import { answerWith, type Scored, WRONG } from "./_shapes.ts";

/** A record of a script's log: the question, the response, the target, maybe a model. */
export type Rec = Record<string, unknown>;

/** A record answering `e` right or wrong. */
export function rec(e: Example, correct: boolean, extra: Rec = {}): Rec {
  return {
    input: e.input,
    target: e.target,
    output: answerWith("bbh", correct ? e.target : WRONG),
    ...extra,
  };
}

export function writeJsonl(path: string, records: readonly (Rec | string)[]): string {
  Deno.mkdirSync(join(path, ".."), { recursive: true });
  const lines = records.map((r) => typeof r === "string" ? r : JSON.stringify(r));
  Deno.writeTextFileSync(path, lines.join("\n") + "\n");
  return path;
}

/** n, correct and the report's accuracy (percent, 2 decimals) of a list of verdicts. */
export function expected(verdicts: readonly boolean[]) {
  const correct = verdicts.filter((v) => v).length;
  const n = verdicts.length;
  return { n, correct, accuracy: Math.round(correct / n * 10000) / 100 };
}

// deno-lint-ignore no-explicit-any
export type Run = any;

/**
 * The runs of a report as `run` → run, checking the exit code (0 unless a run had nothing
 * scored) and that no run is listed twice.
 */
export function runsOf(s: Scored, code = 0): Map<string, Run> {
  assert.equal(s.code, code, s.stderr);
  const runs = new Map<string, Run>(s.report.runs.map((r: Run) => [r.run, r]));
  assert.equal(runs.size, s.report.runs.length, "one summary per run (one benchmark)");
  return runs;
}

/** rows_in = scored + quarantined, per run and in all; every record of the files counted. */
export function balanced(s: Scored, records: number): void {
  const runs: Run[] = s.report.runs;
  for (const r of runs) assert.equal(r.rows_in, r.rows_scored + r.rows_quarantined, r.run);
  const sum = (k: string) => runs.reduce((n, r) => n + r[k], 0);
  assert.equal(sum("rows_in"), records);
  assert.equal(sum("rows_scored"), s.rows.length);
  assert.equal(sum("rows_quarantined"), s.report.quarantine.length);
}

/** The task scores of a run without their intervals. */
export function tasksOf(
  run: Run,
): Record<string, { n: number; correct: number; accuracy: number }> {
  return Object.fromEntries(
    Object.entries(run.tasks as Record<string, Run>).map((
      [t, s],
    ) => [t, { n: s.n, correct: s.correct, accuracy: s.accuracy }]),
  );
}
