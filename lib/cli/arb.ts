/**
 * `runlens arb <paths…> [--json] [--map field=column…] [--benchmark arb]`: load ARB-style run
 * logs (JSONL/CSV files, or directories searched for them), score every row by answer type and
 * print the ARB analyses: accuracy by subject and answer type, unparseable rate, error types,
 * rubric quality and human vs model rubric scores.
 *
 * `--map field=column` (repeatable, or comma-separated) reads a field from another column, e.g.
 * `--map reference=gold,id=problem_id`. `--json` prints the envelope of `command.ts`: `runs`
 * per model (`{run, model, benchmark}`), `quarantine`, then the report's keys (see
 * `lib/benchmarks/arb/report.ts`). Files that are not ARB-style logs (a record without
 * `subject` and `answer_type`, nor benchmark "arb") are left out and named on stderr. Exit
 * codes: 0 ok (quarantined rows included), 1 error (no ARB-style log, or no row scored),
 * 2 usage.
 *
 * @example
 * ```sh
 * deno run -A lib/cli/arb.ts tests/fixtures/arb/illustrative --json
 * deno task runlens arb runs/arb.csv --map reference=gold
 * ```
 * @module
 */
import { type ArbFieldMap, parseFieldMap } from "../benchmarks/arb/fields.ts";
import { isArbLog, loadArbLogs } from "../benchmarks/arb/load.ts";
import { filesOf } from "../logs/discover.ts";
import { arbReport, arbReportText } from "../benchmarks/arb/report.ts";
import {
  type Command,
  jsonEnvelope,
  parseCommand,
  runCommand,
  UsageError,
} from "../core/command.ts";
import { printError, printWarning } from "../core/terminal.ts";

/** Parsed command line. */
export interface ArbArgs {
  paths: string[];
  json: boolean;
  map: ArbFieldMap;
}

/** `runlens arb`. */
export const arbCommand: Command<ArbArgs> = {
  name: "arb",
  summary: "ARB-style runs: score every row by its answer type and report accuracy, " +
    "unparseable rate, error types and rubric agreement.",
  usage: "<paths…> [--json] [--map field=column…] [--benchmark arb]",
  description: "Files that are not ARB-style logs (no record with subject and answer_type, nor " +
    'benchmark "arb") are left out and named on stderr.',
  arguments: { "paths…": "ARB-style run logs (.jsonl, .csv) or folders holding them" },
  options: {
    json: { type: "boolean", description: "print the JSON report instead of the tables" },
    map: {
      type: "string",
      value: "M",
      multiple: true,
      description: "read a field from another column, e.g. --map reference=gold,id=problem_id " +
        "(repeatable, or comma-separated)",
      default: "each field from its own column",
    },
    benchmark: {
      type: "string",
      value: "arb",
      description: "only arb (accepted for symmetry with the other commands)",
      default: "arb",
    },
  },
  prints: "Accuracy by subject and answer type, the unparseable rate, error types, rubric " +
    "quality and human vs model rubric scores, then the quarantined rows.\n" +
    "With --json: the envelope (command, runs per model, quarantine, errors) with the report's " +
    "keys (lib/benchmarks/arb/report.ts).",
  examples: [
    "deno task runlens arb tests/fixtures/arb/illustrative --json",
    "deno task runlens arb runs/arb.csv --map reference=gold",
  ],
  failure: "the paths hold no ARB-style log, or no row could be scored",
  parse: ({ values, positionals }) => {
    const benchmark = values.benchmark as string | undefined;
    if (benchmark !== undefined && benchmark !== "arb") {
      throw new UsageError(`runlens arb reads ARB logs only (--benchmark ${benchmark})`);
    }
    if (positionals.length === 0) throw new UsageError("no run logs given");
    const maps = ((values.map as string[] | undefined) ?? [])
      .flatMap((m) => m.split(",")).filter((m) => m.trim() !== "");
    let map: ArbFieldMap;
    try {
      map = parseFieldMap(maps);
    } catch (e) {
      throw new UsageError((e as Error).message);
    }
    return { paths: positionals, json: values.json === true, map };
  },
  run: arbRun,
};

/**
 * Parse the arguments; throws a usage error message.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * assert.deepEqual(
 *   parseArbArgs(["a.csv", "--map", "reference=gold"]),
 *   { paths: ["a.csv"], json: false, map: { reference: "gold" } },
 * );
 * assert.throws(() => parseArbArgs(["a.csv", "--benchmark", "bbh"]), /reads ARB logs only/);
 * ```
 */
export function parseArbArgs(args: readonly string[]): ArbArgs {
  return parseCommand(arbCommand, args);
}

/**
 * Run the `arb` command; returns the exit code (0 ok, 1 error, 2 usage).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const code = await arbMain(["tests/fixtures/arb/illustrative", "--json"]); // prints the report
 * assert.equal(code, 0);
 * ```
 */
export function arbMain(args: string[]): Promise<number> {
  return runCommand(arbCommand, args);
}

/**
 * Score the ARB-style logs among the paths' files and report; files that are not ARB-style
 * logs (a BBH or BBEH run) are named once on stderr and left out, and paths holding none, or
 * rows none of which could be scored, are an error (exit 1).
 */
function arbRun(opts: ArbArgs): number {
  const files = filesOf(opts.paths, [".jsonl", ".csv"]);
  const arb = files.filter((f) => isArbLog(f, opts.map));
  const others = files.filter((f) => !arb.includes(f));
  if (arb.length === 0) {
    const found = files.length === 0
      ? "no .jsonl or .csv file"
      : `none of its ${files.length} .jsonl/.csv file${files.length === 1 ? " is" : "s is"} ` +
        "an ARB-style log";
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
  const report = arbReport(loadArbLogs(arb, { map: opts.map }));
  if (!opts.json) console.log(arbReportText(report));
  else {
    const { quarantine, ...rest } = report;
    const models = [...new Set(report.accuracy.map((r) => String(r.model)))].sort();
    const runs = models.map((model) => ({ run: model, model, benchmark: "arb" }));
    console.log(JSON.stringify(jsonEnvelope("arb", { runs, quarantine }, rest), null, 2));
  }
  if (report.rows_scored > 0) return 0;
  printError("runlens arb", `no row of ${report.rows_in} could be scored (see the quarantine)`);
  return 1;
}

/** What makes a log ARB-style, and where other logs go. */
const ARB_SHAPE = 'an ARB record has "subject" and "answer_type" fields (--map reads them ' +
  'from other columns) or benchmark "arb"; BBH and BBEH logs: runlens score or analyze';

if (import.meta.main) Deno.exit(await arbMain(Deno.args));
