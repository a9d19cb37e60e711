/**
 * The commands benchmarks contribute (`runlens subsets`, …), made into commands of the
 * `runlens` command line. A benchmark declares them in {@link Benchmark.commands}; its folder
 * imports nothing above its layer, so this module adds what loading needs: the shared load
 * options (help and parser) and a `load` that runs the one pipeline for that benchmark.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const words = (await benchmarkCommands()).map((c) => c.name);
 * assert.ok(words.includes("subsets")); // BBEH's
 * ```
 * @module
 */
import { benchmarks, getBenchmark } from "../benchmarks/registry.ts";
import type {
  Benchmark,
  BenchmarkCommand,
  BenchmarkLoadRequest,
  BenchmarkRuns,
} from "../benchmarks/types.ts";
import type { Command, ParsedArgs } from "../core/command.ts";
import { DATA_OPTION, resolveDataDir } from "../core/data_dir.ts";
import { printError } from "../core/terminal.ts";
import { type LoadOptions, loadRuns } from "../pipeline/load.ts";
import { benchmarkRuns } from "../pipeline/benchmark_rows.ts";
import { runsText } from "../report/runs_text.ts";
import { LOAD_OPTIONS, loadOptionsOf } from "./load_options.ts";

/** A benchmark command's own arguments, with the load options of its command line. */
interface WithLoad<Args> {
  own: Args;
  load: LoadOptions;
  data: string | null;
}

/**
 * `command` of `benchmark` as a {@link Command}: when it reads logs, its options gain the
 * shared load options and `--data`, and its `run` gets a loader of this benchmark's rows.
 */
export function asCommand<Args>(
  benchmark: Benchmark,
  command: BenchmarkCommand<Args>,
): Command<WithLoad<Args>> {
  const reads = command.logs !== "none";
  return {
    ...command,
    options: reads ? { data: DATA_OPTION, ...command.options, ...LOAD_OPTIONS } : command.options,
    parse: (parsed: ParsedArgs) => {
      const own = command.parse(parsed);
      if (typeof own === "string") return own;
      const data = (parsed.values.data as string | undefined) ?? null;
      return { own, data, load: reads ? loadOptionsOf(parsed.values) : {} };
    },
    run: async (args) => {
      let unread = 0;
      const load = async (request: BenchmarkLoadRequest) => {
        const runs = await loadFor(benchmark, args, request);
        for (const e of runs.errors) {
          printError(`runlens ${command.name}`, `${e.file}: ${e.reason}`);
        }
        unread += runs.errors.length;
        return runs;
      };
      const code = await command.run(args.own, load);
      // a file that could not be read is a data problem, whatever the command made of the rest
      return code === 0 && unread > 0 ? 1 : code;
    },
  };
}

/** Load `request.paths` through the pipeline, keeping `benchmark`'s rows (and `request.with`'s). */
async function loadFor<Args>(
  benchmark: Benchmark,
  args: WithLoad<Args>,
  request: BenchmarkLoadRequest,
): Promise<BenchmarkRuns> {
  const others = (request.with ?? []).map((name) => getBenchmark(name)!);
  const options: LoadOptions = {
    ...args.load,
    benchmarks: [benchmark, ...others].map((b) => b.name),
  };
  if (request.scorer !== undefined) {
    options.scorers = { ...options.scorers, [benchmark.name]: request.scorer };
  }
  if (request.scorerHint !== undefined) {
    options.scorerHints = { [benchmark.name]: request.scorerHint };
  }
  if (request.unscored !== undefined) options.unscored = request.unscored;
  const dataDir = resolveDataDir(args.data);
  const loaded = await loadRuns([...request.paths], dataDir, options);
  return {
    ...benchmarkRuns(loaded, benchmark.name, others.map((b) => b.name), dataDir),
    summaryText: runsText(loaded),
  };
}

/** The URL of each benchmark command, by its word, in the registry's order. */
export function benchmarkCommandUrls(): Map<string, { benchmark: Benchmark; url: string }> {
  const out = new Map<string, { benchmark: Benchmark; url: string }>();
  for (const benchmark of benchmarks()) {
    for (const [word, url] of Object.entries(benchmark.commands ?? {})) {
      if (out.has(word)) {
        throw new Error(
          `runlens ${word}: a command of ${out.get(word)!.benchmark.name} and ` +
            `of ${benchmark.name}`,
        );
      }
      out.set(word, { benchmark, url });
    }
  }
  return out;
}

/** Each benchmark command once made: a word names one command, as a built-in's does. */
const loadedCommands = new Map<string, Command<unknown>>();

/** Load the benchmark command `word` (undefined: none has it). */
export async function loadBenchmarkCommand(
  word: string,
): Promise<Command<unknown> | undefined> {
  const entry = benchmarkCommandUrls().get(word);
  if (!entry) return undefined;
  if (!loadedCommands.has(word)) {
    const command = (await import(entry.url)).command as BenchmarkCommand<unknown>;
    loadedCommands.set(word, asCommand(entry.benchmark, command) as Command<unknown>);
  }
  return loadedCommands.get(word);
}

/** Every benchmark command, loaded, in the registry's order. */
export async function benchmarkCommands(): Promise<Command<unknown>[]> {
  const words = [...benchmarkCommandUrls().keys()];
  return (await Promise.all(words.map(loadBenchmarkCommand))) as Command<unknown>[];
}
