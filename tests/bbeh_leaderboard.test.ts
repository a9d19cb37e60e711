/**
 * The leaderboard and the paper's Figures 5 and 6 (gains between published models), checked
 * against what the paper says about them in Section 5.2.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { leaderboard, LEADERBOARD_COLUMNS } from "@runlens/benchmarks/bbeh/leaderboard.ts";
import { taskGain } from "@runlens/benchmarks/bbeh/gain.ts";
import { BBEH_TABLE2 } from "@runlens/benchmarks/bbeh/published.ts";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { dataTest } from "./_data.ts";

const acc = BBEH_TABLE2.accuracy;
const tasksOf = (df: ReturnType<typeof taskGain>) => df.getColumn("task").toArray() as string[];

Deno.test("published leaderboard: 13 paper columns, best first, columns as documented", () => {
  const board = leaderboard();
  assert.deepEqual(board.columns, [...LEADERBOARD_COLUMNS]);
  assert.equal(board.height, 13);
  const models = board.getColumn("model").toArray();
  assert.equal(models[0], "o3-mini (high)");
  assert.equal(models.at(-1), "Random");
  const top = board.row(0);
  assert.equal(top[board.columns.indexOf("harmonic_mean")], 44.8);
  assert.equal(top[board.columns.indexOf("micro")], 54.2);
});

Deno.test("Figure 5: o3-mini (high) gains least on sarcasm, humour, causation; most on counting", () => {
  const gain = taskGain(acc["GPT4o"], acc["o3-mini (high)"]);
  const order = tasksOf(gain);
  // Paper: least (or negative) gains on commonsense, humour, sarcasm and causation.
  assert.deepEqual(order.slice(0, 3), ["sarc_triples", "nycc", "causal_understanding"]);
  assert.ok((gain.getColumn("gain").toArray() as number[])[0] < 0, "some gains are negative");
  // Paper: most gain on counting, planning, arithmetic, data structures and algorithms.
  assert.deepEqual(order.slice(-3), [
    "multistep_arithmetic",
    "temporal_sequence",
    "object_counting",
  ]);
  assert.equal(gain.row(22)[gain.columns.indexOf("gain")], 90.0 - 6.5);
});

Deno.test("Figure 6: accuracies are floored at random chance before the gain", () => {
  const lite = acc["Gemini 2.0 Flash-Lite"];
  const flash = acc["Gemini 2.0 Flash"];
  const floored = taskGain(lite, flash, { floorAtRandom: true });
  const raw = taskGain(lite, flash);
  const row = (df: typeof raw, task: string) =>
    df.filter(pl.col("task").eq(pl.lit(task))).toRecords()[0];
  // Flash scores 9.0 on Shuffled Objects, below the 14.3 random rate; Flash-Lite 15.0.
  assert.equal(row(raw, "shuffled_objects").gain, 9.0 - 15.0);
  assert.ok(Math.abs((row(floored, "shuffled_objects").gain as number) - (14.3 - 15.0)) < 1e-9);
  // Paper: SARC Triples is the exception with large gains; humour/causal gain least.
  const order = tasksOf(floored);
  assert.ok(order.slice(-5).includes("sarc_triples"));
  assert.ok(
    order.slice(0, 5).includes("nycc") && order.slice(0, 5).includes("causal_understanding"),
  );
});

dataTest("a scored run joins the leaderboard with its aggregates", async (dataDir) => {
  const ds = loadBbehDataset(dataDir).toRecords();
  const dir = Deno.makeTempDirSync();
  const lines = ds.map((r) =>
    JSON.stringify({
      task: r.task,
      example_index: r.example_index,
      response: `The answer is: ${r.target}`,
    })
  );
  Deno.writeTextFileSync(join(dir, "oracle.jsonl"), lines.join("\n") + "\n");
  const loaded = await loadRuns([dir], dataDir);
  const board = leaderboard(loaded.rows);
  assert.equal(board.height, 14);
  const run = board.toRecords().find((r) => r.model === "oracle")!;
  assert.equal(run.source, "run oracle (full set)");
  // Stating every target verbatim: all tasks 100% except linguini 189/200 (11 targets end in ".").
  assert.equal(run.linguini, 94.5);
  assert.ok(Math.abs((run.harmonic_mean as number) - 23 / (22 / 101 + 1 / 95.5)) < 1e-9);
  assert.ok(Math.abs((run.micro as number) - (4520 - 11) / 4520 * 100) < 1e-9);
  assert.equal(board.getColumn("model").toArray()[0], "oracle");
  // The run's harmonic mean has its 95% interval (only linguini varies), the same the load's
  // summary gives; the paper's models have none.
  const ci = loaded.runs[0].intervals.harmonic_mean;
  assert.deepEqual([run.ci_low, run.ci_high], [ci.ci_low, ci.ci_high]);
  const [low, high] = [run.ci_low as number, run.ci_high as number];
  assert.ok(low < (run.harmonic_mean as number) && (run.harmonic_mean as number) < high);
  assert.ok(high <= 101);
  for (const r of board.toRecords().filter((r) => r.model !== "oracle")) {
    assert.deepEqual([r.ci_low, r.ci_high], [null, null]);
  }
});
