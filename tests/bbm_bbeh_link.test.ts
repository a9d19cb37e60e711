/**
 * BBEH ↔ BBM link: step parsing and matching on hand-made frames, then the real files
 * (all 200 dyck_languages + the 100 word_sorting mistake items map uniquely and the BBEH
 * target is String(mistake_index + 1), or "No" for a clean trace).
 *
 * @module
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import {
  bbehToBbmMap,
  classifyBbehMistakeRows,
  isBbehMistakeItem,
  LINK_COLUMNS,
  matchBbehToBbm,
  MISTAKE_QUESTION,
  parseThoughts,
} from "@runlens/benchmarks/bbeh/bbm_link.ts";
import { bbmFrame, loadBbmDataset } from "@runlens/benchmarks/bbm/dataset.ts";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { dataTest } from "./_data.ts";

const render = (steps: string[], question = MISTAKE_QUESTION) =>
  ["Intro line", ...steps.map((s, i) => `Thought ${i + 1}: ${s}`), `Q: ${question}?`].join("\n");

const bbm = () =>
  bbmFrame([
    {
      task: "dyck_languages",
      trace_index: 0,
      input: "",
      steps: ["a", "b"],
      answer: null,
      target: "",
      mistake_index: 1,
    },
    {
      task: "dyck_languages",
      trace_index: 1,
      input: "",
      steps: ["a", "c"],
      answer: null,
      target: "",
      mistake_index: null,
    },
    {
      task: "word_sorting",
      trace_index: 0,
      input: "",
      steps: ["x", "y", "z"],
      answer: null,
      target: "",
      mistake_index: 0,
    },
    {
      task: "word_sorting",
      trace_index: 1,
      input: "",
      steps: ["x", "y"],
      answer: null,
      target: "",
      mistake_index: null,
    },
  ]);

Deno.test("parseThoughts: steps in order, empty steps, numbering must run 1, 2, 3", () => {
  assert.deepEqual(parseThoughts(render(["a", "b: c", ""])), ["a", "b: c", ""]);
  assert.deepEqual(parseThoughts("no thoughts here"), []);
  assert.throws(() => parseThoughts("Thought 1: a\nThought 3: b"), /Thought 3/);
});

Deno.test("isBbehMistakeItem: all dyck, word_sorting only with the mistake question", () => {
  assert.equal(isBbehMistakeItem("dyck_languages", "anything"), true);
  assert.equal(isBbehMistakeItem("word_sorting", render(["x"])), true);
  assert.equal(isBbehMistakeItem("word_sorting", "Sort these words with a new alphabet"), false);
  assert.equal(isBbehMistakeItem("boardgame_qa", render(["x"])), false);
});

Deno.test("matchBbehToBbm: maps by exact steps, skips other items", () => {
  const bbeh = pl.DataFrame({
    task: ["dyck_languages", "dyck_languages", "word_sorting", "word_sorting", "hyperbaton"],
    example_index: [0, 1, 0, 1, 0],
    input: [
      render(["a", "c"]),
      render(["a", "b"]),
      "Sort with a new alphabet: y x",
      render(["x", "y", "z"]),
      render(["a", "b"]),
    ],
    target: ["No", "2", "x y", "1", "(A)"],
  });
  const map = matchBbehToBbm(bbeh, bbm());
  assert.deepEqual(map.columns, [...LINK_COLUMNS]);
  assert.deepEqual(
    map.toRecords().map((
      r,
    ) => [r.bbeh_task, r.example_index, r.bbm_task, r.trace_index, r.mistake_index]),
    [
      ["dyck_languages", 0, "dyck_languages", 1, null],
      ["dyck_languages", 1, "dyck_languages", 0, 1],
      ["word_sorting", 1, "word_sorting", 0, 0],
    ],
  );
});

Deno.test("matchBbehToBbm: no match and ambiguous matches are errors naming the item", () => {
  const one = (input: string) =>
    pl.DataFrame({ task: ["dyck_languages"], example_index: [7], input: [input] });
  assert.throws(
    () => matchBbehToBbm(one(render(["a", "z"])), bbm()),
    /dyck_languages\[7\].*no BBM trace/,
  );
  const twice = pl.concat([
    bbm(),
    bbm().slice(0, 1).withColumns(pl.lit(5).cast(pl.Int32).alias("trace_index")),
  ]);
  assert.throws(
    () => matchBbehToBbm(one(render(["a", "b"])), twice),
    /several BBM traces \(dyck_languages\[0\], dyck_languages\[5\]\)/,
  );
  assert.throws(() => matchBbehToBbm(one("no thoughts"), bbm()), /no "Thought N:" lines/);
});

Deno.test("classifyBbehMistakeRows: one-based, unmapped rows dropped, other columns kept", () => {
  const bbeh = pl.DataFrame({
    task: ["dyck_languages", "word_sorting"],
    example_index: [3, 4],
    input: [render(["a", "b"]), render(["x", "y", "z"])],
  });
  const map = matchBbehToBbm(bbeh, bbm());
  const rows = pl.DataFrame({
    run: ["r", "r", "r", "r"],
    model: ["m", "m", "m", "m"],
    task: ["dyck_languages", "word_sorting", "word_sorting", "dyck_languages"],
    example_index: [3, 4, 5, 3],
    response: ["The answer is: 2", "The answer is: 2", "The answer is: 1", "The answer is: 1"],
    source_line: [1, 2, 3, 4],
  });
  const c = classifyBbehMistakeRows(rows, map, bbm());
  // dyck 3 = dyck trace 0 (mistake at index 1): "2" → correct, "1" → early;
  // word_sorting 4 = ws trace 0 (mistake at index 0): "2" → late; word_sorting 5 is not mapped
  assert.equal(c.height, 3);
  assert.deepEqual(c.getColumn("bbeh_task").toArray(), [
    "dyck_languages",
    "word_sorting",
    "dyck_languages",
  ]);
  assert.deepEqual(c.getColumn("trace_index").toArray(), [0, 0, 0]);
  assert.deepEqual(c.getColumn("outcome").toArray(), ["correct", "late", "early"]);
  assert.deepEqual(c.getColumn("source_line").toArray(), [1, 2, 4]);
});

dataTest("real files: 200 dyck + 100 word_sorting BBEH items map uniquely to BBM traces", (dir) => {
  const bbeh = loadBbehDataset(dir);
  const ws = bbeh.filter(pl.col("task").eq(pl.lit("word_sorting"))).getColumn("input")
    .toArray() as string[];
  assert.equal(
    ws.filter((s: string) => s.includes("Is there a mistake in this sequence")).length,
    100,
  );
  const map = bbehToBbmMap(dir);
  assert.equal(map.height, 300);
  const recs = map.toRecords();
  const count = (t: string) => recs.filter((r) => r.bbeh_task === t && r.bbm_task === t).length;
  assert.equal(count("dyck_languages"), 200);
  assert.equal(count("word_sorting"), 100);
  // distinct BBM traces: no two BBEH items share one
  assert.equal(new Set(recs.map((r) => `${r.bbm_task}/${r.trace_index}`)).size, 300);
  // the target rule, checked against the BBEH targets
  const target = new Map(
    bbeh.select("task", "example_index", "target").toRecords()
      .map((r) => [`${r.task}/${r.example_index}`, r.target as string]),
  );
  for (const r of recs) {
    const expected = r.mistake_index === null ? "No" : String((r.mistake_index as number) + 1);
    assert.equal(target.get(`${r.bbeh_task}/${r.example_index}`), expected, JSON.stringify(r));
  }
});

dataTest("real files: BBEH targets as answers are all correct; 'No' everywhere", (dir) => {
  const bbeh = loadBbehDataset(dir);
  const items = bbeh.filter(
    pl.col("task").eq(pl.lit("dyck_languages")).or(
      pl.col("task").eq(pl.lit("word_sorting")).and(pl.col("input").str.contains(MISTAKE_QUESTION)),
    ),
  );
  const map = bbehToBbmMap(dir), traces = loadBbmDataset(dir);
  const asTarget = classifyBbehMistakeRows(
    items.select("task", "example_index", pl.col("target").alias("response")),
    map,
    traces,
  );
  assert.equal(asTarget.height, 300);
  assert.equal(asTarget.filter(pl.col("outcome").eq(pl.lit("correct"))).height, 300);
  // answering "No" everywhere: correct exactly on the items whose BBEH target is "No"
  const noTargets = items.filter(pl.col("target").eq(pl.lit("No"))).height;
  const allNo = classifyBbehMistakeRows(
    items.select("task", "example_index", pl.lit("The answer is: No").alias("response")),
    map,
    traces,
  );
  assert.equal(allNo.filter(pl.col("outcome").eq(pl.lit("correct"))).height, noTargets);
  assert.equal(
    allNo.filter(pl.col("outcome").eq(pl.lit("said_no_mistake"))).height,
    300 - noTargets,
  );
});
