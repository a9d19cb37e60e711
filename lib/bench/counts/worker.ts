/**
 * The counting Worker of design (c) (issue 26): the scoring Worker's loop and protocol
 * (`lib/pipeline/worker_loop.ts`), but each unit's compact rows are reduced to slim rows
 * (`slim.ts`) and freed as soon as the unit is scored, so a Worker holds one unit's full rows
 * at most and posts 17 bytes a row instead of ~93.
 *
 * @example
 * ```ts ignore
 * const pool = new WorkerPool<SlimResult>(2, setup, new URL("./worker.ts", import.meta.url));
 * ```
 * @module
 */
/// <reference lib="deno.worker" />
import { rowBuffers } from "@runlens/pipeline/compact.ts";
import { serveScoring } from "@runlens/pipeline/worker_loop.ts";
import { slimBuffers, slimResult } from "./slim.ts";

serveScoring((unit) => {
  const result = slimResult(unit);
  // run with --v8-flags=--expose-gc (`deno task bench --counts` measures both): collect once a
  // unit is reduced, so a Worker holds one unit's garbage at most — the peak is the Workers'
  // heaps (1M rows: 429 → 306-311 MB, for 0.75 s more)
  (globalThis as { gc?: () => void }).gc?.();
  return { result, transfer: [...slimBuffers(result.rows), ...rowBuffers(result.pending.rows)] };
});
