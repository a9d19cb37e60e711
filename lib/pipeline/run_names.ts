/**
 * Run names only the whole load can decide (issue 14, item 3), given on the main thread before
 * duplicates are looked for (`merge.ts`). A Worker names a record's run from the record and
 * its file alone (`check.ts`): its `run` field, else — generic logs by default, or every log
 * with `--run-by field` — its `model` field, else the file's default run (its file or folder).
 * Two things need the rows of every file:
 * 1. **A record that names no run** (a line that is not a record, a record without `run` or
 *    `model`) is counted under its file's run when every other record of the file names the
 *    same one — scored rows too, not only quarantined records — rather than forming a run of
 *    its own named after the file. (Only in files whose `model` names runs: with
 *    `--run-by file|folder` every record without a `run` field takes the file's run anyway.)
 * 2. **Sources of one model that repeat each other's examples are kept apart.** A `model`
 *    field names the run so that one file holding two models gives two runs and a folder of
 *    per-task files of one model gives one. But two files that are two runs of one model
 *    (`seed1.jsonl`, `seed2.jsonl`, both `model: gpt-4o`, the same examples) would become one
 *    run whose second file is quarantined as duplicates. A model's rows come from sources —
 *    the default runs of their files (a file, or a folder of per-task files), and the rows
 *    whose own `run` field gives the model's name. Two sources overlap **substantially** when
 *    they share at least half of the smaller one's (benchmark, task, example, epoch) keys. The
 *    sources are put in groups, in file order, each into the first group holding no source it
 *    overlaps substantially with; one group is one run named after the model (a resumed run,
 *    `part1.jsonl` and `part2.jsonl` sharing one example, stays one run and the repeat is a
 *    duplicate). Several groups are runs `<model>/<the group's first source>` — except that
 *    the group of the model's first source is `<model>` when it holds several sources (it is
 *    the model's run, the others repeat part of it: a retry file) or rows named by their
 *    `run` field (those are never renamed). A warning names the model, its runs and the
 *    overlaps. `--run-by field` never keeps sources apart: the user said the field names the
 *    run, and repeats are duplicates. This is decided here, where the rows of all files meet:
 *    only the rows tell whether two files overlap; file names and the first records cannot.
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
 * assert.deepEqual(named.naming, [["gpt-4o/seed1", "apart"], ["gpt-4o/seed2", "apart"]]);
 * assert.match(named.warnings[0], /^model gpt-4o: kept apart as 2 runs/);
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

/**
 * How a run got its name: its records' `run` field (or their reader), their `model` field,
 * their `model` field kept apart from the model's other sources (`apart`), or their files'
 * default run.
 */
export type RunNaming = "run" | "model" | "apart" | "default";

/** The rows under their final run names, and what naming them decided. */
export interface NamedRuns {
  rows: CompactRows;
  /** [run, model] of every run a `model` field named (final names), sorted. */
  models: [string, string][];
  /** [run, how it was named] of every run, sorted by run. */
  naming: [string, RunNaming][];
  /** One per model whose sources were kept apart: the model, its runs, the overlaps. */
  warnings: string[];
}

const BY_MODEL = RUN_FROM.indexOf("model");
const BY_DEFAULT = RUN_FROM.indexOf("default");
/** The source of rows whose own `run` field gives the model's name (never renamed). */
const OWN = "";

/**
 * Name the runs of `rows` and `quarantine` (see the module documentation); quarantine entries
 * are renamed in place, rows come back with a new run table.
 */
export function nameRuns(
  rows: CompactRows,
  quarantine: NamedQuarantine[],
  files: readonly SourceFile[],
): NamedRuns {
  const byPath = new Map(files.map((f) => [f.path, f]));
  joinFileRuns(rows, quarantine, files, byPath);
  const splits = splitModels(rows, files);
  const named = splits.size === 0 ? rows : renameRows(rows, files, splits);
  const models = new Set<string>();
  for (const q of quarantine) {
    if (q.runFrom !== "model") continue;
    const model = q.run;
    const f = byPath.get(q.file);
    const split = splits.get(model);
    if (split && f?.runFromModel === "auto") q.run = split.names.get(f.defaultRun) ?? split.main;
    models.add(`${q.run}\u0000${model}`);
  }
  modelsOfRows(named, models);
  return {
    rows: named,
    models: [...models].sort().map((k) => k.split("\u0000") as [string, string]),
    naming: namingOf(named, quarantine, splits),
    warnings: [...splits.values()].map((s) => s.warning),
  };
}

