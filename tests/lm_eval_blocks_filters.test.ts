/**
 * lm-eval samples read by the lm-eval source: escapes, unicode and filters across a file,
 * filters named from the results file, multiple choice; repeats become epochs; several filters per response are scored once, from the filter the scorer
 * reproduces (or the one asked for), and stored verdicts are compared with that filter's.
 * Fixtures are written here from the documented format (../shared/notes/log-formats.md).
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { loadBbhDataset } from "@runlens/benchmarks/bbh/dataset.ts";
import { parseScoreArgs } from "@runlens/cli/score.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { dataTest } from "./_data.ts";
import { readFiles } from "./_read.ts";
import { withTempDir } from "./_tmp.ts";

const DATE = "2025-01-25T04-48-43.622918";

/** Run `fn` in a fresh model folder `org__model` inside a temp dir. */
const withOutDir = <T>(fn: (dir: string) => T): T =>
  withTempDir((root) => {
    const dir = join(root, "org__model");
    Deno.mkdirSync(dir);
    return fn(dir);
  });

/** A results file naming the model and snarks' two filters in YAML order. */
function writeSnarksResults(dir: string): void {
  Deno.writeTextFileSync(
    join(dir, `results_${DATE}.json`),
    JSON.stringify({
      model_name: "org/model",
      configs: {
        bbh_cot_zeroshot_snarks: {
          filter_list: [{ name: "strict-match" }, { name: "flexible-extract" }],
        },
      },
    }),
  );
}

const jsonl = (rows: unknown[]) => rows.map((r) => JSON.stringify(r)).join("\n") + "\n";

/** A ≥ v0.4.7 generative line. */
function line(
  docId: number,
  input: string,
  target: string | null,
  resp: string,
  filter: string,
  extracted: string,
  metric: number,
) {
  return {
    doc_id: docId,
    doc: { input, target: target ?? "doc-target" },
    target,
    arguments: {
      gen_args_0: { arg_0: `Q: ${input}\nA:`, arg_1: { until: ["Q:"], do_sample: false } },
    },
    resps: [[resp]],
    filtered_resps: [extracted],
    filter,
    metrics: ["exact_match"],
    doc_hash: "d",
    prompt_hash: "p",
    target_hash: "t",
    exact_match: metric,
  };
}

/** Lines with texts that need care: escapes, unicode, empty, spaces, CRLF. */
function tricky(n: number) {
  const out = [];
  for (let i = 0; i < n; i++) {
    const resp = [
      `Step 1: "quoted" \\ back\\slash\ttab\nSo the answer is (A).`,
      "日本語 — ünïcödé 🎲 So the answer is (B).",
      "",
      "  leading and trailing spaces  ",
      "line\r\nwith CRLF inside",
    ][i % 5];
    const target = i % 7 === 3 ? null : ["(A)", "(B)"][i % 2];
    for (const [filter, metric] of [["strict-match", i % 2], ["flexible-extract", (i + 1) % 2]]) {
      out.push(
        line(i, `Question ${i}?`, target, resp, filter as string, `(${i})`, metric as number),
      );
    }
  }
  return out;
}

/** The records of one samples file: fields as text, with filter and the tool's verdict. */
function recordsOf(file: string) {
  const [f] = readFiles([file]);
  assert.equal(f.error, null);
  return {
    rowsIn: f.records.length + f.bad.length,
    bad: f.bad,
    rows: f.records.map((r) => ({
      ...r.fields,
      line: r.line,
      filter: r.filter,
      stored_correct: r.stored_correct ?? null,
      tool_extracted: r.tool_extracted,
    })),
  };
}

