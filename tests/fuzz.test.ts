/**
 * The seeded fuzz suite of issue 15 (hostile and broken input), CI subset: ~300 cases
 * stratified over every class (the first cases of each class of the full suite, which
 * `deno task fuzz` runs).
 *
 * Checks that the generator is deterministic and well-formed, that the classifier labels
 * made-up runs as it should, and runs every CI case through the CLI (two at a time), asserting
 * that each ends in an allowed outcome (one test step per case, with the reproduction command).
 * `RUNLENS_FUZZ_CI_SCALE=0.5` halves the cases of every class (a faster CI, still stratified);
 * `RUNLENS_FUZZ_TIME_SCALE=2` doubles every time limit (by default they follow the load average
 * per CPU, between 1× and 4×). The cases cost ~98
 * CPU-seconds in all (runlens ~0.23 s per one-line case, see `fuzz/README.md`): about 50 s of
 * wall time on 2 idle CPUs, several times that when other jobs share them.
 *
 * @example
 * ```sh
 * deno test --allow-all tests/fuzz.test.ts
 * RUNLENS_FUZZ_CI_SCALE=0.5 deno test --allow-all tests/fuzz.test.ts
 * ```
 * @module
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { TEST_DATA_DIR } from "./_data.ts";
import type { ScoreRun } from "./fuzz/adapter.ts";
import type { FuzzCase } from "./fuzz/case.ts";
import { fingerprint } from "./fuzz/case.ts";
import { buildCase, CLASSES, DEFAULT_SEED, listCases } from "./fuzz/cases.ts";
import { classify } from "./fuzz/classify.ts";
import { runCases } from "./fuzz/runner.ts";

const present = existsSync(TEST_DATA_DIR);
const inCI = Deno.env.get("CI") === "true";
const ignore = !present && !inCI;

function needData(): void {
  if (!present) throw new Error(`CI=true but data directory ${TEST_DATA_DIR} is missing`);
}

Deno.test({
  name: "fuzz: the generator is deterministic, stratified and well-formed",
  ignore,
  fn() {
    needData();
    const ci = listCases({ size: "ci" });
    const full = listCases({ size: "full" });
    assert.ok(ci.length >= 250 && ci.length <= 350, `CI subset has ${ci.length} cases`);
    assert.ok(full.length >= 1800, `full suite has ${full.length} cases`);
    const fullIds = new Set(full.map((r) => r.id));
    assert.ok(ci.every((r) => fullIds.has(r.id)), "every CI case is in the full suite");
    for (const cls of CLASSES) {
      assert.ok(ci.some((r) => r.cls === cls.name), `class ${cls.name} has CI cases`);
    }
    const prints = new Map<string, string>();
    for (const ref of ci) {
      const a = buildCase(TEST_DATA_DIR, ref);
      const b = buildCase(TEST_DATA_DIR, ref);
      const fa = fingerprint(a);
      assert.equal(fa, fingerprint(b), `${ref.id}: two generations differ`);
      prints.set(ref.id, fa);
      checkWellFormed(a);
    }
    // another seed gives other bytes for the random classes
    const other = listCases({ size: "ci", classes: /^mutate-canonical$/ })
      .map((ref) => fingerprint(buildCase(TEST_DATA_DIR, ref, DEFAULT_SEED + 1)));
    assert.ok(other.some((f) => ![...prints.values()].includes(f)), "the seed changes the cases");
  },
});

/** Every expectation names a file of the case; allowed outcomes are never empty. */
function checkWellFormed(c: FuzzCase): void {
  assert.ok(c.expect.length > 0, `${c.id}: no expectation`);
  const paths = new Set<string>();
  for (const n of c.nodes) {
    if (n.kind === "many") {
      for (let i = 0; i < n.count; i++) paths.add(`${n.dir}/${n.make(i)[0]}`);
    } else if (n.kind !== "rawname") paths.add(n.path);
  }
  for (const e of c.expect) {
    assert.ok(e.allowed.length > 0, `${c.id}: ${e.path} allows nothing`);
    assert.ok(paths.has(e.path) || e.namePattern, `${c.id}: ${e.path} is not a file of the case`);
  }
}

/** A made-up run for the classifier. */
function fakeRun(over: Partial<ScoreRun>): ScoreRun {
  return {
    argv: ["deno"],
    cwd: "/c",
    code: 0,
    signal: null,
    killed: null,
    stdout: "",
    stderr: "",
    ms: 100,
    peakRss: 100 * 2 ** 20,
    ...over,
  };
}

const report = (runs: [number, number, number][], extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    runs: runs.map(([i, s, q], n) => ({
      run: `r${n}`,
      rows_in: i,
      rows_scored: s,
      rows_quarantined: q,
    })),
    quarantine: [],
    ...extra,
  });

