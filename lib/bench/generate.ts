/**
 * Seeded, deterministic generator of large run logs for the benchmark (`lib/bench/bench.ts`):
 * lm-evaluation-harness samples folders (`--format lm-eval`, the default; see
 * `generate_lm_eval.ts`) or one canonical JSONL file (`--format canonical`: one record per line
 * with `task`, `example_index`, `response`, `model` and `run`). Every run covers the full BBEH set (4,520 examples) once, in data-set order; the
 * log holds as many runs as the requested size needs (the last one may be partial). Responses
 * are chain-of-thought filler of 1–8 KB ending in `The answer is: X`, X being the target or,
 * at `--wrong` rate, another example's target of the same task; a few use the other answer
 * forms the official scorer knows (`\boxed{}`, bold, trailing dot, final-answer prefix).
 *
 * Usage: `deno run --allow-all lib/bench/generate.ts [--rows N | --mb N] [--seed S]
 * [--wrong R] [--data DIR] [--format lm-eval|canonical] [--out PATH]`. Default: ~1,000 MB,
 * written to `.runlens/bench/lmeval_<size>_s<seed>/` (or `bench_<size>_s<seed>.jsonl`;
 * git-ignored). Prints the path on stdout.
 *
 * @example
 * ```sh
 * deno run --allow-all lib/bench/generate.ts --mb 200
 * ```
 * @module
 */
import { join } from "node:path";
import { resolveDataDir } from "../core/data_dir.ts";
import { findBbehRelease } from "../benchmarks/bbeh/dataset.ts";
import { BBEH_TASKS } from "../benchmarks/bbeh/tasks.ts";
import { mulberry32 } from "../core/rng.ts";
import { generateLmEvalLogs } from "./generate_lm_eval.ts";
import { LineWriter } from "./line_writer.ts";

/** Options of {@link generateLog}. */
export interface GenerateOptions {
  /** Number of records; when null, records are written until `mb` megabytes are reached. */
  rows: number | null;
  /** Target size in MB (10^6 bytes), used when `rows` is null. */
  mb: number;
  /** PRNG seed. */
  seed: number;
  /** Share of wrong answers (0–1). */
  wrong: number;
  /** Data directory holding the BBEH release. */
  data: string;
  /** Output: a file (canonical) or a folder (lm-eval). */
  out: string;
  /** `lm-eval` (samples files, the default) or `canonical` (one JSONL file). */
  format: "lm-eval" | "canonical";
}

/** What {@link generateLog} wrote. */
export interface GenerateResult {
  file: string;
  rows: number;
  bytes: number;
  runs: number;
}

/** Models the runs are spread over. */
export const MODELS = ["gemini-2.0-flash", "gpt-4o", "llama-3.1-405b", "deepseek-r1", "o3-mini"];

export { mulberry32 };

const SENTENCES = [
  "Let me think about this step by step.",
  "First, I will restate the problem in my own words to make sure I understand it.",
  "We are given several constraints, and we need to check each of them carefully.",
  "Consider the first condition: it tells us that the value must be consistent with the rest.",
  "If we assume the opposite, we quickly reach a contradiction, so that case is ruled out.",
  "Now, counting the items again: 3 + 4 = 7, and 7 × 2 = 14, minus 5 gives 9.",
  "Wait, that is not quite right; let me re-check the previous step.",
  "The table lists the rows in a different order, so I will sort them by the first column.",
  "Looking at the options (A) through (E), only some of them survive the constraints.",
  'Hmm — the statement "the third person lies" implies the second one tells the truth.',
  "So far we have: position 1 → red, position 2 → blue, position 3 → unknown.",
  "Let's verify this with the remaining clues, one by one.",
  "Clue 4 says the owner of the cat lives next to the person who drinks tea.",
  "Therefore the previous assumption holds, and we can move on to the next part.",
  "Using the formula A = ½ · b · h, the area is 12 square units.",
  "Translating the sentence word by word: «kʷe» means 'and', «tel» means 'stone'.",
  "The time difference is 3 hours and 45 minutes, crossing midnight once.",
  "In summary, every branch of the case analysis leads to the same conclusion.",
  "Double-checking the arithmetic: 128 / 4 = 32, 32 - 17 = 15.",
  "One more consideration: the question asks for the final state, not the intermediate one.",
  "\tIndented note: the bracket sequence so far is ( [ { } ] ), which is balanced.",
  "Edge case: if the list is empty, the answer would be none, but here it is not empty.",
];

/** A pool of filler text (sentences and paragraph breaks) responses are sliced from. */
export function fillerPool(rnd: () => number, size: number): string {
  const parts: string[] = [];
  let n = 0;
  while (n < size) {
    const s = SENTENCES[Math.floor(rnd() * SENTENCES.length)];
    const sep = rnd() < 0.15 ? "\n\n" : rnd() < 0.1 ? "\n" : " ";
    parts.push(s, sep);
    n += s.length + sep.length;
  }
  return parts.join("");
}

/** The final answer line in one of a few forms; mostly the prompt's `The answer is: X`. */
export function answerLine(answer: string, rnd: () => number): string {
  const r = rnd();
  if (r < 0.85) return `The answer is: ${answer}`;
  if (r < 0.9) return `The answer is: ${answer}.`;
  if (r < 0.94) return `**The answer is: ${answer}**`;
  if (r < 0.97) return `The final answer is $\\boxed{${answer}}$.`;
  return `So the answer is ${answer}`;
}

