/**
 * The one place where the fuzz suite calls runlens: `runlens score <paths…> --json --data DIR`
 * as a subprocess, watched from outside — peak RSS (VmHWM from `/proc/<pid>/status`, polled),
 * wall time, exit code or signal — and killed when it passes its time or memory limit. When the
 * CLI changes (the pipeline restructuring), adapt {@link scoreArgv} and nothing else.
 *
 * @example
 * ```ts ignore
 * import { runScore } from "./adapter.ts";
 * const run = await runScore(["/tmp/case"], { cwd: "/tmp", dataDir: "/work/shared/data",
 *   timeoutMs: 30_000, rssBytes: 2 ** 31 });
 * run.code; // 0
 * ```
 * @module
 */
import { join } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (this file is `tests/fuzz/adapter.ts`). */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url)).replace(/\/$/, "");

/** How to run one `score` command. */
export interface ScoreOptions {
  /** Working directory (the case folder, so that relative paths work). */
  cwd: string;
  /** The data directory (`--data`). */
  dataDir: string;
  /** Extra options before `--json` (e.g. `--map …`). */
  flags?: string[];
  /** Kill after this many milliseconds (reported as `killed: "timeout"`). */
  timeoutMs: number;
  /** Kill when the resident set passes this many bytes (`killed: "memory"`). */
  rssBytes: number;
}

/** What one `score` run did, as seen from outside. */
export interface ScoreRun {
  /** The command line (argv[0] is the deno executable). */
  argv: string[];
  cwd: string;
  /** Exit code (null when killed by a signal). */
  code: number | null;
  /** The signal that ended it (ours when `killed` is set). */
  signal: string | null;
  /** Set when the suite killed the process. */
  killed: "timeout" | "memory" | null;
  stdout: string;
  /** At most the first 256 KB of stderr. */
  stderr: string;
  /** Wall time in milliseconds. */
  ms: number;
  /** Peak resident set (VmHWM) in bytes, 0 when never read. */
  peakRss: number;
}

/**
 * The argv of `runlens score` for `paths` (relative to `options.cwd`, or absolute): the CLI
 * script by absolute path, the repository's `deno.json`, `--` before the paths when one of
 * them starts with `-`. `--node-modules-dir=manual` uses the `node_modules` the suite's own
 * process (`nodeModulesDir: auto`) has just checked, instead of checking it again in every
 * case: ~0.1 s of CPU less per case, nothing else changes.
 *
 * @example
 * ```ts ignore
 * scoreArgv(["-x.jsonl"], { dataDir: "/d" }); // [deno, "run", …, "score", "--json", "--data", "/d", "--", "-x.jsonl"]
 * ```
 */
export function scoreArgv(
  paths: readonly string[],
  options: Pick<ScoreOptions, "dataDir" | "flags">,
): string[] {
  const base = [
    Deno.execPath(),
    "run",
    "--allow-all",
    "--config",
    join(REPO_ROOT, "deno.json"),
    "--node-modules-dir=manual",
    join(REPO_ROOT, "lib", "cli", "runlens.ts"),
    "score",
  ];
  const opts = [...(options.flags ?? []), "--json", "--data", options.dataDir];
  return paths.some((p) => p.startsWith("-"))
    ? [...base, ...opts, "--", ...paths]
    : [...base, ...paths, ...opts];
}

let prepared: Promise<void> | null = null;

/**
 * Make sure `node_modules` holds what `runlens` needs (once per process): `runlens --help`
 * under the repository's `nodeModulesDir: auto`, which installs what is missing, so that the
 * cases can run with `--node-modules-dir=manual` (see {@link scoreArgv}).
 *
 * @example
 * ```ts ignore
 * await prepareRunlens();
 * ```
 */
export function prepareRunlens(): Promise<void> {
  return prepared ??= (async () => {
    const argv = scoreArgv([], { dataDir: "." }).filter((a) => a !== "--node-modules-dir=manual");
    const end = await new Deno.Command(argv[0], {
      args: [...argv.slice(1, argv.indexOf("score")), "--help"],
      stdout: "null",
      stderr: "piped",
    }).output();
    if (!end.success) {
      throw new Error(`runlens --help failed: ${new TextDecoder().decode(end.stderr)}`);
    }
  })();
}

/**
 * The command line as a shell string (for reproduction instructions).
 *
 * @example
 * ```ts ignore
 * shellCommand(["deno", "run", "a b"]); // "deno run 'a b'"
 * ```
 */
export function shellCommand(argv: readonly string[]): string {
  return argv.map((a) => /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replaceAll("'", "'\\''")}'`)
    .join(" ");
}

const STDERR_CAP = 256 * 1024;

/** The `score` processes running now (so that an interrupted runner can end them). */
export const RUNNING = new Set<Deno.ChildProcess>();

async function collect(stream: ReadableStream<Uint8Array>, cap: number): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (size < cap) {
      chunks.push(chunk.subarray(0, cap - size));
      size += Math.min(chunk.length, cap - size);
    }
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    all.set(c, at);
    at += c.length;
  }
  return new TextDecoder().decode(all);
}

/** VmHWM and VmRSS of `pid` in bytes (0 when the process is gone). */
async function memoryOf(pid: number): Promise<{ hwm: number; rss: number }> {
  try {
    const status = await Deno.readTextFile(`/proc/${pid}/status`);
    const kb = (key: string) =>
      Number(new RegExp(`^${key}:\\s+(\\d+)`, "m").exec(status)?.[1] ?? 0);
    return { hwm: kb("VmHWM") * 1024, rss: kb("VmRSS") * 1024 };
  } catch {
    return { hwm: 0, rss: 0 };
  }
}

/**
 * Run `runlens score` on `paths` and watch it: RSS polled every 20 ms (killed past
 * `rssBytes`), killed after `timeoutMs`.
 *
 * @example
 * ```ts ignore
 * const run = await runScore(["."], { cwd: dir, dataDir, timeoutMs: 60_000, rssBytes: 2 ** 31 });
 * ```
 */
export async function runScore(paths: readonly string[], options: ScoreOptions): Promise<ScoreRun> {
  const argv = scoreArgv(paths, options);
  const started = performance.now();
  const child = new Deno.Command(argv[0], {
    args: argv.slice(1),
    cwd: options.cwd,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).spawn();
  RUNNING.add(child);
  const stdout = collect(child.stdout, Number.MAX_SAFE_INTEGER);
  const stderr = collect(child.stderr, STDERR_CAP);
  let killed: ScoreRun["killed"] = null;
  let peakRss = 0;
  let done = false;
  const status = child.status.finally(() => (done = true));
  while (!done) {
    const { hwm, rss } = await memoryOf(child.pid);
    peakRss = Math.max(peakRss, hwm);
    const elapsed = performance.now() - started;
    if (!killed && (rss > options.rssBytes || hwm > options.rssBytes)) killed = "memory";
    else if (!killed && elapsed > options.timeoutMs) killed = "timeout";
    if (killed) {
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      break;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([status, new Promise((r) => (timer = setTimeout(r, 20)))]);
    clearTimeout(timer);
  }
  const end = await status;
  RUNNING.delete(child);
  const ms = performance.now() - started;
  return {
    argv,
    cwd: options.cwd,
    code: end.signal ? null : end.code,
    signal: end.signal ?? null,
    killed,
    stdout: await stdout,
    stderr: await stderr,
    ms,
    peakRss,
  };
}
