/**
 * The load cache end to end (issue 13, item 3): a second load of unchanged logs reads the
 * cache and gives the same rows, quarantine and summaries; appending, truncating or
 * rewriting a file (or changing the scorer) is noticed and the logs are read again; a load of
 * many small runs is not cached.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { readBbehExamples } from "@runlens/benchmarks/bbeh/examples.ts";
import { existsSync } from "node:fs";
import { CACHE_MANY_RUNS, type LoadedRuns, loadRuns } from "@runlens/pipeline/load.ts";
import { readCache, writeCache } from "@runlens/pipeline/cache.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

/** Lines of a canonical BBEH log: right answers, every third one wrong. */
function lines(dataDir: string, n: number): string[] {
  const nycc = readBbehExamples(dataDir).nycc;
  return Array.from({ length: n }, (_, i) =>
    JSON.stringify({
      task: "nycc",
      example_index: i,
      response: `The answer is: ${i % 3 === 0 ? "(Z)" : nycc[i].target}`,
    }));
}

/** What must not differ between a scored and a cached load. */
const view = (l: LoadedRuns) => ({
  rows: l.rows.drop("response").toRecords(),
  quarantine: l.quarantine,
  runs: l.runs,
  errors: l.errors,
  files: l.fileSummaries,
});

dataTest(
  "cache: hit on unchanged logs, miss on append, truncate, rewrite, scorer",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const cache = join(dir, "cache");
      const log = join(dir, "run.jsonl");
      Deno.writeTextFileSync(log, lines(dataDir, 30).join("\n") + "\n");
      const load = (scorer?: string) => loadRuns([log], dataDir, { cache, scorer });
      const first = await load();
      assert.equal(first.cache?.hit, false);
      const second = await load();
      assert.equal(second.cache?.hit, true);
      assert.deepEqual(view(second), view(first));
      assert.equal(
        second.rows.getColumn("response").get(1),
        first.rows.getColumn("response").get(1),
      );

      Deno.writeTextFileSync(log, lines(dataDir, 31).at(-1)! + "\n", { append: true });
      const appended = await load();
      assert.equal(appended.cache?.hit, false);
      assert.match(appended.cache?.reason ?? "", /run\.jsonl changed: size/);
      assert.equal(appended.runs[0].rows_in, 31);

      Deno.writeTextFileSync(log, lines(dataDir, 10).join("\n") + "\n"); // truncated
      const truncated = await load();
      assert.deepEqual([truncated.cache?.hit, truncated.runs[0].rows_in], [false, 10]);

      // the same size, another answer in the first line: a rewrite
      const text = Deno.readTextFileSync(log);
      Deno.writeTextFileSync(log, text.replace("(Z)", "(Y)"));
      const rewritten = await load();
      assert.equal(rewritten.cache?.hit, false);
      assert.equal(rewritten.rows.getColumn("extracted").get(0), "(y)"); // the official rule lowercases
      assert.equal((await load()).cache?.hit, true);

      const stored = await load("stored"); // another scorer: another entry
      assert.equal(stored.cache?.hit, false);
      assert.equal(stored.runs[0].scorer, "stored");
    });
  },
);

dataTest("cache: a damaged entry is ignored with its reason and written again", async (dataDir) => {
  await withTempDir(async (dir) => {
    const cache = join(dir, "cache");
    const log = join(dir, "run.jsonl");
    Deno.writeTextFileSync(log, lines(dataDir, 12).join("\n") + "\n");
    const first = await loadRuns([log], dataDir, { cache });
    const entry = join(cache, first.cache!.key);
    for (const e of Deno.readDirSync(join(entry, "benchmark=bbeh"))) {
      Deno.writeTextFileSync(join(entry, "benchmark=bbeh", e.name, "part-0.parquet"), "junk");
    }
    const again = await loadRuns([log], dataDir, { cache });
    assert.equal(again.cache?.hit, false);
    assert.deepEqual(view(again), view(first));
    assert.equal((await loadRuns([log], dataDir, { cache })).cache?.hit, true);
  });
});

dataTest(
  "cache: an entry of rows without answer_found (older code) is a miss, then replaced",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const cache = join(dir, "cache");
      const log = join(dir, "run.jsonl");
      Deno.writeTextFileSync(log, lines(dataDir, 12).join("\n") + "\n");
      const first = await loadRuns([log], dataDir, { cache });
      const key = first.cache!.key;
      // the same entry as code before issue 22 wrote it: every column but answer_found
      const entry = readCache(cache, key).load!;
      Deno.removeSync(join(cache, key), { recursive: true });
      const manifest = entry.manifest;
      writeCache(cache, key, {
        frame: entry.frame.drop("answer_found"),
        quarantine: entry.quarantine,
        meta: entry.meta,
        fingerprints: manifest.files,
        settings: manifest.settings,
      });
      assert.ok(!readCache(cache, key).load!.frame.columns.includes("answer_found"));
      const again = await loadRuns([log], dataDir, { cache });
      assert.equal(again.cache?.hit, false);
      assert.deepEqual(view(again), view(first));
      assert.deepEqual(again.rows.getColumn("answer_found").toArray(), Array(12).fill(true));
      assert.equal((await loadRuns([log], dataDir, { cache })).cache?.hit, true);
    });
  },
);

dataTest(
  "cache: an entry written inside the folder scored is not read as a log next time",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      Deno.writeTextFileSync(join(dir, "run.jsonl"), lines(dataDir, 5).join("\n") + "\n");
      const cache = join(dir, ".runlens", "cache"); // the default cache dir when cwd = dir
      const first = await loadRuns([dir], dataDir, { cache });
      const second = await loadRuns([dir], dataDir, { cache });
      assert.deepEqual([first.cache?.hit, second.cache?.hit], [false, true]);
      assert.ok(Deno.statSync(cache).isDirectory);
      assert.deepEqual(view(second), view(first));
      assert.deepEqual(second.errors, []);
      assert.deepEqual(second.fileSummaries.map((f) => f.file), [join(dir, "run.jsonl")]);
    });
  },
);

dataTest(
  "cache: a load of many small runs is not written (scoring them again is faster)",
  async (dataDir) => {
    await withTempDir(async (dir) => {
      const cache = join(dir, "cache");
      const logs = join(dir, "logs");
      Deno.mkdirSync(logs);
      const [line] = lines(dataDir, 1);
      const n = CACHE_MANY_RUNS + 1; // one run per file
      for (let i = 0; i < n; i++) Deno.writeTextFileSync(join(logs, `r${i}.jsonl`), line + "\n");
      const first = await loadRuns([logs], dataDir, { cache });
      assert.equal(first.runs.length, n);
      assert.equal(first.cache?.hit, false);
      assert.match(first.cache?.reason ?? "", new RegExp(`^not written: ${n} runs of \\d+ bytes`));
      assert.ok(!existsSync(cache), "no entry");
      const uncached = await loadRuns([logs], dataDir, {});
      assert.deepEqual(view(first), view(uncached));
      // one file fewer: the few runs are cached as before
      Deno.removeSync(join(logs, "r0.jsonl"));
      await loadRuns([logs], dataDir, { cache });
      assert.equal((await loadRuns([logs], dataDir, { cache })).cache?.hit, true);
    });
  },
);
