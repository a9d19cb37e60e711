/**
 * `runlens score <paths…> [--data DIR] [--json] [--rows FILE] [--format F] [--map M]
 * [--scorer NAME]`: load run logs (the canonical `.jsonl`/`.csv` format, lm-eval `--log_samples` files, inspect_ai
 * `.eval`/`.json` logs, OpenCompass predictions/results, mcpbr `results.json`, openai/evals
 * record logs, any of them gzip-compressed; generic JSONL/CSV through `--map`; files, or
 * directories searched for them), re-score every BBEH and BBH row — with the benchmark's
 * official rule (`bbeh-official`; for BBH the release's CoT rule `bbh-release-cot`, the one
 * that reproduces the published accuracies) or the registered scorer named by `--scorer`
 * (`stored` keeps the log's own verdicts) — and report per run and benchmark, with the
 * agreement between the log's stored verdicts and the re-score. The format is detected per
 * file (`--format auto`) and reported per run. On a terminal, a progress line shows on stderr.
 *
 * Output: a readable report (default) or the JSON report (`--json`, on stdout; the summary
 * line then goes to stderr). `--rows FILE` also writes one JSON line per scored row.
 * Exit codes: 0 success (quarantined rows included), 1 fatal error, 2 usage error (including an
 * unknown scorer or one that does not apply to the logs' benchmark).
 *
 * @example
 * ```sh
 * deno task runlens score runs/ --json > report.json
 * deno task runlens score a.jsonl b.csv --data ../shared/data --rows rows.jsonl
 * deno task runlens score answers.csv.gz --map input=0,response=1,target=2,task==nycc
 * deno task runlens score out/lm-eval/ --scorer lm-eval-get-answer
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import { resolveDataDir } from "../core/data_dir.ts";
import { READER_FORMATS, type ReaderFormat } from "../logs/detect.ts";
import { type ColumnMap, parseColumnMap } from "../logs/mapped.ts";
import { runsReport, runsText, summaryLine } from "../pipeline/summary_text.ts";
import { checkScorerName, loadRuns, ScorerChoiceError } from "../pipeline/load.ts";
import { scoredBenchmarks } from "../benchmarks/registry.ts";
import { SCORERS } from "../benchmarks/registry.ts";

const USAGE = "usage: deno task runlens score <paths…> [--data DIR] [--json] [--rows FILE]\n" +
  "                                  [--format auto|NAME] [--map field=col,…] [--scorer NAME]\n" +
  "                                  [--lm-eval-filter NAME]\n" +
  "  paths      run logs (.jsonl, .csv, lm-eval samples, inspect_ai .eval/.json, OpenCompass\n" +
  "             predictions/results, mcpbr results.json, openai/evals .log; .gz too) or\n" +
  "             directories holding them\n" +
  "  --data     data directory (default: $RUNLENS_DATA, else .runlens/data)\n" +
  "  --json     print the JSON report instead of the table\n" +
  "  --rows     also write the scored rows to FILE as JSON lines\n" +
  "  --format   auto (default: detect per file) or one of\n" +
  `             ${READER_FORMATS.join(", ")}\n` +
  "  --map      read JSONL/CSV through a column mapping: field=<n> (0-based position; positions\n" +
  "             only = CSV without header), field=<name> (column or key; JSONL: dotted path),\n" +
  "             field==<text> (literal), e.g. input=0,response=1,target=2,task==nycc\n" +
  `  --scorer   the scoring rule for every row (default: ${
    scoredBenchmarks().map((b) => `${b.name} ${b.defaultScorer}`).join(", ")
  }):\n` +
  SCORERS.map((s) => `             ${s.name.padEnd(20)} (${s.benchmarks.join(", ")})`).join("\n") +
  "\n  --lm-eval-filter  lm-eval logs with several filters per response (one line each): the\n" +
  "             filter whose lines are kept and whose stored verdicts are compared (default:\n" +
  "             the scorer's own filter, e.g. lm-eval-strict → strict-match, else each file's\n" +
  "             first); the other filters' lines are quarantined as repeats of the response";

/** Columns written by `--rows`, in order. */
export const ROW_EXPORT_COLUMNS = [
  "run",
  "model",
  "benchmark",
  "scorer",
  "task",
  "example_index",
  "epoch",
  "source_file",
  "source_line",
  "extracted",
  "correct",
  "response_chars",
  "response_tokens",
  "input_chars",
  "stored_correct",
] as const;

