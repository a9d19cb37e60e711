/**
 * Tests for the BBEH release loader (lib/benchmarks/bbeh/dataset.ts) against the real release in the
 * shared data directory, checked against facts from the project notes (benchmarks.md) rather
 * than against the loader's own logic: sizes, Mini membership, and the index lists of the
 * known bad linguini/spatial items. Error paths use temporary directories (a missing folder, an
 * empty one, an incomplete release, and a copy of the real release with one file altered).
 *
 * @module
 */
import assert from "node:assert/strict";
import { cpSync } from "node:fs";
import { join } from "node:path";
import { findBbehRelease, loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
import { BBEH_TASKS, inMiniByStride } from "@runlens/benchmarks/bbeh/tasks.ts";
import { dataTest } from "./_data.ts";
import { withTempDir } from "./_tmp.ts";

/** From the notes ("Known data problems"). */
const LINGUINI_AMBIGUOUS = [41, 121, 139, 146, 157, 159, 185];
const LINGUINI_UNMATCHABLE = [2, 11, 36, 71, 78, 87, 100, 148, 155, 168, 172];
const SPATIAL_REPEAT = { first: 65, repeat: 71 };

interface Row {
  task: string;
  example_index: number;
  input: string;
  target: string;
  input_chars: number;
  in_mini: boolean;
  release_subtask: string | null;
  ambiguous_duplicate: boolean;
  repeated_example: boolean;
  unmatchable_target: boolean;
}

function rows(dataDir: string): Row[] {
  return loadBbehDataset(dataDir).toRecords() as unknown as Row[];
}

/** `task[index]` labels of the rows where `flag` holds, sorted by task then index. */
function flagged(all: Row[], flag: (r: Row) => boolean): string[] {
  return all.filter(flag).map((r) => `${r.task}[${r.example_index}]`);
}

const at = (task: string, indices: number[]) => indices.map((i) => `${task}[${i}]`);

/** The Mini rule of the notes: index ≡ 9 (mod 10); disambiguation_qa ≡ 5 (mod 6). */
const notesStride = (task: string, i: number) =>
  task === "disambiguation_qa" ? i % 6 === 5 : i % 10 === 9;

function throwsMatching(fn: () => unknown, pattern: RegExp, what: string): void {
  assert.throws(fn, (e: unknown) => {
    assert.ok(e instanceof Error, `${what}: not an Error`);
    assert.match(e.message, pattern, `${what}: unexpected message`);
    return true;
  }, `${what}: no error`);
}

dataTest("BBEH: 4520 rows, the documented columns, per-task sizes and positions", (dir) => {
  const df = loadBbehDataset(dir);
  assert.equal(df.height, 4520);
  assert.deepEqual(df.columns, [
    "task",
    "example_index",
    "input",
    "target",
    "input_chars",
    "in_mini",
    "release_subtask",
    "ambiguous_duplicate",
    "repeated_example",
    "unmatchable_target",
  ]);
  const all = rows(dir);
  const counts = new Map<string, number>();
  for (const r of all) counts.set(r.task, (counts.get(r.task) ?? 0) + 1);
  assert.deepEqual(
    [...counts.entries()],
    BBEH_TASKS.map((t) => [t.name, t.size]),
    "per-task counts, in table order",
  );
  assert.equal(counts.size, 23);
  assert.equal(counts.get("disambiguation_qa"), 120);
  // example_index is the 0-based position in each task file.
  let k = 0;
  for (const t of BBEH_TASKS) {
    for (let i = 0; i < t.size; i++, k++) {
      assert.equal(all[k].task, t.name);
      assert.equal(all[k].example_index, i);
    }
  }
  assert.equal(new Set(all.map((r) => r.input)).size, 4513, "distinct inputs");
});

dataTest("BBEH: input_chars are code points (notes' min/max per task)", (dir) => {
  const all = rows(dir);
  const chars = (task: string) => all.filter((r) => r.task === task).map((r) => r.input_chars);
  const shuffled = chars("shuffled_objects");
  assert.equal(Math.min(...shuffled), 10132);
  assert.equal(Math.max(...shuffled), 17042);
  assert.equal(Math.max(...chars("spatial_reasoning")), 32064);
  for (const r of all.slice(0, 50)) assert.equal(r.input_chars, [...r.input].length);
});

dataTest(
  "BBEH Mini: 460 rows, stride rule of the notes, same examples as mini/data.json",
  (dir) => {
    const all = rows(dir);
    assert.equal(all.filter((r) => r.in_mini).length, 460);
    for (const r of all) {
      const expected = notesStride(r.task, r.example_index);
      assert.equal(r.in_mini, expected, `${r.task}[${r.example_index}] in_mini`);
      assert.equal(inMiniByStride(r.task, r.example_index), expected);
    }
    for (const t of BBEH_TASKS) {
      assert.equal(all.filter((r) => r.task === t.name && r.in_mini).length, 20, t.name);
    }
    // Independently of the loader: the multiset of (input, target) in mini/data.json.
    const release = findBbehRelease(dir);
    const mini = JSON.parse(Deno.readTextFileSync(join(release, "mini", "data.json"))).examples as {
      input: string;
      target: string;
    }[];
    const key = (x: { input: string; target: string }) => JSON.stringify([x.input, x.target]);
    const tally = (xs: string[]) => {
      const m = new Map<string, number>();
      for (const x of xs) m.set(x, (m.get(x) ?? 0) + 1);
      return m;
    };
    assert.deepEqual(
      tally(mini.map(key)),
      tally(all.filter((r) => r.in_mini).map(key)),
      "mini/data.json holds exactly the stride rows",
    );
  },
);

dataTest("BBEH: the 7 ambiguous linguini duplicates of the notes", (dir) => {
  const all = rows(dir);
  assert.deepEqual(flagged(all, (r) => r.ambiguous_duplicate), at("linguini", LINGUINI_AMBIGUOUS));
  const group = all.filter((r) =>
    r.task === "linguini" && LINGUINI_AMBIGUOUS.includes(r.example_index)
  );
  assert.equal(new Set(group.map((r) => r.input)).size, 1, "one shared input");
  assert.equal(new Set(group.map((r) => r.target)).size, 7, "seven different targets");
  assert.deepEqual(group.filter((r) => r.in_mini).map((r) => r.example_index), [139, 159]);
});

dataTest("BBEH: spatial_reasoning 71 repeats 65", (dir) => {
  const all = rows(dir);
  assert.deepEqual(
    flagged(all, (r) => r.repeated_example),
    at("spatial_reasoning", [SPATIAL_REPEAT.repeat]),
  );
  const spatial = all.filter((r) => r.task === "spatial_reasoning");
  const [a, b] = [spatial[SPATIAL_REPEAT.first], spatial[SPATIAL_REPEAT.repeat]];
  assert.equal(a.input, b.input);
  assert.equal(a.target, b.target);
  assert.equal(a.repeated_example, false, "the first occurrence is not flagged");
});

dataTest("BBEH: the 11 unmatchable linguini targets of the notes", (dir) => {
  const all = rows(dir);
  assert.deepEqual(
    flagged(all, (r) => r.unmatchable_target),
    at("linguini", LINGUINI_UNMATCHABLE),
  );
  // Independent of the scorer: exactly these linguini targets end with ".".
  const dotted = all.filter((r) => r.task === "linguini" && r.target.trim().endsWith("."));
  assert.deepEqual(dotted.map((r) => r.example_index), LINGUINI_UNMATCHABLE);
  assert.ok(dotted.every((r) => !r.in_mini), "none is in Mini");
});

dataTest("BBEH: release_subtask is set on the 29 spatial tree/cousin items only", (dir) => {
  const all = rows(dir);
  const tagged = all.filter((r) => r.release_subtask !== null);
  assert.equal(tagged.length, 29);
  assert.ok(
    tagged.every((r) => r.task === "spatial_reasoning" && r.release_subtask === "tree/cousin"),
  );
});

dataTest("findBbehRelease accepts the data root, bbeh/ and bbeh/bbeh/", (dir) => {
  const release = join(dir, "bbeh", "bbeh");
  assert.equal(findBbehRelease(dir), release);
  assert.equal(findBbehRelease(join(dir, "bbeh")), release);
  assert.equal(findBbehRelease(release), release);
});

Deno.test("loader errors: missing directory, not a release, incomplete release", () => {
  withTempDir((tmp) => {
    const missing = join(tmp, "no-such-dir");
    throwsMatching(() => findBbehRelease(missing), /no-such-dir does not exist; run /, "missing");
    throwsMatching(() => loadBbehDataset(missing), /does not exist/, "missing (load)");
    throwsMatching(
      () => loadBbehDataset(tmp),
      /is not a BBEH release: expected bbeh\/bbeh\//,
      "empty",
    );
    Deno.mkdirSync(join(tmp, "bbeh", "bbeh", "benchmark_tasks"), { recursive: true });
    throwsMatching(
      () => loadBbehDataset(tmp),
      /BBEH release incomplete: .*bbeh_boardgame_qa\/task\.json is missing/,
      "no task files",
    );
  });
});

dataTest("loader errors on a corrupted copy of the release (temp dir)", (dir) => {
  withTempDir((tmp) => {
    const release = join(tmp, "bbeh", "bbeh");
    cpSync(findBbehRelease(dir), release, { recursive: true });
    const miniPath = join(release, "mini", "data.json");
    const miniText = Deno.readTextFileSync(miniPath);
    const mini = JSON.parse(miniText);
    const editMini = (edit: (examples: { input: string; target: string }[]) => void) => {
      const copy = structuredClone(mini);
      edit(copy.examples);
      Deno.writeTextFileSync(miniPath, JSON.stringify(copy));
    };
    const taskPath = join(release, "benchmark_tasks", "bbeh_nycc", "task.json");
    const taskText = Deno.readTextFileSync(taskPath);
    const task = JSON.parse(taskText);
    const load = () => loadBbehDataset(tmp);

    // A Mini example whose target no longer matches its full-set example.
    editMini((ex) => ex[3].target += " (altered)");
    throwsMatching(
      load,
      /mini\/data\.json: example 3 should be exactly one full-set example .*found none/,
      "altered mini target",
    );
    // A Mini example replaced by a full-set example that is not at a stride position.
    editMini((ex) => ex[0] = { input: task.examples[0].input, target: task.examples[0].target });
    throwsMatching(load, /example 0 should be .*found nycc\[0\]/, "non-stride example in mini");
    // One Mini example missing.
    editMini((ex) => ex.pop());
    throwsMatching(
      load,
      /459 examples matching 459 distinct stride positions; expected 460/,
      "459 in mini",
    );
    // One Mini example twice (460 entries, 459 positions).
    editMini((ex) => ex[1] = ex[0]);
    throwsMatching(
      load,
      /460 examples matching 459 distinct stride positions/,
      "duplicate in mini",
    );
    Deno.writeTextFileSync(miniPath, miniText);

    // Task files: wrong size, invalid JSON, an example without a target.
    Deno.writeTextFileSync(taskPath, JSON.stringify({ ...task, examples: task.examples.slice(1) }));
    throwsMatching(load, /bbeh_nycc\/task\.json: 199 examples, the release has 200/, "short task");
    Deno.writeTextFileSync(taskPath, taskText.slice(0, 1000));
    throwsMatching(load, /bbeh_nycc\/task\.json: not valid JSON/, "truncated JSON");
    const noTarget = structuredClone(task);
    delete noTarget.examples[5].target;
    Deno.writeTextFileSync(taskPath, JSON.stringify(noTarget));
    throwsMatching(load, /example 5 lacks a string "input" or "target"/, "missing target");
    Deno.writeTextFileSync(taskPath, taskText);

    // Restored: the copy loads like the original.
    assert.equal(load().height, 4520);
  });
});

dataTest("BBEH: the frame derived from readExamples equals the task files' content", (dir) => {
  // built here straight from the JSON files, not through the code under test
  const release = findBbehRelease(dir);
  const rows = BBEH_TASKS.flatMap((t) => {
    const file = join(release, "benchmark_tasks", `bbeh_${t.name}`, "task.json");
    const { examples } = JSON.parse(Deno.readTextFileSync(file));
    return examples.map((ex: { input: string; target: string; subtask?: string }, i: number) => ({
      task: t.name,
      example_index: i,
      input: ex.input,
      target: ex.target,
      input_chars: [...ex.input].length,
      release_subtask: ex.subtask ?? null,
    }));
  });
  const columns = Object.keys(rows[0]);
  assert.deepEqual(loadBbehDataset(dir).select(...columns).toRecords(), rows);
});
