/**
 * Run names only the whole load can decide (issue 14, item 3), given on the main thread before
 * duplicates are looked for (`merge.ts`). A Worker names a record's run from the record and
 * its file alone (`check.ts`): its `run` field, else — generic logs by default, or every log
 * with `--run-by field` — its `model` field, else the file's default run (its file or folder).
 * Two things need the rows of every file:
 * 1. **Files of one model that repeat examples are kept apart.** A `model` field names the
 *    run so that one file holding two models gives two runs and a folder of per-task files of
 *    one model gives one. But two files that are two runs of one model (`seed1.jsonl`,
 *    `seed2.jsonl`, both `model: gpt-4o`, the same examples) would become one run whose second
 *    file is quarantined as duplicates. So when the rows a model names come from two or more
 *    default runs (files, or folders of per-task files) that hold the same (benchmark, task,
 *    example, epoch) — or share one with rows whose own `run` field (or file) gives the same
 *    name — each default run's rows of that model are a run of their own,
 *    `<model>/<default run>` (deterministic: the names come from the paths). This is decided
 *    here, where the rows of all files meet and duplicates are found, because only the rows
 *    tell whether two files overlap; file names and the first records cannot. `--run-by field`
 *    never keeps them apart: the user said the field names the run, and repeats are
 *    duplicates.
 * 2. **A record that names no run** (a line that is not a record, a record without `run` or
 *    `model`) is counted under its file's run when every other record of the file names the
 *    same one and none took the default run — not under a run of its own, named after the
 *    file, that would hold nothing but quarantined records. (Only in files whose `model`
 *    names runs: with `--run-by file|folder` such records keep the file's run, as before.)
 *
 * Workers note the models of runs that a `model` field did not name; the runs it named get
 * theirs here, under their final names.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EMPTY_ROW, RowBuilder } from "./compact.ts";
 * const file = (id: number, defaultRun: string) => ({ id, path: `${defaultRun}.jsonl`,
 *   name: `${defaultRun}.jsonl`, format: "mapped-jsonl", gzip: false, defaultRun, size: 0,
 *   runFromModel: "auto" as const });
 * const files = [file(0, "seed1"), file(1, "seed2")];
 * const b = new RowBuilder();
 * for (const f of [0, 1]) {
 *   b.add({ ...EMPTY_ROW, file: f, run: "gpt-4o", run_from: "model", model: "gpt-4o",
 *     benchmark: "bbh", task: "navigate", example: 3 });
 * }
 * const quarantine = [{ file: "seed2.jsonl", line: 2, reason: "not a JSON object",
 *   run: "seed2", runFrom: "default" as const }];
 * const named = nameRuns(b.finish(), quarantine, files);
 * const runs = [...named.rows.int.run].map((id) => named.rows.strings.run[id]);
 * assert.deepEqual(runs, ["gpt-4o/seed1", "gpt-4o/seed2"]); // the same example: kept apart
 * assert.equal(quarantine[0].run, "gpt-4o/seed2"); // its file's one run
 * assert.deepEqual(named.models, [["gpt-4o/seed1", "gpt-4o"], ["gpt-4o/seed2", "gpt-4o"]]);
 * ```
 * @module
 */
import type { SourceFile } from "../logs/sources/types.ts";
import { type CompactRows, rowKey, RUN_FROM, type RunFrom } from "./compact.ts";

/** A quarantined record as naming sees it (its run is renamed in place). */
export interface NamedQuarantine {
  file: string;
  run: string;
  /** Absent: the record's `run` field or its reader. */
  runFrom?: RunFrom;
}

/** The rows under their final run names, and the runs' models a `model` field gave. */
export interface NamedRuns {
  rows: CompactRows;
  /** [run, model] of every run a `model` field named (final names), sorted. */
  models: [string, string][];
}

const BY_MODEL = RUN_FROM.indexOf("model");
const BY_DEFAULT = RUN_FROM.indexOf("default");

/**
 * Name the runs of `rows` and `quarantine` (see the module documentation); quarantine entries
 * are renamed in place, rows come back with a new run table.
 */
export function nameRuns(
  rows: CompactRows,
  quarantine: NamedQuarantine[],
  files: readonly SourceFile[],
): NamedRuns {
  const apart = runsKeptApart(rows, files);
  const named = apart.size === 0 ? rows : renameRows(rows, files, apart);
  const byPath = new Map(files.map((f) => [f.path, f]));
  const models = new Set<string>();
  for (const q of quarantine) {
    if (q.runFrom !== "model") continue;
    const model = q.run;
    if (apart.has(model) && byPath.get(q.file)?.runFromModel === "auto") {
      q.run = apartName(model, byPath.get(q.file)!);
    }
    models.add(`${q.run}\u0000${model}`);
  }
  modelsOfRows(named, models);
  joinFileRuns(named, quarantine, files, byPath);
  return {
    rows: named,
    models: [...models].sort().map((k) => k.split("\u0000") as [string, string]),
  };
}

