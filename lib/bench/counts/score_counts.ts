/**
 * Issue 26, design (c), a measured prototype (not the default engine): score a load with the
 * same reading, checking, identifying and scoring as `runlens score` (`engine.ts` planLoad,
 * units, `scoreUnitSafely` in a {@link WorkerPool}), but let each Worker reduce a unit's rows
 * at once to what the per-task counts need (`slim.ts`, 17 bytes a row) and merge them into
 * counts in the main thread (`merge.ts`): no compact rows of the whole load, no polars frame.
 *
 * Prints JSON shaped like `runlens score --json` for the fields it computes: per run its rows
 * in/scored/quarantined, no answer, per task `n`, `correct`, `no_answer`, and BBEH's
 * `harmonic_mean` (full coverage, one row an example). With `--memory`, the process's RSS at
 * the end of each phase (sampled every 50 ms between) goes to stderr.
 *
 * @example
 * ```sh
 * deno run --allow-all lib/bench/counts/score_counts.ts LOG --workers 2 [--data DIR] [--memory]
 * ```
 *
 * Exit codes: 0 done; 1 a load it cannot count exactly yet (a {@link PrototypeLimit}) or an
 * error; 2 usage.
 * @module
 */
import { BBEH_SIZE } from "@runlens/benchmarks/bbeh/tasks.ts";
import { DATA_OPTION, resolveDataDir } from "@runlens/core/data_dir.ts";
import { type Command, countOption, runCommand } from "@runlens/core/command.ts";
import { readInRanges } from "@runlens/logs/sources/all.ts";
import { planLoad, type PlannedLoad, taskBytes } from "@runlens/pipeline/engine.ts";
import { loadableBenchmarks, resolveLoadPlan } from "@runlens/pipeline/load_plan.ts";
import type { LoadQuarantine } from "@runlens/pipeline/merge.ts";
import { WorkerPool } from "@runlens/pipeline/pool.ts";
import { scoreUnitSafely } from "@runlens/pipeline/score_units.ts";
import { buildScoringState } from "@runlens/pipeline/scoring_state.ts";
import { groupUnits, planUnits, RANGE_BYTES, type WorkUnit } from "@runlens/pipeline/units.ts";
import { harmonicMeanOfTotals } from "@runlens/stats/headline_bootstrap.ts";
import { type CellCount, type CountedLoad, mergeCounts, PrototypeLimit } from "./merge.ts";
import { type SlimResult, slimResult } from "./slim.ts";

