/**
 * Issue 14, verified as a new user meets it: logs written by people's own scripts, built here
 * from the real BBH and BBEH data sets in every shape of the issue, given to `runlens score DIR`
 * with no flags (a subprocess). For each shape: every record is identified as it was built
 * (benchmark, task, example_index, run), every record is scored or quarantined
 * (`rows_in = rows_scored + rows_quarantined`, and only the records built to be quarantined
 * are), the verdicts equal those of the same records given as canonical JSONL with explicit
 * benchmark, task and index, and `--json` names per run the grouping, the fields used and the
 * data-version counts.
 *
 * Shapes: (a) per-task JSONL with chat transcripts (`message_log`), with and without an `input`
 * field, BBH and BBEH files under the same task name; (b, d) headerless per-task CSVs of the BBH
 * release's few-shot prompts, one run spread over 27 files (reproducing the 27 published CoT
 * accuracies); (c) a mixed folder of four shapes and both benchmarks; (e) BBH and BBEH rows in
 * one file under the task names both benchmarks use; (f) questions several examples share —
 * real ones within a task, and (the released data sets hold none across tasks: checked here)
 * one question put into a second task of a copied data directory; (g) the lm-eval version of
 * BBH's three repaired items and the cut-short snarks item in every reader.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { LM_EVAL_BBH } from "@runlens/benchmarks/bbh/versions.ts";
import {
  readBbhPublishedAccuracies,
  releaseAccuracy,
} from "@runlens/benchmarks/bbh/release_metrics.ts";
import { questionKey } from "@runlens/pipeline/question_key.ts";
import type { ExampleSet } from "@runlens/benchmarks/types.ts";
import { dataTest } from "./_data.ts";
import { scoredBenchmarks } from "./_examples.ts";
import {
  answerWith,
  type Built,
  canonicalOf,
  releaseOutputs,
  rowKey,
  score,
  type Scored,
  ShapeLog,
  wholeSnarks88,
  WRONG,
} from "./_shapes.ts";
import { withTempDir } from "./_tmp.ts";

/** The BBEH and BBH examples of the data directory. */
function examplesOf(dir: string): { bbeh: ExampleSet; bbh: ExampleSet } {
  const [bbeh, bbh] = scoredBenchmarks(dir).map((b) => b.examples);
  return { bbeh, bbh };
}

/** A record's response: the target for two of three examples, a wrong answer for the third. */
function built(benchmark: string, task: string, i: number, target: string, run?: string): Built {
  const correct = i % 3 !== 0;
  const response = answerWith(benchmark, correct ? target : WRONG);
  return { benchmark, task, example_index: i, response, correct, ...(run ? { run } : {}) };
}

/** A chat transcript: a system turn, a worked example, the question, the answer last. */
function chat(question: string, response: string): { role: string; content: string }[] {
  return [
    { role: "system", content: "You are a careful reasoner. End with the answer." },
    { role: "user", content: "Q: What is 2 + 2?" },
    { role: "assistant", content: "2 + 2 = 4. So the answer is 4." },
    { role: "user", content: `${question}\n\nLet's think step by step.` },
    { role: "assistant", content: response },
  ];
}

/** A file of the fixture, where it was written and the run its records must be counted under. */
interface Written {
  log: ShapeLog;
  path: string;
  run: string;
}

/**
 * Score the fixture `paths` and the same records as canonical JSONL; check every record's
 * outcome, the counts and the verdicts. Returns the fixture's report.
 */
