/**
 * Unit tests of the failure-mode analyses (`lib/benchmarks/bbeh/failure/`) on small hand-built frames
 * with hand-computed expectations.
 *
 * @module
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { bbehOfficialScorer } from "@runlens/benchmarks/bbeh/official_scorer.ts";
import { scoreFrame } from "@runlens/scorers/frame.ts";
import { shareMeasures, shareOf, withShareStats } from "@runlens/benchmarks/bbeh/failure/shares.ts";
import {
  boardgameConfusion,
  boardgameUnknownShare,
} from "@runlens/benchmarks/bbeh/failure/boardgame.ts";
import {
  objectCountingErrors,
  objectCountingSignedErrors,
} from "@runlens/benchmarks/bbeh/failure/object_counting.ts";
import { objectPropertiesUndetermined } from "@runlens/benchmarks/bbeh/failure/object_properties.ts";
import {
  classifyMistakeItems,
  mistakeModesOfClassified,
  mistakeStepOffsets,
} from "@runlens/benchmarks/bbeh/failure/mistake_finding.ts";
import { belowRandomTasks, noAnswerByTask } from "@runlens/benchmarks/bbeh/failure/no_answer.ts";
import { englishSorted, englishSortShare } from "@runlens/benchmarks/bbeh/failure/word_sorting.ts";
import {
  englishOrderConsistent,
  englishPairs,
  hyperbatonEnglishOrder,
  hyperbatonOptions,
} from "@runlens/benchmarks/bbeh/failure/hyperbaton.ts";
import { causalErrors } from "@runlens/benchmarks/bbeh/failure/causal.ts";
import {
  chainDepths,
  lastPosition,
  webOfLiesPositions,
} from "@runlens/benchmarks/bbeh/failure/web_of_lies.ts";
import { temporalLongestOnly } from "@runlens/benchmarks/bbeh/failure/temporal.ts";
import { shuffledNoFinalAnswer } from "@runlens/benchmarks/bbeh/failure/shuffled.ts";
import { allSubsetAccuracy } from "@runlens/benchmarks/bbeh/failure/subset_accuracy.ts";
import { wilsonInterval } from "@runlens/stats/wilson.ts";

interface Row {
  task: string;
  example_index: number;
  input?: string;
  target: string;
  response: string;
  run?: string;
}

/** Scored rows (official scorer) from hand-written responses. */
function scored(rows: Row[]): pl.DataFrame {
  const df = pl.DataFrame({
    run: rows.map((r) => r.run ?? "r1"),
    model: rows.map((r) => `m-${r.run ?? "r1"}`),
    task: rows.map((r) => r.task),
    example_index: pl.Series("example_index", rows.map((r) => r.example_index), pl.Int32),
    input: rows.map((r) => r.input ?? "Q"),
    target: rows.map((r) => r.target),
    response: rows.map((r) => r.response),
  });
  return scoreFrame(df, bbehOfficialScorer).withColumns(
    pl.col("response").str.lengths().cast(pl.Int32).alias("response_chars"),
    pl.col("input").str.lengths().cast(pl.Int32).alias("input_chars"),
  );
}

const say = (a: string) => `Reasoning…\nThe answer is: ${a}`;

function get(table: pl.DataFrame, measure: string, group = "all", run = "r1") {
  const s = shareOf(table, { measure, group, run });
  assert.ok(s, `missing ${measure}/${group}`);
  return s;
}

Deno.test("shareMeasures: counts, n, share and Wilson CI per run and group", () => {
  const df = pl.DataFrame({
    run: ["a", "a", "a", "b"],
    model: ["m", "m", "m", "m"],
    task: ["t", "t", "t", "t"],
    g: ["x", "x", "y", "x"],
    hit: [true, false, true, true],
  });
  const t = shareMeasures(df, [{ measure: "m1", hit: pl.col("hit"), of: pl.lit(true) }], {
    group: "g",
  });
  const a = shareOf(t, { run: "a", measure: "m1" })!;
  assert.deepEqual([a.count, a.n], [2, 3]);
  assert.ok(Math.abs(a.share! - 200 / 3) < 1e-9);
  const ci = wilsonInterval(2, 3)!;
  assert.ok(Math.abs(a.ci_low! - ci.low) < 1e-9 && Math.abs(a.ci_high! - ci.high) < 1e-9);
  assert.deepEqual(shareOf(t, { run: "a", group: "x", measure: "m1" })?.count, 1);
  assert.equal(shareOf(t, { run: "b", measure: "m1" })?.share, 100);
  const zero = withShareStats(pl.DataFrame({ count: [0], n: [0] }));
  assert.equal(zero.getColumn("share").toArray()[0], null);
});

