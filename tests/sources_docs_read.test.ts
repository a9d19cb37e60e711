/**
 * The streaming path's document sources (`lib/logs/sources/`) on every fixture of a document
 * format, on the real logs in `<data>/logs` and the BBH release outputs, and on edge cases built
 * here (crashed inspect runs, content blocks, bare NaN, epochs, OpenCompass partitions, bad
 * records of every kind): every file is read (no source error), member pointers read back to
 * their response, gzip-compressed copies read the same, and every input record of the edge
 * cases is a record or a bad record. (These tests once compared the sources with the old
 * readers, removed with the polars read path; the format tests `log_formats_*.test.ts` and
 * `inspect_log.test.ts` assert the records themselves.)
 * @module
 */
import assert from "node:assert/strict";
import { basename, dirname, join, relative } from "node:path";
import { gzipSync } from "node:zlib";
import { strToU8, zipSync } from "fflate";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { detectFile } from "@runlens/logs/discover.ts";
import { isDocumentFormat } from "@runlens/logs/sources/documents.ts";
import { logFormats } from "@runlens/benchmarks/registry.ts";
import { readMemberResponse } from "@runlens/logs/sources/inspect.ts";
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { collect, sameOutput } from "./_collect.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

const FORMATS = join(REPO_ROOT, "tests", "fixtures", "logs", "formats");

/**
 * The document format of `path` by detection (built in, or a benchmark's), with its gzip flag
 * (null: not a document log).
 */
function documentFormat(path: string): { format: string; gzip: boolean } | null {
  const formats = logFormats();
  const found = detectFile(path, undefined, formats);
  if (found.kind !== "log") return null;
  if (!isDocumentFormat(found.format) && !formats.some((f) => f.name === found.format)) {
    return null;
  }
  return { format: found.format, gzip: found.gzip };
}

/** Every file under `dir`, sorted. */
function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of Deno.readDirSync(dir)) {
    const p = join(dir, e.name);
    if (e.isDirectory) out.push(...walk(p));
    else if (e.isFile) out.push(p);
  }
  return out.sort();
}

/**
 * Read every document log under `dir` (format by detection) with its source: no file fails,
 * member pointers read back to the response; returns the files read. With `gzipCopies`, a gzip
 * copy of each (in a mirror tree, so that sibling files still apply) must read like the plain
 * file.
 */
function readTree(dir: string, gzipCopies = true): string[] {
  const read: string[] = [];
  const problems: string[] = [];
  let pointers = 0;
  for (const path of walk(dir)) {
    const doc = documentFormat(path);
    if (doc === null || (doc.gzip && doc.format.startsWith("inspect"))) continue;
    read.push(path);
    let mine;
    try {
      mine = collect(doc.format, path, { gzip: doc.gzip });
    } catch (e) {
      problems.push(`${path}: source failed: ${(e as Error).message}`);
      continue;
    }
    // member pointers read back to the response
    for (const r of mine.records) {
      if (r.pointer?.kind !== "member") continue;
      const back = readMemberResponse(path, r.pointer, DEFAULT_LIMITS);
      if (back !== r.response) problems.push(`${path}: pointer of line ${r.line} reads ${back}`);
      pointers++;
    }
  }
  if (gzipCopies) {
    withTempDir((mirror) => {
      for (const path of read) {
        const plain = join(mirror, relative(dir, path));
        Deno.mkdirSync(dirname(plain), { recursive: true });
        Deno.copyFileSync(path, plain);
      }
      for (const path of read) {
        const plain = join(mirror, relative(dir, path));
        const gz = `${plain}.gz`;
        Deno.writeFileSync(gz, gzipSync(Deno.readFileSync(plain)));
        const format = documentFormat(path)!.format;
        const a = collect(format, plain);
        // the gzip copy is read under its own name (without .gz) while the plain one is gone
        const keep = Deno.readFileSync(plain);
        Deno.removeSync(plain);
        try {
          const b = collect(format, gz, { gzip: true });
          problems.push(...sameOutput(a, b).map((d) => `${relative(dir, path)} (gzip): ${d}`));
        } finally {
          Deno.writeFileSync(plain, keep);
          Deno.removeSync(gz);
        }
      }
    });
  }
  assert.deepEqual(problems, []);
  if (read.some((p) => p.endsWith(".eval"))) assert.ok(pointers > 0, "member pointers checked");
  return read;
}

Deno.test("document sources read every fixture (and their gzip copies the same)", () => {
  const compared = readTree(FORMATS);
  const formats = new Set(compared.map((p) => documentFormat(p)!.format));
  assert.deepEqual([...formats].sort(), [
    "inspect-eval",
    "mcpbr",
    "openai-evals",
    "opencompass-predictions",
    "opencompass-results",
  ]);
  assert.ok(compared.length >= 10, `${compared.length} files`);
});

