/**
 * Issue 14, item 3, as a user meets it (`runlens score` as a subprocess, logs built from the
 * real BBH data set): a record's `model` field names its run in a generic log, so one file of
 * two models is two runs, each scored on its own rows; a folder of per-task files of one
 * model, and files of one model that share no example, are one run named after it; two files
 * of one model over the same examples (two seeds) are two runs `<model>/<file>`, nothing
 * quarantined as a duplicate; `--run-by file` still ignores the model field (and warns),
 * `--run-by field` keeps one run per model. Every expected count and accuracy is computed here
 * from how the records were built. Also the leftover of issue 14 (S3): a bare letter `B` given
 * as the target of a data-set target `(B)` is that target — and `(E)` for BBEH's `E`, and a
 * target with whitespace around it; `b` and `B.` are other targets.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import type { Example } from "@runlens/benchmarks/types.ts";
import { rowAt } from "@runlens/pipeline/compact.ts";
import { type EngineLoad, runEngine } from "@runlens/pipeline/engine.ts";
import { resolveLoadPlan } from "@runlens/pipeline/load_plan.ts";
import { dataTest } from "./_data.ts";
import { readBbehExamples, readBbhExamples } from "./_examples.ts";
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
import { answerWith, score } from "./_shapes.ts";
import { withTempDir } from "./_tmp.ts";

dataTest("one file of two models: two runs, each scored on its own rows", async (data) => {
  const navigate = readBbhExamples(data).navigate.slice(0, 30);
  // the two models answer differently: gpt-4o every other question, llama every third
  const right = { "gpt-4o": (i: number) => i % 2 === 0, llama: (i: number) => i % 3 === 0 };
  await withTempDir(async (work) => {
    const records = navigate.flatMap((e, i) =>
      (["gpt-4o", "llama"] as const).map((model) => rec(e, right[model](i), { model }))
    );
    const path = writeJsonl(join(work, "logs", "answers.jsonl"), records);
    const out = await score([path], data, work, ["--no-cache"]);
    const runs = runsOf(out);
    balanced(out, 60);
    assert.deepEqual([...runs.keys()], ["gpt-4o", "llama"]);
    assert.deepEqual(out.report.quarantine, []);
    assert.deepEqual(out.report.warnings, []);
    for (const model of ["gpt-4o", "llama"] as const) {
      const run = runs.get(model);
      assert.deepEqual([run.model, run.grouping, run.rows_in], [model, "field", 30]);
      assert.deepEqual(tasksOf(run), {
        navigate: expected(navigate.map((_, i) => right[model](i))),
      });
    }
    // the same file with --run-by file: one run named after the file, as before; the second
    // model's answers are repeats of the same examples (duplicates), and a warning says why
    const byFile = await score([path], data, work, ["--no-cache", "--run-by", "file"]);
    const [only] = runsOf(byFile).values();
    balanced(byFile, 60);
    assert.deepEqual([only.run, only.grouping, only.rows_scored], ["answers", "file", 30]);
    assert.deepEqual(tasksOf(only), {
      navigate: expected(navigate.map((_, i) => right["gpt-4o"](i))),
    });
    assert.ok(byFile.report.quarantine.every((q: Run) => q.reason.startsWith("duplicate of")));
    assert.deepEqual(byFile.report.warnings, [
      `${path}: 30 of 60 rows repeat earlier examples — the file may hold several runs; give ` +
      "each run its own file or a model/run field (--map run=…)",
      "run answers: its records name 2 models (gpt-4o, llama); --run-by file ignores the " +
      "model field (by default it names the run of records without a run field)",
    ]);
  });
});

dataTest("per-task files of one model, and its files that share no example: one run", async (
  data,
) => {
  const bbh = readBbhExamples(data);
  const tasks = ["navigate", "snarks", "date_understanding"];
  const model = "llama-3-8b";
  await withTempDir(async (work) => {
    const verdicts: Record<string, boolean[]> = {};
    let records = 0;
    for (const task of tasks) {
      const ex = bbh[task].slice(0, 25);
      verdicts[task] = ex.map((_, i) => (i + task.length) % 4 !== 0);
      const lines: (Rec | string)[] = ex.map((e, i) => rec(e, verdicts[task][i], { model }));
      if (task === "snarks") lines.push("[1, 2, 3]"); // no record: counted under the file's run
      records += lines.length;
      writeJsonl(join(work, "logs", "llama-run", `${task}-zero-shot-cot.jsonl`), lines);
    }
    // a file of the same model elsewhere, of another task: no example in common
    const hyperbaton = bbh.hyperbaton.slice(0, 10);
    verdicts.hyperbaton = hyperbaton.map((_, i) => i < 7);
    records += 10;
    writeJsonl(
      join(work, "logs", "later", "extra.jsonl"),
      hyperbaton.map((e, i) => rec(e, verdicts.hyperbaton[i], { model })),
    );
    const out = await score([join(work, "logs")], data, work, ["--no-cache"]);
    const runs = runsOf(out);
    balanced(out, records);
    assert.deepEqual([...runs.keys()], [model]);
    const run = runs.get(model);
    assert.deepEqual([run.grouping, run.rows_quarantined], ["field", 1]);
    assert.deepEqual(
      tasksOf(run),
      Object.fromEntries(Object.keys(verdicts).sort().map((t) => [t, expected(verdicts[t])])),
    );
    assert.match(out.report.quarantine[0].file, /snarks-zero-shot-cot\.jsonl$/);
    // the files still say how records without a run or model field would be named
    const files = new Map<string, Run>(
      out.report.files.map((f: Run) => [f.file.split("/").pop(), f]),
    );
    assert.deepEqual(
      [files.get("navigate-zero-shot-cot.jsonl").grouping, files.get("extra.jsonl").grouping],
      ["folder", "file"],
    );
  });
});

dataTest("two files of one model over the same examples: two runs, no duplicates", async (
  data,
) => {
  const bbh = readBbhExamples(data);
  const navigate = bbh.navigate.slice(0, 40);
  const sports = bbh.sports_understanding;
  // two examples with the same question and target, logged without an index: each seed's
  // two records are handed the two examples in file order
  assert.deepEqual([sports[27].input, sports[27].target], [sports[155].input, sports[155].target]);
  const seeds = { seed1: (i: number) => i % 2 === 0, seed2: (i: number) => i % 5 !== 0 };
  await withTempDir(async (work) => {
    const paths: string[] = [];
    for (const [seed, right] of Object.entries(seeds)) {
      const lines: (Rec | string)[] = [
        ...navigate.map((e, i) => rec(e, right(i), { model: "gpt-4o" })),
        rec(sports[27], true, { model: "gpt-4o" }),
        rec(sports[155], false, { model: "gpt-4o" }),
      ];
      if (seed === "seed2") lines.push('{"input": "cut off'); // no record: joins seed2's run
      paths.push(writeJsonl(join(work, "logs", `${seed}.jsonl`), lines));
    }
    const out = await score([join(work, "logs")], data, work, ["--no-cache"]);
    const runs = runsOf(out);
    balanced(out, 85);
    assert.deepEqual([...runs.keys()], ["gpt-4o/seed1", "gpt-4o/seed2"]);
    // 40 navigate and 2 sports examples in each: all in common, and a warning says so
    assert.deepEqual(out.report.warnings, [
      "model gpt-4o: kept apart as 2 runs (gpt-4o/seed1, gpt-4o/seed2) because its sources " +
      "repeat each other's (task, example, epoch): seed1 and seed2 share 42 (of 42 and 42)",
    ]);
    assert.equal(out.report.quarantine.length, 1);
    assert.equal(out.report.quarantine[0].file, paths[1]);
    for (const [seed, right] of Object.entries(seeds)) {
      const run = runs.get(`gpt-4o/${seed}`);
      assert.deepEqual([run.model, run.grouping], ["gpt-4o", "field"]);
      assert.deepEqual(tasksOf(run), {
        navigate: expected(navigate.map((_, i) => right(i))),
        sports_understanding: expected([true, false]),
      });
      const handed = out.rows.filter((r) => r.run === run.run && r.task === "sports_understanding")
        .map((r) => [r.example_index, r.correct]);
      assert.deepEqual(handed, [[27, true], [155, false]]);
    }
    // --run-by field: the model names the run, whatever the files: seed2 repeats seed1
    const byField = await score([join(work, "logs")], data, work, [
      "--no-cache",
      "--run-by",
      "field",
    ]);
    const one = runsOf(byField);
    balanced(byField, 85);
    assert.deepEqual([...one.keys()], ["gpt-4o"]);
    assert.equal(one.get("gpt-4o").rows_scored, 42);
    const reasons = byField.report.quarantine.map((q: Run) => q.reason);
    assert.equal(reasons.filter((r: string) => r.startsWith("duplicate of")).length, 42);
  });
});

/** Rows (file, line, run, task, example, verdict) and quarantine (file, line, run, reason). */
function snapshot(load: EngineLoad) {
  const m = load.merged;
  const rows = Array.from({ length: m.rows.n }, (_, i) => rowAt(m.rows, i)).map((r) =>
    [load.files[r.file].name, r.line, r.run, r.task, r.example, r.correct].join(" ")
  );
  const quarantine = m.quarantine.map((q) => [q.file, q.line, q.run, q.reason].join(" "));
  return { rows, quarantine, models: [...m.models].map(([r, ms]) => [r, [...ms]]) };
}