Deno.test("boardgameUnknownShare: unknown among labelled predictions vs gold rate", () => {
  const rows = scored([
    { task: "boardgame_qa", example_index: 0, target: "proved", response: say("unknown") },
    { task: "boardgame_qa", example_index: 1, target: "proved", response: say("proved") },
    { task: "boardgame_qa", example_index: 2, target: "disproved", response: say("unknown") },
    { task: "boardgame_qa", example_index: 3, target: "unknown", response: say("unknown") },
    { task: "boardgame_qa", example_index: 4, target: "unknown", response: "I ran out of time" },
  ]);
  const t = boardgameUnknownShare(rows);
  assert.deepEqual([get(t, "unknown_share").count, get(t, "unknown_share").n], [3, 4]);
  assert.equal(get(t, "unknown_share").share, 75);
  assert.deepEqual([get(t, "gold_unknown_share").count, get(t, "gold_unknown_share").n], [1, 4]);
  assert.deepEqual([get(t, "labelled_share").count, get(t, "labelled_share").n], [4, 5]);
  const cm = boardgameConfusion(rows);
  assert.equal(cm.height, 12);
  const cell = (g: string, p: string) =>
    cm.filter(pl.col("gold").eq(pl.lit(g)).and(pl.col("predicted").eq(pl.lit(p))))
      .getColumn("count").toArray()[0];
  assert.equal(cell("proved", "unknown"), 1);
  assert.equal(cell("proved", "proved"), 1);
  assert.equal(cell("unknown", "other"), 1);
  assert.equal(cell("disproved", "proved"), 0);
});

const SUM_Q = "I have 3 apples. What is the sum of the total number of fruits and animals?";
const DIFF_Q =
  "I have 3 apples. What is the absolute difference of the total number of fruits and cars?";

Deno.test("objectCountingErrors: over/under among wrong numeric answers, per subset", () => {
  const rows = scored([
    { task: "object_counting", example_index: 0, input: SUM_Q, target: "10", response: say("12") },
    { task: "object_counting", example_index: 1, input: SUM_Q, target: "10", response: say("7") },
    { task: "object_counting", example_index: 2, input: SUM_Q, target: "10", response: say("15") },
    { task: "object_counting", example_index: 3, input: SUM_Q, target: "10", response: say("10") },
    { task: "object_counting", example_index: 4, input: DIFF_Q, target: "4", response: say("3") },
    { task: "object_counting", example_index: 5, input: DIFF_Q, target: "4", response: "no idea" },
  ]);
  const t = objectCountingErrors(rows);
  const over = get(t, "over_count_share", "sum");
  assert.deepEqual([over.count, over.n], [2, 3]);
  assert.deepEqual([get(t, "under_count_share", "sum").count], [1]);
  assert.deepEqual(
    [get(t, "under_count_share").count, get(t, "under_count_share").n],
    [2, 4],
  );
  assert.deepEqual([get(t, "over_count_of_all").count, get(t, "over_count_of_all").n], [2, 6]);
  assert.equal(get(t, "correct_of_all").count, 1);
  assert.equal(get(t, "non_numeric_of_all").count, 1);
  const errs = objectCountingSignedErrors(rows).toRecords();
  assert.deepEqual(
    errs.map((e) => [e.subset, e.error, e.count]),
    [["absolute_difference", -1, 1], ["sum", -3, 1], ["sum", 2, 1], ["sum", 5, 1]],
  );
});

const EITHER_Q =
  "… how many items have the following attributes: either color is red, or size is small?";
const NEITHER_Q =
  "… how many items have the following attributes: color is not red, and size is not small?";

Deno.test("objectPropertiesUndetermined: 'unknown' / cannot be determined answers", () => {
  const rows = scored([
    {
      task: "object_properties",
      example_index: 0,
      input: EITHER_Q,
      target: "3",
      response: say("unknown"),
    },
    {
      task: "object_properties",
      example_index: 1,
      input: EITHER_Q,
      target: "3",
      response: say("3"),
    },
    {
      task: "object_properties",
      example_index: 2,
      input: NEITHER_Q,
      target: "5",
      response: say("The count cannot be determined"),
    },
    {
      task: "object_properties",
      example_index: 3,
      input: NEITHER_Q,
      target: "5",
      response: say("4"),
    },
  ]);
  const t = objectPropertiesUndetermined(rows);
  assert.deepEqual([get(t, "undetermined_share").count, get(t, "undetermined_share").n], [2, 4]);
  assert.equal(get(t, "undetermined_share", "either").count, 1);
  assert.equal(get(t, "undetermined_share", "neither").count, 1);
});