/** Parsed command line. */
export interface ScoreArgs {
  paths: string[];
  data: string | null;
  json: boolean;
  rows: string | null;
  /** `--format` when given (`auto` or a reader format). */
  format?: ReaderFormat | "auto";
  /** `--map` when given. */
  map?: ColumnMap;
  /** `--scorer` when given (a registered name). */
  scorer?: string;
  /** `--lm-eval-filter` when given. */
  lmEvalFilter?: string;
}

/**
 * Parse the arguments; returns a usage message (string) when they are wrong.
 *
 * @example
 * ```ts
 * parseScoreArgs(["a.jsonl", "--json"]); // { paths: ["a.jsonl"], data: null, json: true, rows: null }
 * ```
 */
export function parseScoreArgs(args: readonly string[]): ScoreArgs | string {
  const out: ScoreArgs = { paths: [], data: null, json: false, rows: null };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i];
    const [flag, inline] = arg.startsWith("--") && arg.includes("=")
      ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
      : [arg, undefined];
    if (flag === "--json" && inline === undefined) out.json = true;
    else if (
      flag === "--data" || flag === "--rows" || flag === "--format" || flag === "--map" ||
      flag === "--scorer" || flag === "--lm-eval-filter"
    ) {
      const value = inline ?? args[++i];
      if (value === undefined || value === "") return `${flag} needs a value`;
      if (flag === "--format") {
        if (value !== "auto" && !(READER_FORMATS as readonly string[]).includes(value)) {
          return `unknown --format ${value} (auto, ${READER_FORMATS.join(", ")})`;
        }
        out.format = value as ReaderFormat | "auto";
      } else if (flag === "--scorer") {
        try {
          checkScorerName(value);
        } catch (e) {
          return (e as Error).message;
        }
        out.scorer = value;
      } else if (flag === "--lm-eval-filter") {
        out.lmEvalFilter = value;
      } else if (flag === "--map") {
        try {
          out.map = parseColumnMap(value);
        } catch (e) {
          return (e as Error).message;
        }
      } else out[flag === "--data" ? "data" : "rows"] = value;
    } else if (arg.startsWith("-") && arg !== "-") return `unknown option ${arg}`;
    else out.paths.push(arg);
  }
  if (out.paths.length === 0) return "no run logs given";
  if (out.format?.startsWith("mapped-") && !out.map) return `--format ${out.format} needs --map`;
  return out;
}

/** Run `score`; returns the exit code. */
export async function scoreMain(args: string[]): Promise<number> {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  const parsed = parseScoreArgs(args);
  if (typeof parsed === "string") {
    console.error(`runlens score: ${parsed}\n${USAGE}`);
    return 2;
  }
  try {
    const loaded = loadRuns(parsed.paths, resolveDataDir(parsed.data), {
      format: parsed.format,
      map: parsed.map,
      scorer: parsed.scorer,
      lmEvalFilter: parsed.lmEvalFilter,
      responses: false, // the report and --rows never show responses: drop them early
      progress: true, // on stderr, only when it is a terminal
    });
    if (parsed.rows) {
      const rows = loaded.rows.select(...ROW_EXPORT_COLUMNS);
      try {
        await Deno.writeTextFile(parsed.rows, rows.height > 0 ? rowsJsonl(rows) : "");
      } catch (e) {
        throw new Error(`${parsed.rows}: cannot write rows (${(e as Error).message})`);
      }
    }
    if (parsed.json) {
      console.log(JSON.stringify(runsReport(loaded)));
      console.error(summaryLine(loaded));
    } else {
      console.log(runsText(loaded));
    }
    return 0;
  } catch (e) {
    if (e instanceof ScorerChoiceError) {
      console.error(`runlens score: ${e.message}\n${USAGE}`);
      return 2;
    }
    console.error(`runlens score: ${(e as Error).message}`);
    return 1;
  }
}

/** The rows as JSON lines (polars returns a Buffer). */
function rowsJsonl(rows: pl.DataFrame): string {
  const out: unknown = rows.writeJSON({ format: "lines" });
  return typeof out === "string" ? out : new TextDecoder().decode(out as Uint8Array);
}
