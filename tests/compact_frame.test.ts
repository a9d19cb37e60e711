/**
 * The compact frame (`lib/pipeline/compact_frame.ts`) holds what the rows hold, whichever way a
 * text column is built: gathered from its string table when its rows differ, a polars literal
 * when every row holds one value or none (a canonical log's `benchmark`, `scorer`, `ptr_kind`
 * and null lm-eval columns). Literal columns must behave as ordinary columns in what the
 * pipeline does with the frame: filters, slices, partitions, the Parquet cache, concatenation.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import {
  type CompactRow,
  concatRows,
  EMPTY_ROW,
  firstRows,
  rowAt,
  rowBuffers,
  RowBuilder,
  selectRows,
} from "@runlens/pipeline/compact.ts";
import { compactFrame } from "@runlens/pipeline/compact_frame.ts";

const TEXT = [
  "run",
  "model",
  "benchmark",
  "task",
  "extracted",
  "scorer",
  "source_file",
  "tool_extracted",
  "lm_eval_filter",
  "data_version",
  "ptr_kind",
  "ptr_member",
];

/** Rows of two runs of one model on one benchmark, every other optional field as given. */
function rows(n: number, extra: Partial<CompactRow> = {}): CompactRow[] {
  return Array.from({ length: n }, (_, i) => ({
    ...EMPTY_ROW,
    line: i + 1,
    run: i < n / 2 ? "run-a" : "run-b",
    model: "gpt-x",
    benchmark: "bbeh",
    task: i % 3 === 0 ? "nycc" : "dyck languages",
    example: i,
    correct: i % 2 === 0,
    found: i % 4 === 0 ? false : i % 4 === 1 ? null : true,
    extracted: i % 4 === 0 ? null : `(${i % 5})`,
    scorer: "bbeh-official",
    chars: 10 + i,
    bytes: 10 + i,
    pointer: { kind: "span" as const, offset: 100 * i, length: 12, member: null },
    ...extra,
  }));
}

function frameOf(list: CompactRow[], files = ["logs/a.jsonl"]): pl.DataFrame {
  const b = new RowBuilder();
  for (const r of list) b.add(r);
  return compactFrame(b.finish(), files);
}

Deno.test("compact frame: constant and null text columns hold every row's value", () => {
  const df = frameOf(rows(6));
  assert.equal(df.height, 6);
  for (const c of TEXT) assert.equal(String(df.getColumn(c).dtype), String(pl.String), c);
  assert.deepEqual(df.getColumn("benchmark").toArray(), Array(6).fill("bbeh"));
  assert.deepEqual(df.getColumn("scorer").toArray(), Array(6).fill("bbeh-official"));
  assert.deepEqual(df.getColumn("source_file").toArray(), Array(6).fill("logs/a.jsonl"));
  assert.deepEqual(df.getColumn("ptr_kind").toArray(), Array(6).fill("span"));
  const empty = ["tool_extracted", "lm_eval_filter", "data_version", "ptr_member"];
  for (const c of [...empty, "example_id", "subset", "extra"]) {
    assert.deepEqual(df.getColumn(c).toArray(), Array(6).fill(null), c);
    assert.equal(df.getColumn(c).nullCount(), 6, c);
  }
  assert.deepEqual(df.getColumn("run").toArray(), [
    "run-a",
    "run-a",
    "run-a",
    "run-b",
    "run-b",
    "run-b",
  ]);
  assert.deepEqual(df.getColumn("extracted").toArray(), [null, "(1)", "(2)", "(3)", null, "(0)"]);
  assert.deepEqual(df.getColumn("answer_found").toArray(), [false, null, true, true, false, null]);
  assert.deepEqual(df.columns, [
    "run",
    "model",
    "benchmark",
    "task",
    "example_index",
    "epoch",
    "input_chars",
    "extracted",
    "correct",
    "answer_found",
    "scorer",
    "response_chars",
    "response_bytes",
    "response_tokens",
    "source_file",
    "source_line",
    "stored_correct",
    "tool_extracted",
    "lm_eval_filter",
    "data_version",
    "ptr_kind",
    "ptr_offset",
    "ptr_length",
    "ptr_member",
    "example_id",
    "subset",
    "extra",
  ]); // deno-fmt-ignore
});

Deno.test("compact frame: a column constant but for one row is gathered, not a literal", () => {
  const list = rows(5);
  list[4] = { ...list[4], benchmark: "bbh", filter: "strict-match", data_version: "v2" };
  const df = frameOf(list);
  assert.deepEqual(df.getColumn("benchmark").toArray(), ["bbeh", "bbeh", "bbeh", "bbeh", "bbh"]);
  assert.deepEqual(df.getColumn("lm_eval_filter").toArray(), [
    null,
    null,
    null,
    null,
    "strict-match",
  ]);
  assert.deepEqual(df.getColumn("data_version").toArray(), [null, null, null, null, "v2"]);
});

