/**
 * The `runlens` command line: `deno task runlens <command> [args…]`.
 *
 * Commands: `score` (load run logs, re-score, aggregate), `fetch-data` (download the pinned
 * public data sets), `cache` (list or delete cached loads), and the analyses listed in
 * {@link runlensMain}'s usage. Each command lives in its own module and returns a process exit
 * code.
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
import { type Command, runCommand } from "../core/command.ts";

/**
 * A command module's URL, built at run time: Deno fetches and compiles the module graph of
 * every import whose specifier is a literal — dynamic ones too — before the program starts, so
 * literal specifiers for all commands made `score` load `report`'s graph (jsdom, Plot) first:
 * 80–90 ms of a 0.3 s run. `score`, the command whose start-up counts, keeps its literal.
 */
const lazy = (name: string) => new URL(`./${name}.ts`, import.meta.url).href;

/** Each command: its one-line summary and how to load it (commands load only when run). */
const COMMANDS: Record<string, { summary: string; load: () => Promise<Command<unknown>> }> = {
  score: {
    summary:
      "score run logs with the official scorer: score <paths…> [--data DIR] [--json] [--rows FILE]",
    load: async () => (await import("./score.ts")).scoreCommand as Command<unknown>,
  },
  analyze: {
    summary:
      "subset accuracies and failure modes of BBEH runs: analyze <paths…> [--data DIR] [--json]",
    load: async () => (await import(lazy("analyze"))).analyzeCommand as Command<unknown>,
  },
  compare: {
    summary: "paired comparison of runs on the same examples: compare <paths…> " +
      "[--a RUN --b RUN | --baseline RUN] [--json]",
    load: async () => (await import(lazy("compare"))).compareCommand as Command<unknown>,
  },
  report: {
    summary: "write report.html, report.md and LaTeX tables for runs: report <paths…> " +
      "[--out DIR] [--baseline RUN]",
    load: async () => (await import(lazy("report"))).reportCommand as Command<unknown>,
  },
  subsets: {
    summary:
      "count the inferred BBEH subset labels per task: subsets [--data DIR] [--mini] [--json]",
    load: async () => (await import(lazy("subsets"))).subsetsCommand as Command<unknown>,
  },
  bbm: {
    summary: "BIG-Bench Mistake: data-set summary and first-mistake classification of runs: " +
      "bbm [--data DIR] [--json] [--numbering one-based|zero-based] [runs…]",
    load: async () => (await import(lazy("bbm"))).bbmCommand as Command<unknown>,
  },
  arb: {
    summary: "ARB-style runs: score by answer type, accuracy, error types, rubric agreement: " +
      "arb <paths…> [--json] [--map field=column,…]",
    load: async () => (await import(lazy("arb"))).arbCommand as Command<unknown>,
  },
  cache: {
    summary: "list or delete the cached loads: cache info|clear [--cache DIR] [--json]",
    load: async () => (await import(lazy("cache"))).cacheCommand as Command<unknown>,
  },
  "fetch-data": {
    summary: "download and verify the pinned public data sets: fetch-data [--data DIR]",
    load: async () => (await import(lazy("fetch_data"))).fetchDataCommand as Command<unknown>,
  },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(11)} ${c.summary}`);
  return [
    "usage: deno task runlens <command> [args…]",
    "",
    "commands:",
    ...lines,
    "",
    "exit codes: 0 done, 1 failed (or some input could not be read), 2 usage",
  ].join("\n");
}

/** The command `name` of the `runlens` command line, loaded (undefined: no such command). */
export async function loadCommand(name: string): Promise<Command<unknown> | undefined> {
  return await COMMANDS[name]?.load();
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
    console.log(usage());
    return name ? 0 : 2;
  }
  const command = await loadCommand(name);
  if (!command) {
    console.error(`runlens: unknown command "${name}"\n\n${usage()}`);
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
