/**
 * A SYNTHETIC but realistically shaped {@link ReportDocument}, seeded, for the report's tests
 * and speed benchmark: N runs answering the same examples (real BBEH questions when given, else
 * invented text), model-style responses of a chosen mean length ending in "The answer is: …",
 * verdicts at a per-run, per-task rate, failure classes on wrong rows, a few scorer
 * disagreements, subsets on some tasks; the runs summary, a leaderboard table and Plot figure
 * with error bars (normal-approximation intervals: placeholders, not runlens's statistics),
 * paired comparisons with McNemar's exact test, and a failure-class analysis with a heatmap.
 * Nothing here describes a real model.
 *
 * @example
 * ```ts
 * import { syntheticReportDocument } from "@runlens/bench/synthetic_report.ts";
 * const doc = syntheticReportDocument({ runs: 3, examplesPerRun: 300, seed: 7 });
 * doc.examples.rows.length; // 900
 * ```
 * @module
 */
import * as Plot from "@observablehq/plot";
import { mulberry32, type Rng } from "../core/rng.ts";
import { plotDocument, toStandaloneSvg } from "../render/figure.ts";
import type { ReportFigure, ReportSection } from "../render/document.ts";
import type {
  ExampleQuestion,
  ExampleRow,
  PairedComparison,
  PairedRow,
  Provenance,
  ReportDocument,
  RunSummary,
} from "../report/html/document.ts";

/** A question with its target (e.g. a row of the BBEH data set). */
export interface SourceQuestion {
  task: string;
  example_index: number;
  input: string;
  target: string;
}

/** Options of {@link syntheticReportDocument}. */
export interface SyntheticDocOptions {
  /** Number of runs. */
  runs: number;
  /** Examples each run answers (spread over the tasks; default: all questions). */
  examplesPerRun?: number;
  /** Epochs per example (default 1). */
  epochs?: number;
  /** Seed (default 1). */
  seed?: number;
  /** Questions to use (default: invented, 6 tasks × 60). */
  questions?: readonly SourceQuestion[];
  /** Mean response length in characters (default 1,500; log-normal spread). */
  responseChars?: number;
  /** Benchmark name (default `bbeh`). */
  benchmark?: string;
  /** Draw the figures with Plot (default true; false: no figures, faster). */
  figures?: boolean;
}

const WORDS = ("the of a to and in that is for it as with was on be by this are from or at an " +
  "which not we have each if then so all can one two three red blue left right first last " +
  "before after count list order true false given rule step case value number box item " +
  "person position answer option statement clause premise therefore because however").split(" ");

function words(r: Rng, n: number): string {
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(WORDS[Math.floor(r() * WORDS.length)]);
  return out.join(" ");
}

/**
 * Invented questions: `tasks` tasks × `perTask` examples, 200–3,000 characters each, targets
 * `(A)`–`(E)`, numbers or words.
 *
 * @example
 * ```ts
 * inventedQuestions(2, 3, 1).length; // 6
 * ```
 */
export function inventedQuestions(tasks = 6, perTask = 60, seed = 1): SourceQuestion[] {
  const r = mulberry32(seed);
  const names = [
    "boardgame_qa",
    "causal_understanding",
    "dyck_languages",
    "linguini",
    "multistep_arithmetic",
    "zebra_puzzles",
    "temporal_sequence",
    "word_sorting",
  ];
  const out: SourceQuestion[] = [];
  for (let t = 0; t < tasks; t++) {
    const task = t < names.length ? names[t] : `task_${t}`;
    for (let i = 0; i < perTask; i++) {
      const len = 30 + Math.floor(r() * 450);
      const kind = t % 3;
      const target = kind === 0
        ? `(${"ABCDE"[Math.floor(r() * 5)]})`
        : kind === 1
        ? String(Math.floor(r() * 200) - 50)
        : WORDS[Math.floor(r() * WORDS.length)] + " " + WORDS[Math.floor(r() * WORDS.length)];
      out.push({
        task,
        example_index: i,
        input: `Q${i} (${task}): ${words(r, len)}.\nOptions: (A) one (B) two (C) three ` +
          `(D) four (E) five\nWhich holds? Compare x < y && y > z.`,
        target,
      });
    }
  }
  return out;
}

