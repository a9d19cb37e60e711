/**
 * `runlens bbm`: the BIG-Bench Mistake data set summary and, for mistake-finding run logs, the
 * first-mistake outcome classification per model, source ("bbm" for answers naming a BBM
 * trace, "bbeh" for BBEH items) and task.
 *
 * Usage: `bbm [--data DIR] [--json] [--numbering one-based|zero-based] [load options] [runs…]`.
 * Run logs are read by the one pipeline (any format `runlens score` reads): records with
 * `task`, `trace_index` (BBM) or `example_index` (BBEH dyck_languages / word_sorting) and
 * `response`. `--numbering` states how BBM-indexed answers number steps — it chooses the
 * scorer `bbm-one-based` or `bbm-zero-based` (as `--scorer bbm=NAME` does); with logs and
 * neither, the command stops with a usage error before reading them. BBEH rows are always
 * one-based. `--json` prints the envelope of `command.ts`: `runs` holds per model `{run, model,
 * answers}`, `quarantine` the lines the load set apart and the rows that are no first-mistake
 * items, then `summary` (per-task traces), `outcomes` and `metrics` (row objects per model,
 * source and task) and `unmatched_bbeh_rows`. Exit codes: 0 ok, 1 error (missing data,
 * unreadable log, run logs without a single first-mistake answer — e.g. a BBH run folder), 2
 * usage.
 *
 * @example
 * ```sh
 * deno task runlens bbm --data ../shared/data
 * deno task runlens bbm --numbering one-based my_run.jsonl --json
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import { DATA_OPTION, resolveDataDir } from "../../core/data_dir.ts";
import { jsonEnvelope, UsageError } from "../../core/command.ts";
import { type QuarantineEntry, quarantineText, sortQuarantine } from "../../logs/quarantine.ts";
import { findMistakes } from "../mistakes.ts";
import type { BenchmarkCommand, BenchmarkLoadRequest, BenchmarkRuns } from "../types.ts";
import { loadBbmDataset } from "./dataset.ts";
import { mistakeFindingMetrics, mistakeOutcomeTable } from "./metrics.ts";
import { bbmMistakeFinding } from "./mistake_finding.ts";
import { STEP_NUMBERINGS, type StepNumbering } from "./numbering.ts";
import { numberingScorer } from "./scorers.ts";
import { bbmDatasetSummary } from "./traces.ts";

/** Tables are per model, source (bbm: BBM-indexed answers, bbeh: BBEH items) and BBM task. */
const GROUP_BY = ["model", "source", "task"];

