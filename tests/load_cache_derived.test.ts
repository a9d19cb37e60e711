/**
 * What a cached load derives from its rows (`pipeline/load.ts`, `keptOrMade`): the run
 * summaries and the advice, made once and kept beside the cache entry per set of run names, so
 * that a re-analysis neither summarises a million rows again (0.57 s) nor scores samples of the
 * responses again with every rule (1.2 s, 300 MB). What is kept must equal what is made
 * afresh; a rename gets its own; a damaged side file is made again, never trusted.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { parseColumnMap } from "@runlens/logs/mapped.ts";
import { dataTest } from "./_data.ts";
import { writeChatLog, writeLmEvalLog } from "./_answer_logs.ts";
import { withTempDir } from "./_tmp.ts";

const TASKS = ["date_understanding", "geometric_shapes"];
const N = 60;
const otherLetter = (target: string) => target === "(A)" ? "(B)" : "(A)";

/** A log whose official cue names a wrong letter that the model then corrects. */
function correctedLog(data: string, dir: string): string {
  const logs = join(dir, "logs");
  writeChatLog(
    data,
    logs,
    TASKS,
    N,
    (_, target) =>
      `So the answer is ${otherLetter(target)}.\nWait, step 2 was wrong.\nFinal answer: ${target}`,
  );
  return logs;
}

/** The side files of `what` ("advice-", "runs-") in the cache folder. */
function sideFiles(cache: string, what = "advice-"): string[] {
  const out: string[] = [];
  for (const entry of Deno.readDirSync(cache)) {
    if (!entry.isDirectory || entry.name.startsWith(".")) continue;
    for (const f of Deno.readDirSync(join(cache, entry.name))) {
      if (f.name.startsWith(what)) out.push(join(cache, entry.name, f.name));
    }
  }
  return out.sort();
}

dataTest("cache: the advice is kept beside the entry and read back as made", async (data) => {
  await withTempDir(async (dir) => {
    const logs = correctedLog(data, dir);
    const cache = join(dir, "cache");
    const fresh = await loadRuns([logs], data, { cache: false });
    assert.equal(fresh.advice.disagree.length, TASKS.length); // the case is one to advise on
    const first = await loadRuns([logs], data, { cache });
    assert.equal(first.cache?.hit, false);
    assert.equal(sideFiles(cache).length, 1);
    const again = await loadRuns([logs], data, { cache });
    assert.equal(again.cache?.hit, true);
    assert.deepEqual(first.advice, fresh.advice);
    assert.deepEqual(again.advice, fresh.advice);
    // kept, not made again: an edit of the side file shows (so the edit below must not)
    const [side] = sideFiles(cache);
    const kept = JSON.parse(Deno.readTextFileSync(side));
    Deno.writeTextFileSync(side, JSON.stringify({ ...kept, disagree: [] }));
    assert.deepEqual((await loadRuns([logs], data, { cache })).advice.disagree, []);
    // a damaged side file is made again
    Deno.writeTextFileSync(side, "{not json");
    assert.deepEqual((await loadRuns([logs], data, { cache })).advice, fresh.advice);
    assert.deepEqual(JSON.parse(Deno.readTextFileSync(side)), kept);
  });
});

dataTest("cache: renamed runs get advice of their own names", async (data) => {
  await withTempDir(async (dir) => {
    const logs = correctedLog(data, dir);
    const cache = join(dir, "cache");
    await loadRuns([logs], data, { cache });
    const run = (await loadRuns([logs], data, { cache })).runs[0].run;
    const rename = new Map([[run, "renamed"]]);
    const renamed = await loadRuns([logs], data, { cache, rename });
    assert.equal(renamed.cache?.hit, true);
    assert.deepEqual(
      [...new Set(renamed.advice.disagree.map((d) => d.run))],
      ["renamed"],
    );
    assert.equal(sideFiles(cache).length, 2);
    const fresh = await loadRuns([logs], data, { cache: false, rename });
    assert.deepEqual(renamed.advice, fresh.advice);
  });
});