Deno.test("lm-eval: escapes, unicode, filters and a truncated last line", () => {
  withOutDir((dir) => {
    const good = join(dir, `samples_bbh_cot_zeroshot_snarks_${DATE}.jsonl`);
    const text = jsonl(tricky(40));
    Deno.writeTextFileSync(good, text);
    const broken = join(dir, `samples_bbh_cot_zeroshot_hyperbaton_${DATE}.jsonl`);
    Deno.writeTextFileSync(broken, text + '{"doc_id": 40, "doc": {"inp');
    const fast = recordsOf(good);
    const slow = recordsOf(broken);
    assert.equal(fast.rows.length, 80);
    assert.equal(fast.rowsIn, 80);
    assert.equal(slow.rowsIn, 81);
    assert.deepEqual(slow.bad.map((b) => [b.line, b.reason.split(" (")[0]]), [
      [81, "truncated last line"],
    ]);
    // the two files differ in their task name, which is both labels of their records
    const a = fast.rows.map((r) => ({ ...r, benchmark: 0, task: 0 }));
    assert.deepEqual(a, slow.rows.map((r) => ({ ...r, benchmark: 0, task: 0 })));
    // spot checks against the lines as written
    const r3 = a.find((r) => r.line === 7)!; // doc 3, strict-match
    assert.equal(r3.example_index, "3");
    assert.equal(r3.target, "doc-target"); // null target → doc.target
    assert.equal(r3.response, "  leading and trailing spaces  ");
    assert.deepEqual([r3.filter, r3.tool_extracted, r3.stored_correct], [
      "strict-match",
      "(3)",
      true,
    ]);
    assert.equal(a[0].response, `Step 1: "quoted" \\ back\\slash\ttab\nSo the answer is (A).`);
    assert.equal(a[2].response, "日本語 — ünïcödé 🎲 So the answer is (B).");
    assert.equal(a[4].response, "");
    assert.equal(a[8].response, "line\r\nwith CRLF inside");
    assert.deepEqual(a.slice(0, 4).map((r) => r.filter), [
      "strict-match",
      "flexible-extract",
      "strict-match",
      "flexible-extract",
    ]);
  });
});

Deno.test("lm-eval: filters named from the results file, in YAML order", () => {
  withOutDir((dir) => {
    writeSnarksResults(dir);
    // before v0.4.7: no `filter` key, lines grouped by filter in YAML order
    const plain = tricky(30).map(({ filter: _f, metrics: _m, ...rest }) => rest);
    const grouped = [...plain.filter((_, i) => i % 2 === 0), ...plain.filter((_, i) => i % 2)];
    const file = join(dir, `samples_bbh_cot_zeroshot_snarks_${DATE}.jsonl`);
    Deno.writeTextFileSync(file, jsonl(grouped));
    const { rows } = recordsOf(file);
    assert.deepEqual([...new Set(rows.slice(0, 30).map((r) => r.filter))], ["strict-match"]);
    assert.deepEqual([...new Set(rows.slice(30).map((r) => r.filter))], ["flexible-extract"]);
    assert.equal(rows[0].model, "org/model");
    // no `metrics` key: the verdict comes from exact_match
    assert.deepEqual(rows.slice(0, 4).map((r) => r.stored_correct), [false, true, false, true]);
  });
});

Deno.test("lm-eval repeats: one row per repeat, epoch = repeat number, no stored verdict", () => {
  withOutDir((dir) => {
    const file = join(dir, `samples_bbh_cot_zeroshot_snarks_${DATE}.jsonl`);
    const base = line(0, "Q0", "(A)", "x", "take_first", "(A)", 1);
    Deno.writeTextFileSync(
      file,
      jsonl([
        { ...base, resps: [["So (A).", "So (B).", "So (A)."]] },
        { ...line(1, "Q1", "(B)", "y", "take_first", "(B)", 1), resps: [["(B)", "(B)", "(C)"]] },
      ]),
    );
    const read = recordsOf(file);
    assert.equal(read.rowsIn, 6);
    assert.deepEqual(read.rows.map((r) => [r.line, r.example_index, r.epoch, r.response]), [
      [1, "0", "1", "So (A)."],
      [1, "0", "2", "So (B)."],
      [1, "0", "3", "So (A)."],
      [2, "1", "1", "(B)"],
      [2, "1", "2", "(B)"],
      [2, "1", "3", "(C)"],
    ]);
    assert.ok(read.rows.every((r) => r.stored_correct === null));
  });
});

