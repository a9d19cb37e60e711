/**
 * Real material for the fuzz suite: BBEH examples from the data directory (to build valid
 * canonical, CSV, lm-eval and inspect `.eval` logs whose every record scores), the real run
 * logs in `<data>/logs/` and the BBH release outputs (to mutate). Read directly from the files,
 * never through runlens.
 *
 * @example
 * ```ts ignore
 * import { loadMaterial } from "./data.ts";
 * const m = loadMaterial("/work/shared/data");
 * m.examples.length; // BBEH examples with short inputs
 * ```
 * @module
 */
import { join } from "node:path";
import { existsSync } from "node:fs";
import { buildZip, DEFLATE, utf8, type ZipEntry, ZSTD } from "./bytes.ts";
import type { Rng } from "./rng.ts";

/** One BBEH example: canonical task name, 0-based index, input and target. */
export interface Example {
  task: string;
  index: number;
  input: string;
  target: string;
}

/** A real file to mutate: its name and bytes. */
export interface RealFile {
  name: string;
  bytes: Uint8Array;
}

/** Everything the generator reads from the data directory. */
export interface Material {
  /** BBEH examples with inputs under 3,000 characters (small valid logs). */
  examples: Example[];
  /** The real inspect_ai / openai-evals logs of `<data>/logs/inspect`. */
  realLogs: RealFile[];
  /** A few BBH release output files (`<task>_few_shot_template_0-255000.json`). */
  bbhRelease: RealFile[];
}

let cached: { dir: string; material: Material } | null = null;

/**
 * Load (once per process) the material from the data directory `dir`.
 *
 * @example
 * ```ts ignore
 * loadMaterial(Deno.env.get("RUNLENS_DATA")!).realLogs.map((f) => f.name);
 * ```
 */
