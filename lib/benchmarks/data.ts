/**
 * The registered benchmarks' pinned data: the folders `runlens fetch-data` fills, each
 * benchmark's committed manifest (`<benchmark>/manifest.json`, named by its `data`), and all of
 * them merged — what fetch-data downloads and verifies and what reports cite as provenance.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { getBenchmark } from "@runlens/benchmarks/registry.ts";
 * assert.deepEqual(dataFolders(), ["bbeh", "bbh", "big-bench-mistake", "gsm8k"]);
 * assert.equal(pinnedManifest().files.length, 226);
 * const bbh = benchmarkManifest(getBenchmark("bbh")!)!;
 * assert.deepEqual(Object.keys(bbh.sources), [
 *   "suzgunmirac/BIG-Bench-Hard@9ee07bd481feebf959a6b59d61ea57bdcf30964d",
 * ]);
 * ```
 * @module
 */
import { type Manifest, mergeManifests, parseManifest } from "../data/fetch.ts";
import { MANIFEST_DESCRIPTION } from "../data/make_manifest.ts";
import { benchmarks } from "./registry.ts";
import type { Benchmark } from "./types.ts";

/** The data folders of the registered benchmarks that have pinned data, in registry order. */
export function dataFolders(): string[] {
  return benchmarks().flatMap((b) => b.data ? [b.data.folder] : []);
}

/** A benchmark's committed manifest (read and checked each call); null when it has no data. */
export function benchmarkManifest(b: Benchmark): Manifest | null {
  if (!b.data) return null;
  const url = new URL(b.data.manifest);
  return parseManifest(Deno.readTextFileSync(url), url.href);
}

/** Every registered benchmark's manifest, merged (sources in registry order). */
export function pinnedManifest(): Manifest {
  const manifests = benchmarks().flatMap((b) => benchmarkManifest(b) ?? []);
  return mergeManifests(manifests, MANIFEST_DESCRIPTION);
}
