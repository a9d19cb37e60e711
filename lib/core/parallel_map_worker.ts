/**
 * The Worker of `parallel_map.ts`: loads the named function as soon as it is told which (a
 * `load` message, sent when the pool starts), then maps its share of the items (a job
 * message), writes the results' JSON into the shared buffer and wakes the waiting thread —
 * also when anything fails, so that the caller never waits for a dead Worker.
 *
 * @module
 */
import { DONE, type ExportedFunction, FAILED, fromJson, toJson } from "./parallel_map_protocol.ts";

type Fn = (item: unknown) => unknown;
let loaded: Promise<Fn> | null = null;

self.onmessage = async (e: MessageEvent) => {
  if (e.data.load) {
    const { module, name } = e.data.load as ExportedFunction;
    loaded = import(module).then((m) => m[name] as Fn);
    loaded.catch(() => {}); // reported by the job that needs it
    return;
  }
  const { items, shared } = e.data as { items: string; shared: SharedArrayBuffer };
  const state = new Int32Array(shared, 0, 2);
  let status = FAILED;
  try {
    const fn = await loaded!;
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
