/**
 * First-mistake classification and scores on constructed runs over the fixture release
 * (tests/fixtures/bbm). Expected values are worked out by hand from the fixture:
 *
 * | trace | steps | first mistake (0-based) |
 * |---|---|---|
 * | multistep_arithmetic 0 | 3 | none |
 * | multistep_arithmetic 1 | 3 | 0 |
 * | word_sorting 0 | 3 | none |
 * | word_sorting 1 | 3 | 1 |
 * | word_sorting 2 | 3 | none |
 * | word_sorting 3 | 4 | 1 |
 *
 * @module
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import pl from "nodejs-polars";
import { loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
import {
  classifyMistakeAnswer,
  classifyMistakeRuns,
  MISTAKE_OUTCOMES,
} from "@runlens/benchmarks/bbm/classify.ts";
import { answerToIndex, type StepNumbering } from "@runlens/benchmarks/bbm/numbering.ts";
import {
  mistakeFindingMetrics,
  mistakeOutcomeLong,
  mistakeOutcomeTable,
} from "@runlens/benchmarks/bbm/metrics.ts";

const FIXTURES = fileURLToPath(new URL("./fixtures/bbm", import.meta.url));
const traces = () => loadBbmDataset(FIXTURES);

/** Run m1 (one-based answers), one row per outcome class plus a second said_no_mistake. */
const M1: [string, number, string, string][] = [
  ["word_sorting", 1, "Thought 2 is wrong. The answer is: 2", "correct"],
  ["word_sorting", 3, "The answer is: 1", "early"],
  ["multistep_arithmetic", 1, "The answer is: 3", "late"],
  ["word_sorting", 0, "The answer is: No", "correct"],
  ["word_sorting", 2, "The answer is: 2", "false_alarm"],
  ["multistep_arithmetic", 0, "Hmm.", "no_answer"],
  ["word_sorting", 1, "There is no mistake.", "said_no_mistake"],
];

function runFrame(rows: [string, number, string, string][], model = "m1"): pl.DataFrame {
  return pl.DataFrame({
    model: rows.map(() => model),
    task: rows.map((r) => r[0]),
    trace_index: rows.map((r) => r[1]),
    response: rows.map((r) => r[2]),
  });
}

const near = (a: unknown, b: number) =>
  assert.ok(Math.abs((a as number) - b) < 1e-12, `${a} ≠ ${b}`);

Deno.test("classifyMistakeAnswer: every class", () => {
  assert.equal(classifyMistakeAnswer(4, 4), "correct");
  assert.equal(classifyMistakeAnswer(2, 4), "early");
  assert.equal(classifyMistakeAnswer(6, 4), "late");
  assert.equal(classifyMistakeAnswer("none", 4), "said_no_mistake");
  assert.equal(classifyMistakeAnswer("none", null), "correct");
  assert.equal(classifyMistakeAnswer(0, null), "false_alarm");
  assert.equal(classifyMistakeAnswer(null, 4), "no_answer");
  assert.equal(classifyMistakeAnswer(null, null), "no_answer");
});

Deno.test("answerToIndex: both numberings, out-of-range steps, bad numbering", () => {
  assert.equal(answerToIndex("1", "one-based", 3), 0);
  assert.equal(answerToIndex("3", "one-based", 3), 2);
  assert.equal(answerToIndex("4", "one-based", 3), null);
  assert.equal(answerToIndex("0", "one-based", 3), null);
  assert.equal(answerToIndex("0", "zero-based", 3), 0);
  assert.equal(answerToIndex("2", "zero-based", 3), 2);
  assert.equal(answerToIndex("3", "zero-based", 3), null);
  assert.equal(answerToIndex("No", "zero-based", 3), "none");
  assert.equal(answerToIndex(null, "one-based", 3), null);
  assert.throws(() => answerToIndex("1", "1-based" as StepNumbering, 3), /one-based/);
});

Deno.test("classifyMistakeRuns (one-based): outcome and columns of every row", () => {
  const c = classifyMistakeRuns(runFrame(M1), traces(), { numbering: "one-based" });
  assert.deepEqual(c.getColumn("outcome").toArray(), M1.map((r) => r[3]));
  assert.deepEqual(c.getColumn("mistake_answer").toArray(), ["2", "1", "3", "No", "2", null, "No"]);
  assert.deepEqual(c.getColumn("predicted_index").toArray(), [1, 0, 2, null, 1, null, null]);
  assert.deepEqual(c.getColumn("predicted_none").toArray(), [
    false,
    false,
    false,
    true,
    false,
    false,
    true,
  ]);
  assert.deepEqual(c.getColumn("flagged").toArray(), [true, true, true, false, true, false, false]);
  assert.deepEqual(c.getColumn("mistake_index").toArray(), [1, 1, 0, null, null, null, 1]);
  assert.deepEqual(c.getColumn("n_steps").toArray(), [3, 4, 3, 3, 3, 3, 3]);
  assert.deepEqual(c.getColumn("location_correct").toArray(), M1.map((r) => r[3] === "correct"));
  assert.deepEqual(c.getColumn("model").toArray(), M1.map(() => "m1"));
});

