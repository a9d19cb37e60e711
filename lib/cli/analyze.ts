/**
 * `runlens analyze`: subset accuracies and failure-mode analyses of BBEH run logs.
 *
 * `deno task runlens analyze <paths…> [--data DIR] [--json]` loads the logs (any format
 * `runlens score` reads), re-scores them with each benchmark's official scorer and runs the
 * analyses every benchmark registers (BBEH: `bbeh/failure/`) and the answer-format
 * sensitivity. `--json` prints the envelope of `command.ts` whose `runs` list holds per run
 * `{"run", "model", "benchmark", "scorer", "subsets", "failure_modes", "format_sensitivity"}`:
 * `subsets` is `{task: {label: {n, correct, accuracy}}}`, `failure_modes`
 * maps keys such as `boardgame_qa.unknown_share`, `object_counting.over_count_share`,
 * `dyck_languages.early_flag_share`, `no_answer_share.<task>` to `{share, n, count, ci_low,
 * ci_high}` (percent, 95% Wilson). Without `--json`, per run the headline shares (BBEH) and
 * its accuracy under every answer rule that applies (every benchmark; BBH has no analyses of
 * its own and says so). No scored row at all is an error (exit 1), and so is a file that could
 * not be read (named on stderr; the others are analysed).
 * The first-mistake analysis needs `big-bench-mistake/` in the data directory; without it those
 * keys are absent and a note is printed on stderr.
 *
 * @example
 * ```sh
 * deno task runlens analyze runs/ --json
 * deno run --allow-all lib/cli/analyze.ts my_run.jsonl --data ../shared/data
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { LOAD_OPTIONS, loadOptionsOf } from "./load_options.ts";
import type { LoadOptions } from "../pipeline/load.ts";
import { benchmarks, getBenchmark } from "../benchmarks/registry.ts";
import { DATA_OPTION, resolveDataDir } from "../core/data_dir.ts";
import {
  type FormatCell,
  formatSensitivity,
  formatSensitivityByRun,
} from "../analyses/format_sensitivity.ts";
import { loadRuns } from "../pipeline/load.ts";
import { printError, printWarning } from "../core/terminal.ts";
import { type Command, jsonEnvelope, runCommand, UsageError } from "../core/command.ts";
import { LOAD_FAILURE, LOG_PATHS, reportLoadFailures } from "./load_checks.ts";

/** The benchmarks with analyses of their own, by label (the help names them). */
const ANALYSED = benchmarks().filter((b) => b.analyses).map((b) => b.label).join(", ");

/** One share as the analyses report it (percent, 95% Wilson interval). */
interface Share {
  share: number | null;
  n: number;
  count: number;
  ci_low: number | null;
  ci_high: number | null;
}

/** One run's analyses in the report. */
interface RunAnalyses {
  run: string;
  model: string;
  benchmark: string | null;
  scorer: string | null;
  failure_modes?: Record<string, Share>;
  [key: string]: unknown;
}

/**
 * The readable report: per run its header, the BBEH failure-mode headline shares (when its
 * benchmark has those analyses), and its accuracy under every answer rule that applies (the
 * answer-format sensitivity, every benchmark); a run of a benchmark without analyses of its
 * own says so.
 */
function text(runs: RunAnalyses[]): string {
  const lines: string[] = [];
  for (const s of runs) {
    const label = s.benchmark ? getBenchmark(s.benchmark)?.label ?? s.benchmark : null;
    const about = [s.model, label, s.scorer ? `scorer ${s.scorer}` : null].filter(Boolean);
    lines.push(`${s.run} (${about.join(", ")})`);
    const headline = s.benchmark ? getBenchmark(s.benchmark)?.analyses?.headline : undefined;
    const shares = headline ? s[headline.key] as Record<string, Share> | undefined : undefined;
    if (headline && shares) {
      for (const key of headline.measures) {
        const v = shares[key];
        if (!v) continue;
        const share = v.share === null ? "–" : `${v.share.toFixed(1)}%`;
        const ci = v.ci_low === null ? "" : ` [${v.ci_low.toFixed(1)}, ${v.ci_high!.toFixed(1)}]`;
        lines.push(`  ${key.padEnd(42)} ${share.padStart(6)}${ci}  (${v.count}/${v.n})`);
      }
    } else if (label !== null) {
      lines.push(
        `  no analyses of its own for ${label} (benchmarks with analyses: ${ANALYSED}); its ` +
          "answer-format sensitivity follows",
      );
    }
    lines.push(...sensitivityText(s));
    lines.push("");
  }
  return lines.join("\n").trimEnd();
}

/**
 * A run's accuracy under every answer rule over all its tasks: rows, correct, accuracy and the
 * share of responses in which the rule found no answer; `*` marks the run's scorer.
 */
function sensitivityText(s: RunAnalyses): string[] {
  const byTask = (s.format_sensitivity ?? {}) as Record<string, Record<string, FormatCell>>;
  const rules = new Map<string, { n: number; correct: number; none: number }>();
  for (const cells of Object.values(byTask)) {
    for (const [rule, c] of Object.entries(cells)) {
      const r = rules.get(rule) ?? rules.set(rule, { n: 0, correct: 0, none: 0 }).get(rule)!;
      r.n += c.n;
      r.correct += c.correct;
      r.none += c.no_answer * c.n / 100; // a share of the task's rows: back to a count
    }
  }
  if (rules.size === 0) return [];
  const tasks = Object.keys(byTask).length;
  const out = [
    `  answer-format sensitivity (${tasks} task${tasks === 1 ? "" : "s"}; * the run's scorer):`,
    `    ${"rule".padEnd(20)} ${"n".padStart(6)}  correct  accuracy  no answer`,
  ];
  for (const [rule, r] of rules) {
    const name = rule === s.scorer ? `${rule}*` : rule;
    out.push(
      `    ${name.padEnd(20)} ${String(r.n).padStart(6)}  ${String(r.correct).padStart(7)}  ` +
        `${(r.correct / r.n * 100).toFixed(2).padStart(8)}  ` +
        `${(Math.round(r.none) / r.n * 100).toFixed(1).padStart(8)}%`,
    );
  }
  return out;
}

