/**
 * What to do when a run's numbers rest on weak evidence (issue 22, item 1), as data that the
 * text output, the JSON report and the HTML report all print:
 *
 * - **No answer found.** When more than {@link NO_ANSWER_SHARE} of a run × benchmark × task's
 *   responses had no answer found by the scorer used, every other scorer that applies to the
 *   benchmark (the lenient one included) is tried on those responses. A scorer is named, as a
 *   ready-to-run `--scorer` flag, only when it finds MORE answers of the target's form
 *   ({@link targetForm}) than the scorer used; of those, the one with the most right answers,
 *   then the most answers of the form, then registry order. A rule that reads the wrong place
 *   "finds" something in every response (the closing `"""` of a block, the first line of the
 *   reasoning), seldom an answer of the target's form; when no scorer finds more, the output
 *   says so and points to `--rows FILE`.
 * - **Stored verdicts disagree.** When the log stores its own verdicts (lm-eval, inspect,
 *   OpenCompass) and the scorer used disagrees with them on more than
 *   {@link STORED_MIN_ROWS} rows and more than {@link STORED_MIN_SHARE} of them, every other
 *   applicable scorer is tried on the rows with a stored verdict and the one that agrees with
 *   them most is named.
 * - **Rules disagree.** Every run × benchmark × task (whatever its no-answer share) is checked:
 *   the other applicable scorers (the lenient one included; not `stored`) are tried on an even
 *   sample of at most {@link DISAGREE_SAMPLE} of its rows, and when one scores clearly more of
 *   them right than the scorer used — at least {@link DISAGREE_MIN_ROWS} rows and
 *   {@link DISAGREE_MIN_SHARE} of the sample more — it is named. A rule that reads an answer
 *   in every response but the wrong one (a number of a note after the answer, an official cue
 *   the model then corrects) finds an answer everywhere, so the no-answer check cannot see it;
 *   the right answers another rule reads can. Not raised for a cell whose no-answer advice
 *   already names a scorer with as many right answers, nor for a run scored by `stored` (the
 *   log's own verdicts, compared in the stored check). A run none of whose tasks is named is
 *   also checked as a whole, its tasks' samples pooled ("all tasks"): tasks of a few rows each
 *   can never show {@link DISAGREE_MIN_ROWS} rows more right, their run can. The check scores
 *   at most {@link DISAGREE_BUDGET} rows a load, fewer for long responses
 *   ({@link ADVICE_CHARS}): beyond, each task's sample shrinks (to {@link MIN_TRIED} rows at
 *   least); when even that would need more (a log of hundreds of runs), each run is checked as
 *   a whole only — its sample spread over its tasks in proportion.
 *
 * Responses are not kept in the frame of `runlens score` (pointers only): they are read back
 * with `responses()` for the rows tried, and the examples' inputs and targets joined. The work
 * is bounded: at most {@link ADVICE_SAMPLE} rows per run × benchmark × task, an evenly spaced
 * sample in load order (deterministic), and the output says so; and each kind of sample at
 * most {@link ADVICE_CHARS} characters of responses a load (fewer rows for long responses; a
 * stored-verdict sample is then pooled over its run's tasks), never under {@link MIN_TRIED}
 * rows a cell. A run with rows of several
 * benchmarks (BBH and BBEH both have a geometric_shapes) is advised per benchmark, and the text
 * names the benchmark.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { loadRuns } from "@runlens/pipeline/load.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const loaded = await loadRuns(["tests/fixtures/logs/mixed.jsonl"], resolveDataDir());
 * // its one temporal_sequence response is empty: no rule finds an answer in it
 * const [cell] = loaded.advice.no_answer;
 * assert.deepEqual([cell.task, cell.no_answer, cell.n, cell.tried, cell.best], [
 *   "temporal_sequence", 1, 1, 1, null]);
 * assert.deepEqual(cell.scorers.map((s) => [s.scorer, s.answers]), [
 *   ["bbeh-official", 0], ["lenient", 0]]);
 * assert.deepEqual(loaded.advice.stored, []);
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { SCORERS } from "../benchmarks/registry.ts";
import type { DataSetsView } from "../benchmarks/types.ts";
import { count } from "../core/count.ts";
import { scoreFrame } from "../scorers/frame.ts";
import { appliesTo, type Scorer } from "../scorers/types.ts";
import { answerLength } from "../scorers/answer_form.ts";
import { BINARY_PAIRS } from "../scorers/answer_match.ts";
import { type ResponseFiles, responses } from "./responses.ts";
import { withExamples } from "./rows_frame.ts";
import type { RunSummary } from "./summarise.ts";

/** The share of a run × task's responses without an answer above which the output warns. */
export const NO_ANSWER_SHARE = 0.2;
/** The stored verdicts are flagged when the scorer disagrees on more rows than this … */
export const STORED_MIN_ROWS = 5;
/** … and on more than this share of the rows with a stored verdict. */
export const STORED_MIN_SHARE = 0.01;
/** The most rows per run × task the other scorers are tried on (an even sample above it). */
export const ADVICE_SAMPLE = 2_000;
/**
 * The most rows per run × task on which every cell's scorer is checked against the others
 * (rules disagree): small, because every cell of every load is checked. Measured: 100 rows per
 * cell add about 0.05 s to `score` on a 6,511-row BBH run and 0.3 s on four 4,520-row BBEH runs
 * (300 rows: 0.6 s and 3.6 s, the BBEH runs then tried whole).
 */
