/**
 * Plan a load: turn the files discovery found (`logs/discover.ts`) into the
 * {@link SourceFile}s the scoring Workers read — each with its fields, task hint and default
 * run decided once on the main thread from the file's first records and its path:
 * - **fields** (issue 14, item 2; issue 22, item 4): a JSON-lines or CSV log whose keys are
 *   not the canonical ones (`question`, `output`, a chat transcript, …) is read as `mapped-*`
 *   with the fields `logs/sources/fields.ts` detects by name; a headerless CSV, or names that
 *   leave a choice, by each row's own evidence, once per folder and layout
 *   (`field_choice.ts`); `--map` overrides what it names;
 * - **task hint** from the file and folder names (`task_hint.ts`);
 * - **record fields** of the planned benchmarks that the file's records carry, and the
 *   benchmark those fields make it (`record_fields.ts`);
 * - **runs** (issue 14, item 3): a record's `run` field names its run, else (generic logs) its
 *   `model` field — files of one model that repeat examples (two seeds) are kept apart at
 *   merge as `<model>/<default run>` (`run_names.ts`) — else the file's **default run**: the
 *   file's name, or — when a folder holds one file per task (two or more generic logs, each
 *   naming a different task) — the folder's name, so that a run spread over 27 task files is
 *   one run. `runBy` forces `file` or `folder` (the `model` field is ignored; a `run` field
 *   still names the run: it is the log's own run id), or `field` (`run`, else `model`, in
 *   every format, never kept apart: repeats are duplicates).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { discover } from "@runlens/logs/discover.ts";
 * const dir = Deno.makeTempDirSync();
 * for (const task of ["navigate", "snarks"]) {
 *   Deno.writeTextFileSync(`${dir}/${task}-zero-shot-cot.jsonl`,
 *     JSON.stringify({ question: "Q?", output: "A", gold: "(A)" }) + "\n");
 * }
 * const bbh = { name: "bbh", tasks: [{ name: "navigate" }, { name: "snarks" }] };
 * const files = planFiles(discover([dir]).files, { benchmarks: [bbh] });
 * const how = (f: PlannedFile) => [f.format, f.taskHint?.task, f.grouping, f.runFromModel];
 * assert.deepEqual(files.map(how), [
 *   ["mapped-jsonl", "navigate", "folder", "auto"], // a `model` field would name the run
 *   ["mapped-jsonl", "snarks", "folder", "auto"],
 * ]);
 * const byFile = planFiles(discover([dir]).files, { benchmarks: [bbh], runBy: "file" });
 * assert.deepEqual(byFile.map((f) => [f.grouping, f.runFromModel]), [
 *   ["file", null], // --run-by file: the model field is ignored
 *   ["file", null],
 * ]);
 * assert.equal(files[0].defaultRun, dir.split("/").pop());
 * assert.deepEqual(files[0].fieldsUsed, { response: "output", input: "question", target: "gold" });
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import { basename, dirname, resolve } from "node:path";
import { type FoundFile, GENERIC_FORMATS } from "../logs/discover.ts";
import { defaultRunName } from "../logs/paths.ts";
import type { FieldMapping, SourceFile, SourceLimits } from "../logs/sources/types.ts";
import type { TargetLookup } from "./columns.ts";
import { decideFields } from "./field_choice.ts";
import { recordFieldsOf, type RecordPlan } from "./record_fields.ts";
import { type HintBenchmark, taskHintOf } from "./task_hint.ts";

/**
 * How records get their run: `auto` (`run`, else `model` in generic logs, else the default
 * run), `field` (`run`, else `model`), `folder` or `file` (`run`, else the default run).
 */
export type RunBy = "auto" | "field" | "folder" | "file";

/** A file of the plan, with what was decided about it. */
export interface PlannedFile extends SourceFile {
  /** How its records without a `run` field got theirs. */
  grouping: "folder" | "file";
  /** Canonical field → where it was read from (generic logs), for `--json`'s `fields`. */
  fieldsUsed: Record<string, string> | null;
  /** Why the columns are these, when the rows' content chose them (`field_choice.ts`). */
  fieldsEvidence: string | null;
  /** Discovery's reason for the format (and the detection's, when it changed it). */
  reason: string;
}

/** What {@link planFiles} needs besides the files. */
export interface PlanOptions {
  /** The scored benchmarks (task names for hints). */
  benchmarks: readonly HintBenchmark[];
  /** The parsed `--map`, applied over detection to every generic log. */
  map?: FieldMapping | null;
  runBy?: RunBy;
  /**
   * The data sets' targets of a question: columns chosen by each row's own evidence
   * (headerless CSV, names that leave a choice); absent: by names only.
   */
  targets?: TargetLookup;
  limits?: SourceLimits;
  /** The planned benchmarks' record fields (`record_fields.ts`); absent: none. */
  records?: RecordPlan | null;
}

const GENERIC = GENERIC_FORMATS;

/** The plan of `found`, in order; file ids are positions. */
export function planFiles(found: readonly FoundFile[], options: PlanOptions): PlannedFile[] {
  const fields = decideFields(found, options);
  const files = found.map((f, id): PlannedFile => {
    const base = {
      id,
      path: f.path,
      name: f.name,
      format: f.format,
      gzip: f.gzip,
      size: f.size,
      ...(f.separator ? { separator: f.separator } : {}),
      defaultRun: defaultRunName(f.name),
      taskHint: taskHintOf(f.name, options.benchmarks),
      grouping: "file" as const,
      runFromModel: null,
      fieldsUsed: null,
      fieldsEvidence: null,
      reason: f.reason,
    };
    if (!fields[id]) return withLiterals(base, options.map);
    const { keys, ...decision } = fields[id];
    const planned = { ...base, ...decision };
    if (!options.records) return planned;
    return { ...planned, ...recordFieldsOf(planned, keys, options.records, options.map) };
  });
  return groupRuns(files, options.runBy ?? "auto", options.benchmarks);
}

