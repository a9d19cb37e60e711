// ARB through the one pipeline (issue 23, step 16): the ARB report of every fixture equals the
// one the old loader gave. tests/fixtures/arb/old_loader_reports.json holds those reports,
// written by `arbReport(loadArbLogs(…))` of lib/benchmarks/arb/load.ts at commit 8185818 (the
// last commit that had it; --map id=problem_id,subject=subj,answer_type=kind,reference=gold,
// response=output for mapped.csv). Where the pipeline's generic checks word a quarantine
// reason otherwise, each difference is listed here with why.
import assert from "node:assert/strict";
import { arbReport } from "@runlens/benchmarks/arb/report.ts";
import { loadArb } from "./_arb.ts";

const DIR = "tests/fixtures/arb/";
const OLD = JSON.parse(
  Deno.readTextFileSync(new URL("./fixtures/arb/old_loader_reports.json", import.meta.url)),
);

for (const name of ["illustrative", "analyses.jsonl"]) {
  Deno.test(`ARB report of ${name}: as the old loader's`, async () => {
    assert.deepEqual(arbReport(await loadArb([DIR + name])), OLD[name]);
  });
}

Deno.test("ARB report of mapped.csv read through --map: as the old loader's", async () => {
  const spec = "id=problem_id,subject=subj,answer_type=kind,reference=gold,response=output";
  assert.deepEqual(arbReport(await loadArb([`${DIR}mapped.csv`], spec)), OLD["mapped.csv"]);
});

Deno.test("ARB report of malformed.jsonl: the same rows and lines, reasons as explained", async () => {
  const old = OLD["malformed.jsonl"];
  const neu = arbReport(await loadArb([`${DIR}malformed.jsonl`]));
  const { quarantine: oldQ, ...oldRest } = old;
  const { quarantine: newQ, ...newRest } = neu;
  assert.deepEqual(newRest, oldRest); // counts (8 = 1 + 7) and every analysis
  assert.deepEqual(newRest.rows_in, 8);
  assert.deepEqual(newQ.map((q) => q.line), oldQ.map((q: { line: number }) => q.line));
  // line → [old reason, pipeline reason]: the same cause, worded by the generic steps
  const explained: Record<number, [string, string]> = {
    // identification asks for the task (ARB's subject is another name of it); no --map hint:
    // the file is ARB's by its own fields
    3: ["missing subject", "missing task (ARB rows name theirs)"],
    // merge finds repeats of (run, task, example_id, epoch), naming the first line
    7: [
      'duplicate id "ok-1" (epoch 1) in run "malformed", first at line 1',
      `duplicate of ${DIR}malformed.jsonl:1 (same run, task, example_id and epoch)`,
    ],
    // the record names another benchmark: the pipeline's --benchmark wording
    8: [
      'benchmark is "bbeh", not arb',
      'unsupported benchmark "bbeh" (supported: arb): if its rows are one of these, say which ' +
      "with --map benchmark==NAME",
    ],
  };
  for (const [i, q] of newQ.entries()) {
    const [was, is] = explained[q.line] ?? [oldQ[i].reason, oldQ[i].reason];
    assert.equal(oldQ[i].reason, was, `line ${q.line} (old)`);
    assert.equal(q.reason, is, `line ${q.line} (pipeline)`);
  }
});
