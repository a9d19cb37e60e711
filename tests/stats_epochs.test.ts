/**
 * Issue 24, items 2 and 3, through the summaries every output reads (`summariseRuns`): epochs
 * are averaged per example, for the point estimates and their intervals alike.
 * - The same verdicts logged twice (epochs 1 and 2) give exactly the numbers and intervals of
 *   once: per-task Wilson, micro and the harmonic mean (before, a task's interval narrowed by
 *   √2 with no new information).
 * - Unequal epochs: before, the headline weighed rows and its bootstrap examples, so the point
 *   could fall outside its own interval (`43.11 [19.76, 22.16]`). The oracle here is worked by
 *   hand: every task at 20% per example gives a harmonic mean of exactly 21, whatever the
 *   extra correct epochs of a few examples.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { BBEH_TASKS } from "@runlens/benchmarks/bbeh/tasks.ts";
import { type RunSummary, summariseRuns } from "@runlens/pipeline/summarise.ts";
import { wilsonInterval } from "@runlens/stats/wilson.ts";

type Row = [task: string, index: number, correct: boolean];

/** The summary of one BBEH run made of `rows` (scored, nothing quarantined). */
function summarise(rows: Row[]): RunSummary {
  const n = rows.length;
  const scored = pl.DataFrame([
    pl.Series("run", rows.map(() => "r"), pl.Utf8),
    pl.Series("benchmark", rows.map(() => "bbeh"), pl.Utf8),
    pl.Series("task", rows.map((r) => r[0]), pl.Utf8),
    pl.Series("example_index", rows.map((r) => r[1])).cast(pl.Int32),
    pl.Series("correct", rows.map((r) => r[2]), pl.Bool),
    pl.Series("extracted", rows.map(() => "x"), pl.Utf8),
    pl.Series("answer_found", rows.map(() => true), pl.Bool),
    pl.Series("response_chars", rows.map(() => 10)).cast(pl.Int32),
    pl.Series("stored_correct", rows.map(() => null), pl.Bool),
    pl.Series("tool_extracted", rows.map(() => null), pl.Utf8),
    pl.Series("source_file", rows.map(() => "r.jsonl"), pl.Utf8),
    pl.Series("source_line", rows.map((_, i) => i + 1)).cast(pl.Int32),
  ]);
  const [run] = summariseRuns({
    files: [{ file: "r.jsonl", format: "canonical-jsonl", rowsIn: n }],
    scored,
    quarantined: [],
    models: new Map([["r", new Set(["m"])]]),
    scorerOf: () => "bbeh-official",
  });
  return run;
}

/** Every BBEH example once, the first fifth of each task right (20% everywhere). */
function fifthRight(): Row[] {
  return BBEH_TASKS.flatMap((t) =>
    Array.from({ length: t.size }, (_, i): Row => [t.name, i, i < t.size / 5])
  );
}

Deno.test("epochs that repeat the verdicts change no number and no interval", () => {
  const once = fifthRight();
  const twice = [...once, ...once]; // the same verdicts again, as epoch 2
  const [a, b] = [summarise(once), summarise(twice)];
  assert.equal(b.rows_scored, 2 * a.rows_scored);
  for (const [task, t] of Object.entries(a.tasks)) {
    const u = b.tasks[task];
    assert.deepEqual([u.accuracy, u.ci_low, u.ci_high], [t.accuracy, t.ci_low, t.ci_high], task);
    // and that is the plain Wilson interval of the examples (40 of 200), not of the rows
    const w = wilsonInterval(t.correct, t.n)!;
    assert.deepEqual([t.ci_low, t.ci_high], [w.low, w.high]);
  }
  for (const key of ["harmonic_mean", "micro", "mini_micro"]) {
    assert.equal(b.aggregate[key], a.aggregate[key], key);
    const [x, y] = [a.intervals[key], b.intervals[key]];
    assert.deepEqual([y.ci_low, y.ci_high], [x.ci_low, x.ci_high], key);
  }
});

Deno.test("unequal epochs: every headline lies inside its own interval (per-example means)", () => {
  // 20% per example everywhere; then the first 10 examples of each task (all right) logged 30
  // more times, right each time: 300 extra right rows per task. Weighing rows would give
  // (40 + 300)/(200 + 300) = 68% per task and a headline of about 69.
  const rows = fifthRight();
  for (const t of BBEH_TASKS) {
    for (let e = 0; e < 30; e++) for (let i = 0; i < 10; i++) rows.push([t.name, i, true]);
  }
  const run = summarise(rows);
  // by hand: each task's per-example accuracy is 20%, so H = 23 / (23 · 1/21) = 21
  assert.ok(Math.abs((run.aggregate.harmonic_mean as number) - 21) < 1e-9);
  assert.ok(Math.abs((run.aggregate.micro as number) - 20) < 1e-9);
  for (const key of ["harmonic_mean", "micro", "mini_micro"]) {
    const value = run.aggregate[key] as number;
    const ci = run.intervals[key];
    assert.ok(
      ci.ci_low <= value && value <= ci.ci_high,
      `${key} ${value} [${ci.ci_low}, ${ci.ci_high}]`,
    );
  }
  for (const [task, t] of Object.entries(run.tasks)) {
    assert.ok(Math.abs(t.accuracy - 20) < 1e-9, task);
    assert.ok(t.ci_low < 20 && 20 < t.ci_high, task);
  }
  assert.match(run.aggregate.note as string, /each example's rows are averaged first/);
});
