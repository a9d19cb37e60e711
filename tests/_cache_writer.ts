/**
 * Test helper for the cache: a compact frame with awkward values ({@link awkwardFrame}), and,
 * run as a script, one writer of a cache entry for the concurrency test:
 * `deno run -A tests/_cache_writer.ts DIR KEY GO_FILE` builds the frame, says so by creating
 * `GO_FILE.ready.<pid>`, waits until GO_FILE exists (so that two writers start together),
 * writes the awkward frame as entry KEY of the cache DIR and prints the {@link writeCache}
 * result as JSON.
 *
 * @example
 * ```ts
 * import { awkwardFrame } from "./_cache_writer.ts";
 * awkwardFrame(10).height; // 10
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import { EMPTY_ROW, RowBuilder } from "@runlens/pipeline/compact.ts";
import { compactFrame } from "@runlens/pipeline/compact_frame.ts";
import { writeCache } from "@runlens/pipeline/cache.ts";

/** Run names a folder cannot hold as they are, or that hive readers treat specially. */
export const AWKWARD_RUNS = [
  "plain",
  "a/b",
  "100%",
  "x=y",
  "with space",
  "modèle-日本語",
  "",
  "nul\u0000inside",
  "__HIVE_DEFAULT_PARTITION__",
  ".",
  "..",
  "quote'\"#?*:\\^[]{}",
  "%2F",
  "007",
];

/** Offsets past 2^31 (byte offsets into big files). */
export const BIG_OFFSET = 2 ** 33 + 5;

/**
 * `n` rows over {@link AWKWARD_RUNS} and two benchmarks: runs interleaved row by row when
 * `interleaved` (the cache must sort them back), else one block per run.
 */
export function awkwardFrame(n: number, interleaved = true): pl.DataFrame {
  const b = new RowBuilder();
  const runs = AWKWARD_RUNS.length;
  const block = Math.ceil(n / runs);
  for (let i = 0; i < n; i++) {
    const r = interleaved ? i % runs : Math.floor(i / block);
    b.add({
      ...EMPTY_ROW,
      file: r % 3,
      line: i + 1,
      run: AWKWARD_RUNS[r],
      model: `model ${r % 4}`,
      benchmark: r % 5 === 0 ? "bbh" : "bbeh",
      task: `task_${i % 23}`,
      example: i % 200,
      epoch: 1 + (i % 2),
      correct: i % 7 === 0 ? null : i % 3 === 0,
      extracted: i % 4 === 0 ? null : `(${String.fromCharCode(97 + (i % 5))}) é`,
      scorer: "bbeh-official",
      chars: 100 + i,
      bytes: 120 + i,
      tokens: i % 6 === 0 ? null : 50 + i,
      stored: i % 5 === 0 ? null : i % 2 === 0,
      tool_extracted: i % 3 === 0 ? "x" : null,
      filter: i % 8 === 0 ? "strict-match" : null,
      data_version: i % 9 === 0 ? "lm-eval" : null,
      pointer: i % 10 === 0
        ? { kind: "member", member: "samples/a.json", offset: BIG_OFFSET + i, length: 7 }
        : { kind: "span", offset: BIG_OFFSET + i * 1000, length: 999 },
    });
  }
  return compactFrame(b.finish(), ["logs/a.jsonl", "logs/ü b.jsonl", "logs/c.jsonl"]);
}

if (import.meta.main) {
  const [dir, key, go] = Deno.args;
  const frame = awkwardFrame(20_000);
  Deno.writeTextFileSync(`${go}.ready.${Deno.pid}`, ""); // polars loaded, frame built
  while (true) {
    try {
      Deno.statSync(go);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 2));
    }
  }
  const out = writeCache(dir, key, {
    frame,
    quarantine: [{
      file: "logs/a.jsonl",
      line: 9,
      reason: "missing task",
      run: "a",
      benchmark: null,
    }],
    meta: { writer: "either" },
    fingerprints: [],
    settings: {},
  });
  console.log(JSON.stringify(out));
}
