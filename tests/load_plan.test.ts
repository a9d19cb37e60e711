/**
 * The load plan (`pipeline/load_plan.ts`): every scorer choice is resolved once, before any
 * log is read; a choice the options alone show wrong is an error before a file is opened, and
 * one only the logs show wrong (a benchmark the chosen rule does not fit) stops the load at the
 * first row tied to it — in this thread and in Workers — before anything is summarised or
 * written to the cache.
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { runEngine } from "@runlens/pipeline/engine.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import {
  resolveLoadPlan,
  ScorerChoiceError,
  UnscoredRowsError,
} from "@runlens/pipeline/load_plan.ts";
import { cacheInfo } from "@runlens/pipeline/cache.ts";
import { readBbehExamples } from "@runlens/benchmarks/bbeh/examples.ts";
import { runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

const LOGS = join("tests", "fixtures", "logs");
/** Four BBEH rows (boardgame_qa, web_of_lies). */
const BBEH_LOG = join(LOGS, "tree", "a.jsonl");
/** Nine BBH rows. */
const BBH_LOG = join(LOGS, "bbh", "canonical.jsonl");

/** A load of a path that does not exist: a plan error must come before the file is looked at. */
const NO_SUCH = "/no/such/logs.jsonl";

Deno.test("resolveLoadPlan: every wrong choice the options show throws before a file is read", async () => {
  const wrong: [Parameters<typeof loadRuns>[2], RegExp][] = [
    [{ scorer: "exact" }, /^unknown scorer "exact"; scorers: bbeh-official, /],
    [{ scorer: "./no/such_rule.ts" }, /^scorer module \.\/no\/such_rule\.ts: cannot be read/],
    [{ scorer: "stored", answerPattern: "x" }, /give one/],
    [{ answerPattern: "(" }, /^answer pattern "\(": not a regular expression/],
    [{ benchmarks: ["nope"] }, /^--benchmark nope: one of bbeh, bbh/],
    [
      { scorer: "last-line", benchmarks: ["bbeh"] },
      /^scorer last-line does not apply to bbeh \(--benchmark bbeh\); scorers for bbeh: bbeh-official, stored, lenient$/,
    ],
    [{ scorers: { nope: "stored" } }, /^--scorer nope=stored: unknown benchmark "nope"/],
    [{ scorers: { bbh: "exact" } }, /^--scorer bbh=exact: unknown scorer "exact"/],
    [
      { scorers: { bbh: "bbeh-official" } },
      /^--scorer bbh=bbeh-official: scorer bbeh-official does not apply to bbh; scorers for bbh: bbh-release-cot, /,
    ],
    [
      { scorers: { bbh: "stored" }, benchmarks: ["bbeh"] },
      /^--scorer bbh=stored: bbh is not among the benchmarks loaded \(bbeh\)$/,
    ],
  ];
  for (const [options, message] of wrong) {
    // the data directory does not exist either: the plan reads neither logs nor data
    await assert.rejects(
      () => loadRuns([NO_SUCH], "/no/such/data", options),
      (e: Error) => e instanceof ScorerChoiceError && message.test(e.message),
      JSON.stringify(options),
    );
  }
});

Deno.test("resolveLoadPlan: each benchmark's scorer, the lm-eval filter, the cache", async () => {
  const plan = await resolveLoadPlan("/data", {
    scorer: "stored",
    scorers: { bbh: "lm-eval-flexible" },
    cache: "/tmp/c",
    workers: 3,
  });
  assert.deepEqual(
    plan.benchmarks.map((p) => [p.benchmark.name, p.scorer?.name, p.unscored]),
    [
      ["bbeh", "stored", null],
      ["bbh", "lm-eval-flexible", null],
      ["bbm", "stored", null], // BBM is loaded by the pipeline now (its own rules need a numbering)
      ["arb", "stored", null], // so is ARB (its rows tied by id)
      ["gsm8k", "stored", null],
    ],
  );
  assert.equal(plan.read.lmEvalFilter, "flexible-extract");
  assert.deepEqual([plan.cache, plan.read.workers, plan.unscored], [{ dir: "/tmp/c" }, 3, "error"]);
  const plain = await resolveLoadPlan("/data");
  assert.deepEqual(plain.benchmarks.map((p) => p.scorer?.name), [
    "bbeh-official",
    "bbh-release-cot",
    undefined, // bbm: no default scorer
    "arb",
    "gsm8k-number",
  ]);
  assert.deepEqual([plain.read.lmEvalFilter, plain.cache, plain.rule], [null, null, null]);
  // an explicit filter wins over the chosen scorer's
  const explicit = await resolveLoadPlan("/data", { scorer: "lm-eval-strict", lmEvalFilter: "x" });
  assert.equal(explicit.read.lmEvalFilter, "x");
});

