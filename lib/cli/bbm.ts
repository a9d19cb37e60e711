/**
 * `runlens bbm`: the BIG-Bench Mistake dataset summary and, for mistake-finding run logs, the
 * first-mistake outcome classification per model, source ("bbm" for answers naming a BBM
 * trace, "bbeh" for BBEH items) and task.
 *
 * Usage: `bbm [--data DIR] [--json] [--numbering one-based|zero-based] [runs…]`.
 * Run logs are JSONL with `task`, `trace_index` (BBM) or `example_index` (BBEH dyck_languages /
 * word_sorting), `response`, and optional `model`/`run`. `--numbering` states how BBM-indexed
 * answers number steps (required when there are such rows; BBEH rows are always one-based).
 * `--json` prints `{summary, outcomes, metrics, unmatched_bbeh_rows}` (row objects) instead of
 * text tables. Exit codes: 0 ok, 1 error (missing data, malformed log), 2 usage.
 *
 * @example
 * ```sh
 * deno run -A lib/cli/bbm.ts --data ../shared/data
 * deno run -A lib/cli/bbm.ts --numbering one-based my_run.jsonl --json
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { resolveDataDir } from "../core/data_dir.ts";
import { loadBbmDataset } from "../benchmarks/bbm/dataset.ts";
import { bbmDatasetSummary } from "../benchmarks/bbm/traces.ts";
import { loadMistakeRuns } from "../benchmarks/bbm/runs.ts";
import { STEP_NUMBERINGS, type StepNumbering } from "../benchmarks/bbm/classify.ts";
import { bbehToBbmMap } from "../benchmarks/bbeh/bbm_link.ts";
import { classifyMistakeLog } from "../benchmarks/bbeh/mistake_log.ts";
import { mistakeFindingMetrics, mistakeOutcomeTable } from "../benchmarks/bbm/metrics.ts";

/** Tables are per model, source (bbm: BBM-indexed answers, bbeh: BBEH items) and BBM task. */
const GROUP_BY = ["model", "source", "task"];

const USAGE = "usage: runlens bbm [--data DIR] [--json] [--numbering one-based|zero-based] [runs…]";

interface BbmArgs {
  data: string | null;
  json: boolean;
  numbering: StepNumbering | undefined;
  runs: string[];
}

/** Parse the arguments; throws a usage error message. */
function parseArgs(args: string[]): BbmArgs {
  const out: BbmArgs = { data: null, json: false, numbering: undefined, runs: [] };
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    const [flag, inline] = a.startsWith("--") && a.includes("=")
      ? [a.slice(0, a.indexOf("=")), a.slice(a.indexOf("=") + 1)]
      : [a, undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined) throw new Error(`${flag} needs a value`);
      return v;
    };
    if (flag === "--data") out.data = value();
    else if (flag === "--json") out.json = true;
    else if (flag === "--numbering") {
      const v = value();
      if (!STEP_NUMBERINGS.includes(v as StepNumbering)) {
        throw new Error(`--numbering must be one-based or zero-based, not "${v}"`);
      }
      out.numbering = v as StepNumbering;
    } else if (flag.startsWith("-") && flag !== "-") throw new Error(`unknown option ${flag}`);
    else out.runs.push(a);
  }
  return out;
}

/** Render a frame as an aligned text table (floats with 3 decimals, null as "–"). */
function textTable(df: pl.DataFrame): string {
  const cols = df.columns;
  const kinds = df.dtypes.map((t) => String(t));
  const isFloat = kinds.map((k) => k.includes("Float"));
  const isText = kinds.map((k) => k.includes("String") || k.includes("Utf8"));
  const cell = (v: unknown, j: number) =>
    v === null || v === undefined
      ? "–"
      : isFloat[j] && typeof v === "number"
      ? v.toFixed(3)
      : String(v);
  const rows = (df.toRecords() as Record<string, unknown>[])
    .map((r) => cols.map((c, j) => cell(r[c], j)));
  const widths = cols.map((c, j) => Math.max(c.length, ...rows.map((r) => r[j].length)));
  const line = (cells: string[]) =>
    cells.map((s, j) => (isText[j] ? s.padEnd(widths[j]) : s.padStart(widths[j]))).join("  ")
      .trimEnd();
  return [line(cols), line(widths.map((w) => "-".repeat(w))), ...rows.map(line)].join("\n");
}

