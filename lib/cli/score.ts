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
 * Output: a readable report (default) or the JSON report (`--json`, on stdout, in the envelope
 * of `command.ts`; the summary line then goes to stderr). Per run and task it shows how many
 * responses had no answer found by the scorer, and names the scorer to try where that share is
 * high or where the log's stored verdicts disagree (`pipeline/advice.ts`). `--rows FILE` also
 * writes one JSON line per scored row ({@link ROW_EXPORT_COLUMNS}: the question, target and
 * response texts with the answer the scorer read and its verdict). Exit codes: 0 success
 * (quarantined rows included); 1 fatal error, a file that could not be read, a run with nothing
 * scored, or (`--strict`) a run most of whose answers were not found (`load_checks.ts`); 2 usage
 * error (including an unknown scorer or one that does not apply to the logs' benchmark).
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
import pl from "nodejs-polars";
import { DATA_OPTION, resolveDataDir } from "../core/data_dir.ts";
import { responses } from "../pipeline/responses.ts";
import { withExamples } from "../pipeline/rows_frame.ts";
import { LOAD_FAILURE, LOG_PATHS, reportLoadFailures } from "./load_checks.ts";
import { type LoadedRuns, type LoadOptions, loadRuns } from "../pipeline/load.ts";
import { LOAD_OPTIONS, loadOptionsOf } from "./load_options.ts";
import { runsReport, runsText, summaryLine } from "../report/runs_text.ts";
import {
  type Command,
  jsonEnvelope,
  parseCommand,
  type ParsedArgs,
  runCommand,
  UsageError,
} from "../core/command.ts";

/**
 * Columns written by `--rows`, in order: row-schema columns under their own names, except
 * `question` (the data set's question: `input`) and `answer` (the answer the scorer read:
 * `extracted`). `response` is the raw text, read back from the log.
 */
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
  "question",
  "target",
  "response",
  "answer",
  "answer_found",
  "correct",
  "response_chars",
  "response_tokens",
  "input_chars",
  "stored_correct",
  "data_version",
] as const;

/** Export column → the row-schema column it holds (the others hold their namesake). */
export const ROW_EXPORT_RENAMED: Readonly<Record<string, string>> = {
  question: "input",
  answer: "extracted",
};

/** Rows per chunk of `--rows` (the texts of one chunk are in memory at a time). */
export const ROW_EXPORT_CHUNK = 20_000;

/** Parsed command line. */
export interface ScoreArgs {
  paths: string[];
  data: string | null;
  json: boolean;
  rows: string | null;
  /** The shared load options (`load_options.ts`). */
  load: LoadOptions;
  /** List every file and quarantined row in the text (`--verbose`). */
  verbose: boolean;
}

/** Check and convert `score`'s parsed arguments; throws {@link UsageError}. */
function toScoreArgs({ values, positionals }: ParsedArgs): ScoreArgs {
  const text = (key: string) => values[key] as string | undefined;
  const out: ScoreArgs = {
    paths: positionals,
    data: text("data") ?? null,
    json: values.json === true,
    rows: text("rows") ?? null,
    load: loadOptionsOf(values),
    verbose: values.verbose === true,
  };
  if (out.paths.length === 0) throw new UsageError("no run logs given");
  return out;
}

/**
 * Parse the arguments; returns a usage message (string) when they are wrong.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(
 *   parseScoreArgs(["a.jsonl", "--json"]),
 *   { paths: ["a.jsonl"], data: null, json: true, rows: null, load: { cache: true }, verbose: false },
 * );
 * assert.equal(parseScoreArgs(["a.jsonl", "--bogus"]), "unknown option --bogus");
 * ```
 */
export function parseScoreArgs(args: readonly string[]): ScoreArgs | string {
  try {
    return parseCommand(scoreCommand, args);
  } catch (e) {
    if (e instanceof UsageError) return e.message;
    throw e;
  }
}

