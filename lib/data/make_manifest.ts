/**
 * Build a data folder's manifest from a data directory holding its pinned releases: every
 * file under the folder gets its size and SHA-256, its source (repository @ commit) and its
 * path in that repository — the same relative path, except the files a source renames (e.g.
 * BBEH's older leaderboard kept as `bbeh/leaderboard-per-task-49b3737.md`, `leaderboard.md` at
 * commit 49b3737). The output is sorted, so reruns on the same data are byte-identical. Each
 * benchmark's `manifest.json` is written by `lib/cli/make_manifest.ts`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { sha256Hex } from "@runlens/data/fetch.ts";
 * const dir = Deno.makeTempDirSync();
 * Deno.mkdirSync(`${dir}/demo`);
 * Deno.writeTextFileSync(`${dir}/demo/a.json`, "{}");
 * const data = { folder: "demo", sources: [{ repo: "acme/demo", commit: "c0ffee" }], manifest: "" };
 * const m = await buildManifest(dir, data);
 * assert.deepEqual(m.files, [{ path: "demo/a.json", repoPath: "a.json", source: "acme/demo@c0ffee",
 *   size: 2, sha256: sha256Hex(new TextEncoder().encode("{}")) }]);
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import {
  type DataSource,
  type Manifest,
  type ManifestFile,
  type ManifestSource,
  type PinnedSource,
  sha256Hex,
} from "./fetch.ts";

/** What every manifest says it is. */
export const MANIFEST_DESCRIPTION = "Per-file SHA-256 of the pinned public releases fetched by " +
  "`deno task runlens fetch-data` (regenerate with lib/cli/make_manifest.ts). `path` is " +
  "relative to the data directory, `repoPath` to the repository root inside the archive " +
  "(whose top folder `<repo>-<commit>/` is stripped).";

const sourceId = (s: PinnedSource) => `${s.repo}@${s.commit}`;

/** The manifest entry describing a source of `folder`. */
function describe(folder: string, s: PinnedSource): ManifestSource {
  return {
    folder,
    repo: s.repo,
    commit: s.commit,
    archive: `https://codeload.github.com/${s.repo}/zip/${s.commit}`,
    archiveAlt: `https://github.com/${s.repo}/archive/${s.commit}.zip`,
  };
}

/** All files under `dir`, as `/`-separated paths relative to it. */
async function walk(dir: string, prefix = ""): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(join(dir, prefix), { withFileTypes: true })) {
    const rel = prefix ? `${prefix}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...await walk(dir, rel));
    else out.push(rel);
  }
  return out;
}

/** Byte-order comparison (not locale-dependent). */
const byPath = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The manifest of `data`'s folder in `dataDir`: every file, sorted by path. A source with
 * `rename` claims exactly those files; the one without claims every other file.
 */
export async function buildManifest(dataDir: string, data: DataSource): Promise<Manifest> {
  const { folder, sources } = data;
  const files: ManifestFile[] = [];
  for (const rel of (await walk(join(dataDir, folder))).sort(byPath)) {
    const renamed = sources.find((s) => s.rename && rel in s.rename);
    const spec = renamed ?? sources.find((s) => !s.rename);
    if (!spec) throw new Error(`${folder}/${rel}: no source of ${folder}/ claims it`);
    const bytes = new Uint8Array(await readFile(join(dataDir, folder, rel)));
    files.push({
      path: `${folder}/${rel}`,
      repoPath: renamed ? renamed.rename![rel] : rel,
      source: sourceId(spec),
      size: bytes.length,
      sha256: sha256Hex(bytes),
    });
  }
  const described = sources.map((s) => [sourceId(s), describe(folder, s)]);
  return { description: MANIFEST_DESCRIPTION, sources: Object.fromEntries(described), files };
}

/** The manifest as written to disk (2-space JSON, trailing newline). */
export function formatManifest(m: Manifest): string {
  return JSON.stringify(m, null, 2) + "\n";
}
