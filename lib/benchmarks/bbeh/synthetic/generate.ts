/**
 * Generate SYNTHETIC BBEH run logs: for each model spec, a model-style response to every one of
 * the 4,520 real questions, following an exact plan (see `plan.ts`), written as canonical JSONL
 * (`task`, `example_index`, `response`, `model`, `run`). Every response is re-scored with the
 * official scorer and must get the planned verdict, so the scorer's accuracy on the logs equals
 * the planted accuracy exactly.
 *
 * These logs are synthetic: model names say so (see `syntheticName`), and they are meant for
 * demos and tests of the analyses, never as results about real models.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * import {
 *   generateSyntheticRuns,
 *   writeSyntheticLogs,
 * } from "@runlens/benchmarks/bbeh/synthetic/generate.ts";
 * const dataset = loadBbehDataset(resolveDataDir());
 * const runs = generateSyntheticRuns(dataset, [{ model: "synthetic-a", correct: { nycc: 50 } }]);
 * const dir = Deno.makeTempDirSync();
 * const [path] = writeSyntheticLogs(runs, dir); // one <run>.jsonl per run
 * const lines = Deno.readTextFileSync(path).trimEnd().split("\n");
 * assert.equal(lines.length, 4520);
 * const keys = Object.keys(JSON.parse(lines[0]));
 * assert.deepEqual(keys, ["task", "example_index", "response", "model", "run"]);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { join } from "node:path";
import { bbehOfficial } from "../scorer.ts";
import { bbehSubsets } from "../subsets.ts";
import { BBEH_TASKS } from "../tasks.ts";
import { type PlanExample, type PlannedRow, planTask } from "./plan.ts";
import { renderResponse } from "./respond.ts";
import { rng, subSeed } from "./rng.ts";
import { type SyntheticModelSpec, syntheticName } from "./spec.ts";

/** One canonical log record. */
export interface SyntheticRecord {
  /** The BBEH task. */
  task: string;
  /** The example's index in its task. */
  example_index: number;
  /** The generated response. */
  response: string;
  /** The synthetic model's name. */
  model: string;
  /** The run. */
  run: string;
}

/** One generated run: its records and the plan behind them (same order). */
export interface SyntheticRun {
  /** The run. */
  run: string;
  /** The synthetic model's name. */
  model: string;
  /** Its log records. */
  records: SyntheticRecord[];
  /** The plan of each record, in the same order. */
  plan: PlannedRow[];
}

/** Default seed of the generator. */
export const SYNTHETIC_SEED = 20250226;

/**
 * The examples of the data set (frame of `loadBbehDataset`) grouped by task, with subset labels.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * const examples = planExamples(loadBbehDataset(resolveDataDir())).get("zebra_puzzles")!;
 * assert.equal(examples.length, 200);
 * assert.deepEqual(examples[0].subsets, { size: "7x7" });
 * ```
 */
export function planExamples(dataset: pl.DataFrame): Map<string, PlanExample[]> {
  const labels = new Map<string, Record<string, string>>();
  for (const s of bbehSubsets(dataset).toRecords()) {
    const key = `${s.task}\u0000${s.example_index}`;
    labels.set(key, { ...(labels.get(key) ?? {}), [String(s.subset_kind)]: String(s.subset) });
  }
  const out = new Map<string, PlanExample[]>();
  const recs = dataset.select("task", "example_index", "input", "target").toRecords() as {
    task: string;
    example_index: number;
    input: string;
    target: string;
  }[];
  for (const r of recs) {
    const ex = { ...r, subsets: labels.get(`${r.task}\u0000${r.example_index}`) ?? {} };
    out.set(r.task, [...(out.get(r.task) ?? []), ex]);
  }
  return out;
}

/** A per-task length factor (0.5–2), so output lengths differ between tasks. */
function taskLengthFactor(task: string): number {
  return 0.5 + 1.5 * rng(subSeed(7, task))();
}