export const DISAGREE_SAMPLE = 100;
/**
 * The most rows the rules-disagree check scores in one load. Measured: a million-row log of 222
 * runs × 23 tasks checked cell by cell (510,000 rows tried) took 61 s against 6 s for the load.
 */
export const DISAGREE_BUDGET = 20_000;
/**
 * The most characters of responses the advice reads back and scores in one load, all its
 * samples together: its rules cost ~35 ns a character (lenient), so a budget of rows alone did
 * not bound it — a 1 GB lm-eval folder of 13 KB responses spent 10 s and 1 GB on its 20,000
 * rows. Beyond it every cell's sample shrinks by one factor (see {@link MIN_TRIED}). The
 * million-row bench log of 630-character responses stays within it.
 */
export const ADVICE_CHARS = 16_000_000;
/**
 * The fewest rows of a cell (its whole cell when smaller) a sample keeps, however many cells a
 * load has: fewer could not show a difference of {@link DISAGREE_MIN_ROWS} rows and
 * {@link DISAGREE_MIN_SHARE}.
 */
export const MIN_TRIED = 30;
/**
 * Another scorer is named when it scores at least this many rows of the sample more right …
 * (so that a few rows of a tiny cell never raise it) …
 */
export const DISAGREE_MIN_ROWS = 10;
/**
 * … and at least this share of the sample more: 10 points, far beyond the few points by which
 * faithful rules differ on well-formed logs (BBH's release rule and lm-eval's on the release
 * outputs), and far below the tens of points by which a misread convention costs.
 */
export const DISAGREE_MIN_SHARE = 0.1;

/** One scorer on the rows tried: the answers it found, those of the target's form, right ones. */
export interface AnswerCount {
  /** The scorer's name. */
  scorer: string;
  /** Rows where it found an answer (`Verdict.found`). */
  answers: number;
  /** Of those, answers that have the target's form ({@link targetForm}). */
  formed: number;
  /** Rows it scores right. */
  correct: number;
}

/** One scorer on the rows tried that carry a stored verdict: how many it agrees with. */
export interface AgreementCount {
  /** The scorer's name. */
  scorer: string;
  /** Rows tried whose stored verdict it agrees with. */
  agree: number;
}

/** The rows the other scorers were tried on. */
export interface Tried {
  /** Rows tried (all rows in question, or a sample of them). */
  tried: number;
  /** Whether `tried` is a sample. */
  sampled: boolean;
  /** Why nothing could be tried (the responses could not be read again), else null. */
  error: string | null;
}

/** How a piece of advice names its run. */
export interface RunNamed {
  /** The run. */
  run: string;
  /** The benchmark of the run's rows the advice is about. */
  benchmark: string;
  /** Whether the run has rows of several benchmarks: the text then names the benchmark. */
  several_benchmarks: boolean;
}

/** A run × benchmark × task where most of the responses, or many, had no answer found. */
export interface NoAnswerAdvice extends Tried, RunNamed {
  /** The task. */
  task: string;
  /** The scorer used. */
  scorer: string;
  /** Rows whose answer the scorer used did not find, of `n` scored. */
  no_answer: number;
  /** Rows the scorer used scored in the task. */
  n: number;
  /** Every applicable scorer on the rows tried, in registry order (the one used included). */
  scorers: AnswerCount[];
  /** Answers of the target's form the scorer used found on the rows tried. */
  used_formed: number;
  /**
   * The scorer to name: of those that find more answers of the target's form than the one
   * used, the one with the most right answers (null: none finds more).
   */
  best: AnswerCount | null;
}

/** A run (of one benchmark) whose stored verdicts disagree with the scorer used. */
export interface StoredAdvice extends Tried, RunNamed {
  /** The scorer used. */
  scorer: string;
  /** Rows with a stored verdict. */
  n: number;
  /** Of those, rows where the scorer used disagrees with the stored verdict. */
  disagree: number;
  /** Every applicable scorer but `stored` on the rows tried, in registry order. */
  scorers: AgreementCount[];
  /** The scorer that agrees with the stored verdicts most, when it agrees more than the one used. */
  best: AgreementCount | null;
}

/** A run × benchmark × task where another scorer scores clearly more rows right. */
export interface DisagreeAdvice extends RunNamed {
  /** The task, or "all tasks" for a run checked as a whole (see the module doc). */
  task: string;
  /** The scorer used. */
  scorer: string;
  /** Rows of the sample the scorer used scores right. */
  used_correct: number;
  /** Rows scored in the cell. */
  n: number;
  /** Rows tried (all, or a sample). */
  tried: number;
  /** Whether the rows tried are a sample. */
  sampled: boolean;
  /** Every applicable scorer but `stored` on the rows tried, in registry order. */
  scorers: AnswerCount[];
  /** The scorer with the most right answers (ties: more of the target's form, then registry order). */
  best: AnswerCount;
}

