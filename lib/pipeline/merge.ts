/**
 * Merge what the scoring Workers returned for each unit into one load, doing on the main
 * thread what needs rows of several units:
 * 1. line numbers: a range's lines are numbered from its start; add the lines of the file's
 *    earlier ranges;
 * 2. files that could not be read become `errors` (nothing of them is kept), and so do
 *    generic logs whose fields leave most records with a target that differs from the data
 *    set's (wrong columns: {@link refusalReason});
 * 3. pending rows (identical inputs without an index, scored already) take the candidate
 *    examples in file order — the k-th row with a key the k-th candidate, later ones the last;
 * 4. lm-evaluation-harness files with several filters per response: each response is scored
 *    once, from the line of the preferred filter (else the file's first filter); the other
 *    lines are quarantined naming the scored line;
 * 5. run names that need every file's rows (`run_names.ts`): a record that names no run joins
 *    its file's one run, and sources of one model that repeat each other's examples
 *    substantially are kept apart as `<model>/<default run>` — here, before 6., so that a
 *    second seed of a model is a run of its own rather than a file of duplicates;
 * 6. repeats of (run, benchmark, task, example, epoch): the first in file and line order wins,
 *    later ones are quarantined naming it.
 * Every record a file holds is scored or quarantined: checked per file (an internal error
 * otherwise).
 *
 * @example
 * ```ts ignore
 * const merged = mergeResults(files, units, results, { lmEvalFilter: null });
 * merged.rows.n + merged.quarantine.length; // every record of the readable files
 * ```
 * @module
 */
import { checkRowBalance } from "../logs/quarantine.ts";
import type { FieldMapping, SourceFile } from "../logs/sources/types.ts";
import {
  type CompactRows,
  concatRows,
  firstRows,
  releaseRows,
  rowAt,
  RowBuilder,
  RUN_FROM,
  type RunFrom,
  selectRows,
} from "./compact.ts";
import { resolvePending } from "./examples.ts";
import { nameRuns, type RunNaming } from "./run_names.ts";
import { noVerdict } from "./score_unit.ts";
import type { UnitQuarantine, UnitResult, WorkUnit } from "./units.ts";

/** A quarantined record of the load. */
export interface LoadQuarantine {
  file: string;
  line: number;
  reason: string;
  run: string;
  /** Where the run came from (absent: the record's `run` field or its reader). */
  runFrom?: RunFrom;
  /** The benchmark it was tied to or names (null: none). */
  benchmark: string | null;
}

/** The merged load. */
export interface MergedLoad {
  files: readonly SourceFile[];
  /** Scored rows, in file and line order. */
  rows: CompactRows;
  /** Quarantined records, in file and line order. */
  quarantine: LoadQuarantine[];
  /** Records read per file id (0 for a file that could not be read). */
  rowsIn: number[];
  /** Files that could not be read. */
  errors: { file: string; reason: string }[];
  /** Run → the model names its records carry. */
  models: Map<string, Set<string>>;
  /** Run → how it was named (`run_names.ts`). */
  naming: Map<string, RunNaming>;
  /**
   * Warnings of naming (the models whose sources were kept apart), and of files whose targets
   * equal the data set's only when case is ignored.
   */
  warnings: string[];
}

/** What {@link mergeResults} needs besides the results. */
export interface MergeOptions {
  /** The lm-eval filter to keep when a file has several (null: the file's first). */
  lmEvalFilter: string | null;
}

/**
 * Merge the results of `units` (any order) into one load. The results' row buffers are freed
 * once copied into the merged rows (`releaseRows`): read the merged rows, not the results'.
 */
