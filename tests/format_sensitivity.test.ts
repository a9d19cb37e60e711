/**
 * Answer-format sensitivity (lib/analyses/format_sensitivity.ts): per-task accuracy and
 * no-answer share under every applicable rule, the nested JSON form, the official-vs-lenient
 * disagreement classes, and the figure — on constructed runs with known answers
 * (tests/fixtures/compare/constructed_runs.json) and on the real BBH release outputs.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import {
  DISAGREEMENT_CLASSES,
  formatDisagreements,
  formatRules,
  formatSensitivity,
  formatSensitivityByRun,
  formatSensitivityJson,
  officialScorer,
  scoreAllRules,
  summarizeFormatSensitivity,
} from "@runlens/analyses/format_sensitivity.ts";
import {
  readBbhPublishedAccuracies,
  releaseAccuracy,
} from "@runlens/benchmarks/bbh/release_metrics.ts";
import { loadBbhReleaseOutputs } from "@runlens/benchmarks/bbh/release_outputs.ts";
import { formatSensitivityFigure } from "@runlens/benchmarks/bbh/compare/figures.ts";
import { saveFigure } from "@runlens/render/figure.ts";
import { getBenchmark, registerBenchmark } from "@runlens/benchmarks/registry.ts";
import type { Benchmark } from "@runlens/benchmarks/types.ts";
import { dataTest } from "./_data.ts";
import { constructedRuns } from "./_compare_fixture.ts";

const constructed = constructedRuns;

type Cell = { n: number; correct: number; accuracy: number; no_answer: number };

/** The rules tried on BBH rows: BBH's six scorers in its order, then lenient. */
const BBH_RULES = [
  "bbh-release-cot",
  "bbh-release-direct",
  "lm-eval-get-answer",
  "lm-eval-strict",
  "lm-eval-flexible",
  "last-line",
  "lenient",
];

Deno.test("formatRules: a benchmark's own rules, then lenient (never stored); none unscored", () => {
  assert.deepEqual(formatRules(getBenchmark("bbh")!), BBH_RULES);
  assert.deepEqual(formatRules(getBenchmark("bbeh")!), ["bbeh-official", "lenient"]);
  assert.deepEqual(formatRules(getBenchmark("bbm")!), [], "no default scorer: not scored");
  // ARB is scored by its own dispatcher rule; lenient applies to any benchmark
  assert.deepEqual(formatRules(getBenchmark("arb")!), ["arb", "lenient"]);
});

Deno.test("officialScorer: bbeh-official for BBEH, the run's BBH rule else bbh-release-cot", () => {
  assert.equal(officialScorer("bbeh", "stored"), "bbeh-official");
  assert.equal(officialScorer("bbh", "bbh-release-direct"), "bbh-release-direct");
  assert.equal(officialScorer("bbh", "lm-eval-strict"), "lm-eval-strict");
  assert.equal(officialScorer("bbh", "lenient"), "bbh-release-cot", "lenient is never official");
  assert.equal(officialScorer("bbh", null), "bbh-release-cot");
  assert.throws(() => officialScorer("bbm", null), /not a registered benchmark with a default/);
});

Deno.test("formatSensitivity: known accuracies and no-answer shares of constructed runs", () => {
  const long = formatSensitivity(constructed());
  assert.deepEqual(long.columns, [
    "run",
    "task",
    "scorer",
    "n",
    "correct",
    "accuracy",
    "no_answer",
    "official",
  ]);
  const bbhRules = long.filter(pl.col("run").eq(pl.lit("m1-bbh")))
    .filter(pl.col("task").eq(pl.lit("navigate"))).getColumn("scorer").toArray();
  assert.deepEqual(bbhRules, BBH_RULES);
  const j = formatSensitivityByRun(long);
  assert.deepEqual(Object.keys(j), ["m1-bbeh", "m1-bbh", "m2-bbh"]);
  // "**Answer: (B)**" has no BBH cue: the release rule reads "Hmm" (no answer); lenient reads (B)
  assert.deepEqual(
    j["m1-bbh"].logical_deduction_three_objects["bbh-release-cot"],
    {
      n: 2,
      correct: 1,
      accuracy: 50,
      no_answer: 50,
    } satisfies Cell,
  );
  assert.deepEqual(j["m1-bbh"].logical_deduction_three_objects.lenient, {
    n: 2,
    correct: 2,
    accuracy: 100,
    no_answer: 0,
  });
  // navigate: the think block holds "Yes"; the release rule reads it, lenient ignores it
  assert.equal(j["m1-bbh"].navigate["bbh-release-cot"].correct, 2);
  assert.equal(j["m1-bbh"].navigate.lenient.correct, 3);
  assert.equal(j["m1-bbh"].navigate["lm-eval-strict"].n, 3);
  // BBEH: "Long reasoning. Answer: Unknown" has none of the official prefixes; it is one line,
  // which the official rule reads whole — a sentence with a cue in it, not an answer of the
  // target's form: no answer (1 of 4), wrong
  assert.deepEqual(Object.keys(j["m1-bbeh"].boardgame_qa), ["bbeh-official", "lenient"]);
  assert.deepEqual(j["m1-bbeh"].boardgame_qa["bbeh-official"], {
    n: 4,
    correct: 1,
    accuracy: 25,
    no_answer: 25,
  });
  assert.deepEqual(j["m1-bbeh"].boardgame_qa.lenient, {
    n: 4,
    correct: 2,
    accuracy: 50,
    no_answer: 0,
  });
  // the m2 run is a direct run: its official rule is its own (bbh-release-direct)
  const official = long.filter(pl.col("official")).select("run", "scorer").unique()
    .sort("run").toRecords();
  assert.deepEqual(official, [
    { run: "m1-bbeh", scorer: "bbeh-official" },
    { run: "m1-bbh", scorer: "bbh-release-cot" },
    { run: "m2-bbh", scorer: "bbh-release-direct" },
  ]);
  // its one response is a bare "Yes": the release CoT rule reads a one-line response as the
  // answer (found, and right)
  assert.equal(j["m2-bbh"].navigate["bbh-release-cot"].no_answer, 0);
  assert.equal(j["m2-bbh"].navigate["bbh-release-cot"].correct, 1, "falls back to the line");
});

