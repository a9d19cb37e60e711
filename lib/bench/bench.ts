/**
 * `deno task bench`: how runlens scales on large run logs. Generates (or reuses) big
 * lm-evaluation-harness samples folders (default) or one canonical JSONL log
 * (`lib/bench/generate.ts`, under `.runlens/bench/`) and measures, as whole processes (startup
 * included), side by side:
 * - (a) polars' raw read of the file(s) (`lib/bench/raw_scan.ts`), the floor;
 * - (b) `runlens score PATH --json` (load + BBEH scoring + aggregation);
 * - (c) a plain Python reference of the same job (`lib/bench/reference_score.py`).
 *
 * Wall time comes from the parent, peak RSS from `/usr/bin/time -v` when present, else from
 * polling `/proc/<pid>/status` (VmHWM). Checks that (b) and (c) agree exactly on every run's
 * per-task `n` and `correct` (and on the rounded harmonic mean), then prints a table with the
 * ratios against the targets — (b) ≤ 2× (a), (b) ≥ 3× faster than (c), peak RSS of (b) ≤ 2×
 * the file size — and writes it as Markdown to `.runlens/bench/result.md`. Progress goes to
 * stderr. Exit code 1 when (b) and (c) disagree or a process fails (missed targets are only
 * reported).
 *
 * Usage: `deno task bench [--mb N | --rows N] [--seed S] [--format lm-eval|canonical]
 * [--file PATH] [--data DIR] [--python BIN] [--profile]`; `--profile` also runs
 * `lib/bench/profile.ts` for a phase breakdown of (b).
 *
 * @example
 * ```sh
 * deno task bench --mb 200 --data ../shared/data --profile
 * ```
 * @module
 */
import { join } from "node:path";
import { resolveDataDir } from "../core/data_dir.ts";
import { generateLog, parseGenerateArgs } from "./generate.ts";
import { generateLmEvalLogs } from "./generate_lm_eval.ts";
import { logFiles } from "./log_files.ts";

