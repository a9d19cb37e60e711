/**
 * Every `runlens` command loads by its name (the command line builds most module URLs at run
 * time so that `score` does not load the others' graphs; a wrong name would only show when a
 * user runs that command), and the static imports below keep every command module
 * type-checked (modules loaded from run-time URLs are not, and `deno test --doc` checks only
 * modules with doc tests).
 *
 * @module
 */
import assert from "node:assert/strict";
import { loadCommand } from "@runlens/cli/runlens.ts";
import { analyzeCommand } from "@runlens/cli/analyze.ts";
import { arbCommand } from "@runlens/cli/arb.ts";
import { bbmCommand } from "@runlens/cli/bbm.ts";
import { cacheCommand } from "@runlens/cli/cache.ts";
import { compareCommand } from "@runlens/cli/compare.ts";
import { fetchDataCommand } from "@runlens/cli/fetch_data.ts";
import { reportCommand } from "@runlens/cli/report.ts";
import { scoreCommand } from "@runlens/cli/score.ts";
import { subsetsCommand } from "@runlens/cli/subsets.ts";

Deno.test("every runlens command loads by its name: the module its word names", async () => {
  const commands = [
    analyzeCommand,
    arbCommand,
    bbmCommand,
    cacheCommand,
    compareCommand,
    fetchDataCommand,
    reportCommand,
    scoreCommand,
    subsetsCommand,
  ];
  for (const command of commands) {
    assert.equal(await loadCommand(command.name), command, command.name);
  }
  assert.equal(await loadCommand("scroe"), undefined);
});