async function checkShape(
  files: readonly Written[],
  paths: string[],
  data: string,
  work: string,
): Promise<Scored> {
  const shape = await score(paths, data, work);
  assert.equal(shape.code, 0, shape.stderr);
  assert.deepEqual(shape.report.errors, []);
  for (const f of files) checkFile(f, shape);
  // nothing lost: per run and in all
  for (const run of shape.report.runs) {
    assert.equal(run.rows_in, run.rows_scored + run.rows_quarantined, run.run);
  }
  const total = files.reduce((n, f) => n + f.log.built.length, 0);
  const sum = (k: string) => shape.report.runs.reduce((n: number, r: never) => n + r[k], 0);
  assert.equal(sum("rows_in"), total);
  assert.equal(sum("rows_quarantined"), shape.report.quarantine.length);
  // the same verdicts as the records given with explicit benchmark, task and index
  const canonicalFile = join(work, "canonical", "explicit.jsonl");
  Deno.mkdirSync(join(work, "canonical"), { recursive: true });
  Deno.writeTextFileSync(canonicalFile, canonicalOf(files));
  const canon = await score([canonicalFile], data, work);
  assert.equal(canon.code, 0, canon.stderr);
  assert.deepEqual(canon.report.quarantine, []);
  const verdicts = new Map(canon.rows.map((r) => [rowKey(r), r]));
  assert.equal(shape.rows.length, canon.rows.length);
  for (const r of shape.rows) {
    const c = verdicts.get(rowKey(r));
    assert.ok(c, `${rowKey(r)} not in the canonical rows`);
    assert.deepEqual(
      [r.scorer, r.answer, r.answer_found, r.correct, r.data_version],
      [c.scorer, c.answer, c.answer_found, c.correct, c.data_version],
      rowKey(r),
    );
  }
  return shape;
}

/** Each record of one file, in file order: scored as built, or quarantined as built to be. */
function checkFile(f: Written, shape: Scored): void {
  type Outcome = { line: number; row?: Scored["rows"][0]; reason?: string };
  const outcomes: Outcome[] = [
    ...shape.rows.filter((r) => r.source_file === f.path).map((row) => ({
      line: row.source_line,
      row,
    })),
    ...shape.report.quarantine.filter((q: { file: string }) => q.file === f.path).map((
      q: { line: number; reason: string },
    ) => ({ line: q.line, reason: q.reason })),
  ].sort((a, b) => a.line - b.line);
  assert.equal(outcomes.length, f.log.built.length, `${f.log.name}: every record, once`);
  f.log.built.forEach((b, k) => {
    const o = outcomes[k];
    const at = `${f.log.name} record ${k + 1}`;
    if (b.quarantined) {
      assert.ok(o.reason?.includes(b.quarantined), `${at}: ${o.reason ?? "scored"}`);
      return;
    }
    assert.ok(o.row, `${at} quarantined: ${o.reason}`);
    assert.deepEqual(
      [o.row.run, o.row.benchmark, o.row.task, o.row.example_index, o.row.data_version],
      [b.run ?? f.run, b.benchmark, b.task, b.example_index, b.versionTarget ? "lm-eval" : null],
      at,
    );
    if (b.correct !== undefined) assert.equal(o.row.correct, b.correct, at);
  });
}

/** The run of the report named `name` (of `benchmark` when given). */
// deno-lint-ignore no-explicit-any
function runOf(s: Scored, name: string, benchmark?: string): any {
  const runs = s.report.runs.filter((r: { run: string; benchmark: string }) =>
    r.run === name && (benchmark === undefined || r.benchmark === benchmark)
  );
  assert.equal(runs.length, 1, `one run ${name} ${benchmark ?? ""}`);
  return runs[0];
}

// ---------------------------------------------------------------------------------------------
// (a) per-task JSONL with chat transcripts