dataTest("document sources read the real logs and the BBH release", (data) => {
  const real = readTree(join(data, "logs"));
  assert.deepEqual(real.map((p) => basename(p)).sort(), [
    "2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval",
    "inspect_ai__log_read_sample.json",
    "inspect_ai__log_streaming__2epochs.eval",
    "inspect_ai__mmlu-summary-choices.eval",
    "openai_evals__self_prompting_oriprompt.log",
  ]);
  const release = readTree(join(data, "bbh", "code-davinci-002-outputs"), false);
  assert.equal(release.length, 54);
});

const SPEC = { task: "inspect_evals/bbeh", task_args: {}, model: "openai/gpt-4o" };

function sampleDoc(id: number | string, epoch: number, answer: unknown, extra = "") {
  return `{"id": ${JSON.stringify(id)}, "epoch": ${epoch}, "input": [{"role": "user", ` +
    `"content": "q${id}"}, {"role": "system", "content": "s"}], "target": ["t${id}", "u"], ` +
    `"metadata": {"task": "nycc"}, "messages": [{"role": "user", "content": "q"}, ` +
    `{"role": "assistant", "content": [{"type": "text", "text": "from messages"}]}], ` +
    `"output": {"model": "gpt-4o-2024-08-06", "choices": [{"message": {"role": "assistant", ` +
    `"content": ${JSON.stringify(answer)}}}], "usage": {"output_tokens": 7}}, ` +
    `"scores": {"s": {"value": NaN, "answer": null}}${extra}}`;
}

Deno.test("inspect edge cases: crashed run, blocks, NaN, epochs, ids, legacy JSON", () => {
  withTempDir((dir) => {
    const crashed = join(dir, "crashed.eval");
    Deno.writeFileSync(
      crashed,
      zipSync({
        "_journal/start.json": strToU8(JSON.stringify({ version: 2, eval: SPEC })),
        "samples/10_epoch_1.json": strToU8(sampleDoc(10, 1, "plain")),
        "samples/2_epoch_2.json": strToU8(
          sampleDoc(2, 2, [{ type: "reasoning", reasoning: "x" }, { type: "text", text: "A" }, {
            type: "text",
            text: "B",
          }]),
        ),
        "samples/2_epoch_1.json": strToU8(sampleDoc(2, 1, null)), // from messages
        "samples/b_epoch_1.json": strToU8(sampleDoc("b", 1, 5, ', "error": "x"')),
        "samples/a_epoch_1.json": strToU8(
          sampleDoc("a", 1, [{ type: "text", text: "only" }]).replace(
            '"value": NaN',
            '"value": "C"',
          ),
        ),
      }),
    );
    const legacy = join(dir, "legacy.json");
    Deno.writeTextFileSync(
      legacy,
      `{"version": 2, "status": "success", "eval": ${JSON.stringify(SPEC)}, "samples": [` +
        `${sampleDoc(1, 1, "x")}, ${sampleDoc(2, 1, [{ type: "text", text: "y" }])}]}`,
    );
    // every sample is a record (2 in the legacy document)
    const old = collect("inspect-json", legacy);
    assert.deepEqual([old.records.map((r) => r.response), old.bad], [["x", "y"], []]);
    const mine = collect("inspect-eval", crashed);
    assert.deepEqual(mine.records.map((r) => [r.line, r.response, r.pointer?.kind]), [
      [1, "from messages", "member"],
      [2, "AB", "inline"], // two text blocks: joined, no single span
      [3, "plain", "member"],
      [4, "only", "member"],
    ]);
    // sample b errored: quarantined with its message, not scored as a response
    assert.deepEqual(mine.bad.map((b) => [b.line, b.reason]), [[5, "the sample errored: x"]]);
  });
});

