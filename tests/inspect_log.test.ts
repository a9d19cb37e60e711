/**
 * Tests of the inspect_ai source (`logs/sources/inspect.ts`): the real logs in
 * `<data>/logs/inspect` (sample and epoch counts checked against an independent count of the
 * ZIP entries / the JSON document), and `.eval` fixtures built here from the documented format
 * (crashed run, content blocks, bare NaN, a BBEH sample that scores), and the committed zstd,
 * deflate and corrupt `.eval` fixtures in `tests/fixtures/logs/formats/inspect/`. Fields
 * outside the canonical ones (sample ids, members, statuses, scores) are not kept.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { strToU8, unzipSync, zipSync } from "fflate";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { discover } from "@runlens/logs/discover.ts";
import { parseLooseJson } from "@runlens/logs/sources/document.ts";
import {
  contentText,
  inspectTask,
  sampleResponse,
  sampleVerdict,
} from "@runlens/logs/sources/inspect.ts";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { Labels } from "@runlens/pipeline/labels.ts";
import { benchmarks } from "@runlens/benchmarks/registry.ts";
import { dataTest } from "./_data.ts";
import { readChecked, readFiles } from "./_read.ts";
import { withTempDir } from "./_tmp.ts";

const formatOf = (path: string) => discover([path]).files[0]?.format ?? null;
/** The records of one file as its source reads them (fields as text). */
const recordsOf = (path: string): Record<string, string | boolean | null | undefined>[] => {
  const [f] = readFiles([path]);
  assert.equal(f.error, null, path);
  return f.records.map((r) => ({ ...r.fields, stored_correct: r.stored_correct }));
};

/** Sample entries of a `.eval` ZIP, listed without the reader: `[id, epoch]` per entry. */
function zipSamples(path: string): [string, number][] {
  const out: [string, number][] = [];
  unzipSync(Deno.readFileSync(path), {
    filter: (f) => {
      const m = /^samples\/(.+)_epoch_(\d+)\.json$/.exec(f.name);
      if (m) out.push([m[1], Number(m[2])]);
      return false;
    },
  });
  return out;
}

dataTest(
  "inspect: the real logs load with every sample and epoch accounted for",
  async (dataDir) => {
    const dir = join(dataDir, "logs", "inspect");
    const evals = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".eval"))
      .sort();
    assert.ok(evals.length >= 3);
    let expectedTotal = 0;
    for (const name of evals) {
      const path = join(dir, name);
      assert.equal(formatOf(path), "inspect-eval");
      const entries = zipSamples(path);
      const log = readChecked(path);
      assert.equal(log.format, "inspect-eval");
      assert.equal(log.rowsIn, entries.length, name);
      const epochs = recordsOf(path).map((r) => Number(r.epoch)).sort();
      assert.deepEqual(epochs, entries.map(([, e]) => e).sort(), name);
      expectedTotal += entries.length;
    }
    // samples in (id, epoch) order, whatever the ZIP order: ids 1, 1, 2, 2
    const streaming = recordsOf(join(dir, "inspect_ai__log_streaming__2epochs.eval"));
    assert.deepEqual(streaming.map((r) => r.response).slice(0, 2), ["No", "Yes."]);
    assert.deepEqual(streaming.map((r) => r.epoch), ["1", "2", "1", "2"]);
    assert.equal(streaming[0].input, streaming[1].input);
    assert.equal(streaming[2].input, streaming[3].input);
    const [mmlu] = recordsOf(join(dir, "inspect_ai__mmlu-summary-choices.eval"));
    assert.equal(mmlu.model, "openai/gpt-4o");
    assert.equal(mmlu.benchmark, "mmlu_0_shot");
    assert.equal(mmlu.response, "ANSWER: C");
    assert.equal(mmlu.target, "A");
    assert.equal(mmlu.stored_correct, false);

    const legacy = join(dir, "inspect_ai__log_read_sample.json");
    assert.equal(formatOf(legacy), "inspect-json");
    const doc = JSON.parse(Deno.readTextFileSync(legacy));
    assert.equal(readChecked(legacy).rowsIn, doc.samples.length);
    const legacyRecords = recordsOf(legacy);
    assert.equal(legacyRecords[0].target, " Yes");
    assert.equal(legacyRecords[0].response, "Yes\n");
    expectedTotal += doc.samples.length;

    // not BBEH runs: every sample is quarantined, none lost
    // (the folder's openai/evals .log is read too when the folder is named; see log_formats_*)
    const loaded = await loadRuns([...evals.map((n) => join(dir, n)), legacy], dataDir);
    assert.equal(loaded.files.length, evals.length + 1);
    const sum = (k: "rows_in" | "rows_scored" | "rows_quarantined") =>
      loaded.runs.reduce((s, r) => s + r[k], 0);
    assert.equal(sum("rows_in"), expectedTotal);
    assert.equal(sum("rows_in"), sum("rows_scored") + sum("rows_quarantined"));
    assert.equal(loaded.quarantine.length, expectedTotal);
    for (const r of loaded.runs) assert.match(r.format, /^inspect-(eval|json)$/);
    assert.ok(loaded.quarantine.every((q) => /unsupported benchmark/.test(q.reason)));
  },
);