Deno.test("formatSensitivityJson: one run, or throws naming the runs", () => {
  const long = formatSensitivity(constructed());
  assert.throws(() => formatSensitivityJson(long), /several runs \(m1-bbeh, m1-bbh, m2-bbh\)/);
  const one = formatSensitivityJson(long.filter(pl.col("run").eq(pl.lit("m2-bbh"))));
  assert.deepEqual(Object.keys(one), ["navigate"]);
  assert.deepEqual(Object.keys(one.navigate), BBH_RULES);
  assert.deepEqual(formatSensitivityJson(long, "nope"), {});
});

Deno.test("formatDisagreements: classes, counts and example rows", () => {
  const rows = constructed();
  const scored = scoreAllRules(rows);
  const d = formatDisagreements(scored, rows, { perClass: 5, tailChars: 12 });
  assert.deepEqual(d.counts.toRecords(), [
    { run: "m1-bbeh", task: "boardgame_qa", class: DISAGREEMENT_CLASSES[0], n: 1 },
    {
      run: "m1-bbh",
      task: "logical_deduction_three_objects",
      class: DISAGREEMENT_CLASSES[0],
      n: 1,
    },
    { run: "m1-bbh", task: "navigate", class: DISAGREEMENT_CLASSES[0], n: 1 },
  ]);
  const ex = d.examples.toRecords();
  assert.equal(ex.length, 3);
  assert.deepEqual(ex[0], {
    run: "m1-bbeh",
    class: "official_wrong_lenient_right",
    task: "boardgame_qa",
    example_index: 2,
    target: "unknown",
    official_extracted: "long reason…", // clipped to tailChars
    lenient_extracted: "Unknown",
    response_tail: "wer: Unknown",
  });
  assert.deepEqual(ex.map((e) => e.lenient_extracted), ["Unknown", "(B)", "no"]);
  // the other class: a contradicting "Answer:" line after the BBH cue misleads lenient only
  const flipped = rows.withColumns(
    pl.when(
      pl.col("example_index").eq(0).and(
        pl.col("task").eq(pl.lit("logical_deduction_three_objects")),
      ),
    ).then(pl.lit("So the answer is (A).\nAnswer: (B)")).otherwise(pl.col("response"))
      .alias("response"),
  );
  const d2 = formatDisagreements(scoreAllRules(flipped), flipped, { perClass: 1 });
  const other = d2.examples.filter(pl.col("class").eq(pl.lit(DISAGREEMENT_CLASSES[1])));
  assert.deepEqual(other.select("run", "official_extracted", "lenient_extracted").toRecords(), [
    { run: "m1-bbh", official_extracted: "(A)", lenient_extracted: "(B)" },
  ]);
  assert.equal(d2.examples.height, 3, "perClass = 1 per (run, class)");
});

Deno.test("scoreAllRules: BBM/ARB rows are left out; empty input gives an empty frame", () => {
  const rows = constructed().withColumns(pl.lit("bbm").alias("benchmark"));
  const scored = scoreAllRules(rows);
  assert.equal(scored.height, 0);
  assert.equal(summarizeFormatSensitivity(scored).height, 0);
});

