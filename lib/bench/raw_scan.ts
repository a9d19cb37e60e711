/**
 * Process (a) of the benchmark: polars' raw read of a JSONL file — or of every `.jsonl` file
 * under a folder, one after the other — and nothing else, the floor runlens is measured
 * against. Prints the rows and columns read on stderr.
 *
 * Usage: `deno run --allow-all lib/bench/raw_scan.ts PATH [--infer-all]`; `--infer-all` infers
 * the schema from every line, as the runlens JSONL reader does (default: polars' default).
 *
 * @example
 * ```sh
 * deno run --allow-all lib/bench/raw_scan.ts .runlens/bench/bench_200mb_s20250301.jsonl
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { logFiles } from "./log_files.ts";

if (import.meta.main) {
  const [file, flag] = Deno.args;
  if (!file) {
    console.error("usage: raw_scan.ts FILE [--infer-all]");
    Deno.exit(2);
  }
  let rows = 0;
  let columns = 0;
  for (const f of logFiles(file)) {
    const df = flag === "--infer-all"
      ? pl.scanJson(f, { inferSchemaLength: null }).collectSync()
      : pl.scanJson(f).collectSync();
    rows += df.height;
    columns = Math.max(columns, df.width);
  }
  console.error(`raw_scan: ${rows} rows, up to ${columns} columns`);
}