/**
 * A structured log (not a generic one) with `--map`'s literals (`benchmark==bbh`, `task==…`,
 * `model==…`), laid over its records; the field mappings of `--map` name columns and keys of
 * JSON-lines and CSV logs only (`engine.ts` says so when they are given for other logs).
 */
function withLiterals(file: PlannedFile, map: FieldMapping | null | undefined): PlannedFile {
  const literals = map?.constants ?? {};
  return Object.keys(literals).length === 0 ? file : { ...file, literals };
}

/**
 * Default runs: a folder of generic logs, one per task, is one run named after the folder
 * (`auto`; a file alone in a folder that names its task, `<model>/bbeh_<task>/predictions.jsonl`,
 * counts in the folder above), or every folder is (`folder`); else each file is its own
 * (`file`, `field`). Default runs of different folders or files never share a name
 * ({@link nameApart}). And whose `model` field names the run: generic logs' (`auto`), every
 * log's (`field`).
 */
function groupRuns(files: PlannedFile[], runBy: RunBy, benchmarks: readonly HintBenchmark[]) {
  const paths = new Map(files.map((f) => [f, stemPath(f.name)]));
  if (runBy === "auto" || runBy === "folder") {
    for (const [dir, group] of runFolders(files, runBy, benchmarks)) {
      if (runBy === "auto" && !onePerTask(group)) continue;
      for (const f of group) {
        f.defaultRun = basename(dir);
        f.grouping = "folder";
        paths.set(f, dir);
      }
    }
  }
  for (const f of files) {
    if (runBy === "field") f.runFromModel = "field";
    else if (runBy === "auto" && GENERIC.has(f.format)) f.runFromModel = "auto";
  }
  nameApart(paths);
  return files;
}

/** A file's absolute path without its extension: what its file-named default run stands for. */
const stemPath = (name: string) => resolve(dirname(name), defaultRunName(name));

/**
 * The folders that may be runs, with their generic logs: each log's folder — or (`auto`) the
 * folder above, for a log alone in its folder whose own name names no task but its folder's
 * does (`gpt-4o/bbeh_nycc/predictions.jsonl`: the per-task folders of one run).
 */
function runFolders(
  files: readonly PlannedFile[],
  runBy: RunBy,
  benchmarks: readonly HintBenchmark[],
): Map<string, PlannedFile[]> {
  const generic = files.filter((f) => GENERIC.has(f.format));
  const perFolder = new Map<string, number>();
  for (const f of generic) {
    const dir = resolve(dirname(f.name));
    perFolder.set(dir, (perFolder.get(dir) ?? 0) + 1);
  }
  const out = new Map<string, PlannedFile[]>();
  for (const f of generic) {
    let dir = resolve(dirname(f.name));
    const taskFolder = runBy === "auto" && perFolder.get(dir) === 1 && f.taskHint !== null &&
      taskHintOf(basename(f.name), benchmarks) === null;
    if (taskFolder) dir = dirname(dir);
    out.set(dir, [...(out.get(dir) ?? []), f]);
  }
  return out;
}

/**
 * Default runs of different folders or files that would share a name (`exp1/gpt4o/`,
 * `exp2/gpt4o/`; `gpt4o/date_understanding.jsonl`, `claude/date_understanding.jsonl`) are
 * different runs: each gets the shortest end of its path that no other of them shares
 * (`exp1/gpt4o`, `gpt4o/date_understanding`), instead of one name under which the second's
 * rows would be quarantined as duplicates of the first's. `paths`: file → the absolute path
 * (folder, or file without extension) its default run stands for.
 */
function nameApart(paths: ReadonlyMap<PlannedFile, string>): void {
  const byName = new Map<string, Set<string>>();
  for (const [f, path] of paths) {
    byName.set(f.defaultRun, (byName.get(f.defaultRun) ?? new Set()).add(path));
  }
  for (const [f, path] of paths) {
    const same = byName.get(f.defaultRun)!;
    if (same.size > 1) f.defaultRun = shortestEnd(path, same);
  }
}

/** The fewest last components of `path` (joined with `/`) that no other of `paths` ends with. */
function shortestEnd(path: string, paths: ReadonlySet<string>): string {
  const parts = componentsOf(path);
  const others = [...paths].filter((p) => p !== path).map(componentsOf);
  for (let k = 2; k < parts.length; k++) {
    const end = parts.slice(-k).join("/");
    if (others.every((o) => o.slice(-k).join("/") !== end)) return end;
  }
  return parts.join("/");
}

const componentsOf = (path: string) => path.split(/[\\/]/).filter((p) => p !== "");

/** Two or more files, each naming a task, no task twice. */
function onePerTask(group: readonly PlannedFile[]): boolean {
  if (group.length < 2 || group.some((f) => !f.taskHint)) return false;
  const tasks = new Set(group.map((f) => `${f.taskHint!.benchmark}/${f.taskHint!.task}`));
  return tasks.size === group.length;
}
