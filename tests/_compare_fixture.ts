/**
 * Test helper: the constructed BBH/BBEH runs of tests/fixtures/compare as a row-schema-like
 * frame (the columns lib/benchmarks/bbh/compare and lib/analyses/format_sensitivity.ts read, plus response_chars).
 *
 * @example
 * ```ts
 * const rows = constructedRuns(); // run, model, benchmark, task, …, response_chars
 * ```
 */
import pl from "nodejs-polars";
import { pyLen } from "@runlens/core/python.ts";

/** The constructed runs. */
export function constructedRuns(): pl.DataFrame {
  const path = new URL("./fixtures/compare/constructed_runs.json", import.meta.url);
  const { rows } = JSON.parse(Deno.readTextFileSync(path)) as { rows: unknown[][] };
  const col = (i: number) => rows.map((r) => r[i]);
  return pl.DataFrame([
    pl.Series("run", col(0), pl.Utf8),
    pl.Series("model", col(1), pl.Utf8),
    pl.Series("benchmark", col(2), pl.Utf8),
    pl.Series("task", col(3), pl.Utf8),
    pl.Series("example_index", col(4)).cast(pl.Int32),
    pl.Series("input", col(5), pl.Utf8),
    pl.Series("target", col(6), pl.Utf8),
    pl.Series("response", col(7), pl.Utf8),
    pl.Series("correct", col(8)).cast(pl.Bool),
    pl.Series("scorer", col(9), pl.Utf8),
    pl.Series("response_chars", col(7).map((s) => pyLen(s as string))).cast(pl.Int32),
  ]);
}