Deno.test("compact frame: one row, and no rows", () => {
  const one = frameOf(rows(1, { filter: "flexible-extract" }));
  assert.equal(one.height, 1);
  assert.deepEqual(one.select("run", "benchmark", "lm_eval_filter", "ptr_member").row(0), [
    "run-a",
    "bbeh",
    "flexible-extract",
    null,
  ]);
  const none = frameOf([]);
  assert.equal(none.height, 0);
  assert.equal(none.width, 27);
  assert.equal(String(none.getColumn("benchmark").dtype), String(pl.String));
});

Deno.test("compact frame: literal columns survive filters, slices, partitions, concat and Parquet", () => {
  const df = frameOf(rows(8));
  const wrong = df.filter(pl.col("correct").not());
  assert.deepEqual(wrong.getColumn("benchmark").toArray(), Array(4).fill("bbeh"));
  assert.deepEqual(wrong.getColumn("data_version").toArray(), Array(4).fill(null));
  assert.deepEqual(df.slice(6, 2).getColumn("scorer").toArray(), [
    "bbeh-official",
    "bbeh-official",
  ]);
  const parts = df.partitionBy(["benchmark", "run"], true, true);
  assert.deepEqual(parts.map((p) => [p.height, p.getColumn("benchmark").get(0)]), [[4, "bbeh"], [
    4,
    "bbeh",
  ]]);
  const both = pl.concat([df, frameOf(rows(2, { benchmark: "bbh", scorer: "bbh-cot" }))]);
  assert.deepEqual(both.getColumn("benchmark").toArray().slice(7), ["bbeh", "bbh", "bbh"]);
  assert.deepEqual(
    both.groupBy("benchmark").agg(pl.len().alias("n")).sort("benchmark").rows(),
    [["bbeh", 8], ["bbh", 2]],
  );
  const dir = Deno.makeTempDirSync();
  try {
    const file = join(dir, "part.parquet");
    df.writeParquet(file);
    const back = pl.readParquet(file);
    assert.deepEqual(back.columns, df.columns);
    assert.deepEqual(back.rows(), df.rows());
    assert.deepEqual(back.getColumn("ptr_member").toArray(), Array(8).fill(null));
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
});

Deno.test("compact frame: with release, the rows' arrays are freed and the frame is the same", () => {
  const list = rows(7, { filter: "strict-match" });
  list[2] = { ...list[2], tokens: 40, stored: true, data_version: "v2" };
  const build = () => {
    const b = new RowBuilder();
    for (const r of list) b.add(r);
    return b.finish();
  };
  const kept = compactFrame(build(), ["logs/a.jsonl"]);
  const freed = build();
  const df = compactFrame(freed, ["logs/a.jsonl"], { release: true });
  assert.deepEqual(df.rows(), kept.rows());
  assert.deepEqual(df.columns, kept.columns);
  for (const group of [freed.int, freed.byte, freed.float]) {
    for (const [name, a] of Object.entries(group)) assert.equal(a.length, 0, name);
  }
  // without release the rows stay readable
  const again = build();
  compactFrame(again, ["logs/a.jsonl"]);
  assert.equal(again.int.run.length, 7);
});

Deno.test("compact rows: example_id, subset and extra exist only once a row holds one", () => {
  const plain = new RowBuilder();
  for (const r of rows(40)) plain.add(r);
  const none = plain.finish();
  assert.deepEqual(none.sparse, {}); // rows tied by position pay nothing
  const b = new RowBuilder();
  const list = rows(40).map((r, i) =>
    i < 37 ? r : { ...r, example: -1, example_id: `q${i % 38}`, extra: `{"level":${i}}` }
  );
  for (const r of list) b.add(r); // the ids start after the arrays grew twice
  const withIds = b.finish();
  assert.deepEqual(Object.keys(withIds.sparse), ["example_id", "extra"]);
  assert.deepEqual(rowAt(withIds, 38), list[38]);
  // the columns some row holds come back null for the others; no subset key at all
  assert.deepEqual(rowAt(withIds, 3), { ...list[3], example_id: null, extra: null });
  // concat with rows that have none, select, and the Workers' transfer list keep them
  const both = concatRows([none, withIds]);
  assert.deepEqual(rowAt(both, 40 + 39).example_id, "q1");
  assert.equal(rowAt(both, 5).example_id, null);
  assert.equal(
    selectRows(both, [79]).sparse.example_id?.[0],
    both.strings.example_id.indexOf("q1"),
  );
  assert.equal(rowBuffers(both).length, rowBuffers(none).length + 2);
  // two rows of one run, task and epoch differ by id only: not duplicates; the same id is
  const dup = new RowBuilder();
  for (const id of ["a", "b", "a"]) {
    dup.add({ ...EMPTY_ROW, run: "r", example: -1, example_id: id });
  }
  const seen = firstRows(dup.finish());
  assert.deepEqual([seen(0), seen(1), seen(2)], [-1, -1, 0]);
  // in the frame: the ids, a null example_index for rows tied by id, subset a null literal
  const df = compactFrame(withIds, ["a.jsonl"]);
  assert.deepEqual(df.getColumn("example_id").toArray().slice(36), [null, "q37", "q0", "q1"]);
  assert.deepEqual(df.getColumn("example_index").toArray().slice(36), [36, null, null, null]);
  assert.equal(df.getColumn("subset").nullCount(), 40);
  assert.equal(df.getColumn("extra").get(39), '{"level":39}');
});
