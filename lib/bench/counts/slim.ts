/**
 * Issue 26, design (c): what a counting Worker keeps of a scored unit instead of its compact
 * rows. The summaries of `runlens score` need, per row, only what decides a duplicate (run,
 * benchmark, task, example, epoch, example id), where it is (its line, for the quarantine
 * reason naming the earlier row) and its verdict (correct, answer found); everything else of
 * a compact row (response pointer, lengths, extracted answer, scorer, data version, …) is
 * dropped in the Worker, right after the unit is scored. A row is 17 bytes (4 Int32 + 1 Int8,
 * and 4 more when rows carry example ids) instead of the compact row's ~93.
 *
 * The run, benchmark, task, model, where the run came from and the lm-eval filter are one
 * "cell" per distinct combination: a small table per unit, a cell id per row.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EMPTY_ROW, RowBuilder } from "@runlens/pipeline/compact.ts";
 * const b = new RowBuilder();
 * for (const [example, correct] of [[3, true], [4, false], [3, true]] as const) {
 *   b.add({ ...EMPTY_ROW, line: example, run: "r", model: "m", benchmark: "bbeh",
 *     task: "nycc", example, correct, found: true });
 * }
 * const slim = slimRows(b.finish());
 * assert.deepEqual([slim.n, slim.cells.length, [...slim.example]], [3, 1, [3, 4, 3]]);
 * assert.deepEqual([...slim.verdict].map(correctOf), [1, 0, 1]);
 * assert.deepEqual(slim.cells[0], { run: "r", benchmark: "bbeh", task: "nycc", model: "m",
 *   runFrom: "run", filter: null });
 * ```
 * @module
 */
import {
  type CompactRows,
  releaseRows,
  RUN_FROM,
  type RunFrom,
} from "@runlens/pipeline/compact.ts";
import type { UnitResult } from "@runlens/pipeline/units.ts";

/** One distinct (run, benchmark, task, model, run's origin, lm-eval filter) of a unit. */
export interface Cell {
  run: string;
  benchmark: string;
  task: string;
  model: string;
  runFrom: RunFrom;
  filter: string | null;
}

/** A unit's rows reduced to what duplicates and per-task counts need. */
export interface SlimRows {
  n: number;
  cells: Cell[];
  /** Per row: its cell (index into `cells`). */
  cell: Int32Array;
  example: Int32Array;
  epoch: Int32Array;
  /** Line within the unit (a range: within the range, as the compact rows have it). */
  line: Int32Array;
  /** {@link verdictCode} of (correct, found). */
  verdict: Int8Array;
  /** Ids into `exampleIds` (-1: none); absent when no row of the unit has one. */
  exampleId: Int32Array | null;
  exampleIds: string[];
}

/** A {@link UnitResult} with its rows (and pending rows) reduced; the rest is kept. */
export interface SlimResult extends Omit<UnitResult, "rows"> {
  rows: SlimRows;
}

/** (correct, found) as one byte: each of -1 (null), 0, 1, shifted to 0..2. */
export const verdictCode = (correct: number, found: number) => (correct + 1) * 3 + found + 1;
/** The `correct` of a {@link verdictCode} (-1: null). */
export const correctOf = (code: number) => Math.floor(code / 3) - 1;
/** The `found` of a {@link verdictCode} (-1: null). */
export const foundOf = (code: number) => (code % 3) - 1;

/**
 * Reduce `rows` (see the module documentation). Does not free them: {@link slimResult} does.
 */
export function slimRows(rows: CompactRows): SlimRows {
  const { n } = rows;
  const cells: Cell[] = [];
  const cellIds = new Map<string, number>();
  const cell = new Int32Array(n);
  const t = rows.int;
  const s = rows.strings;
  const same = (i: number) =>
    t.run[i] === t.run[i - 1] && t.task[i] === t.task[i - 1] &&
    t.benchmark[i] === t.benchmark[i - 1] && t.model[i] === t.model[i - 1] &&
    rows.byte.run_from[i] === rows.byte.run_from[i - 1] && t.filter[i] === t.filter[i - 1];
  let lastId = -1;
  for (let i = 0; i < n; i++) {
    // consecutive rows mostly share their cell: no key, no Map lookup
    if (i > 0 && same(i)) {
      cell[i] = lastId;
      continue;
    }
    const key = `${t.run[i]}/${t.benchmark[i]}/${t.task[i]}/${t.model[i]}/` +
      `${rows.byte.run_from[i]}/${t.filter[i]}`;
    lastId = cellIds.get(key) ?? -1;
    if (lastId < 0) {
      lastId = cells.length;
      cellIds.set(key, lastId);
      cells.push({
        run: s.run[t.run[i]],
        benchmark: s.benchmark[t.benchmark[i]],
        task: s.task[t.task[i]],
        model: s.model[t.model[i]],
        runFrom: RUN_FROM[rows.byte.run_from[i]],
        filter: t.filter[i] < 0 ? null : s.filter[t.filter[i]],
      });
    }
    cell[i] = lastId;
  }
  const verdict = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    verdict[i] = verdictCode(rows.byte.correct[i], rows.byte.found[i]);
  }
  const ids = rows.sparse.example_id;
  return {
    n,
    cells,
    cell,
    example: t.example.slice(),
    epoch: t.epoch.slice(),
    line: t.line.slice(),
    verdict,
    exampleId: ids ? ids.slice() : null,
    exampleIds: ids ? s.example_id : [],
  };
}

/**
 * `result` with its rows reduced and its compact row buffers freed at once (the Worker's
 * memory is then what the slim rows take, not the full rows waiting for a garbage collection).
 * Pending rows (identical inputs, rare) are kept as they are: the main thread resolves them.
 */
export function slimResult(result: UnitResult): SlimResult {
  const rows = slimRows(result.rows);
  releaseRows(result.rows);
  return { ...result, rows };
}

/** The buffers of `rows`, for `postMessage(…, transfer)`. */
export function slimBuffers(rows: SlimRows): ArrayBuffer[] {
  const arrays = [rows.cell, rows.example, rows.epoch, rows.line, rows.verdict, rows.exampleId];
  return arrays.flatMap((a) => a ? [a.buffer as ArrayBuffer] : []);
}
