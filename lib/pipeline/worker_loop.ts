/**
 * The message loop of a scoring Worker (`pool.ts` protocol), shared by the Worker that posts
 * compact rows (`worker.ts`) and those that post a reduction of them (the counting prototype,
 * `lib/bench/counts/worker.ts`): build the {@link ScoringState} once from the posted
 * {@link ScoringSetup}, then score each task (a list of units) and post what `post` makes of
 * each unit's result, with the buffers it names transferred.
 * - `{type: "init", setup}` → `{type: "ready", unavailable}` or `{type: "error", message}`;
 * - `{type: "task", units}` → `{type: "results", results}`, or `{type: "unscored", message}`
 *   when a row is tied to a benchmark the plan gives no scorer (the load stops).
 *
 * @example
 * ```ts ignore
 * serveScoring((r) => ({ result: r, transfer: rowBuffers(r.rows) }));
 * ```
 * @module
 */
/// <reference lib="deno.worker" />
import { type ScoringState, UnscoredRowsError } from "./score_unit.ts";
import { scoreUnitSafely } from "./score_units.ts";
import { buildScoringState, type ScoringSetup } from "./scoring_state.ts";
import type { UnitResult, WorkUnit } from "./units.ts";

/** Serve the pool's messages in this Worker, posting `post(result)` of each scored unit. */
export function serveScoring<R>(
  post: (result: UnitResult) => { result: R; transfer: ArrayBuffer[] },
): void {
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
      const posted = msg.units.map((u) => post(scoreUnitSafely(state!, u)));
      const results = posted.map((p) => p.result);
      self.postMessage({ type: "results", results }, posted.flatMap((p) => p.transfer));
    } catch (e) {
      if (e instanceof UnscoredRowsError) {
        return self.postMessage({ type: "unscored", message: e.message });
      }
      self.postMessage({ type: "error", message: (e as Error).stack ?? String(e) });
    }
  };
}
