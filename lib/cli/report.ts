/**
 * `runlens report <paths…> [--out DIR] [--baseline RUN] [--date DATE] [--title TEXT]
 * [--data DIR]`: score the logs and write one self-contained `report.html` (inline SVG
 * figures, data embedded, no network), `report.md` with the same tables, and every table as
 * booktabs LaTeX under `tables/` — the runs with their headline number and 95% interval, the
 * BBEH leaderboard beside the paper's models with error bars, paired comparisons (every pair of
 * runs of one benchmark, or every run against `--baseline`), the analyses that apply, an
 * example browser over every scored row (sampled, and saying so, past `--budget` characters of
 * responses) and the provenance. Deterministic: no clock unless `--date` is given.
 *
 * @example
 * ```sh
 * deno task runlens report runs/ --out report/ --baseline gpt-4o
 * ```
 * @module
 */
import { LOAD_OPTIONS, loadOptionsOf } from "./load_options.ts";
import { LOAD_FAILURE, LOG_PATHS, reportLoadFailures } from "./load_checks.ts";
import type { LoadOptions } from "../pipeline/load.ts";
import { join } from "node:path";
import { DATA_OPTION, resolveDataDir } from "../core/data_dir.ts";
import { loadRuns } from "../pipeline/load.ts";
import { buildReport } from "../report/build.ts";
import { writeReport } from "../report/write.ts";
import { DEFAULT_BUDGET_CHARS } from "../report/html/examples.ts";
import { type Command, runCommand, UsageError } from "../core/command.ts";

/** Parsed `report` arguments. */
interface ReportArgs {
  paths: string[];
  out: string;
  data: string | null;
  baseline: string | null;
  date: string | null;
  title: string | null;
  budget: number | null;
  provenance: "git" | "source";
  load: LoadOptions;
}

/** `runlens report`. */
export const reportCommand: Command<ReportArgs> = {
  name: "report",
  summary: "Write report.html (one self-contained page), report.md and LaTeX tables for run logs.",
  usage: "<paths…> [--out DIR] [--baseline RUN] [--date DATE] [--title TEXT] [options]",
  description: "The report holds the runs with their headline number and 95% interval, the " +
    "leaderboard beside the papers' models where a benchmark publishes one, paired comparisons (every pair of runs of a " +
    "benchmark, or every run against --baseline), the analyses that apply, an example browser " +
    "over every scored row (sampled past --budget characters of responses, and saying so) and " +
    "the provenance. Deterministic: no clock unless --date is given, so writing it twice gives " +
    "the same files.",
  arguments: LOG_PATHS,
  options: {
    out: { type: "string", value: "DIR", description: "output folder", default: "runlens_report" },
    baseline: {
      type: "string",
      value: "RUN",
      description: "compare every run with this one",
      default: "every pair of runs",
    },
    date: {
      type: "string",
      value: "DATE",
      description: "a date to show, as given (never the clock)",
      default: "none",
    },
    title: { type: "string", value: "TEXT", description: "page title", default: "runlens report" },
    data: DATA_OPTION,
    budget: {
      type: "string",
      value: "CHARS",
      description: "characters of responses embedded in the example browser before it samples",
      default: String(DEFAULT_BUDGET_CHARS),
    },
    provenance: {
      type: "string",
      value: "git|source",
      description: "name runlens's code by its git commit or by a digest of lib/",
      default: "git",
    },
    ...LOAD_OPTIONS,
  },
  prints: "One line naming the files written (report.html, report.md, tables/*.tex); the " +
    "failures of the load on stderr. A progress line on stderr on a terminal.",
  examples: [
    "deno task runlens report runs/ --out report/ --baseline gpt-4o",
    "deno task runlens report runs/ --date 2026-01-08 --title 'My models'",
  ],
  failure: LOAD_FAILURE + " (the report is written all the same)",
  parse: ({ values, positionals }) => {
    const text = (k: string) => (values[k] as string | undefined) ?? null;
    if (positionals.length === 0) throw new UsageError("no run logs given");
    const budget = text("budget");
    if (budget !== null && !/^[1-9][0-9]*$/.test(budget)) {
      throw new UsageError(`--budget must be a positive integer, not "${budget}"`);
    }
    const provenance = text("provenance") ?? "git";
    if (provenance !== "git" && provenance !== "source") {
      throw new UsageError(`--provenance must be git or source, not "${provenance}"`);
    }
    return {
      paths: positionals,
      out: text("out") ?? "runlens_report",
      data: text("data"),
      baseline: text("baseline"),
      date: text("date"),
      title: text("title"),
      budget: budget === null ? null : Number(budget),
      provenance,
      load: loadOptionsOf(values),
    };
  },
  run: reportRun,
};

async function reportRun(args: ReportArgs): Promise<number> {
  const dataDir = resolveDataDir(args.data);
  const loaded = await loadRuns(args.paths, dataDir, { ...args.load, progress: true });
  if (args.baseline !== null && !loaded.runs.some((r) => r.run === args.baseline)) {
    throw new UsageError(
      `no run "${args.baseline}" (runs: ${loaded.runs.map((r) => r.run).join(", ")})`,
    );
  }
  const doc = await buildReport(loaded, {
    dataDir,
    command: ["runlens report", ...Deno.args.slice(Deno.args[0] === "report" ? 1 : 0)].join(" "),
    baseline: args.baseline,
    date: args.date ?? undefined,
    title: args.title ?? undefined,
    provenance: args.provenance,
  });
  const written = writeReport(doc, args.out, { budgetChars: args.budget ?? undefined });
  console.log(`runlens report: wrote ${written.map((f) => join(args.out, f)).join(", ")}`);
  return reportLoadFailures("report", loaded, args.load.strict === true);
}

/**
 * Run `runlens report`; returns the exit code (0 ok, 1 failure, 2 usage).
 *
 * @example
 * ```ts ignore
 * await reportMain(["runs/", "--out", "report/"]);
 * ```
 */
export function reportMain(args: string[]): Promise<number> {
  return runCommand(reportCommand, args);
}

if (import.meta.main) Deno.exit(await reportMain(Deno.args));
