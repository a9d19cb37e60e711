/**
 * `deno task bench`: the speed targets of issue 13, measured as whole processes (startup
 * included) side by side on one log — a generated canonical JSONL file (`--format canonical`)
 * or an lm-evaluation-harness samples folder (default; `lib/bench/generate.ts`, under
 * `.runlens/bench/`, reused when present, or `--file PATH`):
 * - the plain Python reference of the same job (`lib/bench/reference_score.py`: `json.loads`
 *   per line, the official BBEH rules, per-task counts);
 * - `runlens score PATH --json --no-cache --workers N` for each N of `--workers` (default 1,2);
 * - the first load that writes the cache (`--cache` in a fresh folder, every core), then the
 *   same command again: re-analysis from the cache;
 * - `runlens score` of a one-line log: the fixed cost of starting (Deno, polars, the data-set
 *   index).
 *
 * Wall time comes from the parent, peak RSS from `/usr/bin/time -v` when present, else from
 * polling `/proc/<pid>/status` (VmHWM); with `--repeat K` each process runs K times and the
 * median is reported. Every runlens process must agree exactly with the reference on every
 * run's per-task `n` and `correct` (and on the rounded harmonic mean). Prints a Markdown report
 * (also written to `.runlens/bench/result_<log>.md`): the measurements, the targets (first load
 * ≥ 3× faster than the reference, re-analysis ≥ 8×, peak RSS ≤ 0.5× the log size) and a
 * scaling model fitted to the measurements — time = startup + serial bytes / rate + parallel
 * bytes / (rate × workers) — extrapolated to 8 and 16 cores and to a 10 GB log set. Exit code 1
 * when a process fails or disagrees (missed targets are only reported).
 *
 * Usage: `deno task bench [--mb N | --rows N] [--seed S] [--format lm-eval|canonical]
 * [--response-chars MIN-MAX] [--file PATH] [--data DIR] [--python BIN] [--workers 1,2]
 * [--repeat K] [--profile]`; `--profile` also runs `lib/bench/profile.ts` (canonical logs).
 *
 * @example
 * ```sh
 * deno task bench --format canonical --rows 1000000 --response-chars 330-930 --data ../shared/data
 * deno task bench --mb 1000 --data ../shared/data
 * ```
 * @module
 */
import { basename, join } from "node:path";
import { resolveDataDir } from "../core/data_dir.ts";
import { type Command, runCommand, UsageError } from "../core/command.ts";
import {
  GENERATE_OPTIONS,
  generateLog,
  type GenerateOptions,
  generateOptionsOf,
} from "./generate.ts";
import { generateLmEvalLogs } from "./generate_lm_eval.ts";
import { logFiles } from "./log_files.ts";

/** Wall time and peak memory of one process. */
export interface Measurement {
  label: string;
  seconds: number;
  /** Peak resident set size, bytes. */
  peakRss: number;
  /** User + system CPU time, seconds (from /usr/bin/time; NaN without it). */
  cpuSeconds: number;
  stdout: string;
  stderr: string;
  code: number;
}

const BENCH_DIR = join(".runlens", "bench");
const TIME = "/usr/bin/time";

