/**
 * Issue 26, design (c): the counting prototype (`lib/bench/counts/score_counts.ts`) gives the
 * per-task counts and quarantine of `loadRuns` on a generated BBEH log with repeats across
 * byte ranges, lines that are not records, an unknown task and a missing response — and
 * refuses, rather than counting, a load whose runs a `model` field names.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { compareCounts, runlensCounts } from "@runlens/bench/bench.ts";
import { generateLog, parseGenerateArgs } from "@runlens/bench/generate.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { runsReport } from "@runlens/report/runs_text.ts";
import { dataTest } from "./_data.ts";

async function scoreCounts(dataDir: string, path: string) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "--allow-all",
      "lib/bench/counts/score_counts.ts",
      path,
      "--workers",
      "2",
      "--data",
      dataDir,
      "--range-bytes",
      "400000", // ~10 ranges: repeats cross units and Workers
    ],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** Run `fn` in a temporary folder with the lines of a generated canonical log (`args`). */
async function withLog(
  dataDir: string,
  args: string[],
  fn: (lines: string[], root: string) => Promise<void>,
): Promise<void> {
  const root = Deno.makeTempDirSync({ prefix: "runlens_counts_test_" });
  try {
    const clean = join(root, "clean.jsonl");
    const common = ["--format", "canonical", "--data", dataDir, "--out", clean];
    await generateLog(parseGenerateArgs([...args, ...common]));
    await fn(Deno.readTextFileSync(clean).trimEnd().split("\n"), root);
  } finally {
    Deno.removeSync(root, { recursive: true });
  }
}

/** Per run and task: n, correct, no answer — as the score JSON has them. */
function noAnswers(json: string): Record<string, Record<string, number>> {
  const report = JSON.parse(json) as {
    runs: { run: string; tasks: Record<string, { no_answer: number }> }[];
  };
  return Object.fromEntries(report.runs.map((r) => [
    r.run,
    Object.fromEntries(Object.entries(r.tasks).map(([t, c]) => [t, c.no_answer])),
  ]));
}

dataTest("bench counts: the prototype's per-task counts and quarantine equal loadRuns'", async (
  dataDir,
) => {
  const args = ["--rows", "5000", "--seed", "11", "--response-chars", "330-930"];
  await withLog(dataDir, args, async (lines, root) => {
    const run = JSON.parse(lines[0]).run;
    const broken = [
      "not a JSON record",
      JSON.stringify({ task: "no_such_task", example_index: 1, response: "x", run }),
      JSON.stringify({ task: "nycc", example_index: 3, run }),
      "",
    ];
    // repeats of the first run's first lines, in the middle and at the end of the file
    const log = [
      ...lines.slice(0, 2500),
      ...lines.slice(0, 40),
      ...broken,
      ...lines.slice(2500),
      ...lines.slice(100, 130),
    ];
    const path = join(root, "log.jsonl");
    Deno.writeTextFileSync(path, log.join("\n") + "\n");

    const proto = await scoreCounts(dataDir, path);
    assert.equal(proto.code, 0, proto.stderr);
    const loaded = await loadRuns([path], dataDir, { responses: false, workers: 2 });
    const expected = JSON.stringify(runsReport(loaded));
    const ours = runlensCounts(proto.stdout);
    assert.ok(ours.size >= 2);
    assert.deepEqual(compareCounts(ours, runlensCounts(expected)), []);
    assert.deepEqual(noAnswers(proto.stdout), noAnswers(expected));
    const total = JSON.parse(proto.stdout).rows_quarantined;
    assert.equal(total, loaded.quarantine.length);
    // 70 repeats, and the three lines that are records but cannot be scored (the empty line is
    // not a record)
    assert.equal(total, 73);
  });
});

dataTest("bench counts: a load whose runs a model field names is refused, not counted", async (
  dataDir,
) => {
  await withLog(dataDir, ["--rows", "300"], async (lines, root) => {
    const noRun = lines.map((l) => {
      const { run: _, ...rest } = JSON.parse(l);
      return JSON.stringify(rest);
    });
    const path = join(root, "models.jsonl");
    Deno.writeTextFileSync(path, noRun.join("\n") + "\n");
    const proto = await scoreCounts(dataDir, path);
    assert.equal(proto.code, 1);
    assert.equal(proto.stdout, "");
    assert.match(proto.stderr, /cannot count this load exactly: .*runs named by a model field/);
  });
});
