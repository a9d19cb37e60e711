/**
 * Speed of `runlens report` end to end (issue 16: a report for 20 runs × 4,520 rows written in
 * ≤ 15 s, interactive in ≤ 2 s in headless Chromium). Not a test: timings depend on the machine
 * and its load.
 *
 * 1. Generates (once, seeded, `generate.ts`) one canonical JSONL log of `--runs` full BBEH runs
 *    (20 × 4,520 = 90,400 rows; responses of `--response-chars` characters, default 1000–3000)
 *    under `.runlens/bench/`.
 * 2. Times `runlens report LOG --no-cache` as a whole process (`bench.ts`'s `measure`: wall
 *    time and peak RSS; Deno start-up and module loading included).
 * 3. Times the same in this process, phase by phase: `loadRuns` (read + score), `buildReport`
 *    (summaries, comparisons of every pair, analyses, example rows and their texts) and
 *    `writeReport` (HTML, Markdown, LaTeX), with `--no-cache` as in 2.
 * 4. Opens the written `report.html` `--repeats` times in headless Chromium
 *    (`measureReportPage` of `lib/bench/report_page.ts`) and reads its `report-ready` mark
 *    (the example browser works: filters, pager and counts) and `report-texts-ready` (search
 *    and expanded rows answer at once).
 *
 * @example
 * ```sh
 * deno run --allow-all lib/bench/report_speed.ts --data ../shared/data
 * ```
 * @module
 */
import { type Command, countOption, runCommand } from "../core/command.ts";
import { join } from "node:path";
import { DATA_OPTION, resolveDataDir } from "../core/data_dir.ts";
import { loadRuns } from "../pipeline/load.ts";
import { buildReport } from "../report/build.ts";
import { writeReport } from "../report/write.ts";
import { measureReportPage, type PageMeasurement } from "./report_page.ts";
import { BBEH_SIZE } from "../benchmarks/bbeh/tasks.ts";
import { charRange, generateLog } from "./generate.ts";
import { measure } from "./bench.ts";

/** Options of {@link benchReport}. */
export interface ReportSpeedOptions {
  dataDir: string;
  /** Full BBEH runs in the log (default 20). */
  runs?: number;
  /** Response filler lengths [min, max) in characters (default 1000–3000). */
  responseChars?: [number, number];
  /** Page loads to measure (default 3). */
  repeats?: number;
}

/** What {@link benchReport} measured (times in ms, sizes in bytes). */
export interface ReportSpeed {
  runs: number;
  rows: number;
  log_bytes: number;
  /** `runlens report` as a whole process. */
  process_ms: number;
  process_peak_rss: number;
  /** Its user + system CPU time (the machine is shared: wall time varies with the load). */
  process_cpu_ms: number;
  /** The 1-minute load average when the process ended (2 CPUs here). */
  load_average: number;
  /** The phases in one process. */
  load_ms: number;
  build_ms: number;
  write_ms: number;
  html_bytes: number;
  rows_embedded: number;
  page: PageMeasurement;
}

/** Generate the log unless it is there; its path. */
async function ensureLog(
  dataDir: string,
  runs: number,
  chars: [number, number],
): Promise<string> {
  const out = join(".runlens", "bench", `report_${runs}runs_c${chars.join("-")}.jsonl`);
  try {
    if (Deno.statSync(out).size > 0) return out;
  } catch {
    // not generated yet
  }
  await generateLog({
    rows: runs * BBEH_SIZE,
    mb: 0,
    seed: 20250301,
    wrong: 0.4,
    data: dataDir,
    out,
    format: "canonical",
    responseChars: chars,
  });
  return out;
}