/**
 * Run the `bbm` command; returns the exit code (0 ok, 1 error, 2 usage).
 *
 * @example
 * ```ts
 * const code = await bbmMain(["--data", "../shared/data", "--json"]);
 * ```
 */
export function bbmMain(args: string[]): Promise<number> {
  return Promise.resolve().then(() => bbmRun(args));
}

/** What the run logs give: outcome and metric tables (null without runs), unmatched BBEH rows. */
interface BbmResults {
  outcomes: pl.DataFrame | null;
  metrics: pl.DataFrame | null;
  unmatched: number;
}

/**
 * Classify the run logs' first-mistake answers; `{ usage }` when BBM-indexed answers come
 * without `--numbering`.
 */
function classifyRuns(
  opts: BbmArgs,
  dataDir: string,
  traces: pl.DataFrame,
): BbmResults | { usage: string } {
  if (opts.runs.length === 0) return { outcomes: null, metrics: null, unmatched: 0 };
  const runs = loadMistakeRuns(opts.runs);
  const bbmRows = runs.filter(pl.col("trace_index").isNotNull()).height;
  if (bbmRows > 0 && !opts.numbering) {
    return {
      usage: `runlens bbm: ${bbmRows} answer(s) name BBM traces (trace_index); pass ` +
        "--numbering one-based (Thought N) or --numbering zero-based",
    };
  }
  const log = classifyMistakeLog(runs, {
    traces,
    map: () => bbehToBbmMap(dataDir),
    numbering: opts.numbering,
  });
  return {
    outcomes: mistakeOutcomeTable(log.classified, GROUP_BY),
    metrics: mistakeFindingMetrics(log.classified, GROUP_BY),
    unmatched: log.unmatched.height,
  };
}

/** `--json`: `{summary, outcomes, metrics, unmatched_bbeh_rows}`. */
function printJson(summary: pl.DataFrame, r: BbmResults): void {
  console.log(JSON.stringify(
    {
      summary: summary.toRecords(),
      outcomes: r.outcomes?.toRecords() ?? [],
      metrics: r.metrics?.toRecords() ?? [],
      unmatched_bbeh_rows: r.unmatched,
    },
    null,
    2,
  ));
}

/** The text tables: the data set summary, then the outcomes and metrics of the runs. */
function printText(dataDir: string, summary: pl.DataFrame, r: BbmResults): void {
  console.log(`BIG-Bench Mistake traces (${dataDir})\n\n${textTable(summary)}`);
  if (!r.outcomes || !r.metrics) return;
  console.log(`\nFirst-mistake answers per model and task\n\n${textTable(r.outcomes)}`);
  console.log(`\nLocation accuracy and detection\n\n${textTable(r.metrics)}`);
  if (r.unmatched > 0) {
    console.log(
      `\n${r.unmatched} BBEH row(s) are not first-mistake items (e.g. word_sorting's ` +
        "new-alphabet half) and were left out.",
    );
  }
}

function bbmRun(args: string[]): number {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  let opts: BbmArgs;
  try {
    opts = parseArgs(args);
  } catch (e) {
    console.error(`runlens bbm: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  try {
    const dataDir = resolveDataDir(opts.data);
    const traces = loadBbmDataset(dataDir);
    const summary = bbmDatasetSummary(traces);
    const results = classifyRuns(opts, dataDir, traces);
    if ("usage" in results) {
      console.error(results.usage);
      return 2;
    }
    if (opts.json) printJson(summary, results);
    else printText(dataDir, summary, results);
    return 0;
  } catch (e) {
    console.error(`runlens bbm: ${(e as Error).message}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await bbmMain(Deno.args));