/** A model's sources kept apart: source → run name, the name of the rest, the warning. */
interface Split {
  names: Map<string, string>;
  /** The run of a source that holds no row (its records were all quarantined). */
  main: string;
  warning: string;
}

/** One source of a model's rows: its name, first file, distinct keys and group. */
interface Source {
  name: string;
  first: number;
  keys: number;
}

/** The models (run names a `model` field gave in `auto` files) whose sources are kept apart. */
function splitModels(rows: CompactRows, files: readonly SourceFile[]): Map<string, Split> {
  const splits = new Map<string, Split>();
  const many = [...sourcesOfRuns(rows, files)].filter(([, s]) => s.size > 1).map(([run]) => run);
  if (many.length === 0) return splits;
  const { sources, shared } = overlaps(rows, files, new Set(many));
  for (const run of many) {
    const model = rows.strings.run[run];
    const own = [...sources.get(run)!.values()].sort((a, b) => a.first - b.first);
    const overlap = (a: Source, b: Source) => shared.get(a)?.get(b) ?? 0;
    const substantial = (a: Source, b: Source) => overlap(a, b) * 2 >= Math.min(a.keys, b.keys);
    const groups = groupSources(own, substantial);
    if (groups.length > 1) splits.set(model, splitOf(model, groups, overlap, substantial));
  }
  return splits;
}

/**
 * Per run of `runs`: its sources (by name); and per pair of sources, the keys they share.
 * A key's sources are listed once each, so a source's repeats of its own key count once.
 */
function overlaps(rows: CompactRows, files: readonly SourceFile[], runs: ReadonlySet<number>) {
  const sources = new Map<number, Map<string, Source>>();
  const shared = new Map<Source, Map<Source, number>>();
  const holders = new Map<number | string, Source[]>();
  const keyOf = rowKey(rows);
  for (let i = 0; i < rows.n; i++) {
    const run = rows.int.run[i];
    if (!runs.has(run)) continue;
    const name = sourceOf(rows, files, i);
    if (!sources.has(run)) sources.set(run, new Map());
    const first = name === OWN ? -1 : rows.int.file[i];
    let source = sources.get(run)!.get(name);
    if (!source) sources.get(run)!.set(name, source = { name, first, keys: 0 });
    source.first = Math.min(source.first, first);
    const key = keyOf(i);
    const held = holders.get(key) ?? [];
    if (held.includes(source)) continue;
    for (const other of held) {
      for (const [a, b] of [[source, other], [other, source]]) {
        if (!shared.has(a)) shared.set(a, new Map());
        shared.get(a)!.set(b, (shared.get(a)!.get(b) ?? 0) + 1);
      }
    }
    source.keys++;
    holders.set(key, [...held, source]);
  }
  return { sources, shared };
}

/** Sources in groups, in order: each into the first group none of whose sources it clashes with. */
function groupSources(
  sources: readonly Source[],
  clash: (a: Source, b: Source) => boolean,
): Source[][] {
  const groups: Source[][] = [];
  for (const s of sources) {
    const group = groups.find((g) => g.every((t) => !clash(s, t)));
    if (group) group.push(s);
    else groups.push([s]);
  }
  return groups;
}

/** How many clashing pairs a warning lists (the rest are counted). */
const LISTED_PAIRS = 3;

/** The run names of a model's groups of sources (module documentation) and the warning. */
function splitOf(
  model: string,
  groups: readonly Source[][],
  overlap: (a: Source, b: Source) => number,
  clash: (a: Source, b: Source) => boolean,
): Split {
  const names = new Map<string, string>();
  const runNames = groups.map((g, k) => {
    const bare = g[0].name === OWN || (k === 0 && g.length > 1);
    return bare ? model : `${model}/${g[0].name}`;
  });
  groups.forEach((g, k) => g.forEach((s) => names.set(s.name, runNames[k])));
  const all = groups.flat();
  const pairs = all.flatMap((a, i) =>
    all.slice(i + 1).filter((b) => clash(a, b)).map((b) => [a, b])
  );
  const label = (s: Source) => s.name === OWN ? `${model} (its run field)` : s.name;
  const listed = pairs.slice(0, LISTED_PAIRS).map(([a, b]) =>
    `${label(a)} and ${label(b)} share ${overlap(a, b)} (of ${a.keys} and ${b.keys})`
  );
  if (pairs.length > LISTED_PAIRS) listed.push(`${pairs.length - LISTED_PAIRS} more`);
  const warning = `model ${model}: kept apart as ${groups.length} runs (${runNames.join(", ")}) ` +
    `because its sources repeat each other's (task, example, epoch): ${listed.join("; ")}`;
  return { names, main: runNames[0], warning };
}

