/**
 * The **report document**: everything `runlens report` shows, as plain typed data. The pipeline
 * builds one {@link ReportDocument}; `render.ts` turns it into `report.html` (one self-contained
 * page) and `markdown.ts` into `report.md` and LaTeX tables. Nothing here computes statistics:
 * values arrive computed (headline intervals, paired comparisons, analyses), figures arrive as
 * standalone SVG strings, tables as cells. The sections, tables and figures are the types of
 * `render/document.ts` (below the layers that build them); this module adds the page: runs,
 * comparisons, provenance and examples.
 *
 * Examples are stored so that a 20 runs × 4,520 rows report stays small: the question text once
 * per (benchmark, task, example_index) in {@link ReportExamples.questions} (runs share
 * questions), the response and verdict per row in {@link ReportExamples.rows}.
 *
 * @example
 * ```ts
 * import { type ReportDocument, validateReportDocument } from "@runlens/report/html/document.ts";
 * const doc: ReportDocument = {
 *   title: "runlens report",
 *   provenance: { runlens_commit: "abc1234", datasets: [], scorers: ["bbeh-official"], command: "runlens report runs/" },
 *   runs: [],
 *   analyses: [],
 *   examples: { questions: [], rows: [] },
 * };
 * validateReportDocument(doc); // throws on inconsistencies; returns doc
 * ```
 * @module
 */
import {
  itemProblems,
  type ReportFigure,
  type ReportItem,
  type ReportSection,
} from "../../render/document.ts";

/** A data set the runs were scored against. */
export interface DatasetProvenance {
  /** Name, e.g. `bbeh`. */
  name: string;
  /** The source repository or archive, e.g. `google-deepmind/bbeh`. */
  source?: string;
  /** The pinned commit of the source. */
  commit: string | null;
  /** sha256 checksums of the files read (path relative to the data set → hex digest). */
  sha256: Record<string, string>;
}

/** Where the numbers come from. Deterministic: no wall-clock time unless `date` is given. */
export interface Provenance {
  /** runlens version control commit (short or full hash; `-dirty` suffix if the tree was). */
  runlens_commit: string;
  /** Data sets, with commits and checksums. */
  datasets: DatasetProvenance[];
  /** Scorers used by the runs (registered names). */
  scorers: string[];
  /** The command line that produced the report. */
  command: string;
  /** A date given by the user (`--date`), shown verbatim; never filled from the clock. */
  date?: string;
  /** Input log files (path → sha256), when known. */
  inputs?: Record<string, string>;
  /** Seeds of randomised methods (e.g. `{ bootstrap: 20250101 }`). */
  seeds?: Record<string, number>;
}

/** A headline number with its uncertainty. */
export interface Headline {
  /** What it is, e.g. `harmonic mean`, `micro`, `mini micro`. */
  metric: string;
  /** The value, in `unit`s (runlens reports accuracies in percent). */
  value: number;
  /** Lower end of the 95% interval (null: none computed). */
  ci_low: number | null;
  /** Upper end of the 95% interval. */
  ci_high: number | null;
  /** Standard error, when the method has one. */
  se?: number | null;
  /** How the interval was computed, e.g. `bootstrap (2,000 resamples, stratified by task, seed 1)`. */
  method: string | null;
  /** Unit suffix (default `%`). */
  unit?: string;
}

/** One row of the runs summary (one run × benchmark). */
export interface RunSummary {
  /** Run name (as in the example rows' `run`). */
  run: string;
  /**
   * The run's short name in tables and figures (`shortRunLabels` over the report's runs),
   * with a legend back to `run`; absent: the name itself.
   */
  label?: string;
  /** Model name. */
  model: string;
  /** `bbeh`, `bbh`, … */
  benchmark: string;
  /** Registered scorer name. */
  scorer: string;
  /** `full`, `mini` or `partial` (or another short description). */
  coverage: string;
  /** The headline aggregate, null when the coverage does not allow one. */
  headline: Headline | null;
  /** Input rows. */
  rows_in: number;
  /** Scored rows. */
  rows_scored: number;
  /** Quarantined rows (`rows_in = rows_scored + rows_quarantined`). */
  rows_quarantined: number;
  /** Scored rows whose scorer found no answer (scored as wrong). */
  no_answer: number;
  /** Quarantined rows by kind of reason (e.g. `{ "unknown task": 3, "duplicate": 1 }`). */
  quarantine: Record<string, number>;
  /** A note (e.g. what a partial run covers). */
  note?: string;
}