Deno.test("fuzz: the classifier labels runs as documented", () => {
  const c: FuzzCase = {
    id: "t/v/0",
    cls: "t",
    variant: "v",
    nodes: [],
    expect: [
      { path: "bad.jsonl", records: 3, quarantined: null, allowed: ["accounted", "named-error"] },
      { path: "good.jsonl", records: 2, quarantined: 0, allowed: ["accounted"] },
    ],
    about: "test",
  };
  const dir = "/c";
  const label = (run: Partial<ScoreRun>, cc: FuzzCase = c) =>
    classify(cc, fakeRun(run), dir).outcome;
  assert.equal(label({ stdout: report([[3, 2, 1], [2, 2, 0]]) }), "accounted");
  assert.equal(label({ stdout: report([[2, 2, 0]]) }), "rows-missing");
  assert.equal(label({ stdout: report([[6, 6, 0]]) }), "rows-extra");
  assert.equal(label({ stdout: report([[5, 4, 0]]) }), "unbalanced");
  const errors = { errors: [{ file: "/c/bad.jsonl", reason: "UTF-16" }] };
  assert.equal(label({ code: 1, stdout: report([[2, 2, 0]], errors) }), "named-error");
  assert.equal(label({ code: 0, stdout: report([[2, 2, 0]], errors) }), "exit-code");
  const goodNamed = { errors: [{ file: "/c/good.jsonl", reason: "x" }] };
  assert.equal(label({ code: 1, stdout: report([[3, 3, 0]], goodNamed) }), "false-error");
  assert.equal(
    label({ code: 1, stderr: "runlens score: /c/bad.jsonl: UTF-16" }),
    "others-unscored",
  );
  assert.equal(label({ code: 1, stderr: "runlens score: no logs found in /c" }), "unnamed-error");
  assert.equal(
    label({ code: null, signal: "SIGABRT", stderr: "has overflowed its stack" }),
    "abort",
  );
  assert.equal(label({ code: null, signal: "SIGABRT" }), "abort");
  assert.equal(
    label({ code: 1, stderr: "error: Uncaught Error\n    at foo (file:///x.ts:1:2)" }),
    "stack-trace",
  );
  assert.equal(
    label({ code: 1, stderr: "x: internal error, rows in (3) ≠ scored (4)" }),
    "internal-error",
  );
  assert.equal(label({ code: 2, stderr: "unknown option -x.jsonl" }), "bad-exit");
  assert.equal(label({ killed: "timeout", code: null, signal: "SIGKILL" }), "hang");
  assert.equal(label({ killed: "memory", code: null, signal: "SIGKILL" }), "memory");
  assert.equal(
    label({ killed: "timeout", code: null, signal: "SIGKILL" }, { ...c, bounded: true }),
    "too-slow",
  );
  assert.equal(label({ code: 0, stdout: "not json" }), "no-json");
  const strict: FuzzCase = {
    ...c,
    expect: [{ path: "x.eval", records: null, allowed: ["named-error"] }],
  };
  assert.equal(label({ stdout: report([[4, 4, 0]]) }, strict), "not-named");
  assert.equal(
    label({ code: 1, stderr: "runlens score: /c/x.eval: bad CRC" }, strict),
    "named-error",
  );
  const q: FuzzCase = {
    ...c,
    expect: [{ path: "a.jsonl", records: 2, quarantined: 1, allowed: ["accounted"] }],
  };
  const quarantine = (n: number) => ({
    quarantine: Array.from({ length: n }, () => ({ file: "/c/a.jsonl", line: 1, reason: "r" })),
  });
  assert.equal(label({ stdout: report([[2, 2 - 1, 1]], quarantine(1)) }, q), "accounted");
  assert.equal(label({ stdout: report([[2, 2, 0]], quarantine(0)) }, q), "accepted-bad-value");
  assert.equal(label({ stdout: report([[2, 0, 2]], quarantine(2)) }, q), "over-quarantined");
  const bomb: FuzzCase = { ...c, bounded: true };
  assert.equal(label({ stdout: report([[3, 3, 0], [2, 2, 0]]) }, bomb), "bounded");
  const twice = classify(
    c,
    fakeRun({ stdout: report([[5, 5, 0]]) }),
    dir,
    fakeRun({ stdout: "{}" }),
  );
  assert.equal(twice.outcome, "nondeterministic");
});

Deno.test({
  name: "fuzz: every CI case ends in an allowed outcome",
  ignore,
  async fn(t) {
    needData();
    const scale = Number(Deno.env.get("RUNLENS_FUZZ_CI_SCALE") ?? "1") || 1;
    const refs = listCases({ size: "ci", scale });
    const results = await runCases(refs, { dataDir: TEST_DATA_DIR, jobs: 2 });
    for (const r of results) {
      await t.step(r.id, () => {
        const repro = r.kept ? `\n  reproduce: ${r.kept.command}\n  or: ${r.kept.rerun}` : "";
        assert.ok(
          r.verdict.ok,
          `${r.id} (${r.about}): ${r.verdict.outcome} — ${r.verdict.detail}${repro}`,
        );
      });
    }
  },
});
