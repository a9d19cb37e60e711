/**
 * Rough phase profile of process (b) of the benchmark: the steps of `loadRuns` (the streaming
 * engine: discover and plan, score in Workers and merge, the compact and rows frames) and the
 * per-run aggregates of `runlens score --json`, replayed one by one with the same library
 * functions and timed, with the process RSS after each. One extra phase, indented and left out
 * of the total, times the official scorer alone on (response, target) pairs (`scoreFrame` with
 * `bbeh-official`). Prints a table on stderr and the timings as JSON on stdout.
 *
 * @example
 * ```sh
 * deno run --allow-all lib/bench/profile.ts .runlens/bench/bench_200mb_s20250301.jsonl
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { DATA_OPTION, resolveDataDir } from "../core/data_dir.ts";
import { type Command, runCommand } from "../core/command.ts";
import { bbehAggregate, taskAccuracy } from "../benchmarks/bbeh/aggregate.ts";
import { loadBbehDataset } from "../benchmarks/bbeh/dataset.ts";
import { bbehOfficialScorer } from "../benchmarks/bbeh/official_scorer.ts";
import { compactFrame } from "../pipeline/compact_frame.ts";
import { planLoad, scoreLoad } from "../pipeline/engine.ts";
import { resolveLoadPlan } from "../pipeline/load_plan.ts";
import { rowsFrame } from "../pipeline/rows_frame.ts";
import { scoreFrame } from "../scorers/frame.ts";

/** One timed phase. */
export interface Phase {
  phase: string;
  seconds: number;
  /** Resident set size after the phase, MB. */
  rss_mb: number;
}

/** Run `fn`, record its wall time and the RSS after it under `name`. */
function timed<T>(phases: Phase[], name: string, fn: () => T): T {
  const t0 = performance.now();
  const out = fn();
  phases.push({
    phase: name,
    seconds: (performance.now() - t0) / 1000,
    rss_mb: Deno.memoryUsage().rss / 1e6,
  });
  return out;
}

/** Profile the runlens pipeline on one log file (or folder). */
export async function profileRunlens(file: string, dataDir: string): Promise<Phase[]> {
  const phases: Phase[] = [];
  let t0 = performance.now();
  const plan = await planLoad([file], await resolveLoadPlan(dataDir));
  phases.push({
    phase: "discover + plan (planLoad)",
    seconds: (performance.now() - t0) / 1000,
    rss_mb: Deno.memoryUsage().rss / 1e6,
  });
  t0 = performance.now();
  const engine = await scoreLoad(plan);
  phases.push({
    phase: "read + tie + score + merge (scoreLoad)",
    seconds: (performance.now() - t0) / 1000,
    rss_mb: Deno.memoryUsage().rss / 1e6,
  });
  const paths = plan.files.map((f) => f.path);
  const compact = timed(phases, "compactFrame", () => compactFrame(engine.merged.rows, paths));
  const rows = timed(
    phases,
    "rowsFrame (examples joined)",
    () => rowsFrame(compact, dataDir, { examples: true }),
  );
  const dataset = timed(phases, "  (apart: loadBbehDataset)", () => loadBbehDataset(dataDir));
  const pairs = rows.filter(pl.col("benchmark").eq(pl.lit("bbeh")))
    .select("task", pl.col("example_index").cast(pl.Int64), "response")
    .join(dataset.select("task", pl.col("example_index").cast(pl.Int64), "target"), {
      on: ["task", "example_index"],
      how: "left",
    });
  timed(
    phases,
    "  (apart: bbeh-official alone, not summed)",
    () => scoreFrame(pairs, bbehOfficialScorer),
  );
  const runs = rows.getColumn("run").unique().toArray() as string[];
  timed(phases, "taskAccuracy", () => taskAccuracy(rows, ["run"]).toRecords());
  timed(phases, "per run: bbehAggregate (filter rows)", () => {
    for (const run of runs) bbehAggregate(rows.filter(pl.col("run").eq(pl.lit(run))));
  });
  return phases;
}

/** `lib/bench/profile.ts`. */
export const profileCommand: Command<{ file: string; data: string }> = {
  name: "profile",
  invocation: "deno run --allow-all lib/bench/profile.ts",
  summary: "Time the steps of loadRuns and of score --json's summaries on one log, one by one, " +
    "with the process's RSS after each.",
  usage: "<file> [--data DIR]",
  arguments: { file: "the log to profile" },
  options: { data: DATA_OPTION },
  prints: "A table of phases (seconds, share of the total, RSS) on stderr and the timings as " +
    "JSON on stdout.",
  examples: [
    "deno run --allow-all lib/bench/profile.ts .runlens/bench/bench_200mb_s20250301.jsonl",
  ],
  failure: "the log or the data set cannot be read",
  parse: ({ values, positionals }) =>
    positionals.length === 1
      ? { file: positionals[0], data: resolveDataDir(values.data as string | undefined) }
      : "give one FILE",
  run: async ({ file, data }) => {
    const phases = await profileRunlens(file, data);
    const total = phases.filter((p) => !p.phase.startsWith(" "))
      .reduce((s, p) => s + p.seconds, 0);
    for (const p of phases) {
      console.error(
        `${p.phase.padEnd(44)} ${p.seconds.toFixed(2).padStart(7)} s ` +
          `${(100 * p.seconds / total).toFixed(0).padStart(3)}%  rss ${p.rss_mb.toFixed(0)} MB`,
      );
    }
    console.log(JSON.stringify({ file, total_seconds: total, phases }));
    return 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(profileCommand, Deno.args));
