/**
 * Score one unit of work (a byte range of a line-format log, or a whole document): read its
 * records with the format's source, check each (`check.ts`), tie it to an example
 * (`Identifier`), score it with its benchmark's scorer, and collect compact rows and the
 * quarantine. Runs inside the scoring Workers (`worker.ts`) and, for tests and one-Worker
 * loads, in-process. Polars-free.
 *
 * Every record read is accounted for: `rowsIn = rows + quarantine + pending`, and a document
 * that cannot be read gives `error` (no rows) instead of throwing.
 *
 * @example
 * ```ts ignore
 * // see tests/engine_score_unit.test.ts: a fake identifier and source drive it
 * const result = scoreUnit(state, unit);
 * result.rowsIn === result.rows.n + result.quarantine.length + result.pending.list.length;
 * ```
 * @module
 */
import { isSpan, type LogRecord, textOf } from "../logs/record.ts";
import {
  FileError,
  type RecordSink,
  type Source,
  type SourceFile,
  type SourceLimits,
} from "../logs/sources/types.ts";
import { ScorerRuleError } from "../scorers/define.ts";
import { type ScalarScorer, UnscorableRow, type Verdict } from "../scorers/types.ts";
import { type CheckedRecord, type CheckOptions, checkRecord, trimIdentifier } from "./check.ts";
import { type CompactRow, RowBuilder } from "./compact.ts";
import type {
  Identification,
  IdentifiedExample,
  IdentifyHints,
  PendingIdentification,
} from "./examples.ts";
import { sameTarget } from "./examples.ts";
import type { PendingRow, UnitQuarantine, UnitResult, WorkUnit } from "./units.ts";
import type { Labels } from "./labels.ts";
import { ScorerChoiceError } from "../scorers/user_rule.ts";

/**
 * A row was tied to a planned benchmark that has no scorer (`load_plan.ts` `unscored`): the
 * load stops at the first one, with the reason, before anything is summarised or cached.
 */
export class UnscoredRowsError extends ScorerChoiceError {
  /** The error's name. */
  override name = "UnscoredRowsError";
}

/** Ties checked records to examples (`examples.ts` `ExampleIndex`). */
export interface Identifier {
  identify(r: CheckedRecord, hints?: IdentifyHints): Identification;
  /** The targets of the examples a text is the question of (or a prompt ends with); null: none. */
  targetsOf(text: string): readonly string[] | null;
}

/** Everything a Worker holds to score units. */
export interface ScoringState {
  identifier: Identifier;
  /** The scorer of each benchmark's rows. */
  scorers: ReadonlyMap<string, ScalarScorer>;
  /** Why a planned benchmark's rows have no scorer (`load_plan.ts`); absent: none lacks one. */
  unscored?: ReadonlyMap<string, string>;
  /** Rows of such a benchmark: stop the load (`error`, the default) or quarantine them. */
  unscoredRows?: "error" | "quarantine";
  /**
   * By benchmark (the file's `benchmarkHint`; "" for a file none names), record field → its
   * `parse` (`check.ts`); absent: none declared.
   */
  recordParsers?: ReadonlyMap<string, ReadonlyMap<string, (value: unknown) => unknown>>;
  /** Benchmarks whose rows may lack a response (`nullResponse: "row"`); absent: none. */
  nullResponse?: ReadonlySet<string>;
  /** Benchmarks whose rows may lack a verdict (`nullVerdict: "row"`); absent: none. */
  nullVerdict?: ReadonlySet<string>;
  /** Only these benchmarks (the user's `--benchmark`); absent: every indexed one. */
  benchmarks?: readonly string[];
  /** The benchmark of records that name none when several fit equally (`examples.ts`). */
  defaultBenchmark?: string;
  /** Resolves the labels tools give benchmarks and tasks (`labels.ts`). */
  labels: Labels;
  /** The source of a file (`logs/sources/all.ts` `sourceFor`). */
  sourceFor(file: SourceFile): Source | null;
  limits: SourceLimits;
}

/**
 * Score one unit; never throws for a bad record or an unreadable document.
 *
 * @example
 * ```ts ignore
 * const r = scoreUnit(state, { id: 0, file, kind: "document", start: 0, end: file.size, part: 0 });
 * ```
 */