/** Everything the output says about weak evidence, with the remedies. */
export interface Advice {
  /** Run × tasks whose responses mostly had no answer found. */
  no_answer: NoAnswerAdvice[];
  /** Runs whose stored verdicts disagree with the scorer used. */
  stored: StoredAdvice[];
  /** Run × tasks where another applicable scorer scores clearly more answers right. */
  disagree: DisagreeAdvice[];
}

/** What {@link adviseRuns} reads. */
export interface AdviceInput {
  runs: readonly RunSummary[];
  /** The load's rows (row schema; `response`, `input` and `target` may be null). */
  rows: pl.DataFrame;
  /** The files, to read responses back (`LoadedRuns.sources`). */
  sources: ResponseFiles;
  dataDir: string;
  /** The load's data sets (`LoadedRuns.dataSets`): examples read once; absent: `dataDir`'s. */
  dataSets?: DataSetsView;
}

/**
 * The advice of a load: the run × tasks and runs to flag, and for each the scorer to try.
 * Never throws for responses that cannot be read again: the advice then says why.
 */
export function adviseRuns(input: AdviceInput): Advice {
  return adviseRunsChecked(input).advice;
}

/**
 * {@link adviseRuns}, and whether every sample could be read and scored (`complete`): advice
 * made without its samples must not be kept for later loads.
 */
export function adviseRunsChecked(input: AdviceInput): { advice: Advice; complete: boolean } {
  const noAnswer = noAnswerCells(input.runs);
  const stored = storedRuns(input.runs);
  const checked = input.runs.filter((r) => r.scorer !== "stored").flatMap((run) =>
    Object.keys(run.tasks).map((task) => ({ run, task }))
  );
  if (noAnswer.length + stored.length + checked.length === 0) {
    return { advice: { no_answer: [], stored: [], disagree: [] }, complete: true };
  }
  const { keys, capOf, pooled } = samplePlan(input, checked, noAnswer, stored);
  const tried = tryScorers(sampleOf(input.rows, keys), input);
  const several = severalBenchmarks(input.runs);
  const noAnswerAdvices = noAnswer.map((c) => noAnswerAdvice(c.run, c.task, tried, several));
  const advice = {
    no_answer: noAnswerAdvices,
    stored: stored.map((r) => storedAdvice(r, tried, several)),
    disagree: disagreements(
      checked,
      pooled,
      (run, task) =>
        disagreeAdvice(run, task, tried, several, capOf).filter((d) =>
          !namedAlready(d, noAnswerAdvices)
        ),
    ),
  };
  return { advice, complete: tried.error === null };
}

const cellId = (run: RunSummary, task: string) => `${run.run}\u0000${run.benchmark}\u0000${task}`;

/**
 * Rows of each cell the rules-disagree check tries: {@link DISAGREE_SAMPLE} each while the load
 * stays within `budget` rows ({@link DISAGREE_BUDGET}, fewer for long responses:
 * {@link ADVICE_CHARS}); else the largest smaller cap that fits, each task still checked on its
 * own; and when even {@link MIN_TRIED} rows a task would not fit (a log of hundreds of runs:
 * `pooled`), each run gets an equal share of the budget (at least {@link MIN_TRIED} rows),
 * spread over its tasks in proportion to their rows, and is checked as a whole.
 */
function disagreeCaps(
  checked: readonly Cell[],
  budget: number,
): Map<string, number> & { pooled: boolean } {
  const sizes = checked.map((c) => c.run.tasks[c.task].n);
  if (rowsAt(sizes, MIN_TRIED) <= budget) {
    const cap = capWithin(sizes, budget, DISAGREE_SAMPLE);
    const caps = new Map(checked.map((c) => [cellId(c.run, c.task), cap]));
    return Object.assign(caps, { pooled: false });
  }
  const runs = new Set(checked.map((c) => c.run)).size;
  const share = Math.max(MIN_TRIED, Math.floor(budget / runs));
  return Object.assign(pooledCaps(checked, share), { pooled: true });
}

/** A cell of a run: the run and one of its tasks. */
type Cell = { run: RunSummary; task: string };

/**
 * The cells to sample and at most how many rows of each (`keys`), within the load's budget of
 * rows ({@link DISAGREE_BUDGET}, fewer for long responses: {@link ADVICE_CHARS}); `capOf` and
 * `pooled`: the rules-disagree check's caps ({@link disagreeCaps}).
 */
function samplePlan(
  input: AdviceInput,
  checked: readonly Cell[],
  noAnswer: readonly Cell[],
  stored: readonly RunSummary[],
): { keys: Key[]; capOf: (run: RunSummary, task: string) => number; pooled: boolean } {
  const budget = Math.min(
    DISAGREE_BUDGET,
    Math.max(1, Math.floor(ADVICE_CHARS / meanResponseChars(input.rows))),
  );
  const caps = disagreeCaps(checked, budget);
  const capOf = (run: RunSummary, task: string) => caps.get(cellId(run, task)) ?? 0;
  const noAnswerCap = capWithin(noAnswer.map((c) => c.run.tasks[c.task].n), budget, ADVICE_SAMPLE);
  const storedCaps = runCaps(stored, budget);
  const key = (run: RunSummary, task: string) => [run.run, run.benchmark, task];
  const keys: Key[] = [
    ...checked.map((c) => ({ key: key(c.run, c.task), cap: capOf(c.run, c.task) })),
    ...noAnswer.map((c) => ({ key: key(c.run, c.task), cap: noAnswerCap })),
    ...stored.flatMap((run) =>
      Object.keys(run.tasks).map((task) => ({
        key: key(run, task),
        cap: storedCaps.get(cellId(run, task))!,
      }))
    ),
  ].filter((k) => k.cap > 0);
  return { keys, capOf, pooled: caps.pooled };
}

