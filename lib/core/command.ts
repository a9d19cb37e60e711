/**
 * One way to write every command of runlens — the `deno task runlens` commands, `deno task
 * main` and the developer scripts —: declare it once ({@link Command}: its options with their
 * defaults, what it prints, an example, what its exit code 1 means), and {@link runCommand}
 * parses the arguments, prints the help, runs it and turns the outcome into the exit codes
 * every command shares:
 *
 * | code | meaning |
 * | --- | --- |
 * | 0 | done |
 * | 1 | a data problem: nothing scored, a file that cannot be read, data missing (the message on stderr says which) |
 * | 2 | usage: a wrong option, argument or scorer (the message and the usage line go to stderr) |
 *
 * Arguments are parsed by node:util's `parseArgs`, the platform's parser (no dependency):
 * `--name value`, `--name=value`, repeatable options collect every value, `-h` and `--help`
 * print the help, `--` ends the options (so a file named `-x.jsonl` can be given as
 * `-- -x.jsonl`); any other argument starting with `-` is an unknown option, and a value that
 * starts with `-` is written `--name=-value`. The same declaration gives the help
 * ({@link helpText}) and the reference in docs/cli.md ({@link commandMarkdown}), so neither
 * can drift from what the command accepts.
 *
 * Every `--json` report shares one envelope ({@link jsonEnvelope}): `command`, `runs` (a list,
 * one object per run), `quarantine` (rows not scored, with file, line and reason) and `errors`
 * (files that could not be read, with the reason), then the command's own keys.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const hello: Command<{ name: string }> = {
 *   name: "hello",
 *   invocation: "deno run hello.ts",
 *   summary: "say hello",
 *   usage: "[--name NAME]",
 *   options: { name: { type: "string", description: "who to greet", default: "world" } },
 *   prints: "hello and the name, on stdout",
 *   examples: ["deno run hello.ts --name runlens"],
 *   failure: "never",
 *   parse: (o) => ({ name: (o.values.name as string | undefined) ?? "world" }),
 *   run: (args) => {
 *     console.log(`hello ${args.name}`);
 *     return 0;
 *   },
 * };
 * assert.equal(await runCommand(hello, ["--name", "runlens"]), 0); // prints "hello runlens"
 * assert.equal(await runCommand(hello, ["--nme", "runlens"]), 2); // unknown option: usage
 * ```
 * @module
 */
import { parseArgs } from "node:util";
import { PLAIN, printError, type Styles, stylesFor } from "./terminal.ts";

/** One option: `--<key>`. */
export interface OptionSpec {
  /** `string` takes a value; `boolean` is a switch (off unless given). */
  type: "string" | "boolean";
  /** Collect every value of a repeated string option into a list. */
  multiple?: boolean;
  /** What the help calls its value (default: the key in capitals), e.g. `DIR`. */
  value?: string;
  /** What it does (a new line starts a new line of the help). */
  description: string;
  /**
   * The value the command uses when the option is not given, as the help shows it (e.g.
   * `runlens_report`, `$RUNLENS_DATA, else .runlens/data`). Documentation only: the command's
   * `parse` applies it. A string option without one says its default in `description`.
   */
  default?: string;
}

/** Parsed arguments before the command's own checks. */
export interface ParsedArgs {
  /** Option values by key: string, string[] (multiple), or true (switches given). */
  values: Record<string, string | string[] | boolean | undefined>;
  /** Arguments that are not options, in order. */
  positionals: string[];
}

/** A usage error: the command line is wrong (exit code 2, the usage line is printed). */
export class UsageError extends Error {}

