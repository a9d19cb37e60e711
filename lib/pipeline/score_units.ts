/**
 * Score units in the current thread: what each Worker does with a task, and what a small
 * load does without Workers. A unit whose reading fails in a way no source foresaw (a bug, not
 * a bad log) becomes an error of its file, so one file never decides for the others; so does a
 * data-set task file that turns out unreadable when the unit's records first need it.
 *
 * @example
 * ```ts ignore
 * const results = units.map((u) => scoreUnitSafely(state, u));
 * ```
 * @module
 */
import { DataSetError } from "../core/task_file.ts";
import { RowBuilder } from "./compact.ts";
import { scoreUnit, type ScoringState, UnscoredRowsError } from "./score_unit.ts";
import type { UnitResult, WorkUnit } from "./units.ts";

/**
 * {@link scoreUnit}, with an unexpected exception turned into the unit's error; a row of a
 * benchmark the plan gives no scorer ({@link UnscoredRowsError}) stops the load instead.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const file = { id: 0, path: "a.jsonl", name: "a.jsonl", format: "canonical-jsonl",
 *   gzip: false, defaultRun: "a", size: 10 };
 * const broken = { sourceFor: () => { throw new RangeError("boom"); } };
 * // deno-lint-ignore no-explicit-any
 * const r = scoreUnitSafely(broken as any, { id: 3, file, kind: "range", start: 0, end: 10, part: 0 });
 * assert.deepEqual([r.id, r.rows.n, r.error], [3, 0, "internal error while reading (RangeError: boom)"]);
 * ```
 */
export function scoreUnitSafely(state: ScoringState, unit: WorkUnit): UnitResult {
  try {
    return scoreUnit(state, unit);
  } catch (e) {
    if (e instanceof UnscoredRowsError) throw e;
    const none = () => new RowBuilder().finish();
    return {
      id: unit.id,
      rows: none(),
      quarantine: [],
      pending: { rows: none(), list: [] },
      lines: 0,
      rowsIn: 0,
      targetDiffers: 0,
      targetCase: 0,
      error: e instanceof DataSetError
        ? `data set unreadable: ${e.message}`
        : `internal error while reading (${(e as Error).name}: ${(e as Error).message})`,
      models: [],
      fields: null,
    };
  }
}
