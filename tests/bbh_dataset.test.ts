/**
 * The BBH data-set loader: clear errors on temporary folders, the real release data-backed.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import pl from "nodejs-polars";
import {
  findBbhTaskDir,
  loadBbhDataset,
  readBbhTaskFile,
} from "@runlens/benchmarks/bbh/dataset.ts";
import { readBbhTask } from "@runlens/benchmarks/bbh/examples.ts";
import { BBH_TASKS, bbhTask } from "@runlens/benchmarks/bbh/tasks.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

Deno.test("BBH dataset: clear errors for a missing folder or not a release", () => {
  assert.throws(() => loadBbhDataset("/nonexistent/runlens"), /does not exist; run `npx/);
  withTempDir((dir) => {
    assert.throws(
      () => loadBbhDataset(dir),
      /is not a BBH release: expected bbh\/bbh\/<task>.json/,
    );
  });
});

Deno.test("BBH dataset: a missing, malformed or wrong-sized task file is named", () => {
  withTempDir((dir) => {
    const tasks = join(dir, "bbh", "bbh");
    Deno.mkdirSync(tasks, { recursive: true });
    const write = (name: string, text: string) => Deno.writeTextFileSync(join(tasks, name), text);
    write(
      "boolean_expressions.json",
      JSON.stringify({ examples: [{ input: "True is", target: "True" }] }),
    );
    assert.equal(findBbhTaskDir(dir), tasks);
    assert.equal(findBbhTaskDir(join(dir, "bbh")), tasks, "the release folder works too");
    assert.throws(
      () => readBbhTask(tasks, bbhTask("boolean_expressions")),
      /boolean_expressions.json: 1 examples, the release has 250/,
    );
    // the data set is read as the pipeline reads it: every file's presence checked first
    assert.throws(
      () => loadBbhDataset(dir),
      /BBH release incomplete: .*causal_judgement.json is missing/,
    );
    write("broken.json", "{");
    assert.throws(() => readBbhTaskFile(join(tasks, "broken.json")), /broken.json: not valid JSON/);
    write("shape.json", JSON.stringify({ examples: [{ input: "x" }] }));
    assert.throws(() => readBbhTaskFile(join(tasks, "shape.json")), /example 0 lacks a string/);
    write("none.json", "{}");
    assert.throws(() => readBbhTaskFile(join(tasks, "none.json")), /no "examples" array/);
    const many = Array.from({ length: 250 }, () => ({ input: "True is", target: "True" }));
    write("boolean_expressions.json", JSON.stringify({ examples: many }));
    assert.throws(
      () => loadBbhDataset(dir),
      /BBH release incomplete: .*causal_judgement.json is missing/,
    );
  });
});

dataTest("BBH dataset (data): 6,511 rows, schema, positions, code-point lengths", (dir) => {
  const ds = loadBbhDataset(dir);
  assert.equal(ds.height, 6511);
  assert.deepEqual(ds.columns, ["task", "example_index", "input", "target", "input_chars"]);
  assert.deepEqual(
    ds.dtypes.map(String),
    ["String", "Int32", "String", "String", "Int32"].map(
      (t) => `DataType(${t})`,
    ),
  );
  assert.equal(loadBbhDataset(dir), ds, "cached per folder");
  const perTask = ds.groupBy("task").agg(pl.col("example_index").max().alias("last")).sort("task");
  assert.deepEqual(
    perTask.getColumn("last").toArray(),
    BBH_TASKS.map((t) => t.size - 1),
  );
  const snarks = ds.filter(pl.col("task").eq(pl.lit("snarks")).and(pl.col("example_index").eq(88)));
  assert.equal(
    snarks.getColumn("input").get(0),
    "Which statement is sarcastic?\nOptions:\n(A) The NB",
  );
});

dataTest(
  "BBH dataset (data): the frame derived from readExamples equals the task files' content",
  (dir) => {
    // built here straight from the JSON files, not through the code under test
    const rows = BBH_TASKS.flatMap((t) => {
      const file = join(findBbhTaskDir(dir), `${t.name}.json`);
      const { examples } = JSON.parse(Deno.readTextFileSync(file));
      return examples.map((ex: { input: string; target: string }, i: number) => ({
        task: t.name,
        example_index: i,
        input: ex.input,
        target: ex.target,
        input_chars: [...ex.input].length,
      }));
    });
    assert.deepEqual(loadBbhDataset(dir).toRecords(), rows);
  },
);