/** One command. */
export interface Command<Args> {
  /** The command word, e.g. `score`; messages start `runlens <name>:`. */
  name: string;
  /**
   * What a user types before the arguments, as it works from the repository (default:
   * `deno task runlens <name>`), e.g. `deno task main`.
   */
  invocation?: string;
  /** One line: what it does (`runlens --help` lists it). */
  summary: string;
  /** The synopsis after the invocation, e.g. `<paths…> [--json] [options]`. */
  usage: string;
  /** More about what it does, when the summary is not enough (paragraphs). */
  description?: string;
  /** Its positional arguments: name in the synopsis → description. */
  arguments?: Readonly<Record<string, string>>;
  /** Its options, by key (the flag is `--<key>`). */
  options: Record<string, OptionSpec>;
  /** What it prints, and where: the text output, and the `--json` report when it has one. */
  prints: string;
  /** Command lines that work as written (from the repository), the first the commonest. */
  examples: readonly string[];
  /** When it exits 1: the data problems it reports. */
  failure: string;
  /** Check and convert the parsed arguments; throw {@link UsageError} (or return a string). */
  parse(parsed: ParsedArgs): Args | string;
  /** Do the work; return the exit code (0 done, 1 a data problem). */
  run(args: Args): number | Promise<number>;
}

/** The meaning of exit code 2, the same for every command. */
export const USAGE_EXIT = "usage: a wrong option or argument (the message and the usage line " +
  "go to stderr)";

/**
 * Split `args` by the options of `spec` (node:util `parseArgs`, strict); throws
 * {@link UsageError} on an unknown option, a missing or empty value, or a value given to a
 * switch.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const spec = {
 *   json: { type: "boolean", description: "" },
 *   map: { type: "string", description: "" },
 * } as const;
 * assert.deepEqual(
 *   parseOptions(["a.jsonl", "--json", "--map=x=1", "--", "-b.jsonl"], spec),
 *   { values: { json: true, map: "x=1" }, positionals: ["a.jsonl", "-b.jsonl"] },
 * );
 * assert.throws(() => parseOptions(["--jsn"], spec), /^Error: unknown option --jsn$/);
 * assert.throws(() => parseOptions(["--map"], spec), /--map needs a value/);
 * assert.throws(() => parseOptions(["--json=yes"], spec), /--json takes no value/);
 * ```
 */
export function parseOptions(
  args: readonly string[],
  spec: Readonly<Record<string, OptionSpec>>,
): ParsedArgs {
  const options = Object.fromEntries(
    Object.entries(spec).map(([key, o]) => [key, { type: o.type, multiple: o.multiple === true }]),
  );
  let parsed: { values: ParsedArgs["values"]; positionals: string[] };
  try {
    // multiple options are string options: their lists hold strings
    parsed = parseArgs({ args: [...args], options, allowPositionals: true, strict: true }) as {
      values: ParsedArgs["values"];
      positionals: string[];
    };
  } catch (e) {
    throw new UsageError(parseArgsMessage(e as Error & { code?: string }, args));
  }
  for (const [key, value] of Object.entries(parsed.values)) {
    if (value === "" || (Array.isArray(value) && value.includes(""))) {
      throw new UsageError(`--${key} needs a value`);
    }
  }
  return { values: { ...parsed.values }, positionals: parsed.positionals };
}

/** parseArgs' error in the words of runlens's messages, naming the argument as typed. */
function parseArgsMessage(e: Error & { code?: string }, args: readonly string[]): string {
  const option = /'(-[^' ]*)/.exec(e.message)?.[1];
  if (option === undefined) return e.message;
  if (e.code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") {
    // parseArgs names the first letter of `-x.jsonl` (a group of short options): name it all
    const given = args.slice(0, endOfOptions(args)).find((a) => a.startsWith(option)) ?? option;
    return `unknown option ${given.startsWith("--") ? given.replace(/=.*/s, "") : given}`;
  }
  if (/does not take an argument/.test(e.message)) return `${option} takes no value`;
  if (/ambiguous/.test(e.message)) {
    return `${option} needs a value (a value starting with "-" is written ${option}=-…)`;
  }
  if (/argument missing/.test(e.message)) return `${option} needs a value`;
  return e.message;
}

/** The index of `--` in `args` (where options end), else its length. */
function endOfOptions(args: readonly string[]): number {
  const i = args.indexOf("--");
  return i < 0 ? args.length : i;
}

