/**
 * The scored rows of a load as a frame of the row schema (`core/schema.ts`): the compact frame
 * (`compact_frame.ts`, or a cache entry) plus each example's `input_chars` and, when asked, its
 * `input` and `target` from its data set (the item of its data-set version where it matched
 * one) — the load's data sets (`data_sets.ts`), read once, or a data directory's. The response
 * text is not read here (`responses.ts` fills it from the pointers, for the rows asked for).
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { EMPTY_ROW, RowBuilder } from "@runlens/pipeline/compact.ts";
 * import { compactFrame } from "@runlens/pipeline/compact_frame.ts";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const b = new RowBuilder();
 * b.add({ ...EMPTY_ROW, run: "r", model: "m", benchmark: "bbh", task: "ruin_names",
 *   example: 99, correct: true, scorer: "bbh-release-cot", data_version: "lm-eval" });
 * b.add({ ...EMPTY_ROW, run: "r", model: "m", benchmark: "bbh", task: "ruin_names",
 *   example: 98, correct: true, scorer: "bbh-release-cot" });
 * const compact = compactFrame(b.finish(), ["a.jsonl"]);
 * const df = rowsFrame(compact, resolveDataDir(), { examples: true });
 * assert.deepEqual(df.getColumn("target").toArray(), ["(D)", "(B)"]); // lm-eval's, the release's
 * assert.equal(df.getColumn("source_file").get(0), "a.jsonl");
 * ```
 * @module
 */
import pl from "nodejs-polars";
import { getBenchmark } from "../benchmarks/registry.ts";
import type { DataSetsView } from "../benchmarks/types.ts";
import { pyLen } from "../core/python.ts";
import { distinctValues } from "../core/frames.ts";
import { conformRows } from "../core/schema.ts";
import { DataSets } from "./data_sets.ts";

// null keys never match in a polars join: the release (data_version null) joins as ""
const VERSION_KEY = pl.col("data_version").fillNull("").alias("__version");
const KEYS = ["benchmark", "task", "example_index", "__version"];

/**
 * The rows as a row-schema frame; `examples`: with each example's input and target texts, from
 * `data` (the load's data sets, or a data directory).
 */
export function rowsFrame(
  compact: pl.DataFrame,
  data: string | DataSetsView,
  options: { examples: boolean },
): pl.DataFrame {
  const df = compact.withColumns(pl.lit(null).cast(pl.Utf8).alias("response"));
  if (compact.height === 0 || !options.examples) {
    // the texts are the memory of a big load (their lengths came with the rows)
    return conformRows(df.withColumns(
      pl.lit(null).cast(pl.Utf8).alias("input"),
      pl.lit(null).cast(pl.Utf8).alias("target"),
    ));
  }
  return conformRows(withExamples(df, data));
}

/**
 * `rows` (with `benchmark`, `task`, `example_index`, `data_version`) with each example's
 * `input` and `target` from its data set (those columns replaced when present, added at the
 * end otherwise), e.g. for the rows of a load made without them. `data`: the load's data sets
 * (`LoadedRuns.dataSets`), or a data directory (read here). Rows of a benchmark tied by id
 * (`identity: "id"`) have no released example: their own input and target, kept in `extra`.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import { resolveDataDir } from "@runlens/core/data_dir.ts";
 * const rows = pl.DataFrame({ benchmark: ["bbh"], task: ["navigate"], example_index: [0],
 *   data_version: pl.Series("data_version", [null], pl.Utf8) });
 * const df = withExamples(rows, resolveDataDir());
 * assert.deepEqual(df.columns, ["benchmark", "task", "example_index", "data_version", "input",
 *   "target"]);
 * assert.equal(df.getColumn("target").get(0), "No");
 * ```
 */
