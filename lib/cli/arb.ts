/**
 * `runlens arb <paths…> [--json] [--map field=column…] [--benchmark arb]`: load ARB-style run
 * logs (JSONL/CSV files, or directories searched for them), score every row by answer type and
 * print the ARB analyses: accuracy by subject and answer type, unparseable rate, error types,
 * rubric quality and human vs model rubric scores.
 *
 * `--map field=column` (repeatable, or comma-separated) reads a field from another column, e.g.
 * `--map reference=gold,id=problem_id`. `--json` prints the envelope of `command.ts`: `runs`
 * per model (`{run, model, benchmark}`), `quarantine`, then the report's keys (see
 * `lib/benchmarks/arb/report.ts`). Exit codes: 0 ok (quarantined rows included), 1 error,
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
import { loadArbLogs } from "../benchmarks/arb/load.ts";
import { arbReport, arbReportText } from "../benchmarks/arb/report.ts";
import { type Command, jsonEnvelope, parseOptions, runCommand, UsageError } from "./command.ts";

/** Parsed command line. */
export interface ArbArgs {
  paths: string[];
  json: boolean;
  map: ArbFieldMap;
}

/** `runlens arb`. */
export const arbCommand: Command<ArbArgs> = {
  name: "arb",
  summary: "ARB-style runs: score by answer type, accuracy, error types, rubric agreement: " +
    "arb <paths…> [--json] [--map field=column,…]",
  usage: "arb <paths…> [--json] [--map field=column…] [--benchmark arb]\n" +
    "  paths  ARB-style run logs (.jsonl, .csv) or directories holding them",
  options: {
    json: { type: "boolean", description: "print the JSON report instead of the tables" },
    map: {
      type: "string",
      value: "M",
      multiple: true,
      description: "read a field from another column, e.g. --map reference=gold (repeatable)",
    },
    benchmark: {
      type: "string",
      value: "arb",
      description: "only arb (accepted for symmetry with the other commands)",
    },
  },
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
  const out = arbCommand.parse(parseOptions(args, arbCommand.options));
  if (typeof out === "string") throw new UsageError(out);
  return out;
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

function arbRun(opts: ArbArgs): number {
  const report = arbReport(loadArbLogs(opts.paths, { map: opts.map }));
  if (!opts.json) {
    console.log(arbReportText(report));
    return 0;
  }
  const { quarantine, ...rest } = report;
  const models = [...new Set(report.accuracy.map((r) => String(r.model)))].sort();
  const runs = models.map((model) => ({ run: model, model, benchmark: "arb" }));
  console.log(JSON.stringify(jsonEnvelope("arb", { runs, quarantine }, rest), null, 2));
  return 0;
}

if (import.meta.main) Deno.exit(await arbMain(Deno.args));