/** Whether `args` ask for the help (`-h` or `--help` before any `--`). */
function wantsHelp(args: readonly string[]): boolean {
  return args.slice(0, endOfOptions(args)).some((a) => a === "--help" || a === "-h");
}

/** What a user types to run `command` (its invocation, else `deno task runlens <name>`). */
export function invocationOf<A>(command: Command<A>): string {
  return command.invocation ?? `deno task runlens ${command.name}`;
}

/**
 * The usage line: the invocation and the synopsis.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const c = { name: "x", usage: "<paths…> [--json]" } as Command<unknown>;
 * assert.equal(usageLine(c), "deno task runlens x <paths…> [--json]");
 * ```
 */
export function usageLine<A>(command: Command<A>): string {
  return `${invocationOf(command)} ${command.usage}`.trimEnd();
}

/** Every option of `command` with the help's own, as `[flag, description]` pairs. */
function optionEntries<A>(command: Command<A>): [string, string][] {
  const own = Object.entries(command.options).map(([key, o]): [string, string] => [
    `--${key}${o.type === "string" ? " " + (o.value ?? key.toUpperCase()) : ""}`,
    o.description + (o.default !== undefined ? ` (default: ${o.default})` : ""),
  ]);
  return [...own, ["-h, --help", "print this help and exit"]];
}

/** The exit codes of `command`: code → meaning. */
function exitCodes<A>(command: Command<A>): [number, string][] {
  return [[0, "done"], [1, command.failure], [2, USAGE_EXIT]];
}

/** The help's width. */
const WIDTH = 100;

/**
 * `text` wrapped to {@link WIDTH} columns after `indent` spaces: each line on its own (a new
 * line stays one; a line that fits is kept as written), a line starting with `- ` continued
 * under its text.
 */
function wrap(text: string, indent: number): string {
  return text.split("\n").map((line) => {
    if (indent + line.length <= WIDTH) return (" ".repeat(indent) + line).trimEnd();
    const hang = indent + (line.startsWith("- ") ? 2 : 0);
    const out: string[] = [];
    let current = " ".repeat(indent);
    for (const word of line.split(/ +/)) {
      if (current.trim() !== "" && current.length + 1 + word.length > WIDTH) {
        out.push(current);
        current = " ".repeat(hang) + word;
      } else current += (current.trim() === "" ? "" : " ") + word;
    }
    out.push(current);
    return out.map((l) => l.trimEnd()).join("\n");
  }).join("\n");
}

/**
 * Rows of `[term, text]` as an aligned two-column block for a help, the text wrapped under
 * itself (a term too long for the column gets a line of its own).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(termList([["0", "done"], ["2", "usage"]]), ["  0  done", "  2  usage"]);
 * ```
 */
export function termList(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.min(28, Math.max(0, ...rows.map(([t]) => t.length)));
  return rows.map(([term, text]) => {
    const body = wrap(text, width + 4);
    return term.length > width
      ? `  ${term}\n${body}`
      : `  ${term.padEnd(width)}  ${body.trimStart()}`;
  });
}

/**
 * The help of a command (`--help`): usage line, what it does, its arguments and options with
 * their defaults, what it prints, examples and exit codes. Headings in bold on a terminal.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const text = helpText({ name: "x", summary: "do x", usage: "[--json]", options: {
 *   json: { type: "boolean", description: "print JSON" } }, prints: "a line", examples: [
 *   "deno task runlens x --json"], failure: "never", parse: () => ({}), run: () => 0 });
 * assert.equal(text.split("\n")[0], "usage: deno task runlens x [--json]");
 * assert.match(text, /\n {2}--json {6}print JSON\n/);
 * ```
 */
export function helpText<A>(command: Command<A>, style: Styles = PLAIN): string {
  const heading = (t: string) => style.bold(t);
  const out = [`${heading("usage:")} ${usageLine(command)}`, "", wrap(command.summary, 0)];
  if (command.description) out.push("", wrap(command.description, 0));
  const args = Object.entries(command.arguments ?? {});
  if (args.length > 0) out.push("", heading("arguments:"), ...termList(args));
  out.push("", heading("options:"), ...termList(optionEntries(command)));
  out.push("", heading("prints:"), wrap(command.prints, 2));
  const examples = command.examples.length === 1 ? "example:" : "examples:";
  out.push("", heading(examples), ...command.examples.map((e) => `  ${e}`));
  out.push(
    "",
    heading("exit codes:"),
    ...termList(exitCodes(command).map(([code, meaning]) => [String(code), meaning])),
  );
  return out.join("\n");
}