/**
 * The rules-disagree advice of the checked cells: each task on its own, and a run none of whose
 * tasks is named checked as a whole too (tasks of a few rows each can never show
 * {@link DISAGREE_MIN_ROWS} rows more right, their run can); a `pooled` load's runs as wholes
 * only.
 */
function disagreements(
  checked: readonly Cell[],
  pooled: boolean,
  adviceOf: (run: RunSummary, task: string | null) => DisagreeAdvice[],
): DisagreeAdvice[] {
  const runs = [...new Set(checked.map((c) => c.run))];
  if (pooled) return runs.flatMap((run) => adviceOf(run, null));
  const byTask = checked.flatMap((c) => adviceOf(c.run, c.task));
  const named = new Set(byTask.map((d) => `${d.run}\u0000${d.benchmark}`));
  const wholes = runs.filter((r) => !named.has(`${r.run}\u0000${r.benchmark}`))
    .flatMap((run) => adviceOf(run, null));
  return [...byTask, ...wholes];
}

/** Each cell's cap when each run's sample is `share` rows, spread over its tasks by their rows. */
function pooledCaps(
  cells: readonly Cell[],
  share: number,
): Map<string, number> {
  return new Map(cells.map((c) => [
    cellId(c.run, c.task),
    Math.ceil((share * c.run.tasks[c.task].n) / Math.max(1, c.run.rows_scored)),
  ]));
}

/**
 * Each cell's cap for the stored-verdict advice, a run's: {@link ADVICE_SAMPLE} rows a task
 * while the runs' samples stay within `budget` rows, else each run's sample pooled over its
 * tasks (an equal share of the budget, at least {@link MIN_TRIED} rows).
 */
function runCaps(runs: readonly RunSummary[], budget: number): Map<string, number> {
  const cells = runs.flatMap((run) => Object.keys(run.tasks).map((task) => ({ run, task })));
  const rows = rowsAt(cells.map((c) => c.run.tasks[c.task].n), ADVICE_SAMPLE);
  if (rows <= budget) return new Map(cells.map((c) => [cellId(c.run, c.task), ADVICE_SAMPLE]));
  return pooledCaps(cells, Math.max(MIN_TRIED, Math.floor(budget / runs.length)));
}

/** Rows that cells of `sizes` rows give at `cap` rows each at most. */
function rowsAt(sizes: readonly number[], cap: number): number {
  return sizes.reduce((sum, n) => sum + Math.min(cap, n), 0);
}

/**
 * One cap for cells of `sizes` rows: the largest, up to `most`, whose samples hold at most
 * `budget` rows together — at least {@link MIN_TRIED}.
 */