export function scoreUnit(state: ScoringState, unit: WorkUnit): UnitResult {
  const collector = new UnitCollector(state, unit);
  const source = state.sourceFor(unit.file);
  let lines = 0;
  let error: string | null = null;
  try {
    // a file whose rows could not choose its columns is not read (`field_choice.ts`)
    if (unit.file.refused) throw new FileError(unit.file.path, unit.file.refused);
    if (!source) throw new FileError(unit.file.path, `no reader for format ${unit.file.format}`);
    if (source.kind === "lines") {
      lines = source.readRange(unit.file, unit.start, unit.end, collector, state.limits).lines;
    } else {
      source.read(unit.file, collector, state.limits);
    }
  } catch (e) {
    if (!(e instanceof FileError)) throw e;
    error = e.reason;
  }
  if (collector.unscored !== null) throw new UnscoredRowsError(collector.unscored);
  return collector.result(unit.id, lines, error);
}

/** The reasons the planning's fields hint is added to (`missing_fields.ts`). */
const HINTED = ["missing response", "missing task", "neither example_index nor input"];

/** Collects what one unit's records become. */
class UnitCollector implements RecordSink {
  /** Spans are scored or dropped within `record`: readers may reuse their buffers. */
  readonly transient = true;
  #rows = new RowBuilder();
  #pendingRows = new RowBuilder();
  #pending: PendingRow[] = [];
  #quarantine: UnitQuarantine[] = [];
  #models = new Map<string, Set<string>>();
  #rowsIn = 0;
  #targetDiffers = 0;
  #targetCase = 0;
  /** Why the load stops: a row was tied to a benchmark without a scorer (null: it goes on). */
  unscored: string | null = null;
  readonly #check: CheckOptions;

