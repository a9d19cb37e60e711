/**
 * The `runlens` command line: `deno task runlens <command> [args…]`.
 *
 * Each command lives in its own module (a {@link Command} of `core/command.ts`) and returns a
 * process exit code; `deno task runlens --help` lists them with their summaries, and
 * `deno task runlens <command> --help` describes one.
 *
 * @example
 * ```sh
 * deno task runlens score my_run.jsonl --json
 * deno task runlens fetch-data
 * ```
 * @module
 */
import { resolve } from "node:path";
import { REPO_ROOT } from "../core/data_dir.ts";
import { type Command, runCommand, termList, USAGE_EXIT } from "../core/command.ts";
import { PLAIN, printError, type Styles, stylesFor } from "../core/terminal.ts";
import { benchmarkCommandUrls, loadBenchmarkCommand } from "./benchmark_command.ts";

/**
 * A command module's URL, built at run time: Deno fetches and compiles the module graph of
 * every import whose specifier is a literal — dynamic ones too — before the program starts, so
 * literal specifiers for all commands made `score` load `report`'s graph (jsdom, Plot) first:
 * 80–90 ms of a 0.3 s run. `score`, the command whose start-up counts, keeps its literal.
 */
const lazy = (name: string) => new URL(`./${name}.ts`, import.meta.url).href;

/** A command, loaded when run or for the help. */
type CommandLoader = () => Promise<Command<unknown>>;

/** The commands of every benchmark, then the rest (each benchmark's from its folder). */
const COMMANDS: Record<string, CommandLoader> = {
  score: async () => (await import("./score.ts")).scoreCommand as Command<unknown>,
  analyze: async () => (await import(lazy("analyze"))).analyzeCommand,
  compare: async () => (await import(lazy("compare"))).compareCommand,
  report: async () => (await import(lazy("report"))).reportCommand,
  ...Object.fromEntries(
    [...benchmarkCommandUrls().keys()].map((word): [string, CommandLoader] => [
      word,
      async () => (await loadBenchmarkCommand(word))!,
    ]),
  ),
  cache: async () => (await import(lazy("cache"))).cacheCommand,
  "fetch-data": async () => (await import(lazy("fetch_data"))).fetchDataCommand,
};

/** The command words of `runlens`, in the help's order. */
export const COMMAND_NAMES: readonly string[] = Object.keys(COMMANDS);

/** Every `runlens` command, loaded, in the help's order. */
export async function runlensCommands(): Promise<Command<unknown>[]> {
  return await Promise.all(COMMAND_NAMES.map((name) => COMMANDS[name]()));
}

/**
 * The help of `runlens` itself: the usage line, one line per command (its summary), and the
 * exit codes every command shares.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const text = runlensHelp(await runlensCommands());
 * assert.match(text, /^usage: deno task runlens <command> \[options\]\n/);
 * assert.match(text, /\n {2}score {7}Load run logs/);
 * ```
 */
export function runlensHelp(commands: readonly Command<unknown>[], style: Styles = PLAIN): string {
  return [
    `${style.bold("usage:")} deno task runlens <command> [options]`,
    "",
    "Score and analyse LLM run logs. `deno task runlens <command> --help` describes a command:",
    "its options, what it prints, an example. docs/cli.md has them all.",
    "",
    style.bold("commands:"),
    ...termList(commands.map((c) => [c.name, c.summary])),
    "",
    style.bold("exit codes:"),
    ...termList([
      ["0", "done"],
      [
        "1",
        "a data problem: nothing scored, a file that cannot be read, data missing (each " +
        "command's --help says which)",
      ],
      ["2", USAGE_EXIT],
    ]),
  ].join("\n");
}

/** The command `name` of the `runlens` command line, loaded (undefined: no such command). */
export async function loadCommand(name: string): Promise<Command<unknown> | undefined> {
  return await COMMANDS[name]?.();
}

/**
 * Dispatch `args` to a command; returns the exit code.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(await runlensMain(["score", "tests/fixtures/logs/mixed.jsonl", "--json"]), 0);
 * assert.equal(await runlensMain(["scroe"]), 2); // unknown command: the list goes to stderr
 * ```
 */
export async function runlensMain(args: string[]): Promise<number> {
  const [name, ...rest] = args;
  if (!name || name === "--help" || name === "-h") {
    const out = name ? Deno.stdout : Deno.stderr;
    const text = runlensHelp(await runlensCommands(), stylesFor(out));
    if (name) console.log(text);
    else console.error(text);
    return name ? 0 : 2;
  }
  const command = await loadCommand(name);
  if (!command) {
    printError("runlens", `unknown command "${name}"`);
    console.error(`\n${runlensHelp(await runlensCommands(), stylesFor(Deno.stderr))}`);
    return 2;
  }
  return await runCommand(command, rest);
}

/**
 * Work from the folder `deno task runlens` was started in. A task runs in its configuration's
 * folder (the repository) wherever it was started — `deno task --config ~/runlens/deno.json
 * runlens score logs/` from a project — so a relative path on the command line would be looked
 * for in the repository; deno task names the caller's folder in `INIT_CWD`. Only when this
 * process runs in the repository: a program that starts runlens elsewhere chose that folder.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const repo = "/home/me/runlens";
 * assert.equal(callerFolder({ cwd: repo, initCwd: "/home/me/project", repo }), "/home/me/project");
 * assert.equal(callerFolder({ cwd: repo, initCwd: repo, repo }), null); // started in the repository
 * assert.equal(callerFolder({ cwd: "/tmp/x", initCwd: "/home/me/project", repo }), null);
 * assert.equal(callerFolder({ cwd: repo, initCwd: undefined, repo }), null); // not a task
 * ```
 */
export function callerFolder(
  env: { cwd: string; initCwd: string | undefined; repo: string },
): string | null {
  if (!env.initCwd || resolve(env.cwd) !== resolve(env.repo)) return null;
  return resolve(env.initCwd) === resolve(env.repo) ? null : resolve(env.initCwd);
}

if (import.meta.main) {
  const caller = callerFolder({
    cwd: Deno.cwd(),
    initCwd: Deno.env.get("INIT_CWD"),
    repo: REPO_ROOT,
  });
  if (caller !== null) Deno.chdir(caller);
  Deno.exit(await runlensMain(Deno.args));
}