/** A paired difference (run A − run B) on the examples both runs scored. */
export interface PairedRow {
  /** Task name, or `overall`. */
  scope: string;
  /** Examples scored by both runs. */
  n_paired: number;
  /** Accuracy of A on those examples (%). */
  acc_a: number;
  /** Accuracy of B on those examples (%). */
  acc_b: number;
  /** A − B in percentage points. */
  diff: number;
  /** Standard error of the difference (pp). */
  se: number | null;
  /** 95% interval of the difference (pp). */
  ci_low: number | null;
  /** See `ci_low`. */
  ci_high: number | null;
  /** Examples A got right and B wrong (discordant). */
  a_only: number;
  /** Examples B got right and A wrong. */
  b_only: number;
  /** McNemar's exact two-sided p-value (never below 1e-300). */
  p_value: number | null;
  /** True when the exact p-value is below `p_value` (1e-300): it prints as `<1e-300`. */
  p_value_bound?: boolean;
  /** Holm-adjusted p-value over the comparison's family (tasks: every task of every pair). */
  p_holm?: number | null;
  /** Minimum detectable difference at 80% power for this n (pp). */
  mdd?: number | null;
}

/** The paired comparison of two runs. */
export interface PairedComparison {
  /** First run (A). */
  run_a: string;
  /** Second run (B). */
  run_b: string;
  /** Benchmark compared. */
  benchmark: string;
  /** The overall paired difference. */
  overall: PairedRow;
  /** One row per task. */
  tasks: PairedRow[];
  /** Examples only A scored. */
  unpaired_a: number;
  /** Examples only B scored. */
  unpaired_b: number;
  /** How epochs were handled, etc. */
  note?: string;
}

/** The comparisons section: all pairs (or each run against a baseline). */
export interface ReportComparisons {
  /** A paragraph: method (paired difference, McNemar exact, Holm), baseline if any. */
  intro?: string;
  /** The pairs, in order. */
  pairs: PairedComparison[];
  /** Figures (e.g. a forest plot of the differences). */
  figures?: ReportFigure[];
}

/** The question of one example (stored once, shared by every run's rows). */
export interface ExampleQuestion {
  /** `bbeh`, `bbh`, … */
  benchmark: string;
  /** Task name. */
  task: string;
  /** 0-based position in the official task file. */
  example_index: number;
  /** The question text (BBEH: up to ~30 KB). */
  text: string;
}

/** A scorer's verdict on one row. */
export type Verdict = "correct" | "wrong";

/** One scored row: a run's response to one example (one epoch). */
export interface ExampleRow {
  /** Run name. */
  run: string;
  /** Benchmark (with task and example_index: the key of its {@link ExampleQuestion}). */
  benchmark: string;
  /** Task name. */
  task: string;
  /** 0-based example index. */
  example_index: number;
  /** Epoch (0 when the run has one). */
  epoch: number;
  /** Subset label (e.g. `5x5` for zebra puzzles), null when the task has none. */
  subset: string | null;
  /** The scorer's verdict. */
  verdict: Verdict;
  /**
   * Whether the scorer found an answer in the response (`answer_found`): a wrong row without
   * one is "no answer found", with one "wrong answer". Absent or null: not known.
   */
  found?: boolean | null;
  /** The extracted answer (null: the scorer found none). */
  extracted: string | null;
  /** The gold target. */
  target: string;
  /** Failure class from the analyses (null: none assigned, e.g. a correct row). */
  failure: string | null;
  /** Whether scorers disagree on this row (null: not checked). */
  disagreement: boolean | null;
  /** The full raw response (untrusted text; may be megabytes). */
  response: string;
}

/** The example browser's data. */
export interface ReportExamples {
  /** One question per (benchmark, task, example_index) that some row refers to. */
  questions: ExampleQuestion[];
  /** Every scored row (the renderer samples them when they exceed its size budget). */
  rows: ExampleRow[];
}