/**
 * The reference of a command in Markdown (a section of docs/cli.md): the same parts as
 * {@link helpText}, under a `###` heading naming the invocation.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const md = commandMarkdown({ name: "x", summary: "do x", usage: "[--json]", options: {
 *   json: { type: "boolean", description: "print JSON" } }, prints: "a line", examples: [
 *   "deno task runlens x --json"], failure: "never", parse: () => ({}), run: () => 0 });
 * assert.match(md, /^### `deno task runlens x`\n/);
 * assert.match(md, /\n- `--json`: print JSON\n/);
 * ```
 */
export function commandMarkdown<A>(command: Command<A>): string {
  const list = (rows: readonly [string, string][]) =>
    rows.map(([term, text]) => `- \`${term}\`: ${markdownBlocks(text, "  ")}`);
  const out = [
    `### \`${invocationOf(command)}\``,
    "",
    markdownBlocks(command.summary),
    "",
    "```sh",
    usageLine(command),
    "```",
  ];
  if (command.description) out.push("", markdownBlocks(command.description));
  const args = Object.entries(command.arguments ?? {});
  if (args.length > 0) out.push("", "Arguments:", "", ...list(args));
  out.push("", "Options:", "", ...list(optionEntries(command)));
  out.push("", "Prints:", "", markdownBlocks(command.prints));
  out.push("", command.examples.length === 1 ? "Example:" : "Examples:", "", "```sh");
  out.push(...command.examples, "```");
  out.push("", "Exit codes:", "", ...exitCodes(command).map(([c, m]) => `- ${c}: ${m}`));
  return out.join("\n") + "\n";
}

/**
 * A help text as Markdown: each of its lines a paragraph, runs of lines starting with `- ` a
 * list; blocks after the first indented by `indent` (to continue a list item).
 */
function markdownBlocks(text: string, indent = ""): string {
  const blocks: string[][] = [];
  for (const line of text.split("\n")) {
    const last = blocks.at(-1);
    if (line.startsWith("- ") && last?.[0].startsWith("- ")) last.push(line);
    else blocks.push([line]);
  }
  return blocks.map((b, i) => b.map((l) => (i > 0 ? indent : "") + l).join("\n"))
    .join(`\n\n`);
}

/**
 * Check and convert `args` for `command`; throws {@link UsageError}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const c = { name: "x", options: {}, parse: ({ positionals }) =>
 *   positionals.length ? { paths: positionals } : "no paths given" } as Command<{ paths: string[] }>;
 * assert.deepEqual(parseCommand(c, ["a"]), { paths: ["a"] });
 * assert.throws(() => parseCommand(c, []), UsageError);
 * ```
 */
export function parseCommand<A>(command: Command<A>, args: readonly string[]): A {
  const out = command.parse(parseOptions(args, command.options));
  if (typeof out === "string") throw new UsageError(out);
  return out;
}

/**
 * The whole number ≥ `min` given to option `key` (`_` separators allowed), else `fallback`;
 * throws {@link UsageError} naming the option.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(countOption({ rows: "1_000" }, "rows", 5), 1000);
 * assert.equal(countOption({}, "rows", 5), 5);
 * assert.throws(() => countOption({ rows: "1.5" }, "rows", 5), /--rows 1.5: a whole number ≥ 1/);
 * ```
 */
export function countOption(
  values: ParsedArgs["values"],
  key: string,
  fallback: number,
  min = 1,
): number {
  const text = values[key];
  if (typeof text !== "string") return fallback;
  const n = Number(text.replaceAll("_", ""));
  if (!Number.isSafeInteger(n) || n < min) {
    throw new UsageError(`--${key} ${text}: a whole number ≥ ${min}`);
  }
  return n;
}

