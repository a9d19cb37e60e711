/**
 * Paired comparisons of runs (issue 16, item 2): the library function on hand-built rows with
 * values worked out by hand, epochs averaged first, unpaired examples counted; the CLI's choice
 * of pairs and its JSON envelope.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { compareRuns } from "@runlens/pipeline/compare.ts";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

/** Rows of one benchmark from [run, task, example, correct] tuples. */
function frame(rows: [string, string, number, boolean][], epochs?: number[]): pl.DataFrame {
  return pl.DataFrame({
    run: rows.map((r) => r[0]),
    benchmark: rows.map(() => "bbeh"),
    task: rows.map((r) => r[1]),
    example_index: rows.map((r) => r[2]),
    correct: rows.map((r) => r[3]),
    ...(epochs ? { epoch: epochs } : {}),
  });
}

Deno.test("compareRuns: differences, McNemar and Holm worked out by hand", () => {
  // task t1: 6 paired examples, A right on 0-4, B right on 3-5 → A−B = 5/6 − 3/6; b=3, c=1
  // task t2: 2 paired examples, both right on both → no discordant pairs, p = 1
  const rows: [string, string, number, boolean][] = [];
  for (let i = 0; i < 6; i++) {
    rows.push(["A", "t1", i, i <= 4], ["B", "t1", i, i >= 3]);
  }
  for (let i = 0; i < 2; i++) rows.push(["A", "t2", i, true], ["B", "t2", i, true]);
  const [c] = compareRuns(frame(rows), "A", "B");
  const t1 = c.tasks.find((t) => t.scope === "t1")!;
  assert.equal(t1.n_paired, 6);
  assert.ok(Math.abs(t1.diff - (5 / 6 - 3 / 6) * 100) < 1e-9);
  assert.deepEqual([t1.a_only, t1.b_only], [3, 1]);
  // exact McNemar: 2 · P(X ≤ 1), X ~ Bin(4, 1/2) = 2 · 5/16
  assert.equal(t1.p_value, 10 / 16);
  // paired differences d = [1,1,1,0,0,-1]: mean 1/3, Σ(d−d̄)² = 3·(2/3)² + 2·(1/3)² + (4/3)²
  // = 10/3, SE = sqrt((10/3) / (6·5)) = 1/3
  assert.ok(Math.abs(t1.se! - 100 / 3) < 1e-9);
  const t2 = c.tasks.find((t) => t.scope === "t2")!;
  assert.equal(t2.p_value, 1);
  // Holm over two p-values (0.625, 1): sorted ascending, multipliers 2 and 1, kept monotone
  assert.equal(t1.p_holm, 1);
  assert.equal(t2.p_holm, 1);
  assert.equal(c.overall.n_paired, 8);
  assert.deepEqual([c.unpaired_a, c.unpaired_b], [0, 0]);
});

Deno.test("compareRuns: epochs are averaged per example; unpaired examples counted", () => {
  const rows: [string, string, number, boolean][] = [
    ["A", "t", 0, true],
    ["A", "t", 0, false], // example 0: A's mean 0.5
    ["B", "t", 0, false],
    ["A", "t", 1, true],
    ["B", "t", 1, true],
    ["A", "t", 2, true], // only A
    ["B", "t", 3, false], // only B
  ];
  const [c] = compareRuns(frame(rows, [1, 2, 1, 1, 1, 1, 1]), "A", "B");
  assert.equal(c.overall.n_paired, 2);
  assert.equal(c.overall.acc_a, 75); // (0.5 + 1) / 2
  assert.equal(c.overall.acc_b, 50);
  assert.equal(c.overall.test, "sign-exact"); // a fractional score
  assert.deepEqual([c.unpaired_a, c.unpaired_b], [1, 1]);
  assert.throws(() => compareRuns(frame(rows), "A", "nope"), /no scored rows for run "nope"/);
});

dataTest("runlens compare: pairs chosen, JSON envelope with the comparisons", async (dir) => {
  await withTempDir(async (tmp) => {
    const lines = (model: string, right: (i: number) => boolean) =>
      [...Array(20).keys()].map((i) =>
        JSON.stringify({
          task: "nycc",
          example_index: i,
          model,
          response: right(i) ? "The answer is: (A)" : "The answer is: none",
        })
      ).join("\n") + "\n";
    // the answers are scored against the real targets; only the pairing matters here
    Deno.writeTextFileSync(join(tmp, "a.jsonl"), lines("model-a", (i) => i % 2 === 0));
    Deno.writeTextFileSync(join(tmp, "b.jsonl"), lines("model-b", (i) => i % 3 === 0));
    Deno.writeTextFileSync(join(tmp, "c.jsonl"), lines("model-c", () => false));
    const run = (args: string[]) => runCli(["compare", ...args, "--data", dir]);
    const all = await run([tmp, "--json"]);
    assert.equal(all.code, 0, all.stderr);
    const json = JSON.parse(all.stdout);
    assert.equal(json.command, "compare");
    assert.deepEqual(Object.keys(json), ["command", "runs", "quarantine", "errors", "comparisons"]);
    assert.deepEqual(
      json.comparisons.map((c: { run_a: string; run_b: string }) => [c.run_a, c.run_b]),
      // each file's records name their model: the runs
      [["model-a", "model-b"], ["model-a", "model-c"], ["model-b", "model-c"]],
    );
    assert.equal(json.comparisons[0].overall.n_paired, 20);
    const base = JSON.parse((await run([tmp, "--baseline", "model-c", "--json"])).stdout);
    assert.deepEqual(
      base.comparisons.map((c: { run_a: string; run_b: string }) => [c.run_a, c.run_b]),
      [["model-a", "model-c"], ["model-b", "model-c"]],
    );
    const bad = await run([tmp, "--a", "a"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--a and --b go together/);
    const text = await run([join(tmp, "a.jsonl"), join(tmp, "b.jsonl")]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^model-a vs model-b \(bbeh\): 20 paired examples; unpaired: 0 only in model-a, 0 only in model-b/,
    );
    assert.match(text.stdout, /^ {2}overall +20 /m);
  });
});