Deno.test("mistake finding: early vs missed-first, said no, offsets (hand-built traces)", () => {
  const thoughts = (n: number) =>
    Array.from({ length: n }, (_, i) => `Thought ${i + 1}: step ${i + 1}`).join("\n");
  const map = pl.DataFrame({
    bbeh_task: ["dyck_languages", "dyck_languages", "dyck_languages"],
    example_index: pl.Series("example_index", [0, 1, 2], pl.Int32),
    bbm_task: ["dyck_languages", "dyck_languages", "dyck_languages"],
    trace_index: pl.Series("trace_index", [10, 11, 12], pl.Int32),
    mistake_index: pl.Series("mistake_index", [4, 2, 0]).cast(pl.Int32),
  });
  const traces = pl.DataFrame({
    task: ["dyck_languages", "dyck_languages", "dyck_languages"],
    trace_index: pl.Series("trace_index", [10, 11, 12], pl.Int32),
    mistake_index: pl.Series("mistake_index", [4, 2, null]).cast(pl.Int32),
    n_steps: pl.Series("n_steps", [8, 8, 8], pl.Int32),
  });
  // example 0: first mistake at Thought 5 (0-based 4); 1: Thought 3; 2: clean trace.
  const rows = scored([
    {
      task: "dyck_languages",
      example_index: 0,
      input: thoughts(8),
      target: "5",
      response: say("2"),
    },
    {
      task: "dyck_languages",
      example_index: 0,
      input: thoughts(8),
      target: "5",
      response: say("7"),
      run: "r2",
    },
    {
      task: "dyck_languages",
      example_index: 1,
      input: thoughts(8),
      target: "3",
      response: say("6"),
    },
    {
      task: "dyck_languages",
      example_index: 1,
      input: thoughts(8),
      target: "3",
      response: say("No"),
      run: "r2",
    },
    {
      task: "dyck_languages",
      example_index: 2,
      input: thoughts(8),
      target: "No",
      response: say("No"),
    },
    {
      task: "dyck_languages",
      example_index: 2,
      input: thoughts(8),
      target: "No",
      response: say("4"),
      run: "r2",
    },
  ]);
  const classified = classifyMistakeItems(rows, map, traces);
  const t = mistakeModesOfClassified(classified);
  const early = shareOf(t, { run: "r1", task: "dyck_languages", measure: "early_flag_share" })!;
  assert.deepEqual([early.count, early.n], [1, 2]);
  const late = shareOf(t, { run: "r1", task: "dyck_languages", measure: "missed_first_share" })!;
  assert.deepEqual([late.count, late.n], [1, 2]);
  const r2late = shareOf(t, { run: "r2", measure: "missed_first_share" })!;
  assert.deepEqual([r2late.count, r2late.n], [1, 1]);
  const said = shareOf(t, { run: "r2", measure: "said_no_mistake_share" })!;
  assert.deepEqual([said.count, said.n], [1, 2]);
  const fa = shareOf(t, { run: "r2", measure: "false_alarm_share" })!;
  assert.deepEqual([fa.count, fa.n], [1, 1]);
  const offsets = mistakeStepOffsets(classified).toRecords();
  assert.deepEqual(offsets.map((o) => [o.run, o.offset, o.count]), [
    ["r1", -3, 1],
    ["r1", 3, 1],
    ["r2", 2, 1],
  ]);
});