Deno.test("inspect helpers: NaN, content blocks, responses, verdicts, tasks", () => {
  assert.deepEqual(parseLooseJson('{"v": NaN, "w": -Infinity, "s": "NaN, Infinity"}'), {
    v: null,
    w: null,
    s: "NaN, Infinity",
  });
  assert.equal(
    contentText([{ type: "reasoning", reasoning: "hmm" }, { type: "text", text: "42" }]),
    "42",
  );
  assert.equal(contentText("plain"), "plain");
  assert.equal(sampleResponse({ output: { completion: "c", choices: [] } }), "c");
  assert.equal(
    sampleResponse({
      output: { choices: [] },
      messages: [{ role: "user", content: "q" }, {
        role: "assistant",
        content: [{ type: "text", text: "last" }],
      }],
    }),
    "last",
  );
  assert.equal(sampleResponse({ output: {} }), null);
  assert.equal(sampleVerdict({ scores: { m: { value: "C" } } }), true);
  assert.equal(sampleVerdict({ scores: { m: { value: 0 } } }), false);
  assert.equal(sampleVerdict({ scores: { m: { value: "P" } } }), null);
  assert.equal(sampleVerdict({ scores: {} }), null);
  // the eval's labels as written, resolved by the pipeline (bbeh_mini is BBEH's)
  const labels = new Labels(benchmarks());
  const resolved = (l: { benchmark: string; task: string }) => labels.resolve(l.benchmark, l.task);
  const mini = inspectTask("inspect_evals/bbeh_mini", {}, { task: "nycc" });
  assert.deepEqual(mini, { benchmark: "bbeh_mini", task: "nycc" });
  assert.deepEqual(resolved(mini), { benchmark: "bbeh", task: "nycc" });
  const bbh = inspectTask("bbh", { subset_name: "snarks" }, {});
  assert.deepEqual(resolved(bbh), { benchmark: "bbh", task: "snarks" });
  // another eval keeps its name: its rows are quarantined as of an unsupported benchmark
  assert.deepEqual(resolved(inspectTask("gpqa", {}, {})), { benchmark: "gpqa", task: "gpqa" });
});

const SPEC = { task: "inspect_evals/bbeh", task_args: {}, model: "openai/gpt-4o" };

function sampleDoc(id: number, epoch: number, input: string, target: string, answer: string) {
  return `{"id": ${id}, "epoch": ${epoch}, "input": ${JSON.stringify(input)}, ` +
    `"target": ${JSON.stringify(target)}, "metadata": {"task": "nycc"}, ` +
    `"messages": [{"role": "user", "content": ${JSON.stringify(input)}}], ` +
    `"output": {"model": "gpt-4o-2024-08-06", "choices": [{"message": {"role": "assistant", ` +
    `"content": [{"type": "reasoning", "reasoning": "think"}, {"type": "text", "text": ` +
    `${JSON.stringify(answer)}}]}}], "usage": {"output_tokens": 7}}, ` +
    `"scores": {"bbeh_scorer": {"value": NaN, "answer": null}}}`;
}

