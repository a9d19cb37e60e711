/**
 * The scoring Worker: builds its scoring state once from the posted setup, then scores each
 * task (a list of units) it is given and posts the results back with their row buffers
 * transferred (the loop and protocol: `worker_loop.ts`, `pool.ts`). Polars-free: it loads in
 * tens of milliseconds.
 *
 * @example
 * ```ts ignore
 * const w = new Worker(new URL("./worker.ts", import.meta.url), { type: "module" });
 * w.postMessage({ type: "init", setup });
 * ```
 * @module
 */
/// <reference lib="deno.worker" />
import { rowBuffers } from "./compact.ts";
import { serveScoring } from "./worker_loop.ts";

serveScoring((result) => ({
  result,
  transfer: [...rowBuffers(result.rows), ...rowBuffers(result.pending.rows)],
}));
