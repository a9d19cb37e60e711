/**
 * Edge cases of the log readers found in review: integers past 64 bits, lines that are not
 * objects (polars would panic and print a Rust backtrace), files whose lines have other field
 * types sharing a parse, the order of bad lines, a byte order mark in a BBH release file.
 * Each case is checked against the line-by-line (`JSON.parse`) reading.
 * @module
 */
import assert from "node:assert/strict";
import { dataTest } from "./_data.ts";
import { join } from "node:path";
import { readJsonlLog } from "@runlens/logs/jsonl.ts";
import { readLmEvalLog } from "@runlens/logs/lm_eval.ts";
import { lineShape, readLmEvalFiles } from "@runlens/logs/lm_eval_batch.ts";
import { readRunLog } from "@runlens/logs/read_log.ts";
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

Deno.test("integers past 64 bits: read line by line instead of aborting", () =>
  withTempDir((dir) => {
    const lm = samplesFile(dir, "bbh_cot_fewshot_snarks");
    // JSON text: polars would read the seed as Int128, which JS cannot take
    Deno.writeTextFileSync(
      lm,
      jsonl([sample(0)]) +
        JSON.stringify(sample(1)).replace(/}$/, ', "seed": 18446744073709551615}') +
        "\n",
    );
    const alone = readLmEvalLog(lm);
    assert.deepEqual([alone.frame.height, alone.bad.length], [2, 0]);
    const together = readLmEvalFiles([lm, samplesFile(dir, "bbh_cot_fewshot_snarks")]);
    assert.equal(together.raw.frame.height, 4);
    const canonical = join(dir, "run.jsonl");
    Deno.writeTextFileSync(
      canonical,
      '{"task": "nycc", "example_index": 0, "response": "x", "seed": 18446744073709551615}\n',
    );
    assert.equal(readJsonlLog(canonical).frame.height, 1);
    assert.equal(readRunLog(canonical).rows.height, 1);
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
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "--allow-all",
        "lib/cli/runlens.ts",
        "score",
        lm,
        canonical,
        "--json",
        "--data",
        data,
      ],
      stdout: "piped",
      stderr: "piped",
      env: { NO_COLOR: "1" },
    }).output();
    const stderr = new TextDecoder().decode(out.stderr);
    assert.doesNotMatch(stderr, /panicked|backtrace/);
    const report = JSON.parse(new TextDecoder().decode(out.stdout));
    const notObjects = (report.quarantine as { file: string; line: number; reason: string }[])
      .filter((q) => q.reason === "not a JSON object")
      .map((q) => `${q.file === lm ? "lm" : "canonical"}:${q.line}`)
      .sort();
    assert.deepEqual(notObjects, ["canonical:2", "lm:2"]);
  });
});

Deno.test("files whose lines hold other types are not parsed together", () =>
  withTempDir((dir) => {
    const snarks = samplesFile(dir, "bbh_cot_fewshot_snarks");
    const trivia = samplesFile(dir, "triviaqa");
    Deno.writeTextFileSync(snarks, jsonl([sample(0), sample(1)]));
    // a list target: a shared parse would print it as polars does ('["Paris", "paris"]')
    Deno.writeTextFileSync(trivia, jsonl([sample(0, { target: ["Paris", "paris"] })]));
    assert.notEqual(
      lineShape(JSON.stringify(sample(0))),
      lineShape(JSON.stringify(sample(0, { target: ["Paris"] }))),
    );
    const together = readLmEvalFiles([snarks, trivia]).raw.frame;
    const targets = together.getColumn("target").toArray();
    assert.deepEqual(targets, [
      "(A)",
      "(A)",
      readLmEvalLog(trivia).frame.getColumn("target").toArray()[0],
    ]);
    assert.equal(targets[2], '["Paris","paris"]'); // JSON.stringify of the list, as line by line
  }));

Deno.test("bad lines stay in line order, so a truncated last line is named so", () =>
  withTempDir((dir) => {
    const lm = samplesFile(dir, "bbh_cot_fewshot_snarks");
    Deno.writeTextFileSync(lm, jsonl([sample(0), [1], sample(2)]) + '{"doc_id": 3, "do');
    const raw = readLmEvalLog(lm);
    assert.deepEqual(raw.bad.map((b) => [b.line, b.reason.split(" (")[0]]), [
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
    Deno.writeTextFileSync(file, "\ufeff" + JSON.stringify(doc));
    const log = readRunLog(file);
    assert.equal(log.format, "bbh-release-outputs");
    assert.deepEqual(
      log.rows.select("run", "model", "task", "example_index", "response").toRecords(),
      [{ run: "m-cot", model: "m", task: "navigate", example_index: 0, response: "Yes" }],
    );
  }));
