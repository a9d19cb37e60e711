/**
 * Test helper: log rows generated from the BBH and BBEH data sets in every shape identification
 * meets (index with and without target and input, exact and embedded inputs, wrong targets,
 * other examples' and other tasks' inputs, out-of-range indices, task-label variants, unknown
 * tasks, shared inputs, repeats), reproducibly from a seed.
 *
 * @example Not run as a doc test (needs the data directory)
 * ```ts ignore
 * const rows = generatedRows(scoredBenchmarks(TEST_DATA_DIR), 2000, 1);
 * ```
 * @module
 */
import type { BenchmarkScoring, ExampleSet } from "@runlens/benchmarks/types.ts";

/** A small deterministic PRNG (mulberry32). */
export function rng(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Prompt shapes that embed a question at their end. */
export const TEMPLATES: readonly ((q: string) => string)[] = [
  (q) =>
    `Q: What is 1 + 1?\nA: Let's think step by step. So the answer is 2.\n\nQ: ${q}\nA: ` +
    "Let's think step by step.",
  (q) =>
    `<|im_start|>system\nYou are helpful.<|im_end|>\n<|im_start|>user\n${q}<|im_end|>\n` +
    "<|im_start|>assistant\n",
  (q) =>
    `<|begin_of_text|><|start_header_id|>user<|end_header_id|>\n\n${q}<|eot_id|>` +
    "<|start_header_id|>assistant<|end_header_id|>\n\n",
  (q) => `[INST] ${q} [/INST]`,
  (q) => `Question:  ${q}\n\nAnswer:`,
  (q) => `${q}\nA:`,
];

type Row = Record<string, unknown>;

/**
 * `n` rows (plus fixed rows for the shared inputs of the data sets), each with a benchmark and
 * a task label, over several runs and epochs.
 */
export function generatedRows(
  benchmarks: readonly { scoring: BenchmarkScoring; examples: ExampleSet }[],
  n: number,
  seed: number,
): Row[] {
  const next = rng(seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)];
  const rows: Row[] = [];
  const all = benchmarks.flatMap(({ scoring, examples }) =>
    Object.entries(examples).map(([task, ex]) => ({ bench: scoring.name, task, ex }))
  );
  const labelOf = (bench: string, task: string) => {
    const r = next();
    if (r < 0.7) return task;
    if (bench === "bbeh") return r < 0.85 ? `bbeh_${task}` : task.toUpperCase();
    return r < 0.85 ? `bbh_cot_fewshot_${task}` : `leaderboard_bbh_${task}`;
  };
  for (let k = 0; k < n; k++) {
    const { bench, task, ex } = pick(all);
    const i = Math.floor(next() * ex.length);
    const e = ex[i];
    const other = ex[(i + 1 + Math.floor(next() * (ex.length - 1))) % ex.length];
    const elsewhere = pick(all.filter((t) => t.task !== task || t.bench !== bench));
    const row: Row = {
      benchmark: next() < 0.05 ? (bench === "bbh" ? "bbeh" : "bbh") : bench,
      task: labelOf(bench, task),
      run: pick(["r1", "r2"]),
      epoch: next() < 0.2 ? 2 : 1,
    };
    const template = pick(TEMPLATES);
    switch (Math.floor(next() * 16)) {
      case 0:
        Object.assign(row, { example_index: i });
        break;
      case 1:
        Object.assign(row, { example_index: i, target: e.target });
        break;
      case 2:
        Object.assign(row, { example_index: i, target: "(Z)" });
        break;
      case 3:
        Object.assign(row, { example_index: i, input: e.input });
        break;
      case 4:
        Object.assign(row, { example_index: i, input: template(e.input), target: e.target });
        break;
      case 5:
        Object.assign(row, { example_index: i, input: other.input });
        break;
      case 6:
        Object.assign(row, { example_index: ex.length + Math.floor(next() * 3) });
        break;
      case 7:
        Object.assign(row, { input: e.input });
        break;
      case 8:
        Object.assign(row, { input: template(e.input) });
        break;
      case 9:
        Object.assign(row, { input: template(e.input), target: e.target });
        break;
      case 10:
        Object.assign(row, { input: e.input, target: `${e.target}?` });
        break;
      case 11:
        Object.assign(row, { input: `Solve this: ${e.input}` });
        break;
      case 12:
        Object.assign(row, { input: pick(elsewhere.ex).input });
        break;
      case 13:
        Object.assign(row, { task: "not_a_task", example_index: i });
        break;
      case 14:
        Object.assign(row, { benchmark: "arb", example_index: i });
        break;
      default: // a repeat of an earlier row (a duplicate, or the next of identical inputs)
        if (rows.length > 0) Object.assign(row, pick(rows));
        else Object.assign(row, { example_index: i });
    }
    rows.push(row);
  }
  // the data sets' shared inputs: linguini (7 targets), spatial 65/71 (same target), BBH
  // causal_judgement 32/119 and 36/104 (different targets), sports_understanding 27/155 (same)
  const get = (bench: string, task: string) =>
    benchmarks.find((b) => b.scoring.name === bench)!.examples[task];
  const linguini = get("bbeh", "linguini");
  const spatial = get("bbeh", "spatial_reasoning");
  const causal = get("bbh", "causal_judgement");
  const sports = get("bbh", "sports_understanding");
  for (const run of ["s1", "s2"]) {
    for (const i of [41, 121, 139]) {
      rows.push({ benchmark: "bbeh", task: "linguini", run, input: linguini[i].input });
      rows.push({ benchmark: "bbeh", task: "linguini", run, ...linguini[i] });
    }
    for (let k = 0; k < 3; k++) {
      rows.push({ benchmark: "bbeh", task: "spatial_reasoning", run, input: spatial[65].input });
      rows.push({
        benchmark: "bbeh",
        task: "spatial_reasoning",
        run,
        input: TEMPLATES[k](spatial[71].input),
        target: spatial[71].target,
      });
    }
    rows.push({ benchmark: "bbh", task: "causal_judgement", run, input: causal[32].input });
    rows.push({ benchmark: "bbh", task: "causal_judgement", run, ...causal[119] });
    rows.push({ benchmark: "bbh", task: "causal_judgement", run, ...causal[32] });
    rows.push({ benchmark: "bbh", task: "sports_understanding", run, input: sports[155].input });
    rows.push({ benchmark: "bbh", task: "sports_understanding", run, ...sports[27] });
    rows.push({ benchmark: "bbh", task: "sports_understanding", run, ...sports[27], epoch: 2 });
  }
  return rows;
}
