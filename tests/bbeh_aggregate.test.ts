/**
 * Tests of the BBEH aggregates: against the paper's published numbers (Tables 2, 4, 10) and on
 * synthetic runs whose expected values are worked out by hand below.
 *
 * @module
 */
import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import pl from "nodejs-polars";
import {
  bbehAggregate,
  bbehAggregates,
  bbehIntervalsByRun,
  harmonicMeanPlusOne,
  taskAccuracy,
} from "@runlens/benchmarks/bbeh/aggregate.ts";
import { BBEH_TABLE10, BBEH_TABLE2, BBEH_TABLE4 } from "@runlens/benchmarks/bbeh/published.ts";
import {
  BBEH_SIZE,
  BBEH_TASK_NAMES,
  BBEH_TASKS,
  bbehTask,
  inMiniByStride,
} from "@runlens/benchmarks/bbeh/tasks.ts";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { dataTest } from "./_data.ts";
import { harmonicMeanCI, microCI } from "@runlens/stats/headline_ci.ts";

const round1 = (x: number) => Math.round(x * 10) / 10;
const column = (model: string) => BBEH_TASK_NAMES.map((t) => BBEH_TABLE2.accuracy[model][t]);
/** Micro average from a Table 2 column: Σ acc × size / 4520. */
const microOf = (model: string) =>
  BBEH_TASKS.reduce((s, t) => s + BBEH_TABLE2.accuracy[model][t.name] * t.size, 0) / BBEH_SIZE;
/** The permutation that undoes `order`. */
const inverse = (order: number[]) => {
  const out = new Array<number>(order.length);
  order.forEach((o, k) => out[o] = k);
  return out;
};
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const QWEN = "Qwen-2.5-7B-Instruct";
/** "task#index" of the 460 BBEH Mini examples. */
const MINI_KEYS = BBEH_TASKS.flatMap((t) =>
  [...Array(t.size).keys()].filter((i) => inMiniByStride(t.name, i)).map((i) => `${t.name}#${i}`)
);

// ---------------------------------------------------------------------------------------------
// The paper's numbers
// ---------------------------------------------------------------------------------------------

Deno.test("Table 2: harmonicMeanPlusOne of each column reproduces the BBEH row (13 of 13)", () => {
  assert.equal(BBEH_TABLE2.models.length, 13);
  for (const model of BBEH_TABLE2.models) {
    const hm = harmonicMeanPlusOne(column(model));
    assert.equal(round1(hm), BBEH_TABLE2.bbeh[model], `${model}: computed ${hm}`);
    // "Adjusted" means +1 before the mean and nothing subtracted after: minus 1 is ~1 off.
    assert.notEqual(round1(hm - 1), BBEH_TABLE2.bbeh[model], model);
  }
});

Deno.test("Table 4: micro from Table 2 reproduces every model except Qwen-2.5-7B-Instruct", () => {
  for (const model of BBEH_TABLE4.models) {
    if (model === QWEN) continue;
    assert.equal(round1(microOf(model)), BBEH_TABLE4.values[model], `${model}: ${microOf(model)}`);
  }
});

Deno.test("Table 4 vs Table 2 for Qwen-2.5-7B-Instruct: the paper is internally inconsistent", () => {
  // Table 2's Qwen column gives a micro average of 12.08 (546.05 correct of 4,520: every task
  // 200 examples, DisambiguationQA 120), but Table 4 prints 12.5. The unweighted arithmetic
  // mean of the 23 task accuracies, 12.47, is what rounds to 12.5: Table 4 seems to hold the
  // macro average for this one model. All other 12 columns match the micro average (test above).
  const micro = microOf(QWEN);
  assert.equal(Math.round(micro * 100) / 100, 12.08);
  assert.equal(BBEH_TABLE4.values[QWEN], 12.5);
  assert.ok(Math.abs(micro - BBEH_TABLE4.values[QWEN]) > 0.4, "mismatch is real");
  assert.equal(round1(mean(column(QWEN))), 12.5);
  assert.equal(Math.round(mean(column(QWEN)) * 100) / 100, 12.47);
  // For the others the macro average would NOT match, so Table 4 is micro, as it says.
  assert.notEqual(round1(mean(column("Gemini 2.0 Flash"))), BBEH_TABLE4.values["Gemini 2.0 Flash"]);
});

