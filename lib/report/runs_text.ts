/**
 * Render {@link LoadedRuns} for people (a plain-text table per run) and for programs (the JSON
 * report of `runlens score --json`).
 *
 * @example
 * ```ts
 * import { runsReport, runsText } from "@runlens/report/runs_text.ts";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const loaded = await loadRuns(["tests/fixtures/logs/tree"], resolveDataDir());
 * console.log(runsText(loaded));
 * console.log(JSON.stringify(runsReport(loaded)));
 * ```
 * @module
 */
import { dirname, relative } from "node:path";
import { getBenchmark } from "../benchmarks/registry.ts";
import type { FileSummary, LoadedRuns } from "../pipeline/load.ts";
import { type Advice, adviceSections, NO_ANSWER_SHARE } from "../pipeline/advice.ts";
import type { RunSummary, StoredAgreement, TaskScore } from "../pipeline/summarise.ts";
import { type QuarantineEntry, quarantineText } from "../logs/quarantine.ts";

/** A number rounded to 2 decimals (null stays null). */
export function round2(x: number | null): number | null {
  return x === null ? null : Math.round(x * 100) / 100;
}

/**
 * A run's aggregates in the JSON report: the benchmark's aggregate keys in its order (percent,
 * 2 decimals), then `coverage` and `note` (e.g. BBEH: harmonic_mean, micro, mini_micro).
 */
export type AggregateReport = Record<string, number | string | null | Record<string, CiReport>>;

/** A 95% interval in the JSON report (percent, 2 decimals) and how it was made. */
export interface CiReport {
  /** Lower bound, percent. */
  ci_low: number;
  /** Upper bound, percent. */
  ci_high: number;
  /** Standard error (bootstrap: of the replicates), percentage points. */
  se: number;
  /** How it was made: "Wilson", "Wilson, clustered by example (…)", "bootstrap …". */
  method: string;
  /** Why the interval may mislead, when there is something to say. */
  note?: string;
}

/** Where the text sends a reader for the quarantined rows it folds. */
const QUARANTINE_MORE = "--verbose lists them, --json too";

/** Disagreements listed in the text report per run (the JSON report lists more). */
export const TEXT_DISAGREEMENTS = 10;

/** One run (one benchmark of it) in the JSON report. Keys are in this order. */
export interface RunReport {
  /** The run's name (after `--rename`). */
  run: string;
  /** The model(s) its rows name, else the run's name. */
  model: string;
  /** The benchmark of these rows (a run of several benchmarks has one report each). */
  benchmark: string;
  /** The scorer that made every verdict of the run. */
  scorer: string;
  /** The log format(s) the run was read from. */
  format: string;
  /**
   * How the run was formed: `field` (`run`/`model` field), `reader` (the format's reader),
   * `folder` (file per task), `file`.
   */
  grouping: RunSummary["grouping"];
  /** Per file whose fields were detected or mapped: canonical field → where it was read. */
  fields: Record<string, Record<string, string>>;
  /** Scored rows per data-set version other than the release. */
  data_versions: Record<string, number>;
  /** Records read for the run: scored + quarantined. */
  rows_in: number;
  /** Rows scored. */
  rows_scored: number;
  /** Rows set apart with file, line and reason. */
  rows_quarantined: number;
  /** Scored rows with an empty response (counted as wrong). */
  empty_responses: number;
  /** Scored rows whose scorer found no answer (counted as wrong). */
  no_answer: number;
  /** Per task: counts (`no_answer`: no answer found), accuracy and its 95% Wilson interval. */
  tasks: Record<string, TaskScore>;
  /** The benchmark's headline aggregates and their intervals. */
  aggregate: AggregateReport;
  /** Rows with the log's own verdict vs the re-score; `examples`: the first 100 that differ. */
  stored_agreement: StoredAgreement;
}

/** The JSON report of `runlens score --json` (inside the command envelope). */
export interface ScoreReport {
  /** One report per run and benchmark, by run name. */
  runs: RunReport[];
  /** Every row set apart: file, line, reason. */
  quarantine: QuarantineEntry[];
  /** Files that could not be read (the others were scored). */
  errors: { file: string; reason: string }[];
  /** Every file read: format, records, fields used, run grouping, task hint. */
  files: FileSummary[];
  /** Files deliberately not read (special files, links leaving the folder, loops). */
  skipped: { file: string; reason: string }[];
  /** What the load warns of (files of several runs, differing targets, …). */
  warnings: string[];
  /** Run × tasks with most answers not found, runs whose stored verdicts disagree: remedies. */
  advice: Advice;
  /** Runs renamed (`--rename`): old name → new name; absent when none was. */
  renamed?: Record<string, string>;
}