/** Run the benchmark (see the module doc). */
export async function benchReport(opts: ReportSpeedOptions): Promise<ReportSpeed> {
  const runs = opts.runs ?? 20;
  const log = await ensureLog(opts.dataDir, runs, opts.responseChars ?? [1000, 3000]);
  const dir = Deno.makeTempDirSync({ prefix: "runlens_report_speed_" });
  try {
    const proc = await measure("runlens report", Deno.execPath(), [
      "run",
      "--allow-all",
      "lib/cli/runlens.ts",
      "report",
      log,
      "--out",
      join(dir, "process"),
      "--data",
      opts.dataDir,
      "--no-cache",
    ]);
    if (proc.code !== 0) throw new Error(`runlens report failed:\n${proc.stderr.slice(-2000)}`);
    const loadAverage = Deno.loadavg()[0];

    let t0 = performance.now();
    const loaded = await loadRuns([log], opts.dataDir);
    const load_ms = performance.now() - t0;
    t0 = performance.now();
    const doc = await buildReport(loaded, { dataDir: opts.dataDir, command: "report_speed.ts" });
    const build_ms = performance.now() - t0;
    t0 = performance.now();
    writeReport(doc, join(dir, "phases"));
    const write_ms = performance.now() - t0;

    console.error(
      `report_speed: load ${load_ms.toFixed(0)} ms, build ${build_ms.toFixed(0)} ms, write ` +
        `${write_ms.toFixed(0)} ms; measuring the page`,
    );
    const html = join(dir, "phases", "report.html");
    const page = await measureReportPage(html, { repeats: opts.repeats ?? 3 });
    return {
      runs,
      rows: loaded.rows.height,
      log_bytes: Deno.statSync(log).size,
      process_ms: proc.seconds * 1000,
      process_peak_rss: proc.peakRss,
      process_cpu_ms: proc.cpuSeconds * 1000,
      load_average: loadAverage,
      load_ms,
      build_ms,
      write_ms,
      html_bytes: Deno.statSync(html).size,
      rows_embedded: page.rows_embedded,
      page,
    };
  } finally {
    Deno.removeSync(dir, { recursive: true });
  }
}

/** `lib/bench/report_speed.ts`. */
export const reportSpeedCommand: Command<ReportSpeedOptions & { json: boolean }> = {
  name: "report-speed",
  invocation: "deno run --allow-all lib/bench/report_speed.ts",
  summary: "Time runlens report end to end on a generated log of full BBEH runs: the whole " +
    "process, its phases in one process, and the written page in headless Chromium.",
  usage: "[--data DIR] [--runs N] [--response-chars MIN-MAX] [--repeats K] [--json]",
  options: {
    data: DATA_OPTION,
    runs: { type: "string", value: "N", description: "full BBEH runs in the log", default: "20" },
    "response-chars": {
      type: "string",
      value: "MIN-MAX",
      description: "response lengths in characters",
      default: "1000-3000",
    },
    repeats: {
      type: "string",
      value: "K",
      description: "page loads in Chromium",
      default: "3",
    },
    json: { type: "boolean", description: "print the measurements as JSON" },
  },
  prints: "The log's size; runlens report as a whole process (wall, CPU, peak RSS, load " +
    "average); load + score, build and write in one process; the page's interactive and " +
    "texts-ready times, errors, requests and the Chromium version. With --json the same as " +
    "JSON. Not a test: timings depend on the machine.",
  examples: ["deno run --allow-all lib/bench/report_speed.ts --data ../shared/data"],
  failure: "the data set cannot be read, a process fails, or Chromium cannot be started",
  parse: ({ values, positionals }) => {
    if (positionals.length > 0) return `unexpected argument ${positionals[0]}`;
    return {
      dataDir: resolveDataDir(values.data as string | undefined),
      runs: countOption(values, "runs", 20),
      responseChars: charRange((values["response-chars"] as string | undefined) ?? "1000-3000"),
      repeats: countOption(values, "repeats", 3),
      json: values.json === true,
    };
  },
  run: async ({ json, ...options }) => {
    const r = await benchReport(options);
    if (json) console.log(JSON.stringify(r, null, 2));
    else {
      const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
      const ms = (x: number) => `${x.toFixed(0)} ms`;
      console.log(
        `${r.runs} runs × ${r.rows / r.runs} rows = ${r.rows.toLocaleString("en-US")} rows ` +
          `(${(r.log_bytes / 1e6).toFixed(0)} MB log)\n` +
          `runlens report (whole process, --no-cache): ${s(r.process_ms)} wall, ` +
          `${s(r.process_cpu_ms)} CPU, peak RSS ${(r.process_peak_rss / 1e9).toFixed(1)} GB ` +
          `(load average ${r.load_average.toFixed(1)})\n` +
          `in one process: load + score ${s(r.load_ms)}, build ${s(r.build_ms)}, write ` +
          `${s(r.write_ms)}; report.html ${(r.html_bytes / 1e6).toFixed(1)} MB, ` +
          `${r.rows_embedded.toLocaleString("en-US")} rows embedded\n` +
          `page: interactive ${ms(r.page.interactive_ms)} (loads: ` +
          `${r.page.interactive_all_ms.map(ms).join(", ")}), texts ready ` +
          `${ms(r.page.texts_ready_ms)}, errors ${r.page.errors.length}, other requests ` +
          `${r.page.requests_other_than_file}\n${r.page.chromium}`,
      );
    }
    return 0;
  },
};

if (import.meta.main) Deno.exit(await runCommand(reportSpeedCommand, Deno.args));
