/**
 * Run names a reviewer's realistic logs broke (issue 14, item 3), as a user meets them
 * (`runlens score` as a subprocess, logs built from the real BBH data set; every expected count
 * and accuracy computed here from how the records were built):
 * - default runs of different folders or files never share a name: `exp1/gpt4o/` and
 *   `exp2/gpt4o/` are `exp1/gpt4o` and `exp2/gpt4o`, `<model>/mc/<task>.jsonl` with
 *   `--run-by file` is `<model>/mc/<task>`, and `<model>/bbh_<task>/predictions.jsonl` (a
 *   folder per task) is one run per model folder;
 * - sources of one model are kept apart only when they overlap substantially (a retry file
 *   is split off alone, a resumed run is one run), with a warning;
 * - whitespace around a `model` is dropped, and records that name no model join their file's
 *   run; a run of quarantined records only is labelled by its file's benchmark, never BBEH's
 *   by default; run names alike but for case stay apart, with a warning.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { readBbhExamples } from "./_examples.ts";
import {
  balanced,
  expected,
  type Rec,
  rec,
  type Run,
  runsOf,
  tasksOf,
  writeJsonl,
} from "./_runs.ts";
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

/** `runlens score` as a user runs it without `--json`: the text report. */
async function scoreText(paths: string[], data: string, work: string): Promise<string> {
  const out = await runCli(["score", ...paths, "--data", data], {
    env: { RUNLENS_CACHE: join(work, "cache") },
  });
  assert.equal(out.code, 0, out.stderr);
  return out.stdout;
}

dataTest("a retry file of one model is split off alone, with a warning", async (data) => {
  const bbh = readBbhExamples(data);
  const model = "gpt-4o";
  const right = { navigate: (i: number) => i % 2 === 0, snarks: (i: number) => i < 5 };
  await withTempDir(async (work) => {
    const dir = join(work, "logs");
    for (const [task, ok] of Object.entries(right)) {
      const ex = bbh[task].slice(0, 8);
      writeJsonl(join(dir, `${task}.jsonl`), ex.map((e, i) => rec(e, ok(i), { model })));
    }
    // the retry answers navigate's first two examples again (right, this time)
    const retry = bbh.navigate.slice(0, 2).map((e) => rec(e, true, { model }));
    writeJsonl(join(dir, "navigate_retry.jsonl"), retry);
    const out = await score([dir], data, work, ["--no-cache"]);
    balanced(out, 18);
    assert.deepEqual(out.report.quarantine, []);
    const runs = runsOf(out);
    // the model's run keeps its name; only the file that repeats it is apart
    assert.deepEqual([...runs.keys()], ["gpt-4o", "gpt-4o/navigate_retry"]);
    const verdicts = (ok: (i: number) => boolean) => expected([...Array(8).keys()].map(ok));
    assert.deepEqual(tasksOf(runs.get("gpt-4o")), {
      navigate: verdicts(right.navigate),
      snarks: verdicts(right.snarks),
    });
    assert.deepEqual(tasksOf(runs.get("gpt-4o/navigate_retry")), {
      navigate: expected([true, true]),
    });
    const warning = "model gpt-4o: kept apart as 2 runs (gpt-4o, gpt-4o/navigate_retry) because " +
      "its sources repeat each other's (task, example, epoch): navigate and navigate_retry " +
      "share 2 (of 8 and 2)";
    assert.deepEqual(out.report.warnings, [warning]);
    const text = await scoreText([dir], data, work);
    assert.ok(text.includes(`warnings (1):\n  ${warning}\n`), text);
    const apart = "  run named by its records' model field, kept apart from the model's other " +
      "files that repeat its examples (see warnings)";
    assert.equal(text.split("\n").filter((l) => l === apart).length, 2);
  });
});

dataTest("a resumed run (one example in both parts) is one run, the repeat a duplicate", async (
  data,
) => {
  const dates = readBbhExamples(data).date_understanding;
  assert.equal(dates.length, 250);
  const right = (i: number) => i % 4 !== 1;
  await withTempDir(async (work) => {
    const dir = join(work, "logs");
    const part = (from: number, to: number) =>
      dates.slice(from, to).map((e, k) => rec(e, right(from + k), { model: "gpt-4o" }));
    const part1 = writeJsonl(join(dir, "part1.jsonl"), part(0, 100));
    const part2 = writeJsonl(join(dir, "part2.jsonl"), part(99, 250)); // resumed at 99
    const out = await score([dir], data, work, ["--no-cache"]);
    balanced(out, 251);
    const runs = runsOf(out);
    assert.deepEqual([...runs.keys()], ["gpt-4o"]);
    assert.deepEqual(tasksOf(runs.get("gpt-4o")), {
      date_understanding: expected(dates.map((_, i) => right(i))),
    });
    assert.deepEqual(out.report.quarantine, [{
      file: part2,
      line: 1,
      reason: `duplicate of ${part1}:100 (same run, task, example_index and epoch)`,
    }]);
    assert.deepEqual(out.report.warnings, []);
  });
});