export function withExamples(rows: pl.DataFrame, data: string | DataSetsView): pl.DataFrame {
  const kept = rows.columns.filter((c) => c !== "input" && c !== "target");
  const df = rows.select(...kept);
  if (df.height === 0) {
    return df.withColumns(
      pl.lit(null).cast(pl.Utf8).alias("input"),
      pl.lit(null).cast(pl.Utf8).alias("target"),
    );
  }
  const dataSets = typeof data === "string" ? new DataSets(data) : data;
  const all = (distinctValues(df, "benchmark") as string[]).sort();
  const byId = all.filter((b) => getBenchmark(b)?.identity === "id");
  const benchmarks = all.filter((b) => !byId.includes(b));
  const joined = benchmarks.length === 0 ? df.withColumns(NO_TEXT.input, NO_TEXT.target) : df
    .withColumns(VERSION_KEY, pl.col("example_index").cast(pl.Int32))
    .join(examplesFrame(benchmarks, dataSets, tasksOf(df)), { on: KEYS, how: "left" })
    .select(...kept, "input", "target");
  if (byId.length === 0 || !kept.includes("extra")) return joined;
  const own = (field: string) =>
    pl.col(field).fillNull(pl.col("extra").str.jsonPathMatch(`$.${field}`)).alias(field);
  return joined.withColumns(own("input"), own("target"));
}

/** Text columns of no example. */
const NO_TEXT = {
  input: pl.lit(null).cast(pl.Utf8).alias("input"),
  target: pl.lit(null).cast(pl.Utf8).alias("target"),
};

/** The tasks of each benchmark among the rows. */
function tasksOf(rows: pl.DataFrame): Map<string, string[]> {
  const pairs = rows.select("benchmark", "task").unique().rows() as [string, string][];
  const out = new Map<string, string[]>();
  for (const [b, t] of pairs) out.set(b, [...out.get(b) ?? [], t]);
  return out;
}

/** The examples of `benchmarks` (release and versions) in the rows' tasks, keyed for the join. */
function examplesFrame(
  benchmarks: readonly string[],
  dataSets: DataSetsView,
  tasks: ReadonlyMap<string, readonly string[]>,
): pl.DataFrame {
  return pl.concat(
    benchmarks.map((b) => examplesOf(b, dataSets, tasks.get(b) ?? [])),
    { how: "vertical" },
  ).drop("input_chars").withColumns(VERSION_KEY).drop("data_version");
}

/** A benchmark's examples (release rows with `data_version` null, then its versions' items). */
function examplesOf(
  benchmark: string,
  dataSets: DataSetsView,
  tasks: readonly string[],
): pl.DataFrame {
  const b = getBenchmark(benchmark);
  let dataset = dataSets.tasksFrame?.(benchmark, tasks) ?? dataSets.frame(benchmark);
  if (!dataset.columns.includes("input_chars")) {
    const inputs = dataset.getColumn("input").toArray() as string[];
    dataset = dataset.withColumns(pl.Series("input_chars", inputs.map(pyLen), pl.Int32));
  }
  const release = dataset.select(
    pl.lit(benchmark).alias("benchmark"),
    pl.col("task"),
    pl.col("example_index").cast(pl.Int32),
    pl.lit(null).cast(pl.Utf8).alias("data_version"),
    pl.col("input"),
    pl.col("target"),
    pl.col("input_chars").cast(pl.Int32),
  );
  const items = (b!.dataVersions ?? []).flatMap((v) => v.items.map((it) => ({ v: v.name, ...it })));
  if (items.length === 0) return release;
  const versions = pl.DataFrame({
    benchmark: items.map(() => benchmark),
    task: items.map((it) => it.task),
    example_index: pl.Series("example_index", items.map((it) => it.index), pl.Int32),
    data_version: items.map((it) => it.v),
    input: items.map((it) => it.input),
    target: items.map((it) => it.target),
    input_chars: pl.Series("input_chars", items.map((it) => pyLen(it.input)), pl.Int32),
  });
  return pl.concat([release, versions], { how: "vertical" });
}
