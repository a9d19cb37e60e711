/**
 * Open a notebook on its result: one call in its first code cell loads the runs of the logs
 * directory (`--logs DIR` / `$RUNLENS_LOGS`) restricted to the notebook's benchmarks — the
 * rows of any other benchmark are listed as skipped, never handed to its analyses — or its demo
 * runs when there are none; then writes and shows its headline table or figure, and prints
 * under it what the numbers come from (runs, rows, quarantine, advice, what was left out).
 *
 * What opens is declared in the benchmark's folder (a {@link NotebookSpec}); this module names
 * no benchmark.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import type { NotebookSpec } from "@runlens/benchmarks/notebook.ts";
 * import { OUT_ENV } from "@runlens/notebook/context.ts";
 * const out = Deno.makeTempDirSync();
 * Deno.env.set(OUT_ENV, out); // a test's figures/ and results/
 * Deno.env.set("RUNLENS_LOGS", "tests/fixtures/logs/mixed.jsonl"); // BBEH and BBH records
 * const spec: NotebookSpec<number> = {
 *   benchmarks: ["bbh"],
 *   open: ({ rows }) => ({ data: rows?.height ?? 0, headline: [] }),
 * };
 * const nb = await openNotebook(spec); // prints: skipped: 20 BBEH rows of run model-x — …
 * assert.equal(nb.data, 0); // the run's one BBH record is quarantined
 * assert.deepEqual(nb.skipped.map((s) => [s.benchmark, s.rows]), [["bbeh", 20]]);
 * Deno.env.delete("RUNLENS_LOGS");
 * Deno.env.delete(OUT_ENV);
 * Deno.removeSync(out, { recursive: true });
 * ```
 * @module
 */
import type pl from "nodejs-polars";
import { getBenchmark, logFormats } from "../benchmarks/registry.ts";
import type { HeadlineOutput, NotebookDemo, NotebookSpec } from "../benchmarks/notebook.ts";
import { count } from "../core/count.ts";
import { discover } from "../logs/discover.ts";
import { formatQuarantine } from "../logs/quarantine.ts";
import { adviceText } from "../pipeline/advice.ts";
import { benchmarkRuns } from "../pipeline/benchmark_rows.ts";
import { keepBenchmarks, type SkippedRows } from "../pipeline/keep_benchmarks.ts";
import { type LoadedRuns, loadRuns } from "../pipeline/load.ts";
import { type NotebookContext, notebookContext } from "./context.ts";

/** Quarantined rows listed under the headline (the count covers all). */
export const QUARANTINE_SHOWN = 20;

/** An opened notebook: what its later cells work on. */
export interface OpenedNotebook<T> {
  /** The notebook's context: its folders, and how it writes and shows. */
  ctx: NotebookContext;
  /** The benchmarks it analyses (registry names). */
  benchmarks: readonly string[];
  /** The runs of the notebook's benchmarks (from the logs, or the demo's); null: none. */
  loaded: LoadedRuns | null;
  /** `loaded.rows`, or null. */
  rows: pl.DataFrame | null;
  /** The runs are the demo's, generated. */
  synthetic: boolean;
  /** Rows of other benchmarks left out, per run and benchmark. */
  skipped: SkippedRows[];
  /** The spec's data. */
  data: T;
}

/** Load the notebook's runs, open it, show its headline and the notes under it. */
export async function openNotebook<T>(
  spec: NotebookSpec<T>,
  ctx: NotebookContext = notebookContext(),
): Promise<OpenedNotebook<T>> {
  const runs = await runsOf(spec, ctx);
  const rows = runs.loaded?.rows ?? null;
  const { dataDir, logsDir, hasData } = ctx;
  const load = async (paths: readonly string[]) => {
    const loaded = await loadRuns([...paths], dataDir, { benchmarks: spec.benchmarks });
    const [first, ...others] = spec.benchmarks;
    return benchmarkRuns(loaded, first, others, dataDir);
  };
  const input = { rows, synthetic: runs.synthetic, dataDir, logsDir, hasData, load };
  const opening = await spec.open(input);
  for (const out of opening.headline) await showHeadline(ctx, out);
  for (const [what, why] of opening.skips ?? []) ctx.skip(what, why);
  for (const line of [...runs.notes, ...(opening.notes ?? [])]) console.log(line);
  return { ctx, benchmarks: spec.benchmarks, ...runs, rows, data: opening.data };
}

/** "BBEH", "BBH and BBEH": the benchmarks' labels from the registry. */
export function benchmarkLabels(names: readonly string[]): string {
  const labels = names.map((n) => getBenchmark(n)?.label ?? n);
  return labels.length < 2
    ? labels.join("")
    : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
}

/**
 * The note of rows left out: "skipped: 4,260 BBH rows of run X — this notebook analyses BBEH".
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * const s = { run: "r", model: "m", benchmark: "bbh", rows: 4260, scored: 4260, quarantined: 0, files: [] };
 * assert.equal(skippedNote(s, ["bbeh"]), "skipped: 4,260 BBH rows of run r — this notebook analyses BBEH");
 * ```
 */