dataTest("identifiers: whitespace around a model is dropped; records without one join", async (
  data,
) => {
  const dates = readBbhExamples(data).date_understanding.slice(0, 12);
  const models = ["gpt-4o\n", "gpt-4o\n", "gpt-4o", "gpt-4o", " gpt-4o\t", "gpt-4o"];
  await withTempDir(async (work) => {
    const lines: (Rec | string)[] = models.map((model, i) => rec(dates[i], i !== 3, { model }));
    lines.push(rec(dates[6], true, { model: " \n " })); // only whitespace: as absent
    lines.push(rec(dates[7], false)); // no model
    lines.push(rec(dates[8], true, { model: "gpt\n4o" })); // inside: a control character
    lines.push("{not json");
    const path = writeJsonl(join(work, "logs", "answers.jsonl"), lines);
    const out = await score([path], data, work, ["--no-cache"]);
    balanced(out, 10);
    const runs = runsOf(out);
    // one run: the file's records all name gpt-4o, the others join it
    assert.deepEqual([...runs.keys()], ["gpt-4o"]);
    const run = runs.get("gpt-4o");
    assert.deepEqual([run.model, run.rows_scored, run.rows_quarantined], ["gpt-4o", 8, 2]);
    assert.deepEqual(tasksOf(run), {
      date_understanding: expected([true, true, true, false, true, true, true, false]),
    });
    assert.ok(out.rows.every((r) => r.run === "gpt-4o" && r.model === "gpt-4o"));
    const reasons = out.report.quarantine.map((q: Run) => [q.line, q.reason.split(" (")[0]]);
    assert.deepEqual(reasons, [
      [9, 'field "model" holds a control character'],
      [10, "malformed JSON"],
    ]);
    assert.match(out.report.quarantine[0].reason, /\(U\+000A\)$/);
  });
});

dataTest("a run of quarantined records only: its file's benchmark, else none", async (data) => {
  const dates = readBbhExamples(data).date_understanding.slice(0, 3);
  await withTempDir(async (work) => {
    const lines: (Rec | string)[] = dates.flatMap((e) =>
      ["x", "y"].map((model) => rec(e, true, { model }))
    );
    lines.splice(2, 0, "garbage"); // names no run, and the file names two: the file's run
    const mixed = writeJsonl(join(work, "logs", "a.jsonl"), lines);
    const junk = writeJsonl(join(work, "logs", "junk.jsonl"), ["garbage", "[1, 2]"]);
    const out = await score([mixed, junk], data, work, ["--no-cache"]);
    balanced(out, 9);
    // runs a and junk have nothing scored: exit 1, named on stderr after the summary line
    const runs = runsOf(out, 1);
    assert.deepEqual(out.stderr.split("\n").slice(1, 3), [
      "runlens score: run a: nothing scored (1 record in, 1 quarantined: see the quarantine)",
      "runlens score: run junk: nothing scored (2 records in, 2 quarantined: see the quarantine)",
    ]);
    assert.deepEqual([...runs.keys()], ["a", "junk", "x", "y"]);
    const label = (r: Run) => [r.benchmark, r.scorer, r.rows_in, r.rows_quarantined];
    assert.deepEqual(label(runs.get("a")), ["bbh", "bbh-release-cot", 1, 1]); // BBH's, not BBEH's
    assert.deepEqual(label(runs.get("junk")), ["unknown", "none", 2, 2]);
    assert.deepEqual(label(runs.get("x")), ["bbh", "bbh-release-cot", 3, 0]);
  });
});

dataTest("run names alike but for case are kept apart, with a warning", async (data) => {
  const dates = readBbhExamples(data).date_understanding.slice(0, 4);
  await withTempDir(async (work) => {
    const lines = dates.flatMap((e, i) =>
      ["GPT-4o", "gpt-4o"].map((model) => rec(e, i % 2 === 0 || model === "GPT-4o", { model }))
    );
    const path = writeJsonl(join(work, "logs", "answers.jsonl"), lines);
    const out = await score([path], data, work, ["--no-cache"]);
    balanced(out, 8);
    const runs = runsOf(out);
    assert.deepEqual([...runs.keys()], ["GPT-4o", "gpt-4o"]);
    assert.deepEqual(tasksOf(runs.get("gpt-4o")), {
      date_understanding: expected([true, false, true, false]),
    });
    assert.deepEqual(out.report.warnings, [
      'runs "GPT-4o", "gpt-4o" differ only in case, Unicode form or surrounding spaces: ' +
      "kept as separate runs",
    ]);
  });
});

dataTest("grouping: a run lm-eval's reader names is `reader`, a run field's `field`", async (
  data,
) => {
  await withTempDir(async (work) => {
    const out = await score(["tests/fixtures/logs/bbh"], data, work, ["--no-cache"]);
    const grouping = out.report.runs.map((r: Run) => [r.format, r.grouping]);
    // canonical.jsonl's records carry `run: "bbh-canon"`; lm-eval's file names no run
    assert.deepEqual(grouping, [["canonical-jsonl", "field"], ["lm-eval", "reader"]]);
    const text = await scoreText(["tests/fixtures/logs/bbh"], data, work);
    assert.ok(text.includes("\n  run named by its reader (lm-eval)\n"), text);
    assert.ok(text.includes("\n  run named by its records' run field\n"), text);
  });
});
