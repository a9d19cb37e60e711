/**
 * Where a report's numbers come from: the runlens source (the git commit of the checkout, or
 * the SHA-256 of its `lib/` sources when the report must not depend on the commit it is
 * committed in), each data set the runs were scored against (the pinned repository and
 * commit of its benchmark's manifest, and the SHA-256 of the files actually read) and the
 * scorers. Deterministic: the clock is never read.
 *
 * @example
 * ```ts
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * (await sourceDigest()).startsWith("lib/ sha256:"); // true
 * const [bbeh] = datasetProvenance(resolveDataDir(), ["bbeh"]);
 * bbeh.commit; // "80d12ca916b7158f22293fcf3144f4d3d854d4be"
 * ```
 * @module
 */
import { join } from "node:path";
import { REPO_ROOT } from "../core/data_dir.ts";
import { benchmarkManifest } from "../benchmarks/data.ts";
import { getBenchmark } from "../benchmarks/registry.ts";
import { sha256Hex, sourceDigest } from "../core/digest.ts";
import type { DatasetProvenance } from "./html/document.ts";

/** A digest of runlens's sources (`core/digest.ts`). */
export { sourceDigest };

/**
 * The checkout's git commit (12 hex digits, `-dirty` when lib/ has uncommitted changes), or
 * null when this is not a git checkout.
 *
 * @example
 * ```ts
 * const commit = gitCommit(); // e.g. "1ff180e2a9c4" or null
 * ```
 */
export function gitCommit(): string | null {
  const git = (args: string[]) => {
    try {
      const out = new Deno.Command("git", { args, cwd: REPO_ROOT, stdout: "piped", stderr: "null" })
        .outputSync();
      return out.success ? new TextDecoder().decode(out.stdout).trim() : null;
    } catch {
      return null;
    }
  };
  const head = git(["rev-parse", "--short=12", "HEAD"]);
  if (head === null) return null;
  const dirty = git(["status", "--porcelain", "--", "lib"]);
  return dirty ? `${head}-dirty` : head;
}

/**
 * For each benchmark of `benchmarks` with a pinned release: its repository and commit, and the
 * SHA-256 of its data files as they are in `dataDir` (a file that differs from the pinned
 * release shows its own digest, and the source says how many differ; a missing file is left
 * out).
 */
export function datasetProvenance(
  dataDir: string,
  benchmarks: readonly string[],
): DatasetProvenance[] {
  const out: DatasetProvenance[] = [];
  for (const name of benchmarks) {
    const b = getBenchmark(name);
    const manifest = b ? benchmarkManifest(b) : null;
    if (!manifest) continue;
    for (const [key, src] of Object.entries(manifest.sources)) {
      const ext = b!.data!.dataFiles ?? ".json";
      const files = manifest.files.filter((f) => f.source === key && f.path.endsWith(ext));
      const sums: Record<string, string> = {};
      let differ = 0;
      for (const f of files) {
        let bytes: Uint8Array;
        try {
          bytes = Deno.readFileSync(join(dataDir, f.path));
        } catch {
          continue;
        }
        sums[f.path] = sha256Hex(bytes);
        if (sums[f.path] !== f.sha256) differ++;
      }
      if (Object.keys(sums).length === 0) continue;
      out.push({
        name,
        source: differ === 0 ? src.repo : `${src.repo} (${differ} file(s) differ from the pin)`,
        commit: src.commit,
        sha256: sums,
      });
    }
  }
  return out;
}
