/**
 * Differential tests of the streaming path's document sources (`lib/logs/sources/`) against
 * today's readers (`logs/inspect.ts`, `opencompass.ts`, `mcpbr.ts`, `openai_evals.ts`,
 * `bbh_release.ts`): on every fixture of a document format, on the real logs in
 * `<data>/logs` and the BBH release outputs, on edge cases built here (crashed inspect runs,
 * content blocks, bare NaN, epochs, mixed compression, OpenCompass partitions, bad records of
 * every kind), and gzip-compressed copies of all of them — the same records (line, canonical
 * fields as text, stored verdict, tool extraction) and the same bad records (line, reason,
 * run).
 * @module
 */
import assert from "node:assert/strict";
import { basename, dirname, join, relative } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { strToU8, zipSync } from "fflate";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { readBbhReleaseLog } from "@runlens/logs/bbh_release.ts";
import { detectFormat } from "@runlens/logs/detect.ts";
import { readInspectLog } from "@runlens/logs/inspect.ts";
import { readMcpbrLog } from "@runlens/logs/mcpbr.ts";
import { readOpenAiEvalsLog } from "@runlens/logs/openai_evals.ts";
import { readOpenCompassPredictions, readOpenCompassResults } from "@runlens/logs/opencompass.ts";
import type { RawLog } from "@runlens/logs/raw.ts";
import { isDocumentFormat } from "@runlens/logs/sources/documents.ts";
import { readMemberResponse } from "@runlens/logs/sources/inspect.ts";
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { collect, differences, sameOutput } from "./_sources_diff.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

const FORMATS = join(REPO_ROOT, "tests", "fixtures", "logs", "formats");

/** Today's reader of `format` on `path` (gzip: on the decompressed text, as `read_log.ts`). */
function today(format: string, path: string, gzip = false): RawLog {
  if (gzip) {
    const name = path.replace(/\.gz$/i, "");
    const text = new TextDecoder().decode(gunzipSync(Deno.readFileSync(path)));
    switch (format) {
      case "opencompass-predictions":
        return readOpenCompassPredictions(name, text);
      case "opencompass-results":
        return readOpenCompassResults(name, text);
      case "mcpbr":
        return readMcpbrLog(name, text);
      case "openai-evals":
        return readOpenAiEvalsLog(name, text);
      case "bbh-release-outputs":
        return readBbhReleaseLog(name, text);
    }
  }
  switch (format) {
    case "inspect-eval":
    case "inspect-json":
      return readInspectLog(path);
    case "opencompass-predictions":
      return readOpenCompassPredictions(path);
    case "opencompass-results":
      return readOpenCompassResults(path);
    case "mcpbr":
      return readMcpbrLog(path);
    case "openai-evals":
      return readOpenAiEvalsLog(path);
    case "bbh-release-outputs":
      return readBbhReleaseLog(path);
  }
  throw new Error(`no reader for ${format}`);
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
 * Compare both readers on every document log under `dir` (format by today's detection);
 * returns the files compared. With `gzipCopies`, also a gzip copy of each (in a mirror tree,
 * so that sibling files still apply) must read like the plain file.
 */
function compareTree(dir: string, gzipCopies = true): string[] {
  const compared: string[] = [];
  const problems: string[] = [];
  let pointers = 0;
  for (const path of walk(dir)) {
    const { format, gzip } = detectFormat(path);
    if (format === null || !isDocumentFormat(format) || (gzip && format.startsWith("inspect"))) {
      continue;
    }
    compared.push(path);
    let raw: RawLog | null = null;
    let todayError: string | null = null;
    try {
      raw = today(format, path, gzip);
    } catch (e) {
      todayError = (e as Error).message;
    }
    let mine;
    try {
      mine = collect(format, path, { gzip });
    } catch (e) {
      if (todayError === null) problems.push(`${path}: source failed: ${(e as Error).message}`);
      continue;
    }
    if (todayError !== null) {
      problems.push(`${path}: today fails (${todayError}), the source reads it`);
      continue;
    }
    problems.push(...differences(raw!, mine));
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
      for (const path of compared) {
        const rel = relative(dir, path);
        const plain = join(mirror, rel);
        Deno.mkdirSync(dirname(plain), { recursive: true });
        Deno.copyFileSync(path, plain);
      }
      for (const path of compared) {
        const plain = join(mirror, relative(dir, path));
        const gz = `${plain}.gz`;
        Deno.writeFileSync(gz, gzipSync(Deno.readFileSync(plain)));
        const format = detectFormat(path).format!;
        const a = collect(format, plain);
        // the gzip copy is read under its own name (without .gz) while the plain one is gone
        const keep = Deno.readFileSync(plain);
        Deno.removeSync(plain);
        try {
          const b = collect(format, gz, { gzip: true });
          problems.push(...sameOutput(a, b).map((d) => `${rel(path)} (gzip): ${d}`));
        } finally {
          Deno.writeFileSync(plain, keep);
          Deno.removeSync(gz);
        }
      }
    });
  }
  assert.deepEqual(problems, []);
  if (compared.some((p) => p.endsWith(".eval"))) assert.ok(pointers > 0, "member pointers checked");
  return compared;

  function rel(p: string) {
    return relative(dir, p);
  }
}