export function mergeResults(
  files: readonly SourceFile[],
  units: readonly WorkUnit[],
  results: readonly UnitResult[],
  opts: MergeOptions,
): MergedLoad {
  const ordered = [...results].sort((a, b) => a.id - b.id);
  const failed = failedFiles(units, ordered);
  for (const [id, reason] of refusedFiles(units, ordered, failed)) failed.set(id, reason);
  const kept = ordered.filter((r) => !failed.has(units[r.id].file.id));
  renumber(units, kept);
  const quarantine: LoadQuarantine[] = [];
  const lmEval: { q: LoadQuarantine; key: NonNullable<UnitQuarantine["lmEval"]> }[] = [];
  for (const r of kept) {
    const file = units[r.id].file;
    for (const q of r.quarantine) {
      const entry = {
        file: file.path,
        line: q.line,
        reason: q.reason,
        run: q.run,
        runFrom: q.runFrom,
        benchmark: q.benchmark,
      };
      quarantine.push(entry);
      if (q.lmEval) lmEval.push({ q: entry, key: q.lmEval });
    }
  }
  const parts = [...kept.map((r) => r.rows), pendingRows(kept, quarantine, files)];
  let rows = concatRows(parts);
  parts.forEach(releaseRows);
  rows = replacing(rows, chooseLmEvalFilters(rows, lmEval, files, opts.lmEvalFilter, quarantine));
  const named = nameRuns(rows, quarantine, files);
  rows = replacing(named.rows, dropDuplicates(named.rows, files, quarantine));
  const rowsIn = files.map(() => 0);
  for (const r of kept) rowsIn[units[r.id].file.id] += r.rowsIn;
  quarantine.sort((a, b) => a.file < b.file ? -1 : a.file > b.file ? 1 : a.line - b.line);
  checkFiles(files, rows, quarantine, rowsIn, failed);
  return {
    files,
    rows,
    quarantine,
    rowsIn,
    errors: [...failed.entries()].map(([id, reason]) => ({ file: files[id].path, reason })),
    models: modelsOf(kept, named.models),
    naming: new Map(named.naming),
    warnings: [
      ...named.warnings,
      ...caseWarnings(units, kept),
      ...differWarnings(units, kept),
      ...repeatWarnings(files, rowsIn, quarantine),
    ],
  };
}

/** The share of a file's rows that, quarantined as duplicates, hint at several runs in it. */
const MANY_REPEATS = 0.2;

/**
 * A warning per file of which many rows (at least {@link MANY_REPEATS}, and 5) repeat earlier
 * examples of their run: two runs concatenated without a model or run field are one run whose
 * second half is quarantined row by row, and the load then scores only the first.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const q = (line: number) => ({ file: "a.jsonl", line, reason: "duplicate of a.jsonl:1 (same run)" });
 * assert.deepEqual(repeatWarnings([{ path: "a.jsonl" }], [10], [1, 2, 3, 4, 5].map(q)), [
 *   "a.jsonl: 5 of 10 rows repeat earlier examples — the file may hold several runs; give " +
 *     "each run its own file or a model/run field (--map run=…)",
 * ]);
 * assert.deepEqual(repeatWarnings([{ path: "a.jsonl" }], [100], [1, 2].map(q)), []);
 * ```
 */
export function repeatWarnings(
  files: readonly Pick<SourceFile, "path">[],
  rowsIn: readonly number[],
  quarantine: readonly Pick<LoadQuarantine, "file" | "reason">[],
): string[] {
  const repeats = new Map<string, number>();
  for (const q of quarantine) {
    if (q.reason.startsWith("duplicate of ")) repeats.set(q.file, (repeats.get(q.file) ?? 0) + 1);
  }
  return files.flatMap((f, id) => {
    const n = repeats.get(f.path) ?? 0;
    if (n < 5 || n < MANY_REPEATS * rowsIn[id]) return [];
    return [
      `${f.path}: ${n} of ${rowsIn[id]} rows repeat earlier examples — the file may hold ` +
      "several runs; give each run its own file or a model/run field (--map run=…)",
    ];
  });
}

/** `next`, freeing the buffers of `rows` when `next` is a copy (a big load holds several). */
function replacing(rows: CompactRows, next: CompactRows): CompactRows {
  if (next.int.line !== rows.int.line) releaseRows(rows);
  return next;
}

/** File id → reason, for files of which a unit could not be read. */
function failedFiles(
  units: readonly WorkUnit[],
  results: readonly UnitResult[],
): Map<number, string> {
  const failed = new Map<number, string>();
  for (const r of results) {
    const id = units[r.id].file.id;
    if (r.error !== null && !failed.has(id)) failed.set(id, r.error);
  }
  return failed;
}

/**
 * File id → reason, for generic logs read through detected or `--map` fields whose records
 * mostly (more than half) have a target that differs from the data set's: the columns are
 * wrong (a response read as the target leaves only the rows the model got right, each scored
 * correct), so the file is an error, not a table of accuracies.
 */
function refusedFiles(
  units: readonly WorkUnit[],
  results: readonly UnitResult[],
  failed: ReadonlyMap<number, string>,
): Map<number, string> {
  const refused = new Map<number, string>();
  const tally = perFile(
    units,
    results,
    (r) => r.targetDiffers,
    (f) => !!f.fields && !failed.has(f.id),
  );
  for (const { file, rowsIn, n: differ } of tally) {
    if (differ * 2 <= rowsIn) continue;
    refused.set(
      file.id,
      refusalReason(file.fields!, differ, rowsIn, file.fieldsByContent === true),
    );
  }
  return refused;
}