/** Parsed `analyze` arguments. */
interface AnalyzeArgs {
  paths: string[];
  data: string | null;
  json: boolean;
  load: LoadOptions;
}

/** `runlens analyze`. */
export const analyzeCommand: Command<AnalyzeArgs> = {
  name: "analyze",
  summary: `Run the analyses each benchmark registers (${ANALYSED}: subset accuracies and ` +
    "failure modes) and the answer-format sensitivity on run logs.",
  usage: "<paths…> [--data DIR] [--json] [options]",
  description: "The logs are loaded and scored as by score. The text output shows the " +
    `failure-mode headline shares of ${ANALYSED} runs only; runs of other benchmarks show ` +
    "their answer-format sensitivity and say they have no analyses of their own. An analysis " +
    "whose data set is missing from the data directory is left out, with a note on stderr.",
  arguments: LOG_PATHS,
  options: {
    data: DATA_OPTION,
    json: { type: "boolean", description: "print the JSON report instead of the text" },
    ...LOAD_OPTIONS,
  },
  prints:
    `Per run: its model, benchmark and scorer; the ${ANALYSED} failure-mode headline shares ` +
    "with their 95% Wilson intervals and counts; its accuracy under every answer rule that " +
    "applies (rows, correct, accuracy, share with no answer; * marks the run's scorer).\n" +
    "With --json: the envelope (command, runs, quarantine, errors) whose runs hold per run " +
    "subsets ({task: {label: {n, correct, accuracy}}}), failure_modes (key → {share, n, " +
    "count, ci_low, ci_high}, percent) and format_sensitivity.",
  examples: [
    "deno task runlens analyze runs/ --json",
    "deno task runlens analyze my_run.jsonl --data ../shared/data",
  ],
  failure: LOAD_FAILURE,
  parse: ({ values, positionals }) => {
    if (positionals.length === 0) throw new UsageError("no run logs given");
    return {
      paths: positionals,
      data: (values.data as string | undefined) ?? null,
      json: values.json === true,
      load: loadOptionsOf(values),
    };
  },
  run: analyzeRun,
};

/** Load, run every registered benchmark's analyses on its rows, report. */
async function analyzeRun(args: AnalyzeArgs): Promise<number> {
  const dataDir = resolveDataDir(args.data);
  const loaded = await loadRuns(args.paths, dataDir, args.load);
  const runs = new Map<string, RunAnalyses>();
  const entry = (run: string, model: string) =>
    runs.get(run) ?? runs.set(run, { run, model, benchmark: null, scorer: null }).get(run)!;
  // Each benchmark's analyses see only its rows (BBEH and BBH share task names).
  for (const b of benchmarks()) {
    const rows = loaded.rows.filter(pl.col("benchmark").eq(pl.lit(b.name)));
    if (!b.analyses || rows.height === 0) continue;
    const ctx = { dataDir, dataSets: loaded.dataSets };
    for (const note of b.analyses.notes?.(ctx) ?? []) {
      printWarning("runlens analyze", note);
    }
    const summary = b.analyses.summary(b.analyses.tables(rows, ctx));
    for (const [run, s] of Object.entries(summary)) {
      const r = entry(run, (s as { model?: string }).model ?? run);
      const scorer = loaded.runs.find((x) => x.run === run && x.benchmark === b.name)?.scorer;
      Object.assign(r, s, { benchmark: b.name, scorer: scorer ?? null });
    }
  }
  if (loaded.rows.height === 0) {
    printError("runlens analyze", `no scored rows in ${args.paths.join(", ")}: nothing to analyse`);
    reportLoadFailures("analyze", loaded, args.load.strict === true); // names each cause
    return 1;
  }
  const sensitivity = formatSensitivityByRun(formatSensitivity(loaded.rows));
  for (const s of loaded.runs) {
    const r = entry(s.run, s.model);
    if (r.benchmark === null) Object.assign(r, { benchmark: s.benchmark, scorer: s.scorer });
  }
  const report = [...runs.values()].sort((a, b) => a.run < b.run ? -1 : a.run > b.run ? 1 : 0)
    .map((r) => ({ ...r, format_sensitivity: sensitivity[r.run] ?? {} }));
  if (args.json) {
    const quarantine = loaded.quarantine.map((q) => ({
      file: q.file,
      line: q.line,
      reason: q.reason,
    }));
    console.log(JSON.stringify(jsonEnvelope("analyze", { runs: report, quarantine }), null, 2));
  } else console.log(text(report));
  return reportLoadFailures("analyze", loaded, args.load.strict === true);
}

/**
 * Run `runlens analyze`; returns the exit code (0 ok, 1 failure, 2 usage).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const code = await analyzeMain(["tests/fixtures/logs/mixed.jsonl", "--json"]); // prints JSON
 * assert.equal(code, 0);
 * assert.equal(await analyzeMain([]), 2); // usage: no run logs given
 * ```
 */
export function analyzeMain(args: string[]): Promise<number> {
  return runCommand(analyzeCommand, args);
}

if (import.meta.main) Deno.exit(await analyzeMain(Deno.args));