Deno.test("opencompass partitions and bad records (plain and gzip parts): every file read", () => {
  withTempDir((dir) => {
    const m = join(dir, "20250303_101010", "predictions", "m");
    const r = join(dir, "20250303_101010", "results", "m");
    Deno.mkdirSync(m, { recursive: true });
    Deno.mkdirSync(r, { recursive: true });
    const write = (p: string, doc: unknown) => Deno.writeTextFileSync(p, JSON.stringify(doc));
    const rec = (k: number) => ({
      origin_prompt: [{ role: "HUMAN", prompt: `q${k}` }],
      prediction: `p${k}`,
      gold: [`g${k}`],
    });
    write(join(m, "bbeh_nycc_0.json"), { "0": rec(0), "1": rec(1) });
    write(join(m, "bbeh_nycc_1.json"), { "0": rec(2), "7": rec(3), "x": rec(4), "1": null });
    write(join(m, "bbeh_nycc_3.json"), { "0": rec(5) }); // after a missing part 2
    write(join(m, "bbh-navigate.json"), {
      "0": { prediction: ["a", "b", 3], gold: ["g", "h"] },
      "1": { prediction: [] },
      "2": { gold: "x" },
      "3": "text",
      "4": { prediction: { nested: 1 }, gold: 2 },
    });
    write(join(r, "bbh-navigate.json"), {
      details: [{ pred: ["A", "B"], correct: [true, 0] }, { pred: "z", correct: 1 }],
    });
    write(join(r, "bbeh_nycc.json"), { details: { "2": { pred: "P", correct: [false] } } });
    write(join(r, "bbh-alone.json"), {
      details: [{ prediction: "x", answer: ["a"] }, { pred: ["y"], gold: "b" }, null, {}],
    });
    // gzip copies of part 0 (counted through decompression) next to a plain part 1
    const gm = join(dir, "gz", "predictions", "m");
    Deno.mkdirSync(gm, { recursive: true });
    Deno.writeFileSync(
      join(gm, "bbeh_nycc_0.json.gz"),
      gzipSync(Deno.readFileSync(join(m, "bbeh_nycc_0.json"))),
    );
    Deno.copyFileSync(join(m, "bbeh_nycc_1.json"), join(gm, "bbeh_nycc_1.json"));
    const files = readTree(dir, false);
    assert.deepEqual(files.map((p) => basename(p)).sort(), [
      "bbeh_nycc_0.json",
      "bbeh_nycc_0.json.gz",
      "bbeh_nycc_1.json",
      "bbeh_nycc_1.json",
      "bbeh_nycc_3.json",
      "bbh-alone.json",
      "bbh-navigate.json",
    ]);
  });
});

Deno.test("mcpbr, openai/evals and BBH release edge cases: every record accounted for", () => {
  withTempDir((dir) => {
    const mcpbr = join(dir, "run-x.json");
    Deno.writeTextFileSync(
      mcpbr,
      "\ufeff" + JSON.stringify({
        metadata: { config: { model: { alias: "s" } } },
        tasks: [
          {
            instance_id: "bbeh_nycc_3",
            mcp: { agent_answer: "a".repeat(500), resolved: true, tokens: { output: 9 } },
            baseline: { error: { code: 1 } },
          },
          { instance_id: "nope", mcp: { agent_answer: "x" } },
          7,
          {
            instance_id: "bbh_navigate_1",
            other: { resolved: false, agent_answer: "y", target: 3 },
            mcp: "z",
          },
          { instance_id: "bbh_navigate_2" },
        ],
      }),
    );
    const evals = join(dir, "oaieval.log");
    Deno.writeTextFileSync(
      evals,
      [
        '{"spec": {"completion_fns": ["gpt-x"], "eval_name": "bbh_navigate.dev.v0", "run_id": "r"}}',
        '{"run_id": "r", "event_id": 5, "sample_id": "navigate.dev.3", "type": "match", "data": {"correct": true, "expected": ["Yes", "No"], "picked": "Yes"}}',
        "\r",
        '{"run_id": "r", "event_id": 2, "sample_id": "navigate.dev.3", "type": "sampling", "data": {"prompt": [{"role": "user", "content": "q"}], "sampled": ["Yes"]}}',
        "[1, 2]",
        '{"run_id": "r", "event_id": 1, "type": "sampling", "data": {}}',
        '{"run_id": "r", "event_id": 3, "sample_id": "navigate.dev.x", "type": "match", "data": {}}',
        '{"final_report": {"n_samples": 9}}',
        '{"run_id": "r", "sample_id": "navigate.dev.4", "type": "sampling", "data": {"sampled": 4}}',
        '{"broken',
      ].join("\n"),
    );
    const run = join(dir, "code-davinci-002-direct");
    Deno.mkdirSync(run);
    const release = join(run, "snarks_few_shot_template_0-255000.json");
    Deno.writeTextFileSync(
      release,
      JSON.stringify({
        canary: "c",
        outputs: [{ input: "Q\nA:", prediction: "(A)", target: "(A)" }, null, "x", {
          input: 4,
          prediction: null,
        }],
      }),
    );
    // mcpbr: tasks 2 (bad id), 3 (not an object), 5 (no result) are bad; task 1's mcp and
    // task 4's other condition are records (its mcp is not an object: bad)
    const m = collect("mcpbr", mcpbr);
    assert.ok(m.records.length >= 2 && m.bad.length >= 3, JSON.stringify(m.bad));
    assert.ok(m.bad.every((b) => b.line >= 1 && b.line <= 5));
    // openai/evals: the two samples with a sampling event (dev.3, and dev.4 whose sample is a
    // number, for the check step to name); the other event lines bad or metadata
    const e = collect("openai-evals", evals);
    assert.deepEqual(e.records.map((r) => String(r.response)), ["Yes", "4"]);
    assert.ok(e.bad.length >= 4, JSON.stringify(e.bad));
    // the BBH release file: 4 outputs; null and "x" are not objects (bad), the first and the
    // last are records (the last's number input and null prediction: for the check step)
    const b = collect("bbh-release-outputs", release);
    assert.deepEqual([b.records.map((r) => r.line), b.bad.map((x) => x.line)], [[1, 4], [2, 3]]);
  });
});