/** Wall time and peak memory of one process. */
export interface Measurement {
  label: string;
  seconds: number;
  /** Peak resident set size, bytes. */
  peakRss: number;
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
  if (useTime) {
    const report = await Deno.readTextFile(timeOut);
    await Deno.remove(timeOut);
    const m = /Maximum resident set size \(kbytes\): (\d+)/.exec(report);
    peakRss = m ? Number(m[1]) * 1024 : 0;
  }
  const dec = new TextDecoder();
  const m: Measurement = {
    label,
    seconds,
    peakRss,
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
  genArgs: string[];
  file: string | null;
  data: string;
  python: string;
  profile: boolean;
}

function parseArgs(args: readonly string[]): Options {
  const opts: Options = {
    genArgs: [],
    file: null,
    data: "",
    python: fileExists("/usr/bin/python3") ? "/usr/bin/python3" : "python3",
    profile: false,
  };
  let data: string | null = null;
  for (let i = 0; i < args.length; i++) {
    const flag = args[i];
    if (flag === "--profile") opts.profile = true;
    else if (["--mb", "--rows", "--seed", "--wrong", "--format"].includes(flag)) {
      opts.genArgs.push(flag, args[++i]);
    } else if (flag === "--file") opts.file = args[++i];
    else if (flag === "--data") data = args[++i];
    else if (flag === "--python") opts.python = args[++i];
    else throw new Error(`unknown option ${flag}`);
  }
  opts.data = resolveDataDir(data);
  return opts;
}

const lastLine = (text: string) => text.trim().split("\n").at(-1) ?? "";
const mb = (bytes: number) => (bytes / 1e6).toFixed(0);
const ok = (pass: boolean) => pass ? "met" : "MISSED";

/** The result table as Markdown. */
function markdown(
  file: string,
  bytes: number,
  rows: number,
  ms: Measurement[],
  agree: boolean,
): string {
  const [a, b, c] = ms;
  const lines = [
    `Benchmark: \`runlens score --json\` on generated logs of ${rows.toLocaleString("en")} ` +
    `rows, ${mb(bytes)} MB in ${logFiles(file).length} file(s) (${file.split("/").at(-1)}), ` +
    `${navigator.hardwareConcurrency} CPUs, ` +
    `${new Date().toISOString().slice(0, 10)}. Whole processes, startup included.`,
    "",
    "| process | wall time (s) | peak RSS (MB) | RSS / file size |",
    "|---|---:|---:|---:|",
    ...ms.map((m) =>
      `| ${m.label} | ${m.seconds.toFixed(2)} | ${mb(m.peakRss)} | ` +
      `${(m.peakRss / bytes).toFixed(2)}× |`
    ),
    "",
    "| target | measured | |",
    "|---|---:|---|",
    `| (b) ≤ 2× (a) | ${(b.seconds / a.seconds).toFixed(2)}× | ${ok(b.seconds <= 2 * a.seconds)} |`,
    `| (b) ≥ 3× faster than (c) | ${(c.seconds / b.seconds).toFixed(2)}× | ` +
    `${ok(c.seconds >= 3 * b.seconds)} |`,
    `| peak RSS of (b) ≤ 2× file size | ${(b.peakRss / bytes).toFixed(2)}× | ` +
    `${ok(b.peakRss <= 2 * bytes)} |`,
    "",
    `(b) and (c) agree on every run's per-task counts: ${agree ? "yes" : "NO"}.`,
  ];
  return lines.join("\n") + "\n";
}

/** The log to measure: `--file`, else the generated log (generated unless it exists). */
async function benchLog(opts: Options): Promise<string> {
  if (opts.file !== null) return opts.file;
  const gen = parseGenerateArgs([...opts.genArgs, "--data", opts.data]);
  if (exists(gen.out)) console.error(`bench: reusing ${gen.out}`);
  else {
    console.error(`bench: generating ${gen.out} …`);
    const r = await (gen.format === "lm-eval" ? generateLmEvalLogs : generateLog)(gen);
    console.error(`bench: ${r.rows} rows, ${r.runs} runs, ${mb(r.bytes)} MB`);
  }
  return gen.out;
}

/** Measure (a) the raw scan, (b) `runlens score --json` and (c) the Python reference, in turn. */
async function measureAll(file: string, opts: Options): Promise<Measurement[]> {
  const deno = Deno.execPath();
  return [
    await measure("(a) polars raw scan", deno, [
      "run",
      "--allow-all",
      "lib/bench/raw_scan.ts",
      file,
    ]),
    await measure("(b) runlens score --json", deno, [
      "run",
      "--allow-all",
      "lib/cli/runlens.ts",
      "score",
      file,
      "--data",
      opts.data,
      "--json",
    ]),
    await measure("(c) Python reference", opts.python, [
      "lib/bench/reference_score.py",
      opts.data,
      file,
    ]),
  ];
}

/** The report when a process failed: each failure's last stderr line, then every timing. */
function failureMarkdown(file: string, bytes: number, ms: Measurement[]): string {
  const failed = ms.filter((m) => m.code !== 0);
  return `Benchmark on ${file.split("/").at(-1)} (${mb(bytes)} MB): ` +
    failed.map((m) => `${m.label} failed (exit ${m.code}): ${lastLine(m.stderr)}`).join("; ") +
    "\n\n" + ms.map((m) => `- ${m.label}: ${m.seconds.toFixed(2)} s, ${mb(m.peakRss)} MB`)
    .join("\n") + "\n";
}

/** Print the report and write it to `.runlens/bench/result.md`. */
async function writeResult(md: string): Promise<void> {
  console.log(md);
  await Deno.mkdir(BENCH_DIR, { recursive: true });
  await Deno.writeTextFile(join(BENCH_DIR, "result.md"), md);
}

/** Rows scored or skipped over all runs of (b)'s report. */
function totalRows(b: Map<string, RunCounts>): number {
  return [...b.values()].reduce(
    (s, r) => s + r.skipped + Object.values(r.tasks).reduce((t, x) => t + x.n, 0),
    0,
  );
}

/** `--profile`: the phase breakdown of (b), printed to stderr. */
async function profile(file: string, opts: Options): Promise<void> {
  const p = await measure("profile of (b)", Deno.execPath(), [
    "run",
    "--allow-all",
    "lib/bench/profile.ts",
    file,
    "--data",
    opts.data,
  ]);
  console.error(p.stderr);
}

/** Run the benchmark; returns the exit code (1 when a process fails or (b) and (c) disagree). */
export async function benchMain(args: string[]): Promise<number> {
  const opts = parseArgs(args);
  const file = await benchLog(opts);
  const bytes = logFiles(file).reduce((sum, f) => sum + Deno.statSync(f).size, 0);
  const ms = await measureAll(file, opts);
  if (ms.some((m) => m.code !== 0)) {
    await writeResult(failureMarkdown(file, bytes, ms));
    console.error("bench: a process failed; no comparison");
    return 1;
  }
  const b = runlensCounts(ms[1].stdout);
  const diffs = compareCounts(b, referenceCounts(ms[2].stdout));
  for (const d of diffs.slice(0, 20)) console.error(`bench: DISAGREE ${d}`);
  await writeResult(markdown(file, bytes, totalRows(b), ms, diffs.length === 0));
  console.error(`bench: wrote ${join(BENCH_DIR, "result.md")}`);
  if (opts.profile) await profile(file, opts);
  return diffs.length === 0 ? 0 : 1;
}

if (import.meta.main) {
  try {
    Deno.exit(await benchMain(Deno.args));
  } catch (e) {
    console.error(`bench: ${(e as Error).message}`);
    Deno.exit(1);
  }
}
