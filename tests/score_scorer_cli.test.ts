/**
 * `runlens score --scorer`: parsing, usage errors (unknown name, a scorer that does not apply
 * to the logs' benchmark) with exit code 2, the scorer in the JSON report; and the progress
 * line, which only a terminal gets.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { parseScoreArgs } from "@runlens/cli/score.ts";
import { NO_PROGRESS, terminalProgress } from "@runlens/core/progress.ts";
import { type CliResult, runCli } from "./_cli.ts";
import { dataTest } from "./_data.ts";

const LOGS = join("tests", "fixtures", "logs");

/** `runlens score args…` from the repository root. */
function runlens(args: string[]): Promise<CliResult> {
  return runCli(["score", ...args]);
}

Deno.test("parseScoreArgs: --scorer takes a registered name, else a message listing them", () => {
  const ok = parseScoreArgs(["a.jsonl", "--scorer", "last-line"]);
  assert.ok(typeof ok !== "string");
  assert.equal(ok.load?.scorer, "last-line");
  assert.equal(
    (parseScoreArgs(["a.jsonl", "--scorer=stored"]) as { load: { scorer: string } }).load.scorer,
    "stored",
  );
  assert.match(
    parseScoreArgs(["a.jsonl", "--scorer", "exact"]) as string,
    /^unknown scorer "exact"; scorers: bbeh-official, bbh-release-cot, bbh-release-direct, /,
  );
  assert.equal(parseScoreArgs(["a.jsonl", "--scorer"]), "--scorer needs a value");
});

dataTest("score --scorer: usage errors exit 2; the JSON report names the scorer", async (dir) => {
  const unknown = await runlens([join(LOGS, "bbh"), "--data", dir, "--scorer", "exact"]);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /^runlens score: unknown scorer "exact"; scorers: /);
  // the usage line, and where the help is (which lists every scorer with what it does)
  assert.match(
    unknown.stderr,
    /\nusage: deno task runlens score <paths…> .*\n\(deno task runlens score --help: every option\)\n$/,
  );

  const wrong = await runlens([join(LOGS, "tree"), "--data", dir, "--scorer", "last-line"]);
  assert.equal(wrong.code, 2);
  assert.match(
    wrong.stderr,
    /^runlens score: scorer last-line does not apply to the bbeh rows of these logs; scorers for bbeh: /,
  );

  const r = await runlens([
    join(LOGS, "bbh", "canonical.jsonl"),
    "--data",
    dir,
    "--json",
    "--scorer",
    "last-line",
  ]);
  assert.equal(r.code, 0, r.stderr);
  // no progress line: stderr is not a terminal
  // last-line reads "so the answer is (b)." where it compares "(b)": no answer it can score,
  // on the 5 rows that end in a sentence (the sixth ends in a bare "True")
  assert.equal(
    r.stderr,
    "1 run from 1 file: 9 rows in, 6 scored (5 with no answer found), 3 quarantined\n",
  );
  const report = JSON.parse(r.stdout);
  assert.equal(report.runs[0].scorer, "last-line");
  assert.equal(report.runs[0].benchmark, "bbh");
});

Deno.test("terminalProgress: draws files and rows on one line, erases it; off when not a TTY", () => {
  const out: string[] = [];
  const p = terminalProgress({ enabled: true, write: (t) => out.push(t), interval: 0 });
  p.file(0, 2, "a.jsonl");
  p.rows(1500);
  p.file(1, 2, "b.jsonl");
  p.phase("scoring 1,500 rows…");
  p.done();
  assert.deepEqual(out, [
    "\r\x1b[Kreading [##########..........] 1/2 files, 0 rows  a.jsonl",
    "\r\x1b[Kreading [##########..........] 1/2 files, 1,500 rows  a.jsonl",
    "\r\x1b[Kreading [####################] 2/2 files, 1,500 rows  b.jsonl",
    "\r\x1b[Kscoring 1,500 rows…",
    "\r\x1b[K",
  ]);
  assert.equal(terminalProgress({ enabled: false }), NO_PROGRESS);
  // throttled: row updates within the interval are skipped, file changes are not
  const slow: string[] = [];
  const q = terminalProgress({ enabled: true, write: (t) => slow.push(t), interval: 60_000 });
  q.file(0, 1, "a");
  q.rows(1);
  q.rows(1);
  assert.equal(slow.length, 1);
  q.done();
  assert.equal(slow.at(-1), "\r\x1b[K");
});