Deno.test("noAnswerByTask / belowRandomTasks: missing answers, degenerate loops, chance", () => {
  const loop = Array.from({ length: 30 }, (_, i) => `Swap ${i % 3}`).join("\n");
  const rows = scored([
    { task: "shuffled_objects", example_index: 0, target: "(A)", response: say("(A)") },
    { task: "shuffled_objects", example_index: 1, target: "(A)", response: loop },
    { task: "shuffled_objects", example_index: 2, target: "(B)", response: "thinking…" },
    { task: "shuffled_objects", example_index: 3, target: "(B)", response: say("(C)") },
    { task: "nycc", example_index: 0, target: "(A)", response: say("(A)") },
  ]);
  const t = noAnswerByTask(rows);
  const na = shareOf(t, { task: "shuffled_objects", measure: "no_answer_share" })!;
  assert.deepEqual([na.count, na.n], [2, 4]);
  assert.equal(shareOf(t, { task: "shuffled_objects", measure: "degenerate_share" })?.count, 1);
  assert.equal(shareOf(t, { task: "nycc", measure: "no_answer_share" })?.count, 0);
  const br = belowRandomTasks(rows).toRecords();
  const so = br.find((r) => r.task === "shuffled_objects")!;
  assert.equal(so.accuracy, 25);
  assert.equal(so.random, 14.3);
  assert.equal(so.below_random, false);
  assert.equal(so.no_answer, 2);
  const nycc = br.find((r) => r.task === "nycc")!;
  assert.equal(nycc.below_random, false);
  const lowRows = scored([
    { task: "nycc", example_index: 0, target: "(A)", response: say("(B)") },
  ]);
  assert.equal(belowRandomTasks(lowRows).toRecords()[0].below_random, true);
  const sh = shuffledNoFinalAnswer(
    rows.filter(pl.col("task").eq(pl.lit("shuffled_objects"))).withColumns(
      pl.lit("Then, Alice and Bob swap books.").alias("input"),
    ),
  );
  assert.equal(get(sh, "no_final_answer_share").count, 2);
  assert.equal(get(sh, "no_final_answer_share", "no_op_switches").n, 4);
});

Deno.test("englishSortShare: answers sorted by the English alphabet", () => {
  const q = "Consider a new alphabet whose letters have the same order as the English alphabet, " +
    "except that z is the first letter. Sort the following words with the new alphabet and " +
    "separate them with comma: pear, zebra, apple";
  assert.equal(englishSorted(q), "apple, pear, zebra");
  const rows = scored([
    {
      task: "word_sorting",
      example_index: 0,
      input: q,
      target: "zebra, apple, pear",
      response: say("apple, pear, zebra"),
    },
    {
      task: "word_sorting",
      example_index: 0,
      input: q,
      target: "zebra, apple, pear",
      response: say("zebra, apple, pear"),
      run: "r2",
    },
    {
      task: "word_sorting",
      example_index: 0,
      input: q,
      target: "zebra, apple, pear",
      response: say("pear, apple, zebra"),
      run: "r3",
    },
  ]);
  const t = englishSortShare(rows);
  assert.deepEqual(
    ["r1", "r2", "r3"].map((run) => shareOf(t, { run, measure: "english_sort_share" })?.count),
    [1, 0, 0],
  );
  const wrong = shareOf(t, { run: "r3", measure: "english_sort_of_wrong" })!;
  assert.deepEqual([wrong.count, wrong.n], [0, 1]);
});

Deno.test("hyperbaton: English adjective order of wrongly picked options", () => {
  assert.ok(englishOrderConsistent("lovely small old round red german glass drinking cup"));
  assert.ok(!englishOrderConsistent("red small ball"));
  assert.deepEqual(englishPairs("red small old ball"), [false, true]);
  const input = "…\n(A) small red ball\n(B) red small ball\n(C) old tiny german cup\n" +
    "(D) None of the above\n";
  assert.deepEqual(hyperbatonOptions(input), { A: [true], B: [false], C: [false, true] });
  const rows = scored([
    { task: "hyperbaton", example_index: 0, input, target: "B", response: say("AB") },
    { task: "hyperbaton", example_index: 0, input, target: "B", response: say("BC"), run: "r2" },
  ]);
  const t = hyperbatonEnglishOrder(rows);
  const r1 = shareOf(t, { run: "r1", measure: "english_pairs_in_wrong_picks" })!;
  assert.deepEqual([r1.count, r1.n], [1, 1]);
  const r2 = shareOf(t, { run: "r2", measure: "english_pairs_in_wrong_picks" })!;
  assert.deepEqual([r2.count, r2.n], [1, 2]);
  const base = shareOf(t, { run: "r1", measure: "english_pairs_in_distractors" })!;
  assert.deepEqual([base.count, base.n], [2, 3]);
});

const CJ = "Did X cause Y? Reply Yes or No based on the answer the majority of people would give.";
const NEC = "Is A a necessary cause of B?";
const SUF = "Is A a sufficient cause of B?";

