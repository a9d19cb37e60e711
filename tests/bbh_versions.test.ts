/**
 * The lm-eval version of three BBH items (`lib/benchmarks/bbh/versions.ts`) against the GitHub
 * release: the same question stem, the release's split options joined back into the version's
 * whole options, the release's target as the text of the version's letter; and every other
 * item of the release untouched (the version lists exactly the known defects).
 * @module
 */
import assert from "node:assert/strict";
import { BBH_KNOWN_ISSUES } from "@runlens/benchmarks/bbh/tasks.ts";
import { BBH_DATA_VERSIONS, LM_EVAL_BBH } from "@runlens/benchmarks/bbh/versions.ts";
import { dataTest } from "./_data.ts";
import { readBbhExamples } from "./_examples.ts";

/** The stem (text before "\nOptions:\n") and the options `(X) text` of a multiple-choice input. */
function parse(input: string): { stem: string; options: [string, string][] } {
  const [stem, rest] = input.split("\nOptions:\n");
  const options = rest.split("\n").map((line) => {
    const m = /^\(([A-Z])\) (.*)$/.exec(line);
    assert.ok(m, line);
    return [m[1], m[2]] as [string, string];
  });
  return { stem, options };
}

Deno.test("the lm-eval version lists the three items the release splits, with letters A, B, …", () => {
  assert.deepEqual(BBH_DATA_VERSIONS, [LM_EVAL_BBH]);
  assert.equal(LM_EVAL_BBH.name, "lm-eval");
  assert.match(
    LM_EVAL_BBH.source,
    /lm-evaluation-harness.*66421b57e5b7eb404a1dd00301c4dc620b16b67a/,
  );
  assert.deepEqual(
    LM_EVAL_BBH.items.map((x) => [x.task, x.index]),
    BBH_KNOWN_ISSUES.filter((k) => !k.truncatedInput).map((k) => [k.task, k.index]),
  );
  for (const item of LM_EVAL_BBH.items) {
    const { options } = parse(item.input);
    assert.deepEqual(options.map((o) => o[0]), ["A", "B", "C", "D"]);
    assert.match(item.target, /^\([A-D]\)$/);
  }
});

dataTest("each lm-eval item is the release's item with its split options joined back", (dir) => {
  const release = readBbhExamples(dir);
  for (const item of LM_EVAL_BBH.items) {
    const ex = release[item.task][item.index];
    assert.notEqual(ex.input, item.input);
    const r = parse(ex.input);
    const v = parse(item.input);
    assert.equal(v.stem, r.stem);
    assert.ok(r.options.length > v.options.length, `${item.task} ${item.index}`);
    // the release split each option at its commas: joining every piece gives the same text
    assert.equal(
      r.options.map((o) => o[1]).join(", "),
      v.options.map((o) => o[1]).join(", "),
    );
    // the release's target is the text of the option the version's letter names
    const letter = item.target.slice(1, 2);
    assert.equal(v.options.find((o) => o[0] === letter)![1], ex.target);
  }
});