export function skippedNote(s: SkippedRows, benchmarks: readonly string[]): string {
  const quarantined = s.quarantined > 0 ? ` (${count(s.quarantined)} of them quarantined)` : "";
  return `skipped: ${count(s.rows)} ${benchmarkLabels([s.benchmark])} rows of run ${s.run}` +
    `${quarantined} — this notebook analyses ${benchmarkLabels(benchmarks)}`;
}

/** The runs a notebook opens on, and the notes on them. */
interface Runs {
  loaded: LoadedRuns | null;
  synthetic: boolean;
  skipped: SkippedRows[];
  notes: string[];
}

async function runsOf(spec: NotebookSpec<unknown>, ctx: NotebookContext): Promise<Runs> {
  const none: Runs = { loaded: null, synthetic: false, skipped: [], notes: [] };
  if (spec.runs === false) return none;
  const missing = (spec.needs ?? []).filter((n) => !ctx.hasData(n));
  if (missing.length > 0) {
    if (ctx.logsDir !== null || spec.demo) {
      const what = `the ${benchmarkLabels(spec.benchmarks)} runs`;
      ctx.skip(what, `needs ${missing.join(", ")} in the data directory`);
    }
    return none;
  }
  const { runs, absent } = await logRuns(spec.benchmarks, ctx);
  if (absent === null) return runs;
  if (!spec.demo) return { ...runs, notes: [...runs.notes, absent] };
  const loaded = await demoRuns(spec.demo, ctx.dataDir);
  const made = `${absent}: generated ${spec.demo.what} (${loaded.runs.length} runs)`;
  return { ...runs, loaded, synthetic: true, notes: [...runs.notes, made, ...loadNotes(loaded)] };
}

/**
 * The runs of the logs directory of `benchmarks`, with the notes on them; `absent` says why
 * there are none (null: there are).
 */
async function logRuns(
  benchmarks: readonly string[],
  ctx: NotebookContext,
): Promise<{ runs: Runs; absent: string | null }> {
  const runs: Runs = { loaded: null, synthetic: false, skipped: [], notes: [] };
  const labels = benchmarkLabels(benchmarks);
  if (ctx.logsDir === null) {
    return { runs, absent: "no logs directory given (--logs DIR or $RUNLENS_LOGS)" };
  }
  if (discover([ctx.logsDir], { formats: logFormats() }).files.length === 0) {
    return { runs, absent: `no run logs in ${ctx.logsDir}` };
  }
  const kept = keepBenchmarks(await loadRuns([ctx.logsDir], ctx.dataDir), benchmarks);
  runs.skipped = kept.skipped;
  runs.notes = [...loadNotes(kept.loaded), ...kept.skipped.map((s) => skippedNote(s, benchmarks))];
  if (!kept.loaded.runs.some((r) => benchmarks.includes(r.benchmark))) {
    return { runs, absent: `${ctx.logsDir} holds no ${labels} runs` };
  }
  return { runs: { ...runs, loaded: kept.loaded }, absent: null };
}

/** The demo's runs: its logs written to a temporary folder, loaded, and removed again. */
async function demoRuns(demo: NotebookDemo, dataDir: string): Promise<LoadedRuns> {
  const dir = await Deno.makeTempDir({ prefix: "runlens_demo_" });
  try {
    demo.write(dataDir, dir);
    return await loadRuns([dir], dataDir);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/**
 * What a load holds, as lines: runs and row counts, the advice, the first quarantined rows,
 * files not read and warnings. Nothing when it holds nothing.
 */
function loadNotes(loaded: LoadedRuns): string[] {
  const sum = (k: "rows_in" | "rows_scored" | "rows_quarantined" | "no_answer") =>
    count(loaded.runs.reduce((s, r) => s + r[k], 0));
  const noAnswer = sum("no_answer") === "0" ? "" : ` (${sum("no_answer")} with no answer found)`;
  const shown = loaded.quarantine.slice(0, QUARANTINE_SHOWN);
  const more = loaded.quarantine.length - shown.length;
  return [
    ...(loaded.runs.length === 0 ? [] : [
      `${plural(loaded.runs.length, "run")} from ${plural(loaded.files.length, "file")}: ` +
      `${plural(loaded.runs.reduce((s, r) => s + r.rows_in, 0), "row")} in, ${
        sum("rows_scored")
      } scored${noAnswer}, ` +
      `${sum("rows_quarantined")} quarantined`,
    ]),
    ...adviceText(loaded.advice).map((a) => `  ${a}`),
    ...shown.map((q) => `  quarantined: ${formatQuarantine(q)}`),
    ...(more > 0 ? [`  … and ${count(more)} more quarantined rows`] : []),
    ...loaded.errors.map((e) => `not read: ${e.file}: ${e.reason}`),
    ...loaded.warnings.map((w) => `warning: ${w}`),
  ];
}

/** "1 run", "3 files". */
const plural = (n: number, word: string) => `${count(n)} ${word}${n === 1 ? "" : "s"}`;

/** Write and show one output of a headline (a skipped one is reported as skipped). */
async function showHeadline(ctx: NotebookContext, out: HeadlineOutput): Promise<void> {
  if ("table" in out) await ctx.table(out.table, out.name, out.options);
  else if ("figure" in out) await ctx.figure(out.figure, out.name);
  else ctx.skip(out.skipped, out.why);
}
