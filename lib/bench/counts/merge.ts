/**
 * Issue 26, design (c): merge the counting Workers' slim results (`slim.ts`) into per (run,
 * benchmark, task) counts — n, correct, no answer found — without a frame of every row. Does
 * what `lib/pipeline/merge.ts` does that changes counts on a load of plain logs: files that
 * could not be read are errors, lines are numbered within their file, repeats of (run,
 * benchmark, task, example, epoch[, example id]) after the first in file and line order are
 * quarantined naming it (the same `firstRows` table), and every file's records are scored or
 * quarantined (`checkRowBalance`).
 *
 * What it does not do yet — the steps of `merge.ts` that need rows of several files or a
 * second look at rows — it refuses with a {@link PrototypeLimit} naming it, rather than
 * printing counts that might differ: pending rows (identical inputs without an index),
 * lm-eval files with several filters, runs named by a `model` field (keeping a model's
 * sources apart needs every row's key), scored rows without a run that the load would join
 * to their file's run, and files refused for targets that mostly differ from the data set's.
 * Quarantined records take the run names `run_names.ts` gives them.
 *
 * @example
 * ```ts ignore
 * const counted = mergeCounts(files, units, results);
 * counted.cells; // per (run, benchmark, task): n, correct, no_answer
 * ```
 * @module
 */
import { checkRowBalance } from "@runlens/logs/quarantine.ts";
import type { SourceFile } from "@runlens/logs/sources/types.ts";
import { type CompactRows, EMPTY_ROW, firstRows, RowBuilder } from "@runlens/pipeline/compact.ts";
import type { LoadQuarantine } from "@runlens/pipeline/merge.ts";
import { nameRuns } from "@runlens/pipeline/run_names.ts";
import type { TaskCounts } from "@runlens/pipeline/summarise.ts";
import type { WorkUnit } from "@runlens/pipeline/units.ts";
import { correctOf, foundOf, type SlimResult } from "./slim.ts";

/** A load this prototype cannot count exactly (yet): the step of `merge.ts` it lacks. */
export class PrototypeLimit extends Error {}

/**
 * The counts of one (run, benchmark, task) after duplicates are dropped: `n` rows with a
 * verdict, `correct`, `no_answer` (the scorer found none), and the rows kept.
 */
export interface CellCount extends TaskCounts {
  rows: number;
}

/** What {@link mergeCounts} found. */
export interface CountedLoad {
  cells: CellCount[];
  quarantine: LoadQuarantine[];
  /** Records read per file id. */
  rowsIn: number[];
  errors: { file: string; reason: string }[];
  /** Run → the model names of its rows and records. */
  models: Map<string, Set<string>>;
  /** Distinct (run, file, benchmark) of the scored rows (to place quarantined records). */
  sources: { run: string; file: string; benchmark: string }[];
  /** Whether every row is of epoch 1 (then a run's rows are its distinct examples). */
  oneEpoch: boolean;
}

/** Merge the slim results of `units` (any order) into counts. */
export function mergeCounts(
  files: readonly SourceFile[],
  units: readonly WorkUnit[],
  results: readonly SlimResult[],
): CountedLoad {
  const ordered = [...results].sort((a, b) => a.id - b.id);
  const failed = new Map<number, string>();
  for (const r of ordered) {
    const id = units[r.id].file.id;
    if (r.error !== null && !failed.has(id)) failed.set(id, r.error);
  }
  const kept = ordered.filter((r) => !failed.has(units[r.id].file.id));
  refuseUnsupported(units, kept);
  const quarantine = unitQuarantine(units, kept);
  nameQuarantinedRuns(files, units, kept, quarantine);
  const rows = concatSlim(units, kept);
  const counted = countFirsts(rows, files, quarantine);
  const rowsIn = files.map(() => 0);
  for (const r of kept) rowsIn[units[r.id].file.id] += r.rowsIn;
  quarantine.sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line);
  checkFiles(files, counted.scoredPerFile, quarantine, rowsIn, failed);
  return {
    cells: counted.cells,
    quarantine,
    rowsIn,
    errors: [...failed.entries()].map(([id, reason]) => ({ file: files[id].path, reason })),
    models: modelsOf(kept),
    sources: sourcesOf(units, kept),
    oneEpoch: rows.oneEpoch,
  };
}

