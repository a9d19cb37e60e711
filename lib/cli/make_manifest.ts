/**
 * Regenerate each registered benchmark's `manifest.json` (its `data.manifest`) from a data
 * directory holding the pinned releases (`lib/data/make_manifest.ts` builds one). A maintainer's
 * script, run after a benchmark's pinned sources change; `logs/` is never part of a manifest.
 *
 * @example
 * ```sh
 * deno run --allow-all lib/cli/make_manifest.ts --data ../shared/data
 * ```
 * @module
 */
import { writeFile } from "node:fs/promises";
import { type Command, runCommand } from "../core/command.ts";
import { DATA_OPTION, resolveDataDir } from "../core/data_dir.ts";
import { buildManifest, formatManifest } from "../data/make_manifest.ts";
import { benchmarks } from "../benchmarks/registry.ts";

/** `lib/cli/make_manifest.ts`. */
export const makeManifestCommand: Command<{ dataDir: string }> = {
  name: "make-manifest",
  invocation: "deno run --allow-all lib/cli/make_manifest.ts",
  summary: "Regenerate every registered benchmark's data manifest (size, SHA-256, source and " +
    "path of every pinned file) from a data directory holding the pinned releases.",
  usage: "[--data DIR]",
  options: { data: DATA_OPTION },
  prints: "One line per benchmark with a data source: the benchmark, how many files its " +
    "manifest lists, their bytes, and the data directory read.",
  examples: ["deno run --allow-all lib/cli/make_manifest.ts --data ../shared/data"],
  failure: "a data file cannot be read or a manifest cannot be written",
  parse: ({ values, positionals }) =>
    positionals.length > 0
      ? `unexpected argument ${positionals[0]}`
      : { dataDir: resolveDataDir(values.data as string | undefined) },
  run: async ({ dataDir }) => {
    for (const b of benchmarks()) {
      if (!b.data) continue;
      const manifest = await buildManifest(dataDir, b.data);
      await writeFile(new URL(b.data.manifest), formatManifest(manifest));
      const bytes = manifest.files.reduce((n, f) => n + f.size, 0);
      console.log(`${b.name}: ${manifest.files.length} files, ${bytes} bytes, from ${dataDir}`);
    }
    return 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(makeManifestCommand, Deno.args));