dataTest("two seeds of one model: the same runs from 1 or 2 Workers and any ranges", async (
  data,
) => {
  const bbh = readBbhExamples(data);
  const sports = bbh.sports_understanding;
  await withTempDir(async (work) => {
    for (const [k, seed] of ["seed1", "seed2"].entries()) {
      const lines: (Rec | string)[] = bbh.navigate.slice(0, 120).map((e, i) =>
        rec(e, (i + k) % 3 !== 0, { model: "gpt-4o" })
      );
      // identical questions among the others, and a line that is no record mid-file
      lines.splice(50, 0, rec(sports[27], true, { model: "gpt-4o" }), "not json");
      lines.splice(90, 0, rec(sports[155], false, { model: "gpt-4o" }));
      writeJsonl(join(work, "logs", `${seed}.jsonl`), lines);
    }
    const load = async (workers: number, rangeBytes?: number) =>
      runEngine([join(work, "logs")], await resolveLoadPlan(data, { workers }), { rangeBytes });
    const whole = snapshot(await load(1));
    assert.equal(whole.rows.length, 244);
    assert.deepEqual(
      new Set(whole.rows.map((r) => r.split(" ")[2])),
      new Set(["gpt-4o/seed1", "gpt-4o/seed2"]),
    );
    assert.deepEqual(whole.quarantine.map((q) => q.split(" ").slice(1, 3).join(" ")), [
      "52 gpt-4o/seed1",
      "52 gpt-4o/seed2",
    ]);
    assert.deepEqual(whole.models, [["gpt-4o/seed1", ["gpt-4o"]], ["gpt-4o/seed2", ["gpt-4o"]]]);
    for (const [workers, rangeBytes] of [[2, 2048], [2, 1 << 20], [1, 997]]) {
      const got = snapshot(await load(workers, rangeBytes));
      assert.deepEqual(got, whole, `workers ${workers}, ranges of ${rangeBytes} bytes`);
    }
  });
});