/** Throw a {@link PrototypeLimit} for a load needing a step of `merge.ts` not done here. */
function refuseUnsupported(units: readonly WorkUnit[], kept: readonly SlimResult[]): void {
  const differ = new Map<number, [number, number]>();
  for (const r of kept) {
    const file = units[r.id].file;
    const limit = (what: string) => new PrototypeLimit(`${file.path}: ${what}`);
    if (r.pending.list.length > 0) throw limit("rows with identical inputs (pending rows)");
    if (r.quarantine.some((q) => q.lmEval) || r.rows.cells.some((c) => c.filter !== null)) {
      throw limit("lm-eval filters");
    }
    if (r.rows.cells.some((c) => c.runFrom === "model")) throw limit("runs named by a model field");
    if (file.fields) {
      const [d, n] = differ.get(file.id) ?? [0, 0];
      differ.set(file.id, [d + r.targetDiffers, n + r.rowsIn]);
    }
  }
  for (const [id, [d, n]] of differ) {
    if (d * 2 > n) throw new PrototypeLimit(`file ${id}: most targets differ (a refused file)`);
  }
}

/**
 * Give quarantined records the run names `run_names.ts` gives them (a line that is not a
 * record joins its file's one run): `nameRuns` itself, on one row per (unit, cell) — what it
 * decides for records without a run depends only on which runs each file's rows name, when no
 * run is named by a `model` field (refused above: keeping a model's sources apart needs every
 * row's key). A scored row it would rename (a record without a run among named ones) is
 * refused: the slim rows are not renamed here.
 */
function nameQuarantinedRuns(
  files: readonly SourceFile[],
  units: readonly WorkUnit[],
  kept: readonly SlimResult[],
  quarantine: LoadQuarantine[],
): void {
  const b = new RowBuilder();
  for (const r of kept) {
    const file = units[r.id].file.id;
    for (const c of r.rows.cells) b.add({ ...EMPTY_ROW, ...c, run_from: c.runFrom, file });
  }
  const rows = b.finish();
  const named = nameRuns(rows, quarantine, files).rows;
  for (let i = 0; i < rows.n; i++) {
    const was = rows.strings.run[rows.int.run[i]];
    if (named.strings.run[named.int.run[i]] !== was) {
      throw new PrototypeLimit(
        `scored rows of run ${was} renamed by the load (records naming no run)`,
      );
    }
  }
}

/** The units' quarantined records, with lines numbered within their file. */
function unitQuarantine(units: readonly WorkUnit[], kept: readonly SlimResult[]): LoadQuarantine[] {
  const out: LoadQuarantine[] = [];
  const offsets = lineOffsets(units, kept);
  kept.forEach((r, k) => {
    const file = units[r.id].file.path;
    for (const q of r.quarantine) {
      out.push({
        file,
        line: q.line + offsets[k],
        reason: q.reason,
        run: q.run,
        runFrom: q.runFrom,
        benchmark: q.benchmark,
      });
    }
  });
  return out;
}

/** Per kept result: the lines of its file's earlier ranges. */
function lineOffsets(units: readonly WorkUnit[], kept: readonly SlimResult[]): number[] {
  const seen = new Map<number, number>();
  return kept.map((r) => {
    const file = units[r.id].file.id;
    const offset = seen.get(file) ?? 0;
    seen.set(file, offset + r.lines);
    return offset;
  });
}

/** Every kept row, in unit order: its (run, benchmark, task) id, key parts, file, line, verdict. */
interface AllRows {
  n: number;
  names: { run: string; benchmark: string; task: string }[];
  rbt: Int32Array;
  example: Int32Array;
  epoch: Int32Array;
  exampleId: Int32Array | null;
  file: Int32Array;
  line: Int32Array;
  verdict: Int8Array;
  oneEpoch: boolean;
}

/**
 * Concatenate the slim rows in unit order (= file and line order, checked), their cells
 * mapped to global (run, benchmark, task) ids, and free each unit's buffers once copied.
 */
function concatSlim(units: readonly WorkUnit[], kept: readonly SlimResult[]): AllRows {
  const n = kept.reduce((s, r) => s + r.rows.n, 0);
  const names: AllRows["names"] = [];
  const ids = new Map<string, number>();
  const exampleIds = new Map<string, number>();
  const withIds = kept.some((r) => r.rows.exampleId);
  const out: AllRows = {
    n,
    names,
    rbt: new Int32Array(n),
    example: new Int32Array(n),
    epoch: new Int32Array(n),
    exampleId: withIds ? new Int32Array(n).fill(-1) : null,
    file: new Int32Array(n),
    line: new Int32Array(n),
    verdict: new Int8Array(n),
    oneEpoch: true,
  };
  const offsets = lineOffsets(units, kept);
  let at = 0;
  kept.forEach((r, k) => {
    const s = r.rows;
    const cellRbt = s.cells.map((c) => {
      const key = `${c.run}\u0000${c.benchmark}\u0000${c.task}`;
      if (!ids.has(key)) ids.set(key, names.push({ ...c }) - 1);
      return ids.get(key)!;
    });
    const idMap = s.exampleIds.map((x) =>
      exampleIds.get(x) ?? exampleIds.set(x, exampleIds.size).size - 1
    );
    const file = units[r.id].file.id;
    for (let i = 0; i < s.n; i++) {
      out.rbt[at + i] = cellRbt[s.cell[i]];
      out.line[at + i] = s.line[i] + offsets[k];
      if (s.epoch[i] !== 1) out.oneEpoch = false;
      if (s.exampleId && s.exampleId[i] >= 0) out.exampleId![at + i] = idMap[s.exampleId[i]];
    }
    out.example.set(s.example, at);
    out.epoch.set(s.epoch, at);
    out.verdict.set(s.verdict, at);
    out.file.fill(file, at, at + s.n);
    at += s.n;
    for (const a of [s.cell, s.example, s.epoch, s.line, s.verdict, s.exampleId]) {
      const buffer = a?.buffer as ArrayBuffer | undefined;
      if (buffer && !buffer.detached) buffer.transfer(0);
    }
  });
  checkOrder(out);
  return out;
}