dataTest("(a) per-task JSONL with chat transcripts: BBH and BBEH files named after a task", async (
  data,
) => {
  const { bbh, bbeh } = examplesOf(data);
  await withTempDir(async (work) => {
    const files: Written[] = [];
    // BBH: input, target, message_log and output, as the logs have them
    const bbhDir = join(work, "logs", "llama-bbh");
    for (const task of ["geometric_shapes", "navigate", "word_sorting"]) {
      const log = new ShapeLog(`${task}-zero-shot-cot.jsonl`);
      bbh[task].forEach((e, i) => {
        const b = built("bbh", task, i, e.target);
        log.add(b, {
          input: e.input,
          target: e.target,
          message_log: chat(e.input, b.response),
          output: b.response,
        });
      });
      files.push({ log, path: log.write(bbhDir), run: "llama-bbh" });
    }
    // BBEH: the question only in the user turn, no input field, no output
    const bbehDir = join(work, "logs", "llama-bbeh");
    for (const task of ["geometric_shapes", "boardgame_qa"]) {
      const log = new ShapeLog(`${task}-zero-shot-cot.jsonl`);
      bbeh[task].forEach((e, i) => {
        const b = built("bbeh", task, i, e.target);
        log.add(b, { target: e.target, message_log: chat(e.input, b.response) });
      });
      files.push({ log, path: log.write(bbehDir), run: "llama-bbeh" });
    }
    const shape = await checkShape(files, [join(work, "logs")], data, work);
    const bbhRun = runOf(shape, "llama-bbh", "bbh");
    assert.equal(bbhRun.grouping, "folder");
    assert.deepEqual(bbhRun.fields[files[0].path], {
      response: "message_log (last assistant message)",
      input: "input",
      target: "target",
    });
    assert.deepEqual(Object.keys(bbhRun.tasks).sort(), [
      "geometric_shapes",
      "navigate",
      "word_sorting",
    ]);
    const bbehRun = runOf(shape, "llama-bbeh", "bbeh");
    assert.equal(bbehRun.grouping, "folder");
    assert.deepEqual(bbehRun.fields[files[3].path], {
      response: "message_log (last assistant message)",
      input: "message_log (last user message)",
      target: "target",
    });
    assert.equal(shape.report.runs.length, 2); // no BBH row under BBEH, nor the reverse
  });
});

// ---------------------------------------------------------------------------------------------
// (b, d) headerless per-task CSVs with few-shot prompts; one run over 27 files in one folder

dataTest(
  "(b, d) 27 headerless few-shot CSVs in one folder: one run, the 27 published CoT accuracies",
  async (data) => {
    const { bbh } = examplesOf(data);
    await withTempDir(async (work) => {
      const dir = join(work, "logs", "codex-cot");
      const files: Written[] = Object.keys(bbh).map((task) => {
        const log = new ShapeLog(`${task}_few_shot_template_0-255000.csv`);
        releaseOutputs(data, "code-davinci-002-cot", task).forEach((o, i) =>
          log.add(
            { benchmark: "bbh", task, example_index: i, response: o.prediction },
            [o.input, o.prediction, o.target],
          )
        );
        return { log, path: log.write(dir), run: "codex-cot" };
      });
      assert.equal(files.length, 27);
      const shape = await checkShape(files, [dir], data, work);
      assert.equal(shape.report.runs.length, 1);
      const run = runOf(shape, "codex-cot", "bbh");
      assert.equal(run.grouping, "folder");
      assert.deepEqual([run.rows_in, run.rows_scored], [6511, 6511]);
      assert.deepEqual(run.fields[files[0].path], {
        input: "column 0",
        response: "column 1",
        target: "column 2",
      });
      // the published accuracies, an independent check of the verdicts
      const published = readBbhPublishedAccuracies(data)
        .filter((p) => p.run === "code-davinci-002-cot");
      for (const p of published) {
        const t = run.tasks[p.task];
        assert.equal(releaseAccuracy(t.correct, t.n), p.accuracy, p.task);
      }
      const correct = Object.values(run.tasks as Record<string, { correct: number }>)
        .reduce((n, t) => n + t.correct, 0);
      assert.equal(run.aggregate.coverage, "full");
      assert.equal(run.aggregate.micro, Math.round(correct / 6511 * 10000) / 100);
    });
  },
);

// ---------------------------------------------------------------------------------------------
// (c) a mixed folder

