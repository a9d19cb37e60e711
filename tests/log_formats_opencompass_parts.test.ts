/**
 * Tests of OpenCompass partitioned data sets (`logs/sources/opencompass.ts`): a data set split by
 * `SizePartitioner`/`NumWorkerPartitioner` into `<abbr>_0.json`, `<abbr>_1.json`, … (keys
 * restarting at "0" in each part) is read as one data set with indices continuing in part
 * order, as OpenCompass's evaluator merges them; parts it would not merge (after a missing
 * part, or beside a merged `<abbr>.json`) are quarantined, naming the part file. Fixture:
 * tests/fixtures/logs/formats/opencompass/20250202_090000 (golds copied from BBEH's
 * boardgame_qa and object_counting task files).
 * @module
 */
import assert from "node:assert/strict";
import { basename, dirname, join } from "node:path";
import { gzipSync } from "fflate";
import pl from "nodejs-polars";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { discover } from "@runlens/logs/discover.ts";
import { partitionOf, predictionsExist } from "@runlens/logs/sources/opencompass.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { dataTest } from "./_data.ts";
import { readChecked } from "./_read.ts";
import { withTempDir } from "./_tmp.ts";

const FORMATS = join(REPO_ROOT, "tests", "fixtures", "logs", "formats");
const WORK = join(FORMATS, "opencompass", "20250202_090000");
const PRED = join(WORK, "predictions", "parted-7b");
const RUN = "parted-7b_20250202_090000";

const formatOf = (path: string) => discover([path]).files[0]?.format ?? null;

/** Write an OpenCompass predictions object `{"0": {prediction, gold}, …}` to `path`. */
function writePredictions(path: string, golds: string[], keys = golds.map((_, k) => String(k))) {
  Deno.mkdirSync(dirname(path), { recursive: true });
  const doc = Object.fromEntries(
    golds.map((g, k) => [keys[k], { origin_prompt: `q ${k}`, prediction: `A: ${g}`, gold: g }]),
  );
  Deno.writeTextFileSync(path, JSON.stringify(doc, null, 4));
}

Deno.test("partitionOf: `<d>_<n>.json` is a part only when `<d>_0.json` sits beside it", () => {
  assert.deepEqual(partitionOf(join(PRED, "bbeh_boardgame_qa_1.json")), {
    dataset: "bbeh_boardgame_qa",
    part: 1,
  });
  assert.deepEqual(partitionOf(join(PRED, "bbeh_boardgame_qa_0.json")), {
    dataset: "bbeh_boardgame_qa",
    part: 0,
  });
  // the part after a gap is still a part (reported when read), its _0 exists
  assert.deepEqual(partitionOf(join(PRED, "bbeh_object_counting_2.json")), {
    dataset: "bbeh_object_counting",
    part: 2,
  });
  withTempDir((dir) => {
    const m = join(dir, "predictions", "m");
    // a data set whose own name ends in _<digits>: no bbh-foo_0.json, so not a part
    writePredictions(join(m, "bbh-foo_1.json"), ["x"]);
    assert.equal(partitionOf(join(m, "bbh-foo_1.json")), null);
    const own = readChecked(join(m, "bbh-foo_1.json"));
    assert.deepEqual(own.rows.map(({ task, example_index }) => ({ task, example_index })), [
      { task: "foo_1", example_index: 0 },
    ]);
    // a split data set whose name ends in _<digits>: the last _<n> is the part
    writePredictions(join(m, "ruler_1_0.json"), ["a"]);
    writePredictions(join(m, "ruler_1_1.json"), ["b"]);
    assert.deepEqual(partitionOf(join(m, "ruler_1_1.json")), { dataset: "ruler_1", part: 1 });
    // leading zeros are not OpenCompass part numbers
    assert.equal(partitionOf(join(m, "ruler_1_01.json")), null);
  });
});

