/**
 * Subsets inside BBEH tasks: the full-set counts of the project notes ("Subsets inside tasks",
 * pinned here independently of the rules), one label per example and kind, the Mini counts,
 * the geometric check of the geometric_shapes blocks, the labels join and per-subset accuracy,
 * and the `runlens subsets` command.
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { dataTest } from "./_data.ts";
import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import {
  bbehSubsets,
  geometricShapesCheck,
  geometricShapesLabel,
  subsetAccuracy,
  withSubsets,
} from "@runlens/benchmarks/bbeh/subsets.ts";
import { countSubsets } from "@runlens/benchmarks/bbeh/subsets_command.ts";
import { runlensMain } from "@runlens/cli/runlens.ts";
import { wilsonInterval } from "@runlens/stats/wilson.ts";

/** Full-set counts from /work/shared/notes/benchmarks.md, "Subsets inside tasks". */
const NOTES_COUNTS: Record<string, Record<string, Record<string, number>>> = {
  web_of_lies: { variant: { livebench: 40, cyclic: 160 } },
  geometric_shapes: {
    intersect_breaks: {
      "no_intersect/few_breaks": 50,
      "no_intersect/many_breaks": 50,
      "intersect/few_breaks": 50,
      "intersect/many_breaks": 50,
    },
  },
  spatial_reasoning: {
    direction: { forward: 148, backward: 52 },
    shape: { circular: 20, hexagonal: 25, rhombus: 22, triangular: 52, diamond: 52, tree: 29 },
  },
  zebra_puzzles: { size: { "5x5": 40, "6x6": 36, "7x7": 74, "8x8": 50 } },
  causal_understanding: { variant: { causal_judgement: 142, necessary: 30, sufficient: 28 } },
  object_counting: { variant: { sum: 97, absolute_difference: 103 } },
  object_properties: { variant: { either: 100, neither: 100 } },
  word_sorting: { variant: { mistake_finding: 100, new_alphabet_sorting: 100 } },
  shuffled_objects: { variant: { no_op_switches: 103, named_actions: 97 } },
  buggy_tables: {
    bug: {
      null_values_dropped: 43,
      error_values: 41,
      merged_rows: 31,
      rows_rotated: 26,
      columns_rotated: 20,
      random_values_appended_to_columns: 20,
      random_values_appended_to_rows: 19,
    },
    format: { markdown: 118, row_major: 44, column_major: 38 },
  },
  time_arithmetic: { answer_kind: { unanswerable: 45, list: 78, other: 77 } },
};

/** Sort the label keys so that comparisons ignore order. */
function sorted(c: Record<string, Record<string, Record<string, number>>>) {
  return Object.fromEntries(
    Object.entries(c).sort().map(([t, kinds]) => [
      t,
      Object.fromEntries(
        Object.entries(kinds).sort().map(([k, l]) => [
          k,
          Object.fromEntries(
            Object.entries(l).sort(),
          ),
        ]),
      ),
    ]),
  );
}

function ofTask(df: pl.DataFrame, task: string, kind?: string): pl.DataFrame {
  let out = df.filter(pl.col("task").eq(pl.lit(task)));
  if (kind) out = out.filter(pl.col("subset_kind").eq(pl.lit(kind)));
  return out.sort("example_index");
}

