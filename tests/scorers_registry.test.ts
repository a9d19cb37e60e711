/**
 * The scorer registry: names, lookup, `scoreFrame` column handling, the `stored` rule and the
 * `bbeh-official` wrapper.
 * @module
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { bbehOfficial } from "@runlens/benchmarks/bbeh/scorer.ts";
import { checkScorerCases } from "@runlens/scorers/conformance.ts";
import { getScorer, SCORER_NAMES, SCORERS } from "@runlens/benchmarks/registry.ts";
import { scoreFrame } from "@runlens/scorers/frame.ts";

Deno.test("registry: the exact names, each with description, source and benchmarks", () => {
  // each registered benchmark's own scorers in registry order (BBEH, BBH, BBM, ARB, GSM8K), then
  // the generic ones
  assert.deepEqual(SCORER_NAMES, [
    "bbeh-official",
    "bbh-release-cot",
    "bbh-release-direct",
    "lm-eval-get-answer",
    "lm-eval-strict",
    "lm-eval-flexible",
    "last-line",
    "bbm-one-based",
    "bbm-zero-based",
    "arb",
    "gsm8k-number",
    "gsm8k-strict",
    "gsm8k-flexible",
    "stored",
    "lenient",
  ]);
  for (const s of SCORERS) {
    assert.ok(s.description.length > 40, s.name);
    assert.ok(s.source.length > 5, s.name);
    assert.ok(!Array.isArray(s.benchmarks) || s.benchmarks.length > 0, s.name);
  }
  assert.deepEqual(getScorer("lm-eval-flexible").needs, ["task", "input"]);
  assert.throws(
    () => getScorer("exact"),
    /unknown scorer "exact"; scorers are: bbeh-official, bbh-release-cot/,
  );
});

Deno.test("scoreFrame: keeps column order, replaces extracted/correct/scorer, drops helpers", () => {
  const df = pl.DataFrame({
    run: ["r", "r"],
    extracted: pl.Series("extracted", ["old", "old"], pl.Utf8),
    response: ["So the answer is (A).", "So the answer is (B)."],
    correct: pl.Series("correct", [false, false], pl.Bool),
    target: ["(A)", "(A)"],
    scorer: ["old", "old"],
    task: ["date_understanding", "date_understanding"],
    input: ["Q\n(A) x\n(B) y", "Q\n(A) x\n(B) y"],
  });
  for (const name of ["bbh-release-cot", "lm-eval-flexible"]) {
    const out = scoreFrame(df.lazy(), getScorer(name));
    assert.deepEqual(out.columns, [...df.columns, "answer_found"]); // added at the end
    assert.deepEqual(out.getColumn("extracted").toArray(), ["(A)", "(B)"]);
    assert.deepEqual(out.getColumn("correct").toArray(), [true, false]);
    assert.deepEqual(out.getColumn("scorer").toArray(), [name, name]);
  }
  // ARB's rule reads the row's answer type (subset), which a BBH frame has not
  for (const s of SCORERS.filter((x) => x.name !== "stored" && !x.needs.includes("subset"))) {
    const out = scoreFrame(df.lazy(), s);
    assert.deepEqual(out.columns, [...df.columns, "answer_found"], s.name);
    const rows = df.toRecords() as unknown as Record<string, string>[];
    const want = rows.map((r) => s.score(r.response, r.target, { task: r.task, input: r.input }));
    assert.deepEqual(out.getColumn("extracted").toArray(), want.map((v) => v.extracted), s.name);
    assert.deepEqual(out.getColumn("answer_found").toArray(), want.map((v) => v.found), s.name);
  }
  const bare = scoreFrame(
    pl.DataFrame({ response: ["x\nTrue"], target: ["true"] }).lazy(),
    getScorer("last-line"),
  );
  assert.deepEqual(bare.columns, [
    "response",
    "target",
    "extracted",
    "correct",
    "answer_found",
    "scorer",
  ]);
});

Deno.test("scoreFrame: custom column names and missing columns", () => {
  const df = pl.DataFrame({ pred: ["True"], gold: ["True"], subtask: ["boolean_expressions"] });
  const out = scoreFrame(df.lazy(), getScorer("lm-eval-flexible"), {
    response: "pred",
    target: "gold",
    task: "subtask",
    input: "pred",
  });
  assert.deepEqual(out.getColumn("correct").toArray(), [true]);
  assert.throws(
    () =>
      scoreFrame(df.lazy(), getScorer("lm-eval-flexible"), { response: "pred", target: "gold" }),
    /scorer lm-eval-flexible needs column "task" \(task\)/,
  );
  assert.throws(() => scoreFrame(df.lazy(), getScorer("last-line")), /needs column "response"/);
});

Deno.test("stored: keeps the log's verdict, extracts nothing", () => {
  const cases = [
    { response: "x", target: "y", stored: true, extracted: null, correct: true, why: "stored" },
    { response: "x", target: "x", stored: false, extracted: null, correct: false, why: "kept" },
    { response: "x", target: "x", stored: null, extracted: null, correct: null, why: "none" },
  ];
  assert.deepEqual(checkScorerCases(getScorer("stored"), cases), []);
});

Deno.test("bbeh-official: the wrapper agrees with lib/benchmarks/bbeh/scorer.ts, directly and in scoreFrame", () => {
  const pairs: [string, string][] = [
    ["The answer is: B", "(B)"],
    ["the answer is: (B)", "(B)"],
    ["The final answer is $\\boxed{42}$.", "42"],
    ["**The answer is: 42**", "42"],
    ["The answer is: 1,000", "1000"],
    ["The answer is: emma, lily", "[emma, lily]"],
    ["The answer is: proved?", "proved"],
    ["Answer: 5", "5"],
  ];
  const cases = pairs.map(([response, target]) => {
    const v = bbehOfficial(response, target);
    return { response, target, extracted: v.extracted, correct: v.correct, why: "official" };
  });
  assert.deepEqual(checkScorerCases(getScorer("bbeh-official"), cases), []);
  assert.deepEqual(cases.map((c) => c.correct), [
    true,
    false,
    true,
    true,
    false,
    true,
    true,
    false,
  ]);
});