function capWithin(sizes: readonly number[], budget: number, most: number): number {
  if (rowsAt(sizes, most) <= budget) return most;
  let [lo, hi] = [MIN_TRIED, most]; // rowsAt(lo) may exceed the budget: the floor
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (rowsAt(sizes, mid) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** The load's mean response length in characters (1 when unknown). */
function meanResponseChars(rows: pl.DataFrame): number {
  const mean = rows.columns.includes("response_chars")
    ? Number(rows.getColumn("response_chars").mean())
    : NaN;
  return Number.isFinite(mean) && mean >= 1 ? mean : 1;
}

/**
 * Whether the cell's no-answer advice already names a scorer with as many right answers — or,
 * for a run checked as a whole ("all tasks"), whether one of its tasks' no-answer advice names
 * one (the user is already sent to another rule for that run).
 */
function namedAlready(d: DisagreeAdvice, noAnswer: readonly NoAnswerAdvice[]): boolean {
  return noAnswer.some((a) =>
    a.run === d.run && a.benchmark === d.benchmark && a.best !== null &&
    (d.task === ALL_TASKS || (a.task === d.task && a.best.correct >= d.best.correct))
  );
}

/** The task of the advice of a run checked as a whole. */
const ALL_TASKS = "all tasks";

/** The runs with rows of several benchmarks. */
function severalBenchmarks(runs: readonly RunSummary[]): Set<string> {
  const byRun = Map.groupBy(runs, (r) => r.run);
  return new Set([...byRun].filter(([, parts]) => parts.length > 1).map(([run]) => run));
}

/** The run × tasks whose no-answer share is above {@link NO_ANSWER_SHARE}. */
function noAnswerCells(runs: readonly RunSummary[]): { run: RunSummary; task: string }[] {
  return runs.flatMap((run) =>
    Object.entries(run.tasks)
      .filter(([, t]) => t.no_answer > NO_ANSWER_SHARE * t.n)
      .map(([task]) => ({ run, task }))
  );
}

/** The runs whose stored verdicts disagree with the scorer on more than a handful of rows. */
function storedRuns(runs: readonly RunSummary[]): RunSummary[] {
  return runs.filter(({ stored_agreement: s }) =>
    s.disagree > STORED_MIN_ROWS && s.disagree > STORED_MIN_SHARE * s.n
  );
}

const GROUP: ("run" | "benchmark" | "task")[] = ["run", "benchmark", "task"];

/** A (run, benchmark, task) to sample, and at most how many of its rows. */
interface Key {
  key: string[];
  cap: number;
}

/**
 * The rows of the (run, benchmark, task) `keys`, at most `cap` of each (the largest asked for
 * a key): the rows at evenly spaced positions in load order.
 */
function sampleOf(rows: pl.DataFrame, keys: readonly Key[]): pl.DataFrame {
  const caps = new Map<string, Key>();
  for (const k of keys) {
    const id = JSON.stringify(k.key);
    if ((caps.get(id)?.cap ?? 0) < k.cap) caps.set(id, k);
  }
  const unique = [...caps.values()];
  const wanted = pl.DataFrame({
    run: pl.Series("run", unique.map((k) => k.key[0]), pl.Utf8),
    benchmark: pl.Series("benchmark", unique.map((k) => k.key[1]), pl.Utf8),
    task: pl.Series("task", unique.map((k) => k.key[2]), pl.Utf8),
    __cap: pl.Series("__cap", unique.map((k) => k.cap), pl.Float64),
  });
  // each cell's row numbers, in load order (a group keeps its rows' order); grouped on the key
  // columns alone: a join of the whole frame copied every column of every row (+300 MB on a
  // million rows), one of the key columns with window counts still +150 MB
  const cells = rows.select(...GROUP).withRowIndex("__row").groupBy(GROUP).agg(pl.col("__row"))
    .join(wanted, { on: GROUP, how: "inner" });
  const cellCaps = cells.getColumn("__cap").toArray() as number[];
  const mask = new Uint8Array(rows.height);
  (cells.getColumn("__row").toArray() as unknown as number[][]).forEach((all, c) => {
    all.forEach((row, j) => {
      // kept when ⌊(j+1)·cap/size⌋ steps past ⌊j·cap/size⌋: evenly spaced, at most cap
      const cap = cellCaps[c];
      if (Math.floor(((j + 1) * cap) / all.length) > Math.floor((j * cap) / all.length)) {
        mask[row] = 1;
      }
    });
  });
  return rows.filter(pl.Series("__kept", mask).cast(pl.Bool));
}

/** Per scorer, per row of the sample: answer found (of the target's form), correct. */
interface Outcomes {
  /** The sample, with responses, inputs and targets (empty when `error`). */
  sample: pl.DataFrame;
  /** Per row: the scorer used found an answer of the target's form. */
  usedFormed: boolean[];
  /** Scorer → per row of `sample` (null: the scorer does not apply to the row's benchmark). */
  found: Map<string, (boolean | null)[]>;
  /** Scorer → per row: found, and of the target's form. */
  formed: Map<string, (boolean | null)[]>;
  correct: Map<string, (boolean | null)[]>;
  error: string | null;
}

/** Score the sample with every applicable scorer (the responses read back once). */
function tryScorers(sample: pl.DataFrame, input: AdviceInput): Outcomes {
  const found = new Map<string, (boolean | null)[]>();
  const formed = new Map<string, (boolean | null)[]>();
  const correct = new Map<string, (boolean | null)[]>();
  let full: pl.DataFrame;
  try {
    full = withTexts(sample, input);
  } catch (e) {
    return { sample, usedFormed: [], found, formed, correct, error: (e as Error).message };
  }
  const benchmarks = full.getColumn("benchmark").toArray() as string[];
  const targets = full.getColumn("target").toArray() as (string | null)[];
  const usedExtracted = full.getColumn("extracted").toArray() as (string | null)[];
  const usedFound = full.getColumn("answer_found").toArray() as (boolean | number | null)[];
  const usedFormed = usedFound.map((f, i) =>
    Boolean(f) && targetForm(usedExtracted[i], targets[i] ?? "")
  );
  for (const s of SCORERS.filter((x) => x.name !== "stored")) {
    const applies = benchmarks.map((b) => appliesTo(s, b));
    if (!applies.some(Boolean)) continue;
    const scored = scoreFrame(full, s);
    const extracted = scored.getColumn("extracted").toArray() as (string | null)[];
    const verdicts = scored.getColumn("correct").toArray() as (boolean | null)[];
    const founds = scored.getColumn("answer_found").toArray() as (boolean | null)[];
    found.set(s.name, founds.map((f, i) => applies[i] ? f === true : null));
    formed.set(
      s.name,
      founds.map((f, i) =>
        applies[i] ? f === true && targetForm(extracted[i], targets[i] ?? "") : null
      ),
    );
    correct.set(s.name, verdicts.map((v, i) => applies[i] ? v : null));
  }
  return { sample: full, usedFormed, found, formed, correct, error: null };
}

/** The sample with its responses read back and its examples' inputs and targets. */
function withTexts(sample: pl.DataFrame, input: AdviceInput): pl.DataFrame {
  const hasAll = (c: string) => sample.getColumn(c).nullCount() === 0;
  const read = sample.height > 0 && !hasAll("response") ? responses(sample, input.sources) : sample;
  return hasAll("target") && hasAll("input")
    ? read
    : withExamples(read, input.dataSets ?? input.dataDir);
}

/** The positions of the sample's rows of a run's benchmark that `keep` keeps. */
function rowsWhere(
  out: Outcomes,
  run: RunSummary,
  keep: (task: string, i: number) => boolean,
): number[] {
  const tasks = cellsOf(out).get(`${run.run}\u0000${run.benchmark}`) ?? new Map();
  return [...tasks].flatMap(([task, rows]) => rows.filter((i: number) => keep(task, i)))
    .sort((a, b) => a - b);
}

/** The sample's columns as arrays, each converted once (a load has thousands of cells). */
const columnCache = new WeakMap<Outcomes, Map<string, unknown[]>>();

/** Column `name` of the sample, as an array. */
function column<T>(out: Outcomes, name: string): T[] {
  let columns = columnCache.get(out);
  if (!columns) columnCache.set(out, columns = new Map());
  if (!columns.has(name)) columns.set(name, out.sample.getColumn(name).toArray() as unknown[]);
  return columns.get(name) as T[];
}

/** The sample's rows by run × benchmark, then task, in sample order (built once). */
const cellCache = new WeakMap<Outcomes, Map<string, Map<string, number[]>>>();

function cellsOf(out: Outcomes): Map<string, Map<string, number[]>> {
  let cells = cellCache.get(out);
  if (cells) return cells;
  cells = new Map();
  const runs = column<string>(out, "run");
  const benchmarks = column<string>(out, "benchmark");
  const tasks = column<string>(out, "task");
  for (let i = 0; i < runs.length; i++) {
    const key = `${runs[i]}\u0000${benchmarks[i]}`;
    let byTask = cells.get(key);
    if (!byTask) cells.set(key, byTask = new Map());
    let rows = byTask.get(tasks[i]);
    if (!rows) byTask.set(tasks[i], rows = []);
    rows.push(i);
  }
  cellCache.set(out, cells);
  return cells;
}

/** How a piece of advice names a run. */
function named(run: RunSummary, several: Set<string>): RunNamed {
  return { run: run.run, benchmark: run.benchmark, several_benchmarks: several.has(run.run) };
}

/** The advice of one run × benchmark × task without answers. */
function noAnswerAdvice(
  run: RunSummary,
  task: string,
  out: Outcomes,
  several: Set<string>,
): NoAnswerAdvice {
  const t = run.tasks[task];
  const base = { ...named(run, several), task, scorer: run.scorer, no_answer: t.no_answer, n: t.n };
  if (out.error !== null) {
    return { ...base, ...failed(out.error), scorers: [], used_formed: 0, best: null };
  }
  const index = rowsWhere(out, run, (k) => k === task);
  const rows = (m: Map<string, (boolean | null)[]>, s: Scorer) =>
    index.filter((i) => m.get(s.name)![i] === true).length;
  const scorers = applicable(run.benchmark, out).map((s) => ({
    scorer: s.name,
    answers: rows(out.found, s),
    formed: rows(out.formed, s),
    correct: rows(out.correct, s),
  }));
  const usedFormed = index.filter((i) => out.usedFormed[i]).length;
  const best = scorers.filter((s) => s.formed > usedFormed).sort(byEvidence)[0] ?? null;
  return {
    ...base,
    tried: index.length,
    sampled: index.length < t.n,
    error: null,
    scorers,
    used_formed: usedFormed,
    best,
  };
}

/**
 * The order of the scorers that find more answers of the target's form than the one used,
 * best first: the most right answers, then the most answers of the form (ties: registry
 * order, the sort is stable). Right answers lead among them because a rule that reads the
 * wrong place may still find answers of the form — the first line of the reasoning is a word
 * list to BBH's word_sorting — but seldom the right ones, while the rule that reads the
 * model's convention finds the answers the model got right.
 */
function byEvidence(a: AnswerCount, b: AnswerCount): number {
  return b.correct - a.correct || b.formed - a.formed;
}

/**
 * The advice of one run × benchmark × task when another scorer scores clearly more of its
 * sampled rows right than the scorer used (empty: none does, or nothing could be tried).
 */
function disagreeAdvice(
  run: RunSummary,
  task: string | null,
  out: Outcomes,
  several: Set<string>,
  capOf: (run: RunSummary, task: string) => number,
): DisagreeAdvice[] {
  if (out.error !== null) return [];
  // each cell's own sample: its rows thinned to its cap (a flagged cell has more); a run
  // checked as a whole (task null) pools its cells' samples
  const index = (task === null ? Object.keys(run.tasks) : [task]).flatMap((t) => {
    const all = rowsWhere(out, run, (k) => k === t);
    const cap = capOf(run, t);
    return all.filter((_, j) =>
      Math.floor(((j + 1) * cap) / all.length) > Math.floor((j * cap) / all.length)
    );
  });
  const verdicts = column<boolean | null>(out, "correct");
  const usedCorrect = index.filter((i) => verdicts[i] === true).length;
  const scorers = applicable(run.benchmark, out).map((s) => ({
    scorer: s.name,
    answers: index.filter((i) => out.found.get(s.name)![i] === true).length,
    formed: index.filter((i) => out.formed.get(s.name)![i] === true).length,
    correct: index.filter((i) => out.correct.get(s.name)![i] === true).length,
  }));
  const best = scorers.filter((s) => s.scorer !== run.scorer).sort(byEvidence)[0];
  const margin = Math.max(DISAGREE_MIN_ROWS, DISAGREE_MIN_SHARE * index.length);
  if (best === undefined || best.correct - usedCorrect < margin) return [];
  return [{
    ...named(run, several),
    task: task ?? ALL_TASKS,
    scorer: run.scorer,
    used_correct: usedCorrect,
    n: task === null ? run.rows_scored : run.tasks[task].n,
    tried: index.length,
    sampled: index.length < (task === null ? run.rows_scored : run.tasks[task].n),
    scorers,
    best,
  }];
}

/** The advice of one run (of one benchmark) whose stored verdicts disagree with its scorer. */
function storedAdvice(run: RunSummary, out: Outcomes, several: Set<string>): StoredAdvice {
  const s = run.stored_agreement;
  const base = { ...named(run, several), scorer: run.scorer };
  const counts = { n: s.n, disagree: s.disagree };
  if (out.error !== null) {
    return { ...base, ...counts, ...failed(out.error), scorers: [], best: null };
  }
  const stored = column<boolean | null>(out, "stored_correct");
  const index = rowsWhere(out, run, (_, i) => stored[i] !== null);
  const scorers = applicable(run.benchmark, out).map((x) => ({
    scorer: x.name,
    agree: index.filter((i) => out.correct.get(x.name)![i] === stored[i]).length,
  }));
  const used = scorers.find((x) => x.scorer === run.scorer)?.agree ?? 0;
  const top = [...scorers].sort((a, b) => b.agree - a.agree)[0];
  const best = top && top.agree > used ? top : null;
  return {
    ...base,
    ...counts,
    tried: index.length,
    sampled: index.length < s.n,
    error: null,
    scorers,
    best,
  };
}

/** The scorers tried on a benchmark's rows, in registry order. */
function applicable(benchmark: string, out: Outcomes): Scorer[] {
  return SCORERS.filter((s) => appliesTo(s, benchmark) && out.found.has(s.name));
}

function failed(error: string): Tried {
  return { tried: 0, sampled: false, error };
}

const NUMBER = /^-?\d+(?:\.\d+)?$/;

/**
 * Whether an extracted answer has the form of the target: an option letter for `(X)`
 * targets (`(B)`, `B`, `(B) kite`), one of the pair for yes/no, true/false, valid/invalid, a
 * number for numbers (commas, `$`, `%` dropped), and otherwise a text of the same kind: with
 * letters exactly when the target has letters, a character in common with it, and at most
 * of answer length (`answerLength` of `scorers/answer_form.ts`). A heuristic: it tells an
 * answer from the start of the reasoning or the closing quotes of a block, not a right answer
 * from a wrong one. Unlike a rule's own form (`Verdict.found`), it reads every scorer's
 * answer the same way (case and `(b)`/`b` alike), so that scorers can be compared.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.equal(targetForm("(b) kite", "(C)"), true); // the form, not the value
 * assert.equal(targetForm('"""', "(C)"), false); // the last line of a quoted block
 * assert.equal(targetForm("Let me think step by step.", "Yes"), false);
 * assert.equal(targetForm("1,024", "24"), true);
 * assert.equal(targetForm("Let me think.", ") ]"), false); // brackets only
 * assert.equal(targetForm('"""', "apple banana"), false); // no letters
 * assert.equal(targetForm('"""', ") ]"), false); // nothing in common
 * assert.equal(targetForm(null, "(C)"), false);
 * ```
 */
export function targetForm(extracted: string | null, target: string): boolean {
  const s = (extracted ?? "").trim().replace(/[.!]$/, "").trim();
  const t = target.trim();
  if (s === "") return false;
  if (/^\([A-Za-z]\)$/.test(t)) return /^\(?[A-Za-z]\)?(?:[\s:.,]|$)/.test(s);
  const pair = BINARY_PAIRS.find((p) => p.includes(t.toLowerCase()));
  if (pair) return pair.includes(s.toLowerCase());
  if (NUMBER.test(t)) return NUMBER.test(s.replace(/[,$%\s]/g, ""));
  // free text: letters exactly when the target has some, a character in common, of answer
  // length (answer_form.ts)
  const letters = (x: string) => /\p{L}/u.test(x);
  const shared = [...new Set(s.replace(/\s/g, ""))].some((c) => t.includes(c));
  return letters(s) === letters(t) && shared && answerLength(s, t);
}

/**
 * The advice as lines of text: one per flagged run × task and per flagged run, each naming
 * the remedy.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const cell = { run: "gpt4", benchmark: "bbh", several_benchmarks: false, task: "navigate",
 *   scorer: "bbh-release-cot", no_answer: 40, n: 60, tried: 60, sampled: false, error: null,
 *   scorers: [], used_formed: 20, best: { scorer: "lenient", answers: 58, formed: 58, correct: 50 } };
 * assert.deepEqual(adviceText({ no_answer: [cell], stored: [], disagree: [] }), [
 *   "no answer found in 40 of 60 responses (run gpt4, task navigate); " +
 *   "--scorer lenient finds an answer of the target's form in 58 of 60 (50 right)",
 * ]);
 * const both = { ...cell, several_benchmarks: true, best: null };
 * assert.deepEqual(adviceText({ no_answer: [both], stored: [], disagree: [] }), [
 *   "no answer found in 40 of 60 responses (run gpt4, benchmark bbh, task navigate); " +
 *   "no applicable scorer finds more answers of the target's form (tried on 60): see the " +
 *   "responses with --rows FILE",
 * ]);
 * ```
 */
export function adviceText(advice: Advice): string[] {
  return [
    ...advice.no_answer.map(noAnswerText),
    ...advice.stored.map(storedText),
    ...advice.disagree.map(disagreeText),
  ];
}

/**
 * The advice as the text output prints it: a "no answer found (N):" section and a "stored
 * verdicts disagree (N):" section, each line indented, each section followed by a blank line
 * (empty when there is nothing to say). `score` prints it after the runs, `compare` before
 * the comparisons.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const cell = { run: "gpt4", benchmark: "bbh", several_benchmarks: false, task: "navigate",
 *   scorer: "bbh-release-cot", no_answer: 60, n: 60, tried: 60, sampled: false, error: null,
 *   scorers: [], used_formed: 0, best: null };
 * assert.deepEqual(adviceSections({ no_answer: [cell], stored: [], disagree: [] }).slice(0, 1), [
 *   "no answer found (1):",
 * ]);
 * assert.deepEqual(adviceSections({ no_answer: [], stored: [], disagree: [] }), []);
 * ```
 */
export function adviceSections(advice: Advice): string[] {
  const section = (title: string, lines: string[]) =>
    lines.length === 0 ? [] : [`${title} (${lines.length}):`, ...lines.map((l) => `  ${l}`), ""];
  return [
    ...section("no answer found", advice.no_answer.map(noAnswerText)),
    ...section("stored verdicts disagree", advice.stored.map(storedText)),
    ...section("rules disagree", advice.disagree.map(disagreeText)),
  ];
}

/** "run R" or, for a run with rows of several benchmarks, "run R, benchmark B". */
function runLabel(a: RunNamed): string {
  return a.several_benchmarks ? `run ${a.run}, benchmark ${a.benchmark}` : `run ${a.run}`;
}

/** The line of one run × task without answers, with the remedy. */
export function noAnswerText(a: NoAnswerAdvice): string {
  const head = `no answer found in ${count(a.no_answer)} of ${count(a.n)} responses ` +
    `(${runLabel(a)}, task ${a.task})`;
  if (a.error !== null) return `${head}; other scorers could not be tried: ${a.error}`;
  const sample = a.sampled ? ` (a sample of the ${count(a.n)})` : "";
  if (a.best === null) {
    return `${head}; no applicable scorer finds more answers of the target's form (tried on ` +
      `${count(a.tried)}${sample}): see the responses with --rows FILE`;
  }
  return `${head}; --scorer ${a.best.scorer} finds an answer of the target's form in ` +
    `${count(a.best.formed)} of ${count(a.tried)}${sample} (${count(a.best.correct)} right)`;
}

/**
 * The line of one run × task where another scorer scores clearly more rows right, with the
 * remedy.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const best = { scorer: "lenient", answers: 50, formed: 50, correct: 35 };
 * const cell = { run: "R", benchmark: "bbh", several_benchmarks: false, task: "navigate",
 *   scorer: "bbh-release-cot", used_correct: 0, n: 50, tried: 50, sampled: false,
 *   scorers: [best], best };
 * assert.equal(
 *   disagreeText(cell),
 *   "scorer lenient scores 35 of 50 responses right, bbh-release-cot 0 (run R, task navigate): " +
 *     "the responses may state their answer in a convention bbh-release-cot does not read; " +
 *     "check with --rows FILE, or --scorer lenient",
 * );
 * ```
 */
export function disagreeText(a: DisagreeAdvice): string {
  const of = a.sampled ? `sampled responses (a sample of the ${count(a.n)})` : "responses";
  return `scorer ${a.best.scorer} scores ${count(a.best.correct)} of ${count(a.tried)} ${of} ` +
    `right, ${a.scorer} ${count(a.used_correct)} (${runLabel(a)}, ` +
    `${a.task === ALL_TASKS ? a.task : `task ${a.task}`}): the ` +
    `responses may state their answer in a convention ${a.scorer} does not read; check with ` +
    `--rows FILE, or --scorer ${a.best.scorer}`;
}

/** The line of one run whose stored verdicts disagree, with the scorer that agrees most. */
export function storedText(a: StoredAdvice): string {
  const head = `the log's stored verdicts disagree with ${a.scorer} on ${count(a.disagree)} of ` +
    `${count(a.n)} rows (${runLabel(a)})`;
  if (a.error !== null) return `${head}; other scorers could not be tried: ${a.error}`;
  const sample = a.sampled ? ` (a sample of the ${count(a.n)})` : "";
  if (a.best === null) {
    return `${head}; no applicable scorer agrees with them more (tried on ${count(a.tried)}` +
      `${sample})`;
  }
  return `${head}; ${a.best.scorer} agrees with them on ${count(a.best.agree)} of ` +
    `${count(a.tried)}${sample} (--scorer ${a.best.scorer})`;
}