/** Pick `n` examples spread over the tasks (the first k of each task, round robin). */
function spread(qs: readonly SourceQuestion[], n: number): SourceQuestion[] {
  if (n >= qs.length) return [...qs];
  const byTask = new Map<string, SourceQuestion[]>();
  for (const q of qs) {
    let l = byTask.get(q.task);
    if (!l) byTask.set(q.task, l = []);
    l.push(q);
  }
  const lists = [...byTask.values()];
  const picked = new Set<SourceQuestion>();
  for (let k = 0; picked.size < n; k++) {
    for (const l of lists) if (k < l.length && picked.size < n) picked.add(l[k]);
  }
  return qs.filter((q) => picked.has(q));
}

const FAILURES = [
  "no final answer",
  "wrong option",
  "off by a small amount",
  "degenerate repetition",
  "format not followed",
];

function wrongAnswer(r: Rng, target: string): string {
  const m = /^\(([A-E])\)$/.exec(target);
  if (m) return `(${"ABCDE".replace(m[1], "")[Math.floor(r() * 4)]})`;
  if (/^-?\d+$/.test(target)) {
    return String(Number(target) + (r() < 0.5 ? -1 : 1) * (1 + Math.floor(r() * 3)));
  }
  return target.split("").reverse().join("") + "x";
}

function response(
  r: Rng,
  q: SourceQuestion,
  answer: string | null,
  meanChars: number,
  degenerate: boolean,
): string {
  // Log-normal length around the mean (sigma 0.6).
  const z = Math.sqrt(-2 * Math.log(1 - r())) * Math.cos(2 * Math.PI * r());
  const want = Math.max(80, Math.round(meanChars * Math.exp(0.6 * z - 0.18)));
  const lines = ["Let's think step by step."];
  let len = lines[0].length;
  const quote = q.input.replace(/\s+/g, " ");
  for (let i = 1; len < want; i++) {
    const at = Math.floor(r() * Math.max(1, quote.length - 60));
    const line = degenerate
      ? "Let me re-check the previous step once more."
      : `Step ${i}: from "${quote.slice(at, at + 40 + Math.floor(r() * 40))}", ${
        words(r, 8 + Math.floor(r() * 20))
      }.`;
    lines.push(line);
    len += line.length + 1;
  }
  if (answer !== null) lines.push(`The answer is: ${answer}`);
  return lines.join("\n");
}

function z95(): number {
  return 1.959963984540054;
}

function normalCi(k: number, n: number): { v: number; lo: number; hi: number; se: number } {
  const p = n > 0 ? k / n : 0;
  const se = n > 0 ? Math.sqrt(p * (1 - p) / n) : 0;
  return {
    v: 100 * p,
    lo: 100 * Math.max(0, p - z95() * se),
    hi: 100 * Math.min(1, p + z95() * se),
    se: 100 * se,
  };
}

function logChoose(n: number, k: number): number {
  let s = 0;
  for (let i = 1; i <= k; i++) s += Math.log(n - k + i) - Math.log(i);
  return s;
}

/** McNemar's exact two-sided p-value for discordant counts b, c. */
function mcnemar(b: number, c: number): number | null {
  const n = b + c;
  if (n === 0) return null;
  const k = Math.min(b, c);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += Math.exp(logChoose(n, i) - n * Math.LN2);
  return Math.min(1, 2 * tail);
}

function paired(scope: string, a: boolean[], b: boolean[], mddScale: boolean): PairedRow {
  const n = a.length;
  let ka = 0, kb = 0, ao = 0, bo = 0;
  for (let i = 0; i < n; i++) {
    if (a[i]) ka++;
    if (b[i]) kb++;
    if (a[i] && !b[i]) ao++;
    if (b[i] && !a[i]) bo++;
  }
  const d = n > 0 ? (ao - bo) / n : 0;
  const se = n > 1 ? Math.sqrt(((ao + bo) / n - d * d) / n) : null;
  return {
    scope,
    n_paired: n,
    acc_a: n > 0 ? (100 * ka) / n : 0,
    acc_b: n > 0 ? (100 * kb) / n : 0,
    diff: 100 * d,
    se: se === null ? null : 100 * se,
    ci_low: se === null ? null : 100 * (d - z95() * se),
    ci_high: se === null ? null : 100 * (d + z95() * se),
    a_only: ao,
    b_only: bo,
    p_value: mcnemar(ao, bo),
    p_holm: null,
    mdd: mddScale && se !== null ? 100 * 2.8 * Math.max(se, 0.5 / Math.max(1, n)) : null,
  };
}

