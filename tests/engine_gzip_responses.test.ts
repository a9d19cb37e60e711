/**
 * End to end through the streaming engine (`runEngine`): a gzip JSON-lines log is scored like
 * its plain copy (same rows, verdicts, lines, quarantine; pointers `gz-span` at the same
 * offsets), and `responses(df)` on the compact frame of a load gives, for the rows a notebook
 * filters, the exact response of each row's line — span, gz-span, and `none` (CSV) rows.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import pl from "nodejs-polars";
import { readBbehExamples } from "@runlens/benchmarks/bbeh/examples.ts";
import { rowAt } from "@runlens/pipeline/compact.ts";
import { compactFrame } from "@runlens/pipeline/compact_frame.ts";
import { type EngineLoad, runEngine } from "@runlens/pipeline/engine.ts";
import { resolveLoadPlan } from "@runlens/pipeline/load_plan.ts";
import { responses } from "@runlens/pipeline/responses.ts";
import { concat, utf8 } from "./_containers.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

/** A canonical BBEH log of `n` lines: right, wrong, escaped and non-ASCII responses. */
function canonicalLog(dataDir: string, n: number): { text: string; responses: string[] } {
  const examples = readBbehExamples(dataDir);
  const tasks = Object.keys(examples).sort();
  const lines: string[] = [];
  const responses: string[] = [];
  for (let i = 0; i < n; i++) {
    const task = tasks[(i * 7) % tasks.length];
    const index = (i * 13) % examples[task].length;
    const answer = i % 3 === 0 ? "(Z) wrong" : examples[task][index].target;
    const response = `Step ${i}: "q" \\ é 😀\u2028\u0000 \ufeff\nThe answer is: ${answer}`;
    responses.push(response);
    lines.push(JSON.stringify({ run: "r", task, example_index: index, response }));
  }
  lines.splice(7, 0, '{"task": "nycc", "broken');
  responses.splice(7, 0, "");
  return { text: lines.join("\n") + "\n", responses };
}

/** Rows and quarantine of a load, the file path and pointer kind left out. */
function snapshot(load: EngineLoad) {
  const rows = Array.from({ length: load.merged.rows.n }, (_, i) => {
    const r = rowAt(load.merged.rows, i);
    const p = r.pointer;
    return [
      r.line,
      r.run,
      r.task,
      r.example,
      r.correct,
      r.extracted,
      r.chars,
      p?.offset,
      p?.length,
    ];
  });
  const quarantine = load.merged.quarantine.map((q) => ({ ...q, file: "" }));
  return { rows, quarantine, errors: load.errors };
}

const load = async (paths: string[], dataDir: string, workers = 1) =>
  runEngine(paths, await resolveLoadPlan(dataDir, { workers }));

/** The compact frame of a load and its files by path. */
function frame(l: EngineLoad) {
  const df = compactFrame(l.merged.rows, l.files.map((f) => f.path));
  return { df, files: new Map(l.files.map((f) => [f.path, f])) };
}

dataTest(
  "a gzip log scores as its plain copy; responses(df) reads the filtered rows",
  async (data) => {
    await withTempDir(async (dir) => {
      const { text, responses: texts } = canonicalLog(data, 400);
      const bytes = utf8(text);
      Deno.mkdirSync(join(dir, "plain"));
      Deno.mkdirSync(join(dir, "gz"));
      Deno.writeFileSync(join(dir, "plain", "run.jsonl"), bytes);
      // two gzip members, cut inside a line
      Deno.writeFileSync(
        join(dir, "gz", "run.jsonl.gz"),
        concat([gzipSync(bytes.subarray(0, 20_001)), gzipSync(bytes.subarray(20_001))]),
      );
      const plain = await load([join(dir, "plain")], data);
      for (const workers of [1, 2]) {
        const gz = await load([join(dir, "gz")], data, workers);
        assert.deepEqual(snapshot(gz), snapshot(plain), `gzip, ${workers} Worker(s)`);
        const kinds = new Set(
          Array.from(
            { length: gz.merged.rows.n },
            (_, i) => rowAt(gz.merged.rows, i).pointer?.kind,
          ),
        );
        assert.deepEqual([...kinds], ["gz-span"]);
      }
      assert.ok(plain.merged.quarantine.some((q) => q.line === 8), "the broken line");
      for (const l of [plain, await load([join(dir, "gz")], data)]) {
        const { df, files } = frame(l);
        // the notebook's step: filter the failures, then read their responses
        // (lazy: the compact frame's `filter` column shadows DataFrame.filter)
        const failures = df.lazy().filter(pl.col("correct").not()).collectSync().head(50);
        assert.equal(failures.height, 50);
        const got = responses(failures, files).getColumn("response").toArray();
        const lines = failures.getColumn("source_line").toArray() as number[];
        assert.deepEqual(
          got,
          lines.map((line) => texts[line - 1]),
        );
      }
    });
  },
);

dataTest("responses(df) of a load mixing JSONL, gzip JSONL and CSV files", async (data) => {
  await withTempDir(async (dir) => {
    const { text, responses: texts } = canonicalLog(data, 60);
    Deno.writeFileSync(join(dir, "a.jsonl"), utf8(text.replaceAll('"run":"r"', '"run":"a"')));
    Deno.writeFileSync(
      join(dir, "b.jsonl.gz"),
      gzipSync(utf8(text.replaceAll('"run":"r"', '"run":"b"'))),
    );
    // a CSV copy (NUL left out): a record starts at the line after the newlines before it
    const csv = ["run,task,example_index,response"];
    const byLine = new Map<number, string>();
    let line = 2;
    for (const l of text.trim().split("\n").filter((l) => !l.includes("broken"))) {
      const r = JSON.parse(l);
      const response = r.response.replaceAll("\u0000", "");
      csv.push(`c,${r.task},${r.example_index},"${response.replaceAll('"', '""')}"`);
      byLine.set(line, response);
      line += 1 + response.split("\n").length - 1;
    }
    Deno.writeTextFileSync(join(dir, "c.csv"), csv.join("\n") + "\n");
    const l = await load([dir], data);
    assert.deepEqual(l.errors, []);
    const { df, files } = frame(l);
    const got = responses(df, files);
    const want = (got.getColumn("source_file").toArray() as string[]).map((file, i) => {
      const line = got.getColumn("source_line").get(i) as number;
      if (file.endsWith(".csv")) return byLine.get(line);
      return texts[line - 1];
    });
    assert.deepEqual(got.getColumn("response").toArray(), want);
    const kinds = new Set(got.getColumn("ptr_kind").toArray());
    assert.deepEqual([...kinds].sort(), ["gz-span", "none", "span"]);
  });
});