/**
 * Per file of `results` (those `keep` accepts), in order of first result: its rows in and the
 * sum of `count` over its units.
 */
function perFile(
  units: readonly WorkUnit[],
  results: readonly UnitResult[],
  count: (r: UnitResult) => number,
  keep: (file: SourceFile) => boolean = () => true,
): { file: SourceFile; rowsIn: number; n: number }[] {
  const tally = new Map<number, { file: SourceFile; rowsIn: number; n: number }>();
  for (const r of results) {
    const file = units[r.id].file;
    if (!keep(file)) continue;
    const t = tally.get(file.id) ?? tally.set(file.id, { file, rowsIn: 0, n: 0 }).get(file.id)!;
    t.rowsIn += r.rowsIn;
    t.n += count(r);
  }
  return [...tally.values()];
}

/**
 * Why a file whose fields leave most targets differing is not scored: the counts, the columns
 * tried, and what to do. When the rows' content chose the columns (`byContent`: the sampled
 * rows were sure of them, the file's own rows are not), the likely fix is the `--map` that
 * swaps the response and the target. When names or `--map` chose them, a swap is only one
 * possibility — the target column may hold the log's own gold of another data version, or in
 * another form — so the swap is offered only on the condition that makes it right.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const fields = { fields: { input: 0, response: 2, target: 1 } };
 * assert.equal(
 *   refusalReason(fields, 140, 250, true),
 *   "not scored: the target of 140 of 250 rows differs from the data set's with the columns " +
 *     "tried (input ← column 0, response ← column 2, target ← column 1): they are likely " +
 *     "wrong (scored, only the rows the model got right would remain, each correct); check " +
 *     "the file, and choose the columns with --map, e.g. --map input=0,response=1,target=2",
 * );
 * assert.ok(refusalReason(fields, 140, 250, false).endsWith(
 *   "if column 1 holds the model's answers and column 2 the gold: --map " +
 *     "input=0,response=1,target=2; if column 1 is the log's gold, its targets are not this " +
 *     "data set's (another version of it? check --data) or in another form (`8.` for `8`, " +
 *     "option text for a letter)",
 * ));
 * ```
 */
export function refusalReason(
  fields: FieldMapping,
  differ: number,
  rowsIn: number,
  byContent = false,
): string {
  const f = fields.fields;
  const where = (v: string | number) => typeof v === "number" ? `column ${v}` : v;
  const tried = (["input", "response", "target"] as const).flatMap((k) =>
    f[k] === undefined ? [] : [`${k} ← ${where(f[k]!)}`]
  );
  if (f.response === undefined && fields.chat) {
    tried.splice(1, 0, `response ← ${fields.chat} (last assistant message)`);
  }
  const head = `not scored: the target of ${differ} of ${rowsIn} rows differs from the data ` +
    `set's with the columns tried (${tried.join(", ")})`;
  return head + columnsRemedy(fields, byContent);
}

/** What to do about targets that differ from the data set's with `fields` (see above). */
function columnsRemedy(fields: FieldMapping, byContent: boolean): string {
  const f = fields.fields;
  const where = (v: string | number) => typeof v === "number" ? `column ${v}` : v;
  const swapped = { input: f.input, response: f.target, target: f.response };
  const spec = (["input", "response", "target"] as const).flatMap((k) =>
    swapped[k] === undefined ? [] : [`${k}=${swapped[k]}`]
  );
  const canSwap = swapped.response !== undefined && swapped.target !== undefined;
  if (byContent) {
    return ": they are likely wrong (scored, only the rows the model got right would " +
      "remain, each correct); check the file, and choose the columns with --map" +
      (canSwap ? `, e.g. --map ${spec.join(",")}` : "");
  }
  const target = f.target === undefined ? "the target" : where(f.target);
  const swap = canSwap
    ? `if ${target} holds the model's answers and ${where(f.response!)} the gold: --map ` +
      `${spec.join(",")}; `
    : "";
  return `: check the file — ${swap}if ${target} is the log's gold, its targets are ` +
    "not this data set's (another version of it? check --data) or in another form (`8.` for " +
    "`8`, option text for a letter)";
}

/**
 * A warning per file whose records' targets equal the data set's only when case is ignored
 * (`examples.ts` `targetMatch`): they are scored against the data set's targets, which the
 * output says rather than quarantining every row of a log that lower-cases its gold labels.
 */