function fileExists(path: string): boolean {
  try {
    return Deno.statSync(path).isFile;
  } catch {
    return false;
  }
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Peak RSS (bytes) of a running process, polled from /proc until it exits. */
async function pollPeak(pid: number, done: { value: boolean }): Promise<number> {
  let peak = 0;
  while (!done.value) {
    try {
      const status = await Deno.readTextFile(`/proc/${pid}/status`);
      const m = /VmHWM:\s+(\d+) kB/.exec(status);
      if (m) peak = Math.max(peak, Number(m[1]) * 1024);
    } catch {
      break;
    }
    await new Promise((r) => setTimeout(r, 20));
  }
  return peak;
}

/** Run `cmd args` as a whole process; measure wall time and peak RSS. */
export async function measure(label: string, cmd: string, args: string[]): Promise<Measurement> {
  console.error(`bench: running (${label}) ${cmd} ${args.join(" ")}`);
  const useTime = fileExists(TIME);
  const timeOut = useTime ? await Deno.makeTempFile({ prefix: "runlens_bench_time_" }) : "";
  const argv = useTime ? ["-v", "-o", timeOut, cmd, ...args] : args;
  const t0 = performance.now();
  const child = new Deno.Command(useTime ? TIME : cmd, {
    args: argv,
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const done = { value: false };
  const polled = useTime ? Promise.resolve(0) : pollPeak(child.pid, done);
  const out = await child.output();
  const seconds = (performance.now() - t0) / 1000;
  done.value = true;
  let peakRss = await polled;
  let cpuSeconds = NaN;
  if (useTime) {
    const report = await Deno.readTextFile(timeOut);
    await Deno.remove(timeOut);
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(report);
    peakRss = m ? Number(m[1]) * 1024 : 0;
    const cpu = (what: string) =>
      Number(new RegExp(`${what} time \\(seconds\\): ([\\d.]+)`).exec(report)?.[1] ?? NaN);
    cpuSeconds = cpu("User") + cpu("System");
  }
  const dec = new TextDecoder();
  const m: Measurement = {
    label,
    seconds,
    peakRss,
    cpuSeconds,
    stdout: dec.decode(out.stdout),
    stderr: dec.decode(out.stderr),
    code: out.code,
  };
  console.error(
    `bench:   ${seconds.toFixed(2)} s, peak RSS ${(peakRss / 1e6).toFixed(0)} MB, exit ${m.code}`,
  );
  if (m.code !== 0) console.error(m.stderr.slice(-2000));
  return m;
}

export interface TaskCounts {
  n: number;
  correct: number;
}

export interface RunCounts {
  tasks: Record<string, TaskCounts>;
  harmonic_mean: number | null;
  skipped: number;
}

/** Per run, the per-task counts of `runlens score --json`. */
export function runlensCounts(json: string): Map<string, RunCounts> {
  const report = JSON.parse(json) as {
    runs: {
      run: string;
      rows_quarantined: number;
      tasks: Record<string, TaskCounts>;
      aggregate: { harmonic_mean: number | null };
    }[];
  };
  return new Map(report.runs.map((r) => [r.run, {
    tasks: r.tasks,
    harmonic_mean: r.aggregate.harmonic_mean,
    skipped: r.rows_quarantined,
  }]));
}

/** Per run, the per-task counts of the Python reference. */
export function referenceCounts(json: string): Map<string, RunCounts> {
  const report = JSON.parse(json) as {
    runs: {
      run: string;
      rows_skipped: number;
      tasks: Record<string, TaskCounts>;
      harmonic_mean: number | null;
    }[];
  };
  return new Map(report.runs.map((r) => [r.run, {
    tasks: r.tasks,
    harmonic_mean: r.harmonic_mean === null ? null : Math.round(r.harmonic_mean * 100) / 100,
    skipped: r.rows_skipped,
  }]));
}

/**
 * Differences between two per-run count maps (empty: exact agreement on every run and task).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const counts = (correct: number) => ({
 *   tasks: { nycc: { n: 10, correct } },
 *   harmonic_mean: 12.5,
 *   skipped: 0,
 * });
 * const b = new Map([["r1", counts(4)]]);
 * const c = new Map([["r1", counts(5)]]);
 * assert.deepEqual(compareCounts(b, b), []);
 * assert.deepEqual(compareCounts(b, c), ["run r1 task nycc: (b) 4/10 vs (c) 5/10"]);
 * ```
 */
export function compareCounts(b: Map<string, RunCounts>, c: Map<string, RunCounts>): string[] {
  const diffs: string[] = [];
  for (const run of new Set([...b.keys(), ...c.keys()])) {
    const x = b.get(run);
    const y = c.get(run);
    if (!x || !y) {
      diffs.push(`run ${run}: only in ${x ? "(b)" : "(c)"}`);
      continue;
    }
    if (x.skipped !== y.skipped) diffs.push(`run ${run}: skipped ${x.skipped} vs ${y.skipped}`);
    for (const task of new Set([...Object.keys(x.tasks), ...Object.keys(y.tasks)])) {
      const p = x.tasks[task];
      const q = y.tasks[task];
      if (!p || !q || p.n !== q.n || p.correct !== q.correct) {
        diffs.push(
          `run ${run} task ${task}: (b) ${p?.correct}/${p?.n} vs (c) ${q?.correct}/${q?.n}`,
        );
      }
    }
    if (
      (x.harmonic_mean === null) !== (y.harmonic_mean === null) ||
      Math.abs((x.harmonic_mean ?? 0) - (y.harmonic_mean ?? 0)) > 0.0051
    ) {
      diffs.push(`run ${run}: harmonic mean ${x.harmonic_mean} vs ${y.harmonic_mean}`);
    }
  }
  return diffs;
}

interface Options {
  /** The log to generate when no --file is given. */
  gen: GenerateOptions;
  file: string | null;
  data: string;
  python: string;
  workers: number[];
  repeat: number;
  profile: boolean;
  /** Also measure design (c) of issue 26, the counting prototype (`lib/bench/counts/`). */
  counts: boolean;
}

/** The Python that runs the reference (Debian's, which sees Debian's packages). */
const PYTHON = fileExists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";

/** `deno task bench`. */
export const benchCommand: Command<Options> = {
  name: "bench",
  invocation: "deno task bench",
  summary: "Measure runlens score against the plain Python reference on one large log, as " +
    "whole processes (the speed targets of issue 13).",
  usage: "[--mb N | --rows N] [--format lm-eval|canonical] [--file PATH] [--workers 1,2] " +
    "[--repeat K] [--profile] [options]",
  description: "The log is generated (lib/bench/generate.ts, under .runlens/bench/, reused " +
    "when present) unless --file names one. Measured: the Python reference, runlens score " +
    "--no-cache for each --workers count, the first load that writes the cache and the " +
    "re-analysis that reads it, and runlens on a one-line log (the fixed cost of starting). " +
    "Every runlens process must agree exactly with the reference on each run's per-task n and " +
    "correct.",
  options: {
    ...GENERATE_OPTIONS,
    file: {
      type: "string",
      value: "PATH",
      description: "measure this log (file or folder) instead of generating one",
      default: "the generated log",
    },
    python: { type: "string", value: "BIN", description: "the Python to run", default: PYTHON },
    workers: {
      type: "string",
      value: "N,…",
      description: "the Worker counts to measure",
      default: "1,2",
    },
    repeat: {
      type: "string",
      value: "K",
      description: "run each process K times and report the median",
      default: "1",
    },
    profile: {
      type: "boolean",
      description: "also run lib/bench/profile.ts on the log (canonical logs)",
    },
    counts: {
      type: "boolean",
      description: "also measure the counting prototype (issue 26, design (c): " +
        "lib/bench/counts/score_counts.ts) with the most --workers, as is and with a garbage " +
        "collection after each unit",
    },
  },
  prints: "A Markdown report on stdout, also written to .runlens/bench/result_<log>.md: the " +
    "measurements (wall time, peak RSS), the targets (first load ≥ 3× faster than the " +
    "reference, re-analysis ≥ 8×, peak RSS ≤ 0.5× the log size) and a scaling model " +
    "extrapolated to 8 and 16 cores and a 10 GB log set; progress on stderr.",
  examples: [
    "deno task bench --format canonical --rows 1000000 --response-chars 330-930 " +
    "--data ../shared/data",
    "deno task bench --mb 1000 --data ../shared/data",
  ],
  failure: "a process failed or disagreed with the reference (a missed target is only reported)",
  parse: ({ values, positionals }) => {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${positionals[0]}`);
    const text = (key: string) => values[key] as string | undefined;
    const opts: Options = {
      gen: generateOptionsOf(values),
      file: text("file") ?? null,
      data: resolveDataDir(text("data")),
      python: text("python") ?? PYTHON,
      workers: (text("workers") ?? "1,2").split(",").map(Number),
      repeat: Number(text("repeat") ?? 1),
      profile: values.profile === true,
      counts: values.counts === true,
    };
    if (opts.workers.some((w) => !(w >= 1)) || !(opts.repeat >= 1)) {
      throw new UsageError("--workers takes counts ≥ 1 (e.g. 1,2), --repeat a count ≥ 1");
    }
    return opts;
  },
  run: benchRun,
};

const lastLine = (text: string) => text.trim().split("\n").at(-1) ?? "";
const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
const ok = (pass: boolean) => pass ? "met" : "MISSED";

/** The log to measure: `--file`, else the generated log (generated unless it exists). */
async function benchLog(opts: Options): Promise<string> {
  if (opts.file !== null) return opts.file;
  const gen = opts.gen;
  if (exists(gen.out)) console.error(`bench: reusing ${gen.out}`);
  else {
    console.error(`bench: generating ${gen.out} …`);
    const r = await (gen.format === "lm-eval" ? generateLmEvalLogs : generateLog)(gen);
    console.error(`bench: ${r.rows} rows, ${r.runs} runs, ${mb(r.bytes)} MB`);
  }
  return gen.out;
}

/** `measure` run `repeat` times; the run of median wall time (its RSS and output with it). */
async function median(
  repeat: number,
  label: string,
  cmd: string,
  args: () => string[],
): Promise<Measurement> {
  const runs: Measurement[] = [];
  for (let i = 0; i < repeat; i++) runs.push(await measure(label, cmd, args()));
  runs.sort((a, b) => a.seconds - b.seconds);
  return runs[Math.floor((runs.length - 1) / 2)];
}

/** The processes measured, by role. */
interface Measured {
  reference: Measurement;
  startup: Measurement;
  byWorkers: Measurement[];
  /** The worker count of each of `byWorkers`. */
  workers: number[];
  firstLoad: Measurement;
  fromCache: Measurement;
  /** `--counts`: the counting prototype, as is and collecting after each unit. */
  designs: Measurement[];
}

/**
 * The argv of `deno task runlens score PATH --json` with `extra` options: the command the
 * README gives users, task runner and its `deno install` check included.
 */
function scoreArgs(path: string, data: string, extra: string[]): string[] {
  return [
    "task",
    "--quiet",
    "runlens",
    "score",
    path,
    "--data",
    data,
    "--json",
    ...extra,
  ];
}

/** A one-line canonical log (the startup measurement), in a temporary folder. */
function oneLineLog(): string {
  const dir = Deno.makeTempDirSync({ prefix: "runlens_bench_one_" });
  const path = join(dir, "one.jsonl");
  Deno.writeTextFileSync(
    path,
    JSON.stringify({ task: "nycc", example_index: 0, response: "(A)" }) + "\n",
  );
  return path;
}

/** Measure every process of the benchmark on `file`, in turn. */
async function measureAll(file: string, opts: Options): Promise<Measured> {
  const deno = Deno.execPath();
  const { repeat, data } = opts;
  const reference = await median(repeat, "Python reference", opts.python, () => [
    "lib/bench/reference_score.py",
    data,
    file,
  ]);
  const one = oneLineLog();
  const startup = await median(
    repeat,
    "runlens on a one-line log",
    deno,
    () => scoreArgs(one, data, ["--no-cache"]),
  );
  const byWorkers: Measurement[] = [];
  for (const w of opts.workers) {
    byWorkers.push(
      await median(
        repeat,
        `runlens --no-cache --workers ${w}`,
        deno,
        () => scoreArgs(file, data, ["--no-cache", "--workers", String(w)]),
      ),
    );
  }
  const cache = () => Deno.makeTempDirSync({ prefix: "runlens_bench_cache_" });
  let dir = "";
  const firstLoad = await median(
    repeat,
    "runlens first load (writes the cache)",
    deno,
    () => scoreArgs(file, data, ["--cache", dir = cache()]),
  );
  const fromCache = await median(
    repeat,
    "runlens re-analysis (reads the cache)",
    deno,
    () => scoreArgs(file, data, ["--cache", dir]),
  );
  const designs = opts.counts ? await measureCounts(file, opts) : [];
  return { reference, startup, byWorkers, workers: opts.workers, firstLoad, fromCache, designs };
}

/**
 * The counting prototype (issue 26, design (c)) on `file` with the most workers, run as
 * `deno task runlens` runs (glibc arenas, V8 semi-space), as is and with `--expose-gc` (its
 * Workers then collect after each unit).
 */
async function measureCounts(file: string, opts: Options): Promise<Measurement[]> {
  const workers = String(Math.max(...opts.workers));
  const run = (flags: string) => () => [
    "MALLOC_ARENA_MAX=2",
    Deno.execPath(),
    "run",
    "--allow-all",
    `--v8-flags=${flags}`,
    "--node-modules-dir=manual",
    "lib/bench/counts/score_counts.ts",
    file,
    "--data",
    opts.data,
    "--workers",
    workers,
  ];
  const label = `design (c): counts in ${workers} Workers, no frame`;
  return [
    await median(opts.repeat, label, "env", run("--max-semi-space-size=8")),
    await median(
      opts.repeat,
      `${label}, a GC after each unit`,
      "env",
      run("--max-semi-space-size=8,--expose-gc"),
    ),
  ];
}

/**
 * The fitted scaling model: `startup + bytes × (serial + parallel / workers)` seconds, from
 * the startup run and the runs with the fewest and most workers (per-byte costs in s/byte).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * // 1 s to start, 1 GB: 9 s of parallel and 2 s of serial work per GB
 * const m = scalingModel(1, 1e9, [{ workers: 1, seconds: 12 }, { workers: 2, seconds: 7.5 }]);
 * assert.ok(Math.abs(m.parallel * 1e9 - 9) < 1e-9 && Math.abs(m.serial * 1e9 - 2) < 1e-9);
 * assert.ok(Math.abs(predict(m, 1e9, 8) - (1 + 2 + 9 / 8)) < 1e-9);
 * ```
 */
export function scalingModel(
  startup: number,
  bytes: number,
  runs: readonly { workers: number; seconds: number }[],
): { startup: number; serial: number; parallel: number } {
  const lo = runs.reduce((a, b) => (b.workers < a.workers ? b : a));
  const hi = runs.reduce((a, b) => (b.workers > a.workers ? b : a));
  if (lo.workers === hi.workers) {
    return { startup, serial: 0, parallel: Math.max(0, lo.seconds - startup) * lo.workers / bytes };
  }
  // t = startup + bytes·serial + bytes·parallel/w at both worker counts: two equations
  const parallel = (lo.seconds - hi.seconds) / (1 / lo.workers - 1 / hi.workers) / bytes;
  const serial = Math.max(0, (lo.seconds - startup) / bytes - parallel / lo.workers);
  return { startup, serial, parallel: Math.max(0, parallel) };
}

/** Seconds the scaling model predicts for `bytes` on `workers` cores. */
export function predict(
  m: { startup: number; serial: number; parallel: number },
  bytes: number,
  workers: number,
): number {
  return m.startup + bytes * (m.serial + m.parallel / workers);
}

/** Every process measured, in the table's order. */
const measuredProcesses = (ms: Measured) => [
  ms.reference,
  ms.startup,
  ...ms.byWorkers,
  ms.firstLoad,
  ms.fromCache,
  ...ms.designs,
];

/** The rows of the measurement table (`rows`: records in the log, for CPU per record). */
function measurementRows(ms: Measured, bytes: number, rows: number): string[] {
  return measuredProcesses(ms).map((m) =>
    `| ${m.label} | ${m.seconds.toFixed(2)} | ${m.cpuSeconds.toFixed(2)} | ` +
    `${m === ms.startup ? "–" : (m.cpuSeconds * 1e6 / rows).toFixed(2)} | ${mb(m.peakRss)} | ` +
    `${(m.peakRss / bytes).toFixed(2)}× | ${(ms.reference.seconds / m.seconds).toFixed(2)}× |`
  );
}

/** The report as Markdown. */
function markdown(file: string, bytes: number, rows: number, ms: Measured, agree: boolean): string {
  const ref = ms.reference.seconds;
  const first = Math.min(ms.firstLoad.seconds, ...ms.byWorkers.map((m) => m.seconds));
  const firstRss = Math.max(ms.firstLoad.peakRss, ...ms.byWorkers.map((m) => m.peakRss));
  const model = scalingModel(
    ms.startup.seconds,
    bytes,
    ms.byWorkers.map((m, i) => ({ workers: ms.workers[i], seconds: m.seconds })),
  );
  const rate = (w: number) => (bytes / predict(model, bytes, w) / 1e6).toFixed(0);
  const tenGb = (w: number) => predict(model, 10e9, w).toFixed(0);
  return [
    `Benchmark: ${rows.toLocaleString("en")} rows, ${mb(bytes)} MB in ${logFiles(file).length} ` +
    `file(s) (${file.split("/").at(-1)}), ${navigator.hardwareConcurrency} CPUs, load average ` +
    `${Deno.loadavg()[0].toFixed(1)} at the end, ${new Date().toISOString().slice(0, 10)}. ` +
    `Whole processes, startup included; every runlens process gave the reference's per-task ` +
    `counts: ${agree ? "yes" : "NO"}.`,
    "",
    "| process | wall (s) | CPU (s) | CPU µs / record | peak RSS (MB) | RSS / log size | " +
    "wall speed-up vs reference |",
    "|---|---:|---:|---:|---:|---:|---:|",
    ...measurementRows(ms, bytes, rows),
    ...ms.designs.length > 0
      ? [
        "",
        "Design (c) rows: the counting prototype of issue 26 (lib/bench/counts/), per-task " +
        "counts and the harmonic mean only (no frame, cache, intervals or advice); not judged " +
        "against the targets below, which are runlens score's.",
      ]
      : [],
    "",
    "| target | measured | |",
    "|---|---:|---|",
    `| first load ≥ 3× faster than the reference | ${(ref / first).toFixed(2)}× | ${
      ok(ref >= 3 * first)
    } |`,
    `| re-analysis from the cache ≥ 8× faster | ${(ref / ms.fromCache.seconds).toFixed(2)}× | ` +
    `${ok(ref >= 8 * ms.fromCache.seconds)} |`,
    `| peak RSS ≤ 0.5× the log size | ${(firstRss / bytes).toFixed(2)}× | ${
      ok(firstRss <= bytes / 2)
    } |`,
    "",
    `Scaling model fitted to these runs: startup ${model.startup.toFixed(2)} s, serial ` +
    `${(model.serial * 1e9).toFixed(2)} s/GB, parallel ${(model.parallel * 1e9).toFixed(2)} s/GB ` +
    `per worker. Predicted first load (no cache) of this log: 8 cores ` +
    `${predict(model, bytes, 8).toFixed(1)} s (${rate(8)} MB/s), 16 cores ` +
    `${predict(model, bytes, 16).toFixed(1)} s (${rate(16)} MB/s); of a 10 GB log set: ` +
    `2 cores ${tenGb(2)} s, 8 cores ${tenGb(8)} s, 16 cores ${tenGb(16)} s.`,
  ].join("\n") + "\n";
}

/** The report when a process failed: each failure's last stderr line, then every timing. */
function failureMarkdown(file: string, bytes: number, ms: Measurement[]): string {
  const failed = ms.filter((m) => m.code !== 0);
  return `Benchmark on ${file.split("/").at(-1)} (${mb(bytes)} MB): ` +
    failed.map((m) => `${m.label} failed (exit ${m.code}): ${lastLine(m.stderr)}`).join("; ") +
    "\n\n" + ms.map((m) => `- ${m.label}: ${m.seconds.toFixed(2)} s, ${mb(m.peakRss)} MB`)
    .join("\n") + "\n";
}

/** Print the report and write it to `.runlens/bench/result_<log>.md`. */
async function writeResult(file: string, md: string): Promise<string> {
  console.log(md);
  await Deno.mkdir(BENCH_DIR, { recursive: true });
  const out = join(BENCH_DIR, `result_${basename(file).replace(/\.jsonl$/, "")}.md`);
  await Deno.writeTextFile(out, md);
  return out;
}

/** Rows scored or skipped over all runs of a runlens report. */
function totalRows(b: Map<string, RunCounts>): number {
  return [...b.values()].reduce(
    (s, r) => s + r.skipped + Object.values(r.tasks).reduce((t, x) => t + x.n, 0),
    0,
  );
}

/** `--profile`: the phase breakdown of a load, printed to stderr. */
async function profile(file: string, opts: Options): Promise<void> {
  const p = await measure("profile", Deno.execPath(), [
    "run",
    "--allow-all",
    "lib/bench/profile.ts",
    file,
    "--data",
    opts.data,
  ]);
  console.error(p.stderr);
}

/** Disagreements of every runlens process of `ms` with the reference. */
function disagreements(ms: Measured): string[] {
  const ref = referenceCounts(ms.reference.stdout);
  return [...ms.byWorkers, ms.firstLoad, ms.fromCache, ...ms.designs].flatMap((m) =>
    compareCounts(runlensCounts(m.stdout), ref).map((d) => `${m.label}: ${d}`)
  );
}

/** Run the benchmark; returns the exit code (1 when a process fails or disagrees). */
async function benchRun(opts: Options): Promise<number> {
  const file = await benchLog(opts);
  const bytes = logFiles(file).reduce((sum, f) => sum + Deno.statSync(f).size, 0);
  const ms = await measureAll(file, opts);
  const all = measuredProcesses(ms);
  if (all.some((m) => m.code !== 0)) {
    await writeResult(file, failureMarkdown(file, bytes, all));
    console.error("bench: a process failed; no comparison");
    return 1;
  }
  const diffs = disagreements(ms);
  for (const d of diffs.slice(0, 20)) console.error(`bench: DISAGREE ${d}`);
  const rows = totalRows(runlensCounts(ms.firstLoad.stdout));
  const out = await writeResult(file, markdown(file, bytes, rows, ms, diffs.length === 0));
  console.error(`bench: wrote ${out}`);
  if (opts.profile) await profile(file, opts);
  return diffs.length === 0 ? 0 : 1;
}

if (import.meta.main) Deno.exit(await runCommand(benchCommand, Deno.args));
