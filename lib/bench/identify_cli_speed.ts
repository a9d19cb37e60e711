/**
 * How much identification from content costs a whole `runlens score` (issue 14: within 1.2× of
 * the time with explicit tasks). Writes two canonical JSONL logs of the same records — BBEH
 * examples in data-set order, run after run, with seeded chain-of-thought responses
 * (`responses.ts`) —, one with `task`, `example_index`, `input` and `target` (the index is
 * used, input and target checked against it), one with only `input` and `target` (benchmark,
 * task and example found from the question text; the target separates the examples that share
 * an input, e.g. 7 of BBEH linguini), and measures `runlens score FILE --json --no-cache --workers 2` on each as a
 * whole process (wall time and peak RSS, `bench.ts`'s {@link measure}), alternating the two
 * `--repeat` times. Checks that both give the same per-run, per-task counts and prints a
 * Markdown table with the ratio of the medians.
 *
 * `--prompts` puts each question at the end of a prompt (a one-shot prompt or a ChatML chat
 * template, alternately) in both logs, so that the question is found embedded, not by its exact
 * text.
 *
 * Logs go to `.runlens/bench/identify_<N>mb_{explicit,content}.jsonl` (git-ignored)
 * and are deleted afterwards unless `--keep`. Exit code 1 when the two disagree or a process
 * fails; a missed target is only reported.
 *
 * @example
 * ```sh
 * deno run -A lib/bench/identify_cli_speed.ts --mb 1000 --repeat 2 --data ../shared/data
 * ```
 * @module
 */
import { join } from "node:path";
import { type Command, countOption, runCommand } from "../core/command.ts";
import { DATA_OPTION, resolveDataDir } from "../core/data_dir.ts";
import { compareCounts, measure, type Measurement, runlensCounts } from "./bench.ts";
import { LineWriter } from "./line_writer.ts";
import { fillerPool, MODELS, mulberry32, readExamples, responseFor } from "./responses.ts";

/** The two logs {@link writeIdentifyLogs} wrote. */
export interface IdentifyLogs {
  explicit: string;
  content: string;
  rows: number;
  /** Size of the explicit log, bytes. */
  bytes: number;
}

/**
 * Write the explicit and the content-only log side by side until the explicit one holds `mb`
 * megabytes (10^6 bytes); deterministic for a seed and data set.
 */
export async function writeIdentifyLogs(
  dataDir: string,
  dir: string,
  mb: number,
  prompts = false,
  seed = 20250301,
): Promise<IdentifyLogs> {
  const rnd = mulberry32(seed);
  const { examples, byTask } = readExamples(dataDir);
  const pool = fillerPool(rnd, 1 << 17);
  await Deno.mkdir(dir, { recursive: true });
  const logs = {
    explicit: join(dir, `identify_${mb}mb${prompts ? "_prompts" : ""}_explicit.jsonl`),
    content: join(dir, `identify_${mb}mb${prompts ? "_prompts" : ""}_content.jsonl`),
  };
  const explicit = new LineWriter();
  const content = new LineWriter();
  await explicit.open(logs.explicit);
  await content.open(logs.content);
  let rows = 0;
  try {
    for (let runs = 0; explicit.size < mb * 1e6; runs++) {
      const model = MODELS[runs % MODELS.length];
      const run = `${model}-r${String(runs).padStart(3, "0")}`;
      for (const ex of examples) {
        if (explicit.size >= mb * 1e6) break;
        const response = responseFor(ex, byTask, pool, 0.4, rnd);
        const { task, index: example_index, target } = ex;
        const input = prompts ? PROMPTS[rows % PROMPTS.length](ex.input) : ex.input;
        await explicit.write(
          JSON.stringify({ task, example_index, input, target, response, model, run }) + "\n",
        );
        await content.write(JSON.stringify({ input, target, response, model, run }) + "\n");
        rows++;
      }
    }
  } finally {
    await explicit.close();
    await content.close();
  }
  return { ...logs, rows, bytes: explicit.size };
}

/** Prompts that end with the question (`--prompts`). */
const PROMPTS: readonly ((q: string) => string)[] = [
  (q) => `Q: What is 2 + 2?\nA: Let's think step by step. So the answer is 4.\n\nQ: ${q}\nA:`,
  (q) => `<|im_start|>user\n${q}<|im_end|>\n<|im_start|>assistant\n`,
];

/** The median of some numbers. */
function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}