Deno.test("Table 10: the 'BBEH' number for Gemini 2.0 Flash is the micro average, not the headline", () => {
  const flash = "Gemini 2.0 Flash";
  // Table 10 prints 23.90: Table 4's micro average (23.94 from Table 2)…
  assert.equal(BBEH_TABLE10.overall.bbeh, BBEH_TABLE4.values[flash]);
  assert.equal(round1(microOf(flash)), BBEH_TABLE10.overall.bbeh);
  // …not the paper's own headline metric, the harmonic mean (9.8, Table 2)…
  assert.equal(round1(harmonicMeanPlusOne(column(flash))), 9.8);
  assert.notEqual(BBEH_TABLE10.overall.bbeh, BBEH_TABLE2.bbeh[flash]);
  // …nor the arithmetic mean of its own BBEH column (24.36).
  const newColumn = BBEH_TASK_NAMES.map((t) => BBEH_TABLE10.bbeh[t]);
  assert.equal(round1(mean(newColumn)), 24.4);
});

/**
 * BBH test-set sizes (BIG-Bench-Hard `bbh/*.json`): 250 each except these three; checked against
 * the data by the dataTest below.
 */
const BBH_SIZES_EXCEPT_250: Record<string, number> = {
  causal_judgement: 187,
  penguins_in_a_table: 146,
  snarks: 178,
};
const bbhSize = (task: string) => BBH_SIZES_EXCEPT_250[task] ?? 250;
/** Examples of the BBH task(s) a BBEH task replaces (3 × 250 for the two 3-variant tasks). */
const bbhCount = (bbehName: string) => bbehTask(bbehName).bbh.reduce((s, t) => s + bbhSize(t), 0);

Deno.test("Table 10: the 'BBEH' row's BBH number (85.2) is the arithmetic mean of the 23 BBH tasks", () => {
  const bbh = BBEH_TASK_NAMES.map((t) => BBEH_TABLE10.bbh[t]);
  // Macro (unweighted) mean: 85.24 → 85.2. This is what the paper reports.
  assert.equal(round1(mean(bbh)), BBEH_TABLE10.overall.bbh);
  // Not the micro average over BBH's 6,511 examples (86.56) …
  const micro = BBEH_TASK_NAMES.reduce((s, t) => s + BBEH_TABLE10.bbh[t] * bbhCount(t), 0) /
    BBEH_TASK_NAMES.reduce((s, t) => s + bbhCount(t), 0);
  assert.equal(BBEH_TASK_NAMES.reduce((s, t) => s + bbhCount(t), 0), 6511);
  assert.equal(round1(micro), 86.6);
  // … nor BBEH's headline metric applied to BBH (82.6).
  assert.equal(round1(harmonicMeanPlusOne(bbh)), 82.6);
  // So the row labelled "BBEH" compares a BBH macro average with a BBEH micro average.
});

Deno.test("Table 10: every BBH accuracy is a whole number of correct answers over the BBH size", () => {
  // A transcription check: 65.2 = 122/187, 98.6 = 144/146, 86.0 = 153/178, 88.0 = 660/750 …
  for (const t of BBEH_TASK_NAMES) {
    const n = bbhCount(t);
    const k = Math.round((BBEH_TABLE10.bbh[t] * n) / 100);
    assert.equal(
      round1((k / n) * 100),
      BBEH_TABLE10.bbh[t],
      `${t}: ${BBEH_TABLE10.bbh[t]} of ${n}`,
    );
  }
});

