/**
 * Names checked against content, and structured logs named their own way (review 22c: N2, N6,
 * N8), on logs generated here from the BBH release:
 * - direct-answer runs (right on ~95% and ~70% of rows, a seeded generator; a wrong answer is
 *   another target of the task) written as CSV with the header names swapped (`target` holds
 *   the model's answers, `response` the gold) and as JSON-lines with the canonical keys swapped:
 *   refused with both `--map` choices, never a table of 100%; the same rows with the names right
 *   come out with the counts they were generated with; `--map` of the columns wins;
 * - an inspect `.eval` whose task has its own name (`bbh_custom`): tied by its questions, or by
 *   `--map benchmark==bbh`; a field mapping for it is an error; a sample that errored is
 *   quarantined with its message, not scored as an empty wrong answer.
 * Expected counts come from the generator, not from the code under test.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { strToU8, zipSync } from "fflate";
import { parseColumnMap } from "@runlens/logs/mapped.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { readBbhExamples } from "./_examples.ts";
import { withTempDir } from "./_tmp.ts";
import { Rng } from "./fuzz/rng.ts";

const TASKS = ["date_understanding", "navigate", "object_counting"];

/** One row: the question, the model's direct answer, the gold, and whether right. */
interface Row {
  input: string;
  answer: string;
  gold: string;
  right: boolean;
}

/** A direct-answer run of the first 80 examples of `task`, right with probability `p`. */
function directRun(data: string, task: string, p: number, seed: number): Row[] {
  const examples = readBbhExamples(data)[task].slice(0, 80);
  const targets = [...new Set(examples.map((e) => e.target))].sort();
  const rng = new Rng(seed);
  return examples.map((e) => {
    const right = rng.next() < p;
    const others = targets.filter((t) => t !== e.target);
    const answer = right ? e.target : others[Math.floor(rng.next() * others.length)];
    return { input: e.input, answer, gold: e.target, right };
  });
}

const quote = (s: string) => `"${s.replaceAll('"', '""')}"`;

/**
 * Per task, a CSV of `runs` with cells question, model's answer, gold: named `question,target,
 * response` (swapped: "target" holds the answers, "response" the gold) or `question,response,
 * target` (right).
 */
function writeCsvFolder(folder: string, runs: Map<string, Row[]>, names: "swapped" | "right") {
  Deno.mkdirSync(folder, { recursive: true });
  const header = names === "swapped" ? "question,target,response" : "question,response,target";
  for (const [task, rows] of runs) {
    const lines = rows.map((r) => [r.input, r.answer, r.gold].map(quote).join(","));
    Deno.writeTextFileSync(join(folder, `${task}.csv`), [header, ...lines].join("\n") + "\n");
  }
}

function runsOf(data: string, p: number, seed: number): Map<string, Row[]> {
  return new Map(TASKS.map((t, i) => [t, directRun(data, t, p, seed + i)]));
}

/** Each task's [n, correct] as generated. */
function generated(runs: Map<string, Row[]>): Record<string, [number, number]> {
  return Object.fromEntries(
    [...runs].map(([t, rows]) => [t, [rows.length, rows.filter((r) => r.right).length]]),
  );
}

type Loaded = Awaited<ReturnType<typeof loadRuns>>;

/** Each task's [n, correct] as scored (one run). */
function scored(loaded: Loaded): Record<string, [number, number]> {
  assert.equal(loaded.runs.length, 1);
  return Object.fromEntries(
    Object.entries(loaded.runs[0].tasks).map(([t, x]) => [t, [x.n, x.correct]]),
  );
}