dataTest("(c) a mixed folder: four shapes, two benchmarks, one run named after the folder", async (
  data,
) => {
  const { bbh, bbeh } = examplesOf(data);
  await withTempDir(async (work) => {
    const dir = join(work, "logs", "mixed-run");
    const files: Written[] = [];
    const add = (log: ShapeLog, header: string[] | null = null) =>
      files.push({ log, path: log.write(dir, header), run: "mixed-run" });
    // a chat JSONL (BBH)
    const chatLog = new ShapeLog("hyperbaton-zero-shot-cot.jsonl");
    bbh.hyperbaton.slice(0, 60).forEach((e, i) => {
      const b = built("bbh", "hyperbaton", i, e.target);
      chatLog.add(b, { messages: chat(e.input, b.response), label: e.target });
    });
    add(chatLog);
    // a headerless few-shot CSV (BBH, the release's direct prompts)
    const csvLog = new ShapeLog("date_understanding_few_shot_template_0-255000.csv");
    releaseOutputs(data, "code-davinci-002-direct", "date_understanding").forEach((o, i) => {
      const b = built("bbh", "date_understanding", i, o.target);
      csvLog.add(b, [o.input, b.response, o.target]);
    });
    add(csvLog);
    // a CSV with a header of other names (BBEH, folder-style name)
    const named = new ShapeLog("bbeh_nycc.csv");
    bbeh.nycc.forEach((e, i) => {
      const b = built("bbeh", "nycc", i, e.target);
      named.add(b, { question: e.input, model_output: b.response, gold: e.target });
    });
    add(named, ["question", "model_output", "gold"]);
    // prompt / completion JSONL, the question at the end of a few-shot prompt (BBEH)
    const prompt = new ShapeLog("time_arithmetic.jsonl");
    bbeh.time_arithmetic.forEach((e, i) => {
      const b = built("bbeh", "time_arithmetic", i, e.target);
      prompt.add(b, {
        prompt: `Q: What time is 2 hours after 10:00?\nA: 12:00\n\nQ: ${e.input}\nA:`,
        completion: b.response,
      });
    });
    add(prompt);
    const shape = await checkShape(files, [dir], data, work);
    assert.equal(shape.report.runs.length, 2);
    for (const [bench, at] of [["bbh", [0, 1]], ["bbeh", [2, 3]]] as const) {
      const run = runOf(shape, "mixed-run", bench);
      assert.equal(run.grouping, "folder");
      assert.deepEqual(Object.keys(run.fields).sort(), at.map((k) => files[k].path).sort());
    }
    const fields = runOf(shape, "mixed-run", "bbeh").fields;
    assert.deepEqual(fields[files[2].path], {
      input: "question",
      response: "model_output",
      target: "gold",
    });
    assert.deepEqual(fields[files[3].path], { input: "prompt", response: "completion" });
    assert.deepEqual(Object.keys(runOf(shape, "mixed-run", "bbeh").tasks).sort(), [
      "nycc",
      "time_arithmetic",
    ]);
  });
});

// ---------------------------------------------------------------------------------------------
// (e) rows of two benchmarks in one file

dataTest("(e) BBH and BBEH rows in one file, under task names both use: each under its own", async (
  data,
) => {
  const { bbh, bbeh } = examplesOf(data);
  await withTempDir(async (work) => {
    const log = new ShapeLog("both.jsonl");
    const shared = Object.keys(bbh).filter((t) => t in bbeh);
    assert.deepEqual(shared, [
      "boolean_expressions",
      "disambiguation_qa",
      "dyck_languages",
      "geometric_shapes",
      "hyperbaton",
      "movie_recommendation",
      "object_counting",
      "web_of_lies",
      "word_sorting",
    ]);
    for (const task of shared) {
      for (let i = 0; i < 30; i++) {
        for (const [bench, ex] of [["bbh", bbh], ["bbeh", bbeh]] as const) {
          const e = ex[task][i];
          const b = built(bench, task, i, e.target);
          // every other record names the task (a name both benchmarks have), none the benchmark
          log.add(b, { ...(i % 2 ? { task } : {}), question: e.input, prediction: b.response });
        }
      }
    }
    const files = [{ log, path: log.write(join(work, "logs")), run: "both" }];
    const shape = await checkShape(files, files.map((f) => f.path), data, work);
    assert.equal(shape.report.runs.length, 2);
    for (const bench of ["bbh", "bbeh"]) {
      const run = runOf(shape, "both", bench);
      assert.deepEqual(Object.keys(run.tasks).sort(), shared);
      assert.equal(run.rows_scored, shared.length * 30);
      assert.equal(run.grouping, "file");
    }
  });
});