/**
 * A chain-of-thought response of 1–8 KB of filler ending in an answer line: the target, or at
 * rate `wrong` another example's target of the same task.
 */
export function responseFor(
  ex: Example,
  byTask: Map<string, string[]>,
  pool: string,
  wrong: number,
  rnd: () => number,
): string {
  let answer = ex.target;
  if (rnd() < wrong) {
    const others = byTask.get(ex.task)!;
    answer = others[Math.floor(rnd() * others.length)];
  }
  const len = 1000 + Math.floor(rnd() * 7000);
  const start = Math.floor(rnd() * (pool.length - len));
  return `${pool.slice(start, start + len).trim()}\n\n${answerLine(answer, rnd)}`;
}

/** One BBEH example. */
export interface Example {
  task: string;
  index: number;
  input: string;
  target: string;
}

/** Every BBEH example in data-set order, and each task's targets. */
export function readExamples(
  dataDir: string,
): { examples: Example[]; byTask: Map<string, string[]> } {
  const release = findBbehRelease(dataDir);
  const examples: Example[] = [];
  const byTask = new Map<string, string[]>();
  for (const info of BBEH_TASKS) {
    const path = join(release, "benchmark_tasks", `bbeh_${info.name}`, "task.json");
    const parsed = JSON.parse(Deno.readTextFileSync(path)) as {
      examples: { input: string; target: string }[];
    };
    byTask.set(info.name, parsed.examples.map((e) => e.target));
    parsed.examples.forEach(({ input, target }, index) =>
      examples.push({ task: info.name, index, input, target })
    );
  }
  return { examples, byTask };
}

/** Write the log described by `opts`; deterministic for a given seed, size and data set. */
export async function generateLog(opts: GenerateOptions): Promise<GenerateResult> {
  const rnd = mulberry32(opts.seed);
  const { examples, byTask } = readExamples(opts.data);
  const pool = fillerPool(rnd, 1 << 17);
  const limitBytes = opts.rows === null ? opts.mb * 1e6 : Infinity;
  const limitRows = opts.rows ?? Infinity;
  await Deno.mkdir(join(opts.out, ".."), { recursive: true });
  const out = new LineWriter();
  await out.open(opts.out);
  let rows = 0;
  let runs = 0;
  try {
    outer: while (true) {
      const model = MODELS[runs % MODELS.length];
      const run = `${model}-r${String(runs).padStart(3, "0")}`;
      runs++;
      for (const ex of examples) {
        if (rows >= limitRows || out.size >= limitBytes) break outer;
        const response = responseFor(ex, byTask, pool, opts.wrong, rnd);
        await out.write(
          JSON.stringify({
            task: ex.task,
            example_index: ex.index,
            response,
            model,
            run,
          }) + "\n",
        );
        rows++;
      }
    }
  } finally {
    await out.close();
  }
  return { file: opts.out, rows, bytes: out.size, runs };
}

/** Parse the command line; throws on a bad option. */
export function parseGenerateArgs(args: readonly string[]): GenerateOptions {
  const opts: GenerateOptions = {
    rows: null,
    mb: 1000,
    seed: 20250301,
    wrong: 0.4,
    data: "",
    out: "",
    format: "lm-eval",
  };
  let data: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    const value = args[++i];
    if (value === undefined) throw new Error(`${flag} needs a value`);
    if (flag === "--rows") opts.rows = Number(value);
    else if (flag === "--mb") opts.mb = Number(value);
    else if (flag === "--seed") opts.seed = Number(value);
    else if (flag === "--wrong") opts.wrong = Number(value);
    else if (flag === "--data") data = value;
    else if (flag === "--out") opts.out = value;
    else if (flag === "--format" && (value === "lm-eval" || value === "canonical")) {
      opts.format = value;
    } else if (flag === "--format") throw new Error("--format must be lm-eval or canonical");
    else throw new Error(`unknown option ${flag}`);
  }
  for (const [k, v] of Object.entries({ rows: opts.rows ?? 1, mb: opts.mb, seed: opts.seed })) {
    if (!Number.isFinite(v) || v <= 0) throw new Error(`--${k} must be a positive number`);
  }
  opts.data = resolveDataDir(data);
  if (opts.out === "") {
    const size = opts.rows !== null ? `${opts.rows}rows` : `${opts.mb}mb`;
    opts.out = opts.format === "lm-eval"
      ? join(".runlens", "bench", `lmeval_${size}_s${opts.seed}`)
      : join(".runlens", "bench", `bench_${size}_s${opts.seed}.jsonl`);
  }
  return opts;
}

if (import.meta.main) {
  try {
    const opts = parseGenerateArgs(Deno.args);
    const t0 = performance.now();
    const r = await (opts.format === "lm-eval" ? generateLmEvalLogs : generateLog)(opts);
    console.error(
      `generate: ${r.rows} rows, ${r.runs} runs, ${(r.bytes / 1e6).toFixed(1)} MB in ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s → ${r.file}`,
    );
    console.log(r.file);
  } catch (e) {
    console.error(`generate: ${(e as Error).message}`);
    Deno.exit(1);
  }
}