for (const [p, seed] of [[0.95, 11], [0.7, 21]] as const) {
  dataTest(`CSV header names swapped, a model right on ~${p * 100}%: refused, never 100%`, async (
    data,
  ) => {
    await withTempDir(async (dir) => {
      const runs = runsOf(data, p, seed);
      const wrong = [...runs.values()].flat().filter((r) => !r.right).length;
      assert.ok(wrong > 0); // the generator made a model that is not right on every row
      const swapped = join(dir, "swapped");
      writeCsvFolder(swapped, runs, "swapped");
      const loaded = await loadRuns([swapped], data);
      assert.deepEqual(loaded.runs, []); // no table at all
      assert.equal(loaded.errors.length, TASKS.length);
      for (const e of loaded.errors) {
        assert.match(
          e.reason,
          /^not scored \(its names look swapped\): the column named as the response, response, equals each row's data-set target on (\d+) of \1 rows/,
        );
        assert.ok(e.reason.endsWith(
          "if response holds the gold, --map input=question,response=target,target=response; " +
            "if the names are right, --map input=question,response=response,target=target",
        ));
      }
      // the --map it names reads the truth
      const mapped = await loadRuns([swapped], data, {
        map: parseColumnMap("input=question,response=target,target=response"),
      });
      assert.deepEqual(mapped.errors, []);
      assert.deepEqual(mapped.quarantine, []);
      assert.deepEqual(scored(mapped), generated(runs));
      // --map of the columns wins, also when it confirms the names (the user's word)
      const asNamed = await loadRuns([swapped], data, {
        map: parseColumnMap("input=question,response=response,target=target"),
      });
      assert.equal(asNamed.quarantine.length, wrong);
      // the controls: the same cells with the names right come out as generated
      const right = join(dir, "right");
      writeCsvFolder(right, runs, "right");
      const control = await loadRuns([right], data);
      assert.deepEqual([control.errors, control.quarantine], [[], []]);
      assert.deepEqual(scored(control), generated(runs));
    });
  });
}

dataTest(
  "JSON-lines with the canonical keys swapped: refused; --map literals alone do not switch the check off",
  async (
    data,
  ) => {
    await withTempDir(async (dir) => {
      const rows = directRun(data, "navigate", 0.8, 5);
      const path = join(dir, "navigate.jsonl");
      Deno.writeTextFileSync(
        path,
        rows.map((r) =>
          JSON.stringify({ task: "navigate", input: r.input, target: r.answer, response: r.gold })
        ).join("\n") + "\n",
      );
      const loaded = await loadRuns([path], data);
      assert.deepEqual(loaded.runs, []);
      assert.match(
        loaded.errors[0].reason,
        /^not scored \(its names look swapped\): the field named/,
      );
      const cli = await runCli(["score", path, "--map", "benchmark==bbh"]);
      assert.notEqual(cli.code, 0);
      assert.match(cli.stderr, /its names look swapped/);
      // keys the right way round: read as named, the generated counts
      const fixed = join(dir, "fixed", "navigate.jsonl");
      Deno.mkdirSync(join(dir, "fixed"));
      Deno.writeTextFileSync(
        fixed,
        rows.map((r) =>
          JSON.stringify({ task: "navigate", input: r.input, target: r.gold, response: r.answer })
        ).join("\n") + "\n",
      );
      const control = await loadRuns([fixed], data);
      assert.deepEqual([control.errors, control.quarantine], [[], []]);
      assert.deepEqual(scored(control), {
        navigate: [rows.length, rows.filter((r) => r.right).length],
      });
    });
  },
);

/** An inspect `.eval` of `task` under the eval task name `name`; sample 3 errored. */
function writeEval(path: string, name: string, task: string, rows: readonly Row[]): void {
  const members: Record<string, Uint8Array> = {};
  rows.forEach((r, i) => {
    const id = i + 1;
    const sample: Record<string, unknown> = {
      id,
      epoch: 1,
      input: r.input,
      target: r.gold,
      messages: [{ role: "user", content: r.input }],
      output: { completion: `So the answer is ${r.answer}.` },
      scores: { match: { value: r.right ? "C" : "I" } },
      metadata: {},
    };
    if (id === 3) {
      Object.assign(sample, {
        output: { completion: "", choices: [] },
        error: { message: "RateLimitError: 429\nmore", traceback: "" },
      });
      delete sample.scores;
    }
    members[`samples/${id}_epoch_1.json`] = strToU8(JSON.stringify(sample));
  });
  const spec = { task: name, task_args: { subset_name: task }, model: "m/x" };
  members["header.json"] = strToU8(JSON.stringify({ version: 2, status: "success", eval: spec }));
  Deno.writeFileSync(path, zipSync(members));
}

