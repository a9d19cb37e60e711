/**
 * Edge cases of the log readers found in review: integers past 64 bits, lines that are not
 * objects (polars would panic and print a Rust backtrace), files whose lines have other field
 * types sharing a parse, the order of bad lines, a byte order mark in a BBH release file.
 * Each file is read by its streaming source (`tests/_read.ts`), as the engine reads it.
 * @module
 */
import assert from "node:assert/strict";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { join } from "node:path";
import { readFiles } from "./_read.ts";
import { withTempDir } from "./_tmp.ts";

const DATE = "2025-01-25T04-48-43.622918";
const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

function sample(i: number, extra: Record<string, unknown> = {}) {
  return {
    doc_id: i,
    doc: { input: `Q${i}`, target: "(A)" },
    target: "(A)",
    resps: [[`So the answer is (A). ${i}`]],
    filtered_resps: ["(A)"],
    filter: "get-answer",
    metrics: ["exact_match"],
    exact_match: 1.0,
    ...extra,
  };
}

const samplesFile = (dir: string, task: string) => join(dir, `samples_${task}_${DATE}.jsonl`);

Deno.test("integers past 64 bits: read, not an abort", () =>
  withTempDir((dir) => {
    const lm = samplesFile(dir, "bbh_cot_fewshot_snarks");
    // JSON text: polars would read the seed as Int128, which JS cannot take
    Deno.writeTextFileSync(
      lm,
      jsonl([sample(0)]) +
        JSON.stringify(sample(1)).replace(/}$/, ', "seed": 18446744073709551615}') +
        "\n",
    );
    const [alone] = readFiles([lm]);
    assert.deepEqual([alone.records.length, alone.bad.length, alone.error], [2, 0, null]);
    const canonical = join(dir, "run.jsonl");
    Deno.writeTextFileSync(
      canonical,
      '{"task": "nycc", "example_index": 0, "response": "x", "seed": 18446744073709551615}\n',
    );
    const [read] = readFiles([canonical]);
    assert.deepEqual([read.records.length, read.bad.length], [1, 0]);
    assert.equal(read.records[0].fields.response, "x");
  }));

dataTest("a line that is not an object: quarantined, no Rust panic on stderr", async (data) => {
  await withTempDir(async (dir) => {
    const lm = samplesFile(dir, "bbh_cot_fewshot_snarks");
    Deno.writeTextFileSync(lm, jsonl([sample(0), null, sample(2)]));
    const canonical = join(dir, "run.jsonl");
    Deno.writeTextFileSync(
      canonical,
      '{"task": "nycc", "example_index": 0, "response": "x"}\nnull\n',
    );
    const { stdout, stderr } = await runCli(["score", lm, canonical, "--json", "--data", data]);
    assert.doesNotMatch(stderr, /panicked|backtrace/);
    const report = JSON.parse(stdout);
    const notObjects = (report.quarantine as { file: string; line: number; reason: string }[])
      .filter((q) => q.reason === "not a JSON object")
      .map((q) => `${q.file === lm ? "lm" : "canonical"}:${q.line}`)
      .sort();
    assert.deepEqual(notObjects, ["canonical:2", "lm:2"]);
  });
});

Deno.test("files whose lines hold other types are read each on its own", () =>
  withTempDir((dir) => {
    const snarks = samplesFile(dir, "bbh_cot_fewshot_snarks");
    const trivia = samplesFile(dir, "triviaqa");
    Deno.writeTextFileSync(snarks, jsonl([sample(0), sample(1)]));
    // a list target: never printed as polars would ('["Paris", "paris"]') nor made text
    Deno.writeTextFileSync(trivia, jsonl([sample(0, { target: ["Paris", "paris"] })]));
    const targets = readFiles([dir]).flatMap((f) => f.records.map((r) => r.fields.target));
    assert.deepEqual(targets, ["(A)", "(A)", undefined]); // a list: the check step names it
  }));

Deno.test("bad lines stay in line order, so a truncated last line is named so", () =>
  withTempDir((dir) => {
    const lm = samplesFile(dir, "bbh_cot_fewshot_snarks");
    Deno.writeTextFileSync(lm, jsonl([sample(0), [1], sample(2)]) + '{"doc_id": 3, "do');
    const [read] = readFiles([lm]);
    assert.deepEqual(read.bad.map((b) => [b.line, b.reason.split(" (")[0]]), [
      [2, "not a JSON object"],
      [4, "truncated last line"],
    ]);
  }));

Deno.test("a BBH release output file with a byte order mark reads like one without", () =>
  withTempDir((dir) => {
    Deno.mkdirSync(join(dir, "m-cot"));
    const file = join(dir, "m-cot", "navigate_few_shot_template_0-255000.json");
    const doc = {
      canary: "x",
      outputs: [{ input: "Q: go?\nA:", prediction: "Yes", target: "Yes" }],
    };
    for (const bom of ["\ufeff", ""]) {
      Deno.writeTextFileSync(file, bom + JSON.stringify(doc));
      const [log] = readFiles([file]);
      assert.equal(log.file.format, "bbh-release-outputs");
      const { run, model, task, example_index, response } = log.records[0].fields;
      assert.deepEqual(
        { run, model, task, example_index, response },
        { run: "m-cot", model: "m", task: "navigate", example_index: "0", response: "Yes" },
      );
    }
  }));
