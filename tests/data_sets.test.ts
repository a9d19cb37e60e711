/**
 * The data sets of a load are read once (`pipeline/data_sets.ts`): the in-thread scoring
 * index, the rows' examples and the advice share one read of each task file, and the data-set
 * frame is derived from the examples read, never from the files again.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { rescore } from "@runlens/pipeline/rescore.ts";
import { DataSets } from "@runlens/pipeline/data_sets.ts";
import { defineScorer } from "@runlens/scorers/define.ts";
import { dataTest } from "./_data.ts";

/** Nine BBH rows of four tasks. */
const BBH_LOG = join("tests", "fixtures", "logs", "bbh", "canonical.jsonl");

/** Run `f`, counting the text files read under `dir` (path → reads). */
async function countingReads<T>(
  dir: string,
  f: () => Promise<T>,
): Promise<{ result: T; reads: Map<string, number> }> {
  const original = Deno.readTextFileSync;
  const reads = new Map<string, number>();
  const counting = (path: string | URL) => {
    const p = String(path);
    if (p.startsWith(dir)) reads.set(p, (reads.get(p) ?? 0) + 1);
    return original(path);
  };
  Object.assign(Deno, { readTextFileSync: counting });
  try {
    return { result: await f(), reads };
  } finally {
    Object.assign(Deno, { readTextFileSync: original });
  }
}

dataTest(
  "a load reads each task file of its data set once (scoring, rows, advice, rescore)",
  async (data) => {
    const { result: loaded, reads } = await countingReads(
      data,
      () => loadRuns([BBH_LOG], data, { cache: false, examples: true }),
    );
    assert.equal(loaded.rows.height, 6);
    // the rows' examples need their own tasks' files only (the fixture's 3 of BBH's 27), each
    // read once, and BIG-Bench Mistake's 5 (its tasks share names with BBH's: both are
    // candidates)
    const tasks = new Set(loaded.rows.getColumn("task").toArray());
    assert.equal(tasks.size, 3);
    assert.equal(reads.size, 3 + 5);
    assert.deepEqual([...new Set(reads.values())], [1]);
    // rescoring joins the examples again, from the load's data sets: no file read
    const again = await countingReads(data, () =>
      Promise.resolve(rescore(
        loaded,
        defineScorer({ name: "last-word", extract: (r) => r.split(" ").at(-1) ?? null }),
      )));
    assert.equal(again.result.runs[0].scorer, "last-word");
    assert.equal(again.reads.size, 0);
  },
);

dataTest(
  "DataSets: examples read once per benchmark, the frame derived from them",
  async (data) => {
    const sets = new DataSets(data);
    const { reads } = await countingReads(data, () => {
      const snarks = sets.examples("bbh").snarks; // one task file
      assert.equal(snarks.length, 178);
      assert.equal(sets.examples("bbh").snarks, snarks);
      return Promise.resolve(sets.frame("bbh")); // the 26 others, once each
    });
    assert.equal(reads.size, 27);
    assert.deepEqual([...new Set(reads.values())], [1]);
    assert.throws(() => sets.examples("nope"), /no benchmark named "nope" is registered/);
  },
);