dataTest("inspect .eval fixture: crashed run, epochs, blocks, NaN; BBEH samples scored", async (
  dataDir,
) => {
  const ex = loadBbehDataset(dataDir).filter(pl.col("task").eq(pl.lit("nycc")))
    .sort("example_index").head(2).toRecords() as { input: string; target: string }[];
  await withTempDir(async (dir) => {
    const path = join(dir, "crashed_bbeh.eval");
    Deno.writeFileSync(
      path,
      zipSync({
        "_journal/start.json": strToU8(JSON.stringify({ version: 2, eval: SPEC })),
        "samples/2_epoch_1.json": strToU8(sampleDoc(2, 1, ex[1].input, ex[1].target, "no idea")),
        "samples/1_epoch_2.json": strToU8(
          sampleDoc(1, 2, ex[0].input, ex[0].target, `The answer is: ${ex[0].target}`),
        ),
        "samples/1_epoch_1.json": strToU8(
          sampleDoc(1, 1, ex[0].input, ex[0].target, `The answer is: ${ex[0].target}`),
        ),
      }),
    );
    assert.equal(formatOf(path), "inspect-eval");
    const read = recordsOf(path);
    assert.deepEqual(read.map((r) => r.epoch), ["1", "2", "1"]);
    assert.deepEqual(read.map((r) => r.response_tokens), ["7", "7", "7"]);
    assert.deepEqual(read.map((r) => r.stored_correct ?? null), [null, null, null]); // NaN
    const loaded = await loadRuns([dir], dataDir);
    const [run] = loaded.runs;
    assert.equal(run.format, "inspect-eval");
    assert.equal(run.model, "openai/gpt-4o");
    assert.deepEqual([run.rows_in, run.rows_scored, run.rows_quarantined], [3, 3, 0]);
    // two examples: nycc[0] right in both epochs, nycc[1] wrong — the accuracy is the mean of
    // the examples' means, (1 + 0) / 2, and its interval one example right of two (Wilson)
    const cell = run.tasks.nycc;
    assert.deepEqual([cell.n, cell.correct, cell.accuracy], [3, 2, 50]);
    assert.ok(Math.abs(cell.ci_low - 9.4531205734) < 1e-6, String(cell.ci_low));
    assert.ok(Math.abs(cell.ci_high - 90.5468794266) < 1e-6, String(cell.ci_high));
    assert.deepEqual(loaded.rows.getColumn("epoch").toArray(), [1, 2, 1]);
  });
});

/** The committed `.eval` fixtures (rebuilt by `make_zstd_eval.py` next to them). */
const FIXTURES = join(REPO_ROOT, "tests", "fixtures", "logs", "formats", "inspect");

/** ZIP compression method per member name, listed without the reader. */
function zipMethods(path: string): Record<string, number> {
  const out: Record<string, number> = {};
  unzipSync(Deno.readFileSync(path), {
    filter: (f) => {
      out[f.name] = f.compression;
      return false;
    },
  });
  return out;
}

