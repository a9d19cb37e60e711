/**
 * `runlens compare <paths…> [--a RUN --b RUN | --baseline RUN] [--data DIR] [--json]`: paired
 * comparisons of runs on the same examples (`lib/analyses/compare.ts`): per task and overall
 * the accuracy difference A − B with Tango's 95% interval, McNemar's exact p-value,
 * Holm-adjusted p-values over every test of the comparison (all pairs; the family is printed)
 * and the minimum detectable difference at 80% power (Connor's formula).
 * Which runs: `--a` and `--b`; else every run against `--baseline`; else every pair of the
 * runs found (so `runlens compare a.jsonl b.jsonl` compares the two runs of two logs). Pairs
 * that cannot be compared (no example or benchmark in common) are listed, not fatal; only
 * when no pair at all can be compared is it an error. `--json` prints the envelope of
 * `command.ts` with `comparisons`, `not_compared` and `holm` (the families).
 *
 * Answers not found (issue 22): the advice `score` prints (`no answer found in N of M …` with
 * the scorer to try; stored verdicts that disagree) comes first; each run's no-answer count is
 * in the JSON (`runs[].no_answer`, per task in `runs[].tasks`, per side in
 * `comparisons[].no_answer_a`/`_b`, and `advice`); a comparison's heading gives each side's
 * no-answer count when more than 20% of its rows had none, and a side with most answers not
 * found adds a loud line: its accuracy counts every unread answer as wrong. `--strict` exits 1
 * then, as `score` does.
 *
 * @example
 * ```sh
 * deno task runlens compare runs/model_a.jsonl runs/model_b.jsonl
 * deno task runlens compare runs/ --baseline gpt-4o --json
 * ```
 * @module
 */
import { LOAD_OPTIONS, loadOptionsOf } from "./load_options.ts";
import { LOAD_FAILURE, LOG_PATHS, reportLoadFailures } from "./load_checks.ts";
import type { LoadOptions } from "../pipeline/load.ts";
import { DATA_OPTION, resolveDataDir } from "../core/data_dir.ts";
import {
  compareRunPairs,
  type ComparisonSet,
  formatPValue,
  type PairedRow,
  type RunComparison,
} from "../analyses/compare.ts";
import { type LoadedRuns, loadRuns } from "../pipeline/load.ts";
import { adviceSections, NO_ANSWER_SHARE } from "../pipeline/advice.ts";
import { STRICT_NO_ANSWER_SHARE } from "./load_checks.ts";
import { count } from "../core/count.ts";
import { intervalDigits } from "../render/interval_text.ts";
import { type Command, jsonEnvelope, runCommand, UsageError } from "../core/command.ts";

/** Parsed `compare` arguments. */
interface CompareArgs {
  paths: string[];
  data: string | null;
  json: boolean;
  a: string | null;
  b: string | null;
  baseline: string | null;
  load: LoadOptions;
}