/** RSS at phase ends, and the peak seen by sampling every 50 ms. */
class MemoryLog {
  #peak = 0;
  #timer: ReturnType<typeof setInterval>;
  #t0 = performance.now();
  constructor(readonly print: boolean) {
    this.#timer = setInterval(() => this.#sample(), 50);
  }
  #sample(): number {
    const rss = Deno.memoryUsage().rss;
    this.#peak = Math.max(this.#peak, rss);
    return rss;
  }
  /** Note the end of a phase (to stderr when printing). */
  phase(name: string): void {
    const rss = this.#sample();
    if (!this.print) return;
    const mb = (b: number) => (b / 2 ** 20).toFixed(0);
    const s = ((performance.now() - this.#t0) / 1000).toFixed(2);
    const { heapTotal, external } = Deno.memoryUsage(); // this thread's heap, not the Workers'
    console.error(
      `memory: ${name}: ${s} s, rss ${mb(rss)} MB (peak so far ${mb(this.#peak)} MB; ` +
        `main thread heap ${mb(heapTotal)} MB, array buffers ${mb(external)} MB)`,
    );
  }
  stop(): void {
    clearInterval(this.#timer);
  }
}

/** Score every unit into slim results: in this thread with one Worker, else in a pool. */
async function scoreSlim(
  planned: PlannedLoad,
  units: readonly WorkUnit[],
  rangeBytes: number,
  memory: MemoryLog,
): Promise<SlimResult[]> {
  const workers = planned.plan.read.workers ?? navigator.hardwareConcurrency ?? 1;
  const bytes = units.reduce((s, u) => s + u.end - u.start, 0);
  const tasks = groupUnits(units, taskBytes(bytes, workers, rangeBytes));
  if (workers <= 1 || tasks.length === 1) {
    const { plan, setup } = planned;
    const { state } = planned.built ??
      await buildScoringState(setup, (s) => plan.dataSets.examples(s.name));
    return units.map((u) => slimResult(scoreUnitSafely(state, u)));
  }
  const script = new URL("./worker.ts", import.meta.url);
  const pool = new WorkerPool<SlimResult>(Math.min(workers, tasks.length), planned.setup, script);
  try {
    const { unavailable } = await pool.ready;
    for (const u of unavailable) console.error(`no ${u.benchmark} data set: ${u.reason}`);
    memory.phase(`${pool.workers.length} Workers ready`);
    return await pool.run(tasks);
  } finally {
    pool.close();
  }
}

/** Per (run, benchmark), what `runlens score --json` prints of the counts. */
async function runsOf(counted: CountedLoad) {
  const benchmarkOf = await quarantineBenchmarks(counted);
  const runs = new Map<string, { cells: CellCount[]; quarantined: number }>();
  const at = (run: string, benchmark: string) => {
    const k = `${run}\u0000${benchmark}`;
    return runs.get(k) ?? runs.set(k, { cells: [], quarantined: 0 }).get(k)!;
  };
  for (const c of counted.cells) if (c.rows > 0) at(c.run, c.benchmark).cells.push(c);
  for (const q of counted.quarantine) at(q.run, benchmarkOf(q)).quarantined++;
  return [...runs.entries()].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0).map(([k, r]) => {
    const [run, benchmark] = k.split("\u0000");
    const cells = r.cells.sort((a, b) => a.task < b.task ? -1 : 1);
    const scored = cells.reduce((s, c) => s + c.rows, 0);
    return {
      run,
      model: [...counted.models.get(run) ?? [run]].sort().join(", "),
      benchmark,
      rows_in: scored + r.quarantined,
      rows_scored: scored,
      rows_quarantined: r.quarantined,
      no_answer: cells.reduce((s, c) => s + c.no_answer, 0),
      tasks: Object.fromEntries(
        cells.map((c) => [c.task, { n: c.n, correct: c.correct, no_answer: c.no_answer }]),
      ),
      aggregate: { harmonic_mean: harmonicMean(benchmark, cells, counted.oneEpoch) },
    };
  });
}

/**
 * The BBEH headline when a run covers the full set with one row an example (`bbehAggregate`'s
 * `full` coverage); null otherwise — this prototype does not count distinct examples over
 * epochs.
 */
function harmonicMean(benchmark: string, cells: readonly CellCount[], oneEpoch: boolean) {
  const rows = cells.reduce((s, c) => s + c.n, 0);
  if (benchmark !== "bbeh" || !oneEpoch || rows !== BBEH_SIZE) return null;
  const hm = harmonicMeanOfTotals(cells.map((c) => c.correct), cells.map((c) => c.n));
  return Math.round(hm * 100) / 100;
}

/**
 * The benchmark a quarantined record is counted under, as `summarise.ts` places it
 * (`rowBenchmark`); that module (and polars with it) is loaded only when some record names
 * no scored benchmark.
 */
async function quarantineBenchmarks(
  counted: CountedLoad,
): Promise<(q: LoadQuarantine) => string> {
  const names = new Set(loadableBenchmarks().map((b) => b.name));
  if (counted.quarantine.every((q) => q.benchmark !== null && names.has(q.benchmark))) {
    return (q) => q.benchmark!;
  }
  const { rowBenchmark } = await import("@runlens/pipeline/summarise.ts");
  const place = rowBenchmark(counted.sources, counted.quarantine);
  return (q) => place(q.run, q.benchmark, q.file);
}

/** The command line of {@link scoreCountsCommand}. */
interface ScoreCountsArgs {
  paths: string[];
  workers: number | undefined;
  data: string | undefined;
  memory: boolean;
  rangeBytes: number;
}

/** `lib/bench/counts/score_counts.ts`. */
export const scoreCountsCommand: Command<ScoreCountsArgs> = {
  name: "score-counts",
  invocation: "deno run --allow-all lib/bench/counts/score_counts.ts",
  summary: "Issue 26, design (c), a measured prototype: score logs with runlens score's " +
    "Workers, each reducing its rows to per-task counts at once — no frame of every row.",
  usage: "<path>... [--workers N] [--data DIR] [--memory] [--range-bytes N]",
  arguments: { path: "log files or folders, as runlens score takes them" },
  options: {
    workers: {
      type: "string",
      value: "N",
      description: "scoring Workers",
      default: "one per core",
    },
    data: { ...DATA_OPTION },
    memory: {
      type: "boolean",
      description: "print the RSS at the end of each phase (sampled every 50 ms) on stderr",
    },
    // smaller byte ranges than RANGE_BYTES: a small log in several units (tests)
    "range-bytes": {
      type: "string",
      value: "N",
      description: "bytes a unit of work reads at most",
      default: String(RANGE_BYTES),
    },
  },
  prints: "JSON shaped like runlens score --json for the fields it computes: per run its rows " +
    "in, scored and quarantined, no answer, per task n, correct and no_answer, and BBEH's " +
    "harmonic_mean. A load it cannot count exactly yet is refused (exit 1) with the reason.",
  examples: ["deno run --allow-all lib/bench/counts/score_counts.ts my_log.jsonl --workers 2"],
  failure: "a load the prototype cannot count exactly (say which), or an unreadable file",
  parse: ({ values, positionals }) => {
    if (positionals.length === 0) return "give at least one log file or folder";
    return {
      paths: positionals,
      workers: values.workers === undefined ? undefined : countOption(values, "workers", 1),
      data: values.data as string | undefined,
      memory: values.memory === true,
      rangeBytes: countOption(values, "range-bytes", RANGE_BYTES),
    };
  },
  run: scoreCounts,
};

async function scoreCounts(args: ScoreCountsArgs): Promise<number> {
  const memory = new MemoryLog(args.memory);
  try {
    const plan = await resolveLoadPlan(resolveDataDir(args.data), { workers: args.workers });
    const planned = await planLoad(args.paths, plan);
    const units = planUnits(planned.files, readInRanges, args.rangeBytes);
    memory.phase("planned");
    const results = await scoreSlim(planned, units, args.rangeBytes, memory);
    memory.phase("scored (slim rows in the main thread)");
    const counted = mergeCounts(planned.files, units, results);
    memory.phase("merged into counts");
    const runs = await runsOf(counted);
    const rowsIn = counted.rowsIn.reduce((s, n) => s + n, 0);
    console.log(JSON.stringify({
      command: "score-counts",
      rows_in: rowsIn,
      rows_scored: rowsIn - counted.quarantine.length,
      rows_quarantined: counted.quarantine.length,
      errors: [...planned.found.errors, ...counted.errors],
      runs,
    }));
    memory.phase("printed");
    return 0;
  } catch (e) {
    if (!(e instanceof PrototypeLimit)) throw e;
    throw new Error(`this prototype cannot count this load exactly: ${e.message}`);
  } finally {
    memory.stop();
  }
}

if (import.meta.main) Deno.exit(await runCommand(scoreCountsCommand, Deno.args));