Deno.test("opencompass parts: indices continue across parts, rows point at their part file", () => {
  const part0 = readChecked(join(PRED, "bbeh_boardgame_qa_0.json"));
  const part1 = readChecked(join(PRED, "bbeh_boardgame_qa_1.json"));
  assert.equal(part0.format, "opencompass-predictions");
  const rows0 = part0.rows;
  const rows1 = part1.rows;
  assert.equal(rows0.length, 23);
  assert.deepEqual(rows0.map((r) => r.example_index), [...Array(23).keys()]);
  // part 1's keys "0".."3" are examples 23..26, at lines 1..4 of the part file itself
  assert.deepEqual(
    rows1.map((r) => [r.source_line, r.example_index]),
    [[1, 23], [2, 24], [3, 25], [4, 26]],
  );
  for (const r of [...rows0, ...rows1]) {
    assert.deepEqual([r.run, r.model, r.benchmark, r.task], [
      RUN,
      "parted-7b",
      "bbeh",
      "boardgame_qa",
    ]);
  }
  assert.deepEqual(rows1.map((r) => r.target), ["proved", "proved", "proved", "proved"]);
  // verdicts come from the merged results file, by merged index: example 25 (part 1, key "2")
  // is wrong there, example 2 (part 0) too — a restart at 0 would give part 1 example 2's
  const verdicts = [...rows0, ...rows1].map((r) => r.stored_correct);
  assert.deepEqual(
    verdicts.flatMap((v, i) => (v === false ? [i] : [])),
    [2, 25],
  );
  assert.equal(rows1[2].tool_extracted, "unknown");
  assert.equal(verdicts.filter((v) => v === true).length, 25);
  // counts reconcile: every record of each part is a row or quarantined
  for (const log of [part0, part1]) {
    assert.equal(log.quarantine.length, 0);
    assert.equal(log.rowsIn, log.rows.length);
  }
  const results = JSON.parse(
    Deno.readTextFileSync(join(WORK, "results", "parted-7b", "bbeh_boardgame_qa.json")),
  );
  assert.equal(part0.rowsIn + part1.rowsIn, results.details.length);
});

Deno.test("opencompass parts: a part after a missing one is quarantined, naming both files", () => {
  const part0 = readChecked(join(PRED, "bbeh_object_counting_0.json"));
  assert.deepEqual(part0.rows.map((r) => [r.task, r.example_index]), [
    ["object_counting", 0],
    ["object_counting", 1],
    ["object_counting", 2],
  ]);
  const part2 = readChecked(join(PRED, "bbeh_object_counting_2.json"));
  assert.equal(part2.rows.length, 0);
  assert.equal(part2.rowsIn, 2);
  assert.deepEqual(
    part2.quarantine.map((q) => [q.line, q.run]),
    [[1, RUN], [2, RUN]],
  );
  for (const q of part2.quarantine) {
    assert.match(
      q.reason,
      /part 2 of bbeh_object_counting not merged: part 1 \(bbeh_object_counting_1\.json\) is missing/,
    );
  }
});

Deno.test("opencompass parts: detection and the directory search", () => {
  // the merged results file belongs to the parts (read for their verdicts), not read alone
  const results = join(WORK, "results", "parted-7b", "bbeh_boardgame_qa.json");
  assert.equal(predictionsExist(results), true);
  const found = discover([results]);
  assert.deepEqual(found.files, []);
  assert.match(found.companions[0].reason, /read alongside its predictions file/);
  for (const f of ["bbeh_boardgame_qa_0.json", "bbeh_boardgame_qa_1.json"]) {
    assert.equal(formatOf(join(PRED, f)), "opencompass-predictions");
  }
  assert.deepEqual(discover([WORK]).files.map((f) => basename(f.path)), [
    "bbeh_boardgame_qa_0.json",
    "bbeh_boardgame_qa_1.json",
    "bbeh_object_counting_0.json",
    "bbeh_object_counting_2.json",
  ]);
});

