/**
 * Speed of the columnar cache (`lib/pipeline/cache.ts`) on a synthetic compact frame: wall
 * time of {@link writeCache} and of {@link readCache} for `--rows N` rows (default 1,000,000)
 * over `--runs R` runs (default 200, one log file each, 23 tasks, short extracted strings, as
 * a folder of BBEH runs gives), in a process that has already imported polars (as `runlens`
 * has when it reads the cache). Rows come one run after another, as files are read; with
 * `--interleaved` the runs alternate row by row (the worst case: the read must sort). Also
 * times fingerprinting `--files F` files of 150 KB (default 1,000; 0 skips it). The best of
 * `--repeat K` passes (default 5) is reported with every pass; the frame read back is checked
 * to equal the one written. Not a test: timings depend on the machine and its load.
 *
 * @example
 * ```sh
 * deno run --allow-all lib/bench/cache_speed.ts
 * deno run --allow-all lib/bench/cache_speed.ts --rows 200000 --interleaved --files 0
 * ```
 * @module
 */
import { join } from "node:path";
import { type Command, countOption, runCommand, UsageError } from "../core/command.ts";
import type pl from "nodejs-polars";
import { EMPTY_ROW, RowBuilder } from "../pipeline/compact.ts";
import { compactFrame } from "../pipeline/compact_frame.ts";
import { cacheInfo, fileFingerprint, loadKey, readCache, writeCache } from "../pipeline/cache.ts";

const TASKS = Array.from({ length: 23 }, (_, i) => `bbeh_task_${String(i).padStart(2, "0")}`);
const ANSWERS = ["(A)", "(B)", "(C)", "(D)", "yes", "no", "True", "False", "12", "3.5"];

/** A compact frame of `rows` rows over `runs` runs (one file each), from a seeded generator. */
export function syntheticFrame(rows: number, runs: number, interleaved: boolean): pl.DataFrame {
  const b = new RowBuilder();
  const perRun = Math.ceil(rows / runs);
  let seed = 42;
  const rand = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  for (let i = 0; i < rows; i++) {
    const r = interleaved ? i % runs : Math.floor(i / perRun);
    const k = interleaved ? Math.floor(i / runs) : i % perRun;
    const chars = 800 + Math.floor(rand() * 6000);
    b.add({
      ...EMPTY_ROW,
      file: r,
      line: k + 1,
      run: `model-${r % 40}_run${r}`,
      model: `model-${r % 40}`,
      benchmark: "bbeh",
      task: TASKS[k % 23],
      example: Math.floor(k / 23) % 200,
      epoch: 1 + Math.floor(k / 4600),
      correct: rand() < 0.4,
      extracted: rand() < 0.05 ? null : ANSWERS[Math.floor(rand() * ANSWERS.length)],
      scorer: "bbeh-official",
      chars,
      bytes: chars + Math.floor(rand() * 20),
      tokens: Math.floor(chars / 4),
      pointer: { kind: "span", offset: k * 7000 + 100, length: chars + 2 },
    });
  }
  const files = Array.from({ length: runs }, (_, r) => `runs/model-${r % 40}_run${r}.jsonl`);
  return compactFrame(b.finish(), files);
}

function time<T>(fn: () => T): [T, number] {
  const t0 = performance.now();
  const out = fn();
  return [out, (performance.now() - t0) / 1000];
}

const fmt = (s: number) => `${s.toFixed(3)} s`;

