/**
 * The library API reference: `deno doc --html` over runlens's public entries, written to
 * `docs/api/` (git-ignored: about 1,150 files and 24 MB, regenerated rather than committed).
 * The entries are read from one place: deno.json's `exports` when it has them, else
 * `lib/mod.ts`, the one entry notebooks and scripts import.
 *
 * Run as `deno task doc` (or `deno run --allow-all lib/setup/api_doc.ts --output DIR`).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(docEntries({}), ["lib/mod.ts"]);
 * assert.deepEqual(docEntries({ exports: "./lib/mod.ts" }), ["lib/mod.ts"]);
 * assert.deepEqual(
 *   docEntries({ exports: { ".": "./lib/mod.ts", "./stats": "./lib/stats/mod.ts" } }),
 *   ["lib/mod.ts", "lib/stats/mod.ts"],
 * );
 * ```
 * @module
 */
import { join } from "node:path";
import { type Command, runCommand } from "../core/command.ts";
import { REPO_ROOT } from "../core/data_dir.ts";

/** The entry documented when deno.json has no `exports`. */
export const DEFAULT_ENTRY = "lib/mod.ts";

/** Where the reference goes by default (relative to the repository). */
export const API_DOC_DIR = "docs/api";

/**
 * The public entries of a deno.json (parsed): its `exports` (a path, or a map of export name →
 * path), as repository-relative paths without `./`, in the map's order; else
 * {@link DEFAULT_ENTRY}.
 */
export function docEntries(denoJson: { exports?: unknown }): string[] {
  const { exports } = denoJson;
  const paths = typeof exports === "string"
    ? [exports]
    : exports && typeof exports === "object"
    ? Object.values(exports as Record<string, unknown>)
    : [];
  if (paths.some((p) => typeof p !== "string")) {
    throw new Error("deno.json: every entry of `exports` must be a path");
  }
  const entries = (paths as string[]).map((p) => p.replace(/^\.\//, ""));
  return entries.length > 0 ? entries : [DEFAULT_ENTRY];
}

/** The entries of the repository's deno.json. */
export function repoDocEntries(): string[] {
  return docEntries(JSON.parse(Deno.readTextFileSync(join(REPO_ROOT, "deno.json"))));
}

/** Write the HTML reference of `entries` to `output`; returns deno doc's exit code. */
export async function writeApiDoc(entries: readonly string[], output: string): Promise<number> {
  const { code } = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--html", "--name=runlens", `--output=${output}`, ...entries],
    cwd: REPO_ROOT,
    stdout: "inherit",
    stderr: "inherit",
  }).output();
  return code;
}

/** `deno task doc`. */
export const apiDocCommand: Command<{ output: string }> = {
  name: "doc",
  invocation: "deno task doc",
  summary: "Write the library API reference (deno doc --html) of runlens's public entries: " +
    "deno.json's exports, else lib/mod.ts.",
  usage: "[--output DIR]",
  options: {
    output: {
      type: "string",
      value: "DIR",
      description: "where the HTML goes (relative to the repository)",
      default: API_DOC_DIR,
    },
  },
  prints: "deno doc's count of files written; open DIR/index.html.",
  examples: ["deno task doc", "deno task doc --output /tmp/runlens-api"],
  failure: "deno doc fails (an entry that does not type-check or cannot be found)",
  parse: ({ values, positionals }) =>
    positionals.length > 0
      ? `unexpected argument ${positionals[0]}`
      : { output: (values.output as string | undefined) ?? API_DOC_DIR },
  run: async ({ output }) => (await writeApiDoc(repoDocEntries(), output)) === 0 ? 0 : 1,
};

if (import.meta.main) Deno.exit(await runCommand(apiDocCommand, Deno.args));