function holm(rows: PairedRow[]): void {
  const idx = rows.map((r, i) => ({ p: r.p_value ?? 1, i })).sort((x, y) => x.p - y.p || x.i - y.i);
  let running = 0;
  idx.forEach(({ p, i }, rank) => {
    running = Math.max(running, Math.min(1, (rows.length - rank) * p));
    rows[i].p_holm = running;
  });
}

function leaderboardFigure(runs: RunSummary[]): ReportFigure {
  const data = runs.map((r) => ({
    run: r.run,
    v: r.headline!.value,
    lo: r.headline!.ci_low!,
    hi: r.headline!.ci_high!,
  }));
  const el = Plot.plot({
    document: plotDocument(),
    title: "Micro accuracy by run",
    subtitle: "95% intervals (normal approximation, synthetic data)",
    width: 720,
    height: 40 + data.length * 24,
    marginLeft: 150,
    x: { label: "accuracy (%)", domain: [0, 100], grid: true },
    y: { label: null, domain: data.map((d) => d.run) },
    marks: [
      Plot.ruleY(data, { y: "run", x1: "lo", x2: "hi", stroke: "#4269d0", strokeWidth: 2 }),
      Plot.dot(data, { y: "run", x: "v", fill: "#4269d0", r: 4 }),
    ],
  });
  return {
    kind: "figure",
    id: "leaderboard-figure",
    title: "Leaderboard with error bars",
    svg: toStandaloneSvg(el),
    caption: "Dots: micro accuracy; bars: 95% interval.",
  };
}

function heatmapFigure(cells: { run: string; failure: string; share: number }[]): ReportFigure {
  const el = Plot.plot({
    document: plotDocument(),
    title: "Failure classes by run",
    width: 720,
    height: 80 + new Set(cells.map((c) => c.run)).size * 22,
    marginLeft: 150,
    marginBottom: 60,
    x: { label: null, tickRotate: -20 },
    y: { label: null },
    color: { legend: true, scheme: "blues", label: "share of wrong rows (%)" },
    marks: [Plot.cell(cells, { x: "failure", y: "run", fill: "share" })],
  });
  return {
    kind: "figure",
    id: "failure-heatmap",
    title: "Failure classes",
    svg: toStandaloneSvg(el),
    caption: "Share of each run's wrong rows in each failure class.",
  };
}

/** What the parts of a synthetic document share: options resolved, questions spread. */
interface SynthContext {
  opts: SyntheticDocOptions;
  seed: number;
  benchmark: string;
  /** Questions before spreading (their count tells full from partial coverage). */
  source: readonly SourceQuestion[];
  /** The questions every run answers. */
  qs: SourceQuestion[];
  epochs: number;
  meanChars: number;
  tasks: string[];
  /** Tasks whose rows carry a subset. */
  subsetTasks: Set<string>;
  runNames: string[];
}

function synthContext(opts: SyntheticDocOptions): SynthContext {
  const seed = opts.seed ?? 1;
  const source = opts.questions ?? inventedQuestions(6, 60, seed);
  const qs = spread(source, opts.examplesPerRun ?? source.length);
  const tasks = [...new Set(qs.map((q) => q.task))];
  return {
    opts,
    seed,
    benchmark: opts.benchmark ?? "bbeh",
    source,
    qs,
    epochs: opts.epochs ?? 1,
    meanChars: opts.responseChars ?? 1500,
    tasks,
    subsetTasks: new Set(tasks.filter((_, i) => i % 3 === 0)),
    runNames: Array.from(
      { length: opts.runs },
      (_, i) => `synthetic-model-${String(i + 1).padStart(2, "0")}`,
    ),
  };
}

/**
 * One row of `run` for question `q`, epoch `e`: correct with probability `rate`, else a random
 * failure class with a wrong or missing answer. Draws from `r` in a fixed order.
 */