Deno.test("document sources = today's readers on every fixture (and their gzip copies)", () => {
  const compared = compareTree(FORMATS);
  const formats = new Set(compared.map((p) => detectFormat(p).format));
  assert.deepEqual([...formats].sort(), [
    "inspect-eval",
    "mcpbr",
    "openai-evals",
    "opencompass-predictions",
    "opencompass-results",
  ]);
  assert.ok(compared.length >= 10, `${compared.length} files`);
});

dataTest("document sources = today's readers on the real logs and the BBH release", (data) => {
  const real = compareTree(join(data, "logs"));
  assert.deepEqual(real.map((p) => basename(p)).sort(), [
    "2025-02-11T15-17-00-05-00_popularity_dPiJifoWeEQBrfWsAopzWr.eval",
    "inspect_ai__log_read_sample.json",
    "inspect_ai__log_streaming__2epochs.eval",
    "inspect_ai__mmlu-summary-choices.eval",
    "openai_evals__self_prompting_oriprompt.log",
  ]);
  const release = compareTree(join(data, "bbh", "code-davinci-002-outputs"), false);
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

Deno.test("inspect edge cases = today: crashed run, blocks, NaN, epochs, ids, mixed methods", () => {
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
    const problems: string[] = [];
    for (const [path, format] of [[crashed, "inspect-eval"], [legacy, "inspect-json"]]) {
      problems.push(...differences(today(format, path), collect(format, path)));
    }
    assert.deepEqual(problems, []);
    const mine = collect("inspect-eval", crashed);
    assert.deepEqual(mine.records.map((r) => [r.line, r.response, r.pointer?.kind]), [
      [1, "from messages", "member"],
      [2, "AB", "inline"], // two text blocks: joined, no single span
      [3, "plain", "member"],
      [4, "only", "member"],
      [5, "from messages", "member"], // content 5 is no text: the messages are
    ]);
  });
});

Deno.test("opencompass partitions and bad records = today (plain and gzip parts)", () => {
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
    const problems = compareTreeNoGzip(dir);
    assert.deepEqual(problems.files.map((p) => basename(p)).sort(), [
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

/** {@link compareTree} without gzip copies, returning the files. */
function compareTreeNoGzip(dir: string): { files: string[] } {
  return { files: compareTree(dir, false) };
}

Deno.test("mcpbr, openai/evals and BBH release edge cases = today", () => {
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
    const problems = [
      ...differences(today("mcpbr", mcpbr), collect("mcpbr", mcpbr)),
      ...differences(today("openai-evals", evals), collect("openai-evals", evals)),
      ...differences(
        today("bbh-release-outputs", release),
        collect("bbh-release-outputs", release),
      ),
    ];
    assert.deepEqual(problems, []);
  });
});
