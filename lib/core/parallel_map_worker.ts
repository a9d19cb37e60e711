/**
 * The Worker of `parallel_map.ts`: imports the named function, maps its share of the items,
 * writes the results' JSON into the shared buffer and wakes the waiting thread — also when
 * anything fails, so that the caller never waits for a dead Worker.
 *
 * @module
 */
import { DONE, FAILED, fromJson, toJson } from "./parallel_map.ts";

interface Request {
  module: string;
  name: string;
  items: string;
  shared: SharedArrayBuffer;
}

self.onmessage = async (e: MessageEvent<Request>) => {
  const { module, name, items, shared } = e.data;
  const state = new Int32Array(shared, 0, 2);
  let status = FAILED;
  try {
    const fn = (await import(module))[name] as (item: unknown) => unknown;
    const bytes = new TextEncoder().encode(
      toJson((fromJson(items) as unknown[]).map((x) => fn(x))),
    );
    const out = new Uint8Array(shared, 8);
    if (bytes.length <= out.length) {
      out.set(bytes);
      state[1] = bytes.length;
      status = DONE;
    }
  } finally {
    Atomics.store(state, 0, status);
    Atomics.notify(state, 0);
  }
};
