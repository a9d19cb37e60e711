/**
 * lm-evaluation-harness writes one line per (doc, filter): a task with two filters (e.g.
 * `bbh_cot_zeroshot`: `strict-match` and `flexible-extract`) holds every response twice, each
 * line with that filter's extraction and verdict. runlens scores each response once, so per
 * (file, doc, epoch) it keeps the line of ONE filter — the one asked for (`--lm-eval-filter`,
 * else the filter the chosen scorer reproduces, e.g. `lm-eval-flexible` → `flexible-extract`),
 * else the file's first — and quarantines the other filters' lines with a reason naming the
 * line that was scored. The kept line's stored verdict is the one compared with the re-score,
 * so `lm-eval-flexible` is checked against the tool's `flexible-extract` verdicts.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { pickLmEvalFilter } from "@runlens/logs/lm_eval_filter.ts";
 * import { readRunLog } from "@runlens/logs/read_log.ts";
 * const dir = Deno.makeTempDirSync();
 * const file = `${dir}/samples_bbh_cot_zeroshot_snarks_2025-01-25T04-48-43.jsonl`;
 * const line = (filter: string) =>
 *   JSON.stringify({ doc_id: 0, resps: [["(A)"]], filtered_resps: ["(A)"], filter });
 * Deno.writeTextFileSync(file, `${line("strict-match")}\n${line("flexible-extract")}\n`);
 * const log = pickLmEvalFilter(readRunLog(file), "flexible-extract");
 * assert.equal(log.rows.height, 1);
 * assert.equal(log.quarantine[0].entry.reason, 'lm-eval filter "strict-match": the same ' +
 *   'response is scored once, from line 2 (filter "flexible-extract")');
 * Deno.removeSync(dir, { recursive: true });
 * ```
 * @module
 */
import pl from "nodejs-polars";
import type { RunQuarantine } from "./quarantine.ts";

const FILTER = pl.col("extra").str.jsonPathMatch("$.filter");

/**
 * Keep one filter's lines per file of lm-eval rows (checked rows: `source_file`,
 * `source_line`, `run`, `example_index`, `epoch`, `extra`; see the module doc). Files with at
 * most one filter are left alone.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import pl from "nodejs-polars";
 * import type { RunQuarantine } from "@runlens/logs/quarantine.ts";
 * const log = {
 *   rows: pl.DataFrame({
 *     source_file: ["s.jsonl", "s.jsonl"],
 *     source_line: [1, 2],
 *     run: ["m", "m"],
 *     example_index: [0, 0],
 *     epoch: [1, 1],
 *     extra: ['{"filter":"strict-match"}', '{"filter":"flexible-extract"}'],
 *   }),
 *   quarantine: [] as RunQuarantine[],
 * };
 * const { rows, quarantine } = pickLmEvalFilter(log, null); // each file's first filter
 * assert.deepEqual(rows.getColumn("source_line").toArray(), [1]);
 * assert.equal(quarantine[0].entry.line, 2);
 * ```
 */
export function pickLmEvalFilter<L extends { rows: pl.DataFrame; quarantine: RunQuarantine[] }>(
  log: L,
  preferred: string | null,
): L {
  if (log.rows.height === 0 || !log.rows.columns.includes("extra")) return log;
  const rows = log.rows.withRowIndex("__pos").withColumns(FILTER.alias("__filter"));
  const chosen = chosenFilters(rows, preferred);
  if (chosen.height === 0) return log;
  const key = ["source_file", "run", "example_index", "epoch"];
  const ranked = rows.join(chosen, { on: "source_file", how: "left" }).withColumns(
    pl.when(pl.col("__filter").eq(pl.col("__chosen")).fillNull(false)).then(pl.lit(0))
      .otherwise(pl.lit(1)).alias("__rank"),
  );
  // per response: the line scored (chosen filter first, then the earliest line)
  const kept = ranked.filter(
    pl.col("__chosen").isNotNull().and(pl.col("example_index").isNotNull()),
  )
    .sort(["__rank", "source_line"])
    .groupBy(key).agg(
      pl.col("__filter").first().alias("__kept_filter"),
      pl.col("source_line").first().alias("__kept_line"),
    );
  const marked = ranked.join(kept, { on: key, how: "left" }).sort("__pos");
  const other = pl.col("__kept_line").isNotNull()
    .and(pl.col("__filter").neq(pl.col("__kept_filter")).fillNull(false));
  const dropped = marked.filter(other)
    .select("source_file", "run", "source_line", "__filter", "__kept_filter", "__kept_line")
    .toRecords() as {
      source_file: string;
      run: string;
      source_line: number;
      __filter: string;
      __kept_filter: string;
      __kept_line: number;
    }[];
  if (dropped.length === 0) return log;
  return {
    ...log,
    rows: marked.filter(other.not()).select(...log.rows.columns),
    quarantine: [
      ...log.quarantine,
      ...dropped.map((d) => ({
        run: d.run,
        entry: {
          file: d.source_file,
          line: d.source_line,
          reason: `lm-eval filter "${d.__filter}": the same response is scored once, from ` +
            `line ${d.__kept_line} (filter "${d.__kept_filter}")`,
        },
      })),
    ],
  };
}

/**
 * `source_file` → `__chosen`: the filter kept in each file holding two or more filters —
 * `preferred` when the file has it, else the filter of the file's first line that names one.
 */
function chosenFilters(rows: pl.DataFrame, preferred: string | null): pl.DataFrame {
  const firsts = rows.filter(pl.col("__filter").isNotNull())
    .groupBy("source_file", "__filter").agg(pl.col("source_line").min().alias("__first"))
    .toRecords() as { source_file: string; __filter: string; __first: number }[];
  const byFile = new Map<string, { __filter: string; __first: number }[]>();
  for (const r of firsts) {
    if (!byFile.has(r.source_file)) byFile.set(r.source_file, []);
    byFile.get(r.source_file)!.push(r);
  }
  const files: string[] = [];
  const chosen: string[] = [];
  for (const [file, filters] of [...byFile].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0)) {
    if (filters.length < 2) continue;
    files.push(file);
    chosen.push(
      filters.some((f) => f.__filter === preferred)
        ? preferred!
        : filters.reduce((a, b) => a.__first <= b.__first ? a : b).__filter,
    );
  }
  return pl.DataFrame([
    pl.Series("source_file", files, pl.Utf8),
    pl.Series("__chosen", chosen, pl.Utf8),
  ]);
}
