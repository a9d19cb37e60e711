/**
 * Per-task gain of one model over another (the paper's Figures 5 and 6): `other − base` in
 * accuracy points, tasks sorted ascending by gain. Figure 6 first floors each accuracy at the
 * task's random-chance rate (the paper's footnote: models below chance usually failed to give
 * an extractable answer, which is noise for a size comparison).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { taskGain } from "@runlens/benchmarks/bbeh/gain.ts";
 * import { BBEH_TABLE2 } from "@runlens/benchmarks/bbeh/published.ts";
 * const acc = BBEH_TABLE2.accuracy;
 * const fig5 = taskGain(acc["GPT4o"], acc["o3-mini (high)"]);
 * assert.equal(fig5.height, 23);
 * // the smallest gain first, the largest last
 * assert.deepEqual(fig5.row(0), ["sarc_triples", "SARC Triples", 38.5, 24, -14.5]);
 * assert.deepEqual(fig5.row(22), ["object_counting", "Object Counting", 6.5, 90, 83.5]);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { BBEH_TASKS } from "./tasks.ts";

/** Options of {@link taskGain}. */
export interface GainOptions {
  /** Floor each accuracy at the task's random-chance rate (paper Table 2 "Random"). */
  floorAtRandom?: boolean;
}

/**
 * Columns: task, display, base, other (accuracy %, floored when asked), gain; ascending gain
 * (ties by task name). Tasks missing from either record are left out.
 */
export function taskGain(
  base: Record<string, number>,
  other: Record<string, number>,
  opts: GainOptions = {},
): pl.DataFrame {
  const floor = (x: number, random: number) => opts.floorAtRandom ? Math.max(x, random) : x;
  const rows = BBEH_TASKS.filter((t) => t.name in base && t.name in other).map((t) => {
    const b = floor(base[t.name], t.random);
    const o = floor(other[t.name], t.random);
    return { task: t.name, display: t.display, base: b, other: o, gain: o - b };
  });
  return pl.readRecords(rows).sort(["gain", "task"]);
}
