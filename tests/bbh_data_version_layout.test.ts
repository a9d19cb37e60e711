/**
 * lm-eval's own copy of the three BBH items its repair code rewrites (`bbh/versions.ts`): the
 * copy lm-eval reads at run time lays them out otherwise than the repair strings — the question
 * on one line (`… Aladdin: Options: (A) Monsters Inc (B) …`), "Monsters Inc" without its comma,
 * "eareth, wind & fire" with one comma fewer. A whole lm-eval BBH run whose `doc.input`s have
 * that layout, generated here from the release and `versions.ts`, scores every row: 250 rows on
 * both tasks, `data_version` "lm-eval" on the three, the BBH micro given. A `doc` that matches
 * neither the release nor the repaired item (another word) stays quarantined.
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { LM_EVAL_BBH } from "@runlens/benchmarks/bbh/versions.ts";
import { BBH_SIZE } from "@runlens/benchmarks/bbh/tasks.ts";
import { loadRuns } from "@runlens/pipeline/load.ts";
import { dataTest } from "./_data.ts";
import { readBbhExamples } from "./_examples.ts";
import { withTempDir } from "./_tmp.ts";

const DATE = "2025-01-25T04-48-43.622918";

/** The repaired item as the copy lm-eval reads lays it out (see the module doc). */
function oneLine(input: string): string {
  return input.replaceAll("\n", " ")
    .replace("Monsters, Inc", "Monsters Inc")
    .replace("(A) eareth, wind, & fire", "(A) eareth, wind & fire");
}

/** One lm-eval `--log_samples` line; every third answer is wrong. */
function sample(i: number, input: string, target: string, wrong: string) {
  const answer = i % 3 === 0 ? wrong : target;
  return {
    doc_id: i,
    doc: { input, target },
    target,
    arguments: { gen_args_0: { arg_0: `Q: ${input}\nA: Let's think step by step.` } },
    resps: [[`Step by step. So the answer is ${answer}.`]],
    filtered_resps: [answer],
    filter: "get-answer",
    metrics: ["exact_match"],
    exact_match: answer === target ? 1 : 0,
  };
}

dataTest("an lm-eval BBH run whose doc lays the repaired items out on one line: all scored", async (
  data,
) => {
  const bbh = readBbhExamples(data);
  const repaired = new Map(LM_EVAL_BBH.items.map((x) => [`${x.task}/${x.index}`, x]));
  await withTempDir(async (dir) => {
    const folder = join(dir, "org__model");
    Deno.mkdirSync(folder);
    let correct = 0;
    for (const [task, examples] of Object.entries(bbh)) {
      const lines = examples.map((e, i) => {
        const item = repaired.get(`${task}/${i}`);
        const [input, target] = item ? [oneLine(item.input), item.target] : [e.input, e.target];
        if (i % 3 !== 0) correct++;
        return JSON.stringify(sample(i, input, target, target === "(Z)" ? "(Y)" : "(Z)"));
      });
      const path = join(folder, `samples_bbh_cot_fewshot_${task}_${DATE}.jsonl`);
      Deno.writeTextFileSync(path, lines.join("\n") + "\n");
    }
    // the layout really differs from the repair strings (else this test proves nothing)
    for (const item of LM_EVAL_BBH.items) assert.notEqual(oneLine(item.input), item.input);

    const loaded = await loadRuns([dir], data);
    assert.deepEqual(loaded.quarantine, []);
    assert.equal(loaded.runs.length, 1);
    const [run] = loaded.runs;
    assert.deepEqual([run.rows_in, run.rows_scored], [BBH_SIZE, BBH_SIZE]);
    assert.equal(run.tasks.movie_recommendation.n, 250);
    assert.equal(run.tasks.ruin_names.n, 250);
    assert.deepEqual(run.data_versions, { "lm-eval": 3 });
    assert.equal(run.aggregate.coverage, "full");
    assert.equal(run.aggregate.micro, correct / BBH_SIZE * 100);
    const flagged = loaded.rows.filter(loaded.rows.getColumn("data_version").isNotNull())
      .select("task", "example_index").toRecords().map((r) => `${r.task}/${r.example_index}`);
    assert.deepEqual(flagged.sort(), [...repaired.keys()].sort());
  });
});

dataTest("a doc that matches neither the release nor the repaired item stays quarantined", async (
  data,
) => {
  await withTempDir(async (dir) => {
    const folder = join(dir, "org__model");
    Deno.mkdirSync(folder);
    const item = LM_EVAL_BBH.items[0];
    const other = oneLine(item.input).replace("Monsters Inc", "Monsters Ink");
    const lines = [
      sample(item.index, oneLine(item.input), item.target, "(B)"),
      { ...sample(item.index, other, item.target, "(B)"), doc_id: item.index },
    ];
    const path = join(folder, `samples_bbh_cot_fewshot_${item.task}_${DATE}.jsonl`);
    Deno.writeTextFileSync(path, lines.map((l) => JSON.stringify(l)).join("\n") + "\n");
    const loaded = await loadRuns([dir], data);
    assert.equal(loaded.runs[0].rows_scored, 1);
    assert.deepEqual(loaded.runs[0].data_versions, { "lm-eval": 1 });
    assert.deepEqual(loaded.quarantine.map((q) => [q.line, q.reason]), [
      [
        2,
        `target "(A)" differs from the data set's target "Monsters, Inc" for ` +
        `movie_recommendation[${item.index}]`,
      ],
    ]);
  });
});