dataTest("BBH sizes used above match the BBH data files", (dir) => {
  const bbhDir = join(dir, "bbh", "bbh");
  const files = readdirSync(bbhDir).filter((f) => f.endsWith(".json"));
  assert.equal(files.length, 27);
  for (const f of files) {
    const examples = JSON.parse(readFileSync(join(bbhDir, f), "utf8")).examples as unknown[];
    assert.equal(examples.length, bbhSize(f.replace(/\.json$/, "")), f);
  }
});

// ---------------------------------------------------------------------------------------------
// Synthetic runs
// ---------------------------------------------------------------------------------------------

interface Rows {
  task: string[];
  example_index: (number | null)[];
  correct: (boolean | null)[];
}

const emptyRows = (): Rows => ({ task: [], example_index: [], correct: [] });

function push(rows: Rows, task: string, index: number | null, correct: boolean | null): Rows {
  rows.task.push(task);
  rows.example_index.push(index);
  rows.correct.push(correct);
  return rows;
}

function frame(rows: Rows): pl.DataFrame {
  return pl.DataFrame([
    pl.Series("task", rows.task, pl.Utf8),
    // Not `pl.Series(…, pl.Int32)`: nodejs-polars 0.25.2 turns null into 0 there.
    pl.Series("example_index", rows.example_index).cast(pl.Int32),
    pl.Series("correct", rows.correct, pl.Bool),
  ]);
}

/** Every example once; `correct(task, index)` decides the verdict. */
function fullRun(correct: (task: string, index: number) => boolean, rows = emptyRows()): Rows {
  for (const t of BBEH_TASKS) {
    for (let i = 0; i < t.size; i++) push(rows, t.name, i, correct(t.name, i));
  }
  return rows;
}

/**
 * Design A: boardgame_qa and disambiguation_qa all correct, buggy_tables all wrong, the other 20
 * tasks (200 examples each) correct on indices 0-99.
 */
const designA = (task: string, index: number) =>
  task === "boardgame_qa" || task === "disambiguation_qa" ||
  (task !== "buggy_tables" && index < 100);

const close = (actual: number | null, expected: number, msg?: string) => {
  assert.ok(actual !== null, msg);
  assert.ok(Math.abs(actual - expected) < 1e-9, `${msg ?? ""} ${actual} vs ${expected}`);
};

Deno.test("harmonicMeanPlusOne: hand-computed values and guards", () => {
  close(harmonicMeanPlusOne([0]), 1);
  close(harmonicMeanPlusOne([100]), 101);
  close(harmonicMeanPlusOne([0, 99]), 2 / (1 + 1 / 100)); // 1.980…
  close(harmonicMeanPlusOne([50, 50, 50]), 51);
  assert.throws(() => harmonicMeanPlusOne([]), /no accuracies/);
  assert.throws(() => harmonicMeanPlusOne([101]), /0-100/);
  assert.throws(() => harmonicMeanPlusOne([-1]), /0-100/);
  assert.throws(() => harmonicMeanPlusOne([NaN]), /0-100/);
});

Deno.test("taskAccuracy: counts, percent, by-columns, order, null verdicts left out", () => {
  const df = pl.DataFrame([
    pl.Series("run", ["b", "b", "a", "a", "a", "a"], pl.Utf8),
    pl.Series("task", ["nycc", "nycc", "web_of_lies", "nycc", "nycc", "nycc"], pl.Utf8),
    pl.Series("correct", [true, null, false, true, false, false], pl.Bool),
  ]);
  const out = taskAccuracy(df, ["run"]);
  assert.deepEqual(out.columns, ["run", "task", "n", "correct", "accuracy"]);
  assert.deepEqual(out.dtypes.map(String), [
    "DataType(String)",
    "DataType(String)",
    "DataType(Int32)",
    "DataType(Int32)",
    "DataType(Float64)",
  ]);
  assert.deepEqual(out.toRecords(), [
    { run: "a", task: "nycc", n: 3, correct: 1, accuracy: 100 / 3 },
    { run: "a", task: "web_of_lies", n: 1, correct: 0, accuracy: 0 },
    { run: "b", task: "nycc", n: 1, correct: 1, accuracy: 100 }, // the null row is not counted
  ]);
  assert.deepEqual(taskAccuracy(df).toRecords(), [
    { task: "nycc", n: 4, correct: 2, accuracy: 50 },
    { task: "web_of_lies", n: 1, correct: 0, accuracy: 0 },
  ]);
  // with example_index: epochs averaged per example (3 right epochs of #0 and #1 wrong once
  // → 50%, not 75%); one row per example keeps correct × 100 / n exactly
  const epochs = pl.DataFrame({
    task: ["nycc", "nycc", "nycc", "nycc", "linguini", "linguini", "linguini"],
    example_index: [0, 0, 0, 1, 0, 1, 2],
    correct: [true, true, true, false, true, false, false],
  });
  assert.deepEqual(taskAccuracy(epochs).toRecords(), [
    { task: "linguini", n: 3, correct: 1, accuracy: 100 / 3 },
    { task: "nycc", n: 4, correct: 3, accuracy: 50 },
  ]);
  assert.throws(() => taskAccuracy(df, ["model"]), /missing column\(s\) model/);
});