dataTest("folders of per-task files of one model over the same examples: a run per folder", async (
  data,
) => {
  const bbh = readBbhExamples(data);
  await withTempDir(async (work) => {
    const verdicts: Record<string, Record<string, boolean[]>> = {};
    for (const folder of ["t0", "t07"]) {
      verdicts[folder] = {};
      for (const task of ["navigate", "web_of_lies"]) {
        const ex = bbh[task].slice(0, 20);
        const right = ex.map((_, i) => folder === "t0" ? i < 15 : i % 2 === 1);
        verdicts[folder][task] = right;
        writeJsonl(
          join(work, "logs", folder, `${task}.jsonl`),
          ex.map((e, i) => rec(e, right[i], { model: "qwen" })),
        );
      }
    }
    const out = await score([join(work, "logs")], data, work, ["--no-cache"]);
    const runs = runsOf(out);
    balanced(out, 80);
    assert.deepEqual([...runs.keys()], ["qwen/t0", "qwen/t07"]);
    assert.deepEqual(out.report.quarantine, []);
    for (const folder of ["t0", "t07"]) {
      assert.deepEqual(tasksOf(runs.get(`qwen/${folder}`)), {
        navigate: expected(verdicts[folder].navigate),
        web_of_lies: expected(verdicts[folder].web_of_lies),
      });
    }
  });
});