/** `runlens score`. */
export const scoreCommand: Command<ScoreArgs> = {
  name: "score",
  summary: "Load run logs, re-score every row with its benchmark's official scorer (or " +
    "--scorer) and report accuracy per run and task.",
  usage: "<paths…> [--data DIR] [--json] [--rows FILE] [options]",
  description: "The format is detected per file (--format auto) and reported per run; " +
    "generic JSONL/CSV logs are read through --map. Rows whose task, example or response " +
    "cannot be established are quarantined with their reason, never dropped.",
  arguments: LOG_PATHS,
  options: {
    data: DATA_OPTION,
    json: { type: "boolean", description: "print the JSON report instead of the text" },
    rows: {
      type: "string",
      value: "FILE",
      description: "also write the scored rows to FILE as JSON lines: question, target, " +
        "response, the scorer's answer, answer_found, correct, scorer, and where each row " +
        "came from",
      default: "not written",
    },
    ...LOAD_OPTIONS,
  },
  prints: "Per run and benchmark: rows in, scored and quarantined; per task n, correct, " +
    "responses with no answer found, accuracy and its 95% interval; the benchmark's " +
    "aggregate and coverage. Then the quarantined rows with file, line and reason, advice " +
    "naming the scorer to try where most answers were not found, stored verdicts disagree " +
    "or another rule scores clearly more answers right, " +
    "and a summary line. On a terminal, a progress line on stderr while loading.\n" +
    "With --json: the JSON report on stdout (the envelope: command, runs, quarantine, errors, " +
    "then the load's own keys) and the summary line on stderr.",
  examples: [
    "deno task runlens score runs/ --json > report.json",
    "deno task runlens score a.jsonl b.csv --data ../shared/data --rows rows.jsonl",
    "deno task runlens score answers.csv.gz --map input=0,response=1,target=2,task==nycc",
    "deno task runlens score out/lm-eval/ --scorer lm-eval-get-answer",
  ],
  failure: LOAD_FAILURE,
  parse: toScoreArgs,
  run: scoreRun,
};

/**
 * Load, score and report; a scorer that does not apply to the logs is a usage error (a
 * `ScorerChoiceError` is one).
 */
async function scoreRun(parsed: ScoreArgs): Promise<number> {
  const dataDir = resolveDataDir(parsed.data);
  const loaded = await loadRuns(parsed.paths, dataDir, {
    ...parsed.load,
    responses: false, // the report never shows responses or inputs; --rows reads them in chunks
    examples: false,
    progress: true, // on stderr, only when it is a terminal
  });
  if (parsed.rows) await writeRows(parsed.rows, loaded, dataDir);
  if (parsed.json) {
    const { runs, quarantine, errors, ...rest } = runsReport(loaded);
    console.log(JSON.stringify(jsonEnvelope("score", { runs, quarantine, errors }, rest)));
    console.error(summaryLine(loaded));
  } else if (loaded.runs.length > 0 || loaded.errors.length === 0) {
    console.log(runsText(loaded, { verbose: parsed.verbose }));
  }
  // a file that could not be read, a run with nothing scored…: named on stderr, exit 1
  return reportLoadFailures("score", loaded, parsed.load.strict === true);
}

/**
 * Write the scored rows as JSON lines to `path`, {@link ROW_EXPORT_CHUNK} rows at a time:
 * each chunk's questions and targets joined from the data set and its responses read back
 * from the logs (an error names the file).
 */
async function writeRows(path: string, loaded: LoadedRuns, dataDir: string): Promise<void> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { write: true, create: true, truncate: true });
  } catch (e) {
    throw new Error(`${path}: cannot write rows (${(e as Error).message})`);
  }
  try {
    for (let at = 0; at < loaded.rows.height; at += ROW_EXPORT_CHUNK) {
      const chunk = exportChunk(loaded.rows.slice(at, ROW_EXPORT_CHUNK), loaded, dataDir);
      await file.write(new TextEncoder().encode(rowsJsonl(chunk)));
    }
  } catch (e) {
    throw new Error(`${path}: cannot write rows (${(e as Error).message})`);
  } finally {
    file.close();
  }
}

/** One chunk of rows with its texts, in the export's columns and names. */
function exportChunk(rows: pl.DataFrame, loaded: LoadedRuns, dataDir: string): pl.DataFrame {
  const texts = responses(withExamples(rows, dataDir), loaded.sources);
  return texts.select(
    ...ROW_EXPORT_COLUMNS.map((c) => pl.col(ROW_EXPORT_RENAMED[c] ?? c).alias(c)),
  );
}

/** Run `score`; returns the exit code (0 done, 1 failed, 2 usage). */
export function scoreMain(args: string[]): Promise<number> {
  return runCommand(scoreCommand, args);
}

/** The rows as JSON lines (polars returns a Buffer). */
function rowsJsonl(rows: pl.DataFrame): string {
  const out: unknown = rows.writeJSON({ format: "lines" });
  return typeof out === "string" ? out : new TextDecoder().decode(out as Uint8Array);
}

if (import.meta.main) Deno.exit(await scoreMain(Deno.args));