Deno.test("causalErrors: errors by gold label and necessary vs sufficient", () => {
  const rows = scored([
    {
      task: "causal_understanding",
      example_index: 0,
      input: CJ,
      target: "Yes",
      response: say("Yes"),
    },
    {
      task: "causal_understanding",
      example_index: 1,
      input: CJ,
      target: "No",
      response: say("Yes"),
    },
    {
      task: "causal_understanding",
      example_index: 2,
      input: CJ,
      target: "Ambiguous",
      response: say("Yes"),
    },
    {
      task: "causal_understanding",
      example_index: 3,
      input: CJ,
      target: "Ambiguous",
      response: say("Ambiguous"),
    },
    {
      task: "causal_understanding",
      example_index: 142,
      input: NEC,
      target: "Yes",
      response: say("No"),
    },
    {
      task: "causal_understanding",
      example_index: 143,
      input: SUF,
      target: "No",
      response: say("No"),
    },
  ]);
  const t = causalErrors(rows);
  assert.equal(get(t, "error_share", "causal_judgement/Yes").count, 0);
  assert.equal(get(t, "error_share", "causal_judgement/No").count, 1);
  const amb = get(t, "error_share", "causal_judgement/Ambiguous");
  assert.deepEqual([amb.count, amb.n], [1, 2]);
  assert.deepEqual([get(t, "error_share", "necessary").count], [1]);
  assert.deepEqual([get(t, "error_share", "sufficient").count], [0]);
  assert.deepEqual([get(t, "error_share").count, get(t, "error_share").n], [3, 6]);
  assert.equal(get(t, "predicted_yes_share", "causal_judgement").count, 3);
});

Deno.test("webOfLies: chain depths, per-position and last vs earlier accuracy", () => {
  const q = "In this question, assume each person either always tells the truth or always lies. " +
    "Ann tells the truth. Bo says Ann lies. Cy says Bo tells the truth. Di says Cy lies. " +
    "Eve says Fay lies. Fay says Eve lies. Do Di, Bo, and Eve tell the truth? Each of them must " +
    "be either yes, no, or unknown.";
  assert.deepEqual(chainDepths(q), [3, 1, null]);
  assert.equal(lastPosition([3, 1, null]), 0);
  assert.equal(lastPosition([2, 2, 1]), null);
  const rows = scored([
    {
      task: "web_of_lies",
      example_index: 0,
      input: q,
      target: "yes, no, unknown",
      response: say("yes, no, unknown"),
    },
    {
      task: "web_of_lies",
      example_index: 0,
      input: q,
      target: "yes, no, unknown",
      response: say("no, no, yes"),
      run: "r2",
    },
  ]);
  const t = webOfLiesPositions(rows);
  const at = (run: string, m: string) => shareOf(t, { run, group: "cyclic", measure: m })!;
  assert.equal(at("r1", "all_three_accuracy").count, 1);
  assert.deepEqual(
    ["position_1_accuracy", "position_2_accuracy", "position_3_accuracy"].map((m) =>
      at("r2", m).count
    ),
    [0, 1, 0],
  );
  assert.deepEqual([at("r2", "last_person_accuracy").count, at("r2", "last_person_accuracy").n], [
    0,
    1,
  ]);
  const earlier = at("r2", "earlier_person_accuracy");
  assert.deepEqual([earlier.count, earlier.n], [1, 2]);
});

Deno.test("temporalLongestOnly: first number right, count wrong", () => {
  const rows = scored([
    { task: "temporal_sequence", example_index: 0, target: "90, 2", response: say("90, 2") },
    { task: "temporal_sequence", example_index: 1, target: "90, 2", response: say("90, 3") },
    { task: "temporal_sequence", example_index: 2, target: "60, 1", response: say("30, 1") },
    { task: "temporal_sequence", example_index: 3, target: "60, 1", response: "none" },
  ]);
  const t = temporalLongestOnly(rows);
  assert.equal(get(t, "full_accuracy").count, 1);
  assert.equal(get(t, "longest_only_accuracy").count, 2);
  const y = get(t, "count_wrong_given_longest");
  assert.deepEqual([y.count, y.n], [1, 2]);
});

Deno.test("allSubsetAccuracy: every labelled subset from the rows' own text", () => {
  const rows = scored([
    {
      task: "zebra_puzzles",
      example_index: 0,
      input: "There are 5 people …",
      target: "1",
      response: say("1"),
    },
    {
      task: "zebra_puzzles",
      example_index: 1,
      input: "There are 8 people …",
      target: "2",
      response: say("3"),
    },
    {
      task: "zebra_puzzles",
      example_index: 2,
      input: "There are 8 people …",
      target: "2",
      response: say("2"),
    },
  ]);
  const acc = allSubsetAccuracy(rows).toRecords();
  assert.deepEqual(acc.map((r) => [r.subset, r.n, r.correct]), [["5x5", 1, 1], ["8x8", 2, 1]]);
});
