/**
 * Test helper: every command of the repository, in the groups of docs/cli.md — the `deno task
 * runlens` commands (in `runlens --help`'s order), `deno task main`, and the developer scripts —
 * each with the declaration its `--help` is made from. One list, so that the reference and the
 * tests of the help and the exit codes cannot miss a command; `tests/cli_commands.test.ts`
 * checks that every script of lib/ that runs as a program is in it.
 *
 * @example
 * ```ts
 * import { commandGroups } from "./_commands.ts";
 * const groups = await commandGroups();
 * console.log(groups.map((g) => `${g.title}: ${g.commands.length}`));
 * ```
 * @module
 */
import type { Command } from "@runlens/core/command.ts";
import { runlensCommands } from "@runlens/cli/runlens.ts";
import { mainCommand } from "@runlens/cli/main.ts";
import { benchCommand } from "@runlens/bench/bench.ts";
import { cacheSpeedCommand } from "@runlens/bench/cache_speed.ts";
import { generateCommand } from "@runlens/bench/generate.ts";
import { identifyCliSpeedCommand } from "@runlens/bench/identify_cli_speed.ts";
import { lineParseSpeedCommand } from "@runlens/bench/line_parse_speed.ts";
import { profileCommand } from "@runlens/bench/profile.ts";
import { reportPageCommand } from "@runlens/bench/report_page.ts";
import { reportSpeedCommand } from "@runlens/bench/report_speed.ts";
import { responsesSpeedCommand } from "@runlens/bench/responses_speed.ts";
import { sourceSpeedCommand } from "@runlens/bench/source_speed.ts";
import { scoreCountsCommand } from "@runlens/bench/counts/score_counts.ts";
import { makeManifestCommand } from "@runlens/cli/make_manifest.ts";
import { percentCommand } from "@runlens/notebook/percent.ts";
import { screenshotCommand } from "@runlens/report/html/screenshot.ts";
import { chromiumSetupCommand } from "@runlens/setup/chromium.ts";
import { jupyterSetupCommand } from "@runlens/setup/jupyter.ts";
import { latexSetupCommand } from "@runlens/setup/latex.ts";
import { apiDocCommand } from "@runlens/setup/api_doc.ts";
import { fuzzCommand } from "./fuzz/main.ts";

/** A group of commands: a heading of docs/cli.md, a paragraph, the commands. */
export interface CommandGroup {
  title: string;
  intro: string;
  commands: Command<unknown>[];
}

/** A command of any argument type, as the lists hold them. */
const any = (c: unknown) => c as Command<unknown>;

/** The developer scripts, and the file each runs from (its invocation names it). */
export const SCRIPTS: readonly Command<unknown>[] = [
  benchCommand,
  fuzzCommand,
  generateCommand,
  cacheSpeedCommand,
  identifyCliSpeedCommand,
  lineParseSpeedCommand,
  profileCommand,
  reportPageCommand,
  reportSpeedCommand,
  responsesSpeedCommand,
  sourceSpeedCommand,
  scoreCountsCommand,
  makeManifestCommand,
  screenshotCommand,
  percentCommand,
  chromiumSetupCommand,
  jupyterSetupCommand,
  latexSetupCommand,
  apiDocCommand,
].map(any);

/** Every command, in the groups of docs/cli.md. */
export async function commandGroups(): Promise<CommandGroup[]> {
  return [
    {
      title: "`deno task runlens <command>`",
      intro: "The commands for your run logs. `deno task runlens --help` lists them.",
      commands: await runlensCommands(),
    },
    {
      title: "`deno task main`",
      intro: "Regenerates the committed figures and results from the notebooks.",
      commands: [any(mainCommand)],
    },
    {
      title: "Developer scripts",
      intro: "For working on runlens itself: the speed benchmarks, the fuzz suite, the data " +
        "manifest, the README's screenshots, notebooks from scripts, the test machine's " +
        "setup and the library API reference. `deno task test` passes its arguments to `deno test` and has no options of its " +
        "own.",
      commands: [...SCRIPTS],
    },
  ];
}

/** Every command, in one list. */
export async function allCommands(): Promise<Command<unknown>[]> {
  return (await commandGroups()).flatMap((g) => g.commands);
}