function indicesOf(df: pl.DataFrame, label: string): number[] {
  return df.filter(pl.col("subset").eq(pl.lit(label))).getColumn("example_index")
    .toArray() as number[];
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

dataTest("full-set subset counts equal the notes' counts", (dir) => {
  const subsets = bbehSubsets(loadBbehDataset(dir));
  assert.deepEqual(sorted(countSubsets(subsets)), sorted(NOTES_COUNTS));
});

dataTest("one label per example and kind, for every example of the task", (dir) => {
  const ds = loadBbehDataset(dir);
  const subsets = bbehSubsets(ds);
  assert.deepEqual(subsets.columns, ["task", "example_index", "subset_kind", "subset"]);
  assert.equal(subsets.getColumn("subset").nullCount(), 0);
  const perKind = subsets.groupBy(["task", "subset_kind"]).agg(
    pl.len().alias("rows"),
    pl.col("example_index").nUnique().alias("distinct"),
  );
  for (const r of perKind.toRecords()) {
    const size = ofTask(ds, String(r.task)).height;
    assert.equal(Number(r.rows), size, `${r.task}/${r.subset_kind}`);
    assert.equal(Number(r.distinct), size, `${r.task}/${r.subset_kind}`);
  }
  // 11 tasks, 13 kinds: spatial and buggy_tables have two kinds each
  assert.equal(perKind.height, 13);
  assert.equal(subsets.height, 13 * 200);
  assert.equal(ofTask(subsets, "boardgame_qa").height, 0);
});

dataTest("position facts of the notes and the paper", (dir) => {
  const ds = loadBbehDataset(dir);
  const subsets = bbehSubsets(ds);
  const causal = ofTask(subsets, "causal_understanding");
  assert.deepEqual(indicesOf(causal, "causal_judgement"), range(0, 142));
  const props = ofTask(subsets, "object_properties");
  assert.ok(indicesOf(props, "either").every((i) => i % 2 === 0), "either at even indices");
  assert.ok(indicesOf(props, "neither").every((i) => i % 2 === 1), "neither at odd indices");
  const geo = ofTask(subsets, "geometric_shapes");
  assert.deepEqual(indicesOf(geo, "no_intersect/few_breaks"), range(0, 50));
  assert.deepEqual(indicesOf(geo, "intersect/many_breaks"), range(150, 200));
  // the 29 items the release marks `subtask: "tree/cousin"` are exactly the tree shapes
  const tree = indicesOf(ofTask(subsets, "spatial_reasoning", "shape"), "tree");
  const marked = ofTask(ds, "spatial_reasoning")
    .filter(pl.col("release_subtask").eq(pl.lit("tree/cousin")))
    .getColumn("example_index").toArray() as number[];
  assert.deepEqual(tree, marked);
  // backward items exist only for the triangular and diamond maps (26 each)
  const back = indicesOf(ofTask(subsets, "spatial_reasoning", "direction"), "backward");
  const shapes = ofTask(subsets, "spatial_reasoning", "shape");
  const backShapes = shapes.filter(pl.col("example_index").isIn(back));
  assert.deepEqual(countSubsets(backShapes).spatial_reasoning.shape, {
    circular: 0,
    hexagonal: 0,
    rhombus: 0,
    triangular: 26,
    diamond: 26,
    tree: 0,
  });
});

dataTest("BBEH Mini: labels sum to 20 per task and kind; stride-derived counts", (dir) => {
  const ds = loadBbehDataset(dir);
  const subsets = bbehSubsets(ds);
  // Mini by the stride rule, computed here rather than from `in_mini`
  const stride = subsets.filter(pl.col("example_index").modulo(10).eq(9));
  const mini = countSubsets(stride);
  for (const [task, kinds] of Object.entries(mini)) {
    for (const [kind, labels] of Object.entries(kinds)) {
      const total = Object.values(labels).reduce((a, b) => a + b, 0);
      assert.equal(total, 20, `${task}/${kind}`);
    }
  }
  const viaFlag = subsets.join(
    ds.filter(pl.col("in_mini")).select("task", "example_index"),
    { on: ["task", "example_index"] },
  );
  assert.deepEqual(countSubsets(viaFlag), mini);
  // facts that follow from positions alone: notes ("all 20 Mini object_properties items are the
  // neither type": the odd indices), causal judgement = indices 0–141, geometric blocks of 50
  assert.deepEqual(mini.object_properties.variant, { either: 0, neither: 20 });
  assert.deepEqual(mini.causal_understanding.variant.causal_judgement, 14);
  assert.deepEqual(Object.values(mini.geometric_shapes.intersect_breaks), [5, 5, 5, 5]);
  // the rest, as found (see the report); pinned to catch silent rule changes
  assert.deepEqual(mini.web_of_lies.variant, { livebench: 5, cyclic: 15 });
  assert.deepEqual(mini.spatial_reasoning.direction, { backward: 5, forward: 15 });
  assert.deepEqual(mini.zebra_puzzles.size, { "5x5": 5, "6x6": 4, "7x7": 6, "8x8": 5 });
  assert.deepEqual(mini.time_arithmetic.answer_kind, { unanswerable: 7, list: 8, other: 5 });
});

dataTest("geometric check of the SVG agrees with the file-order blocks", (dir) => {
  const ds = loadBbehDataset(dir);
  const geo = ofTask(bbehSubsets(ds), "geometric_shapes");
  const inputs = ofTask(ds, "geometric_shapes").getColumn("input").toArray() as string[];
  const byPosition = geo.getColumn("subset").toArray() as string[];
  const checks = inputs.map(geometricShapesCheck);
  const intersectAgrees = checks.filter((c, i) =>
    c.intersect === byPosition[i].startsWith("intersect")
  ).length;
  const agrees = checks.filter((c, i) => geometricShapesLabel(c) === byPosition[i]).length;
  assert.equal(intersectAgrees, 200);
  assert.ok(agrees >= 197, `agreement ${agrees}/200`);
  assert.equal(agrees, 198);
});

Deno.test("geometric check on hand-made paths", () => {
  const path = (d: string) => `Suppose we draw this SVG path element: ${d} . Out of the following`;
  // a unit square with its bottom side drawn in two pieces: 1 break point of 5 segments
  const square = geometricShapesCheck(path("M 0,0 L 0.5,0 L 1,0 L 1,1 L 0,1 L 0,0"));
  assert.deepEqual(square, {
    segments: 5,
    breakPoints: 1,
    crossings: 0,
    intersect: false,
    manyBreaks: false,
  });
  // an X: the diagonals cross inside both; a T touching at an endpoint is no crossing
  assert.equal(geometricShapesCheck(path("M 0,0 L 2,2 M 0,2 L 2,0")).crossings, 1);
  assert.equal(geometricShapesCheck(path("M 0,0 L 2,0 M 1,0 L 1,2")).crossings, 0);
  // every side in two pieces: 4 break points of 8 segments → many breaks
  const broken = geometricShapesCheck(
    path("M 0,0 L 1,0 L 2,0 L 2,1 L 2,2 L 1,2 L 0,2 L 0,1 L 0,0"),
  );
  assert.equal(broken.breakPoints, 4);
  assert.equal(geometricShapesLabel(broken), "no_intersect/many_breaks");
  assert.throws(() => geometricShapesCheck("no path here"), /SVG path/);
});

function toyDataset(items: [string, number, string, string][]): pl.DataFrame {
  return pl.DataFrame({
    task: items.map((x) => x[0]),
    example_index: pl.Series("example_index", items.map((x) => x[1]), pl.Int32),
    input: items.map((x) => x[2]),
    target: items.map((x) => x[3]),
  });
}

Deno.test("bbehSubsets rejects examples with no label or several labels", () => {
  const ok = bbehSubsets(toyDataset([
    ["web_of_lies", 0, "Liam is at the zoo. Does he lie?", "no"],
    ["web_of_lies", 1, "Ann says Bo lies. Answer yes, no or unknown.", "unknown"],
    ["time_arithmetic", 0, "…", "[a, b]"],
    ["boardgame_qa", 0, "…", "proved"],
  ]));
  assert.deepEqual(ok.getColumn("subset").toArray(), ["list", "livebench", "cyclic"]);
  assert.throws(
    () => bbehSubsets(toyDataset([["web_of_lies", 3, "Ann says Bo lies.", "no"]])),
    /web_of_lies\/variant: 1 example\(s\) match no label \(indices 3\)/,
  );
  assert.throws(
    () => bbehSubsets(toyDataset([["web_of_lies", 4, "Liam is at the zoo; unknown", "no"]])),
    /match several labels \(indices 4\)/,
  );
  assert.throws(
    () => bbehSubsets(toyDataset([["geometric_shapes", 200, "…", "(A)"]])),
    /geometric_shapes\/intersect_breaks: 1 example\(s\) match no label/,
  );
});

Deno.test("withSubsets joins labels; subsetAccuracy gives n, correct, accuracy and Wilson CI", () => {
  const subsets = pl.DataFrame({
    task: ["spatial_reasoning", "spatial_reasoning", "spatial_reasoning", "spatial_reasoning"],
    example_index: pl.Series("example_index", [0, 0, 1, 1], pl.Int32),
    subset_kind: ["direction", "shape", "direction", "shape"],
    subset: ["forward", "circular", "backward", "diamond"],
  });
  const rows = pl.DataFrame({
    run: ["r1", "r1", "r1", "r2", "r1"],
    model: ["m", "m", "m", "m", "m"],
    benchmark: ["bbeh", "bbeh", "bbeh", "bbeh", "bbh"],
    task: [
      "spatial_reasoning",
      "spatial_reasoning",
      "boardgame_qa",
      "spatial_reasoning",
      "spatial_reasoning",
    ],
    example_index: pl.Series("example_index", [0, 1, 0, 1, 0], pl.Int32),
    subset: pl.Series("subset", [null, null, null, null, null], pl.Utf8),
    correct: [true, false, true, true, true],
  });
  const byDirection = withSubsets(rows, subsets, "direction");
  assert.deepEqual(byDirection.columns, [...rows.columns, "subset_kind"]);
  assert.equal(byDirection.height, rows.height);
  assert.deepEqual(byDirection.getColumn("subset").toArray(), [
    "forward",
    "backward",
    null,
    "backward",
    null, // a BBH row of the same task name gets no BBEH label
  ]);
  assert.equal(withSubsets(rows, subsets).height, 2 * 3 + 2);
  assert.throws(() => withSubsets(rows, subsets, "colour"), /no subsets of kind "colour"/);

  const acc = subsetAccuracy(withSubsets(rows, subsets));
  assert.deepEqual(acc.columns, [
    "run",
    "model",
    "task",
    "subset_kind",
    "subset",
    "n",
    "correct",
    "accuracy",
    "ci_low",
    "ci_high",
  ]);
  const recs = acc.toRecords();
  assert.deepEqual(recs.map((r) => [r.run, r.subset_kind, r.subset, r.n, r.correct]), [
    ["r1", "direction", "backward", 1, 0],
    ["r1", "direction", "forward", 1, 1],
    ["r1", "shape", "circular", 1, 1],
    ["r1", "shape", "diamond", 1, 0],
    ["r2", "direction", "backward", 1, 1],
    ["r2", "shape", "diamond", 1, 1],
  ]);
  const first = recs[0];
  assert.equal(first.accuracy, 0);
  assert.equal(first.ci_low, wilsonInterval(0, 1)!.low);
  assert.equal(first.ci_high, wilsonInterval(0, 1)!.high);
});

Deno.test("subsetAccuracy pools rows without run columns and skips unscored rows", () => {
  const scored = pl.DataFrame({
    task: ["web_of_lies", "web_of_lies", "web_of_lies", "web_of_lies"],
    subset_kind: ["variant", "variant", "variant", null],
    subset: ["cyclic", "cyclic", "cyclic", null],
    correct: pl.Series("correct", [true, false, null, true], pl.Bool),
  });
  const acc = subsetAccuracy(scored).toRecords();
  assert.equal(acc.length, 1);
  assert.equal(acc[0].n, 2);
  assert.equal(acc[0].correct, 1);
  assert.equal(acc[0].accuracy, 50);
  assert.equal(acc[0].ci_low, wilsonInterval(1, 2)!.low);
});

dataTest(
  "runlens subsets --json prints {task: {kind: {label: n}}} in the envelope",
  async (dir) => {
    const logged: string[] = [];
    const original = console.log;
    console.log = (...args: unknown[]) => logged.push(args.join(" "));
    try {
      assert.equal(await runlensMain(["subsets", "--data", dir, "--json"]), 0);
    } finally {
      console.log = original;
    }
    const report = JSON.parse(logged.join("\n"));
    assert.equal(report.command, "subsets");
    assert.deepEqual(sorted(report.subsets), sorted(NOTES_COUNTS));
  },
);

Deno.test("runlens subsets reports a missing data directory", async () => {
  const errors: string[] = [];
  const original = console.error;
  console.error = (...args: unknown[]) => errors.push(args.join(" "));
  try {
    assert.equal(await runlensMain(["subsets", "--data", "/nonexistent/runlens-data"]), 1);
  } finally {
    console.error = original;
  }
  assert.match(errors.join("\n"), /does not exist/);
});
