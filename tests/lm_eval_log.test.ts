/**
 * Tests of the lm-evaluation-harness `--log_samples` source (`logs/sources/lm_eval.ts`), its
 * format detection and its path through `loadRuns`. Fixtures are written here from the documented
 * formats (../shared/notes/log-formats.md), one per generation of the format.
 * @module
 */
import assert from "node:assert/strict";
import { assertTaskCell } from "./_task_cell.ts";
import { dirname, join } from "node:path";
import pl from "nodejs-polars";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { discover } from "@runlens/logs/discover.ts";
import {
  lmEvalModel,
  lmEvalResponseValue,
  parseLmEvalFileName,
} from "@runlens/logs/sources/lm_eval.ts";
import { Labels } from "@runlens/pipeline/labels.ts";
import { benchmarks } from "@runlens/benchmarks/registry.ts";
import { runsReport } from "@runlens/report/runs_text.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { LM_EVAL_BBH } from "@runlens/benchmarks/bbh/versions.ts";
import { dataTest } from "./_data.ts";
import { scoredBenchmarks } from "./_examples.ts";
import { answerWith, score, wholeSnarks88, WRONG } from "./_shapes.ts";
import { readChecked, readFiles } from "./_read.ts";
import { withTempDir } from "./_tmp.ts";

const formatOf = (path: string) => discover([path]).files[0]?.format ?? null;

const DATE = "2025-01-25T04-48-43.622918";
const MODEL_DIR = "meta-llama__Llama-3.1-8B";

/** A ≥ v0.4.7 line: `filter`, `metrics` and the metric value at top level. */
function line047(docId: number, input: string, target: string, resp: string, filter: string) {
  const correct = resp.includes(target) ? 1.0 : 0.0;
  return {
    doc_id: docId,
    doc: { input, target },
    target,
    arguments: { gen_args_0: { arg_0: `Q: ${input}\nA:`, arg_1: { until: ["Q:"] } } },
    resps: [[resp]],
    filtered_resps: [correct ? target : "[invalid]"],
    filter,
    metrics: ["exact_match"],
    doc_hash: "d",
    prompt_hash: "p",
    target_hash: "t",
    exact_match: correct,
  };
}

/** A ≤ v0.4.6 line: no `filter`/`metrics`. */
function lineOld(docId: number, input: string, target: string, resp: string) {
  const { filter: _f, metrics: _m, doc_hash: _d, prompt_hash: _p, target_hash: _t, ...rest } =
    line047(docId, input, target, resp, "x");
  return rest;
}

/** Run `fn` in a fresh model folder `MODEL_DIR` inside a temp dir. */
const withOutDir = <T>(fn: (dir: string) => T): T =>
  withTempDir((root) => {
    const dir = join(root, MODEL_DIR);
    Deno.mkdirSync(dir);
    return fn(dir);
  });

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

function writeResults(dir: string, extra: Record<string, unknown> = {}) {
  Deno.writeTextFileSync(
    join(dir, `results_${DATE}.json`),
    JSON.stringify({
      results: { bbh_cot_zeroshot_snarks: { "exact_match,strict-match": 0.5 } },
      configs: {
        bbh_cot_zeroshot_snarks: {
          filter_list: [{ name: "strict-match" }, { name: "flexible-extract" }],
        },
      },
      config: { model_args: "pretrained=meta-llama/Llama-3.1-8B,dtype=bfloat16" },
      ...extra,
    }),
  );
}

Deno.test("lm-eval: file names, task names, model names", () => {
  assert.deepEqual(parseLmEvalFileName(`out/m/samples_bbh_cot_fewshot_snarks_${DATE}.jsonl`), {
    task: "bbh_cot_fewshot_snarks",
    dateId: DATE,
  });
  assert.equal(parseLmEvalFileName("results_2025-01-25T04-48-43.json"), null);
  // a samples file's task name is both labels of its records; the pipeline resolves it
  const labels = new Labels(benchmarks());
  const lmEvalTask = (name: string) => labels.resolve(name, name);
  assert.deepEqual(lmEvalTask("bbeh_zeroshot_boardgame_qa"), {
    benchmark: "bbeh",
    task: "boardgame_qa",
  });
  assert.deepEqual(lmEvalTask("bbeh_nycc"), { benchmark: "bbeh", task: "nycc" });
  // BBH shares subtask names with BBEH: never taken for BBEH
  assert.deepEqual(lmEvalTask("bbh_cot_fewshot_boolean_expressions"), {
    benchmark: "bbh",
    task: "boolean_expressions",
  });
  assert.deepEqual(lmEvalTask("leaderboard_bbh_snarks"), { benchmark: "bbh", task: "snarks" });
  assert.deepEqual(lmEvalTask("gsm8k"), { benchmark: "gsm8k", task: "gsm8k" });
  assert.equal(lmEvalModel({ model_name: "org/m", config: {} }), "org/m");
  assert.equal(lmEvalModel({ config: { model_args: "dtype=x,pretrained=org/m" } }), "org/m");
  assert.equal(lmEvalModel({ config: { model_args: { pretrained: "org/n" } } }), "org/n");
  assert.equal(lmEvalModel({}), null);
});

