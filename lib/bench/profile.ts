/**
 * Rough phase profile of process (b) of the benchmark: the steps of `loadRuns` + the JSON
 * report (`runlens score --json`), replayed one by one with the same library functions and
 * timed, with the process RSS after each. One extra phase, indented and left out of the total,
 * times the official scorer alone on (response, target) pairs (`scoreFrame` with
 * `bbeh-official`). Prints a table on stderr and the timings as JSON on stdout.
 *
 * Usage: `deno run --allow-all lib/bench/profile.ts FILE [--data DIR]`.
 *
 * @example
 * ```sh
 * deno run --allow-all lib/bench/profile.ts .runlens/bench/bench_200mb_s20250301.jsonl
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { resolveDataDir } from "../core/data_dir.ts";
import { bbehAggregate, taskAccuracy } from "../benchmarks/bbeh/aggregate.ts";
import { loadBbehDataset } from "../benchmarks/bbeh/dataset.ts";
import { bbehOfficialScorer } from "../benchmarks/bbeh/official_scorer.ts";
import { getBenchmark } from "../benchmarks/registry.ts";
import { benchmarkSpec } from "../pipeline/identify.ts";
import { scoreRows } from "../pipeline/score.ts";
import { scoreFrame } from "../scorers/frame.ts";
import { checkRawLog } from "../logs/canonical.ts";
import { nonBlankLines } from "../logs/jsonl.ts";
import { normalizeFrame } from "../logs/raw.ts";

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

/** 1-based numbers of the non-empty lines, from the bytes (no JS string of the file). */
function lineNumbers(file: string): number[] {
  const bytes = Deno.readFileSync(file);
  const out: number[] = [];
  let line = 1;
  let start = 0;
  for (let i = 0; i <= bytes.length; i++) {
    if (i === bytes.length || bytes[i] === 10) {
      if (i > start) out.push(line);
      line++;
      start = i + 1;
    }
  }
  return out;
}

/** Profile the runlens pipeline on one JSONL file. */
export function profileRunlens(file: string, dataDir: string): Phase[] {
  const phases: Phase[] = [];
  let lines: number[];
  try {
    const text = timed(phases, "read text (readTextFileSync)", () => Deno.readTextFileSync(file));
    lines = timed(phases, "nonBlankLines (split)", () => nonBlankLines(text));
  } catch (e) {
    // Past V8's string limit (~512 M code units) runlens cannot read the file; go on without.
    console.error(`profile: readTextFileSync failed (${(e as Error).message}); counting bytes`);
    lines = timed(phases, "FAILED read text; line numbers from bytes", () => lineNumbers(file));
  }
  const df = timed(
    phases,
    "polars scanJson (infer all)",
    () => pl.scanJson(file, { inferSchemaLength: null }).collectSync(),
  );
  const raw = timed(phases, "normalizeFrame", () => ({
    frame: normalizeFrame(df, lines),
    bad: [],
    rowsIn: lines.length,
  }));
  const log = timed(phases, "checkRawLog", () => checkRawLog(file, raw));
  const dataset = timed(phases, "loadBbehDataset", () => loadBbehDataset(dataDir));
  const input = timed(phases, "concat", () => pl.concat([log.rows], { how: "vertical" }));
  const spec = { ...benchmarkSpec(getBenchmark("bbeh")!, dataDir), dataset };
  const scored = timed(phases, "scoreRows (tie + score)", () => scoreRows(input, [spec]));
  const pairs = log.rows.select("task", "example_index", "response").join(
    dataset.select("task", pl.col("example_index").cast(pl.Int64), "target"),
    { on: ["task", "example_index"], how: "left" },
  );
  timed(
    phases,
    "  (apart: bbeh-official alone, not summed)",
    () => scoreFrame(pairs, bbehOfficialScorer),
  );
  timed(phases, "count by file/run", () => {
    for (const col of ["source_file", "run"]) {
      scored.rows.groupBy(col).agg(pl.len().alias("__n")).toRecords();
    }
    input.groupBy("run").agg(pl.len()).toRecords();
  });
  const runs = input.getColumn("run").unique().toArray() as string[];
  timed(phases, "taskAccuracy", () => taskAccuracy(scored.rows, ["run"]).toRecords());
  timed(phases, "per run: modelOf + hasRun (filter input)", () => {
    for (const run of runs) {
      input.filter(pl.col("run").eq(pl.lit(run))).getColumn("model").unique().toArray();
      log.rows.filter(pl.col("run").eq(pl.lit(run))).height;
    }
  });
  timed(phases, "per run: bbehAggregate (filter rows)", () => {
    for (const run of runs) bbehAggregate(scored.rows.filter(pl.col("run").eq(pl.lit(run))));
  });
  return phases;
}

if (import.meta.main) {
  const file = Deno.args[0];
  const i = Deno.args.indexOf("--data");
  const dataDir = resolveDataDir(i >= 0 ? Deno.args[i + 1] : null);
  if (!file) {
    console.error("usage: profile.ts FILE [--data DIR]");
    Deno.exit(2);
  }
  const phases = profileRunlens(file, dataDir);
  const total = phases.filter((p) => !p.phase.startsWith(" "))
    .reduce((s, p) => s + p.seconds, 0);
  for (const p of phases) {
    console.error(
      `${p.phase.padEnd(44)} ${p.seconds.toFixed(2).padStart(7)} s ` +
        `${(100 * p.seconds / total).toFixed(0).padStart(3)}%  rss ${p.rss_mb.toFixed(0)} MB`,
    );
  }
  console.log(JSON.stringify({ file, total_seconds: total, phases }));
}
