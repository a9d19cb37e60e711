/**
 * `runlens analyze`: JSON shape on SYNTHETIC logs, and usage errors.
 *
 * @module
 */
import assert from "node:assert/strict";
import { dataTest } from "./_data.ts";
import { analyzeMain } from "@runlens/cli/analyze.ts";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import {
  generateSyntheticRuns,
  writeSyntheticLogs,
} from "@runlens/benchmarks/bbeh/synthetic/generate.ts";
import { BBEH_TASKS } from "@runlens/benchmarks/bbeh/tasks.ts";

async function capture(fn: () => Promise<number>): Promise<{ code: number; out: string }> {
  const log = console.log, err = console.error;
  const lines: string[] = [];
  console.log = (...a: unknown[]) => lines.push(a.join(" "));
  console.error = () => {};
  try {
    const code = await fn();
    return { code, out: lines.join("\n") };
  } finally {
    console.log = log;
    console.error = err;
  }
}

Deno.test("analyze: usage errors", async () => {
  assert.equal((await capture(() => analyzeMain([]))).code, 2);
  assert.equal((await capture(() => analyzeMain(["--bogus"]))).code, 2);
  assert.equal((await capture(() => analyzeMain(["--help"]))).code, 0);
});

dataTest("analyze --json: subsets and failure_modes per run", async (dir) => {
  const runs = generateSyntheticRuns(loadBbehDataset(dir), [{
    model: "cli synthetic",
    correct: Object.fromEntries(BBEH_TASKS.map((t) => [t.name, 50])),
    boardgame: { unknownPredictions: 100 },
    objectCounting: { over: 30, under: 70 },
    mistakeFinding: { dyck_languages: { early: 10, late: 30 } },
  }]);
  const tmp = await Deno.makeTempDir();
  try {
    const [path] = writeSyntheticLogs(runs, tmp);
    const { code, out } = await capture(() => analyzeMain([path, "--data", dir, "--json"]));
    assert.equal(code, 0);
    const json = JSON.parse(out);
    assert.equal(json.command, "analyze");
    const run = json.runs.find((r: { run: string }) => r.run === "cli synthetic");
    assert.equal(run.model, "cli synthetic");
    assert.deepEqual(run.subsets.zebra_puzzles["5x5"].n, 40);
    assert.equal(typeof run.subsets.web_of_lies.cyclic.accuracy, "number");
    const f = run.failure_modes;
    for (
      const key of [
        "boardgame_qa.unknown_share",
        "object_counting.over_count_share",
        "object_counting.under_count_share",
        "dyck_languages.early_flag_share",
        "dyck_languages.missed_first_share",
        ...BBEH_TASKS.map((t) => `no_answer_share.${t.name}`),
      ]
    ) {
      assert.ok(f[key], key);
      assert.equal(typeof f[key].n, "number", key);
    }
    assert.deepEqual([f["boardgame_qa.unknown_share"].count, f["boardgame_qa.unknown_share"].n], [
      100,
      200,
    ]);
    assert.equal(f["boardgame_qa.unknown_share"].share, 50);
    assert.deepEqual(
      [f["dyck_languages.early_flag_share"].count, f["dyck_languages.early_flag_share"].n],
      [10, 40],
    );
    assert.equal(f["dyck_languages.missed_first_share"].share, 75);
    const text = await capture(() => analyzeMain([path, "--data", dir]));
    assert.equal(text.code, 0);
    assert.match(text.out, /boardgame_qa\.unknown_share\s+50\.0%/);
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});