function fingerprintSpeed(files: number, repeat: number): void {
  const dir = Deno.makeTempDirSync({ prefix: "runlens_cache_speed_" });
  try {
    const bytes = new Uint8Array(150_000).map((_, i) => 32 + (i % 90));
    const paths = Array.from({ length: files }, (_, i) => join(dir, `f${i}.jsonl`));
    for (const p of paths) Deno.writeFileSync(p, bytes);
    const passes = Array.from(
      { length: repeat },
      () => time(() => loadKey(paths.map(fileFingerprint), { scorer: "bbeh-official" }))[1],
    );
    console.log(
      `fingerprint + key, ${files} files of 150 KB: best ${fmt(Math.min(...passes))} ` +
        `(passes: ${passes.map(fmt).join(", ")}; page cache warm)`,
    );
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** The command line of {@link cacheSpeedCommand}. */
interface CacheSpeedArgs {
  rows: number;
  runs: number;
  repeat: number;
  files: number;
  interleaved: boolean;
}

/** `lib/bench/cache_speed.ts`. */
export const cacheSpeedCommand: Command<CacheSpeedArgs> = {
  name: "cache-speed",
  invocation: "deno run --allow-all lib/bench/cache_speed.ts",
  summary: "Time writing and reading the columnar cache on a synthetic compact frame, and " +
    "fingerprinting files.",
  usage: "[--rows N] [--runs R] [--interleaved] [--files F] [--repeat K]",
  options: {
    rows: { type: "string", value: "N", description: "rows of the frame", default: "1000000" },
    runs: { type: "string", value: "R", description: "runs (one file each)", default: "200" },
    interleaved: {
      type: "boolean",
      description: "alternate the runs row by row (the worst case: the read must sort)",
    },
    files: {
      type: "string",
      value: "F",
      description: "files of 150 KB to fingerprint (0: skip)",
      default: "1000",
    },
    repeat: {
      type: "string",
      value: "K",
      description: "passes (the best is reported)",
      default: "5",
    },
  },
  prints: "The time to build the frame, then the best write and read times with every pass, " +
    "the entry's size, and the fingerprinting time. Not a test: timings depend on the machine.",
  examples: [
    "deno run --allow-all lib/bench/cache_speed.ts",
    "deno run --allow-all lib/bench/cache_speed.ts --rows 200000 --interleaved --files 0",
  ],
  failure: "the frame read back differs from the one written, or the cache cannot be written",
  parse: ({ values, positionals }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    return {
      rows: countOption(values, "rows", 1_000_000),
      runs: countOption(values, "runs", 200),
      repeat: countOption(values, "repeat", 5),
      files: countOption(values, "files", 1_000, 0),
      interleaved: values.interleaved === true,
    };
  },
  run: ({ rows, runs, repeat, files, interleaved }) => {
    const [frame, built] = time(() => syntheticFrame(rows, runs, interleaved));
    console.log(
      `${rows.toLocaleString("en-US")} rows, ${runs} runs${interleaved ? " (interleaved)" : ""}: ` +
        `frame built in ${fmt(built)}`,
    );
    const dir = Deno.makeTempDirSync({ prefix: "runlens_cache_speed_" });
    try {
      const writes: number[] = [], reads: number[] = [];
      for (let pass = 0; pass < repeat; pass++) {
        const key = loadKey([], { pass });
        const load = { frame, quarantine: [], meta: null, fingerprints: [], settings: { pass } };
        const [written, w] = time(() => writeCache(dir, key, load));
        if (written.path === null) throw new Error(written.reason);
        const [read, r] = time(() => readCache(dir, key));
        if (read.load === null) throw new Error(read.reason);
        if (pass === 0 && !read.load.frame.frameEqual(frame, true)) throw new Error("not equal");
        writes.push(w);
        reads.push(r);
      }
      const entry = cacheInfo(dir).entries[0];
      console.log(
        `write: best ${fmt(Math.min(...writes))} (passes: ${writes.map(fmt).join(", ")})`,
      );
      console.log(`read:  best ${fmt(Math.min(...reads))} (passes: ${reads.map(fmt).join(", ")})`);
      console.log(`one entry: ${(entry.bytes / 1e6).toFixed(1)} MB; the frame read back equals it`);
    } finally {
      Deno.removeSync(dir, { recursive: true });
    }
    if (files > 0) fingerprintSpeed(files, repeat);
    return 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(cacheSpeedCommand, Deno.args));