dataTest("a bare letter B given for the data set's target (B) is that target", async (data) => {
  const dates = readBbhExamples(data).date_understanding.slice(0, 32);
  assert.ok(dates.every((e) => /^\([A-F]\)$/.test(e.target)));
  await withTempDir(async (work) => {
    const bare = (e: Example) => e.target.slice(1, 2);
    const right = dates.map((_, i) => i % 3 !== 1);
    const lines = dates.slice(0, 30).map((e, i) => ({
      ...rec(e, right[i]),
      target: bare(e),
      // every other record also gives its index: checked against the data set too
      ...(i % 2 ? { example_index: i, task: "date_understanding" } : {}),
    }));
    // a lower-case letter is the target only when case is ignored: tied all the same (by its
    // question, and by its index), scored against the data set's target, and said
    lines.push({ ...rec(dates[30], right[30]), target: bare(dates[30]).toLowerCase() });
    lines.push({
      ...rec(dates[31], right[31]),
      target: bare(dates[31]).toLowerCase(),
      example_index: 31,
      task: "date_understanding",
    });
    // another form is another target
    lines.push({ ...rec(dates[0], true), target: `${bare(dates[0])}.` });
    const path = writeJsonl(join(work, "logs", "letters.jsonl"), lines);
    const out = await score([path], data, work, ["--no-cache"]);
    const [run] = runsOf(out).values();
    balanced(out, 33);
    assert.deepEqual(tasksOf(run), { date_understanding: expected(right) });
    assert.deepEqual(out.rows.map((r) => r.example_index), dates.map((_, i) => i));
    assert.deepEqual(out.report.quarantine.map((q: Run) => [q.line, q.reason]), [[
      33,
      `target "${bare(dates[0])}." differs from the data set's target(s) ` +
      `"${dates[0].target}" for this input in date_understanding (example_index 0)`,
    ]]);
    assert.deepEqual(out.report.warnings, [
      `${path}: the target of 2 of 33 rows equals the data set's only when case is ignored ` +
      "(a lower-cased gold column?): those rows are tied to their examples all the same and " +
      "scored against the data set's targets",
    ]);
  });
});

dataTest("a target with spaces around it, or a letter in the other form, is the target", async (
  data,
) => {
  const dates = readBbhExamples(data).date_understanding.slice(0, 12);
  const hyperbaton = readBbehExamples(data).hyperbaton.slice(0, 12);
  assert.ok(hyperbaton.every((e) => /^[A-Z]$/.test(e.target))); // BBEH's: a bare letter
  const letter = (e: Example) => e.target.replace(/[()]/g, "");
  // the forms a script writes: accepted (the lower-case letter only ignoring case, and said),
  // then one that is another target
  const accepted = [
    (e: Example) => ` ${e.target} `,
    (e: Example) => `\n${letter(e)}\n`,
    (e: Example) => `(${letter(e)}) `,
    (e: Example) => letter(e),
    (e: Example) => `(${letter(e)})`,
    (e: Example) => letter(e).toLowerCase(),
  ];
  const refused = [(e: Example) => `${letter(e)}.`];
  await withTempDir(async (work) => {
    const lines = [...dates.slice(0, 7), ...hyperbaton.slice(0, 7)].map((e, i) => {
      const form = [...accepted, ...refused][i % 7];
      const bench = i < 7 ? "bbh" : "bbeh";
      return { input: e.input, target: form(e), output: answerWith(bench, e.target) };
    });
    const path = writeJsonl(join(work, "logs", "targets.jsonl"), lines);
    const out = await score([path], data, work, ["--no-cache"]);
    balanced(out, 14);
    const runs = out.report.runs.map((r: Run) => [r.benchmark, r.rows_scored, r.rows_quarantined]);
    assert.deepEqual(runs, [["bbeh", 6, 1], ["bbh", 6, 1]]);
    assert.ok(out.rows.every((r) => r.correct === true));
    const reasons = out.report.quarantine.map((q: Run) => [q.line, q.reason.split(" differs")[0]]);
    assert.deepEqual(reasons, [
      [7, `target ${JSON.stringify(`${letter(dates[6])}.`)}`],
      [14, `target ${JSON.stringify(`${hyperbaton[6].target}.`)}`],
    ]);
    assert.equal(out.report.warnings.length, 1);
    assert.match(out.report.warnings[0], /: the target of 2 of 14 rows equals the data set's only/);
  });
});