Deno.test("inspect .eval with zstd members (inspect_ai ≥ 0.3.206): samples, epochs, verdicts", () => {
  const path = join(FIXTURES, "zstd", "bbeh_run.eval");
  // a mixed archive: zstd (93), one deflate sample (8), a stored member (0)
  assert.deepEqual(zipMethods(path), {
    "header.json": 93,
    "samples/2_epoch_1.json": 8,
    "samples/1_epoch_2.json": 93,
    "samples/1_epoch_1.json": 93,
    "summaries.json": 93,
    "reductions.json": 0,
  });
  assert.equal(formatOf(path), "inspect-eval");
  const log = readChecked(path);
  assert.equal(log.format, "inspect-eval");
  assert.equal(log.rowsIn, 3);
  const rows = recordsOf(path);
  assert.deepEqual(log.rows.map((r) => r.run), ["bbeh_run", "bbeh_run", "bbeh_run"]);
  assert.deepEqual(rows.map((r) => r.model), ["openai/gpt-4o", "openai/gpt-4o", "openai/gpt-4o"]);
  assert.deepEqual(rows.map((r) => r.benchmark), ["bbeh", "bbeh", "bbeh"]);
  assert.deepEqual(rows.map((r) => r.task), [
    "boolean_expressions",
    "boolean_expressions",
    "multistep_arithmetic",
  ]);
  // (id, epoch) order, whatever the ZIP order: samples/1_epoch_1, 1_epoch_2, 2_epoch_1
  assert.deepEqual(rows.map((r) => r.epoch), ["1", "2", "1"]);
  assert.deepEqual(rows.map((r) => r.input), [
    "Evaluate: not ( True ) and ( True ) is",
    "Evaluate: not ( True ) and ( True ) is",
    "Is 17 a prime number?",
  ]);
  assert.deepEqual(rows.map((r) => r.target), ["False", "False", "Yes"]);
  // content blocks (reasoning left out), output.completion, the last assistant message
  assert.deepEqual(rows.map((r) => r.response), [
    "The answer is: False",
    "The answer is: True",
    "Yes.",
  ]);
  assert.deepEqual(rows.map((r) => r.response_tokens), ["12", "6", "2"]);
  assert.deepEqual(rows.map((r) => r.stored_correct ?? null), [true, false, null]);
});

Deno.test("inspect .eval: zstd members load to the same rows as the same members deflated", () => {
  const zstd = join(FIXTURES, "zstd", "bbeh_run.eval");
  const deflate = join(FIXTURES, "deflate", "bbeh_run.eval");
  assert.ok(Object.values(zipMethods(deflate)).every((m) => m === 8));
  assert.deepEqual(Object.keys(zipMethods(deflate)), Object.keys(zipMethods(zstd)));
  const a = readChecked(zstd);
  const b = readChecked(deflate);
  assert.equal(a.rowsIn, b.rowsIn);
  assert.deepEqual(recordsOf(zstd), recordsOf(deflate));
});

Deno.test("inspect .eval: a member that cannot be decompressed gives an error naming it", () => {
  // the generator's corrupt_zstd.eval: samples/1_epoch_2.json's zstd blocks overwritten
  const corrupt = join(REPO_ROOT, "tests", "fixtures", "broken_logs", "corrupt_zstd.eval");
  const error = (path: string) => readFiles([path])[0].error;
  assert.match(error(corrupt)!, /samples\/1_epoch_2\.json: corrupt zstd data \(.+\)$/);
  withTempDir((dir) => {
    const build = (patch: (view: DataView, dataAt: number) => void) => {
      const zip = zipSync({
        "samples/1_epoch_1.json": strToU8(sampleDoc(1, 1, "q", "A", "The answer is: A")),
        "header.json": strToU8(JSON.stringify({ status: "success", eval: SPEC })),
      });
      const view = new DataView(zip.buffer);
      patch(view, 30 + view.getUint16(26, true) + view.getUint16(28, true));
      const path = join(dir, "patched.eval");
      Deno.writeFileSync(path, zip);
      return path;
    };
    // a damaged deflate member (first block header: reserved block type 3)
    const badDeflate = build((view, at) => view.setUint8(at, 0xff));
    assert.match(error(badDeflate)!, /samples\/1_epoch_1\.json: corrupt deflate/);
    // a member compressed with a method the reader does not know (12, bzip2)
    const bzip2 = build((view) => {
      view.setUint16(8, 12, true);
      for (let i = 0; i + 4 <= view.byteLength; i++) {
        if (view.getUint32(i, true) === 0x02014b50) view.setUint16(i + 10, 12, true);
      }
    });
    assert.match(
      error(bzip2)!,
      /samples\/1_epoch_1\.json: unsupported ZIP compression method 12$/,
    );
  });
});
