/**
 * Every command of the repository — the `runlens` commands, `deno task main`, the developer
 * scripts (tests/_commands.ts) — is declared on one framework (`core/command.ts`, node:util
 * `parseArgs`), and these tests hold each to it: its `--help` is complete, its usage line runs
 * as printed, a usage error exits 2, a data problem exits 1 and a good run 0, and colour shows
 * only on a terminal without `NO_COLOR`.
 *
 * Every `runlens` command also loads by its name (the command line builds most module URLs at
 * run time so that `score` does not load the others' graphs; a wrong name would only show when
 * a user runs that command), and the static imports below keep every command module
 * type-checked (modules loaded from run-time URLs are not).
 *
 * @module
 */
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { type Command, invocationOf, runCommand } from "@runlens/core/command.ts";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { COMMAND_NAMES, loadCommand } from "@runlens/cli/runlens.ts";
import { analyzeCommand } from "@runlens/cli/analyze.ts";
import { cacheCommand } from "@runlens/cli/cache.ts";
import { compareCommand } from "@runlens/cli/compare.ts";
import { fetchDataCommand } from "@runlens/cli/fetch_data.ts";
import { mainCommand } from "@runlens/cli/main.ts";
import { reportCommand } from "@runlens/cli/report.ts";
import { scoreCommand } from "@runlens/cli/score.ts";
import { percentCommand } from "@runlens/notebook/percent.ts";
import { lex } from "./_lex.ts";
import { runCli, runProgram } from "./_cli.ts";
import { dataTest, TEST_DATA_DIR } from "./_data.ts";
import { allCommands } from "./_commands.ts";

const subsetsCommand = (await loadCommand("subsets"))!;
const bbmCommand = (await loadCommand("bbm"))!;
const arbCommand = (await loadCommand("arb"))!;

const COMMANDS = await allCommands();

