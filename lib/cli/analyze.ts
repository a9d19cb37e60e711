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
 * ci_high}` (percent, 95% Wilson). Without `--json`, a short table of the headline shares.
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
import { benchmarks } from "../benchmarks/registry.ts";
import { resolveDataDir } from "../core/data_dir.ts";
import { formatSensitivity, formatSensitivityByRun } from "../pipeline/format_sensitivity.ts";
import { loadRuns } from "../pipeline/load.ts";
import { type Command, jsonEnvelope, runCommand, UsageError } from "./command.ts";

/** Headline keys of the text output. */
const HEADLINE = [
  "boardgame_qa.unknown_share",
  "object_counting.over_count_share",
  "object_counting.under_count_share",
  "object_properties.undetermined_share",
  "dyck_languages.early_flag_share",
  "dyck_languages.missed_first_share",
  "temporal_sequence.longest_only_accuracy",
  "no_answer_share.shuffled_objects",
];

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

function text(runs: RunAnalyses[]): string {
  const lines: string[] = [];
  for (const s of runs) {
    if (!s.failure_modes) continue;
    lines.push(`${s.run} (${s.model})`);
    for (const key of HEADLINE) {
      const v = s.failure_modes[key];
      if (!v) continue;
      const share = v.share === null ? "–" : `${v.share.toFixed(1)}%`;
      const ci = v.ci_low === null ? "" : ` [${v.ci_low.toFixed(1)}, ${v.ci_high!.toFixed(1)}]`;
      lines.push(`  ${key.padEnd(42)} ${share.padStart(6)}${ci}  (${v.count}/${v.n})`);
    }
  }
  return lines.join("\n");
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
  summary:
    "subset accuracies and failure modes of BBEH runs: analyze <paths…> [--data DIR] [--json]",
  usage: "analyze <paths…> [--data DIR] [--json]",
  options: {
    data: { type: "string", value: "DIR", description: "data directory" },
    json: { type: "boolean", description: "print the JSON report" },
    ...LOAD_OPTIONS,
  },
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
    for (const note of b.analyses.notes?.({ dataDir }) ?? []) {
      console.error(`runlens analyze: ${note}`);
    }
    const summary = b.analyses.summary(b.analyses.tables(rows, { dataDir }));
    for (const [run, s] of Object.entries(summary)) {
      const r = entry(run, (s as { model?: string }).model ?? run);
      const scorer = loaded.runs.find((x) => x.run === run && x.benchmark === b.name)?.scorer;
      Object.assign(r, s, { benchmark: b.name, scorer: scorer ?? null });
    }
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
  return 0;
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