/** `runlens compare`. */
export const compareCommand: Command<CompareArgs> = {
  name: "compare",
  summary: "Paired comparison of runs on the examples both scored: differences with 95% " +
    "intervals, McNemar's exact test, Holm adjustment.",
  usage: "<paths…> [--a RUN --b RUN | --baseline RUN] [--data DIR] [--json] [options]",
  description: "Which runs: --a and --b; else every run against --baseline; else every pair " +
    "of the runs found (so `compare a.jsonl b.jsonl` compares the runs of two logs). Pairs " +
    "with no example or benchmark in common are listed as not compared, and only when no " +
    "pair at all can be compared is it an error.",
  arguments: LOG_PATHS,
  options: {
    a: { type: "string", value: "RUN", description: "run A (with --b)", default: "every pair" },
    b: { type: "string", value: "RUN", description: "run B (with --a)", default: "every pair" },
    baseline: {
      type: "string",
      value: "RUN",
      description: "compare every other run with it",
      default: "every pair",
    },
    data: DATA_OPTION,
    json: { type: "boolean", description: "print the JSON report instead of the tables" },
    ...LOAD_OPTIONS,
  },
  prints: "Per pair and benchmark: the paired and unpaired example counts and the scorer, then " +
    "per task and overall n, accuracy of A and of B, A − B with Tango's 95% interval, " +
    "McNemar's exact p, Holm-adjusted p and the MDD; the pairs not compared and the Holm " +
    "families.\n" +
    "With --json: the envelope (command, runs, quarantine, errors) with comparisons, " +
    "not_compared and holm.",
  examples: [
    "deno task runlens compare runs/model_a.jsonl runs/model_b.jsonl",
    "deno task runlens compare runs/ --baseline gpt-4o --json",
  ],
  failure: LOAD_FAILURE + ", or no pair of runs could be compared",
  parse: ({ values, positionals }) => {
    const text = (k: string) => (values[k] as string | undefined) ?? null;
    if (positionals.length === 0) throw new UsageError("no run logs given");
    if ((text("a") === null) !== (text("b") === null)) {
      throw new UsageError("--a and --b go together");
    }
    if (text("a") !== null && text("baseline") !== null) {
      throw new UsageError("give --a/--b or --baseline, not both");
    }
    return {
      paths: positionals,
      data: text("data"),
      json: values.json === true,
      a: text("a"),
      b: text("b"),
      baseline: text("baseline"),
      load: loadOptionsOf(values),
    };
  },
  run: compareRun,
};

/**
 * The pairs of runs to compare. A run with nothing scored is in no pair: it is named as a
 * failure of the load (exit 1, `load_checks.ts`), not compared.
 */
function pairsOf(runs: string[], args: CompareArgs, scored: Set<string>): [string, string][] {
  const known = (r: string) => {
    if (!runs.includes(r)) throw new UsageError(`no run "${r}" (runs: ${runs.join(", ")})`);
    return r;
  };
  const usable = (p: [string, string]) => scored.has(p[0]) && scored.has(p[1]);
  if (args.a !== null) return [[known(args.a), known(args.b!)] as [string, string]].filter(usable);
  if (args.baseline !== null) {
    const base = known(args.baseline);
    return runs.filter((r) => r !== base).map((r): [string, string] => [r, base]).filter(usable);
  }
  const live = runs.filter((r) => scored.has(r));
  if (runs.length < 2) throw new UsageError(`need two runs to compare, found ${runs.length}`);
  return live.flatMap((a, i) => live.slice(i + 1).map((b): [string, string] => [a, b]));
}

async function compareRun(args: CompareArgs): Promise<number> {
  const loaded = await loadRuns(args.paths, resolveDataDir(args.data), args.load);
  const runs = [...new Set(loaded.runs.map((r) => r.run))].sort();
  const scored = new Set(loaded.runs.filter((r) => r.rows_scored > 0).map((r) => r.run));
  // fewer than two runs because a log could not be read: that is the problem (exit 1), not
  // the command line's
  if (runs.length < 2 && loaded.errors.length > 0) {
    return reportLoadFailures("compare", loaded, args.load.strict === true);
  }
  const set = compareRunPairs(loaded.rows, pairsOf(runs, args, scored));
  if (set.comparisons.length === 0 && set.not_compared.length > 0) {
    throw new Error(
      `no pair of runs could be compared: ${set.not_compared.map((n) => n.detail).join("; ")}`,
    );
  }
  const noAnswerOf = sideNoAnswer(loaded);
  if (args.json) {
    const quarantine = loaded.quarantine.map((q) => ({
      file: q.file,
      line: q.line,
      reason: q.reason,
    }));
    const summaries = loaded.runs.map((r) => ({
      run: r.run,
      model: r.model,
      benchmark: r.benchmark,
      scorer: r.scorer,
      rows_scored: r.rows_scored,
      no_answer: r.no_answer,
      tasks: Object.fromEntries(
        Object.entries(r.tasks).map(([t, c]) => [t, { n: c.n, no_answer: c.no_answer }]),
      ),
    }));
    const comparisons = set.comparisons.map((c) => ({
      ...c,
      no_answer_a: noAnswerOf(c.run_a, c.benchmark),
      no_answer_b: noAnswerOf(c.run_b, c.benchmark),
    }));
    console.log(JSON.stringify(
      jsonEnvelope("compare", { runs: summaries, quarantine }, {
        comparisons,
        not_compared: set.not_compared,
        holm: set.holm,
        advice: loaded.advice,
      }),
      null,
      2,
    ));
  } else if (set.comparisons.length === 0) {
    console.log("no pair of runs with scored rows to compare");
  } else {
    // every number says which scorer produced it (a user's rule shows under its own name)
    const scorerOf = (c: RunComparison) =>
      loaded.runs.find((r) => r.run === c.run_a && r.benchmark === c.benchmark)?.scorer;
    // the advice first: a table of zeros must not be read before it
    console.log([...adviceSections(loaded.advice), comparisonSetText(set, scorerOf, noAnswerOf)]
      .join("\n"));
  }
  return reportLoadFailures("compare", loaded, args.load.strict === true);
}