/**
 * The JSON report: runs sorted by name, tasks by name, percentages rounded to 2 decimals,
 * quarantine sorted by file and line.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const loaded = await loadRuns(["tests/fixtures/logs/tree"], resolveDataDir());
 * const json = JSON.stringify(runsReport(loaded)); // {"runs":[{"run":"alpha",…}],…}
 * assert.ok(json.startsWith('{"runs":[{"run":"alpha","model":"model-a","benchmark":"bbeh",'));
 * assert.ok(json.includes('"quarantine":[],"errors":[],"files":[{"file":'));
 * assert.ok(json.endsWith('"skipped":[],"warnings":[],"advice":{"no_answer":[],"stored":[],"disagree":[]}}'));
 * ```
 */
export function runsReport(loaded: LoadedRuns): ScoreReport {
  return {
    runs: loaded.runs.map((r) => ({
      run: r.run,
      model: r.model,
      benchmark: r.benchmark,
      scorer: r.scorer,
      format: r.format,
      grouping: r.grouping,
      fields: r.fields,
      data_versions: r.data_versions,
      rows_in: r.rows_in,
      rows_scored: r.rows_scored,
      rows_quarantined: r.rows_quarantined,
      empty_responses: r.empty_responses,
      no_answer: r.no_answer,
      tasks: Object.fromEntries(
        Object.entries(r.tasks).map((
          [task, t],
        ) => [task, {
          n: t.n,
          correct: t.correct,
          no_answer: t.no_answer,
          accuracy: round2(t.accuracy)!,
          ci_low: round2(t.ci_low)!,
          ci_high: round2(t.ci_high)!,
        }]),
      ),
      aggregate: aggregateReport(r),
      stored_agreement: r.stored_agreement,
    })),
    quarantine: loaded.quarantine.map((q) => ({ file: q.file, line: q.line, reason: q.reason })),
    errors: loaded.errors,
    files: loaded.fileSummaries,
    skipped: loaded.skipped,
    warnings: loaded.warnings,
    advice: loaded.advice,
    ...loaded.renamed ? { renamed: loaded.renamed } : {},
  };
}

/** The aggregate keys and labels of a summary's benchmark. */
function aggregateKeys(r: RunSummary): readonly { key: string; label: string }[] {
  return getBenchmark(r.benchmark)?.aggregateKeys ?? [];
}

function aggregateReport(r: RunSummary): AggregateReport {
  const a = r.aggregate;
  const values = aggregateKeys(r).map(({ key }) => [key, round2(a[key] as number | null)]);
  const ci = Object.fromEntries(
    Object.entries(r.intervals).map(([k, c]) => [k, {
      ci_low: round2(c.ci_low)!,
      ci_high: round2(c.ci_high)!,
      se: round2(c.se)!,
      method: c.method,
      ...(c.note ? { note: c.note } : {}),
    }]),
  );
  return { ...Object.fromEntries(values), coverage: a.coverage, note: a.note, ci };
}

const pct = (x: number | null | undefined) => x === null || x === undefined ? "—" : x.toFixed(2);

/** What the text of runs shows besides the runs: the evidence of fields, old names, detail. */
interface TextContext {
  evidence: ReadonlyMap<string, string>;
  /** New run name → the name the logs give it (`--rename`). */
  oldNames: ReadonlyMap<string, string>;
  /** List every file and quarantined row (`--verbose`). */
  verbose: boolean;
}

