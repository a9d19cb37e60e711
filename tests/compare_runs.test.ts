/**
 * Paired comparisons of runs (issue 16, item 2): the library function on hand-built rows with
 * values worked out by hand, epochs averaged first, unpaired examples counted; the CLI's choice
 * of pairs and its JSON envelope.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { compareRunPairs, compareRuns, formatPValue, P_FLOOR } from "@runlens/analyses/compare.ts";
import { diffText } from "@runlens/cli/compare.ts";
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

Deno.test("compareRunPairs: a disjoint pair is listed, the others compared; Holm over all pairs", () => {
  // A, B, C answer examples 0-9 of tasks t1 and t2; D answers only 50-59 (nothing in common).
  // t1: A right on all 10, B on none, C on 0-4 → p(A,B) = 2/2¹⁰, p(A,C) = 2/2⁵, p(B,C) = 2/2⁵
  // t2: everyone right on 0-9 → p = 1 for every pair
  const rows: [string, string, number, boolean][] = [];
  for (let i = 0; i < 10; i++) {
    rows.push(["A", "t1", i, true], ["B", "t1", i, false], ["C", "t1", i, i < 5]);
    for (const r of ["A", "B", "C"]) rows.push([r, "t2", i, true]);
    rows.push(["D", "t1", 50 + i, true]);
  }
  const set = compareRunPairs(frame(rows), [["A", "B"], ["A", "C"], ["A", "D"], ["B", "C"]]);
  assert.deepEqual(set.comparisons.map((c) => `${c.run_a}-${c.run_b}`), ["A-B", "A-C", "B-C"]);
  assert.deepEqual(set.not_compared, [{
    run_a: "A",
    run_b: "D",
    benchmark: "bbeh",
    reason: "no-common-example",
    detail: 'runs "A" and "D" share no example of bbeh',
  }]);
  // one family of 6 task tests: p sorted 2⁻⁹, 2⁻⁴, 2⁻⁴, 1, 1, 1 → Holm 6·2⁻⁹, then
  // max(5·2⁻⁴, …) = 5/16 for both 2⁻⁴ (ties keep the running maximum), then 1
  const holm = set.comparisons.flatMap((c) => c.tasks.map((t) => [t.scope, t.p_holm]));
  assert.deepEqual(holm, [
    ["t1", 6 / 512],
    ["t2", 1],
    ["t1", 5 / 16],
    ["t2", 1],
    ["t1", 5 / 16],
    ["t2", 1],
  ]);
  assert.equal(set.holm.tasks.tests, 6);
  assert.match(set.holm.tasks.description, /^6 per-task test\(s\) over 3 comparison\(s\)/);
  // overall rows: 3 tests (2⁻⁹, 2⁻⁴, 2⁻⁴ on 20 paired examples) → 3·2⁻⁹, 2·2⁻⁴, 2·2⁻⁴
  assert.deepEqual(set.comparisons.map((c) => c.overall.p_holm), [3 / 512, 1 / 8, 1 / 8]);
  // a pair of which one run has no row at all
  const none = compareRunPairs(frame(rows), [["A", "nope"]]);
  assert.deepEqual([none.comparisons.length, none.not_compared[0].reason], [0, "no-scored-rows"]);
});

Deno.test("p-values never 0: below 1e-300 the bound is given, with the exact log10", () => {
  // 2,500 examples A got right and B did not: McNemar p = 2·2⁻²⁵⁰⁰ (a double underflows)
  const rows: [string, string, number, boolean][] = [];
  for (let i = 0; i < 2500; i++) rows.push(["A", "t", i, true], ["B", "t", i, false]);
  const [c] = compareRuns(frame(rows), "A", "B");
  for (const r of [c.overall, c.tasks[0]]) {
    assert.equal(r.p_value, P_FLOOR);
    assert.equal(r.p_value_bound, true);
    assert.ok(Math.abs(r.log10_p_value - (1 - 2500) * Math.log10(2)) < 1e-9);
    assert.ok(r.p_holm! > 0);
  }
  assert.ok(JSON.stringify(c).includes('"p_value":1e-300'));
  assert.equal(formatPValue(c.overall.p_value, c.overall.p_value_bound), "<1e-300");
  assert.equal(formatPValue(2 * 2 ** -100), "1.6e-30"); // 2⁻⁹⁹ = 1.58e-30
  assert.equal(formatPValue(0.0421), "0.042");
  // Tango's interval of 2,500 of 2,500: within [−100, 100], not beyond
  assert.equal(c.overall.ci_high, 100);
  assert.ok(c.overall.ci_low > 99 && c.overall.ci_low < 100);
});

Deno.test("interval text has the decimals to be non-degenerate", () => {
  assert.equal(diffText(0, -0.0849, 0.0849), "0.0 [-0.1, 0.1]");
  assert.equal(diffText(0, -0.0384, 0.0384), "0.0 [-0.04, 0.04]");
  assert.equal(diffText(12.34, 3.21, 20.5), "12.3 [3.2, 20.5]");
  assert.equal(diffText(0.001, 0.0004, 0.0006), "0.0 [0.0004, 0.0006]");
});

dataTest("runlens compare: pairs chosen, JSON envelope with the comparisons", async (dir) => {
  await withTempDir(async (tmp) => {
    const lines = (model: string, right: (i: number) => boolean) =>
      [...Array(20).keys()].map((i) =>
        JSON.stringify({
          task: "nycc",
          example_index: i,
          model,
          // a wrong letter, not a word: an answer of the target's form (only the pairing
          // matters here; answers not found are tested in answer_found_review.test.ts)
          response: right(i) ? "The answer is: (A)" : "The answer is: (Z)",
        })
      ).join("\n") + "\n";
    // the answers are scored against the real targets; only the pairing matters here
    Deno.writeTextFileSync(join(tmp, "a.jsonl"), lines("model-a", (i) => i % 2 === 0));
    Deno.writeTextFileSync(join(tmp, "b.jsonl"), lines("model-b", (i) => i % 3 === 0));
    Deno.writeTextFileSync(join(tmp, "c.jsonl"), lines("model-c", () => false));
    // model-d answers other examples (20-39): no example in common with anyone
    Deno.writeTextFileSync(
      join(tmp, "d.jsonl"),
      lines("model-d", () => true).replace(
        /"example_index":(\d+)/g,
        (_, i) => `"example_index":${+i + 20}`,
      ),
    );
    const run = (args: string[]) => runCli(["compare", ...args, "--data", dir]);
    const all = await run([tmp, "--json"]);
    assert.equal(all.code, 0, all.stderr);
    const json = JSON.parse(all.stdout);
    assert.equal(json.command, "compare");
    assert.deepEqual(Object.keys(json), [
      "command",
      "runs",
      "quarantine",
      "errors",
      "comparisons",
      "not_compared",
      "holm",
      "advice",
    ]);
    assert.deepEqual(
      json.comparisons.map((c: { run_a: string; run_b: string }) => [c.run_a, c.run_b]),
      // each file's records name their model: the runs; model-d shares no example
      [["model-a", "model-b"], ["model-a", "model-c"], ["model-b", "model-c"]],
    );
    assert.deepEqual(
      json.not_compared.map((n: { run_a: string; run_b: string; reason: string }) => [
        n.run_a,
        n.run_b,
        n.reason,
      ]),
      [
        ["model-a", "model-d", "no-common-example"],
        ["model-b", "model-d", "no-common-example"],
        ["model-c", "model-d", "no-common-example"],
      ],
    );
    assert.equal(json.holm.tasks.tests, 3); // one task × the three pairs compared
    assert.equal(json.comparisons[0].overall.n_paired, 20);
    const base = JSON.parse((await run([tmp, "--baseline", "model-c", "--json"])).stdout);
    assert.deepEqual(
      base.comparisons.map((c: { run_a: string; run_b: string }) => [c.run_a, c.run_b]),
      [["model-a", "model-c"], ["model-b", "model-c"]],
    );
    const bad = await run([tmp, "--a", "a"]);
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /--a and --b go together/);
    const many = await run([tmp]);
    assert.equal(many.code, 0, many.stderr);
    assert.match(many.stdout, /^Not compared:\n {2}runs "model-a" and "model-d" share no example/m);
    assert.match(
      many.stdout,
      /^Holm families: p Holm of the task rows is adjusted over 3 per-task/m,
    );
    const alone = await run([join(tmp, "a.jsonl"), join(tmp, "d.jsonl")]);
    assert.equal(alone.code, 1); // nothing at all to compare: an error naming why
    assert.match(alone.stderr, /no pair of runs could be compared: runs "model-a" and "model-d"/);
    const text = await run([join(tmp, "a.jsonl"), join(tmp, "b.jsonl")]);
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout,
      /^model-a vs model-b \(bbeh\): 20 paired examples; unpaired: 0 only in model-a, 0 only in model-b/,
    );
    assert.match(text.stdout, /^ {2}overall +20 /m);
  });
});