function synthRow(
  c: SynthContext,
  r: Rng,
  run: string,
  q: SourceQuestion,
  e: number,
  rate: number,
  checksScorers: boolean,
): ExampleRow {
  const ok = r() < rate;
  let failure: string | null = null;
  let answer: string | null = q.target;
  let degenerate = false;
  if (!ok) {
    failure = FAILURES[Math.floor(r() * FAILURES.length)];
    if (failure === "no final answer" || failure === "degenerate repetition") answer = null;
    else answer = wrongAnswer(r, q.target);
    degenerate = failure === "degenerate repetition";
  }
  return {
    run,
    benchmark: c.benchmark,
    task: q.task,
    example_index: q.example_index,
    epoch: e,
    subset: c.subsetTasks.has(q.task) ? ["small", "medium", "large"][q.example_index % 3] : null,
    verdict: ok ? "correct" : "wrong",
    extracted: answer,
    target: q.target,
    failure,
    disagreement: checksScorers ? r() < 0.03 : null,
    response: response(r, q, answer, c.meanChars, degenerate),
  };
}

/** Every run's rows, and each run's epoch-0 verdicts by task (key `run\0task`, example order). */
function synthRows(
  c: SynthContext,
  r: Rng,
): { rows: ExampleRow[]; correctBy: Map<string, boolean[]> } {
  const rows: ExampleRow[] = [];
  const correctBy = new Map<string, boolean[]>();
  for (let ri = 0; ri < c.runNames.length; ri++) {
    const run = c.runNames[ri];
    const base = 0.25 + 0.5 * r();
    const rate = new Map(
      c.tasks.map((t) => [t, Math.min(0.97, Math.max(0.03, base + (r() - 0.5) * 0.5))]),
    );
    const checksScorers = ri % 4 !== 3;
    for (const q of c.qs) {
      for (let e = 0; e < c.epochs; e++) {
        const row = synthRow(c, r, run, q, e, rate.get(q.task)!, checksScorers);
        rows.push(row);
        if (e === 0) {
          const key = `${run}\u0000${q.task}`;
          let l = correctBy.get(key);
          if (!l) correctBy.set(key, l = []);
          l.push(row.verdict === "correct");
        }
      }
    }
  }
  return { rows, correctBy };
}

/** Run summaries with a normal-approximation headline; every third run has 3 quarantined rows. */
function synthSummaries(c: SynthContext, rows: readonly ExampleRow[]): RunSummary[] {
  return c.runNames.map((run, ri) => {
    const own = rows.filter((x) => x.run === run);
    const k = own.filter((x) => x.verdict === "correct").length;
    const ci = normalCi(k, own.length);
    const quarantined = ri % 3 === 1 ? 3 : 0;
    return {
      run,
      model: run.replace("synthetic-model", "synthetic"),
      benchmark: c.benchmark,
      scorer: "bbeh-official",
      coverage: c.qs.length === c.source.length ? "full" : "partial",
      headline: {
        metric: "micro",
        value: ci.v,
        ci_low: ci.lo,
        ci_high: ci.hi,
        se: ci.se,
        method: "normal approximation (synthetic placeholder)",
      },
      rows_in: own.length + quarantined,
      rows_scored: own.length,
      rows_quarantined: quarantined,
      no_answer: 0,
      quarantine: quarantined
        ? { "unknown task": 2, "duplicate row": 1 }
        : {} as Record<string, number>,
    };
  });
}

/** All pairs of runs (up to 4 runs), else each run against the first. */
function pairIndices(n: number): [number, number][] {
  const pairList: [number, number][] = [];
  if (n <= 4) {
    for (let a = 0; a < n; a++) {
      for (let b = a + 1; b < n; b++) pairList.push([a, b]);
    }
  } else for (let b = 1; b < n; b++) pairList.push([0, b]);
  return pairList;
}

/** Paired comparisons on epoch 0, per task (Holm-adjusted) and overall. */
function synthPairs(c: SynthContext, correctBy: Map<string, boolean[]>): PairedComparison[] {
  const { runNames, tasks } = c;
  const pairs: PairedComparison[] = [];
  for (const [a, b] of pairIndices(runNames.length)) {
    const ta: PairedRow[] = tasks.map((t) =>
      paired(
        t,
        correctBy.get(`${runNames[a]}\u0000${t}`)!,
        correctBy.get(`${runNames[b]}\u0000${t}`)!,
        true,
      )
    );
    holm(ta);
    const all = (run: string) => tasks.flatMap((t) => correctBy.get(`${run}\u0000${t}`)!);
    pairs.push({
      run_a: runNames[a],
      run_b: runNames[b],
      benchmark: c.benchmark,
      overall: paired("overall", all(runNames[a]), all(runNames[b]), true),
      tasks: ta,
      unpaired_a: 0,
      unpaired_b: 0,
      note: c.epochs > 1 ? "epoch 0 only (synthetic)" : undefined,
    });
  }
  return pairs;
}