Deno.test("bbehAggregate: full coverage, one row per example (design A)", () => {
  const agg = bbehAggregate(frame(fullRun(designA)));
  assert.equal(agg.coverage, "full");
  assert.equal(agg.note, null);
  // Task accuracies: 100 (boardgame_qa), 100 (disambiguation_qa), 0 (buggy_tables), 20 × 50.
  close(agg.harmonic_mean, 23 / (2 / 101 + 1 / 1 + 20 / 51)); // ≈ 16.68
  // Correct: 200 + 120 + 0 + 20 × 100 = 2320 of 4520 (the task mean would be 56.52 instead).
  close(agg.micro, (2320 / 4520) * 100); // ≈ 51.33
  // Mini (indices 9, 19, …, 199; disambiguation_qa 5, 11, …, 119): 20 + 20 + 0 from the
  // all/none tasks, and 10 of 20 (9 … 99) from each of the 20 others: 240 of 460.
  close(agg.mini_micro, (240 / 460) * 100); // ≈ 52.17
});

Deno.test("bbehAggregate: a full run rebuilt from Table 2 gives the published headline and micro", () => {
  for (const model of BBEH_TABLE2.models) {
    if (model === "Random") continue; // chance rates, not counts
    // First k examples of each task correct, k = accuracy × size (DisambiguationQA rounded).
    const k = (task: string) =>
      Math.round((BBEH_TABLE2.accuracy[model][task] * bbehTask(task).size) / 100);
    const agg = bbehAggregate(frame(fullRun((task, i) => i < k(task))));
    assert.equal(agg.coverage, "full");
    assert.equal(round1(agg.harmonic_mean!), BBEH_TABLE2.bbeh[model], model);
    if (model !== QWEN) assert.equal(round1(agg.micro!), BBEH_TABLE4.values[model], model);
    else assert.equal(round1(agg.micro!), 12.1); // see the Qwen inconsistency test
  }
});