function runText(r: RunSummary, context: TextContext): string[] {
  const tasks = Object.entries(r.tasks);
  const width = Math.max(4, ...tasks.map(([t]) => t.length));
  const files = context.verbose || r.files.length <= LISTED_FILES
    ? r.files.join(", ")
    : `${filesText(r.files)}; --verbose lists them`;
  const lines = [
    `run ${r.run}  (${r.benchmark}, model ${r.model}, scorer ${r.scorer})`,
    `  rows: ${r.rows_in} in, ${r.rows_scored} scored, ${r.rows_quarantined} quarantined` +
    wrongForNothing(r) + `  [${files}]`,
  ];
  const old = context.oldNames.get(r.run);
  if (old !== undefined) lines.push(`  renamed from ${old} (--rename)`);
  const named = namingText(r);
  if (named !== null) lines.push(`  ${named}`);
  const fields = fieldsText(r.fields, context.evidence, context.verbose);
  lines.push(...fields.map((l) => `  ${l}`));
  for (const [version, n] of Object.entries(r.data_versions)) {
    lines.push(`  ${n} row${n === 1 ? "" : "s"} matched the ${version} version of the data set`);
  }
  if (tasks.length > 0) {
    lines.push(
      `  ${"task".padEnd(width)}  ${"n".padStart(5)}  correct  no answer  accuracy  95% CI`,
    );
    for (const [task, t] of tasks) {
      // a mark where the no-answer share is high enough to be flagged below
      const flag = t.no_answer > NO_ANSWER_SHARE * t.n ? "!" : " ";
      lines.push(
        `  ${task.padEnd(width)}  ${String(t.n).padStart(5)}  ${String(t.correct).padStart(7)}` +
          `  ${String(t.no_answer).padStart(8)}${flag}` +
          `  ${pct(t.accuracy).padStart(8)}  [${t.ci_low.toFixed(1)}, ${t.ci_high.toFixed(1)}]`,
      );
    }
  }
  const a = r.aggregate;
  const values = aggregateKeys(r).map(({ key, label }) => {
    const ci = r.intervals[key];
    const range = ci ? ` [${ci.ci_low.toFixed(2)}, ${ci.ci_high.toFixed(2)}]` : "";
    return `${label}: ${pct(a[key] as number)}${range}`;
  });
  lines.push(`  ${[...values, `coverage: ${a.coverage}`].join("   ")}`);
  if (a.note) lines.push(`  note: ${a.note}`);
  const methods = [...new Set(Object.values(r.intervals).map((c) => c.method))];
  if (methods.length > 0) lines.push(`  95% intervals: ${methods.join("; ")}`);
  for (const c of Object.values(r.intervals)) if (c.note) lines.push(`  interval note: ${c.note}`);
  lines.push(...agreementText(r.stored_agreement));
  return lines;
}

/** Files a line of the text lists; a longer list is summarised (all with `--verbose`). */
export const LISTED_FILES = 3;

/**
 * A list of files in a few words: `N files in <folder>/`, or across folders
 * `N files in K folders of <common folder>/ (a/, b/, c/)` (the folders named when at most
 * {@link LISTED_FILES}), or the files themselves when there are at most {@link LISTED_FILES}.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const tasks = ["navigate", "snarks", "hyperbaton", "web_of_lies"];
 * assert.equal(filesText(tasks.map((t) => `logs/few_gen_cot/${t}.csv`)),
 *   "4 files in logs/few_gen_cot/");
 * assert.equal(filesText(["a/x.csv", "b/y.csv"]), "a/x.csv, b/y.csv");
 * assert.equal(filesText(tasks.map((t, i) => `/runs/${"abc"[i % 3]}/${t}.csv`)),
 *   "4 files in 3 folders of /runs/ (a/, b/, c/)");
 * assert.equal(filesText(tasks.map((t, i) => `${"wxyz"[i]}/${t}.csv`)), "4 files in 4 folders");
 * ```
 */
export function filesText(files: readonly string[]): string {
  if (files.length <= LISTED_FILES) return files.join(", ");
  const folders = [...new Set(files.map((f) => dirname(f)))];
  const n = `${files.length} files`;
  if (folders.length === 1) return `${n} in ${asFolder(folders[0])}`;
  const common = commonFolder(folders);
  const named = folders.map((f) => asFolder(common === null ? f : relative(common, f)));
  const where = common === null ? "" : ` of ${asFolder(common)}`;
  const list = folders.length <= LISTED_FILES ? ` (${named.join(", ")})` : "";
  return `${n} in ${folders.length} folders${where}${list}`;
}

/** A folder written as one: with a closing `/`. */
function asFolder(folder: string): string {
  return folder.endsWith("/") ? folder : `${folder}/`;
}

/** The deepest folder holding all of `folders` (null: none but the root or the current one). */
function commonFolder(folders: readonly string[]): string | null {
  const parts = folders.map((f) => f.split("/"));
  let depth = 0;
  while (parts.every((p) => depth < p.length && p[depth] === parts[0][depth])) depth++;
  const common = parts[0].slice(0, depth).join("/");
  return common === "" || common === "." ? null : common;
}