/** A side of a comparison: its rows on the benchmark, and those with no answer found. */
export interface SideNoAnswer {
  no_answer: number;
  n: number;
}

/** The no-answer count of a run on a benchmark (its summary), by run and benchmark. */
function sideNoAnswer(loaded: LoadedRuns): (run: string, benchmark: string) => SideNoAnswer {
  return (run, benchmark) => {
    const r = loaded.runs.find((x) => x.run === run && x.benchmark === benchmark);
    return { no_answer: r?.no_answer ?? 0, n: r?.rows_scored ?? 0 };
  };
}

const num = (x: number | null | undefined, d = 1) =>
  x === null || x === undefined ? "—" : x.toFixed(d);

/**
 * A difference and its interval with as many decimals (1 to 4, `intervalDigits`) as it takes for the bounds to
 * differ in print and for a bound that is not 0 not to print as 0: identical runs on 4,000
 * examples read `0.0 [-0.1, 0.1]`, on 10,000 `0.0 [-0.04, 0.04]`, never `[0.0, 0.0]`.
 *
 * @example
 * ```ts
 * diffText(0, -0.0849, 0.0849); // "0.0 [-0.1, 0.1]"
 * diffText(0, -0.0384, 0.0384); // "0.0 [-0.04, 0.04]"
 * diffText(12.34, 3.21, 20.5); // "12.3 [3.2, 20.5]"
 * ```
 */
export function diffText(diff: number, low: number, high: number): string {
  const d = intervalDigits(low, high);
  return `${num(diff)} [${num(low, d)}, ${num(high, d)}]`;
}

/**
 * All comparisons, the pairs not compared, and the Holm families, as text; `scorerOf`: the
 * rule that scored a comparison's rows, named in its heading; `noAnswerOf`: a side's
 * no-answer count, said beside the heading when high ({@link noAnswerNotes}).
 */
export function comparisonSetText(
  set: ComparisonSet,
  scorerOf: (c: RunComparison) => string | undefined = () => undefined,
  noAnswerOf?: (run: string, benchmark: string) => SideNoAnswer,
): string {
  const parts = set.comparisons.map((c) =>
    comparisonText(c, scorerOf(c), noAnswerOf && noAnswerNotes(c, noAnswerOf))
  );
  if (set.not_compared.length > 0) {
    parts.push(
      ["Not compared:", ...set.not_compared.map((n) => `  ${n.detail}`)].join("\n"),
    );
  }
  parts.push(
    `Holm families: p Holm of the task rows is adjusted over ${set.holm.tasks.description}; ` +
      `of the overall rows over ${set.holm.overall.description}.`,
  );
  return parts.join("\n\n");
}

/** What a comparison's heading says about answers not found. */
export interface NoAnswerNotes {
  /** Appended to the heading: each side's count, when above 20% on a side ("" otherwise). */
  heading: string;
  /** Loud lines under the heading, one per side with most answers not found. */
  warnings: string[];
}

