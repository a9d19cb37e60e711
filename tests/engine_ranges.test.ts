/**
 * The streaming engine splits line-format logs into byte ranges scored by Workers (issue 13):
 * whatever the split and the number of Workers, the rows, verdicts, line numbers and the
 * quarantine are the same — records straddling a range edge, CRLF line ends, a BOM, a
 * truncated last line in the middle file of a folder, escapes and non-ASCII responses.
 */
import assert from "node:assert/strict";
import { readBbehExamples } from "@runlens/benchmarks/bbeh/examples.ts";
import { rowAt } from "@runlens/pipeline/compact.ts";
import { type EngineLoad, runEngine } from "@runlens/pipeline/engine.ts";
import { resolveLoadPlan } from "@runlens/pipeline/load_plan.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

/** A canonical BBEH log of `n` lines: right, wrong, escaped and non-ASCII responses. */
function canonicalLog(dataDir: string, n: number, seed: number): string {
  const examples = readBbehExamples(dataDir);
  const tasks = Object.keys(examples).sort();
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const task = tasks[(i * 7 + seed) % tasks.length];
    const index = (i * 13 + seed) % examples[task].length;
    const target = examples[task][index].target;
    const answer = i % 3 === 0 ? "(Z) wrong" : target;
    const response = `Step ${i}: "quoted" \\ é 😀\u2028 tab\t\nThe answer is: ${answer}`;
    lines.push(JSON.stringify({ run: `r${i % 3}`, task, example_index: index, response }));
  }
  return lines.join("\n") + "\n";
}

/** Every row and quarantine entry of a load, comparable across loads. */
function snapshot(load: EngineLoad) {
  const rows = Array.from({ length: load.merged.rows.n }, (_, i) => {
    const r = rowAt(load.merged.rows, i);
    return [
      load.files[r.file].path,
      r.line,
      r.run,
      r.task,
      r.example,
      r.correct,
      r.extracted,
      r.chars,
      r.pointer?.offset,
      r.pointer?.length,
    ];
  });
  return { rows, quarantine: load.merged.quarantine, errors: load.errors };
}

const load = async (paths: string[], dataDir: string, workers: number, rangeBytes?: number) =>
  runEngine(paths, await resolveLoadPlan(dataDir, { workers }), { rangeBytes });

dataTest("1, 2 and 4 Workers and any range size give identical rows", async (dataDir) => {
  await withTempDir(async (dir) => {
    Deno.writeTextFileSync(`${dir}/a.jsonl`, canonicalLog(dataDir, 600, 1));
    // CRLF line ends and a BOM
    Deno.writeTextFileSync(
      `${dir}/b.jsonl`,
      "\ufeff" + canonicalLog(dataDir, 300, 2).replaceAll("\n", "\r\n"),
    );
    // the middle file ends in a cut line (no newline, not JSON)
    Deno.writeTextFileSync(`${dir}/b2.jsonl`, canonicalLog(dataDir, 50, 3) + '{"task": "nyc');
    Deno.writeTextFileSync(`${dir}/c.jsonl`, canonicalLog(dataDir, 200, 4));
    const whole = snapshot(await load([dir], dataDir, 1));
    assert.equal(whole.rows.length + whole.quarantine.length, 1151);
    assert.deepEqual(whole.errors, []);
    const cut = whole.quarantine.find((q) => q.file.endsWith("b2.jsonl") && q.line === 51);
    assert.ok(cut, "the cut last line is quarantined");
    for (const [workers, rangeBytes] of [[1, 997], [2, 997], [4, 4096], [2, 1 << 20], [4, 301]]) {
      const got = snapshot(await load([dir], dataDir, workers, rangeBytes));
      assert.deepEqual(got, whole, `workers ${workers}, ranges of ${rangeBytes} bytes`);
    }
  });
});

dataTest(
  "a range edge inside a record: the record belongs to the range it starts in",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const text = canonicalLog(dataDir, 40, 5);
      Deno.writeTextFileSync(`${dir}/a.jsonl`, text);
      const bytes = new TextEncoder().encode(text);
      // every edge position of the first 3 lines: inside a line, on its newline, just after
      const firstLines = bytes.indexOf(10, bytes.indexOf(10, bytes.indexOf(10) + 1) + 1);
      const whole = snapshot(await load([dir], dataDir, 1));
      for (let edge = 1; edge <= firstLines + 1; edge += 17) {
        const got = snapshot(await load([dir], dataDir, 1, edge));
        assert.deepEqual(got, whole, `ranges of ${edge} bytes`);
      }
    });
  },
);