/** The name of a model's run kept apart: `<model>/<the file's default run>`. */
const apartName = (model: string, file: SourceFile) => `${model}/${file.defaultRun}`;

/**
 * The run names a `model` field gave (generic logs, `auto`) whose rows of two sources — the
 * default runs of their files, and the rows named otherwise — hold the same example.
 */
function runsKeptApart(rows: CompactRows, files: readonly SourceFile[]): Set<string> {
  const sources = sourcesOfRuns(rows, files);
  const shared = new Set([...sources].filter(([, s]) => s.size > 1).map(([run]) => run));
  const apart = new Set<string>();
  if (shared.size === 0) return apart;
  const keyOf = rowKey(rows);
  const owner = new Map<number | string, string>();
  const run = rows.int.run;
  for (let i = 0; i < rows.n; i++) {
    if (!shared.has(run[i]) || apart.has(rows.strings.run[run[i]])) continue;
    const source = sourceOf(rows, files, i);
    const key = keyOf(i);
    const was = owner.get(key);
    if (was === undefined) owner.set(key, source);
    else if (was !== source) apart.add(rows.strings.run[run[i]]);
  }
  return apart;
}

/** A row's source: its file's default run when its `model` named its run (`auto`), else "". */
function sourceOf(rows: CompactRows, files: readonly SourceFile[], i: number): string {
  const f = files[rows.int.file[i]];
  return rows.byte.run_from[i] === BY_MODEL && f.runFromModel === "auto" ? f.defaultRun : "";
}

/** Run id → its sources, for the runs a `model` field named in an `auto` file. */
function sourcesOfRuns(rows: CompactRows, files: readonly SourceFile[]): Map<number, Set<string>> {
  const sources = new Map<number, Set<string>>();
  const byModel = new Set<number>();
  let last = -1;
  for (let i = 0; i < rows.n; i++) {
    const run = rows.int.run[i];
    const pair = run * files.length + rows.int.file[i];
    if (pair === last && rows.byte.run_from[i] === rows.byte.run_from[i - 1]) continue;
    last = pair;
    const source = sourceOf(rows, files, i);
    if (source !== "") byModel.add(run);
    sources.set(run, (sources.get(run) ?? new Set()).add(source));
  }
  for (const run of sources.keys()) if (!byModel.has(run)) sources.delete(run);
  return sources;
}

/** The rows with the runs of `apart` renamed where their `model` named them (`auto` files). */
function renameRows(
  rows: CompactRows,
  files: readonly SourceFile[],
  apart: ReadonlySet<string>,
): CompactRows {
  const table = [...rows.strings.run];
  const ids = new Map(table.map((name, id) => [name, id]));
  const run = rows.int.run;
  for (let i = 0; i < rows.n; i++) {
    const f = files[rows.int.file[i]];
    const name = rows.strings.run[run[i]];
    if (rows.byte.run_from[i] !== BY_MODEL || f.runFromModel !== "auto" || !apart.has(name)) {
      continue;
    }
    const renamed = apartName(name, f);
    let id = ids.get(renamed);
    if (id === undefined) ids.set(renamed, id = table.push(renamed) - 1);
    run[i] = id;
  }
  return { ...rows, strings: { ...rows.strings, run: table } };
}

/** Add "run\0model" of every row whose `model` named its run. */
function modelsOfRows(rows: CompactRows, out: Set<string>): void {
  let last = -1;
  for (let i = 0; i < rows.n; i++) {
    if (rows.byte.run_from[i] !== BY_MODEL) continue;
    const run = rows.int.run[i];
    if (run === last) continue;
    last = run;
    const model = rows.strings.model[rows.int.model[i]];
    out.add(`${rows.strings.run[run]}\u0000${model}`);
  }
}

/**
 * Records of a file whose `model` names runs that name no run themselves: counted under the
 * file's run when all its other records name one and no scored row took the default run.
 */
function joinFileRuns(
  rows: CompactRows,
  quarantine: NamedQuarantine[],
  files: readonly SourceFile[],
  byPath: ReadonlyMap<string, SourceFile>,
): void {
  const named = files.map(() => new Set<string>());
  const usesDefault = files.map(() => false);
  for (let i = 0, last = -1; i < rows.n; i++) {
    const f = rows.int.file[i];
    if (rows.byte.run_from[i] === BY_DEFAULT) usesDefault[f] = true;
    else if (rows.int.run[i] * files.length + f !== last) {
      last = rows.int.run[i] * files.length + f;
      named[f].add(rows.strings.run[rows.int.run[i]]);
    }
  }
  for (const q of quarantine) {
    const f = byPath.get(q.file);
    if (f && q.runFrom !== "default") named[f.id].add(q.run);
  }
  for (const q of quarantine) {
    const f = byPath.get(q.file);
    if (!f?.runFromModel || q.runFrom !== "default") continue;
    if (usesDefault[f.id] || named[f.id].size !== 1) continue;
    q.run = [...named[f.id]][0];
  }
}