Deno.test("score CLI: --lm-eval-filter is parsed", () => {
  const args = parseScoreArgs(["x.jsonl", "--lm-eval-filter", "flexible-extract"]);
  assert.equal(typeof args === "string" ? args : args.load?.lmEvalFilter, "flexible-extract");
  assert.equal(parseScoreArgs(["x.jsonl", "--lm-eval-filter"]), "--lm-eval-filter needs a value");
});

dataTest("lm-eval filters: each response scored once, verdicts compared with its filter", async (
  dataDir,
) => {
  const ds = loadBbhDataset(dataDir).filter(pl.col("task").eq(pl.lit("snarks")))
    .sort("example_index").head(3).toRecords() as { input: string; target: string }[];
  await withOutDir(async (dir) => {
    Deno.writeTextFileSync(join(dir, `results_${DATE}.json`), JSON.stringify({ model_name: "m" }));
    const file = join(dir, `samples_bbh_cot_zeroshot_snarks_${DATE}.jsonl`);
    // doc 0: both filters right; doc 1: the response ends "(X)" — strict finds nothing
    // ("So the answer is" absent) but flexible takes the last "(A)"/"(B)"; doc 2: wrong
    const wrong = ds[2].target === "(A)" ? "(B)" : "(A)";
    const resp = [
      `Let's think. So the answer is ${ds[0].target}.`,
      `Hmm ${ds[1].target}`,
      `So the answer is ${wrong}.`,
    ];
    const lines = [];
    for (let i = 0; i < 3; i++) {
      const strictRight = i === 0;
      const flexRight = i !== 2;
      lines.push(
        line(i, ds[i].input, ds[i].target, resp[i], "strict-match", "", strictRight ? 1 : 0),
      );
      lines.push(
        line(i, ds[i].input, ds[i].target, resp[i], "flexible-extract", "", flexRight ? 1 : 0),
      );
    }
    Deno.writeTextFileSync(file, jsonl(lines));
    const check = async (
      options: { scorer?: string; lmEvalFilter?: string },
      keptFilter: string,
      correct: boolean[],
    ) => {
      const loaded = await loadRuns([file], dataDir, options);
      // the CLI's lean rows (responses dropped early) keep the same filter and verdicts
      const lean = await loadRuns([file], dataDir, { ...options, responses: false });
      assert.deepEqual(lean.runs, loaded.runs);
      assert.deepEqual(lean.quarantine, loaded.quarantine);
      const [run] = loaded.runs;
      assert.deepEqual([run.rows_in, run.rows_scored, run.rows_quarantined], [6, 3, 3]);
      const kept = loaded.rows.getColumn("lm_eval_filter").toArray() as string[];
      assert.deepEqual(kept, [keptFilter, keptFilter, keptFilter]);
      assert.ok(loaded.quarantine.every((q) => q.reason.includes(`(filter "${keptFilter}")`)));
      assert.deepEqual(loaded.rows.getColumn("correct").toArray(), correct);
      return run;
    };
    const strict = await check({ scorer: "lm-eval-strict" }, "strict-match", [true, false, false]);
    assert.deepEqual([strict.stored_agreement.n, strict.stored_agreement.agree], [3, 3]);
    const flex = await check({ scorer: "lm-eval-flexible" }, "flexible-extract", [
      true,
      true,
      false,
    ]);
    assert.deepEqual([flex.stored_agreement.n, flex.stored_agreement.agree], [3, 3]);
    // default scorer (BBH release rule: text after "So the answer is", else all of it — doc 1
    // fails): the file's first filter; an explicit filter wins over the scorer's
    await check({}, "strict-match", [true, false, false]);
    const mixed = await check(
      { scorer: "lm-eval-strict", lmEvalFilter: "flexible-extract" },
      "flexible-extract",
      [true, false, false],
    );
    // strict re-score vs flexible verdicts: doc 1 disagrees, and is listed
    assert.deepEqual([mixed.stored_agreement.agree, mixed.stored_agreement.disagree], [2, 1]);
  });
});