/** A row's source: its file's default run when its `model` named its run (`auto`), else "". */
function sourceOf(rows: CompactRows, files: readonly SourceFile[], i: number): string {
  const f = files[rows.int.file[i]];
  return rows.byte.run_from[i] === BY_MODEL && f.runFromModel === "auto" ? f.defaultRun : OWN;
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
    if (source !== OWN) byModel.add(run);
    sources.set(run, (sources.get(run) ?? new Set()).add(source));
  }
  for (const run of sources.keys()) if (!byModel.has(run)) sources.delete(run);
  return sources;
}

/** The rows of split models renamed where their `model` named them (`auto` files). */
function renameRows(
  rows: CompactRows,
  files: readonly SourceFile[],
  splits: ReadonlyMap<string, Split>,
): CompactRows {
  const table = [...rows.strings.run];
  const ids = new Map(table.map((name, id) => [name, id]));
  const run = rows.int.run;
  for (let i = 0; i < rows.n; i++) {
    const split = splits.get(rows.strings.run[run[i]]);
    if (!split || sourceOf(rows, files, i) === OWN) continue;
    const renamed = split.names.get(files[rows.int.file[i]].defaultRun)!;
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
 * How each run was named: `apart` for the runs of a split model, else by its records' runs'
 * origin (`model` over `run` over `default`, should a name come from several).
 */
function namingOf(
  rows: CompactRows,
  quarantine: readonly NamedQuarantine[],
  splits: ReadonlyMap<string, Split>,
): [string, RunNaming][] {
  const rank: RunNaming[] = ["default", "run", "model", "apart"];
  const out = new Map<string, RunNaming>();
  const note = (run: string, how: RunNaming) => {
    const was = out.get(run);
    if (was === undefined || rank.indexOf(how) > rank.indexOf(was)) out.set(run, how);
  };
  for (let i = 0, last = -1; i < rows.n; i++) {
    const code = rows.int.run[i] * RUN_FROM.length + rows.byte.run_from[i];
    if (code === last) continue;
    last = code;
    note(rows.strings.run[rows.int.run[i]], RUN_FROM[rows.byte.run_from[i]]);
  }
  for (const q of quarantine) note(q.run, q.runFrom ?? "run");
  for (const split of splits.values()) for (const name of split.names.values()) note(name, "apart");
  return [...out].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0);
}

/**
 * Records of a file whose `model` names runs that name no run themselves — scored rows and
 * quarantined records — are counted under the file's run when all its other records name
 * one (in place: rows take its run, model and origin).
 */
function joinFileRuns(
  rows: CompactRows,
  quarantine: NamedQuarantine[],
  files: readonly SourceFile[],
  byPath: ReadonlyMap<string, SourceFile>,
): void {
  const named = files.map(() => new Map<string, RunFrom>());
  const like = files.map(() => -1);
  const usesDefault = files.map(() => false);
  for (let i = 0; i < rows.n; i++) {
    const f = rows.int.file[i];
    if (rows.byte.run_from[i] === BY_DEFAULT) usesDefault[f] = true;
    else {
      named[f].set(rows.strings.run[rows.int.run[i]], RUN_FROM[rows.byte.run_from[i]]);
      if (like[f] < 0) like[f] = i;
    }
  }
  for (const q of quarantine) {
    const f = byPath.get(q.file);
    if (f && q.runFrom !== "default") named[f.id].set(q.run, q.runFrom ?? "run");
  }
  // a file whose scored rows without a run name it has nowhere to put them: no named row
  const joins = (f: SourceFile | undefined): f is SourceFile =>
    f !== undefined && Boolean(f.runFromModel) &&
    named[f.id].size === 1 && (like[f.id] >= 0 || !usesDefault[f.id]);
  for (const q of quarantine) {
    const f = byPath.get(q.file);
    if (q.runFrom !== "default" || !joins(f)) continue;
    const [[run, from]] = named[f.id];
    q.run = run;
    q.runFrom = from;
  }
  for (let i = 0; i < rows.n; i++) {
    const f = files[rows.int.file[i]];
    if (rows.byte.run_from[i] !== BY_DEFAULT || !joins(f)) continue;
    rows.int.run[i] = rows.int.run[like[f.id]];
    rows.int.model[i] = rows.int.model[like[f.id]];
    rows.byte.run_from[i] = rows.byte.run_from[like[f.id]];
  }
}