export function loadMaterial(dir: string): Material {
  if (cached?.dir === dir) return cached.material;
  const tasksDir = join(dir, "bbeh", "bbeh", "benchmark_tasks");
  if (!existsSync(tasksDir)) {
    throw new Error(`fuzz: no BBEH data in ${dir} (set RUNLENS_DATA to the shared data)`);
  }
  const examples: Example[] = [];
  for (const entry of [...Deno.readDirSync(tasksDir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
    if (!entry.isDirectory || !entry.name.startsWith("bbeh_")) continue;
    const task = entry.name.slice("bbeh_".length);
    const doc = JSON.parse(Deno.readTextFileSync(join(tasksDir, entry.name, "task.json")));
    (doc.examples as { input: string; target: string }[]).forEach((ex, index) => {
      if (ex.input.length < 3000) {
        examples.push({ task, index, input: ex.input, target: ex.target });
      }
    });
  }
  // linguini has inputs shared by several examples: matching by input would be ambiguous
  const usable = examples.filter((e) => e.task !== "linguini");
  const logsDir = join(dir, "logs", "inspect");
  const realLogs: RealFile[] = [];
  if (existsSync(logsDir)) {
    for (const entry of [...Deno.readDirSync(logsDir)].sort((a, b) => a.name < b.name ? -1 : 1)) {
      if (!entry.isFile || entry.name.endsWith(".md")) continue;
      realLogs.push({ name: entry.name, bytes: Deno.readFileSync(join(logsDir, entry.name)) });
    }
  }
  const bbhDir = join(dir, "bbh", "code-davinci-002-outputs", "code-davinci-002-direct");
  const bbhRelease: RealFile[] = [];
  for (const task of ["boolean_expressions", "multistep_arithmetic_two", "navigate"]) {
    const name = `${task}_few_shot_template_0-255000.json`;
    const path = join(bbhDir, name);
    if (existsSync(path)) bbhRelease.push({ name, bytes: Deno.readFileSync(path) });
  }
  const material = { examples: usable, realLogs, bbhRelease };
  cached = { dir, material };
  return material;
}

/**
 * `n` distinct examples (distinct task and index), chosen by `rng`.
 *
 * @example
 * ```ts ignore
 * pickExamples(m, rng, 3).map((e) => e.task);
 * ```
 */
export function pickExamples(m: Material, rng: Rng, n: number, task?: string): Example[] {
  const pool = task ? m.examples.filter((e) => e.task === task) : m.examples;
  const out: Example[] = [];
  const seen = new Set<string>();
  while (out.length < n && seen.size < pool.length) {
    const ex = rng.pick(pool);
    const key = `${ex.task}/${ex.index}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(ex);
  }
  return out;
}

/** A response to `ex`: right (ending in the target) or wrong, with some chatter. */
export function responseFor(ex: Example, rng: Rng): string {
  const answer = rng.chance(0.5) ? ex.target : `not ${ex.target}`;
  return rng.pick([
    `The answer is: ${answer}`,
    `Let me think step by step.\nFirst, consider the options.\nThe answer is: ${answer}`,
    `${answer}`,
  ]);
}

/**
 * One valid canonical JSONL record for `ex` (an object; the caller serialises it).
 *
 * @example
 * ```ts ignore
 * JSON.stringify(canonicalRecord(ex, rng)); // {"task":"…","example_index":3,"response":"…"}
 * ```
 */
export function canonicalRecord(ex: Example, rng: Rng): Record<string, unknown> {
  const rec: Record<string, unknown> = {
    task: ex.task,
    example_index: ex.index,
    response: responseFor(ex, rng),
  };
  if (rng.chance(0.5)) rec.model = "fuzz-model";
  if (rng.chance(0.3)) rec.response_tokens = rng.int(1, 900);
  if (rng.chance(0.2)) rec.note = "kept in extra";
  return rec;
}

/**
 * A valid canonical JSONL file of `n` records (every one scores), with its lines.
 *
 * @example
 * ```ts ignore
 * canonicalLines(m, rng, 3).length; // 3
 * ```
 */
export function canonicalLines(m: Material, rng: Rng, n: number): string[] {
  return pickExamples(m, rng, n).map((ex) => JSON.stringify(canonicalRecord(ex, rng)));
}

/** Quote one CSV field (RFC 4180). */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/**
 * A valid canonical CSV (header `task,example_index,response,model`) of `n` records, as rows
 * (header first) without line ends.
 *
 * @example
 * ```ts ignore
 * canonicalCsvRows(m, rng, 2)[0]; // "task,example_index,response,model"
 * ```
 */
export function canonicalCsvRows(m: Material, rng: Rng, n: number): string[] {
  const rows = ["task,example_index,response,model"];
  for (const ex of pickExamples(m, rng, n)) {
    rows.push(
      [ex.task, String(ex.index), responseFor(ex, rng), "fuzz-model"].map(csvField).join(","),
    );
  }
  return rows;
}

/** The date id of generated lm-eval files. */
export const LM_EVAL_DATE = "2025-01-25T04-48-43.622918";

/**
 * One valid lm-eval sample line (as an object) for `ex`, answering `resp`.
 *
 * @example
 * ```ts ignore
 * JSON.stringify(lmEvalRecord(ex, "The answer is: 3")); // {"doc_id":…,"doc":{…},…}
 * ```
 */
export function lmEvalRecord(ex: Example, resp: string): Record<string, unknown> {
  return {
    doc_id: ex.index,
    doc: { input: ex.input, target: ex.target },
    target: ex.target,
    arguments: { gen_args_0: { arg_0: `${ex.input}\nA:`, arg_1: { until: ["Q:"] } } },
    resps: [[resp]],
    filtered_resps: [resp],
    filter: "none",
    metrics: ["exact_match"],
    doc_hash: "0".repeat(64),
    exact_match: resp.endsWith(ex.target) ? 1.0 : 0.0,
  };
}

/**
 * The sample file name (under `org__fuzz-model/`) of lm-eval task `bbeh_zeroshot_<task>` and
 * its sibling results file (name and text).
 *
 * @example
 * ```ts ignore
 * lmEvalNames("nycc").name; // "org__fuzz-model/samples_bbeh_zeroshot_nycc_2025-01-25T04-48-43.622918.jsonl"
 * ```
 */
export function lmEvalNames(
  task: string,
  folder = "org__fuzz-model",
): { name: string; results: { name: string; text: string } } {
  const lmTask = `bbeh_zeroshot_${task}`;
  return {
    name: `${folder}/samples_${lmTask}_${LM_EVAL_DATE}.jsonl`,
    results: {
      name: `${folder}/results_${LM_EVAL_DATE}.json`,
      text: JSON.stringify({
        model_name: "org/fuzz-model",
        results: { [lmTask]: { "exact_match,none": 0.5 } },
      }),
    },
  };
}

/**
 * A valid lm-eval `--log_samples` file of `n` BBEH docs of one task: its file name (under
 * `org__fuzz-model/`) and lines, and the sibling results file.
 *
 * @example
 * ```ts ignore
 * const { name, lines, results } = lmEvalFile(m, rng, 4);
 * ```
 */
export function lmEvalFile(
  m: Material,
  rng: Rng,
  n: number,
): { name: string; lines: string[]; results: { name: string; text: string } } {
  const task = rng.pick(m.examples).task;
  const examples = pickExamples(m, rng, n, task).sort((a, b) => a.index - b.index);
  const lines = examples.map((ex) => JSON.stringify(lmEvalRecord(ex, responseFor(ex, rng))));
  return { ...lmEvalNames(task), lines };
}

/** The members of a generated inspect `.eval` log (before any damage). */
export interface EvalMembers {
  entries: ZipEntry[];
  /** Number of `samples/…` members. */
  samples: number;
}

/**
 * The members of a valid inspect_ai `.eval` log of `n` BBEH samples (every one scores):
 * `_journal/start.json`, samples, `summaries.json`, `reductions.json`, `header.json`;
 * compressed with `method` (deflate or zstd). `crashed` leaves out `header.json`.
 *
 * @example
 * ```ts ignore
 * buildZip(evalMembers(m, rng, 3, ZSTD).entries);
 * ```
 */
export function evalMembers(
  m: Material,
  rng: Rng,
  n: number,
  method: number,
  crashed = false,
): EvalMembers {
  const spec = {
    eval_id: "fuzz",
    run_id: "fuzz-run",
    created: "2026-04-20T12:00:00+00:00",
    task: "inspect_evals/bbeh",
    task_args: {},
    model: "openai/fuzz-model",
    packages: { inspect_ai: method === ZSTD ? "0.3.206" : "0.3.100" },
  };
  const json = (v: unknown) => utf8(JSON.stringify(v));
  const entries: ZipEntry[] = [{ name: "_journal/start.json", method, data: json({ eval: spec }) }];
  const examples = pickExamples(m, rng, n);
  examples.forEach((ex, i) => {
    const resp = responseFor(ex, rng);
    entries.push({
      name: `samples/${i + 1}_epoch_1.json`,
      method,
      data: json({
        id: i + 1,
        epoch: 1,
        input: ex.input,
        target: ex.target,
        metadata: { task: ex.task },
        messages: [{ role: "user", content: ex.input }, { role: "assistant", content: resp }],
        output: { model: "fuzz-model-2026", completion: resp, usage: { output_tokens: 12 } },
        scores: { match: { value: resp.endsWith(ex.target) ? "C" : "I", answer: resp } },
      }),
    });
  });
  entries.push({ name: "summaries.json", method, data: json([{ id: 1, epoch: 1 }]) });
  entries.push({ name: "reductions.json", method: 0, data: json([]) });
  if (!crashed) {
    entries.push({
      name: "header.json",
      method,
      data: json({ version: 2, status: "success", eval: spec, results: { total_samples: n } }),
    });
  }
  return { entries, samples: n };
}

/**
 * A valid `.eval` archive (see {@link evalMembers}).
 *
 * @example
 * ```ts ignore
 * Deno.writeFileSync("a.eval", evalArchive(m, rng, 2, DEFLATE).bytes);
 * ```
 */
export function evalArchive(
  m: Material,
  rng: Rng,
  n: number,
  method = DEFLATE,
): { bytes: Uint8Array; samples: number } {
  const { entries, samples } = evalMembers(m, rng, n, method);
  return { bytes: buildZip(entries), samples };
}
