/**
 * Speed of the streaming path's line sources alone (`lib/logs/sources/`): read every log file
 * under PATH (each file one byte range, or `--ranges N` ranges) on ONE thread through its
 * source into a sink that only counts (or, `--decode`, decodes every response, as scoring
 * must), and print MB/s. The format is `lm-eval` for `samples_*` files, else
 * `canonical-jsonl`. The best of `--repeat` passes (default 3) is reported, after one warm-up
 * pass; wall time and the process's CPU time (user + system, less sensitive to other load on
 * the machine) are both given.
 *
 * @example
 * ```sh
 * deno task bench --mb 200   # writes .runlens/bench/… (or use lib/bench/generate_lm_eval.ts)
 * deno run --allow-all lib/bench/source_speed.ts .runlens/bench/lm_eval_200mb_s20250301 --decode
 * ```
 * @module
 */
import { basename } from "node:path";
import { cpuUsage } from "node:process";
import { type Command, countOption, runCommand } from "../core/command.ts";
import { logFiles } from "./log_files.ts";
import { DEFAULT_LIMITS } from "../logs/limits.ts";
import { isSpan, type LogRecord } from "../logs/record.ts";
import { SOURCES } from "../logs/sources/registry.ts";
import type { BadRecord, LineSource, SourceFile } from "../logs/sources/types.ts";

/** The command line of {@link sourceSpeedCommand}. */
interface SourceSpeedArgs {
  path: string;
  decode: boolean;
  ranges: number;
  repeat: number;
}

/** `lib/bench/source_speed.ts`. */
export const sourceSpeedCommand: Command<SourceSpeedArgs> = {
  name: "source-speed",
  invocation: "deno run --allow-all lib/bench/source_speed.ts",
  summary: "Read every log file under PATH through its line source on one thread and print " +
    "MB/s (lm-eval for samples_* files, else canonical JSONL).",
  usage: "<path> [--decode] [--ranges N] [--repeat K]",
  arguments: { path: "a log file or a folder of them" },
  options: {
    decode: { type: "boolean", description: "decode every response, as scoring must" },
    ranges: {
      type: "string",
      value: "N",
      description: "byte ranges per file, each read on its own",
      default: "1",
    },
    repeat: {
      type: "string",
      value: "K",
      description: "passes after one warm-up (the best is reported)",
      default: "3",
    },
  },
  prints: "One line: files, MB, records, bad records, the best wall time and MB/s, and the " +
    "process's CPU time. Not a test: timings depend on the machine.",
  examples: [
    "deno run --allow-all lib/bench/source_speed.ts .runlens/bench/lmeval_200mb_s20250301 --decode",
  ],
  failure: "a file cannot be read",
  parse: ({ values, positionals }) => {
    if (positionals.length !== 1) return "give one PATH";
    return {
      path: positionals[0],
      decode: values.decode === true,
      ranges: countOption(values, "ranges", 1),
      repeat: countOption(values, "repeat", 3),
    };
  },
  run: ({ path, decode, ranges, repeat }) => {
    const files: SourceFile[] = logFiles(path).map((p, id) => {
      const name = basename(p);
      return {
        id,
        path: p,
        name: p,
        format: name.startsWith("samples_") ? "lm-eval" : "canonical-jsonl",
        gzip: false,
        defaultRun: name.replace(/\.[^.]*$/, ""),
        size: Deno.statSync(p).size,
      };
    });
    const bytes = files.reduce((s, f) => s + f.size, 0);
    let records = 0, bad = 0, chars = 0;
    const sink = {
      record: (r: LogRecord) => {
        records++;
        if (decode) chars += isSpan(r.response) ? r.response.text().length : 0;
      },
      bad: (_: BadRecord) => void bad++,
    };
    const pass = () => {
      records = bad = chars = 0;
      const c0 = cpuUsage();
      const t0 = performance.now();
      for (const f of files) {
        const source = SOURCES[f.format] as LineSource;
        for (let k = 0; k < ranges; k++) {
          const start = Math.floor((f.size * k) / ranges);
          const end = Math.floor((f.size * (k + 1)) / ranges);
          source.readRange(f, start, end, sink, DEFAULT_LIMITS);
        }
      }
      const cpu = cpuUsage(c0);
      return { wall: (performance.now() - t0) / 1000, cpu: (cpu.user + cpu.system) / 1e6 };
    };
    pass(); // warm-up
    let best = Infinity, bestCpu = Infinity;
    for (let i = 0; i < repeat; i++) {
      const t = pass();
      best = Math.min(best, t.wall);
      bestCpu = Math.min(bestCpu, t.cpu);
    }
    console.log(
      `${files.length} file(s), ${(bytes / 1e6).toFixed(0)} MB, ${records} records, ${bad} bad` +
        `${decode ? `, ${(chars / 1e6).toFixed(0)} M response chars decoded` : ""}: ` +
        `${best.toFixed(2)} s, ${(bytes / 1e6 / best).toFixed(0)} MB/s on one thread ` +
        `(CPU ${bestCpu.toFixed(2)} s, ${(bytes / 1e6 / bestCpu).toFixed(0)} MB per CPU second)`,
    );
    return 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(sourceSpeedCommand, Deno.args));
