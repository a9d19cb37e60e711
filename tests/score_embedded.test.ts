/**
 * Questions embedded at the end of logged prompts (few-shot prompts, chat templates, answer
 * cues): the rule of `question_key.ts` (its polars oracle and a made-up data set in
 * `question_key.test.ts` and `identify_examples.test.ts`), and BBH/BBEH logs without an index
 * generated from the data sets at test time, through `loadRuns`.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { loadBbhDataset } from "@runlens/benchmarks/bbh/dataset.ts";
import { embeddedMatch, questionKey, startsLastQuestion } from "@runlens/pipeline/question_key.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { dataTest } from "./_data.ts";

const CHATML = (q: string) =>
  `<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\n${q}<|im_end|>\n` +
  "<|im_start|>assistant\n";
const LLAMA3 = (q: string) =>
  `<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n${q}<|eot_id|>` +
  "<|start_header_id|>assistant<|end_header_id|>\n\n";
const FEW_SHOT = (shots: string[], q: string) =>
  shots.map((s) => `Q: ${s}\nA: Let's think step by step. So the answer is X.`).join("\n\n") +
  `\n\nQ: ${q}\nA: Let's think step by step.`;

Deno.test("questionKey: trailing cues and template tails go, word-internal cues stay", () => {
  assert.equal(questionKey("  Is it?\nA:"), "Is it?");
  assert.equal(questionKey("Is it?\nA: Let's think step by step."), "Is it?");
  assert.equal(questionKey("Is it?\nAnswer:\n"), "Is it?");
  assert.equal(
    questionKey(CHATML("Is it?")),
    "<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\nIs it?",
  );
  assert.equal(questionKey("Spell DNA:"), "Spell DNA:"); // "A:" inside a word is not a cue
  assert.equal(questionKey("[INST] Is it? [/INST]"), "[INST] Is it?");
});

Deno.test("embeddedMatch: few-shot prompts and chat templates; mid-line text does not match", () => {
  const q = "not ( True ) and ( True ) is";
  assert.ok(embeddedMatch(FEW_SHOT(["True and False is", "not True is"], q), q));
  assert.ok(embeddedMatch(CHATML(q), q));
  assert.ok(embeddedMatch(LLAMA3(q), q));
  assert.ok(embeddedMatch(`[INST] ${q} [/INST]`, q));
  assert.ok(embeddedMatch(`Question:  ${q}\n\nAnswer:`, q));
  assert.ok(embeddedMatch(q, q));
  // the question must start at a boundary: a suffix starting mid-line is not the question
  assert.ok(!embeddedMatch(`Q: ${q}\nA:`, "( True ) and ( True ) is"));
  assert.ok(!embeddedMatch(`Solve this: ${q}`, q));
  // an instruction after the question is not a known cue
  assert.ok(!embeddedMatch(`${q}\nAnswer with one word.`, q));
  assert.ok(!embeddedMatch("Q: \nA:", ""));
});

dataTest(
  "BBH rows without index: few-shot and chat-template prompts tied to their example",
  async (dir) => {
    const ds = loadBbhDataset(dir).filter(pl.col("task").eq(pl.lit("date_understanding")))
      .select("example_index", "input", "target").toRecords() as {
        example_index: number;
        input: string;
        target: string;
      }[];
    const tmp = Deno.makeTempDirSync({ prefix: "runlens_embedded_" });
    try {
      const shots = ds.slice(0, 3).map((e) => e.input);
      const records = ds.slice(3, 13).map((e, i) => ({
        benchmark: "bbh",
        task: "date_understanding",
        input: i % 2 === 0 ? FEW_SHOT(shots, e.input) : CHATML(e.input),
        response: `So the answer is ${e.target}.`,
      }));
      records.push({ ...records[0], input: `Please solve. ${ds[20].input}` }); // mid-line: not found
      Deno.writeTextFileSync(
        join(tmp, "prompts.jsonl"),
        records.map((r) => JSON.stringify(r)).join("\n") + "\n",
      );
      const loaded = await loadRuns([tmp], dir);
      assert.deepEqual(
        loaded.rows.getColumn("example_index").toArray(),
        ds.slice(3, 13).map((e) => e.example_index),
      );
      assert.ok(loaded.rows.getColumn("correct").toArray().every((c) => c === true));
      assert.deepEqual(loaded.quarantine.map((q) => [q.line, q.reason]), [
        [
          11,
          "input not found in date_understanding (no example has exactly this text, nor is one " +
          "the question at its end)",
        ],
      ]);
    } finally {
      Deno.removeSync(tmp, { recursive: true });
    }
  },
);

dataTest(
  "BBEH: an index with a prompt that embeds the question passes the input check",
  async (dir) => {
    const ds = loadBbehDataset(dir).filter(pl.col("task").eq(pl.lit("nycc")))
      .select("example_index", "input", "target").head(3).toRecords() as {
        example_index: number;
        input: string;
        target: string;
      }[];
    const tmp = Deno.makeTempDirSync({ prefix: "runlens_embedded_" });
    try {
      const records = [
        {
          task: "nycc",
          example_index: 0,
          input: CHATML(ds[0].input),
          response: "The answer is: x",
        },
        {
          task: "nycc",
          example_index: 1,
          input: `${ds[1].input}\nA:`,
          response: "The answer is: x",
        },
        { task: "nycc", example_index: 2, input: ds[1].input, response: "The answer is: x" },
        { task: "nycc", input: LLAMA3(ds[2].input), response: `The answer is: ${ds[2].target}` },
      ];
      Deno.writeTextFileSync(
        join(tmp, "p.jsonl"),
        records.map((r) => JSON.stringify(r)).join("\n") + "\n",
      );
      const loaded = await loadRuns([tmp], dir, { responses: false });
      assert.deepEqual(loaded.rows.getColumn("example_index").toArray(), [0, 1, 2]);
      assert.deepEqual(loaded.rows.getColumn("correct").toArray(), [false, false, true]);
      assert.deepEqual(loaded.quarantine.map((q) => [q.line, q.reason]), [
        [3, "input differs from the data set's input for nycc[2]"],
      ]);
    } finally {
      Deno.removeSync(tmp, { recursive: true });
    }
  },
);

Deno.test("startsLastQuestion: a cut-short data-set question starts the prompt's last question", () => {
  const prompt =
    "Q: one?\nA: yes\n\nQ: Which is sarcastic?\n(A) The NBA: great\n(B) x\nA: Let's think step by step.";
  assert.equal(startsLastQuestion(prompt, "Which is sarcastic?\n(A) The NB"), true);
  // only the LAST question counts, and the text must follow a question lead
  assert.equal(startsLastQuestion(prompt, "one?"), false);
  assert.equal(startsLastQuestion(prompt, "is sarcastic?"), false);
  assert.equal(startsLastQuestion(prompt, ""), false);
});
