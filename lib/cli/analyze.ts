/**
 * `runlens analyze`: subset accuracies and failure-mode analyses of BBEH run logs.
 *
 * `deno task runlens analyze <paths…> [--data DIR] [--json]` loads the logs (any format
 * `runlens score` reads), re-scores them with the official scorer and runs every analysis of
 * `bbeh/failure/`. `--json` prints `{"scorer", "runs": {<run>: {"model", "subsets",
 * "failure_modes"}}}`: `subsets` is `{task: {label: {n, correct, accuracy}}}`, `failure_modes`
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
import { parseArgs } from "node:util";
import { join } from "node:path";
import { exists, resolveDataDir } from "../core/data_dir.ts";
import { loadRuns } from "../pipeline/load.ts";
import pl from "nodejs-polars";
import { formatSensitivity, formatSensitivityByRun } from "../pipeline/format_sensitivity.ts";
import { BBEH_OFFICIAL } from "../benchmarks/bbeh/scorer.ts";
import { bbehToBbmMap } from "../benchmarks/bbeh/bbm_link.ts";
import { loadBbmDataset } from "../benchmarks/bbm/dataset.ts";
import {
  failureAnalyses,
  failureSummary,
  type MistakeLink,
  type RunFailureSummary,
} from "../benchmarks/bbeh/failure/summary.ts";

const USAGE = "usage: deno task runlens analyze <paths…> [--data DIR] [--json]";

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

function text(runs: Record<string, RunFailureSummary>): string {
  const lines: string[] = [];
  for (const [run, s] of Object.entries(runs)) {
    lines.push(`${run} (${s.model})`);
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

/** The BBM link when the data directory has BIG-Bench Mistake, else undefined. */
function mistakeLink(dataDir: string): MistakeLink | undefined {
  if (!exists(join(dataDir, "big-bench-mistake"))) return undefined;
  return { map: bbehToBbmMap(dataDir), traces: loadBbmDataset(dataDir) };
}

/**
 * Run `runlens analyze`; returns the exit code (0 ok, 1 failure, 2 usage).
 *
 * @example
 * ```ts
 * await analyzeMain(["runs/", "--json"]);
 * ```
 */
export async function analyzeMain(args: string[]): Promise<number> {
  let values, positionals;
  try {
    ({ values, positionals } = parseArgs({
      args,
      allowPositionals: true,
      options: {
        data: { type: "string" },
        json: { type: "boolean", default: false },
        help: { type: "boolean", short: "h", default: false },
      },
    }));
  } catch (e) {
    console.error(`runlens analyze: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length === 0) {
    console.error(`runlens analyze: no run logs given\n${USAGE}`);
    return 2;
  }
  try {
    const dataDir = resolveDataDir(values.data);
    const { rows } = loadRuns(positionals, dataDir);
    const link = mistakeLink(dataDir);
    if (!link) {
      console.error("runlens analyze: no big-bench-mistake/ data: first-mistake analysis skipped");
    }
    // The failure analyses are BBEH's; BBH runs (same task names) only get format sensitivity.
    const bbeh = rows.filter(pl.col("benchmark").eq(pl.lit("bbeh")));
    const runs = bbeh.height > 0 ? failureSummary(failureAnalyses(bbeh, link)) : {};
    const sensitivity = formatSensitivityByRun(formatSensitivity(rows));
    const json: Record<string, Record<string, unknown>> = {};
    for (const run of [...new Set([...Object.keys(runs), ...Object.keys(sensitivity)])].sort()) {
      json[run] = { ...runs[run], format_sensitivity: sensitivity[run] ?? {} };
    }
    if (values.json) console.log(JSON.stringify({ scorer: BBEH_OFFICIAL, runs: json }, null, 2));
    else console.log(text(runs));
    return await Promise.resolve(0);
  } catch (e) {
    console.error(`runlens analyze: ${(e as Error).message}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await analyzeMain(Deno.args));