/**
 * Plan and render one run per spec. Throws when a plan is infeasible or when a response does
 * not get its planned verdict from the official scorer.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * const dataset = loadBbehDataset(resolveDataDir());
 * const [run] = generateSyntheticRuns(dataset, [{ model: "m", correct: { nycc: 10 } }], 1);
 * assert.equal(run.model, "m (synthetic)"); // the name says it is synthetic
 * assert.equal(run.records.length, 4520);
 * assert.equal(run.plan.filter((p) => p.correct).length, 10);
 * ```
 */
export function generateSyntheticRuns(
  dataset: pl.DataFrame,
  specs: readonly SyntheticModelSpec[],
  seed = SYNTHETIC_SEED,
): SyntheticRun[] {
  const examples = planExamples(dataset);
  return specs.map((spec) => {
    const model = syntheticName(spec.model);
    const run = spec.run ?? model;
    for (const task of Object.keys(spec.correct)) {
      if (!examples.has(task)) throw new Error(`${model}: unknown task ${task}`);
    }
    const records: SyntheticRecord[] = [];
    const plan: PlannedRow[] = [];
    for (const info of BBEH_TASKS) {
      const exs = examples.get(info.name) ?? [];
      const rows = planTask(exs, { ...spec, run }, seed);
      const r = rng(subSeed(seed, run, info.name, "text"));
      const verbosity = (spec.verbosity ?? 1) * taskLengthFactor(info.name);
      rows.forEach((p, i) => {
        const ex = exs[i];
        const response = renderResponse(r, {
          task: p.task,
          input: ex.input,
          answer: p.answer,
          degenerate: p.kind === "degenerate",
          verbosity,
          target: ex.target,
        });
        if (bbehOfficial(response, ex.target).correct !== p.correct) {
          throw new Error(
            `${model} ${p.task}[${p.example_index}]: planned ${p.correct ? "correct" : "wrong"} ` +
              `(${p.kind}) but the official scorer disagrees`,
          );
        }
        records.push({ task: p.task, example_index: p.example_index, response, model, run });
        plan.push(p);
      });
    }
    return { run, model, records, plan };
  });
}

/**
 * Write each run to `<dir>/<run as file name>.jsonl`; returns the paths.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * const runs = generateSyntheticRuns(loadBbehDataset(resolveDataDir()), [
 *   { model: "a", correct: {} },
 *   { model: "b", correct: {}, run: "b/2" },
 * ]);
 * const dir = await Deno.makeTempDir();
 * const paths = writeSyntheticLogs(runs, dir);
 * assert.deepEqual(paths, [`${dir}/a_synthetic.jsonl`, `${dir}/b_2.jsonl`]);
 * await Deno.remove(dir, { recursive: true });
 * ```
 */
export function writeSyntheticLogs(runs: readonly SyntheticRun[], dir: string): string[] {
  Deno.mkdirSync(dir, { recursive: true });
  return runs.map((run) => {
    const name = run.run.replace(/[^A-Za-z0-9._-]+/g, "_").replace(/^_+|_+$/g, "");
    const path = join(dir, `${name}.jsonl`);
    Deno.writeTextFileSync(path, run.records.map((r) => JSON.stringify(r)).join("\n") + "\n");
    return path;
  });
}

/**
 * The plan of generated runs as a frame: `run`, `model`, `task`, `example_index`, `correct`,
 * `kind`, `answer` (for tests and for checking what an analysis should recover).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { loadBbehDataset } from "@runlens/benchmarks/bbeh/dataset.ts";
 * const spec = { model: "m", correct: {}, objectCounting: { over: 30, under: 20 } };
 * const runs = generateSyntheticRuns(loadBbehDataset(resolveDataDir()), [spec]);
 * const plan = planFrame(runs); // run, model, task, example_index, correct, kind, answer
 * assert.equal(plan.filter(pl.col("kind").eq(pl.lit("over"))).height, 30);
 * assert.equal(plan.filter(pl.col("kind").eq(pl.lit("under"))).height, 20);
 * ```
 */
export function planFrame(runs: readonly SyntheticRun[]): pl.DataFrame {
  const rows = runs.flatMap((run) =>
    run.plan.map((p) => ({ run: run.run, model: run.model, ...p, answer: p.answer ?? "" }))
  );
  return pl.readRecords(rows).withColumns(pl.col("example_index").cast(pl.Int32));
}
