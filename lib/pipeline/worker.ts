/**
 * The scoring Worker: builds its {@link ScoringState} once from the posted
 * {@link ScoringSetup}, then scores each task (a list of units) it is given and posts the
 * results back with their row buffers transferred. Polars-free: it loads in tens of
 * milliseconds. Protocol (see `pool.ts`):
 * - `{type: "init", setup}` → `{type: "ready", unavailable}` or `{type: "error", message}`;
 * - `{type: "task", units}` → `{type: "results", results}`, or `{type: "unscored", message}`
 *   when a row is tied to a benchmark the plan gives no scorer (the load stops).
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
import { type ScoringState, UnscoredRowsError } from "./score_unit.ts";
import { scoreUnitSafely } from "./score_units.ts";
import { buildScoringState, type ScoringSetup } from "./scoring_state.ts";
import type { WorkUnit } from "./units.ts";

let state: ScoringState | null = null;

self.onmessage = async (ev: MessageEvent) => {
  const msg = ev.data as { type: "init"; setup: ScoringSetup } | {
    type: "task";
    units: WorkUnit[];
  };
  try {
    if (msg.type === "init") {
      const built = await buildScoringState(msg.setup);
      state = built.state;
      self.postMessage({ type: "ready", unavailable: built.unavailable });
      return;
    }
    const results = msg.units.map((u) => scoreUnitSafely(state!, u));
    const transfer = results.flatMap((r) => [...rowBuffers(r.rows), ...rowBuffers(r.pending.rows)]);
    self.postMessage({ type: "results", results }, transfer);
  } catch (e) {
    if (e instanceof UnscoredRowsError) {
      return self.postMessage({ type: "unscored", message: e.message });
    }
    self.postMessage({ type: "error", message: (e as Error).stack ?? String(e) });
  }
};
