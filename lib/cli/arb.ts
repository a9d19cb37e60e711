/**
 * `runlens arb <paths…> [--json] [--map field=column…] [--benchmark arb]`: load ARB-style run
 * logs (JSONL/CSV files, or directories searched for them), score every row by answer type and
 * print the ARB analyses: accuracy by subject and answer type, unparseable rate, error types,
 * rubric quality and human vs model rubric scores.
 *
 * `--map field=column` (repeatable, or comma-separated) reads a field from another column, e.g.
 * `--map reference=gold,id=problem_id`. `--json` prints the report object (see
 * `lib/benchmarks/arb/report.ts`). Exit codes: 0 ok (quarantined rows included), 1 error, 2 usage.
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

const USAGE =
  "usage: deno task runlens arb <paths…> [--json] [--map field=column…] [--benchmark arb]\n" +
  "  paths        ARB-style run logs (.jsonl, .csv) or directories holding them\n" +
  "  --json       print the JSON report instead of the tables\n" +
  "  --map        read a field from another column, e.g. --map reference=gold (repeatable)\n" +
  "  --benchmark  only arb (accepted for symmetry with the other commands)";

/** Parsed command line. */
export interface ArbArgs {
  paths: string[];
  json: boolean;
  map: ArbFieldMap;
}

/**
 * Parse the arguments; throws a usage error message.
 *
 * @example
 * ```ts
 * parseArbArgs(["a.csv", "--map", "reference=gold"]); // { paths: ["a.csv"], json: false, map: { reference: "gold" } }
 * ```
 */
export function parseArbArgs(args: readonly string[]): ArbArgs {
  const paths: string[] = [], maps: string[] = [];
  let json = false;
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
    if (flag === "--json") json = true;
    else if (flag === "--map") maps.push(...value().split(",").filter((s) => s.trim() !== ""));
    else if (flag === "--benchmark") {
      const v = value();
      if (v !== "arb") throw new Error(`runlens arb reads ARB logs only (--benchmark ${v})`);
    } else if (flag.startsWith("-") && flag !== "-") throw new Error(`unknown option ${flag}`);
    else paths.push(a);
  }
  if (paths.length === 0) throw new Error("no run logs given");
  return { paths, json, map: parseFieldMap(maps) };
}

/**
 * Run the `arb` command; returns the exit code (0 ok, 1 error, 2 usage).
 *
 * @example
 * ```ts
 * const code = await arbMain(["runs/arb/", "--json"]);
 * ```
 */
export function arbMain(args: string[]): Promise<number> {
  return Promise.resolve().then(() => arbRun(args));
}

function arbRun(args: string[]): number {
  if (args.includes("--help") || args.includes("-h")) {
    console.log(USAGE);
    return 0;
  }
  let opts: ArbArgs;
  try {
    opts = parseArbArgs(args);
  } catch (e) {
    console.error(`runlens arb: ${(e as Error).message}\n${USAGE}`);
    return 2;
  }
  try {
    const report = arbReport(loadArbLogs(opts.paths, { map: opts.map }));
    console.log(opts.json ? JSON.stringify(report, null, 2) : arbReportText(report));
    return 0;
  } catch (e) {
    console.error(`runlens arb: ${(e as Error).message}`);
    return 1;
  }
}

if (import.meta.main) Deno.exit(await arbMain(Deno.args));
