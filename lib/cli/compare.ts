/**
 * `runlens compare <paths…> [--a RUN --b RUN | --baseline RUN] [--data DIR] [--json]`: paired
 * comparisons of runs on the same examples (`lib/pipeline/compare.ts`): per task and overall
 * the accuracy difference A − B with its paired 95% interval, McNemar's exact p-value,
 * Holm-adjusted p-values across tasks and the minimum detectable difference at 80% power.
 * Which runs: `--a` and `--b`; else every run against `--baseline`; else every pair of the
 * runs found (so `runlens compare a.jsonl b.jsonl` compares the two runs of two logs).
 * `--json` prints the envelope of `command.ts` with `comparisons`.
 *
 * @example
 * ```sh
 * deno task runlens compare runs/model_a.jsonl runs/model_b.jsonl
 * deno task runlens compare runs/ --baseline gpt-4o --json
 * ```
 * @module
 */
import { LOAD_OPTIONS, loadOptionsOf } from "./load_options.ts";
import type { LoadOptions } from "../pipeline/load.ts";
import { resolveDataDir } from "../core/data_dir.ts";
import { type PairedRow, runComparer, type RunComparison } from "../pipeline/compare.ts";
import { loadRuns } from "../pipeline/load.ts";
import { type Command, jsonEnvelope, runCommand, UsageError } from "./command.ts";

/** Parsed `compare` arguments. */
interface CompareArgs {
  paths: string[];
  data: string | null;
  json: boolean;
  a: string | null;
  b: string | null;
  baseline: string | null;
  load: LoadOptions;
}

/** `runlens compare`. */
export const compareCommand: Command<CompareArgs> = {
  name: "compare",
  summary: "paired comparison of runs on the same examples: compare <paths…> " +
    "[--a RUN --b RUN | --baseline RUN] [--json]",
  usage: "compare <paths…> [--a RUN --b RUN | --baseline RUN] [--data DIR] [--json]",
  options: {
    a: { type: "string", value: "RUN", description: "run A (with --b)" },
    b: { type: "string", value: "RUN", description: "run B (with --a)" },
    baseline: { type: "string", value: "RUN", description: "compare every other run with it" },
    data: { type: "string", value: "DIR", description: "data directory" },
    json: { type: "boolean", description: "print the JSON report" },
    ...LOAD_OPTIONS,
  },
  parse: ({ values, positionals }) => {
    const text = (k: string) => (values[k] as string | undefined) ?? null;
    if (positionals.length === 0) throw new UsageError("no run logs given");
    if ((text("a") === null) !== (text("b") === null)) {
      throw new UsageError("--a and --b go together");
    }
    if (text("a") !== null && text("baseline") !== null) {
      throw new UsageError("give --a/--b or --baseline, not both");
    }
    return {
      paths: positionals,
      data: text("data"),
      json: values.json === true,
      a: text("a"),
      b: text("b"),
      baseline: text("baseline"),
      load: loadOptionsOf(values),
    };
  },
  run: compareRun,
};

/** The pairs of runs to compare. */
function pairsOf(runs: string[], args: CompareArgs): [string, string][] {
  const known = (r: string) => {
    if (!runs.includes(r)) throw new UsageError(`no run "${r}" (runs: ${runs.join(", ")})`);
    return r;
  };
  if (args.a !== null) return [[known(args.a), known(args.b!)]];
  if (args.baseline !== null) {
    const base = known(args.baseline);
    return runs.filter((r) => r !== base).map((r) => [r, base]);
  }
  if (runs.length < 2) throw new UsageError(`need two runs to compare, found ${runs.length}`);
  return runs.flatMap((a, i) => runs.slice(i + 1).map((b): [string, string] => [a, b]));
}

async function compareRun(args: CompareArgs): Promise<number> {
  const loaded = await loadRuns(args.paths, resolveDataDir(args.data), args.load);
  const runs = [...new Set(loaded.runs.map((r) => r.run))].sort();
  const compare = runComparer(loaded.rows);
  const comparisons = pairsOf(runs, args).flatMap(([a, b]) => compare(a, b));
  if (args.json) {
    const quarantine = loaded.quarantine.map((q) => ({
      file: q.file,
      line: q.line,
      reason: q.reason,
    }));
    const summaries = loaded.runs.map((r) => ({
      run: r.run,
      model: r.model,
      benchmark: r.benchmark,
      scorer: r.scorer,
      rows_scored: r.rows_scored,
    }));
    console.log(JSON.stringify(
      jsonEnvelope("compare", { runs: summaries, quarantine }, { comparisons }),
      null,
      2,
    ));
  } else {
    // every number says which scorer produced it (a user's rule shows under its own name)
    const scorerOf = (c: RunComparison) =>
      loaded.runs.find((r) => r.run === c.run_a && r.benchmark === c.benchmark)?.scorer;
    console.log(comparisons.map((c) => comparisonText(c, scorerOf(c))).join("\n\n"));
  }
  return 0;
}

const num = (x: number | null | undefined, d = 1) =>
  x === null || x === undefined ? "—" : x.toFixed(d);
const p = (x: number | null | undefined) =>
  x === null || x === undefined ? "—" : x < 0.001 ? "<0.001" : x.toFixed(3);

/** One comparison as a text table; `scorer`: the rule that scored both runs' rows. */
export function comparisonText(c: RunComparison, scorer?: string): string {
  const width = Math.max(7, ...c.tasks.map((t) => t.scope.length));
  const line = (r: PairedRow) => {
    const diff = `${num(r.diff)} [${num(r.ci_low)}, ${num(r.ci_high)}]`;
    return `  ${r.scope.padEnd(width)}  ${String(r.n_paired).padStart(5)}  ` +
      `${num(r.acc_a).padStart(6)}  ${num(r.acc_b).padStart(6)}  ${diff.padEnd(22)}  ` +
      `${p(r.p_value).padStart(7)}  ${p(r.p_holm).padStart(7)}  ${num(r.mdd).padStart(5)}`;
  };
  return [
    `${c.run_a} vs ${c.run_b} (${c.benchmark}): ${c.overall.n_paired} paired examples; ` +
    `unpaired: ${c.unpaired_a} only in ${c.run_a}, ${c.unpaired_b} only in ${c.run_b}` +
    (scorer ? `; scorer ${scorer}` : ""),
    `  ${"task".padEnd(width)}  ${"n".padStart(5)}  ${"acc A".padStart(6)}  ${
      "acc B".padStart(6)
    }  ` +
    `${"A − B [95% CI]".padEnd(22)}  ${"p".padStart(7)}  ${"p Holm".padStart(7)}  ${
      "MDD".padStart(5)
    }`,
    ...c.tasks.map(line),
    line(c.overall),
    "  p: McNemar's exact test on the examples only one run got right; p Holm: adjusted " +
    "across tasks; MDD: minimum detectable difference at 80% power (percentage points).",
  ].join("\n");
}

/**
 * Run `runlens compare`; returns the exit code (0 ok, 1 failure, 2 usage).
 *
 * @example
 * ```ts ignore
 * await compareMain(["a.jsonl", "b.jsonl"]);
 * ```
 */
export function compareMain(args: string[]): Promise<number> {
  return runCommand(compareCommand, args);
}

if (import.meta.main) Deno.exit(await compareMain(Deno.args));
