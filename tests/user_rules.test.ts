/**
 * Your own rule in the library (issue 22, item 3): `defineScorer` checks a definition and
 * fills `found` and `correct`; `rescore(loaded, rule)` gives every row the verdict it was built
 * to get (logs built at test time from BBH and BBEH in the `ANSWER=>…<=` convention,
 * `_arrow_logs.ts`), summarised again as a load summarises, and the result flows into the
 * comparisons and the report under the rule's name; `loadRuns` with a module keys its cache on
 * the module's content.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { getScorer } from "@runlens/benchmarks/registry.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { compareRuns } from "@runlens/analyses/compare.ts";
import { rescore } from "@runlens/pipeline/rescore.ts";
import { buildReport } from "@runlens/report/build.ts";
import { defineScorer, ScorerRuleError } from "@runlens/scorers/define.ts";
import { ANY_BENCHMARK } from "@runlens/scorers/types.ts";
import { lastMatch, patternScorer } from "@runlens/scorers/pattern.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";
import {
  ARROW,
  arrowLog,
  arrowModule,
  expectedAccuracy,
  expectedTasks,
  reportedTasks,
  totalCorrect,
  writeLines,
} from "./_arrow_logs.ts";

/** The convention's rule, as a user writes it in a notebook. */
const arrowRule = defineScorer({
  name: "arrow-rule",
  extract: (response) => lastMatch(new RegExp(ARROW, "g"), response),
});

Deno.test("defineScorer: found from extract, correct from match (by type by default)", () => {
  const input = "Which is a toy?\nOptions:\n(A) rock\n(B) kite";
  const v = (response: string, target: string) =>
    arrowRule.score(response, target, { task: "t", input });
  assert.deepEqual(v("ANSWER=>kite<=", "(B)"), { extracted: "kite", correct: true, found: true });
  assert.deepEqual(v("ANSWER=>1,024<=", "1024"), {
    extracted: "1,024",
    correct: true,
    found: true,
  });
  assert.deepEqual(v("ANSWER=>  <=", "(B)"), { extracted: "  ", correct: false, found: false });
  assert.deepEqual(v("The answer is (B).", "(B)"), {
    extracted: null,
    correct: false,
    found: false,
  });
  // a match of one's own; it sees the context
  const seen: unknown[] = [];
  const own = defineScorer({
    name: "own",
    extract: (r) => r.trim(),
    match: (a, t, ctx) => (seen.push(ctx.task), a === t),
  });
  assert.equal(own.score(" x ", "x", { task: "nycc" }).correct, true);
  assert.deepEqual(seen, ["nycc"]);
  assert.deepEqual([own.description, own.source, own.benchmarks], [
    "a user rule",
    "defined with defineScorer",
    ANY_BENCHMARK, // it names none: like lenient, it knows no task
  ]);
});

Deno.test("defineScorer: a whole score; found filled in when it gives none", () => {
  const whole = defineScorer({
    name: "whole",
    score: (r, t) => ({ extracted: r === "" ? null : r, correct: r === t }),
  });
  assert.deepEqual(whole.score("a", "a"), { extracted: "a", correct: true, found: true });
  assert.deepEqual(whole.score("", "a"), { extracted: null, correct: false, found: false });
});

