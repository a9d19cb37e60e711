/**
 * The BBH task catalog: names, sizes, formats, random baselines, BBEH successors; the
 * data-backed test checks every entry against the release files.
 * @module
 */
import assert from "node:assert/strict";
import pl from "nodejs-polars";
import { BBEH_TASK_NAMES } from "@runlens/benchmarks/bbeh/tasks.ts";
import { loadBbhDataset } from "@runlens/benchmarks/bbh/dataset.ts";
import {
  BBH_KNOWN_ISSUES,
  BBH_SIZE,
  BBH_TASK_NAMES,
  BBH_TASKS,
  bbhTask,
  canonicalBbhTask,
} from "@runlens/benchmarks/bbh/tasks.ts";
import { dataTest } from "./_data.ts";

Deno.test("BBH catalog: 27 tasks, 6,511 examples, the three short tasks", () => {
  assert.equal(BBH_TASKS.length, 27);
  assert.equal(new Set(BBH_TASK_NAMES).size, 27);
  assert.equal(BBH_SIZE, 6511);
  const short = BBH_TASKS.filter((t) => t.size !== 250).map((t) => [t.name, t.size]);
  assert.deepEqual(short, [["causal_judgement", 187], ["penguins_in_a_table", 146], [
    "snarks",
    178,
  ]]);
  assert.deepEqual([...BBH_TASK_NAMES].sort(), BBH_TASK_NAMES);
});

Deno.test("BBH catalog: formats, baselines with their source, BBEH successors", () => {
  const count = (f: string) => BBH_TASKS.filter((t) => t.format === f).length;
  assert.deepEqual(
    ["multiple_choice", "yes_no", "true_false", "valid_invalid", "numeric", "free_text"].map(count),
    [17, 4, 1, 1, 2, 2],
  );
  for (const t of BBH_TASKS) {
    assert.ok(BBEH_TASK_NAMES.includes(t.bbeh), t.name);
    assert.equal(t.random === null, t.randomSource === null, t.name);
    assert.equal(t.random === null, t.format === "numeric" || t.format === "free_text", t.name);
    assert.equal(t.answers !== null, t.random === 50 && t.format !== "multiple_choice", t.name);
  }
  assert.equal(bbhTask("sports_understanding").answers?.join(), "yes,no");
  assert.equal(bbhTask("geometric_shapes").random, 9.82);
  assert.equal(bbhTask("formal_fallacies").bbeh, "zebra_puzzles");
  assert.throws(() => bbhTask("navigation"), /unknown BBH task "navigation"; tasks are: boolean/);
});

Deno.test("BBH task labels as logs write them", () => {
  const table: [string, string | null][] = [
    ["navigate", "navigate"],
    ["bbh_cot_fewshot_navigate", "navigate"],
    ["bbh_cot_zeroshot_web_of_lies", "web_of_lies"],
    ["bbh_zeroshot_word_sorting", "word_sorting"],
    ["bbh_fewshot_snarks", "snarks"],
    ["leaderboard_bbh_date_understanding", "date_understanding"],
    ["bbh-temporal_sequences", "temporal_sequences"],
    [" snarks ", "snarks"],
    ["bbh_navigate_12", null],
    ["Navigate", null],
  ];
  for (const [label, want] of table) assert.equal(canonicalBbhTask(label), want, label);
});

dataTest("BBH catalog matches the release: sizes, target sets, option-count baselines", (dir) => {
  const ds = loadBbhDataset(dir);
  for (const t of BBH_TASKS) {
    const part = ds.filter(pl.col("task").eq(pl.lit(t.name)));
    assert.equal(part.height, t.size, t.name);
    const targets = part.getColumn("target").toArray() as string[];
    const inputs = part.getColumn("input").toArray() as string[];
    if (t.answers) assert.deepEqual([...new Set(targets)].sort(), [...t.answers].sort(), t.name);
    if (t.format === "multiple_choice") {
      const odd = targets.map((x, i) => /^\([A-R]\)$/.test(x) ? -1 : i).filter((i) => i >= 0);
      const known = BBH_KNOWN_ISSUES.filter((k) => k.task === t.name && k.issue.includes("target"));
      assert.deepEqual(odd, known.map((k) => k.index), t.name);
      const options = inputs.map((x) => (x.match(/^\([A-Z]\)/gm) ?? []).length);
      const uniform = options.reduce((s, n) => s + 1 / n, 0) / options.length * 100;
      if (t.name === "snarks") {
        // example 88 is truncated to one option; every other has two
        assert.deepEqual(options.map((n, i) => n === 2 ? -1 : i).filter((i) => i >= 0), [88]);
        assert.equal(t.random, 50);
      } else assert.equal(t.random, Math.round(uniform * 100) / 100, t.name);
    }
    if (t.format === "numeric") assert.ok(targets.every((x) => /^-?\d+$/.test(x)), t.name);
  }
  const issue = (task: string, i: number) =>
    ds.filter(pl.col("task").eq(pl.lit(task)).and(pl.col("example_index").eq(i))).row(0);
  assert.deepEqual(BBH_KNOWN_ISSUES.map((k) => [k.task, k.index]), [
    ["snarks", 88],
    ["movie_recommendation", 163],
    ["ruin_names", 99],
    ["ruin_names", 144],
  ]);
  assert.ok(String(issue("snarks", 88)[2]).endsWith("(A) The NB"));
  assert.equal(issue("movie_recommendation", 163)[3], "Monsters, Inc");
});
