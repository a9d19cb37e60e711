/**
 * Wrong encodings and huge or empty responses: lines that are not UTF-8 are quarantined (line
 * formats) or stop the read with an error naming file and line (document formats); UTF-16 is
 * an error; responses over 10 MB are quarantined; empty responses are scored as wrong and
 * counted per run.
 * @module
 */
import assert from "node:assert/strict";
import { assertTaskCell } from "./_task_cell.ts";
import { join } from "node:path";
import { decodeUtf8, invalidUtf8Lines } from "@runlens/codecs/encoding.ts";
import { runsReport, runsText } from "@runlens/report/runs_text.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

const enc = new TextEncoder();
const DATE = "2025-01-25T04-48-43.622918";

/** `text` with each "é" written as the Latin-1 byte 0xE9. */
function latin1(text: string): Uint8Array {
  return Uint8Array.from([...text].map((c) => c === "é" ? 0xe9 : c.charCodeAt(0)));
}

Deno.test("invalidUtf8Lines / decodeUtf8: lines found, errors say where", () => {
  assert.deepEqual([...invalidUtf8Lines(latin1("ok\ncafé\nfine\nné\n"))], [2, 4]);
  assert.deepEqual([...invalidUtf8Lines(enc.encode("café\n日本\n"))], []);
  assert.equal(decodeUtf8(enc.encode("café")), "café");
  assert.throws(() => decodeUtf8(latin1('{"a":\n"café"}')), /^Error: line 2 is not valid UTF-8/);
  assert.throws(() => decodeUtf8(new Uint8Array([0xff, 0xfe, 0x7b, 0x00])), /UTF-16/);
});

dataTest(
  "canonical JSONL: a Latin-1 line is quarantined, the others read unchanged",
  (data) =>
    withTempDir(async (dir) => {
      const file = join(dir, "run.jsonl");
      Deno.writeFileSync(
        file,
        latin1(
          '{"task": "nycc", "example_index": 0, "response": "ok"}\n' +
            '{"task": "nycc", "example_index": 1, "response": "café"}\n' +
            '{"task": "nycc", "example_index": 2, "response": "fine"}\n',
        ),
      );
      const log = await loadRuns([file], data);
      assert.deepEqual(log.rows.getColumn("response").toArray(), ["ok", "fine"]);
      assert.deepEqual(log.quarantine.map((q) => [q.line, q.reason.slice(0, 19)]), [
        [2, "not valid UTF-8 (an"],
      ]);
    }),
);

dataTest(
  "lm-eval samples: a Latin-1 line is quarantined, in a file alone and among files",
  (data) =>
    withTempDir(async (dir) => {
      const line = (i: number, resp: string) =>
        JSON.stringify({
          doc_id: i,
          doc: { input: `Q${i}`, target: "(A)" },
          target: "(A)",
          resps: [[resp]],
          filtered_resps: ["(A)"],
          filter: "get-answer",
          metrics: ["exact_match"],
          exact_match: 1.0,
        }) + "\n";
      const a = join(dir, `samples_bbh_cot_fewshot_snarks_${DATE}.jsonl`);
      const b = join(dir, `samples_bbh_cot_fewshot_navigate_${DATE}.jsonl`);
      Deno.writeFileSync(a, latin1(line(0, "So the answer is (A).") + line(1, "café (A)")));
      Deno.writeFileSync(b, enc.encode(line(0, "(A)")));
      // line 1 is read (the data set may still quarantine its record: not an encoding reason)
      const notUtf8 = (q: { reason: string }) => q.reason.startsWith("not valid UTF-8");
      const alone = await loadRuns([a], data, { responses: false });
      assert.equal(alone.runs[0].rows_in, 2);
      assert.deepEqual(alone.quarantine.filter(notUtf8).map((q) => q.line), [2]);
      const together = await loadRuns([b, a], data, { responses: false });
      const bad = together.quarantine.filter(notUtf8);
      assert.deepEqual(bad.map((x) => [x.file, x.line]), [[a, 2]]);
      assert.deepEqual(together.fileSummaries.map((f) => [f.file, f.rows_in]), [[b, 1], [a, 2]]);
    }),
);

dataTest(
  "document formats: Latin-1 text is an error naming file and line; UTF-16 JSONL too",
  (data) =>
    withTempDir(async (dir) => {
      const mcpbr = join(dir, "results.json");
      Deno.writeFileSync(
        mcpbr,
        latin1('{"metadata": {"config": {"model": "café"}},\n"tasks": []}'),
      );
      const utf16 = join(dir, "run.jsonl");
      const text = '{"task": "nycc", "example_index": 0, "response": "x"}\n';
      Deno.writeFileSync(
        utf16,
        Uint8Array.from([0xff, 0xfe, ...[...text].flatMap((c) => [c.charCodeAt(0), 0])]),
      );
      for (const [file, reason] of [[mcpbr, /line 1 is not valid UTF-8/], [utf16, /UTF-16 text/]]) {
        const loaded = await loadRuns([file as string], data);
        assert.equal(loaded.errors.length, 1);
        assert.equal(loaded.errors[0].file, file);
        assert.match(loaded.errors[0].reason, reason as RegExp);
      }
    }),
);

dataTest(
  "huge responses are quarantined, empty ones scored as wrong and counted",
  (dataDir) =>
    withTempDir(async (dir) => {
      const file = join(dir, "run.jsonl");
      const rows = [
        { task: "nycc", example_index: 0, response: "x".repeat(10_000_001) },
        { task: "nycc", example_index: 1, response: "" },
        { task: "nycc", example_index: 2, response: "x".repeat(10_000_000) },
        { task: "nycc", example_index: 3, response: "" },
      ];
      Deno.writeTextFileSync(file, rows.map((r) => JSON.stringify(r)).join("\n") + "\n");
      for (const responses of [true, false]) {
        const loaded = await loadRuns([file], dataDir, { responses });
        const [run] = loaded.runs;
        assert.deepEqual([run.rows_in, run.rows_scored, run.rows_quarantined], [4, 3, 1]);
        assert.equal(
          loaded.quarantine[0].reason,
          "response of 10,000,001 characters is longer than 10,000,000 (over 10 MB: a runaway " +
            "generation?); not scored",
        );
        assert.equal(run.empty_responses, 2);
        assertTaskCell(run.tasks.nycc as never, { n: 3, correct: 0, accuracy: 0 });
        assert.equal(runsReport(loaded).runs[0].empty_responses, 2);
        assert.match(
          runsText(loaded),
          // the 10 MB run of "x" is no option of nycc: no answer the rule can score
          /1 quarantined \(2 empty responses, 3 with no answer found: scored as wrong\)/,
        );
      }
    }),
);
