/**
 * Field detection (issue 14, item 2: `lib/logs/sources/fields.ts`) and its use by the JSONL
 * and CSV sources: the usual field names of people's own logs, canonical names winning over
 * aliases, `answer` as response or target, chat transcripts (last assistant message, last
 * user turn, content blocks, an `output` beside the transcript), `--map` laid over a detected
 * mapping, and a headerless CSV read through positional fields.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { textOf } from "@runlens/logs/record.ts";
import { chatParts, detectFields, withOverrides } from "@runlens/logs/sources/fields.ts";
import { jsonlSource } from "@runlens/logs/sources/jsonl.ts";
import { csvSource } from "@runlens/logs/sources/csv.ts";
import type { FieldMapping, LogRecord, SourceFile } from "@runlens/logs/sources/types.ts";
import { withTempDir } from "./_tmp.ts";

function file(path: string, format: string, fields: FieldMapping | null): SourceFile {
  return {
    id: 0,
    path,
    name: path,
    format,
    gzip: false,
    defaultRun: "run",
    fields,
    size: Deno.statSync(path).size,
  };
}

/** Read a JSONL or CSV file through a mapping; the records' fields as text. */
function read(path: string, format: string, fields: FieldMapping | null) {
  const out: Record<string, string | null | undefined>[] = [];
  const sink = {
    record: (r: LogRecord) => {
      const row: Record<string, string | null | undefined> = {};
      for (const [k, v] of Object.entries(r)) {
        if (k !== "line" && k !== "pointer") row[k] = textOf(v);
      }
      out.push(row);
    },
    bad: (b: { reason: string }) => assert.fail(b.reason),
  };
  const f = file(path, format, fields);
  if (format.endsWith("csv")) csvSource.read(f, sink, DEFAULT_LIMITS);
  else jsonlSource.readRange(f, 0, f.size, sink, DEFAULT_LIMITS);
  return out;
}

Deno.test("detectFields: the usual names, canonical first, one key per field", () => {
  const cases: [Record<string, unknown>, Record<string, string>][] = [
    [{ input: "Q", target: "(A)", prediction: "(A)" }, {
      response: "prediction",
      input: "input",
      target: "target",
    }],
    [{ question: "Q", output: "x", gold: 3, idx: 4, model_name: "m" }, {
      response: "output",
      input: "question",
      target: "gold",
      example_index: "idx",
      model: "model_name",
    }],
    // the canonical name wins over aliases, whatever its values
    [{ response: null, output: "x", input: "Q", prompt: "P" }, {
      response: "response",
      input: "input",
    }],
    // `answer` is the target when something else is the response …
    [{ completion: "x", answer: "(B)" }, { response: "completion", target: "answer" }],
    // … and the response when nothing else is
    [{ question: "Q", answer: "x", label: "(B)" }, {
      response: "answer",
      input: "question",
      target: "label",
    }],
    // case-insensitive; `id` only with integer values
    [{ Question: "Q", Response: "x", id: "a1b2" }, { response: "Response", input: "Question" }],
    [{ prompt: "Q", generation: "x", id: 7, Task: "nycc", epoch: "2" }, {
      response: "generation",
      input: "prompt",
      task: "Task",
      example_index: "id",
      epoch: "epoch",
    }],
    // wrong value types do not make an alias
    [{ output: { text: "x" }, model_output: "y", index: "first" }, { response: "model_output" }],
  ];
  for (const [record, fields] of cases) {
    const found = detectFields([record, record]);
    assert.deepEqual(found.fields, fields, JSON.stringify(record));
    assert.equal(found.chat, null);
    assert.deepEqual(found.used, fields);
  }
  assert.deepEqual(detectFields([]), { fields: {}, chat: null, used: {} });
});

Deno.test("detectFields: a key most sample records lack is not taken", () => {
  const found = detectFields([
    { output: "x", input: "Q" },
    { output: "y", input: "Q2" },
    { output: "z", input: "Q3", label: "(A)" },
  ]);
  assert.deepEqual(found.fields, { response: "output", input: "input" });
});