Deno.test("lm-eval ≥ v0.4.7: one row per (doc, filter), model from the results file", () => {
  withOutDir((dir) => {
    writeResults(dir);
    const file = join(dir, `samples_bbh_cot_zeroshot_snarks_${DATE}.jsonl`);
    Deno.writeTextFileSync(
      file,
      jsonl([
        line047(0, "Q0", "(A)", "So the answer is (A).", "strict-match"),
        line047(0, "Q0", "(A)", "So the answer is (A).", "flexible-extract"),
        line047(1, "Q1", "(B)", "I think (A)", "strict-match"),
        line047(1, "Q1", "(B)", "I think (A)", "flexible-extract"),
      ]) + '{"doc_id": 2, "doc": {"inp',
    );
    assert.equal(formatOf(file), "lm-eval");
    const [read] = readFiles([file]);
    assert.equal(read.records.length + read.bad.length, 5);
    assert.equal(read.records.length, 4);
    assert.deepEqual(read.bad.map((b) => [b.line, b.reason.split(" (")[0]]), [
      [5, "truncated last line"],
    ]);
    const rows = read.records.map((r) => r.fields);
    assert.deepEqual(read.records.map((r) => r.line), [1, 2, 3, 4]);
    assert.deepEqual(rows[0].run, `${MODEL_DIR}_${DATE}`);
    assert.equal(rows[0].model, "meta-llama/Llama-3.1-8B");
    // the file name's task name, for both labels (the pipeline resolves it: bbh, snarks)
    assert.equal(rows[0].benchmark, "bbh_cot_zeroshot_snarks");
    assert.equal(rows[0].task, "bbh_cot_zeroshot_snarks");
    assert.equal(rows[0].example_index, "0");
    assert.equal(rows[0].input, "Q0");
    assert.equal(rows[0].target, "(A)");
    assert.equal(rows[0].response, "So the answer is (A).");
    assert.deepEqual(read.records.map((r) => r.filter), [
      "strict-match",
      "flexible-extract",
      "strict-match",
      "flexible-extract",
    ]);
    assert.deepEqual(read.records.map((r) => r.stored_correct), [true, true, false, false]);
    assert.deepEqual(read.records.map((r) => r.tool_extracted), [
      "(A)",
      "(A)",
      "[invalid]",
      "[invalid]",
    ]);
  });
});

Deno.test("lm-eval ≤ v0.4.2: one JSON array; filters named from the results configs", () => {
  withOutDir((dir) => {
    writeResults(dir, { model_name: "meta-llama/Llama-3.1-8B" });
    const file = join(dir, `samples_bbh_cot_zeroshot_snarks_${DATE}.jsonl`);
    // grouped by filter, in YAML order
    const array = [
      lineOld(0, "Q0", "(A)", "(A)"),
      lineOld(1, "Q1", "(B)", "(B)"),
      lineOld(0, "Q0", "(A)", "(A)"),
      lineOld(1, "Q1", "(B)", "(B)"),
    ];
    Deno.writeTextFileSync(file, JSON.stringify(array, null, 2));
    assert.equal(formatOf(file), "lm-eval");
    const [read] = readFiles([file]);
    assert.equal(read.records.length + read.bad.length, 4);
    assert.deepEqual(read.records.map((r) => r.line), [1, 2, 3, 4]);
    assert.deepEqual(read.records.map((r) => r.filter), [
      "strict-match",
      "strict-match",
      "flexible-extract",
      "flexible-extract",
    ]);
    assert.equal(read.records[0].fields.model, "meta-llama/Llama-3.1-8B");
  });
});

Deno.test("lm-eval May–June 2024: `.json` name, JSON lines inside; no results → folder", () => {
  withOutDir((dir) => {
    const file = join(dir, `samples_bbh_cot_zeroshot_snarks_${DATE}.json`);
    Deno.writeTextFileSync(file, jsonl([lineOld(0, "Q0", "(A)", "(A)")]));
    assert.equal(formatOf(file), "lm-eval");
    const log = readChecked(file);
    assert.equal(log.format, "lm-eval");
    assert.equal(log.rowsIn, 1);
    assert.equal(log.rows[0].model, MODEL_DIR);
    assert.equal(log.rows[0].filter, null); // no filter name known: left out
    assert.equal(log.rows[0].stored_correct, true);
  });
});