function caseWarnings(units: readonly WorkUnit[], results: readonly UnitResult[]): string[] {
  return perFile(units, results, (r) => r.targetCase).filter((c) => c.n > 0).map((c) => {
    return `${c.file.path}: the target of ${c.n} of ${c.rowsIn} rows equals the data set's ` +
      "only when case is ignored (a lower-cased gold column?): those rows are tied to their " +
      "examples all the same and scored against the data set's targets";
  });
}

/** The share of a file's targets differing from the data set's above which the output warns. */
const MANY_DIFFER = 0.1;

/**
 * A warning per scored file whose fields were detected or mapped and many of whose rows (at
 * least {@link MANY_DIFFER}, and 5) were quarantined because their target differs from the data
 * set's: below the refusal's half, the columns may still be the wrong way round (a model right
 * on the rest would look perfect), or the log's gold another version — the remedy of each.
 */
function differWarnings(units: readonly WorkUnit[], results: readonly UnitResult[]): string[] {
  return perFile(units, results, (r) => r.targetDiffers, (f) => !!f.fields)
    .filter((c) => c.n >= 5 && c.n >= MANY_DIFFER * c.rowsIn)
    .map(({ file, rowsIn, n }) =>
      `${file.path}: the target of ${n} of ${rowsIn} rows differs from the data set's ` +
      "(quarantined; the accuracy rests on the others)" +
      columnsRemedy(file.fields!, file.fieldsByContent === true)
    );
}

/** Turn range line numbers into file line numbers (in place). */
function renumber(units: readonly WorkUnit[], results: readonly UnitResult[]): void {
  const seen = new Map<number, number>();
  for (const r of results) {
    const file = units[r.id].file.id;
    const offset = seen.get(file) ?? 0;
    seen.set(file, offset + r.lines);
    if (offset === 0) continue;
    for (const rows of [r.rows, r.pending.rows]) {
      for (let i = 0; i < rows.n; i++) rows.int.line[i] += offset;
    }
    for (const q of r.quarantine) q.line += offset;
  }
}

/**
 * Give pending rows their example (k-th row of a key → k-th candidate, later rows the last;
 * `examples.ts` `resolvePending`); rows their scorer gave no verdict are quarantined.
 */
function pendingRows(
  results: readonly UnitResult[],
  quarantine: LoadQuarantine[],
  files: readonly SourceFile[],
): CompactRows {
  const all = results.flatMap((r) => r.pending.list.map((p) => ({ rows: r.pending.rows, p })));
  const out = new RowBuilder();
  const examples = resolvePending(all.map(({ p }) => p));
  all.forEach(({ rows, p }, i) => {
    const row = { ...rowAt(rows, p.row), example: examples[i] };
    if (row.correct !== null) return out.add(row);
    quarantine.push({
      file: files[row.file].path,
      line: row.line,
      reason: noVerdict(row.scorer, row.task, row.example),
      run: row.run,
      runFrom: row.run_from,
      benchmark: row.benchmark,
    });
  });
  return out.finish();
}

/**
 * lm-eval files with several filters per response: keep each response's line of the chosen
 * filter (else its earliest line); quarantine the others naming the kept line.
 */
