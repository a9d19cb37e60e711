/**
 * `parallelMap`: shares of the list really are mapped in Worker threads, results come back
 * whole and in order (non-finite numbers too), and a Worker that cannot help — a missing
 * module, a throwing function, a result larger than its buffer — costs speed, never results.
 *
 * @module
 */
import assert from "node:assert/strict";
import { parallelMap, parallelPool } from "@runlens/core/parallel_map.ts";
import { big, odd, whereMapped } from "./fixtures/parallel/fns.ts";

const fixture = (name: string) => ({
  module: new URL("./fixtures/parallel/fns.ts", import.meta.url).href,
  name,
});
const items = Array.from({ length: 40 }, (_, i) => i);

Deno.test("parallelMap: the first share here, the rest in a Worker, results in order", () => {
  const out = parallelMap(items, fixture("whereMapped"), whereMapped, {
    workers: 1,
    minPerThread: 4,
  });
  assert.deepEqual(out.map(([x]) => x), items);
  assert.deepEqual(out.map(([, inWorker]) => inWorker), items.map((i) => i >= 20));
});

Deno.test("parallelMap: several Workers share the list", () => {
  const out = parallelMap(items, fixture("whereMapped"), whereMapped, {
    workers: 3,
    minPerThread: 4,
  });
  assert.deepEqual(out.map(([x]) => x), items);
  assert.equal(out.filter(([, inWorker]) => inWorker).length, 30);
});

Deno.test("parallelMap: NaN, ±Infinity and -0 come back from a Worker as they left", () => {
  const out = parallelMap(items, fixture("odd"), odd, { workers: 1, minPerThread: 4 });
  assert.deepEqual(out, items.map(odd));
  assert.ok(Object.is(out[39].values[3], -0));
});

Deno.test("parallelMap: a Worker that cannot help leaves its share to the caller", () => {
  const here = (x: number): [number, boolean] => [x, false];
  for (
    const fn of [
      { module: new URL("./fixtures/parallel/missing.ts", import.meta.url).href, name: "f" },
      fixture("fails"),
      fixture("nothing_by_that_name"),
    ]
  ) {
    const out = parallelMap(items, fn, here, { workers: 1, minPerThread: 4 });
    assert.deepEqual(out, items.map(here), fn.name);
  }
  const long = parallelMap(items, fixture("big"), big, {
    workers: 1,
    minPerThread: 4,
    bytesPerItem: 1024,
  });
  assert.deepEqual(long, items.map(big));
});

Deno.test("parallelMap: too few items for a second thread are mapped here", () => {
  const out = parallelMap(items, fixture("whereMapped"), whereMapped, {
    workers: 3,
    minPerThread: 32,
  });
  assert.ok(out.every(([, inWorker]) => !inWorker));
});

Deno.test("parallelPool.mapMade: each item made once, the Workers' shares first, results in order", () => {
  const pool = parallelPool(fixture("whereMapped"), 40, { workers: 1, minPerThread: 4 });
  try {
    const madeOrder: number[] = [];
    const out = pool.mapMade(40, (i) => (madeOrder.push(i), i), whereMapped);
    assert.deepEqual(out.map(([x]) => x), items);
    assert.deepEqual(out.map(([, inWorker]) => inWorker), items.map((i) => i >= 20));
    // the Worker's share (20…39) is made and sent before the caller makes its own
    assert.deepEqual(madeOrder, [...items.slice(20), ...items.slice(0, 20)]);
  } finally {
    pool.close();
  }
});