Deno.test("defineScorer: a definition that is not one says what is wrong", () => {
  const cases: [unknown, RegExp][] = [
    [null, /a scorer is an object with a name and extract \(or score\), not null/],
    [{ extract: () => null }, /name must be a non-empty one-line string .*, not undefined/],
    [{ name: " x", extract: () => null }, /name must be a non-empty one-line string/],
    [{ name: "x" }, /needs extract \(a function\) or score \(a function\)/],
    [{ name: "x", extract: "ANSWER" }, /extract must be a function, not a string/],
    [{ name: "x", extract: () => null, score: () => null }, /gives score and extract\/match/],
    [{ name: "x", extract: () => null, benchmarks: [] }, /benchmarks must be a non-empty list/],
    [{ name: "x", extract: () => null, extarct: 1 }, /unknown key extarct \(keys: name, /],
    [{ name: "x", extract: () => null, needs: ["response"] }, /needs must be a list of task/],
  ];
  for (const [definition, message] of cases) {
    assert.throws(() => defineScorer(definition as never), { message }, JSON.stringify(definition));
  }
});

Deno.test("defineScorer: a rule that fails on a response throws naming it, never a verdict", () => {
  const throws = defineScorer({ name: "t", extract: (r) => JSON.parse(r) });
  assert.throws(() => throws.score("{", "x"), ScorerRuleError);
  assert.throws(() => throws.score("{", "x"), {
    message: /^scorer t: extract threw SyntaxError: /,
  });
  const maybe = defineScorer({ name: "m", extract: (r) => r, match: () => "yes" as never });
  assert.throws(() => maybe.score("a", "a"), {
    message: "scorer m: match returned a string, not true or false",
  });
  const whole = defineScorer({ name: "w", score: () => ({ correct: true }) as never });
  assert.throws(() => whole.score("a", "a"), {
    message: /^scorer w: score returned \{"correct":true\}/,
  });
});

Deno.test("patternScorer: the last match, its first group or the whole match", () => {
  const hashes = patternScorer("#### (\\S+)");
  assert.deepEqual(hashes.score("#### 12\nno: #### 13", "13"), {
    extracted: "13",
    correct: true,
    found: true,
  });
  const whole = patternScorer("\\(\\w\\)");
  assert.deepEqual(whole.score("(A) or rather (C)", "(C)").extracted, "(C)");
  const optional = patternScorer("final(?: answer: (\\w+))?");
  assert.deepEqual(optional.score("final answer: yes then final", "yes"), {
    extracted: null, // the last match has no group 1: no answer
    correct: false,
    found: false,
  });
  assert.throws(() => patternScorer("(?<x"), {
    message: /^answer pattern "\(\?<x": not a regular/,
  });
});

dataTest(
  "rescore: every row's verdict as built, summaries again, the load unchanged",
  (data) =>
    withTempDir(async (dir) => {
      const bbh = arrowLog(data, { runs: ["r1", "r2"], perTask: 20 });
      const bbeh = arrowLog(data, { runs: ["r1"], perTask: 10, benchmark: "bbeh" });
      writeLines(join(dir, "bbh.jsonl"), bbh.records);
      writeLines(join(dir, "bbeh.jsonl"), bbeh.records);
      // responses not kept: rescore reads them back from the logs
      const loaded = await loadRuns([dir], data, { responses: false, examples: false });
      const before = loaded.runs.map((r) => [r.run, r.benchmark, r.scorer, r.rows_scored]);
      const again = rescore(loaded, arrowRule);
      assert.deepEqual(again.runs.map((r) => [r.run, r.benchmark, r.scorer, r.rows_in]), [
        ["r1", "bbeh", "arrow-rule", 230],
        ["r1", "bbh", "arrow-rule", 540],
        ["r2", "bbh", "arrow-rule", 540],
      ]);
      for (const r of again.runs) {
        const built = r.benchmark === "bbh" ? bbh.built : bbeh.built;
        assert.deepEqual(
          reportedTasks(r.tasks),
          expectedTasks(built, r.run),
          `${r.run} ${r.benchmark}`,
        );
      }
      // per row: the extracted answer of the LAST marker, the scorer's name
      const rows = again.rows.select(
        "run",
        "benchmark",
        "task",
        "example_index",
        "extracted",
        "scorer",
      )
        .toRecords() as Record<string, unknown>[];
      const built = new Map([
        ...bbh.built.map((b) => ["bbh", b] as const),
        ...bbeh.built.map((b) => ["bbeh", b] as const),
      ]
        .map(([bench, b]) => [`${b.run}/${bench}/${b.task}/${b.example_index}`, b]));
      for (const row of rows) {
        const b = built.get(`${row.run}/${row.benchmark}/${row.task}/${row.example_index}`)!;
        assert.deepEqual([row.extracted, row.scorer], [b.answer, "arrow-rule"]);
      }
      assert.equal(
        again.rows.getColumn("response").nullCount(),
        again.rows.height,
        "texts dropped again",
      );
      assert.deepEqual(
        loaded.runs.map((r) => [r.run, r.benchmark, r.scorer, r.rows_scored]),
        before,
      );
      // a registered rule, by its object, gives the same numbers as loading with it
      const lenient = rescore(loaded, getScorer("lenient"));
      const direct = await loadRuns([dir], data, { scorer: "lenient", responses: false });
      assert.deepEqual(
        lenient.runs.map((r) => r.tasks),
        direct.runs.map((r) => r.tasks),
      );
    }),
);

dataTest(
  "rescore: the rule's verdicts flow into comparisons and the report",
  (data) =>
    withTempDir(async (dir) => {
      const log = arrowLog(data, { runs: ["r1", "r2"], perTask: 8 });
      writeLines(join(dir, "arrow.jsonl"), log.records);
      const again = rescore(await loadRuns([dir], data), arrowRule);
      const [cmp] = compareRuns(again.rows, "r1", "r2");
      assert.ok(Math.abs(cmp.overall.acc_a - expectedAccuracy(log.built, "r1")) < 1e-9);
      assert.ok(Math.abs(cmp.overall.acc_b - expectedAccuracy(log.built, "r2")) < 1e-9);
      const doc = await buildReport(again, {
        dataDir: data,
        command: "test",
        provenance: "source",
      });
      assert.deepEqual(doc.provenance.scorers, ["arrow-rule"]);
      assert.deepEqual(doc.runs.map((r) => r.scorer), ["arrow-rule", "arrow-rule"]);
    }),
);

dataTest(
  "rescore: rows a rule gives no verdict are quarantined, every row still counted",
  (data) =>
    withTempDir(async (dir) => {
      const log = arrowLog(data, { runs: ["r1"], perTask: 6 });
      writeLines(join(dir, "arrow.jsonl"), log.records);
      const loaded = await loadRuns([dir], data);
      const partial = defineScorer({
        name: "no-snarks",
        score: (response, target, ctx) =>
          ctx?.task === "snarks"
            ? { extracted: null, correct: null, found: null }
            : arrowRule.score(response, target, ctx),
      });
      const again = rescore(loaded, partial);
      const [run] = again.runs;
      assert.deepEqual([run.rows_in, run.rows_scored, run.rows_quarantined], [162, 156, 6]);
      assert.equal(run.tasks.snarks, undefined);
      const reasons = again.quarantine.map((q) => q.reason);
      assert.deepEqual(
        reasons,
        [0, 1, 2, 3, 4, 5].map((i) => `scorer no-snarks gives no verdict for snarks[${i}]`),
      );
      assert.equal(again.rows.height, 156);
    }),
);

dataTest(
  "rescore: a rule that is no choice throws before scoring",
  (data) =>
    withTempDir(async (dir) => {
      writeLines(join(dir, "arrow.jsonl"), arrowLog(data, { perTask: 1 }).records);
      const loaded = await loadRuns([dir], data);
      const bbehOnly = defineScorer({ name: "b", benchmarks: ["bbeh"], extract: () => null });
      assert.throws(() => rescore(loaded, bbehOnly), {
        message: /^scorer b does not apply to the bbh rows of these logs; scorers for bbh: /,
      });
      const copy = { ...getScorer("lenient") };
      assert.throws(() => rescore(loaded, copy), {
        message: /the rule's name "lenient" is a built-in/,
      });
      const { basis: _, ...alone } = loaded;
      assert.throws(() => rescore(alone, arrowRule), { message: /did not come from loadRuns/ });
    }),
);

dataTest(
  "loadRuns with a module: the cache keys on its content and on the pattern",
  (data) =>
    withTempDir(async (dir) => {
      const log = arrowLog(data, { runs: ["r1"], perTask: 4 });
      const path = writeLines(join(dir, "logs", "arrow.jsonl"), log.records);
      const module = join(dir, "rule.ts");
      const cache = join(dir, "cache");
      const load = (opts: { scorer?: string; answerPattern?: string }) =>
        loadRuns([path], data, { cache, ...opts });
      const correct = (l: Awaited<ReturnType<typeof load>>) => totalCorrect(l.runs[0].tasks);
      const expected = totalCorrect(expectedTasks(log.built, "r1"));
      Deno.writeTextFileSync(module, arrowModule("arrow-rule"));
      const first = await load({ scorer: module });
      const second = await load({ scorer: module });
      assert.deepEqual([first.cache?.hit, second.cache?.hit], [false, true]);
      assert.deepEqual([correct(first), correct(second)], [expected, expected]);
      Deno.writeTextFileSync(
        module,
        arrowModule("arrow-rule", { extra: "\n  match: () => false," }),
      );
      const edited = await load({ scorer: module });
      assert.deepEqual([edited.cache?.hit, correct(edited)], [false, 0]);
      const pattern = await load({ answerPattern: ARROW });
      const other = await load({ answerPattern: "ANSWER=>(.*)<=" });
      assert.deepEqual([pattern.cache?.hit, other.cache?.hit], [false, false]);
      assert.deepEqual([correct(pattern), pattern.runs[0].scorer], [expected, `pattern:${ARROW}`]);
      assert.equal((await load({ answerPattern: ARROW })).cache?.hit, true);
    }),
);

dataTest(
  "a module may export `scorer`, made with defineScorer imported from runlens",
  (data) =>
    withTempDir(async (dir) => {
      const log = arrowLog(data, { runs: ["r1"], perTask: 5 });
      const path = writeLines(join(dir, "logs", "arrow.jsonl"), log.records);
      const module = join(dir, "rule.ts");
      Deno.writeTextFileSync(
        module,
        'import { defineScorer } from "@runlens/scorers/define.ts";\n' +
          'import { lastMatch } from "@runlens/scorers/pattern.ts";\n' +
          `export const scorer = defineScorer({ name: "imported", extract: (r) => lastMatch(/${ARROW}/g, r) });\n`,
      );
      const loaded = await loadRuns([path], data, { scorer: module, workers: 1 });
      assert.equal(loaded.runs[0].scorer, "imported");
      assert.deepEqual(reportedTasks(loaded.runs[0].tasks), expectedTasks(log.built, "r1"));
    }),
);
