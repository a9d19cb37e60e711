/**
 * Short run labels (issue 24, item 4): run names as the log writers make them (lm-eval output
 * folders, inspect log names, experiment folders) get short, unique, deterministic labels and a
 * legend back to every name that was shortened.
 * @module
 */
import assert from "node:assert/strict";
import { legendText, shortRunLabels } from "@runlens/render/run_labels.ts";

const LM_EVAL = [
  "meta-llama__Llama-3.2-3B-Instruct_2026-01-08T17-20-31.984236",
  "Qwen__Qwen2.5-7B-Instruct_2026-01-09T09-02-11.120345",
  "mistralai__Mistral-7B-Instruct-v0.3_2026-01-09T11-45-03.000017",
];

Deno.test("lm-eval run names lose their stamp and organisation, and keep a legend", () => {
  const { label, legend } = shortRunLabels(LM_EVAL);
  assert.deepEqual(LM_EVAL.map(label), [
    "Llama-3.2-3B-Instruct",
    "Qwen2.5-7B-Instruct",
    "Mistral-7B-Instruct-v0.3",
  ]);
  assert.deepEqual(legend.map((l) => l.run), LM_EVAL);
  assert.equal(
    legendText(legend.slice(0, 1)),
    "Llama-3.2-3B-Instruct = meta-llama__Llama-3.2-3B-Instruct_2026-01-08T17-20-31.984236",
  );
});

Deno.test("one model run twice is numbered in the given order; names that fit stay", () => {
  const twice = [LM_EVAL[0], "meta-llama__Llama-3.2-3B-Instruct_2026-01-10T08-00-00.500000"];
  const { label } = shortRunLabels([...twice, LM_EVAL[1]], { maxChars: 30 });
  assert.deepEqual([...twice, LM_EVAL[1]].map(label), [
    "Llama-3.2-3B-Instruct #1",
    "Llama-3.2-3B-Instruct #2",
    "Qwen2.5-7B-Instruct",
  ]);
  const plain = ["gpt-4o", "o3-mini (high)", "code-davinci-002-cot"];
  assert.deepEqual(plain.map(shortRunLabels(plain).label), plain);
  assert.deepEqual(shortRunLabels(plain).legend, []);
});

Deno.test("inspect stamps at the start and experiment folders keep what tells runs apart", () => {
  const inspect = [
    "2024-05-29T12-38-43+00-00_bbh_date-understanding_gpt-4o-mini",
    "2024-05-30T08-01-02+00-00_bbh_date-understanding_claude-3-haiku",
  ];
  assert.deepEqual(inspect.map(shortRunLabels(inspect, { maxChars: 40 }).label), [
    "bbh_date-understanding_gpt-4o-mini",
    "bbh_date-understanding_claude-3-haiku",
  ]);
  const folders = [
    "experiments/2026-01/greedy/meta-llama__Llama-3.2-3B-Instruct",
    "experiments/2026-01/sampled/meta-llama__Llama-3.2-3B-Instruct",
  ];
  assert.deepEqual(folders.map(shortRunLabels(folders, { maxChars: 30 }).label), [
    "greedy/Llama-3.2-3B-Instruct",
    "sampled/Llama-3.2-3B-Instruct",
  ]);
  // at 24 characters the middle goes: 12 characters, "…", the last 11
  assert.deepEqual(folders.map(shortRunLabels(folders).label), [
    "greedy/Llama…3B-Instruct",
    "sampled/Llam…3B-Instruct",
  ]);
});

Deno.test("labels are unique, within the limit, and the same for the same names", () => {
  // names built to collide after each step: same model, same stamp prefix, long tails
  let seed = 7;
  const rand = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
  const names = Array.from({ length: 40 }, () => {
    const org = ["meta-llama", "Qwen", "google"][rand(3)];
    const model = ["Llama-3.2-3B-Instruct", "Qwen2.5-72B-Instruct-Turbo-Long", "gemma-2-9b-it"][
      rand(3)
    ];
    return `${org}__${model}_2026-01-${10 + rand(20)}T${10 + rand(10)}-00-00.${rand(999999)}`;
  });
  for (const maxChars of [6, 12, 24, 60]) {
    const a = shortRunLabels(names, { maxChars }), b = shortRunLabels([...names], { maxChars });
    const labels = [...new Set(names)].map(a.label);
    assert.equal(new Set(labels).size, labels.length, `maxChars ${maxChars}: labels repeat`);
    for (const l of labels) assert.ok([...l].length <= maxChars, `${l} > ${maxChars}`);
    assert.deepEqual(labels, [...new Set(names)].map(b.label));
    assert.deepEqual(
      a.legend.map((l) => l.run),
      [...new Set(names)].filter((n) => a.label(n) !== n),
    );
  }
});

Deno.test("a fits predicate (a measured width) decides too", () => {
  const { label } = shortRunLabels(LM_EVAL, { maxChars: 100, fits: (l) => l.length <= 20 });
  // 20 characters: the first 10, "…", the last 9
  assert.deepEqual(LM_EVAL.map(label), [
    "Llama-3.2-…-Instruct",
    "Qwen2.5-7B-Instruct",
    "Mistral-7B…ruct-v0.3",
  ]);
});
