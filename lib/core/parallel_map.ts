/**
 * Map a pure function over a list with part of the list in Worker threads, synchronously: the
 * caller's thread maps the first share while the Workers map the rest, then it waits for them
 * (`Atomics.wait`) and reads their results from shared memory. For work that is pure, slow per
 * item and reached from synchronous code (the summaries' bootstrap intervals: 2,000 resamples
 * per run, 0.4 s for 222 runs), so a second core halves it without making every caller async.
 *
 * The function is named by module URL and export name (a Worker cannot receive a closure);
 * items and results cross as JSON (non-finite numbers and -0 kept). A Worker that fails, is too slow
 * or returns more than its buffer holds changes nothing but speed: its share is mapped here.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const items = Array.from({ length: 64 }, (_, i) => i);
 * const fn = { module: new URL("./count.ts", import.meta.url).href, name: "count" };
 * const out = parallelMap(items, fn, (n) => n.toLocaleString("en-US"), { minPerThread: 8 });
 * assert.deepEqual(out, items.map((n) => n.toLocaleString("en-US")));
 * ```
 * @module
 */
import { DONE, type ExportedFunction, fromJson, PENDING, toJson } from "./parallel_map_protocol.ts";

export type { ExportedFunction };

/** How {@link parallelMap} splits the work. */
export interface ParallelOptions {
  /** Threads besides the caller's (default: CPUs − 1). */
  workers?: number;
  /** Fewer items than this per thread are not worth a Worker's start (default 16). */
  minPerThread?: number;
  /** Bytes of JSON each Worker may return (default 64 KiB per item). */
  bytesPerItem?: number;
  /** How long to wait for a Worker before mapping its share here (default 30 s + 50 ms an item). */
  timeoutMs?: number;
}

/** `items.map((x) => local(x))`, with shares of the list mapped by `fn` in Worker threads. */
export function parallelMap<T, R>(
  items: readonly T[],
  fn: ExportedFunction,
  local: (item: T) => R,
  options: ParallelOptions = {},
): R[] {
  const pool = parallelPool(fn, items.length, options);
  try {
    return pool.map(items, local);
  } finally {
    pool.close();
  }
}

/** Worker threads started ahead of their work (see {@link parallelPool}). */
export interface ParallelPool {
  /** How many threads share a map, the caller's included (1: no Workers). */
  threads: number;
  /** `items.map((x) => local(x))`, shares in the Workers; once per pool. */
  map<T, R>(items: readonly T[], local: (item: T) => R): R[];
  /**
   * {@link map} of items 0…count-1 made by `make(i)`, the Workers' shares made first: the
   * caller makes its own share while the Workers map theirs. Once per pool.
   */
  mapMade<T, R>(count: number, make: (i: number) => T, local: (item: T) => R): R[];
  /** Stop the Workers (after `map`, or instead of it). */
  close(): void;
}

/**
 * Workers for a later {@link parallelMap} of about `expected` items, started now: each loads
 * `fn`'s module while the caller prepares the items (a Worker's start and module load were
 * ~130 ms of a 300 ms share). Close it in a `finally`: open Workers keep a process alive.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const fn = { module: new URL("./count.ts", import.meta.url).href, name: "count" };
 * const pool = parallelPool(fn, 64, { minPerThread: 8, workers: 1 });
 * try {
 *   const items = Array.from({ length: 64 }, (_, i) => i * 1000);
 *   assert.deepEqual(pool.map(items, (n) => n.toLocaleString("en-US")), items.map((n) => n.toLocaleString("en-US")));
 * } finally {
 *   pool.close();
 * }
 * ```
 */
export function parallelPool(
  fn: ExportedFunction,
  expected: number,
  options: ParallelOptions = {},
): ParallelPool {
  const min = options.minPerThread ?? 16;
  const extra = options.workers ?? Math.max(0, (navigator.hardwareConcurrency ?? 1) - 1);
  const threads = Math.max(1, Math.min(extra + 1, Math.floor(expected / min)));
  const workers = Array.from({ length: threads - 1 }, () => startWorker(fn));
  return {
    threads,
    map: (items, local) => shareOut(items.length, (i) => items[i], local, workers, options),
    mapMade: (count, make, local) => shareOut(count, make, local, workers, options),
    close: () => workers.forEach((w) => w?.terminate()),
  };
}

/** A Worker loading `fn`'s module, or null where Workers cannot start (a sandbox). */
function startWorker(fn: ExportedFunction): Worker | null {
  try {
    const worker = new Worker(new URL("./parallel_map_worker.ts", import.meta.url).href, {
      type: "module",
    });
    worker.postMessage({ load: fn });
    return worker;
  } catch {
    return null;
  }
}

/**
 * Items 0…count-1 made by `make`, the Workers' shares made and sent first, then the caller's
 * made and mapped here while the Workers map theirs; a failed share is mapped here.
 */
function shareOut<T, R>(
  count: number,
  make: (i: number) => T,
  local: (item: T) => R,
  workers: readonly (Worker | null)[],
  options: ParallelOptions,
): R[] {
  const share = Math.ceil(count / (workers.length + 1));
  const made = (from: number, to: number) =>
    Array.from({ length: Math.max(0, Math.min(to, count) - from) }, (_, k) => make(from + k));
  const jobs = workers.map((worker, k) =>
    sendJob(worker, made((k + 1) * share, (k + 2) * share), options)
  );
  const out = made(0, share).map((x) => local(x));
  for (const job of jobs) {
    out.push(...(awaitJob<T, R>(job, options) ?? job.items.map((x) => local(x))));
  }
  return out;
}

interface Job<T> {
  items: readonly T[];
  worker: Worker | null;
  state: Int32Array;
  bytes: Uint8Array;
}

function sendJob<T>(worker: Worker | null, items: readonly T[], options: ParallelOptions): Job<T> {
  const size = (options.bytesPerItem ?? 64 * 1024) * items.length;
  const shared = new SharedArrayBuffer(8 + size);
  const job = {
    items,
    worker,
    state: new Int32Array(shared, 0, 2),
    bytes: new Uint8Array(shared, 8),
  };
  if (items.length === 0) job.worker = null;
  job.worker?.postMessage({ items: toJson(items), shared });
  return job;
}

/** The Worker's results, or null when it failed or timed out. */
function awaitJob<T, R>(job: Job<T>, options: ParallelOptions): R[] | null {
  if (job.worker === null) return null;
  Atomics.wait(job.state, 0, PENDING, options.timeoutMs ?? 30_000 + 50 * job.items.length);
  if (Atomics.load(job.state, 0) !== DONE) return null;
  // TextDecoder does not read shared memory: copy the bytes out first
  return fromJson(new TextDecoder().decode(job.bytes.slice(0, job.state[1]))) as R[];
}
