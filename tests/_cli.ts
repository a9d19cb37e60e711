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
}

/** The CLI entry, absolute so that a test may run it from any folder. */
const RUNLENS = join(REPO_ROOT, "lib", "cli", "runlens.ts");

/** `runlens args…` in a child process (see {@link runDeno} for the options). */
export function runCli(args: readonly string[], options: CliOptions = {}): Promise<CliResult> {
  return runDeno([RUNLENS, ...args], options);
}

/**
 * `deno run --allow-all script args…` (the script first in `args`) in a child process, with
 * stdout and stderr collected. `NO_COLOR=1` is always set (the options' `env` is added to it and
 * to the parent's environment), so that messages carry no ANSI codes for a test to match around.
 */
export async function runDeno(
  args: readonly string[],
  options: CliOptions = {},
): Promise<CliResult> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "--allow-all", ...args],
    cwd: options.cwd ?? REPO_ROOT,
    env: { NO_COLOR: "1", ...options.env },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = (b: Uint8Array) => new TextDecoder().decode(b);
  return { code: out.code, stdout: text(out.stdout), stderr: text(out.stderr) };
}