/** `runlens score` on one log, as a whole process. */
function scoreProcess(label: string, file: string, dataDir: string): Promise<Measurement> {
  return measure(label, Deno.execPath(), [
    "run",
    "--allow-all",
    "lib/cli/runlens.ts",
    "score",
    file,
    "--json",
    "--no-cache",
    "--workers",
    "2",
    "--data",
    dataDir,
  ]);
}

/** The Markdown table of the runs (wall and RSS per run, then the medians' ratio). */
function table(logs: IdentifyLogs, runs: Measurement[]): string {
  const mb = (b: number) => (b / 1e6).toFixed(0);
  const wall = (label: string) =>
    median(runs.filter((m) => m.label === label).map((m) => m.seconds));
  const lines = [
    `log: ${logs.rows.toLocaleString("en")} rows, ${mb(logs.bytes)} MB (explicit)`,
    "",
    "| log | wall s | peak RSS MB |",
    "| --- | ---: | ---: |",
    ...runs.map((m) => `| ${m.label} | ${m.seconds.toFixed(1)} | ${mb(m.peakRss)} |`),
    "",
    `content / explicit (median wall): ${(wall("content") / wall("explicit")).toFixed(2)}× ` +
    "(target ≤ 1.2×)",
  ];
  return lines.join("\n");
}

/** The command line of {@link identifyCliSpeedCommand}. */
interface IdentifySpeedArgs {
  mb: number;
  repeat: number;
  dataDir: string;
  keep: boolean;
  prompts: boolean;
}

/** `lib/bench/identify_cli_speed.ts`. */
export const identifyCliSpeedCommand: Command<IdentifySpeedArgs> = {
  name: "identify-cli-speed",
  invocation: "deno run --allow-all lib/bench/identify_cli_speed.ts",
  summary: "Measure what identification from content costs a whole runlens score: the same " +
    "records with explicit tasks and indexes, and with only input and target.",
  usage: "[--mb N] [--repeat K] [--data DIR] [--prompts] [--keep]",
  options: {
    mb: { type: "string", value: "N", description: "size of each log in MB", default: "1000" },
    repeat: {
      type: "string",
      value: "K",
      description: "processes per log, alternating",
      default: "2",
    },
    data: DATA_OPTION,
    prompts: {
      type: "boolean",
      description: "put each question at the end of a prompt (one-shot or a chat template)",
    },
    keep: {
      type: "boolean",
      description: "keep the logs (.runlens/bench/identify_<N>mb_*.jsonl) afterwards",
    },
  },
  prints: "The logs' size on stderr, then a Markdown table of the runs (wall time, peak RSS) " +
    "with the ratio of the medians, and any per-task count that differs.",
  examples: [
    "deno run --allow-all lib/bench/identify_cli_speed.ts --mb 1000 --repeat 2 " +
    "--data ../shared/data",
  ],
  failure: "the two logs' counts differ or a process fails (a missed target is only reported)",
  parse: ({ values, positionals }) => {
    if (positionals.length > 0) return `unexpected argument ${positionals[0]}`;
    return {
      mb: countOption(values, "mb", 1000),
      repeat: countOption(values, "repeat", 2),
      dataDir: resolveDataDir(values.data as string | undefined),
      keep: values.keep === true,
      prompts: values.prompts === true,
    };
  },
  run: async ({ mb, repeat, dataDir, keep, prompts }) => {
    const logs = await writeIdentifyLogs(
      dataDir,
      join(".runlens", "bench"),
      mb,
      prompts,
    );
    console.error(`identify speed: ${logs.rows} rows, ${(logs.bytes / 1e6).toFixed(0)} MB`);
    const runs: Measurement[] = [];
    try {
      for (let k = 0; k < repeat; k++) {
        runs.push(await scoreProcess("explicit", logs.explicit, dataDir));
        runs.push(await scoreProcess("content", logs.content, dataDir));
      }
    } finally {
      if (!keep) { for (const f of [logs.explicit, logs.content]) await Deno.remove(f); }
    }
    const failed = runs.filter((m) => m.code !== 0);
    const diffs = failed.length > 0 ? [] : compareCounts(
      runlensCounts(runs[0].stdout),
      runlensCounts(runs[1].stdout),
    );
    console.log(table(logs, runs));
    for (const d of diffs.slice(0, 20)) console.log(`differs: ${d}`);
    return failed.length > 0 || diffs.length > 0 ? 1 : 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(identifyCliSpeedCommand, Deno.args));