Deno.test("opencompass parts: a merged <abbr>.json wins; gzip parts; bad keys; unreadable parts", () => {
  withTempDir((dir) => {
    const m = join(dir, "predictions", "m");
    writePredictions(join(m, "bbeh_nycc_0.json"), ["a", "b"]);
    writePredictions(join(m, "bbeh_nycc_1.json"), ["c"]);
    // OpenCompass's evaluator reads <abbr>.json when it exists, not the parts
    writePredictions(join(m, "bbeh_nycc.json"), ["a", "b", "c"]);
    const merged = readChecked(join(m, "bbeh_nycc.json"));
    assert.deepEqual(merged.rows.map((r) => r.example_index), [0, 1, 2]);
    const stale = readChecked(join(m, "bbeh_nycc_1.json"));
    assert.equal(stale.rows.length, 0);
    assert.deepEqual(stale.quarantine.map((q) => q.line), [1]);
    assert.match(stale.quarantine[0].reason, /reads the merged bbeh_nycc\.json instead/);
    Deno.removeSync(join(m, "bbeh_nycc.json"));

    // gzip-compressed parts: the offset is counted through decompression
    const gz = (p: string) => {
      Deno.writeFileSync(`${p}.gz`, gzipSync(Deno.readFileSync(p)));
      Deno.removeSync(p);
    };
    gz(join(m, "bbeh_nycc_0.json"));
    gz(join(m, "bbeh_nycc_1.json"));
    const zipped = readChecked(join(m, "bbeh_nycc_1.json.gz"));
    assert.equal(zipped.format, "opencompass-predictions");
    assert.ok(discover([join(m, "bbeh_nycc_1.json.gz")]).files[0].gzip);
    assert.deepEqual(zipped.rows.map((r) => [r.task, r.example_index, r.source_line]), [
      ["nycc", 2, 1],
    ]);

    // keys of a part must be 0…n-1 (OpenCompass reads str(0)…str(n-1)); others are quarantined
    writePredictions(join(m, "bbeh_nycc_2.json"), ["d", "e", "f"], ["0", "7", "x"]);
    const keyed = readChecked(join(m, "bbeh_nycc_2.json"));
    assert.deepEqual(keyed.rows.map((r) => r.example_index), [3]);
    assert.deepEqual(keyed.quarantine.map((q) => q.line).sort(), [2, 3]);
    for (const q of keyed.quarantine) assert.match(q.reason, /not a record number 0–2/);
    assert.equal(keyed.rowsIn, keyed.rows.length + keyed.quarantine.length);

    // an unreadable earlier part: the later part cannot be placed
    Deno.writeTextFileSync(join(m, "bbeh_nycc_2.json"), "[1, 2]");
    writePredictions(join(m, "bbeh_nycc_3.json"), ["g"]);
    const lost = readChecked(join(m, "bbeh_nycc_3.json"));
    assert.equal(lost.rows.length, 0);
    assert.match(
      lost.quarantine[0].reason,
      /part 3 of bbeh_nycc cannot be placed: part 2 \(bbeh_nycc_2\.json\) cannot be read/,
    );
    const unreadable = discover([join(m, "bbeh_nycc_2.json")]);
    assert.deepEqual(unreadable.files, []);
    assert.equal(unreadable.errors[0].file, join(m, "bbeh_nycc_2.json"));

    // a part rewritten after being counted is counted again
    writePredictions(join(m, "bbeh_nycc_2.json"), ["d", "e"]);
    assert.deepEqual(readChecked(join(m, "bbeh_nycc_3.json")).rows.map((r) => r.example_index), [
      5,
    ]);
  });
});

dataTest(
  "opencompass parts end to end: rows tie to their examples, counts balance",
  async (dataDir) => {
    const loaded = await loadRuns([WORK], dataDir);
    assert.equal(loaded.runs.length, 1);
    const run = loaded.runs[0];
    assert.deepEqual([run.run, run.benchmark, run.format], [
      RUN,
      "bbeh",
      "opencompass-predictions",
    ]);
    // 27 boardgame_qa records + 3 object_counting part-0 records score; part 2's 2 do not
    assert.deepEqual([run.rows_in, run.rows_scored, run.rows_quarantined], [32, 30, 2]);
    assert.equal(loaded.rows.height + loaded.quarantine.length, run.rows_in);
    assert.deepEqual(
      loaded.quarantine.map((q) => basename(q.file)),
      ["bbeh_object_counting_2.json", "bbeh_object_counting_2.json"],
    );
    // each row's gold (the log's target) is the data set's target of the example it points at
    const data = loadBbehDataset(dataDir).select(
      "task",
      pl.col("example_index").cast(pl.Int64),
      pl.col("target").alias("data_target"),
    );
    const joined = loaded.rows
      .select("task", pl.col("example_index").cast(pl.Int64), "target", "source_file")
      .join(data, { on: ["task", "example_index"], how: "left" });
    assert.equal(joined.height, 30);
    const mismatched = joined.filter(
      pl.col("target").neq(pl.col("data_target")).or(
        pl.col("data_target").isNull(),
      ),
    );
    assert.equal(mismatched.height, 0);
    // part 1's rows are examples 23..26, whose targets ("proved") differ from examples 0..3's
    const part1 = joined.filter(pl.col("source_file").str.contains("bbeh_boardgame_qa_1"));
    assert.deepEqual(part1.getColumn("example_index").toArray(), [23, 24, 25, 26]);
    const first = data.filter(
      pl.col("task").eq(pl.lit("boardgame_qa")).and(
        pl.col("example_index").ltEq(3),
      ),
    );
    assert.ok(
      (first.getColumn("data_target").toArray() as string[]).every((t) => t !== "proved"),
    );
    assert.equal(run.tasks.boardgame_qa.n, 27);
  },
);