dataTest(
  "inspect .eval with its own task name: tied by its questions or --map benchmark==bbh; an errored sample is quarantined",
  async (
    data,
  ) => {
    await withTempDir(async (dir) => {
      const rows = directRun(data, "navigate", 0.7, 9).slice(0, 30);
      const path = join(dir, "custom.eval");
      writeEval(path, "bbh_custom", "navigate", rows);
      const kept = rows.filter((_, i) => i !== 2); // sample 3 errored
      const want = { navigate: [kept.length, kept.filter((r) => r.right).length] };
      for (const map of [undefined, parseColumnMap("benchmark==bbh")]) {
        const loaded = await loadRuns([path], data, { map });
        assert.deepEqual(scored(loaded), want);
        assert.equal(loaded.runs[0].benchmark, "bbh");
        assert.deepEqual(loaded.quarantine.map((q) => [q.line, q.reason]), [
          [3, "the sample errored: RateLimitError: 429"],
        ]);
      }
      // a task name that is no benchmark, on questions that are no example: the remedy named
      const other = join(dir, "other.eval");
      writeEval(
        other,
        "my_eval",
        "navigate",
        rows.slice(0, 4).map((r) => ({ ...r, input: `${r.input} (edited)` })),
      );
      const quarantined = await loadRuns([other], data);
      assert.ok(
        quarantined.quarantine.some((q) =>
          q.reason.startsWith('unsupported benchmark "my_eval"') &&
          q.reason.endsWith("say which with --map benchmark==NAME")
        ),
      );
      // a field mapping cannot apply to an inspect log: an error, not ignored
      const cli = await runCli(["score", path, "--map", "response=output"]);
      assert.notEqual(cli.code, 0);
      assert.match(cli.stderr, /field mappings apply to JSON-lines and CSV logs only/);
    });
  },
);

dataTest(
  "a gold column that differs from the data set on many rows is named, with the remedy",
  async (
    data,
  ) => {
    await withTempDir(async (dir) => {
      // a model right on ~60%: below the gold column's 75% agreement, so the names stand
      const runs = runsOf(data, 0.6, 31);
      // the log's own gold differs from the data set's on every 4th row (another version of it)
      const targets = (task: string) => [...new Set(runs.get(task)!.map((r) => r.gold))].sort();
      const edited = new Map([...runs].map(([task, rows]) => [
        task,
        rows.map((r, i) =>
          i % 4 === 0 ? { ...r, gold: targets(task).find((t) => t !== r.gold)! } : r
        ),
      ]));
      const folder = join(dir, "gold");
      writeCsvFolder(folder, edited, "right");
      const loaded = await loadRuns([folder], data);
      for (const task of TASKS) {
        const file = join(folder, `${task}.csv`);
        const differ = edited.get(task)!.filter((_, i) => i % 4 === 0).length;
        const warning = loaded.warnings.find((w) => w.startsWith(`${file}: `));
        assert.ok(warning, `no warning for ${file}: ${loaded.warnings.join("\n")}`);
        assert.ok(
          warning.startsWith(
            `${file}: the target of ${differ} of 80 rows differs from the data set's (quarantined; ` +
              "the accuracy rests on the others): check the file — if target holds the model's " +
              "answers and response the gold: --map input=question,response=target,target=response;",
          ),
          warning,
        );
      }
      // the same logs with the data set's gold: no such warning
      const clean = join(dir, "clean");
      writeCsvFolder(clean, runs, "right");
      const ok = await loadRuns([clean], data);
      assert.deepEqual(ok.warnings.filter((w) => w.includes("differs from the data set")), []);
    });
  },
);
