/**
 * Test helper: run `runlens` (or another Deno script of the repository) as a user runs it, in a
 * child process, and collect its exit code and decoded output. One runner, so that every CLI test
 * starts the program the same way (the same permissions, the same colourless output).
 *
 * @example
 * ```ts
 * import { runCli } from "./_cli.ts";
 * const help = await runCli(["--help"]);
 * if (help.code !== 0 || !help.stdout.startsWith("usage:")) throw new Error(help.stderr);
 * ```
 * @module
 */
import { join } from "node:path";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";

/** What a child process did: its exit code and its output, decoded. */
export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Where the child runs (default: the repository root) and what it adds to the environment. */
export interface CliOptions {
  cwd?: string;
  env?: Record<string, string>;
  /** Leave `NO_COLOR` unset (also when the test runs with it), to see what colour does. */
  color?: boolean;
}

/** The CLI entry, absolute so that a test may run it from any folder. */
const RUNLENS = join(REPO_ROOT, "lib", "cli", "runlens.ts");

/** `runlens args…` in a child process (see {@link runDeno} for the options). */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return runDeno([RUNLENS, ...args], options);
}

/**
 * `deno run --allow-all script args…` (the script first in `args`) in a child process, with
 * stdout and stderr collected. `NO_COLOR=1` is set unless `color` (the options' `env` is added
 * to it and to the parent's environment), so that messages carry no ANSI codes for a test to
 * match around.
 */
export function runDeno(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return runProgram(Deno.execPath(), ["run", "--allow-all", ...args], options);
}

/**
 * `program args…` in a child process, stdin closed, stdout and stderr collected; the
 * environment as {@link runDeno} gives it.
 */
export async function runProgram(
  program: string,
  args: readonly string[],
  options: CliOptions = {},
): Promise<CliResult> {
  const out = await new Deno.Command(program, {
    args: [...args],
    cwd: options.cwd ?? REPO_ROOT,
    env: { ...childEnv(options.color === true), ...options.env },
    clearEnv: true,
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}

/** The parent's environment for a child, with `NO_COLOR=1`, or without `NO_COLOR` (`color`). */
export function childEnv(color: boolean): Record<string, string> {
  const { NO_COLOR: _, ...env } = Deno.env.toObject();
  return color ? env : { ...env, NO_COLOR: "1" };
}

/**
 * Run `run` (a command's entry, called in this process) with `console.log` and
 * `console.error` collected: its exit code and what it printed, as {@link runCli} gives them
 * for a child process, without a process's start-up.
 */
export async function inProcess(run: () => Promise<number>): Promise<CliResult> {
  const out: string[] = [], err: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    const code = await run();
    return { code, stdout: out.join("\n"), stderr: err.join("\n") };
  } finally {
    Object.assign(console, { log, error });
  }
}