Deno.test("a benchmark registered at run time gets the analysis: its rule, then lenient", () => {
  // a toy benchmark whose one rule reads the response's first word; lenient reads the last
  // "Answer:" cue. Nothing in the analysis names it.
  const firstWord = {
    name: "toy-fs-first-word",
    description: "The response's first word equals the target.",
    source: "this test",
    benchmarks: ["toy-fs"],
    needs: [],
    score: (response: string, target: string) => {
      const word = response.trim().split(/\s+/)[0] ?? "";
      return { extracted: word, correct: word === target, found: word !== "" };
    },
  };
  const toy: Benchmark = {
    name: "toy-fs",
    label: "Toy",
    description: "Yes/no questions.",
    tasks: [{ name: "yn", size: 3 }],
    canonicalTask: (label) => label === "yn" ? "yn" : null,
    defaultScorer: firstWord.name,
    scorers: [firstWord],
  };
  registerBenchmark(toy);
  const rows = pl.DataFrame({
    run: ["t", "t", "t"],
    benchmark: ["toy-fs", "toy-fs", "toy-fs"],
    task: ["yn", "yn", "yn"],
    example_index: [0, 1, 2],
    input: ["Is 2 even?", "Is 3 even?", "Is 4 even?"],
    target: ["Yes", "No", "Yes"],
    response: ["Yes, it is.", "Let me see.\nAnswer: No", ""],
    scorer: ["lenient", "lenient", "lenient"], // not the toy's own rule: its default is official
  });
  const long = formatSensitivity(rows);
  assert.deepEqual(long.toRecords(), [
    {
      run: "t",
      task: "yn",
      scorer: "toy-fs-first-word",
      n: 3,
      correct: 0, // "Yes," and "Let" are not the targets
      accuracy: 0,
      no_answer: (1 / 3) * 100, // the empty response (a mean of shares, times 100)
      official: true,
    },
    {
      run: "t",
      task: "yn",
      scorer: "lenient",
      n: 3,
      correct: 2, // "Yes" (the first line) and "No" (after "Answer:")
      accuracy: 200 / 3,
      no_answer: (1 / 3) * 100,
      official: false,
    },
  ]);
  const d = formatDisagreements(scoreAllRules(rows), rows);
  // lenient reads yes/no-type words without case
  assert.deepEqual(d.examples.getColumn("lenient_extracted").toArray(), ["yes", "no"]);
});

Deno.test("formatSensitivityFigure renders", () => {
  const dir = Deno.makeTempDirSync();
  saveFigure(formatSensitivityFigure(formatSensitivity(constructed())), dir, "fs");
  assert.ok(Deno.readTextFileSync(join(dir, "fs.svg")).startsWith("<svg"));
  Deno.removeSync(dir, { recursive: true });
});

dataTest(
  "format sensitivity of the BBH release: the official rules give exactly the 54 published accuracies",
  (dir) => {
    const { rows } = loadBbhReleaseOutputs(dir);
    const scored = scoreAllRules(rows);
    const long = summarizeFormatSensitivity(scored);
    assert.equal(long.height, 2 * 27 * BBH_RULES.length);
    const recs = long.toRecords() as (Cell & { run: string; task: string; scorer: string })[];
    const cell = (run: string, task: string, scorer: string) =>
      recs.find((r) => r.run === run && r.task === task && r.scorer === scorer)!;
    for (const p of readBbhPublishedAccuracies(dir)) {
      const rule = p.run.endsWith("-cot") ? "bbh-release-cot" : "bbh-release-direct";
      const c = cell(p.run, p.task, rule);
      assert.equal(releaseAccuracy(c.correct, c.n), p.accuracy, `${p.run} ${p.task}`);
    }
    const official = long.filter(pl.col("official")).select("run", "scorer").unique().sort("run");
    assert.deepEqual(official.toRecords(), [
      { run: "code-davinci-002-cot", scorer: "bbh-release-cot" },
      { run: "code-davinci-002-direct", scorer: "bbh-release-direct" },
    ]);
    // the direct run never writes the CoT cue, so the lm-eval cue rules find nothing in it
    for (const s of ["lm-eval-get-answer", "lm-eval-strict"]) {
      assert.equal(cell("code-davinci-002-direct", "navigate", s).no_answer, 100, s);
    }
    const d = formatDisagreements(scored, rows, { perClass: 3 });
    // pinned: lenient rescues 2 CoT answers cut off before the cue (the option text is named
    // on the last line), and is never stricter than the release rule on these runs
    assert.deepEqual(d.counts.toRecords(), [{
      run: "code-davinci-002-cot",
      task: "tracking_shuffled_objects_seven_objects",
      class: "official_wrong_lenient_right",
      n: 2,
    }]);
    for (const e of d.examples.toRecords() as { class: string; target: string }[]) {
      assert.ok((DISAGREEMENT_CLASSES as readonly string[]).includes(e.class));
    }
    const macro = long.groupBy(["run", "scorer"]).agg(
      pl.col("accuracy").mean(),
      pl.col("no_answer").mean(),
    ).sort(["run", "scorer"]);
    console.log(
      macro.toRecords().map((r) =>
        `${String(r.run).padEnd(24)} ${String(r.scorer).padEnd(19)} ` +
        `acc ${(r.accuracy as number).toFixed(2).padStart(6)}  no-answer ` +
        `${(r.no_answer as number).toFixed(2).padStart(6)}%`
      ).join("\n"),
    );
    console.log(d.counts.groupBy(["run", "class"]).agg(pl.col("n").sum()).toRecords());
  },
);