  constructor(readonly state: ScoringState, readonly unit: WorkUnit) {
    const nulls = state.nullResponse;
    const hint = unit.file.benchmarkHint ?? "";
    this.#check = {
      // the parse of the benchmark the file's record fields name (else the first one's)
      parsers: state.recordParsers?.get(hint),
      nullResponse: nulls ? (b) => nulls.has(b ?? hint) : undefined,
    };
  }

  bad(b: { line: number; reason: string; run?: string | null }): void {
    this.#rowsIn++;
    const run = trimIdentifier(b.run);
    const named = run !== null && run !== undefined;
    this.#quarantine.push({
      line: b.line,
      reason: b.reason,
      run: named ? run : this.unit.file.defaultRun,
      runFrom: named ? "run" : "default",
      // a file its record fields say is one benchmark's: its unreadable records are too
      benchmark: this.unit.file.benchmarkHint ?? null,
    });
  }

  record(r: LogRecord): void {
    if (this.unscored !== null) return;
    this.#rowsIn++;
    const file = this.unit.file;
    // `--map benchmark==bbh` over a structured log's own fields (an inspect task's custom name)
    const read = file.literals ? { ...r, ...file.literals } : r;
    const checked = checkRecord(read, file.defaultRun, file.runFromModel, this.#check);
    if (!checked.ok) {
      this.#quarantine.push({
        line: r.line,
        reason: this.#hinted(checked.reason),
        run: checked.run,
        runFrom: checked.runFrom,
        benchmark: file.benchmarkHint ?? null,
      });
      return;
    }
    const c = this.#relabelled(checked.record);
    // a run its model names has that model; merge may rename the run (`run_names.ts`)
    if (c.runFrom !== "model") this.#noteModel(c.run, c.model);
    const hint = file.benchmarkHint;
    const found = this.state.identifier.identify(c, {
      task: file.taskHint ?? null,
      // a file its record fields say is one benchmark's: its records that name none are that
      benchmarks: hint && c.benchmark === null ? [hint] : this.state.benchmarks,
      defaultBenchmark: this.state.defaultBenchmark,
    });
    if (
      !("problem" in found) && c.response === null && !this.state.nullResponse?.has(found.benchmark)
    ) {
      this.#quarantine.push({
        line: c.line,
        reason: "missing response",
        run: c.run,
        runFrom: c.runFrom,
        benchmark: found.benchmark,
      });
      return;
    }
    if ("problem" in found) {
      if (TARGET_DIFFERS.has(found.problem)) this.#targetDiffers++;
      this.#quarantine.push({
        line: c.line,
        reason: this.#hinted(found.reason),
        run: c.run,
        runFrom: c.runFrom,
        benchmark: found.benchmark,
        lmEval: lmEvalKey(r, c),
      });
      return;
    }
    const why = this.state.unscored?.get(found.benchmark);
    if (why !== undefined) {
      // readers turn a sink's exception into a file error: stop here, throw after the read
      if (this.state.unscoredRows !== "quarantine") return void (this.unscored ??= why);
      this.#quarantine.push({
        line: c.line,
        reason: why,
        run: c.run,
        runFrom: c.runFrom,
        benchmark: found.benchmark,
        lmEval: lmEvalKey(r, c),
      });
      return;
    }
    // identification takes a target equal to the data set's only when case is ignored
    if (c.target !== null && !sameTarget(c.target, found.target)) this.#targetCase++;
    // every candidate of a pending record has the same input and target: score it now, the
    // main thread only picks its example
    const verdict = this.#score(c, found.benchmark, found.task, found.input, found.target);
    if (typeof verdict === "string") {
      this.#quarantine.push({
        line: c.line,
        reason: verdict,
        run: c.run,
        runFrom: c.runFrom,
        benchmark: found.benchmark,
        lmEval: lmEvalKey(r, c),
      });
      return;
    }
    const pending = "pending" in found;
    const example = pending ? -1 : found.example_index;
    if (verdict.correct === null && !pending && !this.state.nullVerdict?.has(found.benchmark)) {
      this.#quarantine.push({
        line: c.line,
        reason: noVerdict(this.#scorer(found.benchmark).name, found.task, example),
        run: c.run,
        runFrom: c.runFrom,
        benchmark: found.benchmark,
        lmEval: lmEvalKey(r, c),
      });
      return;
    }
    const row = this.#row(r, c, found, example, verdict);
    if (!pending) return this.#rows.add(row);
    this.#pending.push({ row: this.#pendingRows.n, key: found.key, candidates: found.candidates });
    this.#pendingRows.add(row);
  }

  /** The compact row of a record tied to an example (`example` -1: pending). */
  #row(
    r: LogRecord,
    c: CheckedRecord,
    found: IdentifiedExample | PendingIdentification,
    example: number,
    verdict: Verdict,
  ): CompactRow {
    return {
      file: this.unit.file.id,
      line: c.line,
      run: c.run,
      run_from: c.runFrom,
      model: c.model,
      benchmark: found.benchmark,
      task: found.task,
      example,
      epoch: c.epoch,
      input_chars: found.input_chars,
      correct: verdict.correct,
      found: verdict.found,
      extracted: verdict.extracted,
      scorer: verdict.rule ?? this.#scorer(found.benchmark).name,
      chars: c.chars,
      bytes: c.bytes,
      tokens: c.response_tokens,
      stored: c.stored_correct,
      tool_extracted: c.tool_extracted,
      filter: c.filter,
      data_version: found.data_version,
      pointer: r.pointer ?? null,
      ...recordColumns(c, found, verdict.extra),
    };
  }

  #scorer(benchmark: string): ScalarScorer {
    const scorer = this.state.scorers.get(benchmark);
    if (!scorer) throw new Error(`internal error: no scorer for benchmark ${benchmark}`);
    return scorer;
  }

  /**
   * The verdict of the benchmark's scorer (from the bytes when it has a fast path), or the
   * reason the row cannot be scored (`UnscorableRow`). A user's rule that fails on the
   * response makes the file an error naming the line and the rule.
   */
  #score(
    c: CheckedRecord,
    benchmark: string,
    task: string,
    input: string,
    target: string,
  ): Verdict | string {
    const scorer = this.#scorer(benchmark);
    const response = c.response;
    if (isSpan(response) && scorer.scoreSpan) {
      return scorer.scoreSpan(response.bytes, response.start, response.end, response.flags, target);
    }
    const text = isSpan(response) ? response.text() : textOf(response) ?? "";
    const own = c.subset != null || c.fields != null ? { subset: c.subset, fields: c.fields } : {};
    try {
      return scorer.score(text, target, { task, input, stored: c.stored_correct, ...own });
    } catch (e) {
      if (e instanceof UnscorableRow) return e.message;
      if (!(e instanceof ScorerRuleError)) throw e;
      throw new FileError(this.unit.file.path, `line ${c.line}: ${e.message}`);
    }
  }

  /** The record with its benchmark and task labels resolved (`labels.ts`). */
  #relabelled(c: CheckedRecord): CheckedRecord {
    const { benchmark, task } = this.state.labels.resolve(c.benchmark, c.task);
    return benchmark === c.benchmark && task === c.task ? c : { ...c, benchmark, task };
  }

  /**
   * A reason for a field the file's names do not give (`missing response`, `missing task`, no
   * index and no question) with what the file's fields are, when planning found none: other
   * "missing …" reasons (a benchmark's own fields) are not about the file's names.
   */
  #hinted(reason: string): string {
    const hint = this.unit.file.fieldsHint;
    return hint && HINTED.some((h) => reason.startsWith(h)) ? `${reason} (${hint})` : reason;
  }

  #noteModel(run: string, model: string): void {
    const set = this.#models.get(run) ?? new Set<string>();
    set.add(model);
    this.#models.set(run, set);
  }

  /** The unit's result; a file that could not be read keeps nothing of what was read. */
  result(id: number, lines: number, error: string | null): UnitResult {
    const failed = error !== null;
    return {
      id,
      rows: (failed ? new RowBuilder() : this.#rows).finish(),
      quarantine: failed ? [] : this.#quarantine,
      pending: failed
        ? { rows: new RowBuilder().finish(), list: [] }
        : { rows: this.#pendingRows.finish(), list: this.#pending },
      lines,
      rowsIn: failed ? 0 : this.#rowsIn,
      targetDiffers: failed ? 0 : this.#targetDiffers,
      targetCase: failed ? 0 : this.#targetCase,
      error,
      models: [...this.#models].flatMap(([run, models]) => [...models].map((m) => [run, m])),
      fields: null,
    } as UnitResult;
  }
}

/**
 * A row's `example_id`, `subset` and `extra` (JSON of its record fields, the input and target
 * of a row tied by id, which has no released example to join them from, and what its verdict
 * adds, `Verdict.extra`); only those it has (most rows: none).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const found = { example_id: "q7", input: "Q?", target: "4" };
 * assert.deepEqual(recordColumns({ fields: { level: 2 } }, found), {
 *   example_id: "q7",
 *   extra: '{"level":2,"input":"Q?","target":"4"}',
 * });
 * assert.deepEqual(recordColumns({}, { input: "Q?", target: "4" }), {});
 * ```
 */
export function recordColumns(
  c: Pick<CheckedRecord, "subset" | "fields">,
  found: { example_id?: string; input: string; target: string },
  verdict: Verdict["extra"] = undefined,
): Pick<CompactRow, "example_id" | "subset" | "extra"> {
  const own = found.example_id === undefined ? null : { input: found.input, target: found.target };
  const extra = c.fields || own || verdict
    ? JSON.stringify({ ...c.fields, ...own, ...verdict })
    : null;
  return {
    ...found.example_id !== undefined ? { example_id: found.example_id } : {},
    ...c.subset != null ? { subset: c.subset } : {},
    ...extra !== null ? { extra } : {},
  };
}

/** Identification problems of a target that differs from the data set's (`examples.ts`). */
const TARGET_DIFFERS = new Set(["target_mismatch", "input_target_mismatch"]);

/**
 * The reason of a row its scorer gives no verdict for.
 *
 * @example
 * ```ts
 * noVerdict("stored", "nycc", 4); // "scorer stored gives no verdict for nycc[4] (the log stores none)"
 * ```
 */
export function noVerdict(scorer: string, task: string, example: number): string {
  return `scorer ${scorer} gives no verdict for ${task}[${example}]` +
    (scorer === "stored" ? " (the log stores none)" : "");
}

/** The lm-eval response key of a record that carries a filter (null otherwise). */
function lmEvalKey(r: LogRecord, c: CheckedRecord): UnitQuarantine["lmEval"] {
  if (!c.filter) return null;
  return { filter: c.filter, index: textOf(r.example_index) ?? "", epoch: c.epoch };
}