/**
 * The no-answer notes of a comparison: each side's count beside the heading when more than
 * 20% of a side's rows had no answer found, and a loud line for a side with most (more than
 * half) not found.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const c = { run_a: "a", run_b: "b", benchmark: "bbh" } as Parameters<typeof noAnswerNotes>[0];
 * const notes = noAnswerNotes(c, (run) => ({ no_answer: run === "a" ? 180 : 10, n: 180 }));
 * assert.equal(notes.heading, "; no answer found: a 180 of 180, b 10 of 180");
 * assert.deepEqual(notes.warnings, [
 *   "  !! most answers of a were not found (180 of 180): its accuracy counts them as wrong; " +
 *   "see \"no answer found\" above for the scorer to try",
 * ]);
 * ```
 */
export function noAnswerNotes(
  c: Pick<RunComparison, "run_a" | "run_b" | "benchmark">,
  noAnswerOf: (run: string, benchmark: string) => SideNoAnswer,
): NoAnswerNotes {
  const sides = [c.run_a, c.run_b].map((run) => ({ run, ...noAnswerOf(run, c.benchmark) }));
  const over = (share: number) => sides.filter((s) => s.no_answer > share * s.n);
  const heading = over(NO_ANSWER_SHARE).length === 0 ? "" : "; no answer found: " +
    sides.map((s) => `${s.run} ${count(s.no_answer)} of ${count(s.n)}`).join(", ");
  const warnings = over(STRICT_NO_ANSWER_SHARE).map((s) =>
    `  !! most answers of ${s.run} were not found (${count(s.no_answer)} of ${count(s.n)}): ` +
    'its accuracy counts them as wrong; see "no answer found" above for the scorer to try'
  );
  return { heading, warnings };
}

/**
 * One comparison as a text table; `scorer`: the rule that scored both runs' rows; `notes`: what
 * its heading says about answers not found.
 */
export function comparisonText(
  c: RunComparison,
  scorer?: string,
  notes: NoAnswerNotes = { heading: "", warnings: [] },
): string {
  const width = Math.max(7, ...c.tasks.map((t) => t.scope.length));
  const line = (r: PairedRow) => {
    const diff = diffText(r.diff, r.ci_low, r.ci_high) + (r.ci_extended_to_zero ? "*" : "");
    return `  ${r.scope.padEnd(width)}  ${String(r.n_paired).padStart(5)}  ` +
      `${num(r.acc_a).padStart(6)}  ${num(r.acc_b).padStart(6)}  ${diff.padEnd(24)}  ` +
      `${formatPValue(r.p_value, r.p_value_bound).padStart(7)}  ` +
      `${formatPValue(r.p_holm).padStart(7)}  ` +
      `${num(r.mdd).padStart(5)}`;
  };
  const extended = [...c.tasks, c.overall].some((r) => r.ci_extended_to_zero);
  return [
    `${c.run_a} vs ${c.run_b} (${c.benchmark}): ${c.overall.n_paired} paired examples; ` +
    `unpaired: ${c.unpaired_a} only in ${c.run_a}, ${c.unpaired_b} only in ${c.run_b}` +
    (scorer ? `; scorer ${scorer}` : "") + notes.heading,
    ...notes.warnings,
    `  ${"task".padEnd(width)}  ${"n".padStart(5)}  ${"acc A".padStart(6)}  ${
      "acc B".padStart(6)
    }  ` +
    `${"A − B [95% CI]".padEnd(24)}  ${"p".padStart(7)}  ${"p Holm".padStart(7)}  ${
      "MDD".padStart(5)
    }`,
    ...c.tasks.map(line),
    line(c.overall),
    "  95% CI: Tango's score interval for paired proportions; p: McNemar's exact test on the " +
    "examples only one run got right; MDD: minimum detectable difference at 80% power, " +
    "Connor's formula for McNemar's test at the observed discordance (percentage points)." +
    (extended ? " *: extended to 0, where the exact test does not reject." : ""),
  ].join("\n");
}

/**
 * Run `runlens compare`; returns the exit code (0 ok, 1 failure, 2 usage).
 *
 * @example
 * ```ts ignore
 * await compareMain(["a.jsonl", "b.jsonl"]);
 * ```
 */
export function compareMain(args: string[]): Promise<number> {
  return runCommand(compareCommand, args);
}

if (import.meta.main) Deno.exit(await compareMain(Deno.args));
