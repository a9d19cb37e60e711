/**
 * Run names a reviewer's realistic logs broke (issue 14, item 3), as a user meets them
 * (`runlens score` as a subprocess, logs built from the real BBH data set; every expected count
 * and accuracy computed here from how the records were built):
 * - default runs of different folders or files never share a name: `exp1/gpt4o/` and
 *   `exp2/gpt4o/` are `exp1/gpt4o` and `exp2/gpt4o`, `<model>/mc/<task>.jsonl` with
 *   `--run-by file` is `<model>/mc/<task>`, and `<model>/bbh_<task>/predictions.jsonl` (a
 *   folder per task) is one run per model folder.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { dataTest } from "./_data.ts";
import { readBbhExamples } from "./_examples.ts";
import { balanced, expected, rec, runsOf, tasksOf, writeJsonl } from "./_runs.ts";
import { score } from "./_shapes.ts";
import { withTempDir } from "./_tmp.ts";

const TASKS = ["date_understanding", "navigate"] as const;

dataTest("folders of the same name in different places are different runs", async (data) => {
  const bbh = readBbhExamples(data);
  // exp1's answers are right on even examples, exp2's on every third: the two runs differ
  const right = { exp1: (i: number) => i % 2 === 0, exp2: (i: number) => i % 3 === 0 };
  await withTempDir(async (work) => {
    for (const [exp, ok] of Object.entries(right)) {
      for (const task of TASKS) {
        const ex = bbh[task].slice(0, 6);
        writeJsonl(
          join(work, "logs", exp, "gpt4o", `${task}.jsonl`),
          ex.map((e, i) => rec(e, ok(i))),
        );
      }
    }
    const out = await score([join(work, "logs")], data, work, ["--no-cache"]);
    const runs = runsOf(out);
    balanced(out, 24);
    assert.deepEqual([...runs.keys()], ["exp1/gpt4o", "exp2/gpt4o"]);
    assert.deepEqual(out.report.quarantine, []);
    for (const [exp, ok] of Object.entries(right)) {
      const run = runs.get(`${exp}/gpt4o`);
      assert.equal(run.grouping, "folder");
      const verdicts = expected([0, 1, 2, 3, 4, 5].map(ok));
      assert.deepEqual(tasksOf(run), { date_understanding: verdicts, navigate: verdicts });
    }
  });
});

dataTest("--run-by file|folder: files and folders of the same name stay apart", async (data) => {
  const bbh = readBbhExamples(data);
  await withTempDir(async (work) => {
    for (const model of ["gpt-4o", "llama"]) {
      for (const task of TASKS) {
        const ex = bbh[task].slice(0, 5);
        const lines = ex.map((e, i) => rec(e, model === "gpt-4o" || i === 0, { model }));
        writeJsonl(join(work, "logs", model, "mc", `${task}.jsonl`), lines);
      }
    }
    const byFile = await score([join(work, "logs")], data, work, [
      "--no-cache",
      "--run-by",
      "file",
    ]);
    balanced(byFile, 20);
    assert.deepEqual(byFile.report.quarantine, []);
    const files = runsOf(byFile);
    assert.deepEqual([...files.keys()], [
      "gpt-4o/mc/date_understanding",
      "gpt-4o/mc/navigate",
      "llama/mc/date_understanding",
      "llama/mc/navigate",
    ]);
    assert.deepEqual(tasksOf(files.get("llama/mc/navigate")), {
      navigate: expected([true, false, false, false, false]),
    });
    const byFolder = await score([join(work, "logs")], data, work, [
      "--no-cache",
      "--run-by",
      "folder",
    ]);
    balanced(byFolder, 20);
    const folders = runsOf(byFolder);
    assert.deepEqual([...folders.keys()], ["gpt-4o/mc", "llama/mc"]);
    assert.deepEqual(
      [...folders.values()].map((r) => [r.grouping, r.rows_scored, r.rows_quarantined]),
      [["folder", 10, 0], ["folder", 10, 0]],
    );
  });
});

dataTest(
  "a folder per task under a model's folder: the model's folder is the run",
  async (data) => {
    const bbh = readBbhExamples(data);
    await withTempDir(async (work) => {
      const right = { "gpt-4o": (i: number) => i !== 2, llama: (i: number) => i === 2 };
      for (const [model, ok] of Object.entries(right)) {
        for (const task of TASKS) {
          const ex = bbh[task].slice(0, 4);
          writeJsonl(
            join(work, "logs", model, `bbh_${task}`, "predictions.jsonl"),
            ex.map((e, i) => rec(e, ok(i))),
          );
        }
      }
      const out = await score([join(work, "logs")], data, work, ["--no-cache"]);
      balanced(out, 16);
      assert.deepEqual(out.report.quarantine, []);
      const runs = runsOf(out);
      assert.deepEqual([...runs.keys()], ["gpt-4o", "llama"]);
      for (const [model, ok] of Object.entries(right)) {
        const verdicts = expected([0, 1, 2, 3].map(ok));
        assert.equal(runs.get(model).grouping, "folder");
        assert.deepEqual(tasksOf(runs.get(model)), {
          date_understanding: verdicts,
          navigate: verdicts,
        });
      }
    });
  },
);
