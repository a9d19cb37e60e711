/**
 * Regenerate each registered benchmark's `manifest.json` (its `data.manifest`) from a data
 * directory holding the pinned releases (`lib/data/make_manifest.ts` builds one). A maintainer's
 * script, run after a benchmark's pinned sources change; `logs/` is never part of a manifest.
 *
 * @example
 * ```sh
 * deno run --allow-read --allow-write lib/cli/make_manifest.ts --data ../shared/data
 * ```
 * @module
 */
import { writeFile } from "node:fs/promises";
import { parseArgs } from "node:util";
import { resolveDataDir } from "../core/data_dir.ts";
import { buildManifest, formatManifest } from "../data/make_manifest.ts";
import { benchmarks } from "../benchmarks/registry.ts";

if (import.meta.main) {
  const { values } = parseArgs({ args: Deno.args, options: { data: { type: "string" } } });
  const dataDir = resolveDataDir(values.data);
  for (const b of benchmarks()) {
    if (!b.data) continue;
    const manifest = await buildManifest(dataDir, b.data);
    await writeFile(new URL(b.data.manifest), formatManifest(manifest));
    const bytes = manifest.files.reduce((n, f) => n + f.size, 0);
    console.log(`${b.name}: ${manifest.files.length} files, ${bytes} bytes, from ${dataDir}`);
  }
}
