/**
 * One way to write a `runlens` command: declare its options once ({@link Command}), and
 * {@link runCommand} parses the arguments, prints usage, runs it and turns the outcome into the
 * documented exit codes:
 *
 * | code | meaning |
 * | --- | --- |
 * | 0 | done |
 * | 1 | failed, or done but some input failed (e.g. a file that could not be read) |
 * | 2 | usage: a wrong option or argument, or scorer (the message and the usage go to stderr) |
 *
 * Arguments: `--name value`, `--name=value`, repeatable options collect every value, `-h` and
 * `--help` print the usage, `--` ends the options (so a file named `-x.jsonl` can be given as
 * `-- -x.jsonl`); any other argument starting with `-` is an unknown option.
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
 *   summary: "say hello",
 *   usage: "hello [--name NAME]",
 *   options: { name: { type: "string", description: "who to greet" } },
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

/** One option: `--<key>` (with `short`, also `-<short>`). */
export interface OptionSpec {
  /** `string` takes a value; `boolean` is a switch. */
  type: "string" | "boolean";
  /** Collect every value of a repeated string option into a list. */
  multiple?: boolean;
  /** What the usage text calls its value (default: the key in capitals), e.g. `DIR`. */
  value?: string;
  /** The usage text's description (new lines continue it, indented). */
  description: string;
}

/** Parsed arguments before the command's own checks. */
export interface ParsedArgs {
  /** Option values by key: string, string[] (multiple), or true (switches given). */
  values: Record<string, string | string[] | boolean | undefined>;
  /** Arguments that are not options, in order. */
  positionals: string[];
}

/** A usage error: the command line is wrong (exit code 2, the usage is printed). */
export class UsageError extends Error {}

/** One `runlens` command. */
export interface Command<Args> {
  /** The command word, e.g. `score`. */
  name: string;
  /** One line for `runlens --help`. */
  summary: string;
  /** The synopsis after `runlens`, e.g. `score <paths…> [--json]`. */
  usage: string;
  /** Its options, by key (the flag is `--<key>`). */
  options: Record<string, OptionSpec>;
  /** Check and convert the parsed arguments; throw {@link UsageError} (or return a string). */
  parse(parsed: ParsedArgs): Args | string;
  /** Do the work; return the exit code (0 done, 1 failed or partly failed). */
  run(args: Args): number | Promise<number>;
}

/**
 * Split `args` by the options of `spec`; throws {@link UsageError} on an unknown option or a
 * missing value.
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
 * assert.throws(() => parseOptions(["--jsn"], spec), UsageError); // "unknown option --jsn"
 * ```
 */
export function parseOptions(
  args: readonly string[],
  spec: Record<string, OptionSpec>,
): ParsedArgs {
  const values: ParsedArgs["values"] = {};
  const positionals: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    if (arg === "--") {
      positionals.push(...args.slice(i + 1));
      break;
    }
    if (!arg.startsWith("-") || arg === "-") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.startsWith("--") ? arg.indexOf("=") : -1;
    const flag = eq > 0 ? arg.slice(0, eq) : arg;
    const key = flag.startsWith("--") ? flag.slice(2) : "";
    const option = spec[key];
    if (!option) throw new UsageError(`unknown option ${flag}`);
    if (option.type === "boolean") {
      if (eq > 0) throw new UsageError(`${flag} takes no value`);
      values[key] = true;
      continue;
    }
    const value = eq > 0 ? arg.slice(eq + 1) : args[++i];
    if (value === undefined || value === "") throw new UsageError(`${flag} needs a value`);
    values[key] = option.multiple ? [...(values[key] as string[] ?? []), value] : value;
  }
  return { values, positionals };
}

/**
 * The usage text of a command: synopsis and one line per option.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const text = usageText({ name: "x", summary: "", usage: "x [--json]", options: {
 *   json: { type: "boolean", description: "print JSON" } }, parse: () => ({}), run: () => 0 });
 * assert.equal(text, "usage: deno task runlens x [--json]\n  --json  print JSON");
 * ```
 */
export function usageText<A>(command: Command<A>): string {
  const flags = Object.entries(command.options).map(([key, o]) =>
    [
      `--${key}${o.type === "string" ? " " + (o.value ?? key.toUpperCase()) : ""}`,
      o.description,
    ] as const
  );
  const width = Math.max(0, ...flags.map(([f]) => f.length));
  const indent = "\n" + " ".repeat(width + 4);
  const lines = flags.map(([f, d]) => `  ${f.padEnd(width)}  ${d.replaceAll("\n", indent)}`);
  return [`usage: deno task runlens ${command.usage}`, ...lines].join("\n");
}

/**
 * Parse `args` for `command` and run it; returns the exit code (0, 1 or 2, see the module
 * documentation). Errors never escape: a {@link UsageError} prints the usage (code 2), any
 * other error prints `runlens <command>: <message>` (code 1).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { scoreCommand } from "@runlens/cli/score.ts";
 * // a command's script ends with: Deno.exit(await runCommand(scoreCommand, Deno.args));
 * assert.equal(await runCommand(scoreCommand, ["--help"]), 0); // prints the usage
 * assert.equal(await runCommand(scoreCommand, ["a.jsonl", "--bogus"]), 2); // error + usage
 * assert.equal(await runCommand(scoreCommand, ["no/such.jsonl"]), 1); // the file cannot be read
 * ```
 */
export async function runCommand<A>(command: Command<A>, args: readonly string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(usageText(command));
    return 0;
  }
  const prefix = `runlens ${command.name}:`;
  let parsed: A;
  try {
    const out = command.parse(parseOptions(args, command.options));
    if (typeof out === "string") throw new UsageError(out);
    parsed = out;
  } catch (e) {
    if (!(e instanceof UsageError)) throw e;
    console.error(`${prefix} ${e.message}\n${usageText(command)}`);
    return 2;
  }
  try {
    return await command.run(parsed);
  } catch (e) {
    // a wrong scorer (a user's module that is no rule, …: a ScorerChoiceError) is found before
    // any scoring
    if (e instanceof UsageError) {
      console.error(`${prefix} ${e.message}\n${usageText(command)}`);
      return 2;
    }
    console.error(`${prefix} ${(e as Error).message}`);
    return 1;
  }
}

/** A file that could not be read, and why (the `errors` of the JSON envelope). */
export interface FileError {
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
  errors: FileError[];
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
  parts: { runs: object[]; quarantine?: JsonEnvelope["quarantine"]; errors?: FileError[] },
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
