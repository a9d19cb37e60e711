/**
 * Regenerate `lib/data/manifest.json` from a data directory holding the pinned releases.
 *
 * Every file under `bbeh/`, `bbh/` and `big-bench-mistake/` gets its size and SHA-256, its
 * source (repository @ commit, see {@link SOURCES}) and its path in that repository: the same
 * relative path, except the older BBEH leaderboard kept as `bbeh/leaderboard-per-task-49b3737.md`
 * (it is `leaderboard.md` at commit 49b3737). The output is sorted, so reruns on the same data
 * are byte-identical. `logs/` is not part of the manifest (it is not fetched).
 *
 * @example
 * ```sh
 * deno run --allow-all lib/data/make_manifest.ts --data ../shared/data
 * ```
 * @module
 */
import { readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { type Command, runCommand } from "../core/command.ts";
import { DATA_OPTION, resolveDataDir } from "../core/data_dir.ts";
import {
  type Manifest,
  MANIFEST_PATH,
  type ManifestFile,
  type ManifestSource,
  sha256Hex,
} from "./fetch.ts";

/** A pinned source; `rename` maps local names (inside `folder`) to repository paths. */
interface SourceSpec {
  folder: string;
  repo: string;
  commit: string;
  rename?: Record<string, string>;
}

/**
 * The pinned sources, in fetch order. A source with `rename` claims exactly those files; the
 * one without claims every other file of its folder at the same relative path.
 */
export const SOURCES: SourceSpec[] = [
  {
    folder: "bbeh",
    repo: "google-deepmind/bbeh",
    commit: "80d12ca916b7158f22293fcf3144f4d3d854d4be",
  },
  {
    folder: "bbeh",
    repo: "google-deepmind/bbeh",
    commit: "49b3737f78afbbc334ffacbf457ecdacf47fdeef",
    rename: { "leaderboard-per-task-49b3737.md": "leaderboard.md" },
  },
  {
    folder: "bbh",
    repo: "suzgunmirac/BIG-Bench-Hard",
    commit: "9ee07bd481feebf959a6b59d61ea57bdcf30964d",
  },
  {
    folder: "big-bench-mistake",
    repo: "WHGTyen/BIG-Bench-Mistake",
    commit: "270683a4ecce6f3b22c4ab28a204ab8fa09f2517",
  },
];

const DESCRIPTION = "Per-file SHA-256 of the pinned public releases fetched by " +
  "`deno task runlens fetch-data` (regenerate with lib/data/make_manifest.ts). `path` is " +
  "relative to the data directory, `repoPath` to the repository root inside the archive " +
  "(whose top folder `<repo>-<commit>/` is stripped).";

const sourceId = (s: SourceSpec) => `${s.repo}@${s.commit}`;

/** The manifest entry describing a source. */
function describe(s: SourceSpec): ManifestSource {
  const name = s.repo;
  return {
    folder: s.folder,
    repo: s.repo,
    commit: s.commit,
    archive: `https://codeload.github.com/${name}/zip/${s.commit}`,
    archiveAlt: `https://github.com/${name}/archive/${s.commit}.zip`,
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
 * Build the manifest of `dataDir`: every file of the sources' folders, sorted by path.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * import { MANIFEST_PATH } from "@runlens/data/fetch.ts";
 * const m = await buildManifest(resolveDataDir());
 * assert.equal(m.files.length, 223);
 * // the committed manifest is exactly what the pinned data produces:
 * assert.equal(formatManifest(m), Deno.readTextFileSync(MANIFEST_PATH));
 * ```
 */
export async function buildManifest(dataDir: string): Promise<Manifest> {
  const files: ManifestFile[] = [];
  for (const folder of [...new Set(SOURCES.map((s) => s.folder))]) {
    for (const rel of (await walk(join(dataDir, folder))).sort(byPath)) {
      const renamed = SOURCES.find((s) => s.folder === folder && s.rename && rel in s.rename);
      const spec = renamed ?? SOURCES.find((s) => s.folder === folder && !s.rename)!;
      const data = new Uint8Array(await readFile(join(dataDir, folder, rel)));
      files.push({
        path: `${folder}/${rel}`,
        repoPath: renamed ? renamed.rename![rel] : rel,
        source: sourceId(spec),
        size: data.length,
        sha256: sha256Hex(data),
      });
    }
  }
  files.sort((a, b) => byPath(a.path, b.path));
  const sources = Object.fromEntries(SOURCES.map((s) => [sourceId(s), describe(s)]));
  return { description: DESCRIPTION, sources, files };
}

/** The manifest as written to disk (2-space JSON, trailing newline). */
export function formatManifest(m: Manifest): string {
  return JSON.stringify(m, null, 2) + "\n";
}

/** `lib/data/make_manifest.ts`. */
export const makeManifestCommand: Command<{ dataDir: string; out: string }> = {
  name: "make-manifest",
  invocation: "deno run --allow-all lib/data/make_manifest.ts",
  summary: "Regenerate the data sets' manifest (size, SHA-256, source and path of every " +
    "pinned file) from a data directory holding the pinned releases.",
  usage: "[--data DIR] [--out FILE]",
  options: {
    data: DATA_OPTION,
    out: { type: "string", value: "FILE", description: "where to write", default: MANIFEST_PATH },
  },
  prints: "One line: the file written, how many files it lists, their bytes, and the data " +
    "directory read.",
  examples: ["deno run --allow-all lib/data/make_manifest.ts --data ../shared/data"],
  failure: "a data file cannot be read or the manifest cannot be written",
  parse: ({ values, positionals }) =>
    positionals.length > 0 ? `unexpected argument ${positionals[0]}` : {
      dataDir: resolveDataDir(values.data as string | undefined),
      out: (values.out as string | undefined) ?? MANIFEST_PATH,
    },
  run: async ({ dataDir, out }) => {
    const manifest = await buildManifest(dataDir);
    await writeFile(out, formatManifest(manifest));
    const bytes = manifest.files.reduce((n, f) => n + f.size, 0);
    console.log(`${out}: ${manifest.files.length} files, ${bytes} bytes, from ${dataDir}`);
    return 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(makeManifestCommand, Deno.args));