/**
 * The fields lines of a run: files read through the same fields (and chosen on the same
 * evidence) in one line — `N files in <folder>/: …` for files of one folder, else
 * `fields of <files>: …` with the files summarised by {@link filesText}; with `verbose`, one
 * `fields of <file>: …` line per file. The evidence, when the rows' content chose the
 * columns, in parentheses: distinct choices or evidence stay distinct lines.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const used = { input: "column 0", response: "column 1", target: "column 2" };
 * const why = "target column equals each row's data-set target on 40 of 40 sampled rows";
 * const fields = { "d/a.csv": used, "d/b.csv": used, "e/c.jsonl": { response: "output" } };
 * const evidence = new Map([["d/a.csv", why], ["d/b.csv", why]]);
 * assert.deepEqual(fieldsText(fields, evidence), [
 *   `2 files in d/: input ← column 0, response ← column 1, target ← column 2 (${why})`,
 *   "fields of e/c.jsonl: response ← output",
 * ]);
 * assert.equal(fieldsText(fields, evidence, true).length, 3); // --verbose: a line per file
 * ```
 */
export function fieldsText(
  fields: Readonly<Record<string, Record<string, string>>>,
  evidence: ReadonlyMap<string, string>,
  verbose = false,
): string[] {
  const groups = new Map<string, string[]>();
  for (const [file, used] of Object.entries(fields)) {
    const list = Object.entries(used).map(([f, from]) => `${f} ← ${from}`).join(", ");
    const why = evidence.get(file);
    const text = why ? `${list} (${why})` : list;
    const key = verbose ? `${file}\u0000${text}` : text;
    groups.set(key, [...groups.get(key) ?? [], file]);
  }
  return [...groups].map(([key, files]) => {
    const text = key.slice(key.indexOf("\u0000") + 1);
    const folders = new Set(files.map((f) => dirname(f)));
    return files.length > 1 && folders.size === 1
      ? `${files.length} files in ${asFolder(dirname(files[0]))}: ${text}`
      : `fields of ${filesText(files)}: ${text}`;
  });
}

/**
 * The scored rows that are wrong for want of an answer, in words ("" when none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(wrongForNothing({ empty_responses: 1, no_answer: 3 }),
 *   " (1 empty response, 3 with no answer found: scored as wrong)");
 * assert.equal(wrongForNothing({ empty_responses: 0, no_answer: 0 }), "");
 * ```
 */
export function wrongForNothing(r: Pick<RunSummary, "empty_responses" | "no_answer">): string {
  const parts = [
    ...(r.empty_responses > 0
      ? [`${r.empty_responses} empty response${r.empty_responses === 1 ? "" : "s"}`]
      : []),
    ...(r.no_answer > 0 ? [`${r.no_answer} with no answer found`] : []),
  ];
  return parts.length === 0 ? "" : ` (${parts.join(", ")}: scored as wrong)`;
}

/** What the text says of each way a record field names a run. */
const NAMED_BY: Record<"run" | "model" | "apart", string> = {
  run: "run named by its records' run field",
  model: "run named by its records' model field",
  apart: "run named by its records' model field, kept apart from the model's other files " +
    "that repeat its examples (see warnings)",
};

/**
 * How a run was named, in words (null: not known).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const run = { grouping: "field", naming: "model", format: "mapped-jsonl" } as const;
 * assert.equal(namingText(run), "run named by its records' model field");
 * assert.equal(namingText({ ...run, grouping: "folder", naming: "default" }),
 *   "run named after its folder (its records name no run)");
 * assert.equal(namingText({ ...run, grouping: "reader", naming: "run", format: "lm-eval" }),
 *   "run named by its reader (lm-eval)");
 * ```
 */
export function namingText(r: Pick<RunSummary, "grouping" | "naming" | "format">): string | null {
  if (r.grouping === "reader") return `run named by its reader (${r.format})`;
  if (r.grouping !== "field") return `run named after its ${r.grouping} (its records name no run)`;
  return r.naming === null || r.naming === "default" ? null : NAMED_BY[r.naming];
}

/**
 * The stored-verdict lines of a run: counts, then the first {@link TEXT_DISAGREEMENTS}
 * disagreements as `file:line task[index]: extracted …, stored …, ours …`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(agreementText({ n: 2, agree: 2, disagree: 0, examples: [] }), [
 *   "  stored verdicts: 2 rows, 2 agree with the re-score, 0 disagree",
 * ]);
 * assert.deepEqual(agreementText({ n: 0, agree: 0, disagree: 0, examples: [] }), []);
 * ```
 */