function chooseLmEvalFilters(
  rows: CompactRows,
  lmEval: readonly { q: LoadQuarantine; key: NonNullable<UnitQuarantine["lmEval"]> }[],
  files: readonly SourceFile[],
  preferred: string | null,
  quarantine: LoadQuarantine[],
): CompactRows {
  type Line = {
    file: number;
    line: number;
    filter: string;
    key: string;
    row: number | null;
    q: LoadQuarantine | null;
  };
  const lines: Line[] = [];
  const fileId = new Map(files.map((f) => [f.path, f.id]));
  for (let i = 0; i < rows.n; i++) {
    const f = rows.int.filter[i];
    if (f < 0) continue;
    const run = rows.strings.run[rows.int.run[i]];
    lines.push({
      file: rows.int.file[i],
      line: rows.int.line[i],
      filter: rows.strings.filter[f],
      key: `${run}\u0000${rows.int.example[i]}\u0000${rows.int.epoch[i]}`,
      row: i,
      q: null,
    });
  }
  for (const { q, key } of lmEval) {
    const index = /^[+-]?\d+(\.0*)?$/.test(key.index.trim()) ? String(Number(key.index)) : null;
    if (index === null) continue;
    lines.push({
      file: fileId.get(q.file)!,
      line: q.line,
      filter: key.filter,
      key: `${q.run}\u0000${index}\u0000${key.epoch}`,
      row: null,
      q,
    });
  }
  if (lines.length === 0) return rows;
  lines.sort((a, b) => a.file - b.file || a.line - b.line);
  const chosen = new Map<number, string>();
  for (const l of lines) {
    if (!chosen.has(l.file)) chosen.set(l.file, l.filter);
    if (l.filter === preferred) chosen.set(l.file, preferred);
  }
  const keptLine = new Map<string, Line>();
  for (const l of lines) {
    const k = `${l.file}\u0000${l.key}`;
    const prev = keptLine.get(k);
    const better = !prev || (l.filter === chosen.get(l.file) && prev.filter !== chosen.get(l.file));
    if (better) keptLine.set(k, l);
  }
  const drop = new Set<number>();
  for (const l of lines) {
    const kept = keptLine.get(`${l.file}\u0000${l.key}`)!;
    if (kept === l || l.filter === kept.filter) continue;
    const reason = `lm-eval filter "${l.filter}": the same response is scored once, from ` +
      `line ${kept.line} (filter "${kept.filter}")`;
    if (l.row !== null) {
      drop.add(l.row);
      quarantine.push({
        file: files[l.file].path,
        line: l.line,
        reason,
        run: rows.strings.run[rows.int.run[l.row]],
        runFrom: RUN_FROM[rows.byte.run_from[l.row]],
        benchmark: rows.strings.benchmark[rows.int.benchmark[l.row]],
      });
    } else l.q!.reason = reason;
  }
  if (drop.size === 0) return rows;
  return selectRows(rows, [...Array(rows.n).keys()].filter((i) => !drop.has(i)));
}

/** Keep the first row of each (run, benchmark, task, example, epoch) in file and line order. */
function dropDuplicates(
  rows: CompactRows,
  files: readonly SourceFile[],
  quarantine: LoadQuarantine[],
): CompactRows {
  const n = rows.int;
  const order = fileOrder(rows);
  const seen = firstRows(rows);
  const keep: number[] = [];
  for (const i of order) {
    const was = seen(i);
    if (was < 0) {
      keep.push(i);
      continue;
    }
    quarantine.push({
      file: files[n.file[i]].path,
      line: n.line[i],
      reason: `duplicate of ${files[n.file[was]].path}:${n.line[was]} (same run, task, ` +
        `${(rows.sparse.example_id?.[i] ?? -1) >= 0 ? "example_id" : "example_index"} and epoch)`,
      run: rows.strings.run[n.run[i]],
      benchmark: rows.strings.benchmark[n.benchmark[i]],
    });
  }
  return keep.length === rows.n && isIdentity(keep) ? rows : selectRows(rows, keep);
}

/** Row positions in file and line order (no sort when they already are: the usual case). */
function fileOrder(rows: CompactRows): number[] {
  const order = Array.from({ length: rows.n }, (_, i) => i);
  const { file, line } = rows.int;
  for (let i = 1; i < rows.n; i++) {
    if (file[i - 1] > file[i] || (file[i - 1] === file[i] && line[i - 1] > line[i])) {
      return order.sort((a, b) => file[a] - file[b] || line[a] - line[b]);
    }
  }
  return order;
}

const isIdentity = (xs: readonly number[]) => xs.every((x, i) => x === i);

/** Per readable file: records read = rows scored + rows quarantined. */
function checkFiles(
  files: readonly SourceFile[],
  rows: CompactRows,
  quarantine: readonly LoadQuarantine[],
  rowsIn: readonly number[],
  failed: ReadonlyMap<number, string>,
): void {
  const scored = files.map(() => 0);
  for (let i = 0; i < rows.n; i++) scored[rows.int.file[i]]++;
  const quarantined = new Map<string, number>();
  for (const q of quarantine) quarantined.set(q.file, (quarantined.get(q.file) ?? 0) + 1);
  for (const f of files) {
    if (failed.has(f.id)) continue;
    checkRowBalance(f.path, rowsIn[f.id], scored[f.id], quarantined.get(f.path) ?? 0);
  }
}

/** Run → model names, over all units and the runs a `model` field named. */
function modelsOf(
  results: readonly UnitResult[],
  byModel: readonly [string, string][],
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const [run, model] of [...results.flatMap((r) => r.models), ...byModel]) {
    if (!out.has(run)) out.set(run, new Set());
    out.get(run)!.add(model);
  }
  return out;
}