interface BbmArgs {
  data: string | null;
  json: boolean;
  numbering: StepNumbering | undefined;
  runs: string[];
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

/** How `runlens bbm` asks for the numbering when rows have none. */
const NUMBERING_HINT = "pass --numbering one-based (Thought N) or --numbering zero-based " +
  "(or --scorer bbm=bbm-one-based|bbm-zero-based)";

/** `runlens bbm`, a command of BIG-Bench Mistake (`Benchmark.commands`). */
export const command: BenchmarkCommand<BbmArgs> = {
  name: "bbm",
  logs: "optional",
  summary: "BIG-Bench Mistake: the data set's traces per task and, for mistake-finding run " +
    "logs, the first-mistake outcomes per model, source and task.",
  usage: "[--data DIR] [--json] [--numbering one-based|zero-based] [options] [runs…]",
  description: "Run logs are read as by score: records with task, trace_index (a BBM trace) " +
    "or example_index (BBEH dyck_languages / word_sorting first-mistake items) and response. " +
    "BBEH rows always number steps from one; with run logs, --numbering (or --scorer " +
    "bbm=NAME) states how BBM-indexed answers do.",
  arguments: { "runs…": "mistake-finding run logs or folders holding them (optional)" },
  options: {
    data: DATA_OPTION,
    json: { type: "boolean", description: "print the JSON report instead of the tables" },
    numbering: {
      type: "string",
      value: "N",
      description: "how BBM-indexed answers number steps: one-based (Thought N) or zero-based; " +
        "the scorer bbm-one-based or bbm-zero-based",
      default: "none: required with run logs (unless --scorer bbm=NAME)",
    },
  },
  prints: "The traces per task of the data set; with run logs, the first-mistake answers per " +
    "model, source and task, location accuracy and detection, the rows left out and the " +
    "quarantined lines.\n" +
    "With --json: the envelope (command, runs per model with their answers, quarantine, " +
    "errors) with summary, outcomes, metrics and unmatched_bbeh_rows.",
  examples: [
    "deno task runlens bbm --data ../shared/data",
    "deno task runlens bbm --numbering one-based my_run.jsonl --json",
  ],
  failure: "the data set is missing, a log cannot be read, or the run logs hold no " +
    "first-mistake answer (e.g. a BBH run folder)",
  parse: ({ values, positionals }) => {
    const numbering = values.numbering as string | undefined;
    if (numbering !== undefined && !STEP_NUMBERINGS.includes(numbering as StepNumbering)) {
      throw new UsageError(`--numbering must be one-based or zero-based, not "${numbering}"`);
    }
    return {
      data: (values.data as string | undefined) ?? null,
      json: values.json === true,
      numbering: numbering as StepNumbering | undefined,
      runs: positionals,
    };
  },
  run: bbmRun,
};

/** First-mistake outcomes of the runs: tables per model, and the lines set apart. */
interface Classified {
  outcomes: pl.DataFrame;
  metrics: pl.DataFrame;
  quarantine: QuarantineEntry[];
  unmatched: number;
}

/** What to load: the runs, BBEH's rows too (its first-mistake items), the numbering's scorer. */
function loadRequest(opts: BbmArgs): BenchmarkLoadRequest {
  return {
    paths: opts.runs,
    with: ["bbeh"],
    scorerHint: NUMBERING_HINT,
    ...opts.numbering ? { scorer: numberingScorer(opts.numbering).name } : {},
  };
}

async function bbmRun(
  opts: BbmArgs,
  load: (request: BenchmarkLoadRequest) => Promise<BenchmarkRuns>,
): Promise<number> {
  const dataDir = resolveDataDir(opts.data);
  const summary = bbmDatasetSummary(loadBbmDataset(dataDir));
  const classified = opts.runs.length > 0
    ? classifyRuns(opts, await load(loadRequest(opts)))
    : null;
  if (opts.json) {
    console.log(JSON.stringify(bbmJson(summary, classified), null, 2));
    return 0;
  }
  console.log(`BIG-Bench Mistake traces (${dataDir})\n\n${textTable(summary)}`);
  if (classified) {
    console.log(`\nFirst-mistake answers per model and task\n\n${textTable(classified.outcomes)}`);
    console.log(`\nLocation accuracy and detection\n\n${textTable(classified.metrics)}`);
    if (classified.unmatched > 0) {
      console.log(
        `\n${classified.unmatched} row(s) are no first-mistake answers (e.g. BBEH ` +
          "word_sorting's new-alphabet half) and were left out.",
      );
    }
    if (classified.quarantine.length > 0) {
      console.log(`\nquarantine (${classified.quarantine.length} lines):`);
      console.log(quarantineText(classified.quarantine).join("\n"));
    }
  }
  return 0;
}

/** Classify the loaded runs: BBM's rows and BBEH's, each through its benchmark's hook. */
function classifyRuns(opts: BbmArgs, runs: BenchmarkRuns): Classified {
  const found = findMistakes(
    [{ benchmark: { mistakeFinding: bbmMistakeFinding }, rows: runs.rows }, ...runs.others],
    runs.context,
  );
  const setApart = [...runs.quarantine, ...found.leftOut];
  if (found.classified === null) {
    // the files not read say why themselves (on stderr): no second, vaguer reason
    if (runs.errors.length > 0) throw new Error("no mistake-finding answers read");
    throw new Error(noAnswers(opts.runs, setApart));
  }
  return {
    outcomes: mistakeOutcomeTable(found.classified, GROUP_BY),
    metrics: mistakeFindingMetrics(found.classified, GROUP_BY),
    quarantine: sortQuarantine(setApart),
    unmatched: found.leftOut.length,
  };
}

/**
 * Why paths hold no first-mistake answer (e.g. a BBH or BBEH run folder): what such an answer
 * is, the commonest reasons the lines were set apart, and where other logs go.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const bad = (line: number) => ({ file: "a.jsonl", line, reason: '"task" must be a non-empty string' });
 * assert.equal(
 *   noAnswers(["runs/"], [bad(1), bad(2)]),
 *   "no mistake-finding answers in runs/: none of its 2 lines names a BBM trace (task and " +
 *     "trace_index) or a BBEH first-mistake item (dyck_languages or word_sorting example_index); " +
 *     'lines set apart: 2 × "task" must be a non-empty string; BBH and BBEH run logs: runlens ' +
 *     "score or analyze",
 * );
 * ```
 */
export function noAnswers(paths: readonly string[], setApart: readonly QuarantineEntry[]): string {
  const counts = new Map<string, number>();
  for (const q of setApart) counts.set(q.reason, (counts.get(q.reason) ?? 0) + 1);
  const top = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 3)
    .map(([reason, n]) => `${n} × ${reason}`);
  const where = `no mistake-finding answers in ${paths.join(", ")}`;
  if (setApart.length === 0) return `${where}: no JSON line read (bbm reads .jsonl run logs)`;
  const lines = setApart.length === 1 ? "its 1 line names" : `its ${setApart.length} lines names`;
  return `${where}: none of ${lines} a BBM trace ` +
    "(task and trace_index) or a BBEH first-mistake item (dyck_languages or word_sorting " +
    `example_index)${top.length > 0 ? `; lines set apart: ${top.join("; ")}` : ""}` +
    "; BBH and BBEH run logs: runlens score or analyze";
}

/**
 * The `--json` report: one run per model (its answers classified), the data-set summary and the
 * outcome and metric tables (rows per model, source and task).
 */
function bbmJson(summary: pl.DataFrame, c: Classified | null): object {
  const outcomes = (c?.outcomes.toRecords() ?? []) as Record<string, unknown>[];
  const models = [...new Set(outcomes.map((o) => String(o.model)))].sort();
  const runs = models.map((model) => ({
    run: model,
    model,
    answers: outcomes.filter((o) => o.model === model).reduce((n, o) => n + Number(o.n), 0),
  }));
  return jsonEnvelope("bbm", { runs, quarantine: c?.quarantine ?? [] }, {
    summary: summary.toRecords(),
    outcomes,
    metrics: c?.metrics.toRecords() ?? [],
    unmatched_bbeh_rows: c?.unmatched ?? 0,
  });
}