export function agreementText(s: StoredAgreement): string[] {
  if (s.n === 0) return [];
  const lines = [
    `  stored verdicts: ${s.n} rows, ${s.agree} agree with the re-score, ${s.disagree} disagree`,
  ];
  for (const d of s.examples.slice(0, TEXT_DISAGREEMENTS)) {
    const tool = d.tool_extracted === null
      ? ""
      : ` (tool extracted ${JSON.stringify(d.tool_extracted)})`;
    lines.push(
      `    ${d.file}:${d.line} ${d.task}[${d.example_index}]: extracted ` +
        `${JSON.stringify(d.extracted)}${tool}, stored ${d.stored}, ours ${d.ours}`,
    );
  }
  if (s.disagree > TEXT_DISAGREEMENTS) {
    lines.push(`    … ${s.disagree - TEXT_DISAGREEMENTS} more (see --json)`);
  }
  return lines;
}

/**
 * The readable report: per run (and benchmark) its model, scorer, row counts, per-task table,
 * aggregates (with the coverage note) and stored-verdict agreement, then the quarantine list
 * and a one-line summary. Long lists — a run's files, the fields of each, the quarantined
 * rows — are summarised unless `verbose`; warnings and advice are always whole.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const text = runsText(await loadRuns(["tests/fixtures/logs/tree/sub/b.csv"], resolveDataDir()));
 * console.log(text);
 * assert.equal(text.split("\n")[0], "run b  (bbeh, model b, scorer bbeh-official)");
 * assert.equal(text.split("\n").at(-1), "1 run from 1 file: 2 rows in, 2 scored, 0 quarantined");
 * ```
 */
export function runsText(loaded: LoadedRuns, options: { verbose?: boolean } = {}): string {
  const out: string[] = [];
  const verbose = options.verbose === true;
  const context: TextContext = {
    evidence: new Map(
      loaded.fileSummaries.filter((f) => f.fields_evidence).map((f) => [
        f.file,
        f.fields_evidence!,
      ]),
    ),
    oldNames: new Map(Object.entries(loaded.renamed ?? {}).map(([from, to]) => [to, from])),
    verbose,
  };
  for (const r of loaded.runs) out.push(...runText(r, context), "");
  if (loaded.quarantine.length > 0) {
    out.push(`quarantine (${loaded.quarantine.length} rows):`);
    const limit = verbose ? Infinity : undefined;
    out.push(...quarantineText(loaded.quarantine, limit, undefined, QUARANTINE_MORE), "");
  }
  for (const [title, list] of [["not read", loaded.errors], ["skipped", loaded.skipped]] as const) {
    if (list.length === 0) continue;
    out.push(`${title} (${list.length} file${list.length === 1 ? "" : "s"}):`);
    out.push(...list.map((e) => `  ${e.file}: ${e.reason}`), "");
  }
  if (loaded.warnings.length > 0) {
    out.push(`warnings (${loaded.warnings.length}):`, ...loaded.warnings.map((w) => `  ${w}`), "");
  }
  out.push(...adviceSections(loaded.advice), summaryLine(loaded));
  return out.join("\n");
}

/**
 * One line: how many runs and rows were read, scored (and of those, with no answer found)
 * and quarantined.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const loaded = await loadRuns(["tests/fixtures/logs/mixed.jsonl"], resolveDataDir());
 * assert.equal(
 *   summaryLine(loaded),
 *   "2 runs from 1 file: 21 rows in, 4 scored (1 with no answer found), 17 quarantined",
 * );
 * ```
 */
export function summaryLine(loaded: LoadedRuns): string {
  const sum = (k: "rows_in" | "rows_scored" | "rows_quarantined" | "no_answer") =>
    loaded.runs.reduce((s, r) => s + r[k], 0);
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;
  const failed = loaded.errors.length > 0
    ? `; ${plural(loaded.errors.length, "file")} could not be read`
    : "";
  return `${plural(loaded.runs.length, "run")} from ${plural(loaded.files.length, "file")}: ` +
    `${sum("rows_in")} rows in, ${sum("rows_scored")} scored` +
    (sum("no_answer") > 0 ? ` (${sum("no_answer")} with no answer found)` : "") + ", " +
    `${sum("rows_quarantined")} quarantined${failed}`;
}