dataTest(
  "cache: the run summaries are kept beside the entry and read back as made",
  async (data) => {
    await withTempDir(async (dir) => {
      const logs = correctedLog(data, dir);
      const cache = join(dir, "cache");
      const fresh = await loadRuns([logs], data, { cache: false });
      const first = await loadRuns([logs], data, { cache });
      const again = await loadRuns([logs], data, { cache });
      assert.equal(again.cache?.hit, true);
      assert.deepEqual(first.runs, fresh.runs);
      assert.deepEqual(again.runs, fresh.runs);
      const [side] = sideFiles(cache, "runs-");
      // read, not made again: an edit of the side file shows
      const kept = JSON.parse(Deno.readTextFileSync(side));
      Deno.writeTextFileSync(side, JSON.stringify([{ ...kept[0], model: "edited" }]));
      assert.equal((await loadRuns([logs], data, { cache })).runs[0].model, "edited");
      // a file of another shape is made again, and kept anew
      Deno.writeTextFileSync(side, JSON.stringify({ runs: kept }));
      assert.deepEqual((await loadRuns([logs], data, { cache })).runs, fresh.runs);
      assert.deepEqual(JSON.parse(Deno.readTextFileSync(side)), kept);
      // renamed runs: summaries of their own
      const rename = new Map([[fresh.runs[0].run, "renamed"]]);
      const renamed = await loadRuns([logs], data, { cache, rename });
      assert.deepEqual(renamed.runs.map((r) => r.run), ["renamed"]);
      assert.deepEqual(renamed.runs, (await loadRuns([logs], data, { cache: false, rename })).runs);
      assert.equal(sideFiles(cache, "runs-").length, 2);
    });
  },
);

// from the review of issue 26: what was planned for a file but left out of the key made stale
// entries — `--run-by`'s grouping (in the kept summaries) and `--map`'s literals (in the rows)

dataTest("cache: the kept summaries follow --run-by (grouping)", async (data) => {
  await withTempDir(async (dir) => {
    // r/r.jsonl: run "r" whether named after its folder or its file
    writeChatLog(
      data,
      join(dir, "r"),
      ["navigate"],
      5,
      (_, target) => `So the answer is ${target}.`,
    );
    Deno.renameSync(join(dir, "r", "navigate.jsonl"), join(dir, "r", "r.jsonl"));
    const file = join(dir, "r", "r.jsonl");
    const cache = join(dir, "cache");
    const grouping = async (runBy: "folder" | "file", cached: string | false) =>
      (await loadRuns([file], data, { runBy, cache: cached, responses: false })).runs
        .map((r) => [r.run, r.grouping]);
    assert.deepEqual(await grouping("folder", false), [["r", "folder"]]);
    assert.deepEqual(await grouping("file", false), [["r", "file"]]);
    assert.deepEqual(await grouping("folder", cache), [["r", "folder"]]);
    assert.deepEqual(await grouping("file", cache), [["r", "file"]]);
  });
});

dataTest("cache: --map's literals on a structured log are part of the key", async (data) => {
  await withTempDir(async (dir) => {
    const logs = writeLmEvalLog(data, dir, "m", ["navigate"], 20, (_, target) => ({
      response: `So the answer is ${target}.`,
      stored: true,
    }));
    const cache = join(dir, "cache");
    const load = (map?: string) =>
      loadRuns([logs], data, { cache, responses: false, map: map ? parseColumnMap(map) : [] });
    const plain = await load();
    assert.deepEqual([plain.runs.length, plain.quarantine.length], [1, 0]);
    // navigate is no BBEH task: every row is quarantined, as without the cache
    const fresh = await loadRuns([logs], data, {
      cache: false,
      responses: false,
      map: parseColumnMap("benchmark==bbeh"),
    });
    const mapped = await load("benchmark==bbeh");
    assert.equal(mapped.quarantine.length, 20);
    assert.deepEqual(mapped.runs, fresh.runs);
    assert.deepEqual(mapped.quarantine, fresh.quarantine);
  });
});
