/**
 * The counting Worker of design (c) (issue 26): the scoring Worker's protocol (`pool.ts`,
 * `lib/pipeline/worker.ts`) and its scoring, but each unit's compact rows are reduced to
 * {@link SlimRows} (`slim.ts`) and freed as soon as the unit is scored, so a Worker holds one
 * unit's full rows at most and posts 17 bytes a row instead of ~93.
 * - `{type: "init", setup}` → `{type: "ready", unavailable}` or `{type: "error", message}`;
 * - `{type: "task", units}` → `{type: "results", results}` (slim results, buffers transferred).
 *
 * @example
 * ```ts ignore
 * const pool = new WorkerPool<SlimResult>(2, setup, new URL("./worker.ts", import.meta.url));
 * ```
 * @module
 */
/// <reference lib="deno.worker" />
import { rowBuffers } from "@runlens/pipeline/compact.ts";
import { type ScoringState, UnscoredRowsError } from "@runlens/pipeline/score_unit.ts";
import { scoreUnitSafely } from "@runlens/pipeline/score_units.ts";
import { buildScoringState, type ScoringSetup } from "@runlens/pipeline/scoring_state.ts";
import type { WorkUnit } from "@runlens/pipeline/units.ts";
import { slimBuffers, slimResult } from "./slim.ts";

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
    const results = msg.units.map((u) => slimResult(scoreUnitSafely(state!, u)));
    const transfer = results.flatMap((r) => [
      ...slimBuffers(r.rows),
      ...rowBuffers(r.pending.rows),
    ]);
    self.postMessage({ type: "results", results }, transfer);
  } catch (e) {
    if (e instanceof UnscoredRowsError) {
      return self.postMessage({ type: "unscored", message: e.message });
    }
    self.postMessage({ type: "error", message: (e as Error).stack ?? String(e) });
  }
};