dataTest(
  "a scorer that does not fit the logs' rows: an error before the cache is written",
  async (data) => {
    await withTempDir(async (dir) => {
      const cache = join(dir, "cache");
      await assert.rejects(
        () => loadRuns([BBEH_LOG], data, { scorer: "last-line", cache }),
        (e: Error) =>
          e instanceof UnscoredRowsError && e instanceof ScorerChoiceError &&
          /^scorer last-line does not apply to the bbeh rows of these logs; scorers for bbeh: /
            .test(e.message),
      );
      assert.ok(!existsSync(cache) || cacheInfo(cache).entries.length === 0, "no cache entry");
      // the same logs with a fitting scorer are written to the cache: the check above can fail
      await loadRuns([BBEH_LOG], data, { scorer: "stored", cache });
      assert.equal(cacheInfo(cache).entries.length, 1);
      // and a hit of that entry is checked against the plan too: no rows of an unscored benchmark
      const again = await loadRuns([BBEH_LOG], data, { scorer: "stored", cache });
      assert.equal(again.cache?.hit, true);
    });
  },
);

dataTest("the first BBEH row tied in a Worker stops the load the same way", async (data) => {
  await withTempDir(async (dir) => {
    const examples = readBbehExamples(data);
    const lines = examples.nycc.slice(0, 120).map((ex, i) =>
      JSON.stringify({ task: "nycc", example_index: i, response: `The answer is: ${ex.target}` })
    );
    Deno.writeTextFileSync(join(dir, "a.jsonl"), lines.join("\n") + "\n");
    const plan = await resolveLoadPlan(data, { scorer: "last-line", workers: 2 });
    await assert.rejects(
      () => runEngine([dir], plan, { rangeBytes: 1024 }), // several units, two Workers
      (e: Error) => e instanceof UnscoredRowsError && /the bbeh rows of these logs/.test(e.message),
    );
    // the Workers' path scores the same log with a fitting scorer
    const ok = await runEngine([dir], await resolveLoadPlan(data, { workers: 2 }), {
      rangeBytes: 1024,
    });
    assert.equal(ok.merged.rows.n, 120);
  });
});

dataTest("unscored: quarantine sets such rows apart with the reason", async (data) => {
  const loaded = await loadRuns([BBEH_LOG, BBH_LOG], data, {
    scorer: "last-line",
    unscored: "quarantine",
  });
  // the BBEH runs are counted, all their rows quarantined: no scorer
  assert.deepEqual(loaded.runs.map((r) => [r.run, r.scorer, r.rows_in, r.rows_scored]), [
    ["alpha", "none", 2, 0],
    ["bbh-canon", "last-line", 9, 6],
    ["beta", "none", 2, 0],
  ]);
  assert.deepEqual(loaded.warnings.filter((w) => w.includes("not scored")), [
    "4 bbeh rows not scored: scorer last-line does not apply to the bbeh rows of these logs; " +
    "scorers for bbeh: bbeh-official, stored, lenient",
  ]);
  const reasons = loaded.quarantine.filter((q) => q.file === BBEH_LOG).map((q) => q.reason);
  assert.equal(reasons.length, 4);
  assert.ok(reasons.every((r) => r.startsWith("scorer last-line does not apply to the bbeh rows")));
});

dataTest(
  "scorers per benchmark: each benchmark's rows with the scorer chosen for it",
  async (data) => {
    const loaded = await loadRuns([BBEH_LOG, BBH_LOG], data, {
      scorers: { bbh: "last-line" },
    });
    assert.deepEqual(
      loaded.runs.map((r) => [r.benchmark, r.scorer]).sort(),
      [["bbeh", "bbeh-official"], ["bbeh", "bbeh-official"], ["bbh", "last-line"]],
    );
  },
);

dataTest(
  "runlens score --scorer BENCHMARK=NAME: per benchmark, usage errors exit 2",
  async (data) => {
    const ok = await runCli([
      "score",
      BBH_LOG,
      "--data",
      data,
      "--json",
      "--no-cache",
      "--scorer",
      "bbh=last-line",
    ]);
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(JSON.parse(ok.stdout).runs.map((r: { scorer: string }) => r.scorer), [
      "last-line",
    ]);
    const wrong = await runCli(["score", NO_SUCH, "--scorer", "bbh=bbeh-official"]);
    assert.equal(wrong.code, 2);
    assert.match(wrong.stderr, /^runlens score: --scorer bbh=bbeh-official: scorer bbeh-official /);
    const twice = await runCli(["score", NO_SUCH, "--scorer", "stored", "--scorer", "lenient"]);
    assert.equal(twice.code, 2);
    assert.match(twice.stderr, /one --scorer for every benchmark/);
  },
);