Deno.test("lm-eval: many kinds of samples files, each read on its own", () => {
  withOutDir((dir) => {
    writeSnarksResults(dir);
    const path = (task: string) => join(dir, `samples_${task}_${DATE}.jsonl`);
    const plain = (n: number) => tricky(n).map(({ filter: _f, ...rest }) => rest);
    const files: [string, string][] = [
      // filters named from the results file (no `filter` key)
      [path("bbh_cot_zeroshot_snarks"), jsonl(plain(6))],
      [path("bbh_cot_fewshot_navigate"), jsonl(tricky(5))],
      // multiple choice: must not be turned into text by a shared parse
      [
        path("leaderboard_bbh_hyperbaton"),
        jsonl([{
          doc_id: 0,
          doc: { input: "Q", target: "(A)" },
          target: "(A)",
          arguments: {
            gen_args_0: { arg_0: "ctx", arg_1: " (A)" },
            gen_args_1: { arg_0: "ctx", arg_1: " (B)" },
          },
          resps: [[["-2.5", "False"]], [["-0.1", "True"]]],
          filtered_resps: [["-2.5", "False"], ["-0.1", "True"]],
          filter: "none",
          metrics: ["acc"],
          acc: 0.0,
        }]),
      ],
      // one request only: nothing but the nested lists tells it from a text response
      [
        path("leaderboard_bbh_boolean_expressions"),
        jsonl([{
          doc_id: 0,
          doc: { input: "not ( True ) and ( True ) is", target: "False" },
          target: "False",
          arguments: { gen_args_0: { arg_0: "ctx", arg_1: " True" } },
          resps: [[["-0.5", "True"]]],
          filtered_resps: [["-0.5", "True"]],
          filter: "none",
          metrics: ["exact_match"], // as the text files: only resps differs
          exact_match: 0.0,
        }]),
      ],
      // another metric, and a metric that is text on one line
      [
        path("bbh_cot_fewshot_date_understanding"),
        jsonl(
          tricky(3).map((l, i) => ({
            ...l,
            metrics: ["acc"],
            acc: i === 1 ? "1" : 1,
            exact_match: undefined, // dropped by JSON.stringify: no fallback verdict
          })),
        ),
      ],
      [path("bbh_cot_fewshot_ruin_names"), jsonl(tricky(4)) + '{"doc_id": 9, "doc": {"inp'],
      [path("bbh_cot_fewshot_snarks"), JSON.stringify(tricky(2))], // ≤ v0.4.2 array
      [path("bbh_cot_fewshot_sports_understanding"), ""],
      [path("bbh_cot_fewshot_word_sorting"), jsonl(tricky(7))],
    ];
    for (const [file, text] of files) Deno.writeTextFileSync(file, text);
    const names = files.map(([f]) => f);
    const rows = readFiles(names).flatMap((f) =>
      f.records.map((r) => ({ ...r.fields, stored_correct: r.stored_correct ?? null }))
    );
    const mc = rows.find((r) => r.task === "leaderboard_bbh_hyperbaton")!;
    assert.equal(mc.response, "(B)"); // the continuation with the higher log-probability
    const one = rows.find((r) => r.task === "leaderboard_bbh_boolean_expressions")!;
    assert.equal(one.response, "True"); // not the text '["-0.5", "True"]'
    const dates = rows.filter((r) => r.task === "bbh_cot_fewshot_date_understanding");
    // line 2's acc is text: no verdict (JSON.parse path), not the others' unified column
    assert.deepEqual(dates.map((r) => r.stored_correct), [
      true,
      null,
      true,
      true,
      true,
      true,
    ]);
  });
});
