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
 * [--wrong R] [--data DIR] [--format lm-eval|canonical] [--response-chars MIN-MAX]
 * [--out PATH]`. Default: ~1,000 MB, responses of 1,000–8,000 characters,
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
import { generateLmEvalLogs } from "./generate_lm_eval.ts";
import { LineWriter } from "./line_writer.ts";
import {
  fillerPool,
  type GenerateOptions,
  type GenerateResult,
  MODELS,
  mulberry32,
  readExamples,
  responseFor,
} from "./responses.ts";

export type { GenerateOptions, GenerateResult };

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
        const response = responseFor(ex, byTask, pool, opts.wrong, rnd, opts.responseChars);
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

/** `MIN-MAX` as a range of response lengths. */
function charRange(text: string): [number, number] {
  const m = /^(\d+)-(\d+)$/.exec(text);
  if (!m || Number(m[1]) >= Number(m[2])) throw new Error("--response-chars must be MIN-MAX");
  return [Number(m[1]), Number(m[2])];
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
    else if (flag === "--response-chars") opts.responseChars = charRange(value);
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
    const chars = opts.responseChars ? `_c${opts.responseChars.join("-")}` : "";
    const size = (opts.rows !== null ? `${opts.rows}rows` : `${opts.mb}mb`) + chars;
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
