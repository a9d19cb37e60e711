/**
 * `runlens arb <paths…> [--json] [--map field=column…] [load options]`: read ARB-style run
 * logs through the one pipeline (any format `runlens score` reads; JSONL and CSV as ARB's
 * authors and users write them), score every row by answer type (`scoring.ts`) and print the
 * ARB analyses: accuracy by subject and answer type, unparseable rate, error types, rubric
 * quality and human vs model rubric scores (`report.ts`).
 *
 * `--map field=column` (repeatable, or comma-separated) reads a field from another column, e.g.
 * `--map reference=gold,id=problem_id`: ARB's fields are record fields of the load (`scoring.ts`
 * lists them and their other names). `--json` prints the envelope of `core/command.ts`: `runs`
 * per model (`{run, model, benchmark}`), `quarantine`, `errors`, then the report's keys. Files
 * that are not ARB-style logs (their records carry no `subject` and `answer_type`, and none of
 * their rows is ARB's) are left out and named on stderr. Exit codes: 0 ok (quarantined rows
 * included), 1 error (no ARB-style log, no row scored, a file that could not be read), 2 usage.
 *
 * @example
 * ```sh
 * deno task runlens arb tests/fixtures/arb/illustrative --json
 * deno task runlens arb runs/arb.csv --map reference=gold
 * ```
 * @module
 */
import { jsonEnvelope, UsageError } from "../../core/command.ts";
import { printError, printWarning } from "../../core/terminal.ts";
import type { BenchmarkCommand, BenchmarkLoadRequest, BenchmarkRuns } from "../types.ts";
import { arbReport, arbReportText } from "./report.ts";
import { arbLogOf } from "./runs.ts";

/** Parsed command line (the load options are the CLI's). */
interface ArbArgs {
  paths: string[];
  json: boolean;
}

/** `runlens arb`, a command of ARB (`Benchmark.commands`). */
export const command: BenchmarkCommand<ArbArgs> = {
  name: "arb",
  logs: "required",
  summary: "ARB-style runs: score every row by its answer type and report accuracy, " +
    "unparseable rate, error types and rubric agreement.",
  usage: "<paths…> [--json] [--map field=column…] [options]",
  description: "Logs are read as by score; ARB's fields (id, subject, answer_type, reference, " +
    "question, choices, the annotations) are --map keys. Files that are not ARB-style logs " +
    "(no record with subject and answer_type) are left out and named on stderr.",
  arguments: { "paths…": "ARB-style run logs (.jsonl, .csv, …) or folders holding them" },
  options: {
    json: { type: "boolean", description: "print the JSON report instead of the tables" },
  },
  prints: "Accuracy by subject and answer type, the unparseable rate, error types, rubric " +
    "quality and human vs model rubric scores, then the quarantined rows.\n" +
    "With --json: the envelope (command, runs per model, quarantine, errors) with the report's " +
    "keys (lib/benchmarks/arb/report.ts).",
  examples: [
    "deno task runlens arb tests/fixtures/arb/illustrative --json",
    "deno task runlens arb runs/arb.csv --map reference=gold",
  ],
  failure: "the paths hold no ARB-style log, no row could be scored, or a file cannot be read",
  parse: ({ values, positionals }) => {
    const other = ((values.benchmark as string[] | undefined) ?? []).find((b) => b !== "arb");
    if (other !== undefined) {
      throw new UsageError(`runlens arb reads ARB logs only (--benchmark ${other})`);
    }
    if (positionals.length === 0) throw new UsageError("no run logs given");
    return { paths: positionals, json: values.json === true };
  },
  run: arbRun,
};

/** What makes a log ARB-style, and where other logs go. */
const ARB_SHAPE = 'an ARB record has "subject" and "answer_type" fields (--map reads them ' +
  "from other columns); BBH and BBEH logs: runlens score or analyze";

/**
 * Score the ARB-style logs among the paths' files and report; files that are not ARB-style
 * logs (a BBH or BBEH run) are named once on stderr and left out, and paths holding none, or
 * rows none of which could be scored, are an error (exit 1).
 */
async function arbRun(
  opts: ArbArgs,
  load: (request: BenchmarkLoadRequest) => Promise<BenchmarkRuns>,
): Promise<number> {
  const runs = await load({ paths: opts.paths });
  const { log, others } = arbLogOf(runs);
  if (log.files.length === 0) {
    const n = runs.files.length;
    const found = n === 0
      ? "no log file read"
      : `none of its ${n} log file${n === 1 ? " is" : "s is"} an ARB-style log`;
    printError("runlens arb", `no ARB rows in ${opts.paths.join(", ")}: ${found}; ${ARB_SHAPE}`);
    return 1;
  }
  if (others.length > 0) {
    const shown = others.slice(0, 3).join(", ") + (others.length > 3 ? ", …" : "");
    printWarning(
      "runlens arb",
      `left out ${others.length} file${others.length === 1 ? "" : "s"} that ` +
        `${others.length === 1 ? "is" : "are"} not ARB-style (${shown}); ${ARB_SHAPE}`,
    );
  }
  const report = arbReport(log);
  if (!opts.json) console.log(arbReportText(report));
  else {
    const { quarantine, ...rest } = report;
    const models = [...new Set(report.accuracy.map((r) => String(r.model)))].sort();
    const runsOut = models.map((model) => ({ run: model, model, benchmark: "arb" }));
    const parts = { runs: runsOut, quarantine, errors: [...runs.errors] };
    console.log(JSON.stringify(jsonEnvelope("arb", parts, rest), null, 2));
  }
  if (report.rows_scored > 0) return 0;
  printError("runlens arb", `no row of ${report.rows_in} could be scored (see the quarantine)`);
  return 1;
}
