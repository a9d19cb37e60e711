/**
 * docs/cli.md, the command-line reference, is generated from the command declarations (the
 * ones `--help` prints), so it cannot drift from what the commands accept: this test builds it
 * again and fails when the committed file differs. After changing a command, regenerate it —
 * as Deno's snapshot tests do — with
 *
 * ```sh
 * deno test --allow-all tests/cli_reference.test.ts -- --update
 * ```
 * @module
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { REPO_ROOT } from "@runlens/core/data_dir.ts";
import { commandMarkdown, USAGE_EXIT } from "@runlens/core/command.ts";
import { allCommands, type CommandGroup, commandGroups } from "./_commands.ts";

/** The committed reference. */
const REFERENCE = join(REPO_ROOT, "docs", "cli.md");

/** The command that regenerates it. */
const UPDATE = "deno test --allow-all tests/cli_reference.test.ts -- --update";

/** The reference of `groups`: what every command shares, then each group's commands. */
export function cliReference(groups: readonly CommandGroup[]): string {
  const contents = groups.flatMap((g) => [
    `- ${g.title}: ${g.commands.map((c) => c.name).join(", ")}`,
  ]);
  const head = [
    "# Command-line reference",
    "",
    `<!-- Generated from the command declarations by tests/cli_reference.test.ts: ${UPDATE} -->`,
    "",
    "Every command below prints this reference's section for itself with `--help` (or `-h`).",
    "",
    ...contents,
    "",
    "## What every command shares",
    "",
    "- Options: `--name value` or `--name=value`; a repeatable option collects every value; a " +
    "value that starts with `-` is written `--name=-value`; `--` ends the options (a file " +
    "named `-x.jsonl` is given as `-- -x.jsonl`). An unknown option is a usage error.",
    "- `--json`, where a command has it, prints one JSON object on stdout, in one envelope: " +
    "`command`, `runs` (one object per run), `quarantine` (rows set apart, with file, line " +
    "and reason), `errors` (files that could not be read, with the reason), then the " +
    "command's own keys.",
    "- Colour: bold headings, red errors and yellow warnings when the output is a terminal; " +
    "none in a pipe or a file, and none when `NO_COLOR` is set to anything but the empty " +
    "string.",
    "- Exit codes:",
    "",
    "| code | meaning |",
    "| --- | --- |",
    "| 0 | done |",
    "| 1 | a data problem: nothing scored, a file that cannot be read, data missing (each " +
    "command says which below) |",
    `| 2 | ${USAGE_EXIT} |`,
  ];
  const sections = groups.flatMap((g) => [
    "",
    `## ${g.title}`,
    "",
    g.intro,
    ...g.commands.flatMap((c) => ["", commandMarkdown(c).trimEnd()]),
  ]);
  return [...head, ...sections].join("\n") + "\n";
}

/**
 * `markdown` as `deno fmt` writes it (docs/ is formatted with the repository's settings, so the
 * committed file must be what the formatter leaves).
 */
async function formatted(markdown: string): Promise<string> {
  const fmt = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext=md", "-"],
    cwd: REPO_ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = fmt.stdin.getWriter();
  await writer.write(new TextEncoder().encode(markdown));
  await writer.close();
  const out = await fmt.output();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
  return new TextDecoder().decode(out.stdout);
}

const generated = await formatted(cliReference(await commandGroups()));
if (Deno.args.includes("--update")) Deno.writeTextFileSync(REFERENCE, generated);

Deno.test(`docs/cli.md is the reference the commands generate (else: ${UPDATE})`, () => {
  const committed = Deno.readTextFileSync(REFERENCE);
  assert.ok(committed === generated, `docs/cli.md is stale: regenerate it with ${UPDATE}`);
});

Deno.test("docs/cli.md documents every command, every option and its exit codes", async () => {
  const text = Deno.readTextFileSync(REFERENCE);
  for (const command of await allCommands()) {
    const start = text.indexOf(
      `### \`${command.invocation ?? `deno task runlens ${command.name}`}\``,
    );
    assert.ok(start >= 0, `no section for ${command.name}`);
    const next = text.indexOf("\n### ", start + 1);
    const section = text.slice(start, next < 0 ? undefined : next);
    for (const key of Object.keys(command.options)) {
      assert.match(section, new RegExp(`\\n- \`--${key}[ \`]`), `${command.name}: --${key}`);
    }
    assert.match(section, /\n- `-h, --help`: /, `${command.name}: --help`);
    for (const code of [0, 1, 2]) assert.match(section, new RegExp(`\\n- ${code}: \\S`));
    for (const example of command.examples) assert.ok(section.includes(`\n${example}\n`));
  }
});