Deno.test("classifyMistakeRuns: the numbering changes the verdict, never guessed", () => {
  const rows: [string, number, string, string][] = [
    ["word_sorting", 3, "The answer is: 1", ""], // mistake at index 1 (Thought 2)
    ["word_sorting", 3, "The answer is: 2", ""],
    ["word_sorting", 3, "The answer is: 0", ""],
    ["word_sorting", 3, "The answer is: 4", ""], // one-based: Thought 4 (last); zero-based: past end
    ["word_sorting", 0, "The answer is: 0", ""], // clean trace
  ];
  const one = classifyMistakeRuns(runFrame(rows), traces(), { numbering: "one-based" });
  const zero = classifyMistakeRuns(runFrame(rows), traces(), { numbering: "zero-based" });
  assert.deepEqual(one.getColumn("outcome").toArray(), [
    "early",
    "correct",
    "no_answer",
    "late",
    "no_answer",
  ]);
  assert.deepEqual(zero.getColumn("outcome").toArray(), [
    "correct",
    "late",
    "early",
    "no_answer",
    "false_alarm",
  ]);
  assert.throws(
    () => classifyMistakeRuns(runFrame(rows), traces(), {} as { numbering: StepNumbering }),
    /numbering/,
  );
});

Deno.test("classifyMistakeRuns: unknown traces and missing columns are errors", () => {
  const bad = runFrame([["word_sorting", 9, "No", ""]]);
  assert.throws(
    () => classifyMistakeRuns(bad, traces(), { numbering: "one-based" }),
    /no BBM trace word_sorting\[9\]/,
  );
  assert.throws(
    () =>
      classifyMistakeRuns(
        pl.DataFrame({ task: ["multistep_arithmetic"], trace_index: [0] }),
        traces(),
        {
          numbering: "one-based",
        },
      ),
    /response/,
  );
});

Deno.test("mistakeFindingMetrics: hand-computed accuracy, precision and recall", () => {
  const c = classifyMistakeRuns(runFrame(M1), traces(), { numbering: "one-based" });
  // overall: 7 answers, 4 on traces with a mistake (rows 1, 2, 3, 7), 3 on clean ones
  const [all] = mistakeFindingMetrics(c, []).toRecords();
  assert.equal(all.n, 7);
  assert.equal(all.with_mistake, 4);
  assert.equal(all.without_mistake, 3);
  near(all.location_accuracy, 2 / 7); // rows 1 and 4
  near(all.location_accuracy_with_mistake, 1 / 4); // row 1
  near(all.location_accuracy_without_mistake, 1 / 3); // row 4
  near(all.detection_precision, 3 / 4); // flagged rows 1, 2, 3, 5; 5 is clean
  near(all.detection_recall, 3 / 4); // 3 of the 4 mistake rows flagged (7 said "No")
  assert.equal(all.no_answer, 1);

  const per = mistakeFindingMetrics(c, ["model", "task"]).toRecords();
  assert.deepEqual(per.map((r) => r.task), ["multistep_arithmetic", "word_sorting"]);
  // multistep_arithmetic: row 3 (late, mistake) and row 6 (no answer, clean)
  assert.equal(per[0].n, 2);
  near(per[0].location_accuracy, 0);
  near(per[0].detection_precision, 1);
  near(per[0].detection_recall, 1);
  near(per[0].location_accuracy_without_mistake, 0);
  // word_sorting: rows 1, 2, 4, 5, 7
  assert.equal(per[1].n, 5);
  near(per[1].location_accuracy, 2 / 5);
  near(per[1].location_accuracy_with_mistake, 1 / 3);
  near(per[1].location_accuracy_without_mistake, 1 / 2);
  near(per[1].detection_precision, 2 / 3);
  near(per[1].detection_recall, 2 / 3);
});

Deno.test("mistakeFindingMetrics: precision and recall differ when flags ≠ mistakes", () => {
  const rows: [string, number, string, string][] = [
    ["word_sorting", 1, "The answer is: 2", ""], // mistake, flagged (right step)
    ["word_sorting", 0, "The answer is: 1", ""], // clean, flagged
    ["word_sorting", 2, "The answer is: 3", ""], // clean, flagged
    ["word_sorting", 3, "The answer is: No", ""], // mistake, not flagged
  ];
  const c = classifyMistakeRuns(runFrame(rows), traces(), { numbering: "one-based" });
  const [r] = mistakeFindingMetrics(c, ["model"]).toRecords();
  near(r.detection_precision, 1 / 3); // 1 of 3 flagged traces has a mistake
  near(r.detection_recall, 1 / 2); // 1 of 2 traces with a mistake flagged
  near(r.location_accuracy, 1 / 4);
});

Deno.test("mistakeFindingMetrics: zero denominators give null", () => {
  const c = classifyMistakeRuns(
    runFrame([["word_sorting", 0, "The answer is: No", ""]]),
    traces(),
    { numbering: "one-based" },
  );
  const [r] = mistakeFindingMetrics(c, ["model"]).toRecords();
  assert.equal(r.location_accuracy, 1);
  assert.equal(r.location_accuracy_with_mistake, null);
  assert.equal(r.detection_precision, null);
  assert.equal(r.detection_recall, null);
});

Deno.test("mistakeOutcomeTable / mistakeOutcomeLong: one of each class, late share", () => {
  const c = classifyMistakeRuns(runFrame(M1), traces(), { numbering: "one-based" });
  const [w] = mistakeOutcomeTable(c, ["model"]).toRecords();
  assert.deepEqual(
    MISTAKE_OUTCOMES.map((o) => w[o]),
    [2, 1, 1, 1, 1, 1],
  );
  assert.equal(w.n, 7);
  near(w.late_share_of_misplaced, 1 / 2);
  const long = mistakeOutcomeLong(c, ["model"]).toRecords();
  assert.deepEqual(long.map((r) => r.outcome), [...MISTAKE_OUTCOMES]);
  near(long[0].share, 2 / 7);
  assert.throws(() => mistakeOutcomeTable(c, ["nope"]), /missing column/);
});