/** Everything the report shows. */
export interface ReportDocument {
  /** Page title. */
  title: string;
  /** A paragraph under the title. */
  subtitle?: string;
  /** Where the numbers come from. */
  provenance: Provenance;
  /** One row per run × benchmark. */
  runs: RunSummary[];
  /**
   * Shown under the runs: run × tasks where most answers were not found and runs whose stored
   * verdicts disagree, each naming the scorer to try (`pipeline/advice.ts`); absent: none.
   */
  advice?: string[];
  /** The leaderboard (tables beside the papers' models, figures with error bars). */
  leaderboard?: ReportSection;
  /** Paired comparisons between the runs. */
  comparisons?: ReportComparisons;
  /** Failure-mode, subset and answer-format analyses, one section each. */
  analyses: ReportSection[];
  /** The example browser's data. */
  examples: ReportExamples;
}

/**
 * The key of an example: `benchmark\u0000task\u0000example_index`.
 *
 * @example
 * ```ts
 * questionKey("bbeh", "zebra_puzzles", 9); // "bbeh\u0000zebra_puzzles\u00009"
 * ```
 */
export function questionKey(benchmark: string, task: string, exampleIndex: number): string {
  return `${benchmark}\u0000${task}\u0000${exampleIndex}`;
}

/**
 * Check a document's consistency and throw one error listing every problem (up to 20):
 * table rows of the wrong width, duplicate column labels, figures that are not plain SVG
 * (scripts, event handlers, external references, `<image>`), example rows without a question,
 * duplicate questions or rows, unknown verdicts, run summaries whose counts do not add up.
 * Returns the document.
 *
 * @example
 * ```ts
 * const doc: ReportDocument = {
 *   title: "t",
 *   provenance: { runlens_commit: "abc1234", datasets: [], scorers: [], command: "runlens report" },
 *   runs: [],
 *   analyses: [{ title: "A", items: [
 *     { kind: "table", title: "T", columns: [{ label: "x" }], rows: [[1, 2]] },
 *   ] }],
 *   examples: { questions: [], rows: [] },
 * };
 * try {
 *   validateReportDocument(doc);
 * } catch (e) {
 *   console.log((e as Error).message); // invalid report document:\ntable "T" row 0 has 2 cells, expected 1
 * }
 * ```
 */
export function validateReportDocument(doc: ReportDocument): ReportDocument {
  const problems: string[] = [];
  const checkItem = (item: ReportItem) => problems.push(...itemProblems(item));
  for (const s of [...(doc.leaderboard ? [doc.leaderboard] : []), ...doc.analyses]) {
    s.items.forEach(checkItem);
  }
  for (const f of doc.comparisons?.figures ?? []) checkItem(f);
  for (const r of doc.runs) {
    if (r.rows_in !== r.rows_scored + r.rows_quarantined) {
      problems.push(
        `run ${r.run}: rows_in ${r.rows_in} ≠ scored ${r.rows_scored} + quarantined ${r.rows_quarantined}`,
      );
    }
    if (!(r.no_answer >= 0 && r.no_answer <= r.rows_scored)) {
      problems.push(`run ${r.run}: no_answer ${r.no_answer} is not within 0…${r.rows_scored}`);
    }
  }
  const questions = new Set<string>();
  for (const q of doc.examples.questions) {
    const k = questionKey(q.benchmark, q.task, q.example_index);
    if (questions.has(k)) {
      problems.push(`duplicate question ${q.benchmark}/${q.task}/${q.example_index}`);
    }
    questions.add(k);
  }
  const rows = new Set<string>();
  doc.examples.rows.forEach((r, i) => {
    const k = questionKey(r.benchmark, r.task, r.example_index);
    if (!questions.has(k)) {
      problems.push(
        `example row ${i} (${r.run}): no question ${r.benchmark}/${r.task}/${r.example_index}`,
      );
    }
    const rk = `${r.run}\u0000${k}\u0000${r.epoch}`;
    if (rows.has(rk)) {
      problems.push(
        `example row ${i}: duplicate (${r.run}, ${r.task}, ${r.example_index}, epoch ${r.epoch})`,
      );
    }
    rows.add(rk);
    if (r.verdict !== "correct" && r.verdict !== "wrong") {
      problems.push(`example row ${i}: verdict "${r.verdict}" is not correct/wrong`);
    }
    if (typeof r.response !== "string") problems.push(`example row ${i}: response is not text`);
  });
  if (problems.length > 0) {
    const more = problems.length > 20 ? `\n… and ${problems.length - 20} more` : "";
    throw new Error(`invalid report document:\n${problems.slice(0, 20).join("\n")}${more}`);
  }
  return doc;
}
