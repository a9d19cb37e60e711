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
import { DATA_OPTION, resolveDataDir } from "../core/data_dir.ts";
import {
  type Command,
  type OptionSpec,
  parseCommand,
  type ParsedArgs,
  runCommand,
  UsageError,
} from "../core/command.ts";
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

/** `MIN-MAX` as a range of response lengths; throws {@link UsageError}. */
export function charRange(text: string): [number, number] {
  const m = /^(\d+)-(\d+)$/.exec(text);
  if (!m || Number(m[1]) >= Number(m[2])) throw new UsageError("--response-chars must be MIN-MAX");
  return [Number(m[1]), Number(m[2])];
}

/** The generator's defaults (the help shows them). */
const DEFAULTS = { mb: 1000, seed: 20250301, wrong: 0.4, format: "lm-eval" } as const;

/** The generator's options, shared by the scripts that generate their log (`bench.ts`, …). */
export const GENERATE_OPTIONS: Record<string, OptionSpec> = {
  rows: {
    type: "string",
    value: "N",
    description: "rows to write (instead of --mb)",
    default: "by size",
  },
  mb: { type: "string", value: "N", description: "size in MB", default: String(DEFAULTS.mb) },
  seed: { type: "string", value: "S", description: "the seed", default: String(DEFAULTS.seed) },
  wrong: {
    type: "string",
    value: "R",
    description: "share of wrong answers",
    default: String(DEFAULTS.wrong),
  },
  data: DATA_OPTION,
  format: {
    type: "string",
    value: "lm-eval|canonical",
    description: "an lm-eval samples folder or one canonical JSONL file",
    default: DEFAULTS.format,
  },
  "response-chars": {
    type: "string",
    value: "MIN-MAX",
    description: "response lengths in characters",
    default: "1000-8000",
  },
  out: {
    type: "string",
    value: "PATH",
    description: "where to write",
    default: ".runlens/bench/lmeval_<size>_s<seed>/ or bench_<size>_s<seed>.jsonl",
  },
};

/** The generator's options from parsed values; throws {@link UsageError}. */
export function generateOptionsOf(values: ParsedArgs["values"]): GenerateOptions {
  const text = (key: string) => values[key] as string | undefined;
  const number = (key: string, fallback: number) => {
    const v = Number(text(key) ?? fallback);
    if (!Number.isFinite(v) || v <= 0) throw new UsageError(`--${key} must be a positive number`);
    return v;
  };
  const format = text("format") ?? DEFAULTS.format;
  if (format !== "lm-eval" && format !== "canonical") {
    throw new UsageError("--format must be lm-eval or canonical");
  }
  const opts: GenerateOptions = {
    rows: text("rows") === undefined ? null : number("rows", 1),
    mb: number("mb", DEFAULTS.mb),
    seed: number("seed", DEFAULTS.seed),
    wrong: Number(text("wrong") ?? DEFAULTS.wrong),
    data: resolveDataDir(text("data")),
    out: text("out") ?? "",
    format,
  };
  const chars = text("response-chars");
  if (chars !== undefined) opts.responseChars = charRange(chars);
  if (opts.out === "") {
    const suffix = opts.responseChars ? `_c${opts.responseChars.join("-")}` : "";
    const size = (opts.rows !== null ? `${opts.rows}rows` : `${opts.mb}mb`) + suffix;
    opts.out = opts.format === "lm-eval"
      ? join(".runlens", "bench", `lmeval_${size}_s${opts.seed}`)
      : join(".runlens", "bench", `bench_${size}_s${opts.seed}.jsonl`);
  }
  return opts;
}

/**
 * Parse the generator's command line; throws {@link UsageError} on a bad option.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const opts = parseGenerateArgs(["--rows", "100", "--format", "canonical", "--seed", "7"]);
 * assert.equal(opts.out, ".runlens/bench/bench_100rows_s7.jsonl");
 * assert.throws(() => parseGenerateArgs(["--format", "csv"]), /lm-eval or canonical/);
 * ```
 */
export function parseGenerateArgs(args: readonly string[]): GenerateOptions {
  return parseCommand(generateCommand, args);
}

/** `lib/bench/generate.ts`: write a large seeded run log. */
export const generateCommand: Command<GenerateOptions> = {
  name: "generate",
  invocation: "deno run --allow-all lib/bench/generate.ts",
  summary: "Write a large, seeded run log for the speed benchmark: an lm-eval samples folder or " +
    "one canonical JSONL file of full BBEH runs.",
  usage: "[--rows N | --mb N] [--seed S] [--wrong R] [--format lm-eval|canonical] [options]",
  options: GENERATE_OPTIONS,
  prints: "The path written, on stdout; rows, runs, size and time on stderr.",
  examples: ["deno run --allow-all lib/bench/generate.ts --mb 200"],
  failure: "the data set cannot be read or the log cannot be written",
  parse: ({ values, positionals }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    return generateOptionsOf(values);
  },
  run: async (opts) => {
    const t0 = performance.now();
    const r = await (opts.format === "lm-eval" ? generateLmEvalLogs : generateLog)(opts);
    console.error(
      `generate: ${r.rows} rows, ${r.runs} runs, ${(r.bytes / 1e6).toFixed(1)} MB in ` +
        `${((performance.now() - t0) / 1000).toFixed(1)} s → ${r.file}`,
    );
    console.log(r.file);
    return 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(generateCommand, Deno.args));
