/**
 * The fast path of scoring big logs gives the same results as the plain one: `loadRuns` with
 * `responses: false` (lean rows) vs the default. (Reading a file in byte ranges of any size is
 * tested in `engine_ranges.test.ts`; the official scorer's bounded-tail extraction, any tail
 * length, on its byte form in `bbeh_tail.test.ts`.)
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { dataTest } from "./_data.ts";

const LOGS = new URL("./fixtures/logs/", import.meta.url).pathname;

dataTest(
  "loadRuns with responses: false gives the same verdicts, quarantine, summaries and lengths",
  async (dataDir) => {
    {
      const full = await loadRuns([LOGS], dataDir);
      const lean = await loadRuns([LOGS], dataDir, { responses: false });
      assert.deepEqual(lean.runs, full.runs);
      assert.deepEqual(lean.quarantine, full.quarantine);
      // lean rows keep every column but the texts (the memory of a big load)
      const texts = ["response", "input", "target"];
      const cols = full.rows.columns.filter((c) => !texts.includes(c));
      assert.deepEqual(
        lean.rows.select(...cols).toRecords(),
        full.rows.select(...cols).toRecords(),
      );
      for (const c of texts) {
        assert.equal(lean.rows.getColumn(c).nullCount(), lean.rows.height, c);
        assert.equal(full.rows.getColumn(c).nullCount(), 0, c);
      }
    }
  },
);
