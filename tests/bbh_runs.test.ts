/**
 * BBH runs through `loadRuns`: canonical and lm-eval logs tied to the BBH data set and scored,
 * per-task accuracy and the micro average (full coverage from a run generated at test time),
 * `scorer` choices and their errors, and stored-verdict agreement.
 * @module
 */
import assert from "node:assert/strict";
import { assertTaskCell } from "./_task_cell.ts";
import { join } from "node:path";
import pl from "nodejs-polars";
import { loadBbhDataset } from "@runlens/benchmarks/bbh/dataset.ts";
import { BBH_SIZE } from "@runlens/benchmarks/bbh/tasks.ts";
import { runsReport, runsText } from "@runlens/report/runs_text.ts";
import { loadRuns, ScorerChoiceError } from "@runlens/pipeline/load.ts";
import { getScorer } from "@runlens/benchmarks/registry.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

const BBH = new URL("./fixtures/logs/bbh/", import.meta.url).pathname;
const CANONICAL = join(BBH, "canonical.jsonl");
const LM_EVAL = join(BBH, "lm_eval");
const jsonl = (records: unknown[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

dataTest(
  "BBH canonical rows: tied by index, scored with bbh-release-cot, quarantined",
  async (dir) => {
    const loaded = await loadRuns([CANONICAL], dir);
    assert.equal(loaded.runs.length, 1);
    const [run] = loaded.runs;
    assert.deepEqual(
      [run.run, run.benchmark, run.scorer, run.rows_in, run.rows_scored, run.rows_quarantined],
      ["bbh-canon", "bbh", "bbh-release-cot", 9, 6, 3],
    );
    assert.deepEqual(Object.keys(run.tasks), ["boolean_expressions", "navigate", "snarks"]);
    assertTaskCell(run.tasks.boolean_expressions as never, { n: 2, correct: 1, accuracy: 50 });
    assertTaskCell(run.tasks.navigate as never, { n: 2, correct: 2, accuracy: 100 });
    assertTaskCell(run.tasks.snarks as never, { n: 2, correct: 1, accuracy: 50 });
    assert.deepEqual(run.aggregate, {
      micro: null,
      coverage: "partial",
      note: `covers 6 of ${BBH_SIZE} examples (3 of 27 tasks); micro needs the full set`,
    });
    assert.deepEqual(loaded.quarantine.map((q) => [q.line, q.reason]), [
      [6, "example_index 250 out of range for navigate (0–249)"],
      [7, 'unknown task "nycc" (not a BBH task)'],
      [8, `duplicate of ${CANONICAL}:1 (same run, task, example_index and epoch)`],
    ]);
    const rows = loaded.rows.select("benchmark", "task", "example_index", "extracted", "correct")
      .toRecords();
    assert.deepEqual(rows.map((r) => r.benchmark), Array(6).fill("bbh"));
    assert.deepEqual(rows[4], {
      benchmark: "bbh",
      task: "navigate",
      example_index: 0, // label bbh_cot_fewshot_navigate
      extracted: "No",
      correct: true,
    });
    const report = runsReport(loaded).runs[0];
    assert.deepEqual(Object.keys(report.aggregate), ["micro", "coverage", "note", "ci"]);
    const text = runsText(loaded);
    assert.ok(text.includes("run bbh-canon  (bbh, model tiny, scorer bbh-release-cot)\n"));
    assert.ok(text.includes("  BBH micro (correct / 6,511): —   coverage: partial\n"));
  },
);

dataTest(
  "BBH: --scorer variants score the same rows differently, recorded on every row",
  async (dir) => {
    const ds = loadBbhDataset(dir);
    for (const name of ["last-line", "bbh-release-direct", "lm-eval-get-answer"]) {
      const loaded = await loadRuns([CANONICAL], dir, { scorer: name });
      assert.equal(loaded.runs[0].scorer, name);
      assert.deepEqual(loaded.rows.getColumn("scorer").unique().toArray(), [name]);
      // every verdict equals the scalar form of the rule against the data set's target
      const rows = loaded.rows.join(
        ds.select("task", pl.col("example_index").cast(pl.Int32), pl.col("target").alias("t")),
        { on: ["task", "example_index"] },
      ).select("response", "t", "correct", "extracted").toRecords() as {
        response: string;
        t: string;
        correct: boolean;
        extracted: string | null;
      }[];
      for (const r of rows) {
        const want = getScorer(name).score(r.response, r.t);
        assert.equal(r.correct, want.correct, `${name}: ${r.response}`);
        assert.equal(r.extracted, want.extracted, `${name}: ${r.response}`);
      }
    }
    const lastLine = await loadRuns([CANONICAL], dir, { scorer: "last-line" });
    const line9 = lastLine.rows.filter(pl.col("source_line").eq(9));
    assert.equal(line9.getColumn("correct").toArray()[0], true); // "True" on the last line
    const cot = (await loadRuns([CANONICAL], dir)).rows.filter(pl.col("source_line").eq(9));
    assert.equal(cot.getColumn("correct").toArray()[0], false);
  },
);

dataTest("scorer errors: unknown names and scorers that do not apply to the rows", async (dir) => {
  await assert.rejects(
    () => loadRuns([CANONICAL], dir, { scorer: "exact" }),
    (e: Error) =>
      e instanceof ScorerChoiceError &&
      /^unknown scorer "exact"; scorers: bbeh-official, bbh-release-cot, /.test(e.message),
  );
  await assert.rejects(
    () => loadRuns([CANONICAL], dir, { scorer: "bbeh-official" }),
    (e: Error) =>
      e instanceof ScorerChoiceError &&
      /^scorer bbeh-official does not apply to the bbh rows of these logs; scorers for bbh: bbh-release-cot, /
        .test(e.message),
  );
  const bbeh = join(BBH, "..", "tree", "a.jsonl");
  await assert.rejects(
    () => loadRuns([bbeh], dir, { scorer: "last-line" }),
    /scorer last-line does not apply to the bbeh rows of these logs; scorers for bbeh: .*bbeh-official/,
  );
  // stored applies to both
  assert.equal((await loadRuns([bbeh], dir, { scorer: "stored" })).runs[0].scorer, "stored");
});

dataTest("lm-eval BBH samples: stored-verdict agreement with known disagreements", async (dir) => {
  const loaded = await loadRuns([LM_EVAL], dir);
  const [run] = loaded.runs;
  assert.deepEqual(
    [run.run, run.model, run.benchmark, run.rows_in, run.rows_scored, run.format],
    ["org__tiny-model_2025-01-25T04-48-43.622918", "org/tiny-model", "bbh", 5, 5, "lm-eval"],
  );
  const file = loaded.files[0];
  assert.deepEqual(run.stored_agreement, {
    n: 4,
    agree: 2,
    disagree: 2,
    examples: [
      {
        file,
        line: 2,
        task: "snarks",
        example_index: 1,
        extracted: "(A)",
        tool_extracted: "(A)",
        stored: false,
        ours: true,
      },
      {
        file,
        line: 4,
        task: "snarks",
        example_index: 3,
        extracted: "The second is ironic. Thus the answer is (B)",
        tool_extracted: "(B)",
        stored: true,
        ours: false,
      },
    ],
  });
  const text = runsText(loaded);
  assert.ok(text.includes("  stored verdicts: 4 rows, 2 agree with the re-score, 2 disagree\n"));
  assert.ok(
    text.includes(
      `    ${file}:2 snarks[1]: extracted "(A)" (tool extracted "(A)"), stored false, ours true\n`,
    ),
  );
  assert.deepEqual(runsReport(loaded).runs[0].stored_agreement, run.stored_agreement);

  // lm-eval's own rule agrees more often; `stored` agrees always and cannot score line 5
  const getAnswer = (await loadRuns([LM_EVAL], dir, { scorer: "lm-eval-get-answer" })).runs[0];
  assert.deepEqual([getAnswer.stored_agreement.agree, getAnswer.stored_agreement.disagree], [3, 1]);
  const stored = await loadRuns([LM_EVAL], dir, { scorer: "stored" });
  assert.deepEqual(
    [stored.runs[0].rows_in, stored.runs[0].rows_scored, stored.runs[0].rows_quarantined],
    [5, 4, 1],
  );
  assert.equal(stored.runs[0].stored_agreement.disagree, 0);
  assert.deepEqual(stored.quarantine.map((q) => [q.line, q.reason]), [
    [5, "scorer stored gives no verdict for snarks[4] (the log stores none)"],
  ]);
});

dataTest(
  "BBH full coverage: the micro average over 6,511 examples, from a generated run",
  async (dir) => {
    const ds = loadBbhDataset(dir).select("task", "example_index", "target").toRecords() as {
      task: string;
      example_index: number;
      target: string;
    }[];
    assert.equal(ds.length, BBH_SIZE);
    await withTempDir(async (tmp) => {
      // every 7th answer is wrong; half the rows carry no index but the lm-eval task label
      const records = ds.map((e, i) => ({
        benchmark: "bbh",
        task: i % 2 === 0 ? e.task : `bbh_cot_fewshot_${e.task}`,
        example_index: e.example_index,
        response: `Thinking. So the answer is ${i % 7 === 0 ? "nothing" : e.target}.`,
      }));
      const wrong = records.filter((_, i) => i % 7 === 0).length;
      Deno.writeTextFileSync(join(tmp, "full.jsonl"), jsonl(records));
      const loaded = await loadRuns([tmp], dir, { responses: false });
      const [run] = loaded.runs;
      assert.deepEqual([run.rows_in, run.rows_scored, run.rows_quarantined], [
        BBH_SIZE,
        BBH_SIZE,
        0,
      ]);
      assert.equal(Object.keys(run.tasks).length, 27);
      assert.equal(run.aggregate.coverage, "full");
      assert.equal(run.aggregate.note, null);
      assert.equal(run.aggregate.micro, (BBH_SIZE - wrong) / BBH_SIZE * 100);
      const report = runsReport(loaded).runs[0];
      // one row per example: the CLT standard error of a proportion, sqrt(p(1-p)/(n-1)), and
      // Wilson's interval (p + z²/2n ± z·√(p(1−p)/n + z²/4n²)) / (1 + z²/n)
      const p = (BBH_SIZE - wrong) / BBH_SIZE;
      const se = Math.sqrt(p * (1 - p) / (BBH_SIZE - 1)) * 100;
      const r2 = (x: number) => Math.round(x * 100) / 100;
      const [z, n] = [1.959963984540054, BBH_SIZE];
      const centre = (p + z * z / (2 * n)) / (1 + z * z / n);
      const half = z * Math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n);
      assert.deepEqual(report.aggregate, {
        micro: Math.round((BBH_SIZE - wrong) / BBH_SIZE * 10000) / 100,
        coverage: "full",
        note: null,
        ci: {
          micro: {
            ci_low: r2(100 * (centre - half)),
            ci_high: r2(100 * (centre + half)),
            se: r2(se),
            method: "Wilson",
          },
        },
      });
      assert.equal(loaded.rows.getColumn("response").nullCount(), BBH_SIZE);
    });
  },
);

dataTest(
  "a run with BBEH and BBH rows: one summary per benchmark, same task names apart",
  async (dir) => {
    await withTempDir(async (tmp) => {
      Deno.writeTextFileSync(
        join(tmp, "both.jsonl"),
        jsonl([
          { benchmark: "bbh", task: "word_sorting", example_index: 0, response: "x" },
          { benchmark: "bbeh", task: "word_sorting", example_index: 0, response: "x" },
          { benchmark: "bbh", task: "word_sorting", example_index: 0, response: "again" },
        ]),
      );
      const loaded = await loadRuns([tmp], dir);
      assert.deepEqual(
        loaded.runs.map((r) => [r.benchmark, r.scorer, r.rows_in, r.rows_scored]),
        [["bbeh", "bbeh-official", 1, 1], ["bbh", "bbh-release-cot", 2, 1]],
      );
      for (const r of loaded.runs) {
        assert.deepEqual(Object.keys(r.tasks), ["word_sorting"]);
        assertTaskCell(r.tasks.word_sorting as never, { n: 1, correct: 0, accuracy: 0 });
      }
      assert.match(loaded.quarantine[0].reason, /^duplicate of .*both\.jsonl:1 /);
    });
  },
);
