/**
 * Trace analyses: hand-counted values on the fixture release (tests/fixtures/bbm) and the
 * published counts of the real release (numbers from the notes, not from this code).
 *
 * Fixture, by hand:
 * - multistep_arithmetic: 0 clean/correct (3 steps), 1 mistake at 0/wrong (3 steps).
 * - word_sorting: 0 clean, answer " apple fig pear" = target after trimming (3 steps);
 *   1 mistake at 1/wrong (3); 2 clean, answer null (3); 3 mistake at 1, correct answer (4).
 *
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import {
  answerMistakeTable,
  bbmDatasetSummary,
  firstMistakePositions,
  firstMistakeSummary,
  relativePositionBins,
  SUMMARY_COLUMNS,
  traceLengthCounts,
  traceLengthSummary,
  withTraceFlags,
} from "@runlens/benchmarks/bbm/traces.ts";
import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
import { dataTest } from "./_data.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/bbm", import.meta.url));
const toy = () => loadBbmDataset(FIXTURES);

Deno.test("withTraceFlags: trimmed answer == target, null answer is wrong", () => {
  const df = withTraceFlags(toy());
  assert.deepEqual(df.getColumn("answer_correct").toArray(), [
    true,
    false,
    true,
    false,
    false,
    true,
  ]);
  assert.deepEqual(df.getColumn("has_mistake").toArray(), [false, true, false, true, false, true]);
});

Deno.test("bbmDatasetSummary: exact columns and hand-counted rows", () => {
  const s = bbmDatasetSummary(toy());
  assert.deepEqual(s.columns, [...SUMMARY_COLUMNS]);
  assert.deepEqual(s.toRecords(), [
    {
      task: "multistep_arithmetic",
      traces: 2,
      with_mistake: 1,
      answer_correct: 1,
      answer_correct_with_mistake: 0,
      answer_wrong_without_mistake: 0,
    },
    {
      task: "word_sorting",
      traces: 4,
      with_mistake: 2,
      answer_correct: 2,
      answer_correct_with_mistake: 1,
      answer_wrong_without_mistake: 1,
    },
  ]);
});

Deno.test("answerMistakeTable: all four cells per task, zeros included", () => {
  const t = answerMistakeTable(toy()).toRecords();
  assert.equal(t.length, 8);
  const cell = (task: string, ac: boolean, hm: boolean) =>
    t.find((r) => r.task === task && r.answer_correct === ac && r.has_mistake === hm);
  assert.equal(cell("multistep_arithmetic", true, false)?.traces, 1);
  assert.equal(cell("multistep_arithmetic", false, true)?.traces, 1);
  assert.equal(cell("multistep_arithmetic", true, true)?.traces, 0);
  assert.equal(cell("multistep_arithmetic", false, false)?.traces, 0);
  assert.equal(cell("word_sorting", true, true)?.traces, 1);
  assert.equal(cell("word_sorting", true, false)?.traces, 1);
  assert.equal(cell("word_sorting", false, true)?.traces, 1);
  assert.equal(cell("word_sorting", false, false)?.traces, 1);
  assert.equal(cell("word_sorting", false, false)?.share, 0.25);
  assert.equal(cell("multistep_arithmetic", true, false)?.share, 0.5);
});

Deno.test("firstMistakePositions: absolute and relative position of each first mistake", () => {
  const p = firstMistakePositions(toy()).toRecords();
  assert.deepEqual(
    p.map((r) => [r.task, r.trace_index, r.mistake_index, r.mistake_step, r.n_steps]),
    [
      ["multistep_arithmetic", 1, 0, 1, 3],
      ["word_sorting", 1, 1, 2, 3],
      ["word_sorting", 3, 1, 2, 4],
    ],
  );
  assert.equal(p[0].relative_position, 0);
  assert.ok(Math.abs((p[1].relative_position as number) - 1 / 3) < 1e-12);
  assert.equal(p[2].relative_position, 0.25);
  assert.deepEqual(p.map((r) => r.answer_correct), [false, false, true]);
});

Deno.test("relativePositionBins: exact bin edges, every bin listed, shares per task", () => {
  // positions: multistep_arithmetic 0/3; word_sorting 1/3 and 1/4
  const ten = relativePositionBins(toy(), 10).toRecords();
  assert.equal(ten.length, 20);
  const nonzero = ten.filter((r) => (r.traces as number) > 0)
    .map((r) => [r.task, r.bin_start, r.traces, r.share]);
  assert.deepEqual(nonzero, [
    ["multistep_arithmetic", 0, 1, 1],
    ["word_sorting", 0.2, 1, 0.5], // 1/4 = 0.25
    ["word_sorting", 0.3, 1, 0.5], // 1/3
  ]);
  // with 4 bins, 1/4 sits exactly on an edge and belongs to [0.25, 0.5), like 1/3
  const four = relativePositionBins(toy(), 4).toRecords()
    .filter((r) => r.task === "word_sorting")
    .map((r) => r.traces);
  assert.deepEqual(four, [0, 2, 0, 0]);
  assert.throws(() => relativePositionBins(toy(), 0), /positive integer/);
});

Deno.test("firstMistakeSummary and trace lengths", () => {
  const f = firstMistakeSummary(toy()).toRecords();
  assert.equal(f[1].task, "word_sorting");
  assert.equal(f[1].with_mistake, 2);
  assert.equal(f[1].median_mistake_step, 2);
  assert.ok(Math.abs((f[1].mean_relative_position as number) - (1 / 3 + 1 / 4) / 2) < 1e-12);
  const l = traceLengthSummary(toy()).toRecords();
  assert.deepEqual(l[1], {
    task: "word_sorting",
    traces: 4,
    min_steps: 3,
    median_steps: 3,
    mean_steps: 3.25,
    max_steps: 4,
  });
  const c = traceLengthCounts(toy()).toRecords();
  assert.deepEqual(c.map((r) => [r.task, r.n_steps, r.traces, r.with_mistake]), [
    ["multistep_arithmetic", 3, 2, 1],
    ["word_sorting", 3, 3, 1],
    ["word_sorting", 4, 1, 1],
  ]);
});

dataTest("real BBM summary matches the published counts", (dir) => {
  const rows = bbmDatasetSummary(loadBbmDataset(dir)).toRecords();
  const got = Object.fromEntries(
    rows.map((r) => [r.task, [r.traces, r.with_mistake, r.answer_correct]]),
  );
  assert.deepEqual(got, {
    dyck_languages: [986, 650, 482],
    logical_deduction: [300, 294, 45],
    multistep_arithmetic: [300, 238, 45],
    tracking_shuffled_objects: [300, 260, 45],
    word_sorting: [300, 266, 45],
  });
});

dataTest(
  "real BBM: leading-space answers count once trimmed (tracking_shuffled_objects)",
  (dir) => {
    const df = withTraceFlags(loadBbmDataset(dir)).toRecords();
    const tso = df.filter((r) => r.task === "tracking_shuffled_objects");
    const padded = tso.filter((r) => typeof r.answer === "string" && r.answer !== r.answer.trim());
    assert.equal(padded.length, 2);
    // untrimmed exact match would lose exactly the padded answers that are right once trimmed
    const exact = tso.filter((r) => r.answer === r.target).length;
    const trimmedRight = padded.filter((r) => r.answer_correct).length;
    assert.equal(trimmedRight, 2);
    assert.equal(exact + trimmedRight, 45);
  },
);
