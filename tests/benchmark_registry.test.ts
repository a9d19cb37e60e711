/**
 * The registry: a benchmark defined in its own folder (tests/fixtures/toy_benchmark) and
 * registered from here is scored end to end by the pipeline — data set, task names, its own
 * scorer and aggregate, the text and JSON reports — with no edit anywhere else.
 */
import assert from "node:assert/strict";
import { assertTaskCell } from "./_task_cell.ts";
import { join } from "node:path";
import {
  benchmarks,
  getBenchmark,
  getScorer,
  registerBenchmark,
  scoredBenchmarks,
  SCORER_NAMES,
} from "@runlens/benchmarks/registry.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { runsReport, runsText } from "@runlens/report/runs_text.ts";
import { toy } from "./fixtures/toy_benchmark/benchmark.ts";
import { withTempDir } from "./_tmp.ts";
import { appliesTo } from "@runlens/scorers/types.ts";
import * as builtIn from "@runlens/benchmarks/built_in.ts";
import * as folders from "@runlens/benchmarks/mod.ts";
import { buildScoringState } from "@runlens/pipeline/scoring_state.ts";
import { DEFAULT_LIMITS } from "@runlens/logs/limits.ts";
import { dataTest } from "./_data.ts";

Deno.test("registry: the built-in benchmarks, and which the pipeline scores", () => {
  assert.deepEqual(benchmarks().map((b) => b.name).slice(0, 4), ["bbeh", "bbh", "bbm", "arb"]);
  assert.deepEqual(scoredBenchmarks().map((b) => b.name).slice(0, 2), ["bbeh", "bbh"]);
  assert.equal(getBenchmark(" BBEH ")?.label, "BBEH");
  assert.equal(getBenchmark("nope"), undefined);
  for (const b of benchmarks()) {
    assert.ok(b.description.length > 20, b.name);
    assert.ok(b.tasks.length > 0, b.name);
    for (const s of b.scorers) assert.ok(appliesTo(s, b.name), `${s.name} of ${b.name}`);
    if (b.defaultScorer) assert.equal(getScorer(b.defaultScorer).name, b.defaultScorer);
  }
});

Deno.test("registry: built_in.ts and mod.ts name the same folders, each under its name", () => {
  const names = Object.keys(builtIn);
  assert.deepEqual(Object.keys(folders), names);
  for (const [name, b] of Object.entries(builtIn)) {
    assert.equal(b.name, name);
    assert.equal((folders as Record<string, Record<string, unknown>>)[name][name], b);
  }
  // listed by listOrder, not by the namespaces' alphabetical order
  assert.deepEqual(
    [...names].sort(),
    benchmarks().slice(0, names.length).map((b) => b.name).sort(),
  );
  assert.deepEqual(benchmarks().filter((b) => b.canonicalDefault).map((b) => b.name), ["bbeh"]);
});

dataTest("registry: BBEH is the canonical default whatever the order", async (dir) => {
  const module = (name: string) => getBenchmark(name)!.scoringModule!;
  for (const order of [["bbh", "bbeh"], ["bbeh", "bbh"]]) {
    const { state } = await buildScoringState({
      dataDir: dir,
      benchmarks: order.map((b) => ({
        module: module(b),
        scorer: getBenchmark(b)!.defaultScorer!,
      })),
      limits: DEFAULT_LIMITS,
    });
    assert.equal(state.defaultBenchmark, "bbeh", order.join());
  }
  // a record naming no benchmark, by index into word_sorting (a task of both): BBEH's
  await withTempDir(async (tmp) => {
    const log = join(tmp, "run.jsonl");
    Deno.writeTextFileSync(
      log,
      JSON.stringify({ task: "word_sorting", example_index: 0, response: "x" }) + "\n",
    );
    const loaded = await loadRuns([log], dir);
    assert.deepEqual(loaded.runs.map((r) => [r.benchmark, r.rows_in]), [["bbeh", 1]]);
  });
});

Deno.test("registry: a second canonical default is refused", () => {
  assert.throws(
    () => registerBenchmark({ ...toy, name: "toy2", scorers: [], canonicalDefault: true }),
    /bbeh is already the canonical default benchmark/,
  );
  assert.equal(getBenchmark("toy2"), undefined);
});

Deno.test("registry: a toy benchmark registered from a test is scored by the pipeline", async () => {
  registerBenchmark(toy);
  assert.throws(() => registerBenchmark(toy), /already registered/);
  assert.ok(SCORER_NAMES.includes("toy-exact"));
  await withTempDir(async (dir) => {
    const log = join(dir, "toy_run.jsonl");
    const lines = [
      { benchmark: "toy", task: "add", example_index: 0, response: " 2 " },
      { benchmark: "toy", task: "add", input: "2+2?", response: "4" }, // tied by its input
      { benchmark: "toy", task: "add", example_index: 2, response: "7" },
      { benchmark: "toy", task: "mul", example_index: 0, response: "6" },
      { benchmark: "toy", task: "mul", example_index: 1, response: "16" },
      { benchmark: "toy", task: "div", example_index: 0, response: "1" }, // not a toy task
      { benchmark: "toy", task: "mul", example_index: 5, response: "1" }, // out of range
    ];
    Deno.writeTextFileSync(log, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const loaded = await loadRuns([log], "/nonexistent-data-dir-the-toy-needs-none");
    assert.equal(loaded.runs.length, 1);
    const run = loaded.runs[0];
    assert.deepEqual([run.benchmark, run.scorer], ["toy", "toy-exact"]);
    assert.deepEqual([run.rows_in, run.rows_scored, run.rows_quarantined], [7, 5, 2]);
    assertTaskCell(run.tasks.add as never, { n: 3, correct: 2, accuracy: 200 / 3 });
    assertTaskCell(run.tasks.mul as never, { n: 2, correct: 2, accuracy: 100 });
    // the toy's own aggregate: one of its two tasks is fully solved
    assert.deepEqual(run.aggregate, { solved_tasks: 50, coverage: "full", note: null });
    assert.deepEqual(loaded.quarantine.map((q) => [q.line, q.reason]), [
      [6, 'unknown task "div" (not a Toy task)'],
      [7, "example_index 5 out of range for mul (0–1)"],
    ]);
    assert.deepEqual(runsReport(loaded).runs[0].aggregate, {
      solved_tasks: 50,
      coverage: "full",
      note: null,
      ci: {}, // the toy declares no intervals
    });
    assert.match(runsText(loaded), /Toy solved tasks \(%\): 50\.00 {3}coverage: full/);
  });
});