/** The leaderboard section: the figure (if drawn) and per-task accuracy of epoch 0. */
function synthLeaderboard(
  c: SynthContext,
  summaries: RunSummary[],
  correctBy: Map<string, boolean[]>,
  drawFigures: boolean,
): ReportSection {
  const perTask = c.runNames.map((run) => [
    run,
    ...c.tasks.map((t) => {
      const l = correctBy.get(`${run}\u0000${t}`) ?? [];
      return l.length ? (100 * l.filter(Boolean).length) / l.length : null;
    }),
  ]);
  return {
    title: "Leaderboard",
    intro: "Per-task accuracy of each run (synthetic).",
    items: [
      ...(drawFigures ? [leaderboardFigure(summaries)] : []),
      {
        kind: "table",
        id: "leaderboard-tasks",
        title: "Accuracy by task (%)",
        columns: [{ label: "Run" }, ...c.tasks.map((t) => ({ label: t, digits: 1 }))],
        rows: perTask,
      },
    ],
  };
}

/** The failure-class analysis: each run's wrong rows by class, as a heatmap and a table. */
function synthFailureAnalysis(
  c: SynthContext,
  rows: readonly ExampleRow[],
  drawFigures: boolean,
): ReportSection {
  const wrongBy = c.runNames.flatMap((run) => {
    const wrong = rows.filter((x) => x.run === run && x.failure !== null);
    return FAILURES.map((f) => ({
      run,
      failure: f,
      share: wrong.length ? (100 * wrong.filter((x) => x.failure === f).length) / wrong.length : 0,
    }));
  });
  return {
    title: "Failure classes",
    intro: "How the wrong rows fail (synthetic classes).",
    items: [
      ...(drawFigures ? [heatmapFigure(wrongBy)] : []),
      {
        kind: "table",
        title: "Failure classes by run (% of wrong rows)",
        columns: [{ label: "Run" }, ...FAILURES.map((f) => ({ label: f, digits: 1 }))],
        rows: c.runNames.map((
          run,
        ) => [
          run,
          ...FAILURES.map((f) => wrongBy.find((x) => x.run === run && x.failure === f)!.share),
        ]),
      },
    ],
  };
}

function synthProvenance(c: SynthContext): Provenance {
  const { opts, benchmark } = c;
  return {
    runlens_commit: "0000000-synthetic",
    datasets: [{
      name: benchmark,
      source: opts.questions ? "google-deepmind/bbeh" : "invented",
      commit: opts.questions ? "(data directory)" : null,
      sha256: { "synthetic.json": "0".repeat(64) },
    }],
    scorers: ["bbeh-official"],
    command: `syntheticReportDocument(${
      JSON.stringify({
        ...opts,
        questions: opts.questions ? `${opts.questions.length} questions` : undefined,
      })
    })`,
    seeds: { synthetic: c.seed },
  };
}

/**
 * Build a synthetic report document (see the module doc).
 *
 * @example
 * ```ts
 * const doc = syntheticReportDocument({ runs: 20, responseChars: 2500, figures: false });
 * ```
 */
export function syntheticReportDocument(opts: SyntheticDocOptions): ReportDocument {
  const c = synthContext(opts);
  const { rows, correctBy } = synthRows(c, mulberry32(c.seed));
  const summaries = synthSummaries(c, rows);
  const drawFigures = opts.figures ?? true;
  const questions: ExampleQuestion[] = c.qs.map((q) => ({
    benchmark: c.benchmark,
    task: q.task,
    example_index: q.example_index,
    text: q.input,
  }));
  const n = c.runNames.length;
  return {
    title: "runlens report (synthetic data)",
    subtitle:
      `${n} synthetic runs × ${c.qs.length} examples${
        c.epochs > 1 ? ` × ${c.epochs} epochs` : ""
      }; ` +
      "made for tests and benchmarks, not results about real models.",
    provenance: synthProvenance(c),
    runs: summaries,
    leaderboard: synthLeaderboard(c, summaries, correctBy, drawFigures),
    comparisons: {
      intro: n <= 4
        ? "All pairs of runs, on the examples both scored."
        : `Each run against the baseline ${c.runNames[0]}.`,
      pairs: synthPairs(c, correctBy),
    },
    analyses: [synthFailureAnalysis(c, rows, drawFigures)],
    examples: { questions, rows },
  };
}