Deno.test("lm-eval multiple choice: the continuation with the highest log-probability", () => {
  const line = {
    doc_id: 0,
    arguments: {
      gen_args_0: { arg_0: "ctx", arg_1: " True" },
      gen_args_1: { arg_0: "ctx", arg_1: " False" },
    },
    resps: [[["-2.5", "False"]], [["-0.1", "True"]]],
  };
  assert.equal(lmEvalResponseValue(line), "False");
  assert.equal(lmEvalResponseValue({ resps: [["text"]] }), "text");
  assert.equal(lmEvalResponseValue({ resps: [] }) ?? null, null);
});

dataTest("lm-eval BBEH samples: scored through loadRuns, other filters' lines quarantined", async (
  dataDir,
) => {
  const ds = loadBbehDataset(dataDir).filter(pl.col("task").eq(pl.lit("nycc")))
    .sort("example_index").head(2).toRecords() as { input: string; target: string }[];
  await withOutDir(async (dir) => {
    writeResults(dir, { model_name: "org/model" });
    const file = join(dir, `samples_bbeh_zeroshot_nycc_${DATE}.jsonl`);
    Deno.writeTextFileSync(
      file,
      jsonl([
        line047(0, ds[0].input, ds[0].target, `The answer is: ${ds[0].target}`, "strict-match"),
        line047(0, ds[0].input, ds[0].target, `The answer is: ${ds[0].target}`, "flex"),
        line047(1, ds[1].input, ds[1].target, "The answer is: nothing", "strict-match"),
      ]),
    );
    Deno.writeTextFileSync(join(dir, "notes.json"), '{"hello": 1}');
    const loaded = await loadRuns([dir], dataDir);
    assert.deepEqual(loaded.files, [file]); // results_*.json and notes.json are not logs
    const [run] = loaded.runs;
    assert.equal(run.run, `${MODEL_DIR}_${DATE}`);
    assert.equal(run.model, "org/model");
    assert.equal(run.format, "lm-eval");
    assert.deepEqual([run.rows_in, run.rows_scored, run.rows_quarantined], [3, 2, 1]);
    assertTaskCell(run.tasks.nycc as never, { n: 2, correct: 1, accuracy: 50 });
    assert.equal(
      loaded.quarantine[0].reason,
      'lm-eval filter "flex": the same response is scored once, from line 1 (filter "strict-match")',
    );
    assert.deepEqual(loaded.rows.getColumn("stored_correct").toArray(), [true, false]);
    assert.equal(runsReport(loaded).runs[0].format, "lm-eval");
  });
});

dataTest(
  "runlens score on an lm-eval BBH folder of the lm-eval data version: the results file's exact_match per task",
  async (data) => {
    const bbh = scoredBenchmarks(data)[1].examples;
    const tasks = ["movie_recommendation", "ruin_names", "snarks"];
    const exactMatch: Record<string, Record<string, number>> = {};
    await withOutDir(async (dir) => {
      for (const task of tasks) {
        const lines = bbh[task].map((e, i) => {
          const v = LM_EVAL_BBH.items.find((x) => x.task === task && x.index === i);
          const whole = task === "snarks" && i === 88; // the question the release cut short
          const input = v?.input ?? (whole ? wholeSnarks88(data) : e.input);
          const target = v?.target ?? e.target;
          // correct on every item of the other version, and on two of three others
          const answer = v || i % 3 !== 0 ? target : WRONG;
          return line047(i, input, target, answerWith("bbh", answer), "get-answer");
        });
        const correct = lines.filter((l) => l.exact_match === 1).length;
        exactMatch[`bbh_cot_fewshot_${task}`] = {
          "exact_match,get-answer": correct / lines.length,
        };
        Deno.writeTextFileSync(
          join(dir, `samples_bbh_cot_fewshot_${task}_${DATE}.jsonl`),
          jsonl(lines),
        );
      }
      writeResults(dir, { results: exactMatch, configs: {} });
      const { report, code, stderr } = await score([dir], data, dirname(dir));
      assert.equal(code, 0, stderr);
      assert.equal(report.runs.length, 1);
      const [run] = report.runs;
      assert.deepEqual([run.rows_in, run.rows_quarantined], [250 + 250 + 178, 0]);
      assert.deepEqual(run.data_versions, { "lm-eval": 3 });
      for (const task of tasks) {
        const em = exactMatch[`bbh_cot_fewshot_${task}`]["exact_match,get-answer"];
        assert.equal(run.tasks[task].accuracy, Math.round(em * 10000) / 100, task);
      }
      assert.equal(run.stored_agreement.disagree, 0);
      assert.equal(run.stored_agreement.n, 678);
    });
  },
);