// ---------------------------------------------------------------------------------------------
// (f) questions several examples share

/** The questions (normalised) that occur in more than one task of the data sets. */
function sharedAcrossTasks(data: string): string[] {
  const tasksOf = new Map<string, Set<string>>();
  for (const { scoring, examples } of scoredBenchmarks(data)) {
    for (const [task, ex] of Object.entries(examples)) {
      for (const e of ex) {
        const key = questionKey(e.input);
        tasksOf.set(key, (tasksOf.get(key) ?? new Set()).add(`${scoring.name}/${task}`));
      }
    }
  }
  return [...tasksOf].filter(([, t]) => t.size > 1).map(([k]) => k);
}

dataTest("(f) questions shared within a task: the target, else file order, else ambiguous", async (
  data,
) => {
  const { bbh, bbeh } = examplesOf(data);
  // the released data sets share no question across tasks (so the copy in the next test)
  assert.deepEqual(sharedAcrossTasks(data), []);
  const causal = bbh.causal_judgement;
  const sports = bbh.sports_understanding;
  const linguini = bbeh.linguini;
  assert.equal(causal[32].input, causal[119].input);
  assert.notEqual(causal[32].target, causal[119].target);
  assert.deepEqual([sports[27].input, sports[27].target], [sports[155].input, sports[155].target]);
  await withTempDir(async (work) => {
    const log = new ShapeLog("shared.jsonl");
    const add = (bench: string, task: string, i: number, input: string, target?: string) => {
      const b = built(bench, task, i, (bench === "bbh" ? bbh : bbeh)[task][i].target);
      log.add(b, { question: input, ...(target ? { gold: target } : {}), output: b.response });
    };
    add("bbh", "causal_judgement", 119, causal[32].input, causal[119].target);
    add("bbh", "causal_judgement", 32, causal[119].input, causal[32].target);
    add("bbh", "sports_understanding", 27, sports[155].input); // the first of the two
    add("bbh", "sports_understanding", 155, sports[27].input); // the second
    add("bbeh", "linguini", 121, linguini[41].input, linguini[121].target);
    log.add({
      benchmark: "bbeh",
      task: "linguini",
      example_index: 41,
      response: "x",
      quarantined: "ambiguous input: 7 examples of linguini (example_index 41, 121, 139, 146, " +
        "157, 159, 185) share it with different targets; give example_index or target",
    }, { question: linguini[41].input, output: "x" });
    const files = [{ log, path: log.write(join(work, "logs")), run: "shared" }];
    await checkShape(files, [files[0].path], data, work);
  });
});

/**
 * A copy of the data directory (links, but for BBH's task files) in which navigate's example
 * `k` asks web_of_lies' question `j`; returns its path.
 */
function dataWithSharedQuestion(data: string, work: string, k: number, j: number): string {
  const copy = join(work, "data");
  Deno.mkdirSync(join(copy, "bbh", "bbh"), { recursive: true });
  for (const e of Deno.readDirSync(data)) {
    if (e.name !== "bbh") Deno.symlinkSync(join(data, e.name), join(copy, e.name));
  }
  for (const e of Deno.readDirSync(join(data, "bbh"))) {
    if (e.name !== "bbh") Deno.symlinkSync(join(data, "bbh", e.name), join(copy, "bbh", e.name));
  }
  for (const e of Deno.readDirSync(join(data, "bbh", "bbh"))) {
    Deno.copyFileSync(join(data, "bbh", "bbh", e.name), join(copy, "bbh", "bbh", e.name));
  }
  const read = (task: string) =>
    JSON.parse(Deno.readTextFileSync(join(copy, "bbh", "bbh", `${task}.json`)));
  const navigate = read("navigate");
  navigate.examples[k].input = read("web_of_lies").examples[j].input;
  Deno.writeTextFileSync(join(copy, "bbh", "bbh", "navigate.json"), JSON.stringify(navigate));
  return copy;
}