Deno.test("bbehAggregate: epochs are averaged per example and it says so", () => {
  // Design A once, then every example again, all correct: 9040 rows for 4520 examples.
  const rows = fullRun(() => true, fullRun(designA));
  const agg = bbehAggregate(frame(rows));
  assert.equal(agg.coverage, "full");
  // Task accuracies: 100, 100, buggy_tables (0 + 200) / 400 = 50, the other 20: 300/400 = 75
  // (two rows per example: the mean of the example means is the mean of the rows).
  close(agg.harmonic_mean, 23 / (2 / 101 + 1 / 51 + 20 / 76));
  close(agg.micro, ((2320 + 4520) / 9040) * 100);
  close(agg.mini_micro, ((240 + 460) / 920) * 100);
  assert.match(agg.note!, /several rows per example \(9040 rows for 4520 examples, 2 rows/);
  assert.match(agg.note!, /each example's rows are averaged first/);

  // Uneven repeats: one extra (wrong) row for nycc#0 only: that example counts 1/2, once
  // (not 4520 of 4521 rows); nycc is 199.5 of 200.
  const uneven = bbehAggregate(frame(push(fullRun(() => true), "nycc", 0, false)));
  close(uneven.micro, (4519.5 / 4520) * 100);
  close(uneven.harmonic_mean, 23 / (22 / 101 + 1 / 100.75));
  assert.match(uneven.note!, /1-2 rows per example\): each example's rows are averaged first/);
});

Deno.test("bbehAggregate: Mini coverage gives mini_micro only", () => {
  // The 460 Mini examples (stride rule), all correct except buggy_tables' 20.
  const rows = emptyRows();
  for (const t of BBEH_TASKS) {
    const [stride, first] = t.size === 120 ? [6, 5] : [10, 9];
    for (let i = first; i < t.size; i += stride) push(rows, t.name, i, t.name !== "buggy_tables");
  }
  assert.equal(rows.task.length, 460);
  const agg = bbehAggregate(frame(rows));
  assert.deepEqual(
    { ...agg, mini_micro: null, note: null },
    { harmonic_mean: null, micro: null, mini_micro: null, coverage: "mini", note: null },
  );
  close(agg.mini_micro, (440 / 460) * 100);
  assert.match(agg.note!, /all 460 BBEH Mini examples but only 460 of 4520/);

  // Five wrong rows outside Mini (boardgame_qa 0-4) must not change mini_micro.
  for (let i = 0; i < 5; i++) push(rows, "boardgame_qa", i, false);
  const more = bbehAggregate(frame(rows));
  assert.equal(more.coverage, "mini");
  close(more.mini_micro, (440 / 460) * 100);
  assert.match(more.note!, /465 of 4520/);
  assert.match(more.note!, /5 row\(s\) outside Mini/);
});

Deno.test("bbehAggregate: 460 examples that are not the Mini ones are partial", () => {
  // The FIRST 20 of each task: right count, wrong examples (only the ones ≡ 9 mod 10 count).
  const rows = emptyRows();
  for (const t of BBEH_TASKS) for (let i = 0; i < 20; i++) push(rows, t.name, i, true);
  const agg = bbehAggregate(frame(rows));
  assert.equal(agg.coverage, "partial");
  // Mini examples among them: 9 and 19 of each 200-task (22 × 2), 5, 11 and 17 of
  // disambiguation_qa: 47.
  assert.match(agg.note!, /covers 460 of 4520 examples \(23 of 23 tasks\) and 47 of 460 BBEH Mini/);
});

Deno.test("bbehAggregate: partial coverage gives no aggregates", () => {
  const rows = emptyRows();
  for (let i = 0; i < 200; i++) push(rows, "boardgame_qa", i, true);
  for (let i = 0; i < 20; i++) push(rows, "nycc", i, true);
  for (let i = 0; i < 10; i++) push(rows, "web_of_lies", i, false);
  const agg = bbehAggregate(frame(rows));
  assert.deepEqual(agg, {
    harmonic_mean: null,
    micro: null,
    mini_micro: null,
    coverage: "partial",
    // Mini: 20 (boardgame_qa) + 2 (nycc 9, 19) + 1 (web_of_lies 9) = 23.
    note: "covers 230 of 4520 examples (3 of 23 tasks) and 23 of 460 BBEH Mini examples; " +
      "aggregates need the full set or BBEH Mini",
  });
  const empty = bbehAggregate(frame(emptyRows()));
  assert.equal(empty.coverage, "partial");
  assert.match(empty.note!, /covers 0 of 4520 examples \(0 of 23 tasks\)/);
});

Deno.test("bbehAggregate: one missing example decides between full, mini and partial", () => {
  const all = fullRun(() => true);
  const without = (task: string, index: number): Rows => {
    const rows = emptyRows();
    all.task.forEach((t, j) => {
      if (t !== task || all.example_index[j] !== index) push(rows, t, all.example_index[j], true);
    });
    return rows;
  };
  const noFirst = bbehAggregate(frame(without("boardgame_qa", 0))); // 0 is not in Mini
  assert.equal(noFirst.coverage, "mini");
  assert.equal(noFirst.micro, null);
  close(noFirst.mini_micro, 100);
  assert.match(noFirst.note!, /4519 of 4520/);
  assert.equal(bbehAggregate(frame(without("boardgame_qa", 9))).coverage, "partial");
  assert.equal(bbehAggregate(frame(without("disambiguation_qa", 5))).coverage, "partial");
  // disambiguation_qa #9 is not in Mini (its stride is 6): still Mini coverage.
  assert.equal(bbehAggregate(frame(without("disambiguation_qa", 9))).coverage, "mini");
});

Deno.test("bbehAggregate: rows that name no BBEH example throw", () => {
  const ok = () => fullRun(() => true);
  assert.throws(
    () => bbehAggregate(frame(push(ok(), "bbeh_nycc", 0, true))),
    /1 row\(s\) have a task that is not a BBEH task \(e\.g\. "bbeh_nycc"\).*quarantine/,
  );
  assert.throws(
    () => bbehAggregate(frame(push(ok(), "date_understanding", 3, true))),
    /not a BBEH/,
  );
  assert.throws(
    () => bbehAggregate(frame(push(ok(), "nycc", 200, true))),
    /example_index .*outside the task's range \(e\.g\. "nycc#200"\)/,
  );
  // 150 is fine for a 200-example task but not for disambiguation_qa (120).
  assert.throws(() => bbehAggregate(frame(push(ok(), "disambiguation_qa", 120, true))), /range/);
  assert.throws(() => bbehAggregate(frame(push(ok(), "nycc", -1, true))), /range/);
  assert.throws(() => bbehAggregate(frame(push(ok(), "nycc", null, true))), /missing/);
  assert.throws(() => bbehAggregate(frame(push(ok(), "nycc", 3, null))), /correct is null/);
  const fractional = pl.DataFrame({ task: ["nycc"], example_index: [1.5], correct: [true] });
  assert.throws(() => bbehAggregate(fractional), /not an integer/);
  assert.throws(
    () => bbehAggregate(pl.DataFrame({ task: ["nycc"], correct: [true] })),
    /missing column\(s\) example_index/,
  );
});

Deno.test("bbehAggregate: accepts example_index as Int64 or Float64 and extra columns", () => {
  const rows = fullRun(designA);
  const df = pl.DataFrame([
    pl.Series("run", rows.task.map(() => "r1"), pl.Utf8),
    pl.Series("task", rows.task, pl.Utf8),
    pl.Series("example_index", rows.example_index, pl.Float64),
    pl.Series("correct", rows.correct, pl.Bool),
  ]);
  close(bbehAggregate(df).micro, (2320 / 4520) * 100);
  const asInt64 = df.withColumns(pl.col("example_index").cast(pl.Int64));
  close(bbehAggregate(asInt64).mini_micro, (240 / 460) * 100);
});

dataTest(
  "bbehAggregate on the released examples: full coverage, Mini as the loader marks it",
  (dir) => {
    // Every released example, "correct" exactly when the loader marks it in_mini (checked there
    // against mini/data.json): micro must be 460/4520, mini_micro 100.
    const examples = loadBbehDataset(dir).select(
      "task",
      "example_index",
      pl.col("in_mini").alias("correct"),
    );
    assert.equal(examples.height, BBEH_SIZE);
    const agg = bbehAggregate(examples);
    assert.equal(agg.coverage, "full");
    close(agg.micro, (460 / 4520) * 100);
    close(agg.mini_micro, 100);
  },
);

/** Every BBEH example once, as rows of run `run`; uneven per-task accuracies (so the harmonic
 * mean's summation order matters), set by `mod`. */
const TASK_OF_ROW = BBEH_TASKS.flatMap((t) => Array<string>(t.size).fill(t.name));
const INDEX_OF_ROW = BBEH_TASKS.flatMap((t) => [...Array(t.size).keys()]);
const full = (run: string, mod: number) =>
  pl.DataFrame({
    run: TASK_OF_ROW.map(() => run),
    task: TASK_OF_ROW,
    example_index: INDEX_OF_ROW,
    correct: INDEX_OF_ROW.map((i, k) => (i * 7 + k) % mod === 0),
  });

Deno.test("bbehAggregates equals bbehAggregate per run: once, repeated, duplicated-and-missing", () => {
  const once = full("once", 3);
  const repeated = pl.concat([full("repeated", 5), full("repeated", 2).head(100)]);
  // example 1 of the first task twice, example 0 missing: 4,520 rows, 4,519 examples
  const swapped = full("swapped", 4).withColumns(
    pl.when(pl.col("example_index").eq(0).and(pl.col("task").eq(pl.lit(TASK_OF_ROW[0]))))
      .then(pl.lit(1)).otherwise(pl.col("example_index")).alias("example_index"),
  );
  const rows = pl.concat([once, repeated, swapped]);
  const byRun = bbehAggregates(rows);
  for (const run of ["once", "repeated", "swapped"]) {
    const alone = bbehAggregate(rows.filter(pl.col("run").eq(pl.lit(run))).drop("run"));
    assert.deepEqual(byRun.get(run), alone, run);
  }
  assert.equal(byRun.get("once")?.coverage, "full");
  assert.notEqual(byRun.get("swapped")?.coverage, "full"); // 4,519 examples: not the full set
});

Deno.test("bbehIntervalsByRun equals microCI and harmonicMeanCI of each run's rows: epochs, shuffled and interleaved runs, Mini only, Float64 indexes", () => {
  // two epochs with different verdicts: clustered intervals, per-example means in the bootstrap
  const epochs = pl.concat([full("epochs", 3), full("epochs", 4)]);
  const keep = TASK_OF_ROW.map((t, k) => MINI_KEYS.includes(`${t}#${INDEX_OF_ROW[k]}`));
  const mini = full("mini", 5).withColumns(pl.Series("keep", keep)).filter(pl.col("keep"))
    .drop("keep");
  assert.equal(mini.height, 460);
  // every run's rows spread over the frame in a shuffled order
  const all = pl.concat([full("once", 3), epochs, mini]);
  const order = [...Array(all.height).keys()].sort((a, b) =>
    ((a * 7919) % 10007) - ((b * 7919) % 10007)
  );
  const shuffled = all.withColumns(pl.Series("__order", inverse(order)))
    .sort("__order").drop("__order");
  for (
    const rows of [
      shuffled,
      shuffled.withColumns(pl.col("example_index").cast(pl.Float64)),
    ] as pl.DataFrame[]
  ) {
    const byRun = bbehIntervalsByRun(rows, bbehAggregates(rows));
    assert.deepEqual([...byRun.keys()].sort(), ["epochs", "mini", "once"]);
    for (const run of ["once", "epochs", "mini"]) {
      const mine = rows.filter(pl.col("run").eq(pl.lit(run))).toRecords() as unknown as {
        task: string;
        example_index: number;
        correct: boolean;
      }[];
      const scored = mine.map((r) => ({
        stratum: r.task,
        example: r.example_index,
        score: r.correct ? 1 : 0,
      }));
      const inMini = mine.map((r) => MINI_KEYS.includes(`${r.task}#${r.example_index}`));
      const agg = bbehAggregate(rows.filter(pl.col("run").eq(pl.lit(run))).drop("run"));
      const expected: Record<string, unknown> = {};
      if (agg.harmonic_mean !== null) expected.harmonic_mean = harmonicMeanCI(scored);
      if (agg.micro !== null) expected.micro = microCI(scored);
      if (agg.mini_micro !== null) {
        expected.mini_micro = microCI(scored.filter((_, k) => inMini[k]));
      }
      assert.deepEqual(byRun.get(run), expected, run);
    }
  }
});