/** Run `command` in this process with `args`: its exit code and what it printed. */
async function run(command: Command<unknown>, args: string[]) {
  const out: string[] = [], err: string[] = [];
  const { log, error } = console;
  console.log = (...a: unknown[]) => out.push(a.join(" "));
  console.error = (...a: unknown[]) => err.push(a.join(" "));
  try {
    const code = await runCommand(command, args);
    // plain text, also when the tests run on a terminal without NO_COLOR
    // deno-lint-ignore no-control-regex -- ANSI colour codes are what this takes out
    const plain = (lines: string[]) => lines.join("\n").replace(/\x1b\[[0-9;]*m/g, "");
    return { code, stdout: plain(out), stderr: plain(err) };
  } finally {
    Object.assign(console, { log, error });
  }
}

/** A temporary folder for `fn`, removed after it. */
async function withTemp(fn: (dir: string) => Promise<void>): Promise<void> {
  const dir = Deno.makeTempDirSync({ prefix: "runlens_cli_commands_" });
  try {
    await fn(dir);
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** Canonical JSONL records, one per line. */
const jsonl = (records: object[]) => records.map((r) => JSON.stringify(r)).join("\n") + "\n";

Deno.test("every runlens command loads by its name: the module its word names", async () => {
  const commands = [
    scoreCommand,
    analyzeCommand,
    compareCommand,
    reportCommand,
    subsetsCommand,
    bbmCommand,
    arbCommand,
    cacheCommand,
    fetchDataCommand,
  ];
  assert.deepEqual(COMMAND_NAMES, commands.map((c) => c.name));
  for (const command of commands) {
    assert.equal(await loadCommand(command.name), command, command.name);
  }
  assert.equal(await loadCommand("scroe"), undefined);
});

Deno.test("every script of lib/ and `deno task fuzz` runs a command of the list", () => {
  // the two that are no command of their own: the dispatcher of the runlens commands, and the
  // test task, whose arguments all belong to `deno test`
  const exceptions = ["lib/cli/runlens.ts", "lib/setup/run_tests.ts"];
  const tasks = JSON.parse(Deno.readTextFileSync(join(REPO_ROOT, "deno.json"))).tasks;
  const scriptOf = (c: Command<unknown>) => {
    const task = /^deno task (\S+)/.exec(invocationOf(c))?.[1];
    return /\S+\.ts\b/.exec(task ? tasks[task] : invocationOf(c))?.[0];
  };
  const files = COMMANDS.map(scriptOf).filter((f): f is string => f !== undefined);
  const scripts: string[] = [];
  const walk = (dir: string) => {
    for (const e of Deno.readDirSync(join(REPO_ROOT, dir))) {
      const path = `${dir}/${e.name}`;
      if (e.isDirectory) walk(path);
      else if (path.endsWith(".ts")) {
        const { code } = lex(Deno.readTextFileSync(join(REPO_ROOT, path)));
        if (/\bimport\.meta\.main\b/.test(code)) scripts.push(path);
      }
    }
  };
  walk("lib");
  for (const script of scripts.filter((s) => !exceptions.includes(s))) {
    const source = Deno.readTextFileSync(join(REPO_ROOT, script));
    const runlensCommand = script.startsWith("lib/cli/");
    assert.ok(runlensCommand || files.includes(script), `${script}: not in tests/_commands.ts`);
    assert.match(source, /runCommand\(/, `${script}: does not run its command`);
  }
  for (const file of files) assert.ok(existsSync(join(REPO_ROOT, file)), file);
  assert.ok(scripts.length >= 25, `${scripts.length} scripts`);
});

Deno.test("every command's --help: usage, options with defaults, prints, examples, exit codes", async () => {
  for (const command of COMMANDS) {
    const invocation = invocationOf(command);
    const { code, stdout } = await run(command, ["--help"]);
    assert.equal(code, 0, command.name);
    const lines = stdout.split("\n");
    assert.ok(lines[0].startsWith(`usage: ${invocation}`), lines[0]);
    for (const heading of ["options:", "prints:", "exit codes:"]) {
      assert.ok(lines.includes(heading), `${command.name}: ${heading}`);
    }
    assert.ok(lines.includes("example:") || lines.includes("examples:"), command.name);
    for (const [key, option] of Object.entries(command.options)) {
      assert.match(stdout, new RegExp(`\\n  --${key}\\b`), `${command.name}: --${key}`);
      if (option.type === "string") {
        assert.ok(
          option.default !== undefined || /\bdefault\b/.test(option.description),
          `${command.name} --${key}: no default said`,
        );
      }
    }
    assert.match(stdout, /\n {2}-h, --help +print this help/);
    assert.ok(command.prints.length > 20, `${command.name}: what it prints`);
    assert.ok(command.examples.length > 0, `${command.name}: no example`);
    for (const example of command.examples) {
      assert.ok(example.startsWith(invocation), `${command.name}: ${example}`);
      assert.ok(lines.includes(`  ${example}`), `${command.name}: ${example}`);
    }
    assert.match(stdout, /\n {2}0 {2}done\n {2}1 {2}\S.*\n(.*\n)* {2}2 {2}usage: /);
  }
});

Deno.test("a usage error exits 2 for every command, naming the option, before any work", async () => {
  for (const command of COMMANDS) {
    const r = await run(command, ["--no-such-option"]);
    assert.equal(r.code, 2, command.name);
    assert.equal(r.stdout, "", command.name);
    assert.equal(
      r.stderr,
      `runlens ${command.name}: unknown option --no-such-option\n` +
        `usage: ${invocationOf(command)} ${command.usage}`.trimEnd() + "\n" +
        `(${invocationOf(command)} --help: every option)`,
    );
  }
  // the parser's other messages, in runlens's words
  const messages = async (args: string[]) => (await run(scoreCommand, args)).stderr.split("\n")[0];
  assert.equal(await messages(["a.jsonl", "--data"]), "runlens score: --data needs a value");
  assert.equal(await messages(["a.jsonl", "--json=yes"]), "runlens score: --json takes no value");
  assert.equal(await messages(["-x.jsonl"]), "runlens score: unknown option -x.jsonl");
  assert.match(await messages(["a.jsonl", "--map", "-1"]), /--map needs a value .*--map=-…/);
});

dataTest(
  "the commands that load logs: nothing scored exits 1, a scored log 0",
  (data) =>
    withTemp(async (dir) => {
      const none = join(dir, "none.jsonl");
      const scored = join(dir, "scored.jsonl");
      // two runs each: compare needs a pair; "not_a_task" is quarantined, nycc scored
      const records = (task: string) =>
        ["a", "b"].flatMap((model) =>
          [0, 1, 2].map((i) => ({ model, task, example_index: i, response: "(A)" }))
        );
      Deno.writeTextFileSync(none, jsonl(records("not_a_task")));
      Deno.writeTextFileSync(scored, jsonl(records("nycc")));
      const common = ["--data", data, "--no-cache"];
      for (const command of [scoreCommand, analyzeCommand, compareCommand, reportCommand]) {
        const out = command === reportCommand ? ["--out", join(dir, "report")] : [];
        const bad = await run(command, [none, ...common, ...out]);
        assert.equal(bad.code, 1, `${command.name}: ${bad.stderr}`);
        assert.match(bad.stderr, /run a: nothing scored \(3 records in, 3 quarantined/);
        const good = await run(command, [scored, ...common, ...out]);
        assert.equal(good.code, 0, `${command.name}: ${good.stderr}`);
      }
    }),
);

Deno.test("arb, bbm, subsets, fetch-data, main, scripts: a data problem exits 1", async () => {
  await withTemp(async (dir) => {
    const arbLog = join(dir, "arb.jsonl");
    Deno.writeTextFileSync(arbLog, jsonl([{ subject: "math", answer_type: "numerical", id: "1" }]));
    const arb = await run(arbCommand, [arbLog]);
    assert.equal(arb.code, 1);
    assert.match(arb.stderr, /runlens arb: no row of 1 could be scored/);
    assert.equal((await run(arbCommand, ["tests/fixtures/arb/illustrative", "--json"])).code, 0);

    const bbmData = "tests/fixtures/bbm";
    assert.equal((await run(bbmCommand, ["--data", bbmData])).code, 0);
    assert.equal((await run(bbmCommand, ["--data", join(dir, "none")])).code, 1);
    const unrelated = join(dir, "unrelated.jsonl");
    Deno.writeTextFileSync(unrelated, jsonl([{ model: "m", response: "x" }]));
    // with run logs the numbering is stated (else a usage error, exit 2, before any file is read)
    const bbm = await run(bbmCommand, ["--data", bbmData, "--numbering", "one-based", unrelated]);
    assert.equal(bbm.code, 1);
    assert.match(bbm.stderr, /no mistake-finding answers/);

    assert.equal((await run(subsetsCommand, ["--data", join(dir, "none")])).code, 1);
    const fetch = await run(fetchDataCommand, [
      "--data",
      join(dir, "data"),
      "--base-url",
      "http://127.0.0.1:9",
    ]);
    assert.equal(fetch.code, 1, fetch.stderr);
    const main = await run(mainCommand, ["--only", "no-such-notebook"]);
    assert.equal(main.code, 1);
    assert.equal(main.stderr, 'runlens main: no notebooks matching "no-such-notebook"');

    const script = join(dir, "draft.ts");
    Deno.writeTextFileSync(script, "// %%\n1 + 1\n");
    assert.equal((await run(percentCommand, [script, join(dir, "draft.ipynb")])).code, 0);
    assert.equal((await run(percentCommand, [join(dir, "none.ts"), join(dir, "x.ipynb")])).code, 1);
  });
});

dataTest("subsets with the data set exits 0", async (data) => {
  assert.equal((await run(subsetsCommand, ["--data", data, "--json"])).code, 0);
  await withTemp(async (dir) => {
    assert.equal((await run(cacheCommand, ["info", "--cache", dir])).code, 0);
  });
});

/** `deno` and the words after it of a usage line, up to its first argument. */
function invocationWords(usage: string): string[] {
  const words = usage.replace(/^usage: /, "").split(" ");
  const end = words.findIndex((w) => /^[[<]/.test(w));
  return words.slice(0, end < 0 ? undefined : end);
}

/** Run a command line as printed (its `deno` is this Deno), from the repository. */
const runPrinted = (words: string[], env: Record<string, string> = {}) =>
  runProgram(Deno.execPath(), words.slice(1), { env });

Deno.test("`deno task main --help` prints a usage line that runs as printed", async () => {
  const help = await runPrinted(["deno", "task", "main", "--help"]);
  assert.equal(help.code, 0, help.stderr);
  const usage = help.stdout.split("\n")[0];
  assert.equal(usage, "usage: deno task main [--data DIR] [--logs DIR] [--only TEXT]");
  // the usage line's own words, with an option of the line: the main job runs (and finds no
  // such notebook) instead of failing with an unknown command or task
  const ran = await runPrinted([...invocationWords(usage), "--only", "no-such-notebook"]);
  assert.equal(ran.code, 1);
  assert.match(ran.stderr, /runlens main: no notebooks matching "no-such-notebook"/);
});

Deno.test("`deno task runlens score --help`: its usage line's words run the command", async () => {
  const help = await runCli(["score", "--help"]);
  const words = invocationWords(help.stdout.split("\n")[0]);
  assert.deepEqual(words, ["deno", "task", "runlens", "score"]);
  const ran = await runPrinted([...words, "tests/fixtures/logs/mixed.jsonl", "--json"], {
    RUNLENS_DATA: TEST_DATA_DIR,
  });
  const data = existsSync(TEST_DATA_DIR);
  assert.equal(ran.code, data ? 0 : 1, ran.stderr); // without data: the missing data named
  if (data) assert.equal(JSON.parse(ran.stdout).command, "score");
});

/** ANSI escape codes. */
// deno-lint-ignore no-control-regex -- ANSI escape codes are what the tests look for
const ANSI = /\x1b\[/;

Deno.test("no colour in a pipe, even without NO_COLOR", async () => {
  const usage = await runCli(["score", "--frobnicate"], { color: true });
  assert.equal(usage.code, 2);
  assert.doesNotMatch(usage.stderr, ANSI);
  const help = await runCli(["score", "--help"], { color: true });
  assert.doesNotMatch(help.stdout, ANSI);
});

/** util-linux's `script`, which runs a command on a pseudo-terminal. */
const SCRIPT = ["/usr/bin/script", "/bin/script"].find((p) => existsSync(p));

Deno.test({
  name: "colour on a terminal: red errors, bold headings; none with NO_COLOR",
  ignore: SCRIPT === undefined,
  fn: async () => {
    // the terminal shows stdout and stderr both: `script` writes them to its stdout
    const onTerminal = async (args: string, env: Record<string, string>) =>
      (await runProgram(SCRIPT!, [
        "-qec",
        `${Deno.execPath()} run -A lib/cli/runlens.ts ${args}`,
        "/dev/null",
      ], { color: true, env })).stdout;
    const error = await onTerminal("score --frobnicate", {});
    assert.ok(
      error.includes("\x1b[31mrunlens score: unknown option --frobnicate\x1b[39m"),
      JSON.stringify(error),
    );
    const help = await onTerminal("score --help", {});
    assert.ok(help.includes("\x1b[1musage:\x1b[22m deno task runlens score"), help);
    assert.ok(help.includes("\x1b[1moptions:\x1b[22m"));
    for (const noColor of ["1", "yes"]) {
      assert.doesNotMatch(await onTerminal("score --frobnicate", { NO_COLOR: noColor }), ANSI);
    }
    // an empty NO_COLOR does not count (no-color.org)
    assert.match(await onTerminal("score --frobnicate", { NO_COLOR: "" }), ANSI);
  },
});
