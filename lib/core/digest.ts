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
 * special files are not followed.
 *
 * @example
 * ```ts
 * filesUnder("lib/core", "lib").includes("core/digest.ts"); // true
 * ```
 */
export function filesUnder(dir: string, base = dir): string[] {
  const out: string[] = [];
  const walk = (d: string) => {
    for (const e of [...Deno.readDirSync(d)].sort((a, b) => a.name < b.name ? -1 : 1)) {
      const p = join(d, e.name);
      if (e.isDirectory) walk(p);
      else if (e.isFile) out.push(relative(base, p));
    }
  };
  walk(dir);
  return out;
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
 * A stamp of the files under `dir`: SHA-256 of their relative paths, sizes and modification
 * times (not their contents: a data directory is read by the load anyway). Null when `dir`
 * cannot be read.
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
 * Deno.removeSync(dir, { recursive: true });
 * ```
 */
export function treeStamp(dir: string): string | null {
  try {
    const lines = filesUnder(dir).map((p) => {
      const st = Deno.statSync(join(dir, p));
      return `${p} ${st.size} ${st.mtime?.getTime() ?? ""}`;
    });
    return sha256Hex(lines.join("\n"));
  } catch {
    return null;
  }
}