dataTest(
  "(f) a question in two tasks: ambiguous, unless the target or the file name separates them",
  async (data) => {
    const { bbh } = examplesOf(data);
    const j = 0;
    const k = bbh.navigate.findIndex((e) => e.target !== bbh.web_of_lies[j].target);
    await withTempDir(async (work) => {
      const copy = dataWithSharedQuestion(data, work, k, j);
      const q = bbh.web_of_lies[j].input;
      const nav = (run: string) => built("bbh", "navigate", k, bbh.navigate[k].target, run);
      const wol = (run: string) => built("bbh", "web_of_lies", j, bbh.web_of_lies[j].target, run);
      const dir = join(work, "logs", "cross");
      const shared = new ShapeLog("shared.jsonl")
        .add({
          ...nav("shared"),
          quarantined: `ambiguous input: it is a question of BBH navigate (example_index ${k}) ` +
            `and BBH web_of_lies (example_index ${j}); give benchmark, task or target`,
        }, { input: q, response: "x" })
        .add(nav("shared"), {
          input: q,
          target: bbh.navigate[k].target,
          response: nav("").response,
        })
        .add(wol("shared"), {
          input: q,
          target: bbh.web_of_lies[j].target,
          response: wol("").response,
        });
      const byName = [
        new ShapeLog("navigate-zero-shot.jsonl").add(nav("navigate-zero-shot"), {
          input: `Q: ${q}\nA:`,
          response: nav("").response,
        }),
        new ShapeLog("web_of_lies-zero-shot.jsonl").add(wol("web_of_lies-zero-shot"), {
          input: `Q: ${q}\nA:`,
          response: wol("").response,
        }),
      ];
      const files = [shared, ...byName].map((log) => ({
        log,
        path: log.write(dir),
        run: log.name.replace(/\.jsonl$/, ""),
      }));
      const shape = await checkShape(files, [dir], copy, work);
      assert.equal(runOf(shape, "shared").grouping, "file");
    });
  },
);

// ---------------------------------------------------------------------------------------------
// (g) the lm-eval version of three BBH items; the cut-short snarks item

dataTest(
  "(g) the lm-eval version's items flagged and counted per run; snarks 88 whole in every reader",
  async (data) => {
    const { bbh } = examplesOf(data);
    const version = (task: string, i: number) =>
      LM_EVAL_BBH.items.find((x) => x.task === task && x.index === i);
    const whole = wholeSnarks88(data);
    assert.ok(whole.startsWith(bbh.snarks[88].input) && whole.length > bbh.snarks[88].input.length);
    await withTempDir(async (work) => {
      const dir = join(work, "logs", "versions");
      const files: Written[] = [];
      for (const task of ["ruin_names", "snarks"]) {
        const log = new ShapeLog(`${task}-zero-shot-cot.jsonl`);
        bbh[task].forEach((e, i) => {
          const v = version(task, i);
          const input = v?.input ?? (task === "snarks" && i === 88 ? whole : e.input);
          const b = { ...built("bbh", task, i, v?.target ?? e.target), versionTarget: v?.target };
          log.add(b, {
            input,
            target: v?.target ?? e.target,
            message_log: chat(input, b.response),
          });
        });
        files.push({ log, path: log.write(dir), run: "versions" });
      }
      const csvLog = new ShapeLog("movie_recommendation_few_shot_template_0-255000.csv");
      releaseOutputs(data, "code-davinci-002-cot", "movie_recommendation").forEach((o, i) => {
        const v = version("movie_recommendation", i);
        const release = bbh.movie_recommendation[i];
        const b = {
          ...built("bbh", "movie_recommendation", i, v?.target ?? o.target),
          versionTarget: v?.target,
        };
        const prompt = v ? o.input.replace(release.input, v.input) : o.input;
        assert.ok(!v || prompt !== o.input);
        csvLog.add(b, [prompt, b.response, v?.target ?? o.target]);
      });
      files.push({ log: csvLog, path: csvLog.write(dir), run: "versions" });
      const shape = await checkShape(files, [dir], data, work);
      const run = runOf(shape, "versions", "bbh");
      assert.equal(run.grouping, "folder");
      assert.deepEqual(run.data_versions, { "lm-eval": 3 });
      assert.equal(run.rows_quarantined, 0);
    });
  },
);
