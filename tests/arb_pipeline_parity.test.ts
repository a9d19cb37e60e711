// ARB through the one pipeline (issue 23, step 16): the ARB report of the old loader
// (`loadArbLogs`) and of the pipeline (`loadRuns` + `benchmarkRows`) agree on every fixture;
// where the pipeline's generic checks word a quarantine reason otherwise, each difference is
// listed here with why.
import assert from "node:assert/strict";
import { loadArbLogs } from "@runlens/benchmarks/arb/load.ts";
import { arbReport } from "@runlens/benchmarks/arb/report.ts";
import { arb } from "@runlens/benchmarks/arb/benchmark.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { benchmarkRows } from "@runlens/pipeline/benchmark_rows.ts";
import { parseColumnMap } from "@runlens/logs/mapped.ts";
import { resolveDataDir } from "@runlens/core/data_dir.ts";

const DIR = "tests/fixtures/arb/";

async function pipelineReport(paths: string[], map?: string) {
  const loaded = await loadRuns(paths, resolveDataDir(), {
    benchmarks: ["arb"],
    ...map ? { map: parseColumnMap(map, arb.recordFields) } : {},
  });
  const rows = benchmarkRows(loaded, "arb");
  const rowsIn = loaded.runs.reduce((s, r) => s + r.rows_in, 0);
  assert.equal(rowsIn, rows.height + loaded.quarantine.length); // nothing lost
  return arbReport({ rows, quarantine: loaded.quarantine, rowsIn, files: loaded.files });
}

for (const name of ["illustrative", "analyses.jsonl"]) {
  Deno.test(`ARB report: loadArbLogs and the pipeline agree on ${name}`, async () => {
    const path = DIR + name;
    assert.deepEqual(await pipelineReport([path]), arbReport(loadArbLogs([path])));
  });
}

Deno.test("ARB report: the same on mapped.csv read through --map", async () => {
  const path = `${DIR}mapped.csv`;
  const map = { id: "problem_id", subject: "subj", answer_type: "kind", reference: "gold" };
  const old = arbReport(loadArbLogs([path], { map: { ...map, response: "output" } }));
  const spec = "id=problem_id,subject=subj,answer_type=kind,reference=gold,response=output";
  assert.deepEqual(await pipelineReport([path], spec), old);
});

Deno.test("ARB report on malformed.jsonl: the same rows and lines, reasons as explained", async () => {
  const path = `${DIR}malformed.jsonl`;
  const old = arbReport(loadArbLogs([path]));
  const neu = await pipelineReport([path]);
  const { quarantine: oldQ, ...oldRest } = old;
  const { quarantine: newQ, ...newRest } = neu;
  assert.deepEqual(newRest, oldRest); // counts (8 = 1 + 7) and every analysis
  assert.deepEqual(newQ.map((q) => q.line), oldQ.map((q) => q.line));
  // line → [old reason, pipeline reason]: the same cause, worded by the generic steps
  const explained: Record<number, [RegExp, RegExp]> = {
    // the JSON reader's wording (the old loader read through readJsonlObjects)
    2: [/./, /^malformed JSON/],
    // identification asks for the task (ARB's subject is another name of it)
    3: [/^missing subject$/, /^missing task \(ARB rows name theirs\)$/],
    // merge finds repeats of (run, task, example_id, epoch), naming the first line
    7: [
      /^duplicate id "ok-1" \(epoch 1\) in run "malformed", first at line 1$/,
      /^duplicate of .*malformed\.jsonl:1 \(same run, task, example_id and epoch\)$/,
    ],
    // the record names another benchmark: the pipeline's --benchmark wording
    8: [/^benchmark is "bbeh", not arb$/, /^unsupported benchmark "bbeh" \(supported: arb\)/],
  };
  for (const [i, q] of newQ.entries()) {
    const rule = explained[q.line];
    if (!rule) assert.equal(q.reason, oldQ[i].reason, `line ${q.line}`);
    else {
      assert.match(oldQ[i].reason, rule[0], `line ${q.line} (old)`);
      assert.match(q.reason, rule[1], `line ${q.line} (pipeline)`);
    }
  }
});