Deno.test("chat transcripts: last assistant message, last user turn, blocks", () => {
  const sample = [{
    input: "Which caption is funniest?",
    target: "(A)",
    message_log: [
      { role: "system", content: "Be brief." },
      { role: "user", content: "Shot question" },
      { role: "assistant", content: "Shot answer" },
      {
        role: "user",
        content: [{ type: "text", text: "Which caption " }, { type: "text", text: "is funniest?" }],
      },
      {
        role: "assistant",
        content: [{ type: "reasoning", reasoning: "hm" }, {
          type: "text",
          text: "The answer is: (A)",
        }],
      },
    ],
    output: "(A)",
  }];
  const found = detectFields(sample);
  assert.equal(found.chat, "message_log");
  assert.deepEqual(found.fields, { input: "input", target: "target" }); // `output` is not it
  assert.deepEqual(found.used, {
    response: "message_log (last assistant message)",
    input: "input",
    target: "target",
  });
  assert.deepEqual(chatParts(sample[0].message_log), {
    response: "The answer is: (A)",
    input: "Which caption is funniest?",
  });
  // without an input key the last user turn is the input; any key of the shape is found
  const bare = detectFields([{ turns_log: sample[0].message_log, label: "(A)" }]);
  assert.equal(bare.chat, "turns_log");
  assert.deepEqual(bare.used, {
    response: "turns_log (last assistant message)",
    input: "turns_log (last user message)",
    target: "label",
  });
  // a canonical response key wins over the transcript
  const canonical = detectFields([{ response: "r", messages: sample[0].message_log }]);
  assert.deepEqual([canonical.fields.response, canonical.chat], ["response", "messages"]);
  assert.equal(canonical.used.response, "response");
  assert.equal(canonical.used.input, "messages (last user message)");
  // no assistant message: no response from the transcript
  assert.deepEqual(chatParts([{ role: "user", content: "Q" }]), {
    response: undefined,
    input: "Q",
  });
  assert.deepEqual(chatParts([{ role: "assistant", content: [{ type: "image" }] }]), {
    response: null,
    input: undefined,
  });
});

Deno.test("the JSONL source reads through detected mappings, transcripts included", () =>
  withTempDir((dir) => {
    const path = join(dir, "geometric_shapes-zero-shot-cot.jsonl");
    const rows = [
      {
        input: "Q1",
        target: "(A)",
        message_log: [
          { role: "user", content: "Few-shot …\n\nQ1" },
          { role: "assistant", content: "So the answer is (A)." },
        ],
        output: "(A)",
      },
      {
        input: "Q2",
        target: "(B)",
        message_log: [{ role: "user", content: "Q2" }, {
          role: "assistant",
          content: [{ type: "text", text: "(B)" }],
        }],
        output: "(B)",
      },
      { input: "Q3", target: "(C)", message_log: [{ role: "user", content: "Q3" }], output: "" },
    ];
    Deno.writeTextFileSync(path, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
    const detected = detectFields(rows.slice(0, 2));
    assert.deepEqual(read(path, "canonical-jsonl", detected), [
      { input: "Q1", target: "(A)", response: "So the answer is (A)." },
      { input: "Q2", target: "(B)", response: "(B)" },
      { input: "Q3", target: "(C)", response: null }, // no assistant message
    ]);
    // without an input key: the last user turn
    const noInput = { ...detected, fields: { target: "target" } };
    assert.deepEqual(read(path, "canonical-jsonl", noInput)[0], {
      input: "Few-shot …\n\nQ1",
      target: "(A)",
      response: "So the answer is (A).",
    });
    // --map over the detection: the user's field wins, constants added
    const merged = withOverrides(detected, {
      fields: { response: "output" },
      constants: { task: "geometric_shapes", benchmark: "bbh" },
    });
    assert.deepEqual(read(path, "mapped-jsonl", merged)[1], {
      benchmark: "bbh",
      task: "geometric_shapes",
      input: "Q2",
      target: "(B)",
      response: "(B)",
    });
  }));

Deno.test("the CSV source reads a headerless file through detected columns", () =>
  withTempDir((dir) => {
    const path = join(dir, "snarks_few_shot_template_0-255000.csv");
    Deno.writeTextFileSync(
      path,
      '"Few-shot.\n\nQ: Which is ironic?","So the answer is (A).",(A)\n' +
        '"Few-shot.\n\nQ: Which one?","So the answer is (B).",(B)\n',
    );
    const found = { fields: { input: 0, response: 1, target: 2 }, chat: null };
    const mapping = withOverrides(found, { fields: {}, constants: { task: "snarks" } });
    assert.deepEqual(read(path, "canonical-csv", mapping), [
      {
        task: "snarks",
        input: "Few-shot.\n\nQ: Which is ironic?",
        target: "(A)",
        response: "So the answer is (A).",
      },
      {
        task: "snarks",
        input: "Few-shot.\n\nQ: Which one?",
        target: "(B)",
        response: "So the answer is (B).",
      },
    ]);
  }));