/** A usage error on stderr: the message (red on a terminal), the usage line, where help is. */
function printUsageError<A>(command: Command<A>, message: string): void {
  printError(`runlens ${command.name}`, message);
  console.error(
    `${stylesFor(Deno.stderr).bold("usage:")} ${usageLine(command)}\n` +
      `(${invocationOf(command)} --help: every option)`,
  );
}

/**
 * Parse `args` for `command` and run it; returns the exit code (0, 1 or 2, see the module
 * documentation). Errors never escape: a {@link UsageError} — from the arguments, or found
 * while running, such as a scorer that does not apply to the logs — prints the message and
 * the usage line (code 2), any other error prints `runlens <command>: <message>` (code 1).
 * `-h`/`--help` prints {@link helpText} on stdout (code 0).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const count: Command<{ path: string }> = {
 *   name: "count",
 *   invocation: "deno run -A count.ts",
 *   summary: "count the lines of a file",
 *   usage: "<file>",
 *   options: {},
 *   prints: "the number of lines",
 *   examples: ["deno run -A count.ts README.md"],
 *   failure: "the file cannot be read",
 *   parse: ({ positionals }) => positionals.length === 1 ? { path: positionals[0] } : "one file",
 *   run: ({ path }) => {
 *     console.log(Deno.readTextFileSync(path).split("\n").length - 1);
 *     return 0;
 *   },
 * };
 * // a script ends with: if (import.meta.main) Deno.exit(await runCommand(count, Deno.args));
 * assert.equal(await runCommand(count, ["--help"]), 0); // prints the help
 * assert.equal(await runCommand(count, ["deno.json"]), 0); // prints its line count
 * assert.equal(await runCommand(count, ["a", "b"]), 2); // usage: "one file", and the usage line
 * assert.equal(await runCommand(count, ["no/such/file"]), 1); // "runlens count: No such file…"
 * ```
 */
export async function runCommand<A>(command: Command<A>, args: readonly string[]): Promise<number> {
  if (wantsHelp(args)) {
    console.log(helpText(command, stylesFor(Deno.stdout)));
    return 0;
  }
  let parsed: A;
  try {
    parsed = parseCommand(command, args);
  } catch (e) {
    if (e instanceof UsageError) printUsageError(command, e.message);
    else printError(`runlens ${command.name}`, (e as Error).message);
    return e instanceof UsageError ? 2 : 1;
  }
  try {
    return await command.run(parsed);
  } catch (e) {
    if (e instanceof UsageError) {
      printUsageError(command, e.message);
      return 2;
    }
    printError(`runlens ${command.name}`, (e as Error).message);
    return 1;
  }
}

/** A file that could not be read, and why (the `errors` of the JSON envelope). */
export interface FileFailure {
  file: string;
  reason: string;
}

/** The `--json` envelope every command prints. */
export interface JsonEnvelope {
  /** The command that wrote it. */
  command: string;
  /** One object per run (with at least `run`), in the command's order. */
  runs: object[];
  /** Rows set apart: file, line and reason. */
  quarantine: { file: string; line: number; reason: string }[];
  /** Files that could not be read at all: file and reason. */
  errors: FileFailure[];
  /** The command's own keys. */
  [key: string]: unknown;
}

/**
 * The envelope of one command's `--json` report: `command`, `runs`, `quarantine`, `errors`,
 * then `extra` (the command's own keys, in their order).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(
 *   jsonEnvelope("subsets", { runs: [] }, { subsets: {} }),
 *   { command: "subsets", runs: [], quarantine: [], errors: [], subsets: {} },
 * );
 * ```
 */
export function jsonEnvelope(
  command: string,
  parts: { runs: object[]; quarantine?: JsonEnvelope["quarantine"]; errors?: FileFailure[] },
  extra: Record<string, unknown> = {},
): JsonEnvelope {
  return {
    command,
    runs: parts.runs,
    quarantine: parts.quarantine ?? [],
    errors: parts.errors ?? [],
    ...extra,
  };
}