/** Rows must come in file and line order (the first of a key wins): a prototype's check. */
function checkOrder(rows: AllRows): void {
  for (let i = 1; i < rows.n; i++) {
    const f = rows.file[i - 1] - rows.file[i];
    if (f > 0 || (f === 0 && rows.line[i - 1] > rows.line[i])) {
      throw new PrototypeLimit(`rows out of file and line order at row ${i}`);
    }
  }
}

/**
 * Count the first row of each key in file and line order; quarantine the others naming it
 * (the reason `merge.ts` gives). The keys are `compact.ts` `firstRows`' own: the rows seen
 * as compact rows whose run is the (run, benchmark, task) id.
 */
function countFirsts(rows: AllRows, files: readonly SourceFile[], quarantine: LoadQuarantine[]) {
  const zeros = new Int32Array(rows.n);
  const keyed = {
    n: rows.n,
    int: { run: rows.rbt, benchmark: zeros, task: zeros, example: rows.example, epoch: rows.epoch },
    sparse: rows.exampleId ? { example_id: rows.exampleId } : {},
  } as unknown as CompactRows;
  const seen = firstRows(keyed);
  const cells: CellCount[] = rows.names.map((c) => ({
    ...c,
    n: 0,
    correct: 0,
    no_answer: 0,
    rows: 0,
  }));
  const scoredPerFile = files.map(() => 0);
  for (let i = 0; i < rows.n; i++) {
    const was = seen(i);
    const name = rows.names[rows.rbt[i]];
    if (was >= 0) {
      const by = (rows.exampleId?.[i] ?? -1) >= 0 ? "example_id" : "example_index";
      quarantine.push({
        file: files[rows.file[i]].path,
        line: rows.line[i],
        reason: `duplicate of ${files[rows.file[was]].path}:${rows.line[was]} (same run, task, ` +
          `${by} and epoch)`,
        run: name.run,
        benchmark: name.benchmark,
      });
      continue;
    }
    const c = cells[rows.rbt[i]];
    const v = rows.verdict[i];
    c.rows++;
    if (correctOf(v) >= 0) c.n++;
    if (correctOf(v) === 1) c.correct++;
    if (foundOf(v) === 0) c.no_answer++;
    scoredPerFile[rows.file[i]]++;
  }
  return { cells, scoredPerFile };
}

/** Per readable file: records read = rows counted + rows quarantined. */
function checkFiles(
  files: readonly SourceFile[],
  scored: readonly number[],
  quarantine: readonly LoadQuarantine[],
  rowsIn: readonly number[],
  failed: ReadonlyMap<number, string>,
): void {
  const quarantined = new Map<string, number>();
  for (const q of quarantine) quarantined.set(q.file, (quarantined.get(q.file) ?? 0) + 1);
  for (const f of files) {
    if (failed.has(f.id)) continue;
    checkRowBalance(f.path, rowsIn[f.id], scored[f.id], quarantined.get(f.path) ?? 0);
  }
}

/** Run → model names, as the Workers noted them (runs a `model` field named are refused). */
function modelsOf(kept: readonly SlimResult[]): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [run, model] of kept.flatMap((r) => r.models)) {
    (out.get(run) ?? out.set(run, new Set()).get(run)!).add(model);
  }
  return out;
}

/** Distinct (run, file, benchmark) of the kept rows. */
function sourcesOf(units: readonly WorkUnit[], kept: readonly SlimResult[]) {
  const seen = new Map<string, { run: string; file: string; benchmark: string }>();
  for (const r of kept) {
    const file = units[r.id].file.path;
    for (const c of r.rows.cells) {
      seen.set(`${c.run}\u0000${file}\u0000${c.benchmark}`, {
        run: c.run,
        file,
        benchmark: c.benchmark,
      });
    }
  }
  return [...seen.values()];
}
