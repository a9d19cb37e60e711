/**
 * Digests that say which code and which data made a result: {@link sourceDigest} (the
 * contents of every file under `lib/`) for reports and cache keys, and {@link treeStamp} (the
 * names, sizes and modification times under a folder, cheap for a data directory) for cache
 * keys. SHA-256 throughout (node's native hash: fast and synchronous).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.match(sourceDigest(), /^lib\/ sha256:[0-9a-f]{12}$/);
 * assert.equal(sha256Hex(new TextEncoder().encode("abc")).slice(0, 8), "ba7816bf");
 * ```
 * @module
 */
import { createHash } from "node:crypto";
import { join, relative } from "node:path";
import { REPO_ROOT } from "./data_dir.ts";

/** SHA-256 of bytes (or text) as hex. */
export function sha256Hex(data: Uint8Array | string): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * Regular files under `dir` (relative to `base`), sorted by name at every level; links and
 * special files are not followed — unless `follow`, where links are followed (each real folder
 * walked once, broken links skipped): a data directory may hold its versions as links.
 *
 * @example
 * ```ts
 * filesUnder("lib/core", "lib").includes("core/digest.ts"); // true
 * ```
 */
export function filesUnder(dir: string, base = dir, follow = false): string[] {
  const out: string[] = [];
  const walked = new Set<string>();
  const walk = (d: string) => {
    if (follow) {
      const real = Deno.realPathSync(d);
      if (walked.has(real)) return;
      walked.add(real);
    }
    for (const e of [...Deno.readDirSync(d)].sort((a, b) => a.name < b.name ? -1 : 1)) {
      const p = join(d, e.name);
      const kind = follow && e.isSymlink ? linkedKind(p) : e;
      if (kind.isDirectory) walk(p);
      else if (kind.isFile) out.push(relative(base, p));
    }
  };
  walk(dir);
  return out;
}

/** What a link points to (neither a file nor a folder when it is broken). */
function linkedKind(path: string): { isFile: boolean; isDirectory: boolean } {
  try {
    return Deno.statSync(path);
  } catch {
    return { isFile: false, isDirectory: false };
  }
}

let digest: string | null = null;

/**
 * A digest of runlens's sources: SHA-256 over the sorted `path sha256` lines of every file
 * under `lib/` (12 hex digits), so a report says exactly which code made it without naming a
 * commit, and a cache entry of other code is never used. Computed once per process.
 */
export function sourceDigest(): string {
  if (digest !== null) return digest;
  const lines = filesUnder(join(REPO_ROOT, "lib"), REPO_ROOT).map((path) =>
    `${path} ${sha256Hex(Deno.readFileSync(join(REPO_ROOT, path)))}`
  );
  return digest = `lib/ sha256:${sha256Hex(lines.join("\n")).slice(0, 12)}`;
}

/**
 * A stamp of the files under `dir`, links followed: SHA-256 of their relative paths, sizes and
 * modification times (not their contents: a data directory is read by the load anyway). Null
 * when `dir` cannot be read.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/a.json`, "[]");
 * const before = treeStamp(dir);
 * Deno.writeTextFileSync(`${dir}/a.json`, "[1]");
 * assert.notEqual(treeStamp(dir), before);
 * assert.equal(treeStamp(`${dir}/missing`), null);
 * // a folder linked in: re-pointing the link is a change
 * Deno.mkdirSync(`${dir}/v1`);
 * Deno.mkdirSync(`${dir}/v2`);
 * Deno.writeTextFileSync(`${dir}/v1/t.json`, "[1]");
 * Deno.writeTextFileSync(`${dir}/v2/t.json`, "[22]");
 * const data = Deno.makeTempDirSync();
 * Deno.symlinkSync(`${dir}/v1`, `${data}/bbh`);
 * const v1 = treeStamp(data);
 * Deno.removeSync(`${data}/bbh`);
 * Deno.symlinkSync(`${dir}/v2`, `${data}/bbh`);
 * assert.notEqual(treeStamp(data), v1);
 * Deno.removeSync(data, { recursive: true });
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function treeStamp(dir: string): string | null {
  try {
    const lines = filesUnder(dir, dir, true).map((p) => {
      const st = Deno.statSync(join(dir, p));
      return `${p} ${st.size} ${st.mtime?.getTime() ?? ""}`;
    });
    return sha256Hex(lines.join("\n"));
  } catch {
    return null;
  }
}
