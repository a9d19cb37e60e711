/**
 * The fast paths of scoring big logs give the same results as the plain ones: JSONL read in
 * blocks (any block size) vs one polars scan, and `loadRuns` with `responses: false` (lean
 * rows) vs the default. (The official scorer's bounded-tail extraction, any tail length, is
 * tested on its byte form in `bbeh_tail.test.ts`.)
 *
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import { readJsonlBlocks, readJsonlLog } from "@runlens/logs/jsonl.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { dataTest } from "./_data.ts";

const LOGS = new URL("./fixtures/logs/", import.meta.url).pathname;

Deno.test("JSONL read in blocks of any size equals one whole-file read", () => {
  const files: string[] = [];
  for (const e of Deno.readDirSync(LOGS)) if (e.name.endsWith(".jsonl")) files.push(e.name);
  const dir = Deno.makeTempDirSync();
  try {
    // a clean file with blank lines, CRLF, types that only some lines set, extra fields
    const clean = join(dir, "clean.jsonl");
    Deno.writeTextFileSync(
      clean,
      '{"task":"nycc","example_index":1,"response":"The answer is: 3"}\n\n  \r\n' +
        '{"task":"nycc","example_index":2,"response":"x","note":1,"z":null}\r\n' +
        '{"task":"nycc","epoch":2,"example_index":3,"response":"y","z":"q"}\n\t\n' +
        '{"note":4,"task":"nycc","example_index":4,"response":"z","run":"r"}',
    );
    files.push(clean);
    // a float in one block and an integer in another: the blocks must give way
    const mixed = join(dir, "mixed_types.jsonl");
    Deno.writeTextFileSync(
      mixed,
      '{"task":"nycc","example_index":1,"response":"a","w":1}\n' +
        '{"task":"nycc","example_index":2,"response":"b","w":1.5}\n',
    );
    files.push(mixed);
    for (const name of files) {
      const path = name.startsWith("/") ? name : join(LOGS, name);
      const whole = readJsonlLog(path);
      for (const size of [1, 40, 100, 1 << 20]) {
        const frames: pl.DataFrame[] = [];
        const ok = readJsonlBlocks(path, (raw) => frames.push(raw.frame), size);
        if (!ok) {
          if (name === clean) assert.fail(`blocks of ${size} refused the clean file`);
          continue;
        }
        assert.equal(whole.bad.length, 0, `${name}: blocks accepted a file with bad lines`);
        const got = frames.length === 0 ? whole.frame.head(0) : pl.concat(frames);
        assert.deepEqual(got.toRecords(), whole.frame.toRecords(), `${name}, blocks of ${size}`);
      }
    }
    assert.equal(readJsonlBlocks(mixed, () => {}, 40), false);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

dataTest(
  "loadRuns with responses: false gives the same verdicts, quarantine and summaries",
  (dataDir) => {
    {
      const full = loadRuns([LOGS], dataDir);
      const lean = loadRuns([LOGS], dataDir, { responses: false });
      assert.deepEqual(lean.runs, full.runs);
      assert.deepEqual(lean.quarantine, full.quarantine);
      const cols = full.rows.columns.filter((c) => c !== "response");
      assert.deepEqual(
        lean.rows.select(...cols).toRecords(),
        full.rows.select(...cols).toRecords(),
      );
      assert.equal(lean.rows.getColumn("response").nullCount(), lean.rows.height);
    }
  },
);
